"""The keys of the rollout's state a class's own stop checks answer from: ``return state.get("solved",
False)`` in its ``is_completed``, ``if state["won"]: return True`` in one of its ``@vf.stop``
conditions. Once such a key holds, the check ends the rollout, so a test of it anywhere in the class's
code holds on the rollout's last turn only, as a test of the framework's own terminal keys does
(:data:`asynclint.knowledge.frameworks.TERMINAL_STATE_KEYS`, :func:`asynclint.analysis.index.guards.terminal_guard`).
The keys are the project's, read from its code: ``solved`` ends one environment's rollouts and is
an ordinary field of another's."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from asynclint.analysis.index.callshapes import state_get, state_key
from asynclint.analysis.index.helpers import FUNCTION_DEFS, SCOPES
from asynclint.analysis.index.walks import scope_nodes
from asynclint.knowledge.frameworks import STOP_DECORATORS, TERMINAL_METHODS, public_name

#: A stop check's keys by the check's name: a subclass's check of the same name replaces its base's.
StopKeys = Mapping[str, frozenset[str]]


def stop_check(name: str, decorators: Iterable[str]) -> bool:
    """Is a method of this name and these decorators (resolved names) a stop check: the framework's
    ``is_completed``/``is_done``, or a condition registered with ``@vf.stop``?"""
    return name in TERMINAL_METHODS or any(public_name(decorator) in STOP_DECORATORS for decorator in decorators)


def class_stop_keys(
    node: ast.ClassDef, decorators: Callable[[ast.expr], str], inherited: Iterable[StopKeys]
) -> dict[str, frozenset[str]]:
    """The keys the stop checks of class ``node`` answer from, by check: those its bases' checks
    answer from (``inherited``, nearest base first) and its own methods' (``decorators`` names one
    decorator as resolved), an own check replacing a base's of the same name."""
    found: dict[str, frozenset[str]] = {}
    for base in reversed(list(inherited)):
        found.update(base)
    for stmt in node.body:
        if isinstance(stmt, FUNCTION_DEFS) and stop_check(stmt.name, map(decorators, stmt.decorator_list)):
            found[stmt.name] = answered_keys(stmt)
    return found


def answered_keys(function: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The keys that, when they hold, make stop check ``function`` answer ``True``: read by a
    ``return`` of its own body (``return state.get("done", False)``, ``return bool(state["won"])``,
    ``return state.get("answer") is not None``, each side of an ``or``) or by the test of an ``if``
    of its own body whose branch ends in ``return True``. A key compared with anything but ``None``
    or ``True`` (``state["turn"] >= 3``) or one side of an ``and`` answers nothing alone. A local
    bound once to such a read (``completed = state.get("done", False)``) reads its key."""
    nodes = list(scope_nodes(function.body, SCOPES))
    stores = Counter(node.id for node in nodes if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load))
    once = {
        node.targets[0].id: node.value
        for node in nodes
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and stores[node.targets[0].id] == 1
    }
    keys: set[str] = set()
    for stmt in function.body:
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            keys |= truthy_keys(stmt.value, once)
        elif isinstance(stmt, ast.If) and answers_true(stmt.body):
            keys |= truthy_keys(stmt.test, once)
    return frozenset(keys)


def truthy_keys(test: ast.expr, aliases: Mapping[str, ast.expr] = {}) -> frozenset[str]:
    """The keys of the rollout's state each of which, when it holds, makes ``test`` hold."""
    if isinstance(test, ast.Name) and test.id in aliases:
        return truthy_keys(aliases[test.id])
    if isinstance(test, ast.BoolOp):
        if not isinstance(test.op, ast.Or):
            return frozenset()
        return frozenset().union(*(truthy_keys(value, aliases) for value in test.values))
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        right = test.comparators[0]
        if not isinstance(right, ast.Constant):
            return frozenset()
        holds = isinstance(test.ops[0], (ast.IsNot, ast.NotEq)) and right.value is None
        holds = holds or isinstance(test.ops[0], (ast.Is, ast.Eq)) and right.value is True
        left = aliases.get(test.left.id, test.left) if isinstance(test.left, ast.Name) else test.left
        return _read_key(left) if holds else frozenset()
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "bool" and test.args:
        return truthy_keys(test.args[0], aliases)
    return _read_key(test)


def _read_key(node: ast.expr) -> frozenset[str]:
    """``state["done"]`` / ``state.get("done", False)`` -> its key."""
    key = state_key(node) if isinstance(node, ast.Subscript) else None
    key = state_get(node) if isinstance(node, ast.Call) else key
    return frozenset({key}) if key is not None else frozenset()


def answers_true(body: list[ast.stmt]) -> bool:
    """Does ``body`` end in ``return True``?"""
    last = body[-1] if body else None
    return isinstance(last, ast.Return) and isinstance(last.value, ast.Constant) and last.value.value is True
