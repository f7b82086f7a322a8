"""Literal arguments and displays, and loops over a fixed few constants, read from the syntax alone:
what the payload reading (:mod:`.argfacts`) takes as small and fixed, and the loops the statements'
walk (:mod:`.statements`, :mod:`.expressions`) does not count as repeating."""

from __future__ import annotations

import ast
from collections.abc import Callable

from asynclint.analysis.index.helpers import SCOPES
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.costs import FEW, MAPPING_ENTRIES, SAME_ITEMS


def literal(arg: ast.expr) -> str | None:
    """``repr`` of a constant argument, ``"<small literal>"`` for a short literal container.

    A container is literal only when everything in it is: ``[state]`` or ``{"t": trajectory}``
    is as big as what it holds.
    """
    if isinstance(arg, ast.Constant):
        return repr(arg.value)
    if isinstance(arg, ast.JoinedStr):
        return "<small literal>"
    if isinstance(arg, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        children = arg.values if isinstance(arg, ast.Dict) else arg.elts
        if len(children) <= FEW and all(literal(c) is not None for c in children):
            return "<small literal>"
    return None


def entries(display: ast.Dict | ast.List | ast.Tuple | ast.Set) -> int:
    """How many fields a display writes out: a dict's entries (a key and its value are one field:
    ``{"id": x, "status": s}`` is two), a sequence's elements. Up to :data:`FEW` fields of small
    parts is a small record, json of it cheaper than a thread hop."""
    return len(display.keys) if isinstance(display, ast.Dict) else len(display.elts)


def fixed_iterable(iterable: ast.expr) -> bool:
    """A short display of constants, a string constant, or ``range`` of a small constant (also
    through ``enumerate``/``zip``/``sorted``/``reversed``): a fixed few iterations."""
    if isinstance(iterable, ast.Constant):
        return isinstance(iterable.value, str) and len(iterable.value) <= FEW
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        return len(iterable.elts) <= FEW and all(literal(e) is not None for e in iterable.elts)
    if isinstance(iterable, ast.Dict):
        entries = (*iterable.keys, *iterable.values)
        return len(iterable.keys) <= FEW and all(literal(v) is not None for v in entries if v)
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
        if iterable.func.id == "range":
            return bool(iterable.args) and all(
                isinstance(a, ast.Constant) and isinstance(a.value, int) and abs(a.value) <= FEW for a in iterable.args
            )
        if iterable.func.id in ("enumerate", "zip", "sorted", "reversed", "list", "tuple"):
            return bool(iterable.args) and all(fixed_iterable(a) for a in iterable.args)
    return False


def few_iterations(iterable: ast.expr, counted: Callable[[ast.expr], int | None]) -> bool:
    """A loop over ``iterable`` runs a fixed few times (at most :data:`FEW`), whatever its items hold,
    so what it repeats does not add up: a display written out (``for side in (expected, predicted)``
    is two iterations), a short constant string, ``range`` of small bounds, the ``items()`` of a
    mapping of a few, any of them through ``enumerate``/``sorted``/``list``/..., and ``zip`` when one of
    its arguments is (it stops at the shortest). ``counted``: how many items a name or a call stands
    for where the syntax cannot say (a module constant's display or integer, a library result the
    knowledge bounds), ``None`` when unknown."""
    if fixed_iterable(iterable) or _at_most_few(counted(iterable)):
        return True
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        return len(iterable.elts) <= FEW and not any(isinstance(e, ast.Starred) for e in iterable.elts)
    if isinstance(iterable, ast.Dict):
        return len(iterable.keys) <= FEW and None not in iterable.keys
    if not isinstance(iterable, ast.Call):
        return False  # keywords change no count but ``range``'s, which takes none
    func, args = iterable.func, iterable.args
    if isinstance(func, ast.Attribute) and func.attr in MAPPING_ENTRIES and not args:
        return few_iterations(func.value, counted)  # the entries of a mapping of a few
    if not isinstance(func, ast.Name) or not args:
        return False
    if func.id == "range":
        return all(_bound(arg, counted) for arg in args)
    if func.id == "zip":
        return any(few_iterations(arg, counted) for arg in args)
    return func.id in SAME_ITEMS and few_iterations(args[0], counted)


def _bound(arg: ast.expr, counted: Callable[[ast.expr], int | None]) -> bool:
    """A bound of ``range`` that keeps it few: a small integer written out or standing for one."""
    if isinstance(arg, ast.Constant) and type(arg.value) is int:
        return abs(arg.value) <= FEW
    return _at_most_few(counted(arg))


def _at_most_few(count: int | None) -> bool:
    return count is not None and 0 <= count <= FEW


def module_literals(tree: ast.Module) -> frozenset[str]:
    """Names the module's top level binds once, to a short display of constants (:func:`literal`:
    ``VIEWER = {"id": "user-001", "name": "Agent Bot", ...}``), that nothing in the module binds
    again (no other store at its top level, no ``global``), writes into (``VIEWER["x"] = ...``, ``VIEWER[k] += ...``)
    or calls a method of (``VIEWER.update(...)``, ``.append``): a copy or a dump of one in any
    function of the module is of that small constant, whatever its name says."""
    bound: dict[str, int] = {}
    found: set[str] = set()
    for stmt in tree.body:
        targets, value = (
            (stmt.targets, stmt.value)
            if isinstance(stmt, ast.Assign)
            else ([stmt.target], stmt.value)
            if isinstance(stmt, ast.AnnAssign)
            else ([], None)
        )
        if value is not None and literal(value) == "<small literal>":
            found.update(target.id for target in targets if isinstance(target, ast.Name))
    if not found:
        return frozenset()
    changed: set[str] = set()
    top = [node for stmt in tree.body if not isinstance(stmt, SCOPES) for node in walk(stmt)]
    for node in top:  # (a function's store of the name binds a local of its own)
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound[node.id] = bound.get(node.id, 0) + 1
    for node in walk(tree):
        if isinstance(node, ast.Global):
            changed.update(node.names)
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.value, ast.Name):
            if isinstance(node.ctx, (ast.Store, ast.Del)) or isinstance(node, ast.Attribute):
                changed.add(node.value.id)  # written into, or a method of it called or handed on
    return frozenset(name for name in found if bound.get(name) == 1 and name not in changed)
