"""Callables registered by storing them where the framework keeps what it runs: an attribute of
``self`` in a framework subclass (``self.tools = [...]``, :data:`ATTRIBUTE_SLOTS`), or a list a
framework object runs each item of (``rubric.reward_funcs[0] = f``, ``rubric.funcs.append(f)``,
:data:`REWARD_LISTS`), read as a call of a method of the list's name handed the callable."""

from __future__ import annotations

import ast

from asynclint.analysis.index.frames import CallContext
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import Inst, Refs, SelfPath, SelfRef, Sym, Value
from asynclint.knowledge.frameworks import ATTRIBUTE_SLOT, ATTRIBUTE_SLOTS, REWARD_LISTS

#: List methods that store a callable, and the position of the argument they store
#: (``extend``'s is a list of them).
_STORING = {"append": 0, "insert": 1, "extend": 0}


class RegisteredLists(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def register_stored(self, target: ast.expr, stored: ast.expr, value: Value) -> None:
        """``target = stored`` (``stored`` infers to ``value``) registers what it stores."""
        if isinstance(value, Refs) and (own := self._own_attribute(target)) and own[1] in ATTRIBUTE_SLOTS:
            # ``self.tools = [self.run, ...]`` in an environment: what the framework runs
            self.record_ref(stored, False, CallContext(None, None, SelfPath(own[0], ()), f"{ATTRIBUTE_SLOT}{own[1]}"))
            return
        # ``rubric.reward_funcs = [...]``, ``rubric.reward_funcs[0] = f`` (or a slice of them)
        holder = target.value if isinstance(target, ast.Subscript) else target
        context = self._list_of(holder)
        if context is not None:
            self.record_ref(stored, False, context)

    def register_appended(self, node: ast.Call) -> None:
        """``rubric.funcs.append(f)`` (``insert(0, f)``, ``extend([f, g])``) registers ``f``."""
        func = node.func
        position = _STORING.get(func.attr) if isinstance(func, ast.Attribute) else None
        if position is None or position >= len(node.args) or not isinstance(func, ast.Attribute):
            return
        context = self._list_of(func.value)
        if context is not None:
            self.record_ref(node.args[position], False, context)

    def _list_of(self, holder: ast.expr) -> CallContext | None:
        """The registering call a store into ``holder`` stands for, when it is a reward list of an
        object the walk types (a name, a path from ``self``)."""
        if not (isinstance(holder, ast.Attribute) and holder.attr in REWARD_LISTS):
            return None
        owner = self.infer(holder.value)
        if isinstance(owner, (Inst, Sym)):
            return CallContext(f"{owner.name}.{holder.attr}", holder.attr, None, "0")
        if isinstance(owner, SelfRef):
            return CallContext(None, holder.attr, SelfPath.of(owner, (*owner.path, holder.attr)), "0")
        return None
