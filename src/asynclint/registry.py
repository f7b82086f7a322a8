"""The rules by code: their names, enough to read a configuration without importing the rules
or the analysis (each rule's full metadata is :mod:`asynclint.metadata`)."""

from __future__ import annotations

from collections.abc import Iterable

#: Every rule's code -> its name. Selectors in a configuration or on the command line are checked
#: against this table, so that a run answered from the result cache never imports the rules
#: (a quarter of a warm run's time went to that). The rules themselves are the source:
#: ``tests/test_registry.py`` fails when this table and ``asynclint.rules.ALL_RULES`` differ.
RULES: dict[str, str] = {
    "ASL101": "blocking-sleep",
    "ASL102": "sync-http-call",
    "ASL103": "sync-llm-call",
    "ASL104": "sync-sdk-call",
    "ASL105": "client-per-call",
    "ASL106": "blocking-subprocess",
    "ASL107": "blocking-open",
    "ASL108": "blocking-path-io",
    "ASL109": "blocking-fs-call",
    "ASL110": "blocking-deepcopy",
    "ASL111": "inline-serialization",
    "ASL112": "cpu-heavy-call",
    "ASL113": "blocking-wait",
    "ASL114": "sync-browser-call",
    "ASL115": "super-linear-loop",
    "ASL116": "costly-loop",
    "ASL117": "whole-text-walk",
    "ASL118": "repeated-parse",
    "ASL119": "whole-collection-dump",
    "ASL120": "loop-awaits-blocking",
    "ASL201": "sync-v1-hook",
    "ASL202": "async-update-tool-args",
    "ASL901": "unused-suppression",
}
CODES_BY_NAME: dict[str, str] = {name: code for code, name in RULES.items()}


class UnknownRule(ValueError):
    """A selector or rule key that names no rule; the message is the selector as given."""


def expand(selectors: Iterable[str]) -> set[str]:
    """The codes ``selectors`` name: ``ALL``, a rule's name, a code or a code prefix. Raises
    :class:`UnknownRule` with the first selector that names none."""
    codes: set[str] = set()
    for selector in selectors:
        text = selector.strip()
        if text.upper() == "ALL":
            codes.update(RULES)
            continue
        if text in CODES_BY_NAME:
            codes.add(CODES_BY_NAME[text])
            continue
        matched = {code for code in RULES if code.startswith(text.upper())} if text else set()
        if not matched:
            raise UnknownRule(selector)
        codes.update(matched)
    return codes


def rule_code(key: str) -> str | None:
    """The code of the rule ``key`` names (its name or its code, in any case), if any."""
    if key in CODES_BY_NAME:
        return CODES_BY_NAME[key]
    return key.upper() if key.upper() in RULES else None
