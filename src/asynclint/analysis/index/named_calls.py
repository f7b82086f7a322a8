"""Calls of a method looked up by a name the code does not write out: ``getattr(api, name)(**kwargs)``,
the model's tool name dispatched to an object's method."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import Sym
from asynclint.knowledge.programs import ANY_NAME


class NamedCalls(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    if TYPE_CHECKING:

        def _constant(self, node: ast.expr) -> ast.expr: ...

    def _by_any_name(self, node: ast.Call) -> ast.Call | None:
        """``getattr(api, name)(**kwargs)`` with a name the code does not write out (a tool's name the
        model gave): the call as ``api.<any method>(**kwargs)`` (method :data:`ANY_NAME`), so the
        receiver is typed as any method call's is, and the graph runs each public method of its class."""
        looked = node.func
        if not (isinstance(looked, ast.Call) and looked.args and not isinstance(looked.args[0], ast.Starred)):
            return None
        if self.infer(looked.func) != Sym("builtins.getattr") or len(looked.args) not in (2, 3):
            return None
        if isinstance(self._constant(looked.args[1]), ast.Constant):
            return None  # a name written out: ``getattr(x, "name")`` is ``x.name``
        method = ast.copy_location(ast.Attribute(value=looked.args[0], attr=ANY_NAME, ctx=ast.Load()), looked)
        called = ast.copy_location(ast.Call(func=method, args=node.args, keywords=node.keywords), node)
        if id(node) in self._consumed:
            self._consumed[id(called)] = self._consumed.pop(id(node))
        return called
