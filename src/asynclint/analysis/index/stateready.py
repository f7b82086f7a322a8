"""Keys of the rollout's state a function's code looks for before building what goes there
(``context = state.get("ctx")`` / ``if isinstance(context, Ctx): return context``, then the build),
and the keys a function stores: the graph drops such a build where a hook run earlier in the same
rollout stores the key (``ProjectGraph.filled_earlier``)."""

from __future__ import annotations

import ast
from collections.abc import Mapping

from asynclint.analysis.index.callshapes import state_get, state_key
from asynclint.knowledge.frameworks import ROLLOUT_STATE_NAMES


def ready_state_key(stmt: ast.If, lookups: Mapping[str, tuple[ast.expr, ast.expr]]) -> str | None:
    """The key of the rollout's state a ready-return finds filled and returns: its test is
    ``isinstance(v, T)``, ``v is not None`` or ``"k" in state``, where ``v`` is ``state.get("k")``,
    ``state["k"]`` or a local bound to ``state.get("k")`` (``lookups``), and it returns that value
    (``if isinstance(state.get("error"), InfraError): return 0`` answers a failure instead)."""
    key = _tested_key(stmt.test, lookups)
    last = stmt.body[-1]
    returned = last.value if isinstance(last, ast.Return) and last.value is not None else None
    return key if returned is not None and _held_key(returned, lookups) == key else None


def _tested_key(test: ast.expr, lookups: Mapping[str, tuple[ast.expr, ast.expr]]) -> str | None:
    """The key of the rollout's state whose value a ready test finds built."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op, right = test.ops[0], test.comparators[0]
        if isinstance(op, ast.In) and isinstance(right, ast.Name) and right.id in ROLLOUT_STATE_NAMES:
            return test.left.value if isinstance(test.left, ast.Constant) and isinstance(test.left.value, str) else None
        if isinstance(op, ast.IsNot) and isinstance(right, ast.Constant) and right.value is None:
            return _held_key(test.left, lookups)
        return None
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "isinstance" and test.args:
        return _held_key(test.args[0], lookups)
    return None  # a truth test (``if state.get("done"): return``) waits for a flag the rollout sets later


def _held_key(value: ast.expr, lookups: Mapping[str, tuple[ast.expr, ast.expr]]) -> str | None:
    """The state key ``value`` holds the value of, as it is read there."""
    if isinstance(value, ast.Name) and value.id in lookups:
        holder, key = lookups[value.id]
        if not (isinstance(holder, ast.Name) and holder.id in ROLLOUT_STATE_NAMES):
            return None
        return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get":
        return state_get(value)
    return state_key(value) if isinstance(value, ast.Subscript) else None


def stored_state_keys(function: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The keys of the rollout's state that statements of ``function``'s own body (not in a branch,
    a loop or a handler: on every run that gets there) set to a value built or read (``state["k"] =
    build()``), not to a constant or an empty container a later step fills (a ready test, ``is not
    None``, would not find it built)."""
    keys: set[str] = set()
    for node in function.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and not _placeholder(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            keys.update(key for target in targets if (key := state_key(target)) is not None)
    return frozenset(keys)


def _placeholder(value: ast.expr | None) -> bool:
    """A constant (``None``, ``False``, ``0``, ``""``) or an empty display: a start, not the value."""
    if value is None or isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Dict):
        return not value.keys
    return isinstance(value, (ast.List, ast.Tuple, ast.Set)) and not value.elts
