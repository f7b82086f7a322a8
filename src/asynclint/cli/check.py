"""``asynclint check``: report, and with ``--watch`` keep reporting; ``--fix`` fixes first."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from asynclint.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    FORMATS,
    cache_dir_option,
    config_options,
    fail,
    load_config,
    load_project,
    scope,
    selection_options,
    split_values,
    stopped,
    stops_cleanly,
    stops_listing_written,
    terminal,
    use_color,
)
from asynclint.config import MAX_FOLLOW_DEPTH, Config, ConfigError
from asynclint.files import PathError
from asynclint.interrupts import Interrupted
from asynclint.io import write_output
from asynclint.model import Result, Severity

if TYPE_CHECKING:  # imported where used: the warm path loads no project walk
    pass


@click.command("check")
@selection_options(
    severity="Minimum severity to report (default: low, i.e. everything).",
    select="Rules to enable: codes, code prefixes or names, comma-separated (replaces the config).",
    ignore="Rules to disable, comma-separated.",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="rich", show_default=True, help="Output format.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write the report to FILE instead of standard output.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print findings only: no summary.")
@click.option("--no-color", is_flag=True, help="Disable colours (also: NO_COLOR=1).")
@click.option(
    "--statistics",
    is_flag=True,
    help="Print counts per rule instead of the findings, as ruff does (`count  code  [*] name`, [*]: "
    "some have a safe fix); with --format json, a JSON array.",
)
@config_options
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes for indexing (default: the CPU count).",
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@cache_dir_option("Keep the cache in DIR instead of .asynclint_cache in the project root (also: ASYNCLINT_CACHE_DIR).")
@click.option(
    "--follow-imports/--no-follow-imports",
    default=None,
    help="Analyse the installed third-party code that hot code calls into, where it resolves "
    "on this interpreter's path, and report what blocks inside it at the project's call "
    "(default: on; --no-follow-imports: the project's own code only).",
)
@click.option(
    "--follow-depth",
    type=click.IntRange(1, MAX_FOLLOW_DEPTH),
    default=None,
    metavar="N",
    help="How many installed packages deep to follow calls (a package's calls into itself are followed "
    "to the end; default: 2).",
)
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Hide the findings recorded in FILE (see --write-baseline): fail on new ones only.",
)
@click.option(
    "--write-baseline",
    is_flag=True,
    help="Record the current findings in the --baseline FILE and exit 0 (entries no finding matches "
    "any more are dropped; those of files not checked are kept).",
)
@click.option(
    "--whole-project",
    is_flag=True,
    help="Analyse the whole project PATHS belong to and report only the findings in PATHS or whose "
    "chain runs through one of them (the pre-commit hook: PATHS are the staged files).",
)
@click.option(
    "--fix",
    "apply_fixes",
    is_flag=True,
    help="Apply the safe fixes first (as `asynclint fix` at the same --severity), then report what is "
    "left; what was fixed is counted on stderr.",
)
@click.option("--unsafe-fixes", is_flag=True, help="With --fix: also apply fixes that can change behaviour.")
@click.option("--show-fixes", is_flag=True, help="With --fix: list each fix made (on stderr).")
@click.option(
    "--watch",
    is_flag=True,
    help="Check again whenever a checked file or a configuration changes (the cache keeps it quick); Ctrl-C stops.",
)
@stops_cleanly
def check(
    paths: tuple[str, ...],
    severity: str | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fmt: str,
    output: str | None,
    quiet: bool,
    no_color: bool,
    statistics: bool,
    config_file: str | None,
    exclude: tuple[str, ...],
    jobs: int | None,
    no_cache: bool,
    cache_dir: str | None,
    follow_imports: bool | None,
    follow_depth: int | None,
    baseline_file: str | None,
    write_baseline: bool,
    whole_project: bool,
    apply_fixes: bool,
    unsafe_fixes: bool,
    show_fixes: bool,
    watch: bool,
) -> None:
    """Report blocking calls on hot async paths under PATHS (default: the current directory).

    Exit status: 0 nothing at or above --severity, 1 findings, 2 a file could not be analysed
    or the command line / configuration is wrong; 130 interrupted (Ctrl-C, also ending --watch;
    143 SIGTERM, 129 SIGHUP).
    """
    from asynclint.cache_summaries import Decoded
    from asynclint.progress import ProgressBar
    from asynclint.report import render
    from asynclint.runner import run_check

    paths = paths or (".",)
    if write_baseline and baseline_file is None:
        fail("--write-baseline needs --baseline FILE")
    if statistics and fmt not in ("rich", "concise", "json"):
        fail(f"--statistics has no {fmt} form (use --format rich, concise or json)")
    if (unsafe_fixes or show_fixes) and not apply_fixes:
        flag = "--unsafe-fixes" if unsafe_fixes else "--show-fixes"
        fail(f"{flag} needs --fix (to see the fixes without writing them: asynclint fix --dry-run)")
    if watch and write_baseline:
        fail("--watch and --write-baseline do not go together: record the baseline once")
    # A watch's rounds take the summaries of the files an edit left alone from the last round.
    decoded = Decoded() if watch else None

    def once() -> int:
        """One check: the exit status it calls for."""
        known = None
        if baseline_file is not None:
            from asynclint import baseline
        # Written again, a baseline keeps the entries of files this run does not check.
        if baseline_file is not None and (not write_baseline or Path(baseline_file).is_file()):
            try:
                known = baseline.parse(Path(baseline_file).read_text(encoding="utf-8"))
            except OSError as exc:
                fail(f"{baseline_file}: cannot read baseline: {exc.strerror or exc}")
            except (UnicodeDecodeError, baseline.BaselineError) as exc:
                if not write_baseline:
                    fail(f"{baseline_file}: {exc}")
        try:
            scoped, wanted = scope(paths, whole_project)
            project = load_project(
                scoped,
                config_file,
                use_cache=not no_cache,
                cache_directory=Path(cache_dir).resolve() if cache_dir else None,
            )
            config = project.config.with_flags(
                select=split_values(select) or None,
                ignore=split_values(ignore),
                exclude=split_values(exclude),
                min_severity=severity,
                # --follow-depth alone asks for deep mode too
                follow_imports=True if follow_imports is None and follow_depth is not None else follow_imports,
                follow_depth=follow_depth,
            )
            if apply_fixes:
                _fix_first(
                    scoped,
                    config,
                    wanted,
                    unsafe_fixes,
                    show_fixes,
                    quiet,
                    Path(cache_dir).resolve() if cache_dir else None,
                )
            # A person waiting at a terminal sees a bar; the machine formats are read by programs.
            with ProgressBar(enabled=fmt in ("rich", "concise") and not quiet and sys.stderr.isatty()) as bar:
                # The files the configuration's walk found, unless --exclude or fixes change them.
                files = project.files if not (split_values(exclude) or apply_fixes) else None
                result = run_check(
                    scoped,
                    config,
                    jobs=jobs,
                    use_cache=not no_cache,
                    progress=bar,
                    cache_directory=Path(cache_dir).resolve() if cache_dir else None,
                    files=files,
                    decoded=decoded,
                )
        except (ConfigError, PathError) as exc:
            fail(str(exc))
        if not result.files_checked:
            click.echo("asynclint: warning: no Python files found under " + ", ".join(scoped), err=True)
        for note in result.notes:
            click.echo(f"asynclint: warning: {note}", err=True)
        if known is not None:
            stale = known.stale(result.findings, _could_find(result, config))
        if write_baseline:
            assert baseline_file is not None  # refused above without --baseline
            kept = known.kept(result.paths) if known is not None else ()
            try:
                write_output(Path(baseline_file), baseline.render(result.findings, kept))
            except OSError as exc:
                fail(f"{baseline_file}: cannot write baseline: {exc.strerror or exc}")
            pruned = f", pruned {len(stale)} stale entries" if known is not None and stale else ""
            click.echo(f"asynclint: recorded {len(result.findings)} findings in {baseline_file}{pruned}", err=True)
            return EXIT_ERROR if result.errors else EXIT_CLEAN
        if known is not None:
            new, hidden = known.split(result.findings)
            result = replace(result, findings=new)
            if hidden and not quiet:
                click.echo(f"asynclint: {hidden} known findings hidden by the baseline {baseline_file}", err=True)
            if stale:
                click.echo(
                    f"asynclint: {len(stale)} baseline entries match no finding any more (fixed, or reached "
                    f"another way); `--write-baseline` prunes them:",
                    err=True,
                )
                for item in stale:
                    click.echo(
                        f"  {item.get('path')}:{item.get('line')}: {item.get('code')} {item.get('message', '')}",
                        err=True,
                    )
        if wanted is not None:
            result = _touching(result, wanted)
        width, fill = terminal(output)
        text = render(
            result,
            fmt,
            color=use_color(no_color, output),
            width=width,
            fill=fill,
            show_statistics=statistics,
            quiet=quiet,
        )
        if output:
            try:
                write_output(Path(output), text)
            except OSError as exc:
                fail(f"{output}: cannot write report: {exc.strerror or exc}")
        else:
            click.echo(text, nl=not text.endswith("\n"))
        if result.errors:
            return EXIT_ERROR
        return EXIT_FINDINGS if result.findings else EXIT_CLEAN

    if not watch:
        sys.exit(once())
    _watch(once, paths, whole_project, config_file)


#: How the line after each round of ``--watch`` words the round's exit status.
_OUTCOME = {EXIT_CLEAN: "clean", EXIT_FINDINGS: "findings", EXIT_ERROR: "errors"}


def _watch(once: Callable[[], int], paths: tuple[str, ...], whole_project: bool, config_file: str | None) -> None:
    """``check --watch``: ``once`` now and after every change, until Ctrl-C (exit 130). A round
    that fails (a configuration being edited) says why in one line and the watch goes on."""
    import time

    from asynclint.watch import snapshot, watch

    try:
        scoped, _ = scope(paths, whole_project)
        config = load_config(scoped, config_file)
    except (ConfigError, PathError) as exc:
        fail(str(exc))
    clear = sys.stdout.isatty()

    def round_() -> None:
        if clear:
            click.clear()
        try:
            status = once()
        except SystemExit as exc:  # fail: the one line is on stderr already
            status = exc.code if isinstance(exc.code, int) else EXIT_ERROR
        click.echo(
            f"asynclint: [{time.strftime('%H:%M:%S')}] {_OUTCOME.get(status, 'errors')}; "
            "watching for changes (Ctrl-C stops)",
            err=True,
        )

    try:
        watch(round_, lambda: snapshot(scoped, config))
    except (KeyboardInterrupt, Interrupted):  # Ctrl-C ends a watch: not an interruption of one check
        click.echo("asynclint: stopped watching", err=True)
        sys.exit(EXIT_INTERRUPTED)


def _fix_first(
    paths: Sequence[str],
    config: Config,
    wanted: frozenset[str] | None,
    unsafe: bool,
    show: bool,
    quiet: bool,
    cache_directory: Path | None,
) -> None:
    """``check --fix``: fix and write, saying on stderr what was fixed (the report that follows
    shows what is left, and its exit status is the run's)."""
    from asynclint.fixrun import Writes, run_fix
    from asynclint.report.fix_report import fixed_lines, fixed_summary

    writes = Writes()
    with stops_listing_written(writes):
        run = run_fix(paths, config, unsafe=unsafe, wanted=wanted, cache_directory=cache_directory, writes=writes)
        if run.stopped is not None:
            stopped(run.stopped, list(run.written), len(run.outcome.changed))
        for line in fixed_lines(run.outcome, run.write_errors) if show else ():
            click.echo(line, err=True)
        for path, message in sorted(run.write_errors.items()):
            click.echo(f"asynclint: error: {path}: not fixed, {message}", err=True)
        if run.outcome.applied and not quiet or show:
            click.echo(f"asynclint: {fixed_summary(run.outcome, run.write_errors)}.", err=True)


def _touching(result: Result, wanted: frozenset[str]) -> Result:
    """The findings (and unreadable files) in ``wanted`` files or whose chain runs through one."""
    from asynclint.project import covers, touches

    return replace(
        result,
        findings=tuple(f for f in result.findings if touches(f, wanted)),
        errors=tuple(e for e in result.errors if covers(wanted, e.path)),
    )


def _could_find(result: Result, config: Config) -> Callable[[dict[str, Any]], bool]:
    """Whether this run could have found a baseline entry again: its file was checked, that
    file's configuration reports its rule, at a severity this run shows."""
    checked = set(result.paths)

    def could(item: dict[str, Any]) -> bool:
        path, code = item.get("path"), item.get("code")
        if path not in checked or not isinstance(code, str):
            return False
        if code not in config.for_shown(path).enabled_codes():
            return False
        try:
            return Severity.parse(item.get("severity", "critical")) >= config.min_severity
        except (ValueError, AttributeError):
            return True

    return could
