"""Locals that hold something only where a switch is on: ``episode_dir = None`` and then, under
``if self.config.log_dir:``, ``episode_dir = Path(...)``. A later ``if episode_dir is not None:``
is that switch's test, read as it (``Conditions._bound_reads``), so what runs behind it, and what a
local bound under it in turn holds (``journal = _Journal(...)``), is off while the switch is."""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable

from asynclint.analysis.index.helpers import none_test
from asynclint.analysis.index.walks import walk

#: How deep one switched local may lead to another (``journal`` under ``episode_dir`` under the field).
_DEPTH = 4


def switched_tests(
    test: ast.expr,
    own: tuple[ast.stmt, ...],
    nullable: frozenset[str],
    guard_of: Callable[[ast.expr], str | None],
    depth: int = 0,
) -> ast.expr:
    """``test`` with each truth test of a switched local (``x``, ``not x``, ``x is None``, ``x is not
    None``) written as the switch's test. A local is switched when the function's own statements
    (``own``) bind it once to ``None`` and every other binding sits in the body of one of their
    ``if``s (no ``else``) whose test ``guard_of`` reads as a switch (its text, or ``None``), the same
    text for each. Anything else reads the local as it is. ``nullable``: the names the function
    binds to ``None`` somewhere (Frame.nullable), the only ones that may be switched."""
    names = {node.id for node in walk(test) if isinstance(node, ast.Name) and node.id in nullable}
    switches = {name: guard for name in sorted(names) if (guard := _switch_of(name, own, guard_of, depth))}
    if not switches:
        return test
    parsed = {name: ast.parse(guard, mode="eval").body for name, guard in switches.items()}

    def truth(node: ast.expr) -> ast.expr:
        if isinstance(node, ast.Name) and node.id in parsed:
            return copy.deepcopy(parsed[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return ast.UnaryOp(ast.Not(), truth(node.operand))
        if isinstance(node, ast.BoolOp):
            return ast.BoolOp(node.op, [truth(value) for value in node.values])
        compared = none_test(node)
        if compared is not None and isinstance(compared[0], ast.Name) and compared[0].id in parsed:
            held = copy.deepcopy(parsed[compared[0].id])
            return ast.UnaryOp(ast.Not(), held) if compared[1] else held
        return node

    return truth(test)


def _switch_of(name: str, own: tuple[ast.stmt, ...], guard_of: Callable[[ast.expr], str | None], depth: int) -> str:
    """The switch's test under which ``own`` binds ``name`` to something other than ``None``, or ""."""
    if depth >= _DEPTH:
        return ""
    unset = 0
    guards: set[str] = set()
    for stmt in own:
        stored = [node for node in walk(stmt) if _stores(node, name)]
        if not stored:
            continue
        if _binds_none(stmt, name):
            unset += 1
            if guards:
                return ""  # (bound under the switch first: ``None`` afterwards is what the test reads)
            continue
        if not isinstance(stmt, ast.If) or stmt.orelse or unset != 1:
            return ""
        guard = guard_of(stmt.test)
        if not guard:
            return ""
        guards.add(guard)
    return next(iter(guards)) if unset == 1 and len(guards) == 1 else ""


def _stores(node: ast.AST, name: str) -> bool:
    """Does ``node`` bind ``name`` (an assignment's target, a loop's, a ``with``'s, a nested ``def``)?"""
    if isinstance(node, ast.Name):
        return node.id == name and isinstance(node.ctx, (ast.Store, ast.Del))
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return name in node.names
    return isinstance(node, ast.alias) and (node.asname or node.name.partition(".")[0]) == name


def _binds_none(stmt: ast.stmt, name: str) -> bool:
    """``name = None`` or ``name: T | None = None``."""
    if isinstance(stmt, ast.Assign):
        targets, value = stmt.targets, stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets, value = [stmt.target], stmt.value
    else:
        return False
    return (
        len(targets) == 1
        and isinstance(targets[0], ast.Name)
        and targets[0].id == name
        and isinstance(value, ast.Constant)
        and value.value is None
    )
