"""Turn a lint ``Result`` into text in one of the supported output formats."""

from __future__ import annotations

from asynclint.model import Result

FORMATS = ("rich", "json", "sarif", "github", "concise")


def render(
    result: Result,
    fmt: str,
    *,
    color: bool = True,
    width: int | None = None,
    show_statistics: bool = False,
    quiet: bool = False,
) -> str:
    """Render ``result`` as ``fmt``.

    ``color`` and ``width`` only affect the rich format; ``show_statistics`` and ``quiet``
    affect the human formats (rich, concise). The machine formats are always complete.
    Each renderer is imported when asked for: rich alone costs a warm run's tenth.
    """
    if fmt == "rich":
        from asynclint.report.rich_report import render_rich

        return render_rich(
            result, color=color, width=width, show_statistics=show_statistics, quiet=quiet
        )
    if fmt == "concise":
        from asynclint.report.concise import render_concise

        return render_concise(result, show_statistics=show_statistics, quiet=quiet)
    if fmt == "json":
        from asynclint.report.json_report import render_json

        return render_json(result)
    if fmt == "sarif":
        from asynclint.report.sarif import render_sarif

        return render_sarif(result)
    if fmt == "github":
        from asynclint.report.github import render_github

        return render_github(result)
    raise ValueError(f"unknown output format {fmt!r} (expected one of: {', '.join(FORMATS)})")
