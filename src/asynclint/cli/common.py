"""What the commands share: exit statuses, the one-line failure, colour and width, the options
check and fix both take, the scope of ``--whole-project``, the configuration, the report's writing."""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from asynclint.config import Config
from asynclint.files import PathError
from asynclint.interrupts import Interrupted, raise_on_stop
from asynclint.io import write_output
from asynclint.model import Severity

if TYPE_CHECKING:  # imported where used: the warm path loads no project walk
    from asynclint.fixrun import Writes
    from asynclint.project import Project


EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
#: `profile` or `check --watch` stopped by SIGINT (Ctrl-C), as shells report it: 128 + SIGINT.
EXIT_INTERRUPTED = 130
SEVERITIES = [s.label for s in sorted(Severity, reverse=True)]
FORMATS = ("rich", "json", "sarif", "github", "concise")


def fail(message: str) -> None:
    click.echo(f"asynclint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def split_values(values: tuple[str, ...]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def use_color(no_color: bool, output: str | None) -> bool:
    if no_color or output or os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def terminal(output: str | None) -> tuple[int | None, bool]:
    """(width, fill) for the rich report: a terminal's real width, headings ruled across it; to
    a pipe or a file, ``$COLUMNS`` or the default width, and no rules padding the headings."""
    columns = os.environ.get("COLUMNS", "")
    width = int(columns) if columns.isdigit() and int(columns) > 0 else None
    if output or not sys.stdout.isatty():
        return width, False
    return width or shutil.get_terminal_size().columns, True


def stops_cleanly(command: Callable[..., None]) -> Callable[..., None]:
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


def config_options(command: Callable[..., None]) -> Callable[..., None]:
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


def selection_options(severity: str, select: str, ignore: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``paths``, ``--severity``, ``--select`` and ``--ignore``, as check and fix both take them,
    each said the way the command uses it (report or fix)."""

    def apply(command: Callable[..., None]) -> Callable[..., None]:
        command = click.option("--ignore", multiple=True, metavar="RULES", help=ignore)(command)
        command = click.option("--select", multiple=True, metavar="RULES", help=select)(command)
        command = click.option("--severity", type=click.Choice(SEVERITIES), default=None, help=severity)(command)
        return click.argument("paths", nargs=-1, type=click.Path())(command)

    return apply


def cache_dir_option(help: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--cache-dir`` (also ``ASYNCLINT_CACHE_DIR``), said the way each command uses the cache."""
    return click.option(
        "--cache-dir", type=click.Path(file_okay=False), default=None, envvar="ASYNCLINT_CACHE_DIR", help=help
    )


def stopped(stop: Interrupted, written: list[str], planned: int) -> None:
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
def stops_listing_written(writes: Writes) -> Iterator[None]:
    """A stop signal raised anywhere in the block -- before the writing (nothing changed), after it
    (on the way out of the run, while the report is printed) -- says which files were rewritten,
    as one during the writing does: ``writes`` holds them from the first write on."""
    try:
        yield
    except Interrupted as stop:
        stopped(stop, list(writes.written), writes.planned)


def scope(paths: tuple[str, ...], whole_project: bool) -> tuple[tuple[str, ...], frozenset[str] | None]:
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


def load_config(paths: Sequence[str], config_file: str | None) -> Config:
    """The project's configuration: ``--config`` for every file, or each file's nearest one."""
    return load_project(paths, config_file).config


def load_project(
    paths: Sequence[str], config_file: str | None, *, use_cache: bool = False, cache_directory: Path | None = None
) -> Project:
    """:func:`load_config`, with the files its walk found (:class:`asynclint.project.Project`);
    with ``use_cache``, the walk is skipped while nothing it depends on changed."""
    from asynclint.project import load_project

    if config_file is not None and not Path(config_file).is_file():
        fail(f"{config_file}: no such configuration file")
    return load_project(
        paths,
        Path(config_file) if config_file is not None else None,
        use_cache=use_cache,
        cache_directory=cache_directory,
    )


def write_report(path: Path, text: str) -> None:
    try:
        write_output(path, text)
    except OSError as exc:
        fail(f"{path}: cannot write report: {exc.strerror or exc}")


def emit(text: str, output: str | None) -> None:
    if output:
        write_report(Path(output), text)
    else:
        click.echo(text, nl=not text.endswith("\n"))
