"""``--statistics``: counts per rule instead of the findings, in ruff's shape (text and JSON)."""

from __future__ import annotations

import json

from asynclint.model import Result
from asynclint.report._common import plural, rule_statistics


def statistics_rows(result: Result) -> list[dict]:
    """Per rule, most frequent first: ``code``, ``name``, ``count``, ``fixable`` and
    ``fixable_count`` (findings with a safe fix: what ``check --fix`` applies without
    ``--unsafe-fixes``), as ``ruff check --statistics --output-format json`` names them."""
    rows = []
    for stat in rule_statistics(result.findings):
        fixable = sum(1 for finding in stat.findings if finding.fix is not None and finding.fix.safe)
        rows.append(
            {
                "code": stat.code,
                "name": stat.rule,
                "count": len(stat.findings),
                "fixable": fixable > 0,
                "fixable_count": fixable,
            }
        )
    return rows


def render_statistics_json(result: Result) -> str:
    return json.dumps(statistics_rows(result), indent=2) + "\n"


def render_statistics(result: Result, *, quiet: bool = False) -> str:
    """``count<TAB>code<TAB>[*] name`` per rule (``[*]``: a safe fix exists for some of them), then
    what was found and how many ``check --fix`` can fix."""
    rows = statistics_rows(result)
    width = max((len(str(row["count"])) for row in rows), default=1)
    code_width = max((len(row["code"]) for row in rows), default=0)
    lines = [
        f"{row['count']:>{width}}\t{row['code']:<{code_width}}\t{'[*]' if row['fixable'] else '[ ]'} {row['name']}"
        for row in rows
    ]
    lines += [f"{error.path}: error: {error.message}" for error in result.errors]
    if not quiet:
        if result.findings:
            lines.append(f"Found {plural(len(result.findings), 'finding')}.")
            fixable = sum(row["fixable_count"] for row in rows)
            unsafe = sum(1 for finding in result.findings if finding.fix is not None and not finding.fix.safe)
            if fixable or unsafe:
                line = f"[*] {fixable} fixable with `asynclint check --fix`"
                if unsafe:
                    line += f" ({plural(unsafe, 'unsafe fix')} available with `--fix --unsafe-fixes`)"
                lines.append(line + ".")
        else:
            lines.append(f"No findings in {plural(result.files_checked, 'file')}.")
        if result.errors:
            lines.append(f"{plural(len(result.errors), 'file')} could not be analysed.")
    return "".join(line + "\n" for line in lines)
