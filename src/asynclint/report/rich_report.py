"""The default terminal report: findings grouped by file, with call chains, fixes and a summary."""

from __future__ import annotations

import io
import re

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from asynclint.model import Finding, FixInfo, Result, Severity
from asynclint.report._common import (
    chain_steps,
    plural,
    severity_counts,
)

SEVERITY_STYLE = {
    Severity.CRITICAL: "bold red",
    Severity.HIGH: "red",
    Severity.MEDIUM: "yellow",
    Severity.LOW: "cyan",
}
CODE_STYLE = "bold"
INLINE_CODE_STYLE = "bold cyan"
LOCATION_STYLE = "dim"
SEVERITY_WIDTH = max(len(sev.label) for sev in Severity)


def _with_inline_code(text: str) -> Text:
    """Text whose `backticked` spans are highlighted.

    Built from a plain string, never markup, so brackets in messages and paths print verbatim.
    """
    rendered = Text(text)
    rendered.highlight_regex(r"`[^`\n]+`", INLINE_CODE_STYLE)
    return rendered


def _severity_text(severity: Severity) -> Text:
    return Text(severity.label, style=SEVERITY_STYLE[severity])


def _chain_lines(finding: Finding) -> Group:
    lines = []
    for position, step in enumerate(chain_steps(finding.chain)):
        # Deeper calls indent further, so the chain reads like a call stack.
        marker = "↳ " if position == 0 else "  " * step.depth + "→ "
        lines.append(
            Text.assemble(
                Text(marker, style=LOCATION_STYLE),
                _with_inline_code(step.text),
                Text(f"  {step.link.path}:{step.link.line}", style=LOCATION_STYLE),
            )
        )
    return Group(*lines)


def _related_lines(finding: Finding) -> Group:
    """One ``note:`` line per related place, as rustc prints them: what happens there, and where."""
    return Group(
        *(
            Text.assemble(
                Text("note: ", style=LOCATION_STYLE),
                _with_inline_code(place.message),
                Text(
                    f"  {place.path}:{place.line}" + (f":{place.column}" if place.column else ""), style=LOCATION_STYLE
                ),
            )
            for place in finding.related
        )
    )


def _fix_text(fix: FixInfo) -> Text:
    if fix.safe:
        label = Text("fix available (safe): ", style="green")
    else:
        label = Text("fix available (unsafe): ", style="yellow")
    return Text.assemble(label, _with_inline_code(fix.title))


def _file_table(findings: list[Finding], location_width: int, code_width: int) -> Table:
    # Fixed widths from the whole result keep the columns aligned from one file to the next.
    # Padding is right-only and uncollapsed: rich ignores min_width under collapsed padding.
    table = Table.grid(padding=(0, 2, 0, 0), collapse_padding=False)
    table.add_column(justify="right", min_width=location_width, no_wrap=True)
    table.add_column(min_width=code_width, no_wrap=True, style=CODE_STYLE)
    table.add_column(min_width=SEVERITY_WIDTH, no_wrap=True)
    table.add_column(overflow="fold", ratio=1)
    for finding in findings:
        detail: list[RenderableType] = [_with_inline_code(finding.message)]
        # A direct chain (entry point, then the call in it) only repeats what the message says.
        if len(finding.chain) > 2:
            detail.append(_chain_lines(finding))
        if finding.related:
            detail.append(_related_lines(finding))
        if finding.fix is not None:
            detail.append(_fix_text(finding.fix))
        table.add_row(
            Text(f"{finding.line}:{finding.column}", style=LOCATION_STYLE),
            finding.code,
            _severity_text(finding.severity),
            Group(*detail),
        )
    return table


def _heading(console: Console, text: Text, style: str, fill: bool) -> None:
    """A section heading: a rule across the terminal, or the text alone when nobody's screen
    sets the width (a file, a pipe: no line of dashes to grep past)."""
    if fill:
        console.rule(text, align="left", style=style)
    else:
        console.print(text)


def _print_findings(console: Console, findings: tuple[Finding, ...], fill: bool) -> None:
    location_width = max(len(f"{f.line}:{f.column}") for f in findings)
    code_width = max(len(f.code) for f in findings)
    by_file: dict[str, list[Finding]] = {}
    for finding in findings:
        by_file.setdefault(finding.path, []).append(finding)
    for path, file_findings in by_file.items():
        _heading(console, Text(path, style="bold"), LOCATION_STYLE, fill)
        table = _file_table(file_findings, location_width, code_width)
        console.print(Padding(table, (0, 0, 0, 2), expand=False))
        console.print()


def _print_errors(console: Console, result: Result, fill: bool) -> None:
    _heading(console, Text("Errors", style="bold red"), "red", fill)
    for error in result.errors:
        console.print(Text.assemble((error.path, "bold red"), (": ", "red"), (error.message, "red")))
    console.print()


def _summary_table(result: Result) -> Table:
    counts = dict(severity_counts(result.findings))
    table = Table(title="Summary", title_justify="left", box=box.ROUNDED)
    table.add_column("Severity")
    table.add_column("Findings", justify="right")
    for sev in sorted(Severity, reverse=True):
        count = counts.get(sev, 0)
        # Zero rows stay (dimmed) so the table's shape is the same on every run.
        table.add_row(
            _severity_text(sev) if count else Text(sev.label, style=LOCATION_STYLE),
            Text(str(count), style="" if count else LOCATION_STYLE),
        )
    table.add_section()
    table.add_row(Text("total", style="bold"), Text(str(len(result.findings)), style="bold"))
    table.add_row("files checked", str(result.files_checked))
    if result.errors:
        table.add_row(Text("files with errors", style="red"), Text(str(len(result.errors)), style="red"))
    return table


def _headline(result: Result) -> Text:
    files_with_findings = len({f.path for f in result.findings})
    worst = max(f.severity for f in result.findings)
    return Text.assemble(
        (f"Found {plural(len(result.findings), 'blocking call')}", SEVERITY_STYLE[worst]),
        f" in {files_with_findings} of {plural(result.files_checked, 'file')} checked.",
    )


def render_rich(
    result: Result,
    *,
    color: bool = True,
    width: int | None = None,
    quiet: bool = False,
    fill: bool = True,
) -> str:
    """``width``: the terminal's columns (default 100); ``fill``: headings drawn as rules across
    it (for a terminal; a pipe or a file gets the heading text alone)."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=color,
        no_color=not color,
        # Fixed rather than sniffed from TERM: the caller has already decided on colour.
        color_system="standard" if color else None,
        width=width or 100,
        highlight=False,
        soft_wrap=False,
    )
    if result.findings:
        _print_findings(console, result.findings, fill)
    if result.errors:
        _print_errors(console, result, fill)
    if not quiet:
        if result.findings:
            console.print(_summary_table(result))
            console.print(_headline(result))
        else:
            files = plural(result.files_checked, "file")
            console.print(Text(f"No blocking calls found in {files}.", style="green"))
        if result.errors:
            failed = plural(len(result.errors), "file")
            console.print(Text(f"{failed} could not be analysed.", style="bold red"))
    return _strip_trailing_spaces(buffer.getvalue())


# Trailing run of spaces and SGR codes at a line end: rich pads cells to the column width.
_LINE_END_PADDING = re.compile(r"(?:\x1b\[[0-9;]*m| )+$", re.MULTILINE)


def _strip_trailing_spaces(text: str) -> str:
    """Drop rich's cell padding at line ends (it pollutes copy-paste) but keep style resets."""
    return _LINE_END_PADDING.sub(lambda match: match.group().replace(" ", ""), text)
