"""Each rule's metadata for reports and docs, with whether a fixer answers it."""

from __future__ import annotations

import functools

from asynclint import fixers
from asynclint.knowledge.blocking import BUILTIN_APIS
from asynclint.model import RuleMeta
from asynclint.rules import ALL_RULES, Rule


def rule_meta(rule: type[Rule]) -> RuleMeta:
    recipes = frozenset(api.fix for api in BUILTIN_APIS if api.category == rule.category and api.fix) | set(
        rule.recipes
    )
    return RuleMeta(
        rule.code,
        rule.name,
        rule.summary(),
        rule.default_severity,
        fix_available=fixers.fix_available(rule.code, recipes),
        doc=rule.doc(),
    )


@functools.cache
def all_rule_meta() -> tuple[RuleMeta, ...]:
    return tuple(rule_meta(rule) for rule in ALL_RULES)
