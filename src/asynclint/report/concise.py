"""One line per finding, grep- and editor-friendly (``path:line:col: CODE [severity] message``)."""

from __future__ import annotations

from asynclint.model import Result
from asynclint.report._common import plural, severity_breakdown


def summary_line(result: Result) -> str:
    files = plural(result.files_checked, "file")
    if not result.findings:
        return f"No findings in {files}."
    return f"Found {plural(len(result.findings), 'finding')} ({severity_breakdown(result.findings)}) in {files}."


def render_concise(result: Result, *, quiet: bool = False) -> str:
    lines = [f"{f.path}:{f.line}:{f.column}: {f.code} [{f.severity.label}] {f.message}" for f in result.findings]
    lines += [f"{error.path}: error: {error.message}" for error in result.errors]
    if not quiet:
        lines.append(summary_line(result))
        if result.errors:
            lines.append(f"{plural(len(result.errors), 'file')} could not be analysed.")
    return "".join(line + "\n" for line in lines)
