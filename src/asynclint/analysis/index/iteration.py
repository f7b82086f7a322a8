"""Iterating a library object that blocks per item: ``for line in proc.stdout:`` reads the child's
pipe a line at a time, each read waiting until the child writes one. The loop calls the object's
``__iter__``/``__next__`` where it is written, so the walk records that call as if written there
(``proc.stdout.__iter__()``), for the knowledge base's ``<type>.__iter__`` entries to judge."""

from __future__ import annotations

import ast

from asynclint.analysis.index.scopes import Comprehension, IndexerState
from asynclint.analysis.index.values import Inst

#: The method a ``for`` (and a comprehension's ``for``) calls on what it goes over.
ITERATE = "__iter__"


class Iteration(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def _note_loop(self, node: ast.For | ast.AsyncFor | ast.While | Comprehension) -> None:
        super()._note_loop(node)
        if isinstance(node, ast.For):
            self._record_iteration(node.iter)
        elif not isinstance(node, ast.While | ast.AsyncFor) and not node.generators[0].is_async:
            # The first iterable only: the others are evaluated where the comprehension's own names are bound.
            self._record_iteration(node.generators[0].iter)

    def _record_iteration(self, iterable: ast.expr) -> None:
        """Record ``iterable.__iter__()`` at ``iterable`` when what it holds may be one the knowledge
        base lists iterating (an attribute so named, ``proc.stdout``, ``self.proc.stdout``,
        ``state["proc"].stdout``; a name holding one); anything else iterates as Python does."""
        names = self.catalogue.iterated_names
        if isinstance(iterable, ast.Attribute):
            listed = iterable.attr in names
        else:
            held = self.infer(iterable) if isinstance(iterable, ast.Name) else None
            listed = isinstance(held, Inst) and held.name.rpartition(".")[2] in names
        if not listed:
            return
        attribute = ast.copy_location(ast.Attribute(value=iterable, attr=ITERATE, ctx=ast.Load()), iterable)
        call = ast.copy_location(ast.Call(func=attribute, args=[], keywords=[]), iterable)
        call.end_lineno, call.end_col_offset = iterable.end_lineno, iterable.end_col_offset
        self.record_call(call, awaited=False, func_value=self.infer(attribute))
