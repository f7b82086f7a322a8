"""The classes and functions a module hands on as values instead of calling them where it names
them: a table's values, a list's or a tuple's items, a call's arguments (``{"factory":
PageviewsSource}``, ``register(FredSource)``, ``{"factory": lambda: WikipediaSource(mode="search")}``,
the lambda standing for the class its body builds). What the project may build without a call of
the class written (``ModuleSummary.factories``), noted during the walk, where names mean what the
scope binds them to."""

from __future__ import annotations

import ast

from asynclint.analysis.index.helpers import may_be_project
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import Sym
from asynclint.knowledge.typenames import TYPE_TESTS


class HandedValues(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def note_table(self, node: ast.Dict) -> None:
        """A dict display's values, each under its literal key ("" for any other key)."""
        for key, value in zip(node.keys, node.values, strict=True):
            literal = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""
            self._note_handed(literal, value)

    def note_items(self, node: ast.List | ast.Tuple | ast.Set) -> None:
        for element in node.elts:
            self._note_handed("", element)

    def note_arguments(self, node: ast.Call, target: str | None) -> None:
        """A call's arguments, and the items of a list or tuple handed as one; none of a call that
        tests or declares types (``isinstance(src, (FredSource, NoaaSource))``)."""
        if target in TYPE_TESTS:
            return
        for argument in (*node.args, *(keyword.value for keyword in node.keywords)):
            if isinstance(argument, (ast.List, ast.Tuple, ast.Set)):
                self.note_items(argument)
            else:
                self._note_handed("", argument)

    def _note_handed(self, key: str, value: ast.expr) -> None:
        if not isinstance(value, (ast.Name, ast.Attribute, ast.Lambda)):
            return
        named = self.table_value(value)
        if isinstance(named, Sym) and may_be_project(named.name):
            self.factories.add((key, named.name))
