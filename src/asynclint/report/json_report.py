"""The stable, versioned JSON report (contract documented in docs/json-format.md)."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from asynclint.model import ChainLink, Facts, Finding, FixInfo, RelatedLocation, Result

# Bump only on a breaking change to the shape below (see "Versioning" in docs/json-format.md).
# 2: every finding has "facts". 3: facts of suppression comments (ASL901). 4: "related" locations,
# and the fact "built_at". 5: the facts "size" and "size_at"; "handed_at" and "built_at" are
# path:line:column. 6: the facts "fallback" and "off_by_default". 7: the facts "run_by_framework" and "folded".
# 8: the facts "admitted" and "assumed_from" (the framework-version caveat, once words in "root_note").
# 9: the fact "cache_miss" (a first call that is a cache on disk's miss path).
# 10: every chain link has "through" (the library function that calls the next link's function back).
# 11: the facts "inherited_from" (the base defining an inherited method) and "through" (per step of the way).
# 12: the fact "members" (the classes a receiver of one of several holds an instance of).
# 13: the fact "member_twins" (each members' twin, when theirs differ: "twin" no longer joins them).
JSON_FORMAT_VERSION = 14


def finding_to_dict(finding: Finding) -> dict[str, Any]:
    """The contract's finding object, keys in contract order."""
    return {
        "path": finding.path,
        "line": finding.line,
        "column": finding.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "code": finding.code,
        "rule": finding.rule,
        "severity": finding.severity.label,
        "message": finding.message,
        "chain": chain_to_list(finding.chain),
        "fix": _fix_to_dict(finding.fix),
        "facts": facts_to_dict(finding.facts),
        "related": related_to_list(finding.related),
    }


def facts_to_dict(facts: Facts) -> dict[str, Any]:
    """Every fact, in declaration order; tuples as lists."""
    return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(facts).items()}


def chain_to_list(chain: tuple[ChainLink, ...]) -> list[dict[str, Any]]:
    return [
        {"path": link.path, "line": link.line, "function": link.function, "through": link.through} for link in chain
    ]


def related_to_list(related: tuple[RelatedLocation, ...]) -> list[dict[str, Any]]:
    return [
        {"path": place.path, "line": place.line, "column": place.column, "message": place.message} for place in related
    ]


def _fix_to_dict(fix: FixInfo | None) -> dict[str, Any] | None:
    return None if fix is None else {"safe": fix.safe, "title": fix.title}


def render_json(result: Result) -> str:
    document = {
        "version": JSON_FORMAT_VERSION,
        "findings": [finding_to_dict(finding) for finding in result.findings],
        "errors": [{"path": error.path, "message": error.message} for error in result.errors],
    }
    # ASCII-only output survives any stdout encoding; json.loads restores the text exactly.
    return json.dumps(document, indent=2) + "\n"
