"""The classes and functions a module hands on as values instead of calling them where it names
them: a table's values, a list's or a tuple's items, a call's arguments (``{"factory":
PageviewsSource}``, ``register(FredSource)``, ``{"factory": lambda: WikipediaSource(mode="search")}``,
the lambda standing for the class its body builds). What the project may build without a call of
the class written (``ModuleSummary.factories``), noted during the walk, where names mean what the
scope binds them to. Also the objects a call is handed (``CallFacts.handed_out``): where the call
is a library's, the library may call any method of theirs by its name."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from asynclint.analysis.index.helpers import may_be_project
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import Inst, Marker, SelfRef, Sym
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

    def note_arguments(self, node: ast.Call, target: str | None, recorded: bool) -> None:
        """A call's arguments, and the items of a list or tuple handed as one; none of a call that
        tests or declares types (``isinstance(src, (FredSource, NoaaSource))``). ``recorded``: the
        call is the last call site recorded, which gets what its arguments hand out unless it is the
        standard library's (whose calls read what they are handed through its dunder methods:
        ``str``, ``len``, ``list.append``)."""
        if target in TYPE_TESTS:
            return
        if recorded and (may_be_project(target) or self.calls[-1].self_ref is not None):
            handed = tuple(
                dict.fromkeys(
                    value
                    for argument in (*node.args, *(keyword.value for keyword in node.keywords))
                    for value in self._handed_objects(argument)
                )
            )
            if handed:
                self.calls[-1] = self.calls[-1].with_facts(handed_out=handed)
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

    def note_store(self, target: ast.expr, value: ast.expr) -> None:
        """``bus.listener = Listener()``: an object stored into an attribute of a typed receiver
        other than ``self`` (``ModuleSummary.stored_out``); the graph tells a library's receiver."""
        if not isinstance(target, ast.Attribute):
            return
        receiver = self.infer(target.value)
        if isinstance(receiver, Inst) and may_be_project(receiver.name):
            held = receiver.name
        elif isinstance(receiver, SelfRef) and receiver.path and receiver.cls != Marker.STATE:
            held = ".".join((f"{receiver.cls}()", *receiver.path))
        else:
            return
        self.stored_out.update((held, stored) for stored in self._handed_objects(value))

    def _handed_objects(self, value: ast.expr) -> Iterator[str]:
        """What an argument hands a call, as ``CallFacts.handed_out`` records it: the type of an
        instance (``Handler()``, a local or a parameter typed so), a class or a function itself
        (the graph reads what calling it returns: a library calling a factory gets its instance),
        ``pkg.Env`` for ``self`` and ``pkg.Env().handler`` for an attribute of it -- each of the
        items of a display, and what a lambda returns."""
        if isinstance(value, ast.Starred):
            value = value.value
        if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            for element in value.elts:
                yield from self._handed_objects(element)
        elif isinstance(value, ast.Dict):
            for item in value.values:
                yield from self._handed_objects(item)
        elif isinstance(value, ast.IfExp):
            yield from self._handed_objects(value.body)
            yield from self._handed_objects(value.orelse)
        elif isinstance(value, ast.Lambda):
            yield from self._handed_objects(value.body)
        elif isinstance(value, (ast.Name, ast.Attribute, ast.Call)):
            found = self.infer(value)
            if isinstance(found, (Inst, Sym)) and may_be_project(found.name):
                yield found.name
            elif isinstance(found, SelfRef) and found.cls != Marker.STATE and Marker.SUPER not in found.path:
                yield ".".join((f"{found.cls}()", *found.path)) if found.path else found.cls
