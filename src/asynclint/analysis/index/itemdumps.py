"""Loops that serialize or copy every item of a parameter, one by one: ``for step in trajectory:
out.append(step["completion"].model_dump())``. Each dump is of one item, microseconds, but together
they are the whole collection, which only the callers know the size of: the rollout's trajectory
handed in is all of it, one turn's messages a few. The graph grades the loop at each hot call by
what that call hands the parameter (ASL119, :mod:`asynclint.rules.whole_collection_dump`); this
module reads the syntax of one function.

A loop dumps the items of parameter ``p`` when it goes over ``p`` itself (also through ``p or []``,
``enumerate``/``sorted``/``reversed``/``list``; a slice keeps a few and is not) and a call in its body
serializes or copies a value made from the item (:data:`~asynclint.knowledge.costs.ITEM_DUMP_METHODS`,
:data:`~asynclint.knowledge.costs.ITEM_DUMP_FUNCTIONS`): the item rebound (``step = dict(step)``), a
key or attribute of it, a local bound from it, an item of a loop over it. A dump of the loop
variable itself, never rebound, is left to ASL111, which sizes it as every item of ``p`` in turn. A
body that awaits hands the loop back on every iteration.
"""

from __future__ import annotations

import ast

from asynclint.analysis.index.helpers import SAME_ITEMS, names_in
from asynclint.knowledge.costs import ITEM_DUMP_FUNCTIONS, ITEM_DUMP_METHODS


class ItemDumps:
    """Which parameter of one function each of its loops dumps item by item (:meth:`dumped`, then
    :meth:`dumps_items`)."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef):
        args = node.args
        self.params = frozenset(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))

    def dumped(self, iterable: ast.expr) -> str:
        """The parameter whose items a loop over ``iterable`` goes over, or ""."""
        over = _over(iterable)
        return over.id if isinstance(over, ast.Name) and over.id in self.params else ""

    def dumps_items(self, target: ast.expr, nodes: list[ast.AST]) -> bool:
        """Does a loop of ``target`` serialize or copy a value made from each item in its body
        (``nodes``: every node of its statements, or of a comprehension's element and tests)?"""
        items = names_in(target)
        made, rebound = _made_from(items, nodes)
        for node in nodes:
            operand = _dumped(node) if isinstance(node, ast.Call) else None
            if operand is None or not names_in(operand) & made:
                continue
            if isinstance(operand, ast.Name) and operand.id in items and not rebound:
                continue  # the item itself: ASL111's "every item of `p` in turn"
            return True
        return False


def _over(iterable: ast.expr) -> ast.expr:
    """What a loop over ``iterable`` goes over: ``x`` of ``x or []``, ``enumerate(x)``, ``sorted(x)``."""
    if isinstance(iterable, ast.BoolOp) and isinstance(iterable.op, ast.Or):
        rest = iterable.values[1:]
        if all(isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.Constant)) for value in rest):
            return _over(iterable.values[0])
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.args:
        if iterable.func.id in SAME_ITEMS:
            return _over(iterable.args[0])
    return iterable


def _made_from(items: set[str], nodes: list[ast.AST]) -> tuple[set[str], bool]:
    """The names ``nodes`` bind to values made from the loop's ``items`` (those too), and whether an
    item's own name is bound again (``step = dict(step)``)."""
    made, rebound = set(items), False
    grew = True
    while grew:
        grew = False
        for node in nodes:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if not names_in(node.value) & made:
                    continue
                bound = {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, (ast.For, ast.comprehension)) and names_in(node.iter) & made:
                bound = names_in(node.target)
            else:
                continue
            rebound = rebound or bool(bound & items)
            if not bound <= made:
                made |= bound
                grew = True
    return made, rebound


def _dumped(call: ast.Call) -> ast.expr | None:
    """What ``call`` serializes or copies, when it is such a call."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in ITEM_DUMP_METHODS:
        return func.value
    if isinstance(func.value, ast.Name) and f"{func.value.id}.{func.attr}" in ITEM_DUMP_FUNCTIONS and call.args:
        return call.args[0]
    return None
