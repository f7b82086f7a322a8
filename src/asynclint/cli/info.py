"""``asynclint clean``, ``rules`` and ``rule``: the cache's removal, and the rules' own documentation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from asynclint.cli.common import cache_dir_option, fail, use_color

if TYPE_CHECKING:  # imported where used: the warm path loads no project walk
    pass


@click.command("clean")
@click.argument("paths", nargs=-1, type=click.Path())
@cache_dir_option("The cache to remove, when kept outside the project (also: ASYNCLINT_CACHE_DIR).")
def clean_cache(paths: tuple[str, ...], cache_dir: str | None) -> None:
    """Remove the cache of the project PATHS belong to (default: the current directory's)."""
    from asynclint.cache import cache_dir as where, clean
    from asynclint.project import project_root

    directory = where(project_root([Path(p) for p in paths or (".",)], Path.cwd()), cache_dir)
    try:
        removed = clean(directory)
    except OSError as exc:
        fail(f"{directory}: cannot remove the cache: {exc.strerror or exc}")
    click.echo(f"asynclint: removed {removed} cache files from {directory}", err=True)


@click.command("rules")
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

        click.echo(rules_table(color=use_color(False, None)), nl=False)


@click.command("rule")
@click.argument("code")
def explain_rule(code: str) -> None:
    """Explain one rule (by code or name): why it matters, an example, the fix."""
    from asynclint.docs import render_rule

    text = render_rule(code, color=use_color(False, None))
    if text is None:
        fail(f"unknown rule {code!r} (see `asynclint rules`)")
    click.echo(text, nl=False)
