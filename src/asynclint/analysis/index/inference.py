"""Inference of values (pure: records nothing): what an expression, an annotation or an
unpacking denotes -- a named thing, an instance of a type, ``self.<attr>``, callables (the export
of what functions return, for other modules, records it: :mod:`asynclint.analysis.index.return_exports`)."""

from __future__ import annotations

import ast
from dataclasses import replace

from asynclint.analysis.index.annotation_types import AnnotationTypes
from asynclint.analysis.index.callshapes import state_get, state_key
from asynclint.analysis.index.helpers import (
    COPYING_BUILTINS,
    callables_of,
    called_in_thread,
    held_items,
    is_none,
    may_be_project,
    runs_in_thread,
    same_type,
    typed_instance,
    untyped,
)
from asynclint.analysis.index.values import (
    ELEMENT,
    ITEM_SUFFIX,
    CallPart,
    Inst,
    Marker,
    Refs,
    SelfRef,
    Sym,
    Value,
    extend,
)
from asynclint.knowledge.asyncio_apis import CALLABLE_WRAPPERS, RESULT_METHODS, THREAD_RESULTS
from asynclint.knowledge.blocking import ITEM_KEEPERS, ITEMS, RETURNS, TEXT_PIECES, TEXT_PIECES_TYPE
from asynclint.knowledge.costs import FEW
from asynclint.knowledge.frameworks import HANDOFF_ATTRIBUTES
from asynclint.knowledge.typenames import CASTS

#: Calls naming a module or an attribute by a string: resolved when the string is written out.
DYNAMIC_LOOKUPS = frozenset({Sym("importlib.import_module"), Sym("builtins.__import__"), Sym("builtins.getattr")})


def literal_name(node: ast.expr | None, dotted: bool = False) -> str | None:
    """The identifier (``dotted``: absolute dotted module name) a string literal spells, if it is one."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    parts = node.value.split(".") if dotted else [node.value]
    return node.value if all(part.isidentifier() for part in parts) else None


def bound_method(value: SelfRef) -> bool:
    """``self.click`` (or ``self.pages.click``): a method read, not called, not through ``super()``."""
    return (
        bool(value.path)
        and value.cls != Marker.STATE
        and Marker.SUPER not in value.path
        and not value.path[-1].endswith("()")
    )


class Inference(AnnotationTypes):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    # -- inference (pure: records nothing) --------------------------------------------------

    def infer(self, node: ast.expr) -> Value:
        if isinstance(node, ast.Name):
            return self.lookup(node.id)
        if isinstance(node, ast.Attribute):
            base = self.infer(node.value)
            if isinstance(base, Sym):
                return Sym(extend(base.name, (node.attr,)))
            if isinstance(base, Inst):
                kept = self._kept_handed(base, node.attr)
                return kept if kept is not None else Inst(extend(base.name, (node.attr,)), base.origin, base.handed)
            if isinstance(base, SelfRef):
                return SelfRef(base.cls, (*base.path, node.attr))
            if isinstance(base, Refs) and all(isinstance(item, Inst) for item in base.items):
                # ``BACKENDS[name]().run``: that method of whichever class the table gave.
                return Refs(
                    tuple(
                        Inst(extend(item.name, (node.attr,)), item.origin)
                        for item in base.items
                        if isinstance(item, Inst)
                    )
                )
            return None
        if isinstance(node, ast.Call):
            key = state_get(node)
            if key is not None:
                return SelfRef(Marker.STATE, (key,))
            if isinstance(node.func, ast.Attribute) and node.func.attr == "get":
                table = self.infer(node.func.value)
                if isinstance(table, Refs):
                    return table  # ``BACKENDS.get(name)``: any one of the table's callables
            accessed = (
                (node.func.value, node.func.attr) if isinstance(node.func, ast.Attribute) else (node.func, "__call__")
            )
            if (item := self.generic_item(*accessed)) is not None:
                return item  # ``CURRENT.get(None)`` of a ``ContextVar[Session]``: a ``Session``
            func = self.infer(node.func)
            if isinstance(func, Sym) and func.name in CASTS and node.args:
                return self.annotation_type(node.args[0])  # declared, as an annotation declares it
            if isinstance(func, Refs) and func.items and all(isinstance(item, Sym) for item in func.items):
                # ``BACKENDS[name](...)``: an instance of any one of the table's classes (a table
                # imported from another module stands for its items; the graph expands it).
                return Refs(tuple(Inst(f"{item.name}()", "expr") for item in func.items if isinstance(item, Sym)))
            if isinstance(func, Sym) and func.name in THREAD_RESULTS and runs_in_thread(node):
                # ``await asyncio.to_thread(f, *args)`` is what ``f(*args)`` returns: an object
                # made in a worker thread (as a fix writes it) is still of its type on the loop.
                return self.infer(called_in_thread(node))
            if (position := self._executor_position(node)) is not None:
                # ``await loop.run_in_executor(POOL, f, *args)`` is what ``f(*args)`` returns: a result pickled
                # back from a worker process is equal to it, of its type.
                run = ast.Call(func=node.args[position], args=node.args[position + 1 :], keywords=[])
                return self.infer(ast.copy_location(run, node))
            found = self._infer_dynamic(node, func) if func in DYNAMIC_LOOKUPS else self._imported_here(node, func)
            if found is not None:
                return found
            runner = self._runner_position(func)
            if runner is not None and runner < len(node.args) and not isinstance(node.args[runner], ast.Starred):
                # ``await self._run_in_thread(make_env)``: what ``make_env()`` returns.
                return self.infer(ast.copy_location(ast.Call(func=node.args[runner], args=[], keywords=[]), node))
            if isinstance(func, Sym) and func.name in CALLABLE_WRAPPERS and node.args:
                wrapped = self.infer(node.args[0])  # calling the partial calls what it wraps
                return wrapped if isinstance(wrapped, (Sym, SelfRef, Inst)) else None
            if func in COPYING_BUILTINS and len(node.args) == 1 and not isinstance(node.args[0], ast.Starred):
                items = self.infer(node.args[0])
                if isinstance(items, Refs):
                    return items
                if (copied := held_items(items)) is not None:
                    return copied  # ``list(scenario.rubric.funcs)``: the attribute's items, which the graph reads
            if isinstance(func, Sym) and func.name in ITEM_KEEPERS and len(node.args) == 1:
                item = self._item_type(node.args[0])
                if isinstance(item, (Inst, SelfRef)):
                    # ``paths = sorted(root.rglob("*.jsonl"))``: a list of what rglob yields, as a
                    # comprehension's list is of its element, for a later loop over the name
                    return Refs((item,))
            if func == Sym("builtins.super") and self.frame.cls is not None and self.frame.kind == "function":
                # ``super().method()``: looked up from the first base on (and ``super().__init__
                # (tools=[...])`` shows the framework base what is passed).
                return SelfRef(self.frame.cls, (Marker.SUPER,))
            if isinstance(func, Sym):
                # A constructor, a factory, or a method of something imported: see Catalogue.result_of.
                name = self._built_as(node, func.name) or self._result_of(node, func.name)
                parts = (name, self._handed_elsewhere(func, node), self._named_elsewhere(func, node))
                return Inst(".".join(filter(None, parts)), "expr", self._built.get(id(node), ()))
            if (
                (func is None or isinstance(func, Inst))
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in TEXT_PIECES
            ):
                return Inst(TEXT_PIECES_TYPE, "expr")  # ``reply.splitlines()``: a list of text, whatever ``reply`` is
            if isinstance(func, Inst):
                # What a method returns is not its receiver: ``create(...)`` of a client gives a
                # response. "()" marks that, so ``Type.**`` patterns stop matching past it.
                result = f"{func.name}()"
                return Inst(self._built_as(node, func.name) or RETURNS.get(result, result), func.origin)
            if isinstance(func, SelfRef) and func.path and func.path[-1] != Marker.SUPER:
                # ``self._client().get_collection(name)``: what BUILT says a call so written
                # builds, for the graph to use once it knows the callee.
                built = self._built_by_name(node, func.path[-1])
                handed = self._handed_callables(node)  # ``await self.run(make_env)``, ``run`` inherited
                return SelfRef(func.cls, (*func.path[:-1], f"{func.path[-1]}()", *built, *filter(None, [handed])))
            return None
        if isinstance(node, ast.Await):
            return self.infer(node.value)  # what a coroutine function returns, as its summary says
        if isinstance(node, ast.Subscript):
            field = self._typed_dict_field(node)
            if field is not None:
                return field
            if isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant):
                held = self.frame.fields.get(node.value.id, {})
                if node.slice.value in held:  # ``snapshot["world"]`` of a display this function built
                    return held[node.slice.value]
            key = state_key(node)
            if key is not None:
                return SelfRef(Marker.STATE, (key,))
            base = self.infer(node.value)
            if isinstance(base, Refs):
                return base  # ``CHECKS[name]``: any one of the table's callables
            if (
                not isinstance(node.slice, ast.Slice)
                and (item := self.generic_item(node.value, "__getitem__")) is not None
            ):
                return item  # ``envs[key]`` of a ``dict[str, Env]``: an ``Env``
            if isinstance(base, Inst) and base.name in ITEMS and not isinstance(node.slice, ast.Slice):
                return Inst(ITEMS[base.name], "expr")  # ``pages[0]``: one item, as iterating gives
            if isinstance(base, Sym) and may_be_project(base.name):
                return Refs((base,), tables=True)  # a table imported from another module: any one of its items
            if (
                isinstance(base, SelfRef)
                and base.cls != Marker.STATE
                and len(base.path) == 1
                and base.path[0].isidentifier()
            ):
                # ``self.envs[run_id]``: an item, typed by what is stored in ``self.envs[...]``
                # (else, as before, by ``self.envs`` itself).
                return SelfRef(base.cls, (f"{base.path[0]}{ITEM_SUFFIX}",))
            return base if isinstance(base, (Inst, SelfRef)) else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            # ``a / b`` calls ``a.__truediv__(b)``: RETURNS says ``Path / str`` is a ``Path``.
            left = self.infer(node.left)
            if isinstance(left, Inst):
                return Inst(extend(left.name, ("__truediv__()",)), left.origin)
            if isinstance(left, SelfRef) and left.path:
                return SelfRef(left.cls, (*left.path, "__truediv__()"))
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self._infer_pipe(node)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return callables_of(map(self.infer, node.elts))
        if isinstance(node, ast.Dict) and node.values:
            # A dispatch table of named functions or classes (``{"lean": LeanBackend, ...}``):
            # its items are the callables. A dict holding anything else is data.
            # Bound methods too (``{"click": self.click, ...}``), not what calling one returns.
            # ``{**BBH, "maze": MazeVerifier}``: a table spliced in brings its items (one of another
            # module stands for them, as its name). A lambda among them is a callable too, though
            # not one the table is read for (``{"ok": _check, "any": lambda r, k: True}``). A library
            # API bound to an instance (``{"get": session.get}`` of ``session = requests.Session()``)
            # is one: the catalogue names it a method (a field of an instance is data).
            values = [self.table_value(value) for value in node.values]
            return (
                callables_of(values)
                if all(
                    isinstance(value, Sym)
                    or (isinstance(value, SelfRef) and bound_method(value))
                    or (
                        isinstance(value, Inst)
                        and isinstance(written, ast.Attribute)
                        and self.catalogue.match(value.name, None) is not None
                    )
                    or (key is None and isinstance(value, Refs))
                    or (value is None and isinstance(written, ast.Lambda))
                    for key, value, written in zip(node.keys, values, node.values, strict=True)
                )
                else None
            )
        if isinstance(node, ast.Starred):
            return self.infer(node.value)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self._infer_comprehension(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.infer(node.left), self.infer(node.right)
            if isinstance(left, Refs) or isinstance(right, Refs):
                # A sum of lists: the other side too (a list defined elsewhere stands for its items).
                return callables_of(side for side in (left, right) if isinstance(side, (Refs, Sym)))
            return None
        if isinstance(node, ast.BoolOp):
            values = [self.infer(value) for value in node.values]
            if any(isinstance(value, Refs) for value in values):
                return callables_of(values)  # ``extra or [default]``: the callables of either
            return next((value for value in values if value is not None), None)
        if isinstance(node, ast.IfExp):
            # Known only when both branches agree (``None`` on one side says nothing new); for
            # lists of callables, the union: ``[a, b] if flag else []`` may hold a and b; so for
            # two named callables (``fn = strict if mode == "strict" else loose; fn(x)``), as a
            # dispatch table's item is any one of them. A default beside a value of unknown type
            # (``client if client is not None else OpenAI()``) is what it may hold, as for ``or``.
            body, orelse = self.infer(node.body), self.infer(node.orelse)
            if (
                body == orelse
                or is_none(node.orelse)
                or same_type(body, orelse)
                or (typed_instance(body) and untyped(orelse))
            ):
                return body
            if is_none(node.body) or (typed_instance(orelse) and untyped(body)):
                return orelse
            if typed_instance(body) and typed_instance(orelse):
                # ``requests.Session() if pooled else httpx.Client()``: an instance of either, as a
                # dispatch table's item is (a method called on it: Recording.record_call).
                return callables_of((body, orelse))
            either = isinstance(body, Refs) or isinstance(orelse, Refs)
            named = all(
                isinstance(side, Sym) or (isinstance(side, SelfRef) and bound_method(side)) for side in (body, orelse)
            )
            return callables_of((body, orelse)) if either or named else None
        if isinstance(node, ast.NamedExpr):
            return self.infer(node.value)
        return None

    def _infer_dynamic(self, node: ast.Call, func: Sym) -> Value:
        """``importlib.import_module("pkg.mod")`` is the module, ``__import__("pkg.mod")`` the
        top-level package it returns (``pkg``: without a fromlist, ``__import__`` binds the first
        name as the ``import`` statement does), ``getattr(x, "name")`` is ``x.name``, when the names
        are written out, here or as a name bound to the string once (``PLUGINS = "pkg.plugins"``);
        a name computed at run time, such as one read from a configuration or a dataset row,
        settles nothing (None: read as any other call)."""
        name = literal_name(
            self._constant(node.args[1]) if func.name == "builtins.getattr" and len(node.args) in (2, 3) else None
        )
        if func.name == "builtins.getattr":
            if name is None:
                return None
            base = self.infer(node.args[0])
            if isinstance(base, Sym):
                return Sym(extend(base.name, (name,)))
            if isinstance(base, Inst):
                return Inst(extend(base.name, (name,)), base.origin, base.handed)
            if isinstance(base, SelfRef):
                return SelfRef(base.cls, (*base.path, name))
            return None
        module = literal_name(
            self._constant(node.args[0]) if len(node.args) == 1 and not node.keywords else None, dotted=True
        )
        if module is not None and func.name == "builtins.__import__":
            module = module.partition(".")[0]
        return Sym(module) if module is not None else None

    def _imported_here(self, node: ast.Call, func: Value) -> Sym | None:
        """A call of a function of this module that returns what a dotted path names
        (``helpers.path_importers``), handed a constant path: what the path names
        (``load_class("pkg.envs.TaskEnv")``, or a name bound to the string once, is that class)."""
        if isinstance(func, SelfRef) and len(func.path) == 1:
            position = self._importers.get(f"{func.cls}.{func.path[0]}")
        else:
            position = self._importers.get(func.name) if isinstance(func, Sym) else None
        if position is None or position >= len(node.args) or isinstance(node.args[position], ast.Starred):
            return None
        path = literal_name(self._constant(node.args[position]), dotted=True)
        return Sym(path) if path is not None and "." in path else None

    def _named_elsewhere(self, func: Sym, node: ast.Call) -> str:
        """The path part (a ``named`` :class:`CallPart`) naming the constant dotted paths of the
        project's modules a call of a project function of another module is handed by position,
        which the graph reads if that function returns what such a path names; "" when none."""
        root = func.name.partition(".")[0]
        if func.name.startswith(f"{self.module}.") or not (
            root == self.module.partition(".")[0] or root in self._project_roots
        ):
            return ""
        paths = []
        for argument in node.args[:FEW]:
            if isinstance(argument, ast.Starred):
                break
            path = literal_name(self._constant(argument), dotted=True)
            head = (path or "").partition(".")[0]
            project = head == self.module.partition(".")[0] or head in self._project_roots
            paths.append(path if path is not None and "." in path and project else "")
        return str(CallPart("named", tuple(paths))) if any(paths) else ""

    def _constant(self, node: ast.expr) -> ast.expr:
        """``node``, or the string constant a name it reads is bound to (in this function, else at
        module level), when nothing rebinds it after (``Frame.constants``)."""
        if isinstance(node, ast.Name):
            frame = self.frame
            bound = frame.constants.get(node.id)
            if bound is None and node.id not in frame.bindings and node.id not in frame.untyped:
                bound = self.frames[0].constants.get(node.id)  # not bound here: the module's name
            if bound is not None:
                return ast.Constant(bound)
        return node

    def mode_meant(self, node: ast.expr) -> str | None:
        """What a mode argument stands for (``callshapes.constant_arguments``): the string a name is
        bound to, as its ``repr``; the dotted name of the member or constant it denotes."""
        bound = self._constant(node)
        if isinstance(bound, ast.Constant) and bound is not node:
            return repr(bound.value)
        value = self.infer(node)
        return value.name if isinstance(value, Sym) else None

    def table_value(self, value: ast.expr) -> Value:
        """What a table's value runs when called: a lambda whose body calls a named callable
        (``"beta": lambda: Beta(mode="y")``) stands for it, as calling the lambda runs it."""
        if isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call):
            root = value.body.func
            while isinstance(root, ast.Attribute):
                root = root.value
            params = {arg.arg for arg in (*value.args.posonlyargs, *value.args.args, *value.args.kwonlyargs)}
            called = self.infer(value.body.func) if isinstance(root, ast.Name) and root.id not in params else None
            if isinstance(called, Sym):
                return called
        return self.infer(value)

    def _infer_pipe(self, node: ast.BinOp) -> Value:
        """``a | b`` is ``a.__or__(b)``, or ``b.__ror__(a)`` when ``a`` has no ``__or__`` for it:
        RETURNS says which pipes make a known type (``prompt | llm`` is a LangChain ``Runnable``
        that calls the model, whichever side the model is on). An operand on ``self`` is settled
        by the graph, the right one first (``self.prompt | self.llm``); so is a value imported from
        another module piped with a value of this one (two imported names, ``re.I | re.M``, are
        left alone)."""
        left, right = self.infer(node.left), self.infer(node.right)
        for side, method in ((left, "__or__()"), (right, "__ror__()")):
            if isinstance(side, Inst) and f"{side.name}.{method}" in RETURNS:
                return Inst(RETURNS[f"{side.name}.{method}"], side.origin)
        for side, other, method in ((right, left, "__ror__()"), (left, right, "__or__()")):
            if isinstance(side, SelfRef) and side.path and Marker.SUPER not in side.path:
                return SelfRef(side.cls, (*side.path, method))
            if isinstance(side, Sym) and not isinstance(other, Sym):
                return Inst(extend(side.name, (method,)), "module")  # a value defined elsewhere: the graph's
        return None

    def _kept_handed(self, holder: Inst, attr: str) -> Value:
        """``rubric.judge_client`` on an object built with ``judge_client=X``: X, marked with
        the hand-over (the framework keeps what it is handed under that attribute)."""
        for index in holder.handed:
            if HANDOFF_ATTRIBUTES.get(self.handoffs[index].slot) != attr:
                continue
            value = self._handed_values.get(index)
            if isinstance(value, Inst):
                return replace(value, handed=(index,))
            if isinstance(value, Sym):
                return Inst(value.name, "module", (index,))  # a value defined elsewhere: resolved by the graph
            return value
        return None

    def _infer_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> Value:
        """``[make(x) for x in names]``: what the element is, with the loop variables bound to
        the items of what they iterate over (``[f for f in FUNCS]`` holds the callables of FUNCS)."""
        saved = dict(self.frame.bindings)
        try:
            for generator in node.generators:
                self._bind_names(generator.target, self._item_type(generator.iter))
            return callables_of((self.infer(node.elt),))
        finally:
            self.frame.bindings = saved

    def _unpacked(self, value: ast.expr, count: int) -> list[Value] | None:
        """``driver, workdir = self._create_driver(site)`` (``count`` names) where the function is
        annotated ``-> tuple[webdriver.Chrome, str]`` (in this module): the type of each element
        (also run in a worker thread: ``await asyncio.to_thread(self._create_driver, site)``).
        Else, for a function that may be the project's, each element as the graph will type it
        from the function's ``return`` statements (``load().<0>``, see ``ELEMENT``). A tuple
        written out (``loop, thread = self._loop, self._thread``): each element's own type, all
        read before any name is bound, as Python evaluates them."""
        if not count:
            return None
        if isinstance(value, (ast.Tuple, ast.List)):
            starred = any(isinstance(element, ast.Starred) for element in value.elts)
            return None if starred or len(value.elts) != count else [self.infer(element) for element in value.elts]
        if isinstance(value, ast.Await):
            value = value.value
        if not isinstance(value, ast.Call):
            return None
        func = self.infer(value.func)
        if isinstance(func, Sym) and func.name in THREAD_RESULTS and runs_in_thread(value):
            value = called_in_thread(value)
            func = self.infer(value.func)
        if isinstance(func, SelfRef) and len(func.path) == 1:
            name = f"{func.cls}.{func.path[0]}"
        elif isinstance(func, Sym):
            name = func.name
        else:
            return None
        elements = self._tuple_returns.get(name)
        if elements is not None:
            found = [self.annotation_type(element) for element in elements]
        elif not may_be_project(name) or name in self.catalogue.producers:
            return None
        else:
            found = [Inst(f"{name}(){ELEMENT.format(position)}", "local") for position in range(count)]
        runner, element = self._element_runners.get(name, (len(value.args), len(found)))
        if runner < len(value.args) and element < len(found) and not isinstance(value.args[runner], ast.Starred):
            # ``image, error = await self._try_or_abort(id, self.engine.get_image, path)`` (``-> tuple[Any, bool]``)
            found[element] = self.infer(
                ast.copy_location(ast.Call(func=value.args[runner], args=[], keywords=[]), value)
            )
        return found

    def _handed_elsewhere(self, func: Sym, node: ast.Call) -> str:
        """:meth:`_handed_callables` for a call of a function of another project module; ""
        for this module's (:meth:`_runner_position` reads those) and a library's."""
        root = func.name.partition(".")[0]
        if func.name.startswith(f"{self.module}.") or not (
            root == self.module.partition(".")[0] or root in self._project_roots
        ):
            return ""
        return self._handed_callables(node)

    def _handed_callables(self, node: ast.Call) -> str:
        """The path part (a ``handed`` :class:`CallPart`) naming the project callables a call is handed by
        position, which the graph reads if the callee runs one of them (``await
        in_thread(open_ledger)``: what ``open_ledger()`` returns); "" when it is handed none."""
        names = []
        for argument in node.args[:FEW]:
            if isinstance(argument, ast.Starred):
                break
            value = self.infer(argument)
            names.append(value.name if isinstance(value, Sym) and may_be_project(value.name) else "")
        return str(CallPart("handed", tuple(names))) if any(names) else ""

    @staticmethod
    def _executor_position(node: ast.Call) -> int | None:
        """Where a method running a callable it is handed (``loop.run_in_executor(pool, f, *args)``)
        takes it, when the call names it (not ``*args``)."""
        if not isinstance(node.func, ast.Attribute) or node.func.attr not in RESULT_METHODS:
            return None
        position = RESULT_METHODS[node.func.attr]
        written = position < len(node.args) and not any(isinstance(a, ast.Starred) for a in node.args[: position + 1])
        return position if written and not node.keywords else None

    def _runner_position(self, func: Value) -> int | None:
        """Where a function of this module that returns what its callable parameter returns
        (:func:`callable_runners`) takes that callable, if ``func`` is one."""
        if isinstance(func, SelfRef) and len(func.path) == 1:
            return self._runners.get(f"{func.cls}.{func.path[0]}")
        return self._runners.get(func.name) if isinstance(func, Sym) else None
