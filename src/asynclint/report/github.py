"""GitHub Actions workflow commands, so findings show up as annotations on the diff."""

from __future__ import annotations

from asynclint.model import Finding, Result, Severity

_COMMAND = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "notice",
}


def escape_data(text: str) -> str:
    # "%" first, or the escapes introduced below would themselves be escaped.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    # ":" and "," delimit properties, so they must not appear raw inside a value.
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def chain_summary(finding: Finding) -> str:
    """Function names along the chain, e.g. ``Env.setup_state → helper``; a library function
    that calls the next one back stands between them in brackets (``run → [lib.evaluate] → hook``).

    Consecutive links in the same function (the entry's ``def`` line and its call site)
    collapse into one name.
    """
    names: list[str] = []
    for link in finding.chain:
        if not names or names[-1] != link.function:
            names.append(link.function)
        if link.through:
            names.append(f"[{link.through}]")
    return " → ".join(names)


def _finding_command(finding: Finding) -> str:
    # The runner drops columns (with a log warning) on a multi-line range, so send them only
    # when the call sits on one line.
    single_line = finding.end_line == finding.line
    props = [f"file={escape_property(finding.path)}", f"line={finding.line}"]
    if single_line:
        props.append(f"col={finding.column}")
    props.append(f"endLine={finding.end_line}")
    if single_line:
        props.append(f"endColumn={finding.end_column}")
    props.append(f"title={escape_property(f'{finding.code} ({finding.rule})')}")
    message = finding.message
    if finding.chain:
        message += f" [via {chain_summary(finding)}]"
    return f"::{_COMMAND[finding.severity]} {','.join(props)}::{escape_data(message)}"


def render_github(result: Result) -> str:
    lines = [_finding_command(finding) for finding in result.findings]
    lines += [f"::error file={escape_property(error.path)}::{escape_data(error.message)}" for error in result.errors]
    return "".join(line + "\n" for line in lines)
