"""The syntax a loop nest's reading (:mod:`.nests`) asks about, node by node: an index that is a
constant offset of a name, an expression rooted at ``self``, the names a target binds, a 2-D table
being built, a call of the function it sits in."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from asynclint.analysis.index.walks import walk
from asynclint.knowledge.costs import ARRAY_MAKERS


def calls_itself(call: ast.Call, name: str, method: bool) -> bool:
    """``f(...)`` in ``def f``, ``self.f(...)`` in a method ``f``: the function recurses."""
    func = call.func
    if method:
        return (
            isinstance(func, ast.Attribute)
            and func.attr == name
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
        )
    return isinstance(func, ast.Name) and func.id == name


def offsets(node: ast.expr) -> set[str]:
    """The names ``node`` is a constant offset of: ``i`` for ``i``, ``i + 3``, ``max(0, i - 2)``."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        if isinstance(node.right, ast.Constant):
            return offsets(node.left)
        if isinstance(node.left, ast.Constant):
            return offsets(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        return set().union(*(offsets(arg) for arg in node.args)) if node.args else set()
    return set()


def is_self(node: ast.expr) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def names_in(target: ast.expr) -> Iterator[str]:
    for node in walk(target):
        if isinstance(node, ast.Name):
            yield node.id


def is_table(value: ast.expr) -> bool:
    """A list of lists (``[[0] * (n + 1) for _ in range(m + 1)]``) or a 2-D array."""
    if isinstance(value, ast.ListComp):
        elt = value.elt
        return isinstance(elt, (ast.List, ast.ListComp)) or (
            isinstance(elt, ast.BinOp)
            and isinstance(elt.op, ast.Mult)
            and isinstance(elt.left, ast.List)
            or isinstance(elt, ast.BinOp)
            and isinstance(elt.right, ast.List)
        )
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return isinstance(value.left, ast.List) and any(isinstance(e, (ast.List, ast.BinOp)) for e in value.left.elts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ARRAY_MAKERS:
        shape = value.args[0] if value.args else None
        return isinstance(shape, (ast.Tuple, ast.List)) and len(shape.elts) == 2
    return False
