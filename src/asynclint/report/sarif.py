"""SARIF 2.1.0 log for code-scanning services (GitHub code scanning, IDE SARIF viewers)."""

from __future__ import annotations

import json
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import quote

from asynclint.model import ChainLink, Finding, RelatedLocation, Result, RuleMeta, Severity
from asynclint.report._common import chain_steps
from asynclint.report.json_report import chain_to_list, facts_to_dict

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/asynclint/asynclint"
RULE_TAGS = ["asyncio", "event-loop", "performance"]

_LEVEL = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
}


def _tool_version() -> str:
    # Imported lazily so that formatting a report never depends on (or cycles with) the
    # package's top-level imports; the metadata fallback covers an __init__ without a version.
    try:
        from asynclint import __version__
    except ImportError:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("asynclint")
        except PackageNotFoundError:
            return "0+unknown"
    return __version__


def artifact_location(path: str) -> dict[str, str]:
    """A SARIF artifactLocation for a path exactly as the engine reported it.

    Relative paths stay relative to ``%SRCROOT%`` (the scanned checkout) so the log is
    portable; absolute paths become ``file:`` URIs. Characters that are not valid in a URI
    reference (spaces, ``%``, ``:`` ...) are percent-encoded, as SARIF requires real URIs.
    """
    if PureWindowsPath(path).is_absolute() and not PurePosixPath(path).is_absolute():
        return {"uri": PureWindowsPath(path).as_uri()}
    posix = path.replace("\\", "/")
    if PurePosixPath(posix).is_absolute():
        return {"uri": PurePosixPath(posix).as_uri()}
    return {"uri": quote(posix, safe="/"), "uriBaseId": "%SRCROOT%"}


def _location(path: str, region: dict[str, int] | None = None, message: str | None = None) -> dict:
    physical: dict[str, Any] = {"artifactLocation": artifact_location(path)}
    if region is not None:
        physical["region"] = region
    location: dict[str, Any] = {"physicalLocation": physical}
    if message is not None:
        location["message"] = {"text": message}
    return location


def _descriptor(meta: RuleMeta) -> dict[str, Any]:
    full_text = meta.doc or meta.summary
    help_text: dict[str, str] = {"text": full_text}
    if meta.doc:
        help_text["markdown"] = meta.doc
    return {
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": full_text},
        "help": help_text,
        "defaultConfiguration": {"level": _LEVEL[meta.default_severity]},
        "properties": {
            "severity": meta.default_severity.label,
            "fixAvailable": meta.fix_available,
            "tags": list(RULE_TAGS),
        },
    }


def _rule_descriptors(result: Result) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Descriptors for every known rule, plus a minimal one for any finding whose rule
    metadata was not supplied, so that every result's ruleIndex is valid."""
    descriptors: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for meta in result.rules:
        if meta.code not in index:
            index[meta.code] = len(descriptors)
            descriptors.append(_descriptor(meta))
    for finding in result.findings:
        if finding.code not in index:
            index[finding.code] = len(descriptors)
            descriptors.append({"id": finding.code, "name": finding.rule})
    return descriptors, index


def _code_flow(chain: tuple[ChainLink, ...]) -> dict[str, Any]:
    steps = [
        {
            "location": _location(step.link.path, {"startLine": step.link.line}, step.text),
            "nestingLevel": step.depth,
            "executionOrder": order,
        }
        for order, step in enumerate(chain_steps(chain), start=1)
    ]
    return {"threadFlows": [{"locations": steps}]}


def _related(place: RelatedLocation, number: int) -> dict[str, Any]:
    """A related location (SARIF 3.27.22), with the id a message could link to as ``[text](id)``."""
    region = {"startLine": place.line}
    if place.column is not None:
        region["startColumn"] = place.column
    return {"id": number, **_location(place.path, region, place.message)}


def _result(finding: Finding, rule_index: int) -> dict[str, Any]:
    region = {
        "startLine": finding.line,
        "startColumn": finding.column,
        "endLine": finding.end_line,
        "endColumn": finding.end_column,
    }
    sarif_result: dict[str, Any] = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _LEVEL[finding.severity],
        "message": {"text": finding.message},
        "locations": [_location(finding.path, region)],
    }
    if finding.related:
        sarif_result["relatedLocations"] = [_related(place, number) for number, place in enumerate(finding.related, 1)]
    if finding.chain:
        sarif_result["codeFlows"] = [_code_flow(finding.chain)]
    sarif_result["properties"] = {
        "severity": finding.severity.label,
        "chain": chain_to_list(finding.chain),
        "facts": facts_to_dict(finding.facts),
    }
    return sarif_result


def _base_ids(result: Result) -> dict:
    """Where ``%SRCROOT%`` is: the project root the relative paths start from (SARIF 3.14.14;
    a base URI ends with a slash). Code scanning resolves the paths against the checkout."""
    if not result.root:
        return {}
    uri = PurePosixPath(result.root).as_uri()
    return {"originalUriBaseIds": {"%SRCROOT%": {"uri": uri if uri.endswith("/") else uri + "/"}}}


def render_sarif(result: Result) -> str:
    descriptors, rule_index = _rule_descriptors(result)
    notifications = [
        {"level": "error", "message": {"text": error.message}, "locations": [_location(error.path)]}
        for error in result.errors
    ]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "asynclint",
                        "informationUri": INFORMATION_URI,
                        "version": _tool_version(),
                        "rules": descriptors,
                    }
                },
                "invocations": [
                    {
                        "executionSuccessful": not result.errors,
                        "toolExecutionNotifications": notifications,
                    }
                ],
                # Finding columns count characters, not UTF-16 units.
                "columnKind": "unicodeCodePoints",
                **_base_ids(result),
                "results": [_result(f, rule_index[f.code]) for f in result.findings],
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"
