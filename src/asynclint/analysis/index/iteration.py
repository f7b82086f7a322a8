"""Iterating a library object that blocks per item: ``for line in proc.stdout:`` reads the child's
pipe a line at a time, each read waiting until the child writes one. The loop calls the object's
``__iter__``/``__next__`` where it is written, so the walk records that call as if written there
(``proc.stdout.__iter__()``), for the knowledge base's ``<type>.__iter__`` entries to judge; so do
the builtins that consume what they are handed (``list(proc.stdout)``, ``next(proc.stdout)``), and
``iter(proc.stdout.readline, b"")``, whose every step calls the method it is handed: the object's
lines, read one by one, as a loop over it reads them."""

from __future__ import annotations

import ast

from asynclint.analysis.index.expressions import Expressions
from asynclint.analysis.index.frames import CallContext
from asynclint.analysis.index.helpers import last_name
from asynclint.analysis.index.scopes import Comprehension
from asynclint.analysis.index.values import Inst
from asynclint.knowledge.streams import STREAM_READERS

#: The method a ``for`` (and a comprehension's ``for``) calls on what it goes over.
ITERATE = "__iter__"
#: ``iter(f, sentinel)``: calls ``f`` until it returns the sentinel.
CALLING_ITER = "iter"


class Iteration(Expressions):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def _note_loop(self, node: ast.For | ast.AsyncFor | ast.While | Comprehension | ast.Call) -> None:
        super()._note_loop(node)
        if isinstance(node, ast.Call):
            return  # a key run per item: no iteration of the project's to record
        if isinstance(node, ast.For):
            self._record_iteration(node.iter)
        elif not isinstance(node, ast.While | ast.AsyncFor) and not node.generators[0].is_async:
            # The first iterable only: the others are evaluated where the comprehension's own names are bound.
            self._record_iteration(node.generators[0].iter)

    def visit_call(self, node: ast.Call, awaited: bool) -> None:
        super().visit_call(node, awaited)
        if any(keyword.arg == "key" for keyword in node.keywords):
            self._note_loop(node)  # ``sorted(pieces, key=...)`` runs its key per item (loopwalk reads it)
        name = last_name(node.func)
        if name in STREAM_READERS and len(node.args) == 1:  # ``list(proc.stdout)``, ``b"".join(proc.stdout)``
            self._record_iteration(node.args[0])
        elif name == CALLING_ITER and len(node.args) == 2 and isinstance(called := node.args[0], ast.Attribute):
            if self._listed(called.value):  # ``iter(proc.stdout.readline, b"")``: its lines, as a loop over it
                self._record_on(called.value, ITERATE, called)

    def _visit_argument(self, arg: ast.expr, offloaded: bool, call: CallContext, awaited: bool) -> None:
        super()._visit_argument(arg, offloaded, call, awaited)
        if isinstance(arg, ast.Call) and self._copies_items(arg):  # ``print(list(proc.stdout))``: items handed on
            self._record_iteration(arg.args[0])

    def _record_iteration(self, iterable: ast.expr) -> None:
        if self._listed(iterable):
            self._record_on(iterable, ITERATE, iterable)

    def _listed(self, value: ast.expr) -> bool:
        """``value`` may hold an object the knowledge base lists iterating: an attribute so named
        (``proc.stdout``, ``self.proc.stdout``, ``state["proc"].stdout``) or a name holding one;
        anything else iterates as Python does."""
        names = self.catalogue.iterated_names
        if isinstance(value, ast.Attribute):
            return value.attr in names
        held = self.infer(value) if isinstance(value, ast.Name) else None
        return isinstance(held, Inst) and held.name.rpartition(".")[2] in names

    def _record_on(self, receiver: ast.expr, method: str, where: ast.expr) -> None:
        """Record ``receiver.method()``, written at ``where``."""
        attribute = ast.copy_location(ast.Attribute(value=receiver, attr=method, ctx=ast.Load()), where)
        call = ast.copy_location(ast.Call(func=attribute, args=[], keywords=[]), where)
        call.end_lineno, call.end_col_offset = where.end_lineno, where.end_col_offset
        self.record_call(call, awaited=False, func_value=self.infer(attribute))
