"""What names hold after the branches of an ``if``: the payload evidence of each branch, merged."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from asynclint.analysis.index.argfacts import Known, evidence_of, joined
from asynclint.analysis.index.helpers import typed_instance
from asynclint.analysis.index.values import Inst, Value
from asynclint.knowledge.costs import payload_evidence
from asynclint.knowledge.typenames import SAYS_NOTHING


def leaves(body: list[ast.stmt]) -> bool:
    """Does ``body`` always leave the block it is in (its last statement returns, raises,
    continues or breaks)?"""
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def merged_branches(body: Known, orelse: Known, params: Iterable[str]) -> Known:
    """What names hold after an ``if``: where both branches agree, that; else the larger of the
    two when one is whole; else, when both branches traced it, the larger of the two (a
    collection filled in one branch, ``results.append(q)``, and left empty in the other is as
    large as what fills it, whatever it is called); else nothing proven (a name is read by what it
    is called). A parameter
    whole by its name alone does not outweigh the other branch: ``if isinstance(completion,
    str): text = completion`` else ``text = completion[-1]["content"]`` -- as a string, a
    completion is one reply."""
    merged: Known = {}
    for name in body.keys() | orelse.keys():
        options = [branch[name] for branch in (body, orelse) if name in branch]
        if len(options) == 2 and options[0] == options[1]:
            merged[name] = options[0]
        elif any(
            evidence_of(option) == "whole" and not (option[0] == "name" and option[1] in params) for option in options
        ):
            merged[name] = joined(options)
        elif len(options) == 2 and all(evidence_of(option) == "small" for option in options):
            merged[name] = options[0]
        elif len(options) == 2 and (handed := _small_or_handed(options, params)) is not None:
            merged[name] = handed  # a small piece, or a part of a parameter: as large as what the callers hand
        elif len(options) == 2 and not any(option[0] == "name" and option[1] in params for option in options):
            merged[name] = joined(options)
    return merged


def _small_or_handed(options: list[tuple[str, str]], params: Iterable[str]) -> tuple[str, str] | None:
    """The parameter of two branches' values when the other is proven small and the parameter's name
    does not say whole (``blob = m.group(1)`` or ``blob = raw[start:end]``): the graph sizes it."""
    handed = [option for option in options if option[0] == "name" and option[1] in params]
    if len(handed) != 1 or payload_evidence("name", handed[0][1]) == "whole":
        return None
    return handed[0] if all(evidence_of(option) == "small" for option in options if option != handed[0]) else None


def typed_over_nothing(
    before: Mapping[str, Value], body: Mapping[str, Value], orelse: Mapping[str, Value]
) -> dict[str, Value]:
    """The names both branches of an ``if`` bind, one to a typed instance and the other to what
    says nothing of its type (``active = scenario.persona`` / ``active = persona``, a parameter
    annotated ``Any``): the typed one, which is what calls through the name reach when they reach
    a type at all. (After the ``if`` the walk holds the ``else``'s binding.)"""
    kept: dict[str, Value] = {}
    for name, value in body.items():
        if name not in orelse or value == before.get(name) or orelse[name] == before.get(name):
            continue
        other = orelse[name]
        if typed_instance(value) and _says_nothing(other):
            kept[name] = value
        elif typed_instance(other) and _says_nothing(value):
            kept[name] = other
    return kept


def _says_nothing(value: Value) -> bool:
    return value is None or (isinstance(value, Inst) and value.name in SAYS_NOTHING)
