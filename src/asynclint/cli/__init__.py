"""The command line: the only place that prints, writes reports, and exits. A module per command;
this one holds the group (``main``) and the entry point (``run``)."""

from __future__ import annotations

from typing import Any

import click

from asynclint import __version__
from asynclint.cli.check import check
from asynclint.cli.common import EXIT_INTERRUPTED
from asynclint.cli.fix import fix
from asynclint.cli.info import clean_cache, explain_rule, list_rules
from asynclint.cli.profile import profile_command
from asynclint.interrupts import ignore_late_stops


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


for command in (check, fix, clean_cache, list_rules, explain_rule, profile_command):
    main.add_command(command)
