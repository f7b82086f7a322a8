"""The command line: the only place that prints, writes reports, and exits."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import click

from asynclint import __version__
from asynclint.config import ConfigError, find_pyproject, load
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
def check(paths, severity, select, ignore, fmt, output, quiet, no_color, statistics, config_file,
          exclude, jobs, no_cache) -> None:
    """Report blocking calls on hot async paths under PATHS (default: the current directory).

    Exit status: 0 nothing at or above --severity, 1 findings, 2 a file could not be analysed
    or the command line / configuration is wrong.
    """
    from asynclint.report import render
    from asynclint.runner import run_check

    paths = paths or (".",)
    try:
        if config_file is not None:
            if not Path(config_file).is_file():
                _fail(f"{config_file}: no such configuration file")
            pyproject = Path(config_file)
        else:
            pyproject = find_pyproject(Path(paths[0]))
        config = load(pyproject, Path.cwd()).with_flags(
            select=_split(select) or None, ignore=_split(ignore), exclude=_split(exclude), min_severity=severity,
        )
        result = run_check(paths, config, jobs=jobs, use_cache=not no_cache)
    except (ConfigError, PathError) as exc:
        _fail(str(exc))
    if not result.files_checked:
        click.echo("asynclint: warning: no Python files found under " + ", ".join(paths), err=True)
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


def _load_config(paths, config_file, select, ignore, exclude, severity):
    if config_file is not None:
        if not Path(config_file).is_file():
            _fail(f"{config_file}: no such configuration file")
        pyproject = Path(config_file)
    else:
        pyproject = find_pyproject(Path(paths[0]))
    return load(pyproject, Path.cwd()).with_flags(
        select=_split(select) or None, ignore=_split(ignore), exclude=_split(exclude), min_severity=severity,
    )


@main.command("fix")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--severity", type=click.Choice(SEVERITIES), default="high", show_default=True,
              help="Fix findings at or above this severity.")
@click.option("--select", multiple=True, metavar="RULES",
              help="Rules to fix: codes, code prefixes or names, comma-separated (replaces the config).")
@click.option("--ignore", multiple=True, metavar="RULES", help="Rules not to fix, comma-separated.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Print a unified diff of the fixes and write nothing (exit 1 if there is anything to fix).")
@click.option("--dry-run", is_flag=True, help="Report what would be fixed and what would be left; write nothing.")
@click.option("--unsafe-fixes", is_flag=True,
              help="Also apply fixes that can change behaviour "
                   "(async clients, process pools, shared memos, hoisted clients).")
@click.option("-q", "--quiet", is_flag=True, help="Print only what was left and the errors.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None,
              help="Read [tool.asynclint] from this pyproject.toml instead of the nearest one.")
@click.option("--exclude", multiple=True, metavar="PATTERNS",
              help="Extra gitignore-style patterns to skip, comma-separated.")
def fix(paths, severity, select, ignore, show_diff, dry_run, unsafe_fixes, quiet, config_file, exclude) -> None:
    """Rewrite blocking calls on hot async paths under PATHS (default: the current directory).

    Every fix is verified before it is written: the file still compiles, the finding is gone
    and nothing more severe appeared; files are replaced atomically, permissions kept.

    Exit status: 0 nothing left at or above --severity; 1 findings left (the report says why),
    or with --diff / --dry-run, anything to fix; 2 a file could not be analysed or written, or
    the command line / configuration is wrong.
    """
    from asynclint.fixers.orchestrator import fix_sources
    from asynclint.report.fix_report import render_diff, render_fix_report
    from asynclint.files import discover, display_path
    from asynclint.runner import read_sources
    from asynclint.writer import WriteError, replace_source

    paths = paths or (".",)
    try:
        config = _load_config(paths, config_file, select, ignore, exclude, severity)
        files = discover(paths, config)
    except (ConfigError, PathError) as exc:
        _fail(str(exc))
    if not files:
        click.echo("asynclint: warning: no Python files found under " + ", ".join(paths), err=True)
    sources, read_errors = read_sources(files)
    outcome = fix_sources(sources, config, unsafe=unsafe_fixes)
    changed = outcome.changed
    if show_diff:
        text = render_diff(outcome)
        click.echo(text, nl=False)
        errors = [*read_errors, *outcome.errors]
        for error in errors:
            click.echo(f"asynclint: error: {error.path}: {error.message}", err=True)
        sys.exit(EXIT_ERROR if errors else EXIT_FINDINGS if changed else EXIT_CLEAN)
    write_errors: dict[str, str] = {}
    if not dry_run:
        real = {display_path(file): file for file in files}
        for shown, text in changed.items():
            try:
                replace_source(real[shown], outcome.original[shown], text)
            except WriteError as exc:
                write_errors[shown] = str(exc)
    report = render_fix_report(outcome, [*read_errors, *outcome.errors], write_errors, dry_run=dry_run,
                               unsafe=unsafe_fixes, quiet=quiet)
    click.echo(report, nl=not report.endswith("\n"))
    if read_errors or outcome.errors or write_errors:
        sys.exit(EXIT_ERROR)
    if dry_run:
        sys.exit(EXIT_FINDINGS if changed or outcome.left else EXIT_CLEAN)
    sys.exit(EXIT_FINDINGS if outcome.left else EXIT_CLEAN)


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
