"""The command line: the only place that prints, writes reports, and exits."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import click

from asynclint import __version__, baseline
from asynclint.config import MAX_FOLLOW_DEPTH, ConfigError, find_pyproject, load
from asynclint.docs import render_rule, rules_markdown, rules_table
from asynclint.files import PathError
from asynclint.model import Severity

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
SEVERITIES = [s.label for s in sorted(Severity, reverse=True)]
FORMATS = ("rich", "json", "sarif", "github", "concise")


def _fail(message: str) -> None:
    click.echo(f"asynclint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _split(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _use_color(no_color: bool, output: str | None) -> bool:
    if no_color or output or os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file and a rename: never a half-written report."""
    directory = path.parent if str(path.parent) else Path(".")
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="asynclint")
def main() -> None:
    """Find, fix and measure event-loop blocking in asyncio code."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--severity", type=click.Choice(SEVERITIES), default=None,
              help="Minimum severity to report (default: low, i.e. everything).")
@click.option("--select", multiple=True, metavar="RULES",
              help="Rules to enable: codes, code prefixes or names, comma-separated (replaces the config).")
@click.option("--ignore", multiple=True, metavar="RULES", help="Rules to disable, comma-separated.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="rich", show_default=True,
              help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the report to FILE instead of standard output.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only: no summary.")
@click.option("--no-color", is_flag=True, help="Disable colours (also: NO_COLOR=1).")
@click.option("--statistics", is_flag=True, help="Show counts per rule.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Read [tool.asynclint] from this pyproject.toml instead of the nearest one.")
@click.option("--exclude", multiple=True, metavar="PATTERNS",
              help="Extra gitignore-style patterns to skip, comma-separated.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes for indexing (default: the CPU count).")
@click.option("--no-cache", is_flag=True, help="Do not read or write .asynclint_cache.")
@click.option("--follow-imports/--no-follow-imports", default=None,
              help="Also analyse the installed third-party code that hot code calls into, and report "
                   "what blocks inside it at the project's call (default: off).")
@click.option("--follow-depth", type=click.IntRange(1, MAX_FOLLOW_DEPTH), default=None, metavar="N",
              help="With --follow-imports: how many calls deep to follow into installed packages (default: 2).")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Hide the findings recorded in FILE (see --write-baseline): fail on new ones only.")
@click.option("--write-baseline", is_flag=True,
              help="Record the current findings in the --baseline FILE and exit 0.")
def check(paths, severity, select, ignore, fmt, output, quiet, no_color, statistics, config_file,
          exclude, jobs, no_cache, follow_imports, follow_depth, baseline_file, write_baseline) -> None:
    """Report blocking calls on hot async paths under PATHS (default: the current directory).

    Exit status: 0 nothing at or above --severity, 1 findings, 2 a file could not be analysed
    or the command line / configuration is wrong.
    """
    from asynclint.report import render
    from asynclint.runner import run_check

    paths = paths or (".",)
    if write_baseline and baseline_file is None:
        _fail("--write-baseline needs --baseline FILE")
    known = None
    if baseline_file is not None and not write_baseline:
        try:
            known = baseline.parse(Path(baseline_file).read_text(encoding="utf-8"))
        except OSError as exc:
            _fail(f"{baseline_file}: cannot read baseline: {exc.strerror or exc}")
        except (UnicodeDecodeError, baseline.BaselineError) as exc:
            _fail(f"{baseline_file}: {exc}")
    try:
        if config_file is not None:
            if not Path(config_file).is_file():
                _fail(f"{config_file}: no such configuration file")
            pyproject = Path(config_file)
        else:
            pyproject = find_pyproject(Path(paths[0]))
        config = load(pyproject, Path.cwd()).with_flags(
            select=_split(select) or None, ignore=_split(ignore), exclude=_split(exclude), min_severity=severity,
            # --follow-depth alone asks for deep mode too
            follow_imports=True if follow_imports is None and follow_depth is not None else follow_imports,
            follow_depth=follow_depth,
        )
        result = run_check(paths, config, jobs=jobs, use_cache=not no_cache)
    except (ConfigError, PathError) as exc:
        _fail(str(exc))
    if not result.files_checked:
        click.echo("asynclint: warning: no Python files found under " + ", ".join(paths), err=True)
    if write_baseline:
        try:
            write_atomic(Path(baseline_file), baseline.render(result.findings))
        except OSError as exc:
            _fail(f"{baseline_file}: cannot write baseline: {exc.strerror or exc}")
        click.echo(f"asynclint: recorded {len(result.findings)} findings in {baseline_file}", err=True)
        sys.exit(EXIT_ERROR if result.errors else EXIT_CLEAN)
    if known is not None:
        new, hidden = known.split(result.findings)
        result = replace(result, findings=new)
        if hidden and not quiet:
            click.echo(f"asynclint: {hidden} known findings hidden by the baseline {baseline_file}", err=True)
    text = render(result, fmt, color=_use_color(no_color, output), show_statistics=statistics, quiet=quiet)
    if output:
        try:
            write_atomic(Path(output), text)
        except OSError as exc:
            _fail(f"{output}: cannot write report: {exc.strerror or exc}")
    else:
        click.echo(text, nl=not text.endswith("\n"))
    if result.errors:
        sys.exit(EXIT_ERROR)
    sys.exit(EXIT_FINDINGS if result.findings else EXIT_CLEAN)


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table",
              show_default=True)
def list_rules(fmt: str) -> None:
    """List every rule: code, name, default severity, whether a fix exists."""
    if fmt == "markdown":
        click.echo(rules_markdown(), nl=False)
    elif fmt == "json":
        from asynclint.engine import rule_meta
        from asynclint.rules import ALL_RULES

        metas = [rule_meta(rule) for rule in ALL_RULES]
        click.echo(json.dumps([
            {"code": m.code, "name": m.name, "severity": m.default_severity.label,
             "fix_available": m.fix_available, "summary": m.summary}
            for m in metas
        ], indent=2))
    else:
        click.echo(rules_table(color=_use_color(False, None)), nl=False)


@main.command("rule")
@click.argument("code")
def explain_rule(code: str) -> None:
    """Explain one rule (by code or name): why it matters, an example, the fix."""
    text = render_rule(code, color=_use_color(False, None))
    if text is None:
        _fail(f"unknown rule {code!r} (see `asynclint rules`)")
    click.echo(text, nl=False)
