"""Turn a lint ``Result`` into text in one of the supported output formats."""

from __future__ import annotations

from asynclint.model import Result

FORMATS = ("rich", "json", "sarif", "github", "concise")
STATISTICS_FORMATS = ("rich", "concise", "json")


def render(
    result: Result,
    fmt: str,
    *,
    color: bool = True,
    width: int | None = None,
    show_statistics: bool = False,
    quiet: bool = False,
    fill: bool = True,
) -> str:
    """Render ``result`` as ``fmt``.

    ``color``, ``width`` and ``fill`` (headings as rules) only affect the rich format; ``quiet``
    affects the human formats (rich, concise). ``show_statistics`` replaces the findings by counts
    per rule, as ruff's ``--statistics`` does: text for rich and concise, a JSON array for json
    (none for sarif and github: ``ValueError``). Otherwise the machine formats are always complete.
    Each renderer is imported when asked for: rich alone costs a warm run's tenth.
    """
    if show_statistics:
        from asynclint.report.statistics import render_statistics, render_statistics_json

        if fmt == "json":
            return render_statistics_json(result)
        if fmt not in STATISTICS_FORMATS:
            raise ValueError(f"--statistics has no {fmt} form (use one of: {', '.join(STATISTICS_FORMATS)})")
        return render_statistics(result, quiet=quiet)
    if fmt == "rich":
        from asynclint.report.rich_report import render_rich

        return render_rich(result, color=color, width=width, quiet=quiet, fill=fill)
    if fmt == "concise":
        from asynclint.report.concise import render_concise

        return render_concise(result, quiet=quiet)
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
