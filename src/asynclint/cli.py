"""The command line: the only place that prints, writes reports, and exits."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from asynclint import __version__
from asynclint.config import MAX_FOLLOW_DEPTH, Config, ConfigError
from asynclint.files import PathError
from asynclint.interrupts import Interrupted, ignore_late_stops, raise_on_stop
from asynclint.io import check_output, write_output
from asynclint.model import Result, Severity

if TYPE_CHECKING:  # imported where used: the warm path loads no project walk
    from asynclint.fixrun import Writes
    from asynclint.project import Project

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
#: `profile` or `check --watch` stopped by SIGINT (Ctrl-C), as shells report it: 128 + SIGINT.
EXIT_INTERRUPTED = 130
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


def _terminal(output: str | None) -> tuple[int | None, bool]:
    """(width, fill) for the rich report: a terminal's real width, headings ruled across it; to
    a pipe or a file, ``$COLUMNS`` or the default width, and no rules padding the headings."""
    columns = os.environ.get("COLUMNS", "")
    width = int(columns) if columns.isdigit() and int(columns) > 0 else None
    if output or not sys.stdout.isatty():
        return width, False
    return width or shutil.get_terminal_size().columns, True


def _stops_cleanly(command: Callable[..., None]) -> Callable[..., None]:
    """A command that a stop signal (Ctrl-C, SIGTERM, SIGHUP) ends with a one-line notice and
    128 + the signal's number, its clean-up run (no temporary file stays behind)."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        with raise_on_stop():
            try:
                return command(*args, **kwargs)
            except Interrupted as stop:
                click.echo(f"asynclint: stopped by {stop.name}", err=True)
                sys.exit(stop.exit_code)

    return run


class _Commands(click.Group):
    """The command group. A Ctrl-C that lands before a command has set up its own handling (while
    it imports what it needs, on a loaded machine for a second or more) exits 130 like one that
    lands inside it, instead of click's "Aborted!" and 1, which means "findings" here."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("asynclint: stopped by SIGINT", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None


def _config_options(command: Callable[..., None]) -> Callable[..., None]:
    """``--config`` and ``--exclude``, as check and fix both take them."""
    command = click.option(
        "--exclude", multiple=True, metavar="PATTERNS", help="Extra gitignore-style patterns to skip, comma-separated."
    )(command)
    return click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False),
        default=None,
        help="Use this configuration (pyproject.toml or asynclint.toml) for every file instead of each file's "
        "nearest one.",
    )(command)


def _cache_dir_option(help: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--cache-dir`` (also ``ASYNCLINT_CACHE_DIR``), said the way each command uses the cache."""
    return click.option(
        "--cache-dir", type=click.Path(file_okay=False), default=None, envvar="ASYNCLINT_CACHE_DIR", help=help
    )


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="asynclint")
def main() -> None:
    """Find, fix and measure event-loop blocking in asyncio code."""


def run() -> None:
    """The ``asynclint`` command (and ``python -m asynclint``): :func:`main`, then no stop signal
    while the process exits. Not ``main`` itself, which tests invoke in their own process."""
    try:
        main()
    finally:
        ignore_late_stops()


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--severity",
    type=click.Choice(SEVERITIES),
    default=None,
    help="Minimum severity to report (default: low, i.e. everything).",
)
@click.option(
    "--select",
    multiple=True,
    metavar="RULES",
    help="Rules to enable: codes, code prefixes or names, comma-separated (replaces the config).",
)
@click.option("--ignore", multiple=True, metavar="RULES", help="Rules to disable, comma-separated.")
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
@_config_options
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes for indexing (default: the CPU count).",
)
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@_cache_dir_option("Keep the cache in DIR instead of .asynclint_cache in the project root (also: ASYNCLINT_CACHE_DIR).")
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
@_stops_cleanly
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
    from asynclint.cache import Decoded
    from asynclint.progress import ProgressBar
    from asynclint.report import render
    from asynclint.runner import run_check

    paths = paths or (".",)
    if write_baseline and baseline_file is None:
        _fail("--write-baseline needs --baseline FILE")
    if statistics and fmt not in ("rich", "concise", "json"):
        _fail(f"--statistics has no {fmt} form (use --format rich, concise or json)")
    if (unsafe_fixes or show_fixes) and not apply_fixes:
        flag = "--unsafe-fixes" if unsafe_fixes else "--show-fixes"
        _fail(f"{flag} needs --fix (to see the fixes without writing them: asynclint fix --dry-run)")
    if watch and write_baseline:
        _fail("--watch and --write-baseline do not go together: record the baseline once")
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
                _fail(f"{baseline_file}: cannot read baseline: {exc.strerror or exc}")
            except (UnicodeDecodeError, baseline.BaselineError) as exc:
                if not write_baseline:
                    _fail(f"{baseline_file}: {exc}")
        try:
            scoped, wanted = _scope(paths, whole_project)
            project = _load_project(
                scoped,
                config_file,
                use_cache=not no_cache,
                cache_directory=Path(cache_dir).resolve() if cache_dir else None,
            )
            config = project.config.with_flags(
                select=_split(select) or None,
                ignore=_split(ignore),
                exclude=_split(exclude),
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
                files = project.files if not (_split(exclude) or apply_fixes) else None
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
            _fail(str(exc))
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
                _fail(f"{baseline_file}: cannot write baseline: {exc.strerror or exc}")
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
        width, fill = _terminal(output)
        text = render(
            result,
            fmt,
            color=_use_color(no_color, output),
            width=width,
            fill=fill,
            show_statistics=statistics,
            quiet=quiet,
        )
        if output:
            try:
                write_output(Path(output), text)
            except OSError as exc:
                _fail(f"{output}: cannot write report: {exc.strerror or exc}")
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
        scoped, _ = _scope(paths, whole_project)
        config = _load_config(scoped, config_file)
    except (ConfigError, PathError) as exc:
        _fail(str(exc))
    clear = sys.stdout.isatty()

    def round_() -> None:
        if clear:
            click.clear()
        try:
            status = once()
        except SystemExit as exc:  # _fail: the one line is on stderr already
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
    with _stops_listing_written(writes):
        run = run_fix(paths, config, unsafe=unsafe, wanted=wanted, cache_directory=cache_directory, writes=writes)
        if run.stopped is not None:
            _stopped(run.stopped, list(run.written), len(run.outcome.changed))
        for line in fixed_lines(run.outcome, run.write_errors) if show else ():
            click.echo(line, err=True)
        for path, message in sorted(run.write_errors.items()):
            click.echo(f"asynclint: error: {path}: not fixed, {message}", err=True)
        if run.outcome.applied and not quiet or show:
            click.echo(f"asynclint: {fixed_summary(run.outcome, run.write_errors)}.", err=True)


def _stopped(stop: Interrupted, written: list[str], planned: int) -> None:
    """Exit after a stop signal, saying which files were rewritten before it (all others are as
    they were: each file is replaced whole or not at all)."""
    if not written:
        click.echo(f"asynclint: stopped by {stop.name}: no file was changed", err=True)
    else:
        click.echo(
            f"asynclint: stopped by {stop.name} after rewriting {len(written)} of {planned} files "
            "(the others are unchanged):",
            err=True,
        )
        for shown in written:
            click.echo(f"  {shown}", err=True)
    sys.exit(stop.exit_code)


@contextlib.contextmanager
def _stops_listing_written(writes: Writes) -> Iterator[None]:
    """A stop signal raised anywhere in the block -- before the writing (nothing changed), after it
    (on the way out of the run, while the report is printed) -- says which files were rewritten,
    as one during the writing does: ``writes`` holds them from the first write on."""
    try:
        yield
    except Interrupted as stop:
        _stopped(stop, list(writes.written), writes.planned)


def _scope(paths: tuple[str, ...], whole_project: bool) -> tuple[tuple[str, ...], frozenset[str] | None]:
    """-> (the paths to analyse, the files whose findings to report: ``None`` for all). With
    ``--whole-project``, the project's root is analysed and only what touches PATHS reported."""
    if not whole_project:
        return paths, None
    from asynclint.project import project_root, touched

    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise PathError(f"{missing[0]}: no such file or directory")
    root = project_root([Path(p) for p in paths], Path.cwd())
    return (str(root),), touched(paths, root)


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


def _load_config(paths: Sequence[str], config_file: str | None) -> Config:
    """The project's configuration: ``--config`` for every file, or each file's nearest one."""
    return _load_project(paths, config_file).config


def _load_project(
    paths: Sequence[str], config_file: str | None, *, use_cache: bool = False, cache_directory: Path | None = None
) -> Project:
    """:func:`_load_config`, with the files its walk found (:class:`asynclint.project.Project`);
    with ``use_cache``, the walk is skipped while nothing it depends on changed."""
    from asynclint.project import load_project

    if config_file is not None and not Path(config_file).is_file():
        _fail(f"{config_file}: no such configuration file")
    return load_project(
        paths,
        Path(config_file) if config_file is not None else None,
        use_cache=use_cache,
        cache_directory=cache_directory,
    )


@main.command("fix")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--severity",
    type=click.Choice(SEVERITIES),
    default=None,
    help="Fix findings at or above this severity (default: low, as check: everything check "
    "reports; the closing line counts what a higher one leaves out).",
)
@click.option(
    "--select",
    multiple=True,
    metavar="RULES",
    help="Rules to fix: codes, code prefixes or names, comma-separated (replaces the config).",
)
@click.option("--ignore", multiple=True, metavar="RULES", help="Rules not to fix, comma-separated.")
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Print a unified diff of the fixes and write nothing (exit 1 if there is anything to fix).",
)
@click.option("--dry-run", is_flag=True, help="Report what would be fixed and what would be left; write nothing.")
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="Also apply fixes that can change behaviour "
    "(async clients and twins, process pools, shared memos, hoisted clients).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only what was left and the errors.")
@_config_options
@click.option(
    "--follow-imports/--no-follow-imports",
    default=None,
    help="Fix the project's calls into installed code that blocks inside, as check reports them (default: on).",
)
@_cache_dir_option("Keep deep mode's cache of installed packages in DIR (also: ASYNCLINT_CACHE_DIR).")
@click.option(
    "--whole-project",
    is_flag=True,
    help="Analyse the whole project PATHS belong to and fix only the findings in PATHS or whose chain "
    "runs through one of them (the asynclint-fix pre-commit hook).",
)
def fix(
    paths: tuple[str, ...],
    severity: str | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    show_diff: bool,
    dry_run: bool,
    unsafe_fixes: bool,
    quiet: bool,
    config_file: str | None,
    exclude: tuple[str, ...],
    follow_imports: bool | None,
    cache_dir: str | None,
    whole_project: bool,
) -> None:
    """Rewrite blocking calls on hot async paths under PATHS (default: the current directory).

    Every fix is verified before it is written: the file still compiles, the finding is gone
    and nothing more severe appeared; files are replaced atomically, permissions kept.

    Exit status: 0 nothing left at or above --severity; 1 findings left (the report says why),
    or with --diff / --dry-run, anything to fix; 2 a file could not be analysed or written, or
    the command line / configuration is wrong; 130 interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP):
    the file being written is finished, and the files rewritten so far are listed.
    """
    from asynclint.fixrun import Writes, run_fix
    from asynclint.report.fix_report import render_diff, render_fix_report

    paths = paths or (".",)
    writes = Writes()
    with _stops_listing_written(writes):
        try:
            paths, wanted = _scope(paths, whole_project)
            config = _load_config(paths, config_file).with_flags(
                select=_split(select) or None,
                ignore=_split(ignore),
                exclude=_split(exclude),
                min_severity=severity,
            )
            if follow_imports is not None:
                config = config.with_flags(follow_imports=follow_imports)
            run = run_fix(
                paths,
                config,
                unsafe=unsafe_fixes,
                wanted=wanted,
                write=not (show_diff or dry_run),
                cache_directory=Path(cache_dir).resolve() if cache_dir else None,
                writes=writes,
            )
        except (ConfigError, PathError) as exc:
            _fail(str(exc))
        for link, target in run.skipped:
            click.echo(
                f"asynclint: note: {os.path.relpath(link)} is a symbolic link to {target}, outside "
                f"{', '.join(paths)}: not fixed",
                err=True,
            )
        if not run.files and not run.skipped:
            click.echo("asynclint: warning: no Python files found under " + ", ".join(paths), err=True)
        if run.stopped is not None:
            _stopped(run.stopped, list(run.written), len(run.outcome.changed))
        outcome, changed = run.outcome, run.outcome.changed
        if show_diff:
            click.echo(render_diff(outcome), nl=False)
            for error in run.errors:
                click.echo(f"asynclint: error: {error.path}: {error.message}", err=True)
            sys.exit(EXIT_ERROR if run.errors else EXIT_FINDINGS if changed else EXIT_CLEAN)
        report = render_fix_report(
            outcome,
            run.errors,
            run.write_errors,
            dry_run=dry_run,
            unsafe=unsafe_fixes,
            quiet=quiet,
            threshold=config.min_severity,
        )
        click.echo(report, nl=not report.endswith("\n"))
        if run.errors or run.write_errors:
            sys.exit(EXIT_ERROR)
        if dry_run:
            sys.exit(EXIT_FINDINGS if changed or outcome.left else EXIT_CLEAN)
        sys.exit(EXIT_FINDINGS if outcome.left else EXIT_CLEAN)


@main.command("clean")
@click.argument("paths", nargs=-1, type=click.Path())
@_cache_dir_option("The cache to remove, when kept outside the project (also: ASYNCLINT_CACHE_DIR).")
def clean_cache(paths: tuple[str, ...], cache_dir: str | None) -> None:
    """Remove the cache of the project PATHS belong to (default: the current directory's)."""
    from asynclint.cache import cache_dir as where, clean
    from asynclint.project import project_root

    directory = where(project_root([Path(p) for p in paths or (".",)], Path.cwd()), cache_dir)
    try:
        removed = clean(directory)
    except OSError as exc:
        _fail(f"{directory}: cannot remove the cache: {exc.strerror or exc}")
    click.echo(f"asynclint: removed {removed} cache files from {directory}", err=True)


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown"]), default="table", show_default=True)
def list_rules(fmt: str) -> None:
    """List every rule: code, name, default severity, whether a fix exists."""
    if fmt == "markdown":
        from asynclint.docs import rules_markdown

        click.echo(rules_markdown(), nl=False)
    elif fmt == "json":
        from asynclint.metadata import rule_meta
        from asynclint.rules import ALL_RULES

        metas = [rule_meta(rule) for rule in ALL_RULES]
        click.echo(
            json.dumps(
                [
                    {
                        "code": m.code,
                        "name": m.name,
                        "severity": m.default_severity.label,
                        "fix_available": m.fix_available,
                        "summary": m.summary,
                    }
                    for m in metas
                ],
                indent=2,
            )
        )
    else:
        from asynclint.docs import rules_table

        click.echo(rules_table(color=_use_color(False, None)), nl=False)


@main.command("rule")
@click.argument("code")
def explain_rule(code: str) -> None:
    """Explain one rule (by code or name): why it matters, an example, the fix."""
    from asynclint.docs import render_rule

    text = render_rule(code, color=_use_color(False, None))
    if text is None:
        _fail(f"unknown rule {code!r} (see `asynclint rules`)")
    click.echo(text, nl=False)


class FiniteFloat(click.FloatRange):
    """A float range that also refuses nan and inf (which every comparison lets through)."""

    name = "finite float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


FINITE_POSITIVE = FiniteFloat(min=0, min_open=True)
FINITE_NON_NEGATIVE = FiniteFloat(min=0)


@main.command("profile")
@click.argument("target", required=False)
@click.option(
    "--rollouts",
    type=click.IntRange(min=1),
    default=None,
    help="Rollouts to run (default: 256 for a function, 24 for a verifiers environment).",
)
@click.option(
    "--concurrency", type=click.IntRange(min=1), default=64, show_default=True, help="Rollouts in flight at once."
)
@click.option(
    "--duration",
    type=FINITE_POSITIVE,
    default=None,
    metavar="S",
    help="Keep starting rollouts for S seconds (with --rollouts: whichever ends first).",
)
@click.option(
    "--timeout",
    type=FINITE_POSITIVE,
    default=None,
    metavar="S",
    help="Cancel rollouts still running S seconds after measuring began, counted as timed out "
    "(default: --duration + 10 s with --duration, else none).",
)
@click.option(
    "--warmup",
    type=click.IntRange(min=0),
    default=8,
    show_default=True,
    help="Unmeasured rollouts first (imports, client set-up, caches happen once per process).",
)
@click.option(
    "--latency",
    type=FINITE_NON_NEGATIVE,
    default=50.0,
    show_default=True,
    metavar="MS",
    help="Fake model server: milliseconds per chat completion.",
)
@click.option(
    "--tokens",
    type=click.IntRange(min=0),
    default=24,
    show_default=True,
    help="Fake model server: words of reasoning per reply.",
)
@click.option(
    "--tool-turns",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="Fake model server: tool calls before the final answer.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Fake model server: reply seed.")
@click.option(
    "--env-args",
    default=None,
    metavar="JSON",
    help="verifiers v0: keyword arguments for load_environment(); v1: the env config (taskset, agent, ...).",
)
@click.option(
    "--threshold",
    type=FINITE_POSITIVE,
    default=5.0,
    show_default=True,
    metavar="MS",
    help="A heartbeat this late is a stall and gets attributed.",
)
@click.option(
    "--interval", type=FiniteFloat(min=0.1), default=2.0, show_default=True, metavar="MS", help="Heartbeat period."
)
@click.option(
    "--method",
    type=click.Choice(["auto", "signal", "thread", "callbacks"]),
    default="auto",
    show_default=True,
    help="How stalls are attributed (see docs/profiler.md).",
)
@click.option(
    "--loop",
    "loop_kind",
    type=click.Choice(["asyncio", "uvloop"]),
    default="asyncio",
    show_default=True,
    help="The event loop the target runs on (uvloop: when installed).",
)
@click.option("--format", "fmt", type=click.Choice(["rich", "json"]), default="rich", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write the report to FILE.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the HTML report to FILE: lag over time, histogram, stall sites with their findings, "
    "the worst stalls' call trees; with --compare, both runs on one page.",
)
@click.option("--no-check", is_flag=True, help="Do not match stall sites with `asynclint check` findings.")
@click.option("--no-color", is_flag=True, help="Disable colours (also: NO_COLOR=1).")
@click.option(
    "--compare",
    nargs=2,
    type=click.Path(dir_okay=False),
    default=None,
    metavar="BEFORE AFTER",
    help="Compare two JSON profile reports instead of profiling.",
)
def profile_command(
    target: str | None,
    rollouts: int | None,
    concurrency: int,
    duration: float | None,
    timeout: float | None,
    warmup: int,
    latency: float,
    tokens: int,
    tool_turns: int,
    seed: int,
    env_args: str | None,
    threshold: float,
    interval: float,
    method: str,
    loop_kind: str,
    fmt: str,
    output: str | None,
    html_file: str | None,
    no_check: bool,
    no_color: bool,
    compare: tuple[str, str] | None,
) -> None:
    """Run TARGET under concurrent load and report where the event loop was held.

    TARGET is a verifiers environment (module file, package directory or installed id; v0 with
    load_environment(), or v1 exporting a Taskset), driven offline against a fake model server,
    or an async function `module:function` / `path/to/file.py:function` called with each rollout
    index.

    Exit status: 0 done; 1 some rollouts raised or timed out (profile) or the outputs differ
    (--compare); 2 bad command line, target or report file; 130 interrupted (Ctrl-C): the report
    so far is still written, marked as interrupted.
    """
    from asynclint.profiler import cli_support

    if target and compare:
        _fail("--compare takes two reports and no TARGET")
    if not target and not compare:
        _fail("missing TARGET (a verifiers environment, or module:function)")
    for name in (output, html_file):  # found out now, not after a long run
        if name:
            try:
                check_output(Path(name))
            except OSError as exc:
                _fail(f"{name}: cannot write report: {exc.strerror or exc}")
    if compare:
        try:
            text, outputs_identical, page = cli_support.compare_reports(
                *compare, fmt=fmt, color=_use_color(no_color, output), html=bool(html_file)
            )
        except cli_support.ProfileError as exc:
            _fail(str(exc))
        _emit(text, output)
        if html_file and page is not None:
            _write(Path(html_file), page)
        sys.exit(EXIT_CLEAN if outputs_identical else EXIT_FINDINGS)
    # The fake model server, if any, lives until the report is written (then the stack stops it):
    # after a first Ctrl-C, the rollouts being cancelled may still be talking to it.
    with contextlib.ExitStack() as keep_alive:
        try:
            # The report goes to stdout: what the target prints goes to stderr meanwhile.
            assert target is not None  # refused above without --compare
            with cli_support.stdout_to_stderr(enabled=not output):
                run = cli_support.profile_target(
                    target,
                    rollouts=rollouts,
                    concurrency=concurrency,
                    duration=duration,
                    timeout=timeout,
                    latency_ms=latency,
                    seed=seed,
                    tokens=tokens,
                    tool_turns=tool_turns,
                    env_args=env_args,
                    threshold_ms=threshold,
                    interval_ms=interval,
                    method=method,
                    check=not no_check,
                    warmup=warmup,
                    keep_alive=keep_alive,
                    loop=loop_kind,
                )
        except cli_support.ProfileError as exc:
            _fail(str(exc))
        except (cli_support.ProfileInterrupted, KeyboardInterrupt) as exc:
            click.echo(f"asynclint: {str(exc) or 'interrupted: no report'}", err=True)
            keep_alive.close()
            _exit_at_once(EXIT_INTERRUPTED)
        _emit(cli_support.render(run, fmt, color=_use_color(no_color, output)), output)
        if html_file:
            _write(Path(html_file), cli_support.html(run))
    facts = run.report.facts
    if facts.interrupted:
        _exit_at_once(EXIT_INTERRUPTED)
    _exit_at_once(EXIT_FINDINGS if run.report.outputs.errors or facts.timed_out else EXIT_CLEAN)


def _exit_at_once(status: int) -> None:
    """End ``profile`` once its report is out, without the interpreter's teardown: a profiled
    environment imports thousands of modules (the bundled example: ~6,500), and freeing them took
    1.5 s after the report was written, which made a Ctrl-C take that much longer to give the
    prompt back. Everything before the teardown still happens, in the interpreter's order: threads
    are joined and executors shut down (``threading._shutdown``: a process pool's workers are told
    to exit, which the exit handler of ``multiprocessing`` then waits for), then the exit handlers
    run (the target's, logging's), and the output is flushed. Run in-process (click's test runner:
    no file descriptor behind stdout), it exits as usual."""
    try:
        sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        sys.exit(status)
    import atexit
    import threading

    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def _write(path: Path, text: str) -> None:
    try:
        write_output(path, text)
    except OSError as exc:
        _fail(f"{path}: cannot write report: {exc.strerror or exc}")


def _emit(text: str, output: str | None) -> None:
    if output:
        _write(Path(output), text)
    else:
        click.echo(text, nl=not text.endswith("\n"))
