"""Loops that walk a text parameter piece by piece: ``for line in log.splitlines()`` with string work
on every line (a log parser, a report scanner). The loop's count is the text's length, which only the
callers know: a whole test log handed in is thousands of lines, one model reply a few. The graph
grades the walk at each hot call by what that call hands the parameter (ASL117,
:mod:`asynclint.rules.whole_text_walk`); this module reads the syntax of one function.

A loop walks parameter ``p`` when it goes over the pieces of ``p``'s text: ``p.split(...)``,
``p.splitlines()``, ``re.findall(pattern, p)`` / ``re.split`` / ``re.finditer``, also of a text
computed from ``p`` in the same size (``p.strip().lower()``; not a part of a split, ``log =
log.split(marker)[1]``, a section whose size the marker decides), through ``enumerate``/``reversed``/
``sorted`` or an open slice (``lines[1:]``), or a local bound to such pieces. A slice with an end (``lines[:20]``,
``lines[-3:]``) is a constant few. Every iteration must do work with the piece: call a method of it
or a function on it, test membership in it, or loop over it (collecting it as it is,
``out.append(line)``, is not work worth a report); a body that awaits hands the loop back.

Ordering or picking the pieces by a key (``sorted(chunks, key=lambda c: score(c, query))``, ``min``,
``max``, ``list.sort``, ``heapq.nlargest``/``nsmallest``) runs the key once per piece: a walk too
(:meth:`TextWalks.keyed`) when the key does work with its piece -- a function named as the key, or a
lambda calling something on it; not ``len``, an attribute or ``itemgetter``/``attrgetter`` (constant
work in C per piece).
"""

from __future__ import annotations

import ast

from asynclint.analysis.index.bodies import own_nodes
from asynclint.analysis.index.helpers import SAME_ITEMS, names_in
from asynclint.analysis.index.walks import walk

#: Methods that cut a text into its pieces (lines, words, fields).
_SPLITTERS = frozenset({"split", "rsplit", "splitlines"})
#: ``re`` functions that go over a text (the text is their second argument).
_SCANNERS = frozenset({"findall", "finditer", "split"})
#: Calls whose result is the pieces of one text: a text's own splitters, ``re``'s scanners or a compiled
#: pattern's (``FENCE.finditer(reply)``).
_CUTTERS = _SPLITTERS | _SCANNERS
#: Methods that return a text as long as their receiver, near enough.
_SAME_TEXT = frozenset({"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "replace", "decode", "expandtabs"})
#: Calls that only collect a piece as it is.
_COLLECTING = frozenset({"append", "add", "extend", "insert", "appendleft"})
#: How deep a local's binding is followed.
_DEPTH = 4
#: Builtins ordering or picking among their first argument's items by a ``key=``.
_KEYED = frozenset({"sorted", "min", "max"})
#: ``heapq``'s, whose items are the second argument.
_HEAP_KEYED = frozenset({"nlargest", "nsmallest"})
#: Keys doing a constant step per item in C, whatever the item: no work worth a report.
_CHEAP_KEYS = frozenset({"len", "abs", "id", "hash", "int", "float", "bool", "ord", "itemgetter", "attrgetter"})


class TextWalks:
    """Which parameter of one function each of its loops walks piece by piece (:meth:`walked`, then
    :meth:`works_on_pieces`)."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef):
        args = node.args
        self.params = frozenset(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
        #: Local name -> the values the function binds it to (a name bound otherwise too: never followed).
        self.bound: dict[str, list[ast.expr]] = {}
        opaque: set[str] = set()
        for part in own_nodes(node.body):
            if isinstance(part, ast.Assign) and len(part.targets) == 1 and isinstance(part.targets[0], ast.Name):
                self.bound.setdefault(part.targets[0].id, []).append(part.value)
            elif isinstance(part, (ast.AugAssign, ast.AnnAssign)) and isinstance(part.target, ast.Name):
                if part.value is None or isinstance(part, ast.AugAssign):
                    opaque.add(part.target.id)
                else:
                    self.bound.setdefault(part.target.id, []).append(part.value)
            elif isinstance(part, (ast.For, ast.AsyncFor, ast.comprehension, ast.withitem, ast.NamedExpr)):
                target = part.optional_vars if isinstance(part, ast.withitem) else part.target
                opaque.update(n.id for n in walk(target) if isinstance(n, ast.Name)) if target else None
        for name in opaque:
            self.bound.pop(name, None)

    def walked(self, iterable: ast.expr) -> str:
        """The parameter whose text's pieces a loop over ``iterable`` goes over, or ""."""
        return self._pieces(iterable, _DEPTH)

    def works_on_pieces(self, target: ast.expr, nodes: list[ast.AST]) -> bool:
        """Does a loop of ``target`` do work with each piece in its body (``nodes``: every node of its
        statements, or of a comprehension's element and tests)?"""
        items = names_in(target)
        return any(_works_on(node, items) for node in nodes)

    def keyed(self, node: ast.Call) -> tuple[ast.expr, str] | None:
        """When ``node`` orders or picks the pieces of a text parameter by a key doing work with each
        piece (``sorted(text.split("\\n\\n"), key=lambda p: score(p, query))``): the pieces and the
        parameter; else ``None``."""
        key = next((k.value for k in node.keywords if k.arg == "key"), None)
        func = node.func
        if key is None or not _works_per_item(key):
            return None
        if isinstance(func, ast.Name) and func.id in _KEYED and len(node.args) == 1:
            items: ast.expr | None = node.args[0]
        elif isinstance(func, ast.Attribute) and func.attr in _HEAP_KEYED and len(node.args) == 2:
            items = node.args[1]
        elif isinstance(func, ast.Attribute) and func.attr == "sort" and not node.args:
            items = func.value
        else:
            items = None
        text = self.walked(items) if items is not None else ""
        return (items, text) if items is not None and text else None

    def cuts(self, iterable: ast.expr) -> bool:
        """Does a loop over ``iterable`` go over the pieces of one text, whatever holds the text (a
        parameter, a local, an attribute: ``re.findall(fence, trace.last_reply)``, a compiled
        pattern's ``FENCE.finditer(reply)``, ``text.split("\\n\\n")``), directly or through a local
        bound only to such pieces? Together the pieces are that one text."""
        return self._cuts(iterable, _DEPTH)

    def _cuts(self, node: ast.expr, depth: int) -> bool:
        if depth <= 0:
            return False
        if isinstance(node, ast.Name):
            values = self.bound.get(node.id, [])
            return bool(values) and all(self._cuts(value, depth - 1) for value in values)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return self._cuts(node.value, depth)  # some of the pieces are still pieces of the text
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in SAME_ITEMS and bool(node.args) and self._cuts(node.args[0], depth)
        # A text's ``split``/``splitlines``, ``re``'s scanners, or a compiled pattern's (its text the
        # first argument): each is one text cut in pieces.
        return isinstance(func, ast.Attribute) and func.attr in _CUTTERS

    def _pieces(self, node: ast.expr, depth: int) -> str:
        """The parameter whose text's pieces ``node`` holds, or ""."""
        if depth <= 0:
            return ""
        if isinstance(node, ast.Name):
            # ``log = log.split(marker)[1]; log = log.split("\n")``: the text rebound, then cut in pieces
            values = self.bound.get(node.id, [])
            found = {self._pieces(value, depth - 1) or self._text(value, depth - 1) for value in values}
            cut = any(self._pieces(value, depth - 1) for value in values)
            return found.pop() if cut and len(found) == 1 else ""
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            return "" if _cut(node.slice) else self._pieces(node.value, depth)
        if not isinstance(node, ast.Call):
            return ""
        func = node.func
        if isinstance(func, ast.Name) and func.id in SAME_ITEMS and node.args:
            return self._pieces(node.args[0], depth)
        if not isinstance(func, ast.Attribute):
            return ""
        if func.attr in _SPLITTERS:
            if isinstance(func.value, ast.Name) and func.value.id == "re":
                return self._text(node.args[1], depth) if len(node.args) > 1 else ""
            return self._text(func.value, depth)
        if func.attr in _SCANNERS and isinstance(func.value, ast.Name) and func.value.id == "re":
            return self._text(node.args[1], depth) if len(node.args) > 1 else ""
        return ""

    def _text(self, node: ast.expr, depth: int) -> str:
        """The parameter ``node``'s text is computed from in about the same size, or ""."""
        if depth <= 0:
            return ""
        if isinstance(node, ast.Name):
            if node.id in self.params:
                return node.id
            values = self.bound.get(node.id)
            found = {self._text(value, depth - 1) for value in values or ()}
            return found.pop() if len(found) == 1 else ""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _SAME_TEXT:
            return self._text(node.func.value, depth)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" and node.args:
            return self._text(node.args[0], depth)
        # A part of a split (``log.split(marker)[1]``) is not: its size is the marker's choice, and the
        # section after a header is mostly a few lines of a long text (pytest's short test summary).
        return ""


def _cut(part: ast.Slice) -> bool:
    """Does the slice keep a constant few (an end, or a start counted from the end)?"""
    start = part.lower
    from_end = isinstance(start, ast.UnaryOp) and isinstance(start.op, ast.USub)
    return part.upper is not None or from_end


def _works_per_item(key: ast.expr) -> bool:
    """Does a ``key=`` do work with each item: a function or method named (not a cheap builtin), or a
    lambda calling something on its item (``lambda c: score(c, q)``; not ``lambda c: c.score`` or
    ``lambda c: len(c)``)?"""
    if isinstance(key, (ast.Name, ast.Attribute)):
        return (key.id if isinstance(key, ast.Name) else key.attr) not in _CHEAP_KEYS
    if not isinstance(key, ast.Lambda) or len(key.args.args) != 1:
        return False
    item = {key.args.args[0].arg}
    return any(
        _works_on(node, item)
        for node in walk(key.body)
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CHEAP_KEYS)
    )


def _works_on(node: ast.AST, items: set[str]) -> bool:
    """Does ``node`` do work with a piece named in ``items``: a call on it (not one collecting it as it
    is), a membership test in it, a loop over it?"""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _COLLECTING:
            return False
        receiver = func.value if isinstance(func, ast.Attribute) else None
        handed = [receiver, *node.args, *(k.value for k in node.keywords)]
        return any(part is not None and names_in(part) & items for part in handed)
    if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
        return bool(names_in(node.comparators[-1]) & items or names_in(node.left) & items)
    if isinstance(node, (ast.For, ast.comprehension)):
        return bool(names_in(node.iter) & items)
    return False
