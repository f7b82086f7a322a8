"""One walk of a function's loops for both of their readers: the trip counts of every loop
(:mod:`.work`) and, in a function with loops inside loops, the nests whose counts multiply with
its data (:mod:`.nests`).

The walk goes through the function's own nodes (nested functions, lambdas and classes left out)
in the order they run, each with the loop whose iterations run it: a ``for``'s iterable runs
before the loop, in the loop around it; its target and body in the loop; its ``else`` after it.
The nests are read from the part of the function their bounds can see: statements and
expressions, not keyword arguments, ``with`` items, ``except`` clauses' types or ``case``
patterns and guards (``seen``), and a ``while`` is no loop to them (its count is not the data's)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import replace

from asynclint.analysis.index.bodies import FunctionBody
from asynclint.analysis.index.corpora import Built
from asynclint.analysis.index.exponents import SizedNests, mark_exponential
from asynclint.analysis.index.helpers import AWAITING, COMPREHENSIONS, SCOPES
from asynclint.analysis.index.itemdumps import ItemDumps
from asynclint.analysis.index.loops import LoopNest, WorkLoop
from asynclint.analysis.index.nests import Nests, loop_nests
from asynclint.analysis.index.sizes import Factors
from asynclint.analysis.index.textwalks import TextWalks
from asynclint.analysis.index.walks import walk
from asynclint.analysis.index.work import Comprehension, Loops, ModuleLoops

_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Blocks holding statements whose other parts (an ``except`` clause's type, a ``case``'s
#: pattern and guard) the nests do not read.
_CLAUSES = (ast.ExceptHandler, ast.match_case)


class _Walk:
    def __init__(self, loops: Loops, nests: Nests | None, texts: TextWalks, dumps: ItemDumps) -> None:
        self.loops, self.nests, self.texts, self.dumps = loops, nests, texts, dumps
        #: Loop number -> the parameter whose text it walks piece by piece.
        self.pieces: dict[int, str] = {}
        #: Loop number -> the parameter whose items it serializes or copies one by one.
        self.dumped: dict[int, str] = {}
        #: The loops that go over the pieces of one text.
        self.cut: set[int] = set()

    def _walks(self, number: int, target: ast.expr, iterable: ast.expr, body: list[ast.AST]) -> None:
        if self.texts.cuts(iterable):
            self.cut.add(number)
        text, items = self.texts.walked(iterable), self.dumps.dumped(iterable)
        if not (text or items):
            return
        nodes = [node for part in body for node in walk(part)]
        if any(isinstance(node, AWAITING) for node in nodes):
            return  # it hands the event loop back on every iteration: neither reader holds it
        if text and self.texts.works_on_pieces(target, nodes):
            self.pieces[number] = text
        if items and self.dumps.dumps_items(target, nodes):
            self.dumped[number] = items

    def visit(self, node: ast.AST, parent: int, seen: bool) -> None:
        """``node``, run by the iterations of loop ``parent`` (-1: none); ``seen``: the nests read it."""
        if isinstance(node, SCOPES):
            return
        nests = self.nests if seen else None
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.visit(node.iter, parent, seen)
            here = self.loops.for_loop(node, parent)
            self._walks(here, node.target, node.iter, [*node.body])
            depth = len(nests.stack) if nests is not None else 0
            if nests is not None:
                nests.push(node.target, node.iter, node)
            self.visit(node.target, here, False)
            for part in node.body:
                self.visit(part, here, seen)
            if nests is not None:
                del nests.stack[depth:]
            for part in node.orelse:
                self.visit(part, parent, seen)
        elif isinstance(node, ast.While):
            here = self.loops.while_loop(node, parent)
            self.visit(node.test, here, seen)
            for part in node.body:
                self.visit(part, here, seen)
            for part in node.orelse:
                self.visit(part, parent, seen)
        elif isinstance(node, COMPREHENSIONS):
            self._comprehension(node, parent, seen)
        else:
            if nests is not None and isinstance(node, ast.stmt):
                nests.collect(node)
            elif nests is not None and isinstance(node, ast.expr):
                nests.expression(node)
            if isinstance(node, ast.Call):
                self.loops.call(node, parent)
                keyed = self.texts.keyed(node)
                if keyed is not None:
                    # the key runs once per piece: a walk of the text, whose items are read before it
                    self.pieces[self.loops.keyed(node, parent, keyed[0])] = keyed[1]
            for child in ast.iter_child_nodes(node):
                self.visit(child, parent, seen and _read_by_nests(node, child))

    def _comprehension(self, node: Comprehension, parent: int, seen: bool) -> None:
        nests = self.nests if seen else None
        depth = len(nests.stack) if nests is not None else 0
        self.visit(node.generators[0].iter, parent, seen)  # evaluated once, before the loop
        here = parent
        for position, generator in enumerate(node.generators):
            here = self.loops.generator(node, position, here)
            if position == 0:
                elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
                self._walks(here, generator.target, generator.iter, [*generator.ifs, *elements])
            if position:
                self.visit(generator.iter, here, seen)
            if nests is not None:
                nests.push(generator.target, generator.iter, node)
            for test in generator.ifs:
                self.visit(test, here, seen)
        for element in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
            self.visit(element, here, seen)
        if nests is not None:
            del nests.stack[depth:]


def _read_by_nests(node: ast.AST, child: ast.AST) -> bool:
    """Whether the nests read ``child`` of ``node`` (see the module's docstring)."""
    if isinstance(node, _CLAUSES):
        return isinstance(child, ast.stmt)
    if isinstance(node, ast.stmt):
        return isinstance(child, (ast.stmt, ast.expr, *_CLAUSES))
    return isinstance(node, ast.expr) and isinstance(child, ast.expr)


def function_loops(
    body: FunctionBody,
    node: _Function,
    function: int,
    first: int,
    where: ModuleLoops,
    owner: str,
    nested: bool,
    products: dict[str, int],
    collections: Mapping[str, Built] | None = None,
    closed_over: Mapping[str, Built] | None = None,
) -> tuple[
    list[WorkLoop],
    dict[tuple[int, int], tuple[tuple[str, str, Factors], ...]],
    dict[tuple[int, int], tuple[tuple[str, str], ...]],
    list[LoopNest],
]:
    """The loops of ``node`` (function index ``function``, its statements and nodes ``body``; a
    method of class ``owner``, dotted), numbered from ``first`` in the module's list, with their
    trip counts; by position its calls that pass one argument plus a count as another (``f(start,
    start + n)``, ``CallSite.spans``) and those passing an item per item of a parameter
    (``CallSite.itemwise``); and, when it may hold one (``nested``), its loop nests, read with the
    module's product builders (``products``, :func:`.products.product_builders`), the attributes
    its class's constructor fills over a whole source (``collections``) and the names it reads from
    its module or enclosing functions that hold one (``closed_over``; :mod:`.corpora`)."""
    loops = Loops(body, node, function, first, where, owner)
    nests = (
        SizedNests(node, where.resolve, bool(owner), products, collections or {}, closed_over or {}) if nested else None
    )
    walk = _Walk(loops, nests, TextWalks(node), ItemDumps(node))
    for stmt in node.body:
        walk.visit(stmt, -1, nests is not None)
    for number, param in walk.pieces.items():
        loops.loops[number - first] = replace(loops.loops[number - first], pieces=param)
    for number, param in walk.dumped.items():
        loops.loops[number - first] = replace(loops.loops[number - first], dumps=param)
    for number in walk.cut:
        loops.loops[number - first] = replace(loops.loops[number - first], cut=True)
    found = mark_exponential(nests, loop_nests(nests, function, where.col)) if nests is not None else []
    return loops.loops, loops.spans, loops.itemwise, found
