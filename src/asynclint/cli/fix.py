"""``asynclint fix``: rewrite the blocking calls it can, verified, and say what it left."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from asynclint.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    cache_dir_option,
    config_options,
    fail,
    load_config,
    scope,
    selection_options,
    split_values,
    stopped,
    stops_listing_written,
)
from asynclint.config import ConfigError
from asynclint.files import PathError

if TYPE_CHECKING:  # imported where used: the warm path loads no project walk
    pass


@click.command("fix")
@selection_options(
    severity="Fix findings at or above this severity (default: low, as check: everything check "
    "reports; the closing line counts what a higher one leaves out).",
    select="Rules to fix: codes, code prefixes or names, comma-separated (replaces the config).",
    ignore="Rules not to fix, comma-separated.",
)
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
@config_options
@click.option(
    "--follow-imports/--no-follow-imports",
    default=None,
    help="Fix the project's calls into installed code that blocks inside, as check reports them (default: on).",
)
@cache_dir_option("Keep deep mode's cache of installed packages in DIR (also: ASYNCLINT_CACHE_DIR).")
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
    with stops_listing_written(writes):
        try:
            paths, wanted = scope(paths, whole_project)
            config = load_config(paths, config_file).with_flags(
                select=split_values(select) or None,
                ignore=split_values(ignore),
                exclude=split_values(exclude),
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
            fail(str(exc))
        for link, target in run.skipped:
            click.echo(
                f"asynclint: note: {os.path.relpath(link)} is a symbolic link to {target}, outside "
                f"{', '.join(paths)}: not fixed",
                err=True,
            )
        if not run.files and not run.skipped:
            click.echo("asynclint: warning: no Python files found under " + ", ".join(paths), err=True)
        if run.stopped is not None:
            stopped(run.stopped, list(run.written), len(run.outcome.changed))
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
