"""Literal arguments and displays, and loops over a fixed few constants, read from the syntax alone:
what the payload reading (:mod:`.argfacts`) and the statements' walk (:mod:`.statements`) take as
small and fixed."""

from __future__ import annotations

import ast

from asynclint.knowledge.costs import FEW


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
