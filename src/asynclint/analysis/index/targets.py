"""The walk's assignment targets and loop items: what a store binds, keeps, injects or switches (and
what a statement run on a connection switches it to), and the type each item of an iterable takes
(the part of :class:`asynclint.analysis.index.statements.Statements` that reads the left-hand side)."""

from __future__ import annotations

import ast
from dataclasses import replace

from asynclint.analysis.index.helpers import callables_of, stored_value
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.sql import leading_keyword
from asynclint.analysis.index.values import LOOP_ITEM, Inst, Marker, Refs, Rooted, SelfRef, Sym, Value
from asynclint.knowledge.blocking import (
    EMPTY_STORES,
    ENTER_RETURNS,
    ITEM_KEEPERS,
    ITEM_METHODS,
    ITEMS,
    MODE_SWITCHES,
    REBUILT_BY_STATEMENT,
)
from asynclint.knowledge.frameworks import ARGUMENT_INJECTORS


class Targets(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def _declared_param(self, target: ast.expr, value: Value) -> Value:
        """What binding ``target`` to ``value`` leaves it: a parameter's annotated type when ``value``
        is a read the graph may not resolve (``if validator is None: validator =
        state.get("validator")`` keeps ``validator: ValidatorClient | None`` a ``ValidatorClient``)."""
        if isinstance(target, ast.Name) and (value is None or isinstance(value, SelfRef)):
            return self.frame.declared.get(target.id, value)
        return value

    def _received(self, target: ast.expr, value: ast.expr) -> Inst | None:
        """``self._query_fn = query_fn`` in ``__init__``, the parameter untyped (or typed
        ``Callable``/``Any``): what the constructor's callers pass there, for the graph to settle
        (a bound method ``rt.plain_query``, an instance), written ``<param>.query_fn``."""
        if not (isinstance(value, ast.Name) and value.id in self.frame.untyped and value.id in self.frame.params):
            return None
        if self.functions[self.frame.func].name != "__init__" or self._own_attribute(target) is None:
            return None
        return Inst(str(Rooted(Marker.PARAM, (value.id,))), "param")

    def _injecting(self) -> bool:
        """Is this the body of a method whose dict the framework calls tools with?"""
        function = self.functions[self.frame.func]
        return (
            self.frame.kind == "function"
            and function.class_qualname is not None
            and function.name in ARGUMENT_INJECTORS
        )

    def _inject(self, key: ast.expr, value: Value) -> None:
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return
        if isinstance(value, SelfRef) and value.cls == Marker.STATE and value.path:
            stored: str | Rooted | None = Rooted(Marker.STATE, value.path)
        else:
            stored = stored_value(value)
        if stored:  # two different values under one key: typed as neither
            known = self.injected.setdefault(key.value, stored)
            if known != stored:
                self.injected[key.value] = ""

    def _inject_payload(self, key: ast.expr, value: ast.expr) -> None:
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            self.injected_payloads.append((key.value, *self._payload_of(value)))

    def _switch_mode(self, target: ast.expr, value: ast.expr) -> None:
        """``conn.isolation_level = None``: the object is of another type from here on
        (``knowledge.blocking.MODE_SWITCHES``)."""
        if not (isinstance(target, ast.Attribute) and isinstance(value, ast.Constant)):
            return
        own = self._own_attribute(target.value)  # ``self.db.isolation_level = None``: the same object
        owner = self.class_attrs.get(own[0], {}).get(own[1]) if own else self.infer(target.value)
        if not (isinstance(owner, Inst) and owner.name in MODE_SWITCHES):
            return
        switched = MODE_SWITCHES[owner.name].get((target.attr, repr(value.value)))
        if switched is not None and own is not None:
            self.class_attrs[own[0]][own[1]] = replace(owner, name=switched)
        elif switched is not None:
            self.bind(target.value, replace(owner, name=switched))

    def _note_new_store(self, target: ast.expr, value: Value) -> None:
        """``self._conn = sqlite3.connect(":memory:")``: from here on in this function ``self._conn``
        holds a store that is empty until the function fills it (Frame.new_stores); any other value
        bound to it ends that."""
        if not isinstance(target, (ast.Name, ast.Attribute)):
            return
        if isinstance(value, Inst) and value.name in EMPTY_STORES:
            self.frame.new_stores.add(ast.unparse(target))
        elif self.frame.new_stores:  # unparse only where there is a store to end: this runs per assignment
            self.frame.new_stores.discard(ast.unparse(target))

    def fills_new_store(self, node: ast.Call) -> bool:
        """Is ``node`` an ``executescript`` on a store this function opened (``_note_new_store``)?"""
        func = node.func
        return (
            isinstance(func, ast.Attribute)
            and func.attr == "executescript"
            and ast.unparse(func.value) in self.frame.new_stores
        )

    def _rebuild_receiver(self, node: ast.Call) -> None:
        """``con.execute("ATTACH DATABASE 'x.db' AS x")`` on an in-memory connection: the name or the
        ``self`` attribute holding it is a file-backed connection from here on, and so is what a
        factory returns after it (``knowledge.blocking.REBUILT_BY_STATEMENT``)."""
        if not isinstance(node.func, ast.Attribute):
            return
        receiver = node.func.value
        own = self._own_attribute(receiver)
        held = self.class_attrs.get(own[0], {}).get(own[1]) if own else self.infer(receiver)
        if not isinstance(held, Inst) or (rebuilt := REBUILT_BY_STATEMENT.get(held.name)) is None:
            return
        if leading_keyword(node, {**self.frames[0].constants, **self.frame.constants}) not in rebuilt[0]:
            return
        if own is not None:
            self.class_attrs[own[0]][own[1]] = replace(held, name=rebuilt[1])
        elif isinstance(receiver, ast.Name):
            self.bind(receiver, replace(held, name=rebuilt[1]))

    def _keeps(self, target: ast.expr) -> bool:
        """Does assigning to ``target`` keep the value beyond this call?"""
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            owner = self.lookup(target.value.id)
            return isinstance(owner, SelfRef) and not owner.path
        return isinstance(target, ast.Name) and self.frame.kind == "function" and target.id in self.frame.globals

    def _note_fields(self, target: ast.expr, value: ast.expr | None) -> None:
        """What each string key of a dict display bound to a local holds (Frame.fields), and the call a
        local's value comes from (Frame.requests)."""
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
            self.frame.fields[target.id] = {
                key.value: self.infer(held)
                for key, held in zip(value.keys, value.values, strict=True)
                if isinstance(key, ast.Constant) and isinstance(key.value, str)
            }
            self.frame.displays[target.id] = value
        request = value.value if isinstance(value, ast.Await) else value
        if isinstance(target, ast.Name) and isinstance(request, ast.Call):
            self.frame.requests[target.id] = request  # ``resp = session.get(url, params=params)``

    def visit_target(self, target: ast.expr, value: ast.expr | None = None) -> None:
        """Calls inside assignment targets (``x[f()] = ...``) still run. A key stored into a
        collection the function holds (``out[key] = value``) may change what it holds."""
        if isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
            for child in ast.iter_child_nodes(target):
                if isinstance(child, ast.expr):
                    self.visit_target(child)
        elif isinstance(target, ast.Subscript):
            if isinstance(target.value, ast.Name):
                if value is None:
                    self.frame.payloads.pop(target.value.id, None)  # ``response["log"] = ...``: no longer the display
                else:
                    self._fill_key(target.value.id, value, target.lineno)
                self.frame.fields.pop(target.value.id, None)
                self.frame.displays.pop(target.value.id, None)
            self.visit_expr(target)
        elif isinstance(target, ast.Attribute):
            self.visit_expr(target.value)  # assigned, not read

    def _counted_item(self, target: ast.expr, iterable: ast.expr) -> tuple[ast.expr, ast.expr]:
        """The loop variable holding an item and what it goes over: ``fn`` and ``fns`` for ``for i,
        fn in enumerate(fns)``; the target and the iterable themselves for any other loop."""
        if (
            isinstance(target, ast.Tuple)
            and len(target.elts) == 2
            and isinstance(iterable, ast.Call)
            and len(iterable.args) == 1
            and not iterable.keywords
            and self.infer(iterable.func) == Sym("builtins.enumerate")
        ):
            return target.elts[1], iterable.args[0]
        return target, iterable

    def _item_type(self, iterable: ast.expr) -> Value:
        if isinstance(iterable, ast.Call) and iterable.args:
            func = self.infer(iterable.func)
            if isinstance(func, Sym) and func.name in ITEM_KEEPERS:
                return self._item_type(iterable.args[0])  # ``sorted(root.rglob("*.py"))``: rglob's items
        value = self.infer(iterable)
        if isinstance(value, Inst) and value.name in ITEMS:
            return Inst(ITEMS[value.name], "local")
        if isinstance(value, Inst) and value.name.rpartition(".")[2] in ITEM_METHODS and "()." in value.name:
            return Inst(f"{value.name}.{LOOP_ITEM}", "local")  # a method of a call's result: typed project-wide
        if isinstance(value, SelfRef) and value.path and value.path[-1] in ITEM_METHODS:
            # ``self._resolve(p).rglob("*")``: what a method's result yields, typed project-wide as above
            return SelfRef(value.cls, (*value.path, LOOP_ITEM))
        if isinstance(value, Refs):
            if len(value.items) == 1 and isinstance(value.items[0], Inst):
                return value.items[0]  # ``[pool.submit(f, x) for x in xs]``: each is a Future
            return value  # any one of the callables
        if isinstance(value, Sym) or (isinstance(value, Inst) and value.name.endswith("()")):
            return callables_of((value,))  # a list defined elsewhere, or returned by a call: any of its items
        return None

    def _bind_names(self, target: ast.expr, value: Value) -> None:
        """``bind`` for loop variables: names only, nothing recorded."""
        if isinstance(target, ast.Name):
            self.frame.bindings[target.id] = value
            self.frame.untyped.discard(target.id)
            self.frame.unbound.discard(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._bind_names(elt.value if isinstance(elt, ast.Starred) else elt, None)

    def _enter_type(self, expr: ast.expr) -> Value:
        value = self.infer(expr)
        if isinstance(value, Inst) and value.name in ENTER_RETURNS:
            entered = ENTER_RETURNS[value.name]
            return Inst(entered, "local") if entered else None
        return value
