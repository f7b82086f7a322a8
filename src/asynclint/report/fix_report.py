"""What ``asynclint fix`` prints: the fixes made, the findings left and why, or a unified diff."""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping

from asynclint.fixers.orchestrator import Applied, FixOutcome
from asynclint.model import FileError, Severity
from asynclint.report._common import plural, severity_breakdown


def render_diff(outcome: FixOutcome) -> str:
    """One unified diff per changed file, in path order, with git's ``a/`` and ``b/`` prefixes
    (``git apply`` and ``patch -p1`` read it as it is)."""
    parts: list[str] = []
    for path, text in sorted(outcome.changed.items()):
        parts.extend(
            difflib.unified_diff(
                outcome.original[path].splitlines(keepends=True),
                text.splitlines(keepends=True),
                f"a/{path}",
                f"b/{path}",
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in parts)


def _written(outcome: FixOutcome, write_errors: Mapping[str, str]) -> list[Applied]:
    return [a for a in outcome.applied if not any(path in write_errors for path in a.paths)]


def fixed_lines(outcome: FixOutcome, write_errors: Mapping[str, str], *, dry_run: bool = False) -> list[str]:
    """One line per fix made (or that would be), placed in the files as they were: each fix
    records its finding as ``check`` reported it."""
    verb = "would fix" if dry_run else "fixed"
    lines = []
    written = _written(outcome, write_errors)
    for applied in sorted(written, key=lambda a: (a.finding.path, a.finding.line, a.finding.column)):
        f = applied.finding
        text = f"{f.path}:{f.line}:{f.column}: {f.code} {verb}: {applied.title}"
        elsewhere = [path for path in applied.paths if path != f.path]
        if elsewhere:
            text += f" (in {', '.join(elsewhere)})"
        if not applied.safe:
            text += " [unsafe]"
        if applied.note:
            text += f"; note: {applied.note}"
        lines.append(text)
    for f in outcome.resolved:
        lines.append(
            f"{f.path}:{f.line}:{f.column}: {f.code} {'would be ' if dry_run else ''}resolved by"
            " another fix (its route ran through the code that fix changed)"
        )
    return lines


def fixed_summary(outcome: FixOutcome, write_errors: Mapping[str, str], *, dry_run: bool = False) -> str:
    """``Fixed 3 findings in 2 files`` (no full stop: the closing line goes on)."""
    written = _written(outcome, write_errors)
    files = {path for a in written for path in a.paths}
    checked = set(outcome.checked)
    # a finding an earlier fix made (a client switched, then built once) is counted apart
    later = sum(applied.finding not in checked for applied in written)
    summary = f"{'Would fix' if dry_run else 'Fixed'} {plural(len(written) - later, 'finding')}"
    summary += f" in {plural(len(files), 'file')}" if files else ""
    return summary + (f" (and {later} that an earlier fix made)" if later else "")


def render_fix_report(
    outcome: FixOutcome,
    errors: Iterable[FileError],
    write_errors: Mapping[str, str],
    *,
    dry_run: bool = False,
    unsafe: bool = False,
    quiet: bool = False,
    threshold: Severity = Severity.LOW,
) -> str:
    """The fixes made, each finding left with its reason, the errors, and a closing line that
    counts what was fixed, what was left and why, and what ``threshold`` left out. Every finding
    is placed where `check` reported it, in the files as they were, so that the fixed, the left
    and the resolved add up to what `check` reported; a finding left whose line moved says where
    it is now, and one a fix made is placed in the fixed file."""
    lines = [] if quiet else fixed_lines(outcome, write_errors, dry_run=dry_run)
    introduced = set(map(id, outcome.introduced))
    placed = outcome.as_checked([left.finding for left in outcome.left])
    for left, f in zip(outcome.left, placed, strict=True):
        now = left.finding
        where = f"{f.path}:{f.line}:{f.column}"
        if id(left) in introduced:
            text = f"{where}: {f.code} [{f.severity.label}] new{'' if dry_run else ' (in the fixed file)'}"
        else:
            moved = not dry_run and now.line != f.line
            text = f"{where}: {f.code} [{f.severity.label}] left{f' (now line {now.line})' if moved else ''}"
        lines.append(f"{text}: {left.reason}")
    for path, message in sorted(write_errors.items()):
        lines.append(f"{path}: error: not fixed, {message}")
    for error in errors:
        lines.append(f"{error.path}: error: {error.message}")
    summary = fixed_summary(outcome, write_errors, dry_run=dry_run)
    if outcome.resolved:
        summary += f"; {len(outcome.resolved)} resolved by other fixes"
    if outcome.left:
        new = len(outcome.introduced)
        summary += f"; {len(outcome.left) - new} left ({_why_left(outcome, unsafe)})" + (f", {new} new" if new else "")
    if outcome.below:
        lowest = min(finding.severity for finding in outcome.below)
        summary += (
            f"; {len(outcome.below)} below --severity {threshold.label} not tried "
            f"({severity_breakdown(outcome.below)}; --severity {lowest.label} tries them)"
        )
    if write_errors:
        summary += f"; {plural(len(write_errors), 'file')} could not be written"
    lines.append(summary + ".")
    return "\n".join(lines) + "\n"


#: Why findings were left, in the closing line's words, by what their reasons say (most
#: actionable first); a reason that says none of these is a fixer's decline for that code.
_LEFT_KINDS = (
    ("--unsafe-fixes", "with an unsafe fix: --unsafe-fixes"),
    ("suppression comment covers", "on a line a suppression covers"),
    ("no automatic fix", "with no automatic fix"),
    ("rounds of fixes", "not reached: run fix again"),
)


def _why_left(outcome: FixOutcome, unsafe: bool) -> str:
    counts: Counter[str] = Counter()
    for left in outcome.left:
        kind = next(
            (
                words
                for marker, words in _LEFT_KINDS
                if marker in left.reason and not (unsafe and marker == "--unsafe-fixes")
            ),
            "declined by the fixer, as said above",
        )
        counts[kind] += 1
    order = [words for _, words in _LEFT_KINDS] + ["declined by the fixer, as said above"]
    return ", ".join(f"{counts[words]} {words}" for words in order if counts[words])
