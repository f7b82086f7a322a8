"""Recording what the summary keeps: call sites with their targets and facts, property reads, functions handed over."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TypedDict

from asynclint.analysis.index.argfacts import argument_facts, payload_argument, payload_of
from asynclint.analysis.index.callshapes import constant_arguments, constant_key, given_positions, switch_literals
from asynclint.analysis.index.flags import given_arguments
from asynclint.analysis.index.frames import CallContext
from asynclint.analysis.index.helpers import DISPLAYS, STDLIB_ROOTS, call_slots, may_be_project
from asynclint.analysis.index.memokeys import outer_params
from asynclint.analysis.index.nest_origins import field_slots
from asynclint.analysis.index.property_reads import Placed, PropertyReads
from asynclint.analysis.index.records import CallSite
from asynclint.analysis.index.sql import ROW_READS, SCRIPT_RUNS, STATEMENT_RUNS, statement_text
from asynclint.analysis.index.values import (
    INSTALLED_PREFIX,
    ITEM_SUFFIX,
    Inst,
    Marker,
    Refs,
    Rooted,
    SelfPath,
    SelfRef,
    Sym,
    Value,
)
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.api import BlockingApi
from asynclint.knowledge.blocking import (
    INSTALLED_ROOTS,
    MODULE_LOCATIONS,
    PATTERN_WALKS,
    READY_READS,
    READY_WAITS,
    RECEIVER_WALKS,
    RECURSIVE_PATTERN,
    TREE_WALKS,
)
from asynclint.knowledge.costs import FILLED_SCRIPT
from asynclint.knowledge.programs import ANY_NAME

#: The last names of INSTALLED_ROOTS: only an attribute so named is looked up.
_INSTALLED_NAMES = frozenset(name.rpartition(".")[2] for name in INSTALLED_ROOTS)


def string_constants(nodes: list[ast.expr]) -> list[str]:
    """The string constants written in ``nodes`` (a glob's pattern, built or not)."""
    return [
        part.value
        for node in nodes
        for part in walk(node)
        if isinstance(part, ast.Constant) and isinstance(part.value, str)
    ]


#: The methods a ``with`` item runs: [awaited][exiting].
_PROTOCOL = (("__enter__", "__exit__"), ("__aenter__", "__aexit__"))


class _Arguments(TypedDict, total=False):
    """The arguments :meth:`Recording._arguments` gives a call site (see CallSite.arguments)."""

    arguments: tuple[str | Rooted, ...]
    keyword_arguments: tuple[tuple[str, str | Rooted], ...]


class Recording(PropertyReads):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    # -- recording --------------------------------------------------------------------------

    def record_call(self, node: ast.Call, awaited: bool, func_value: Value) -> str | None:
        """Record the call whose callee ``node.func`` infers to ``func_value``; -> its target."""
        self.payloads_read = {}  # its facts read its arguments' payloads again and again: each once
        try:
            return self._record_call(node, awaited, func_value)
        finally:
            self.payloads_read = None

    def _record_call(self, node: ast.Call, awaited: bool, func_value: Value) -> str | None:
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        target: str | None = None
        origin: str | None = None
        self_ref = None
        handed: tuple[int, ...] = ()
        if isinstance(func_value, Sym):
            target = func_value.name
            self._record_registration(node, target)
            if self._built_as(node, target) is None and (made := self._made(node, target)) is not None:
                target = made.removesuffix(
                    "()"
                )  # ``gymnasium.make("Grid-v0")``: the project's class, if it registers it
        elif isinstance(func_value, Inst):
            target, origin, handed = func_value.name, func_value.origin, func_value.handed
        elif isinstance(func_value, SelfRef) and func_value.path:
            self_ref = SelfPath.of(func_value)
        # ``CHECKS[name](x)``: each of the table's callables; ``BACKENDS[name]().run(x)``: that
        # method of each of its classes (items named ``pkg.LeanBackend().run``).
        # ``handlers[action](x)`` with ``handlers = {"click": self.click}``: that method of the
        # class ``self`` is an instance of (``pkg.Env().click``).
        dispatch = (
            tuple(
                item.name if not isinstance(item, SelfRef) else ".".join((f"{item.cls}()", *item.path))
                for item in func_value.items
                if not isinstance(item, SelfRef)
                or (item.cls != Marker.STATE and item.path and Marker.SUPER not in item.path)
            )
            if isinstance(func_value, Refs)
            else ()
        )
        if target is None and self_ref is None and not dispatch and (key := constant_key(node.func)):
            dispatch = (f"{Marker.KEYED}{key}",)  # ``spec["factory"]()``: what the project files under the key
        if target is None and self_ref is None and method is None and not dispatch and not self._param_path(node.func):
            return None
        consumer, loop = self._consumed.pop(id(node), (None, ""))
        awaited = awaited or consumer is not None  # a coroutine handed over, not a blocking call
        keywords = tuple(keyword.arg for keyword in node.keywords if keyword.arg) + switch_literals(node)
        last = method or (target or "").rpartition(".")[2]
        if last in self.catalogue.constant_names:
            keywords += constant_arguments(node, self.mode_meant)
        if last in self.catalogue.position_names:
            keywords += given_positions(node)
        argument = ""
        if last in self.catalogue.argument_methods and node.args:
            argument = self._first_type(node.args[0])
        # ``getattr(x, name)(...)`` (method ANY_NAME): the project's methods only, never a library
        # entry guessed for a name nobody wrote.
        api = self.catalogue.match(target, method) if method != ANY_NAME else None
        if api is None and target is None and method not in (None, ANY_NAME) and len(dispatch) > 1:
            # ``client.search(q)`` on ``Exa() if fast else TavilyClient()``: the method of each class
            # (before the items below: ``exa_py.Exa.**`` would take ``exa_py.Exa.search[]`` for one).
            target, api = self.catalogue.union_entry(dispatch, awaited, keywords, argument)
        if api is None and target is None and dispatch:
            # ``MAP_REPO_TO_PARSER[repo](log)``: an item of a library's table of callables, graded
            # as the table's entry for its items says (``pkg.TABLE[]``); ``TOOLS[name](q)`` of the
            # project's ``{"search": Exa.search}``: the library's callable itself, never an item of
            # it (``exa_py.Exa.**`` would take ``exa_py.Exa.search[]``).
            tables = isinstance(func_value, Refs) and func_value.tables
            target, api = next(
                (
                    (item, found)
                    for item in (f"{name}{ITEM_SUFFIX}" if tables else name for name in dispatch)
                    if (found := self.catalogue.match(item, None))
                ),
                (None, None),
            )
        built = self._built_as(node, target) if isinstance(func_value, Sym) and target is not None else None
        if built is not None and api is not None:
            # ``gym.make("NetHackChallenge-v0")`` builds what its id names: graded as that
            # construction when the type has an entry of its own (see BUILT).
            api = self.catalogue.match(built, None) or api
        if isinstance(func_value, Inst) and method is None and target is not None:
            # Calling an instance runs its ``__call__`` (LangChain's deprecated ``chain(inputs)``),
            # not the constructor the instance is named after.
            called = self.catalogue.match(f"{target}.__call__", "__call__")
            target, api = (f"{target}.__call__", called) if called is not None else (target, None)
        if api is not None:
            api = self.catalogue.blocking(api, awaited, keywords, argument)
        site = CallSite.of(
            target=target,
            method=method,
            awaited=awaited,
            **self._placed(node),
            kept=node is self._kept_value,
            entered=node is self._entered,
            self_ref=self_ref,
            api=api.pattern if api else None,
            origin=origin,
            consumer=consumer,
            loop=loop,
            handed=handed,
            keywords=keywords,
            spread=any(keyword.arg is None for keyword in node.keywords),
            argument=argument,
            param=self._param_path(node.func) if api is None and self_ref is None else None,
            **(self._arguments(node) if api is None and (self_ref or may_be_project(target)) else {}),
            **(self._argument_facts(node) if (api or self_ref) else {}),
            # a project function's payload too: what it is handed sizes the text its loops walk (ASL117)
            **(self._payload_facts(node) if not (api or self_ref) and may_be_project(target) else {}),
            passed_params=self._passed_params(node) if api is None else (),
            small_args=self._small_arguments(node) if api is None else (),
            fields=self._field_arguments(node) if api is None and target and may_be_project(target) else (),
            # Asked of every ``execute``: the receiver's type may be settled only project-wide.
            statement=self._statement(node, method),
            guards=(*self.frame.guards, *filter(None, [self._row_tests.guards.get(id(node))])),
            given=self._given(node) if api is None else (),
            dispatch=dispatch,
        )
        facts: dict[str, object] = {}  # the rare facts, set at once (each ``with_facts`` copies the site)
        if api is not None and api.cost == "disk-walk" and (installed := self._walks_installed_tree(node, api.pattern)):
            facts["installed"] = installed
        if target in READY_WAITS and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
            self.frame.waiting = (id(node), tuple(ast.unparse(waited) for waited in node.args[0].elts))
        elif method in READY_READS and isinstance(node.func, ast.Attribute) and self.frame.selected:
            result = self.frame.selected.get(ast.unparse(node.func.value))
            if result and result in self.frame.known_nonempty:  # past ``if not ready: raise``, or inside ``if ready:``
                facts["ready"] = True
        if self.frame.requires:
            facts["requires"] = self.frame.requires
        if api is None and (self_ref or may_be_project(target)) and (large := self._large_arguments(node)):
            facts["large_args"] = large
        if api is not None and (item := self._item_of(payload_argument(node, self._data_receiver(node)))):
            facts["item_of"] = item
        if api is None and (self_ref or may_be_project(target)) and (parts := self._part_params(node)):
            facts["part_params"] = parts
        if api is None and site.small_args and (named := self._named_small(node)):
            facts["named_small"] = named
        if api is None and self.frame.nullable and (nullable := self._nullable(node)):
            facts["nullable"] = nullable
        if api is None and len(self.frames) > 2 and (outer := outer_params(call_slots(node), self.frames)):
            facts["outer_params"] = outer
        if api is not None and self.frame.unpacked and (unpacked := self._unpacked_payload(node)):
            facts["unpacked"] = unpacked
        if facts:
            site = site.with_facts(**facts)
        if isinstance(func_value, Sym) and target is not None:
            # ``WorldState(**data)``: ``data`` holds the fields of what it builds (the graph says whether a class's)
            for keyword in node.keywords:
                if keyword.arg is None and isinstance(keyword.value, ast.Name):
                    self.frame.unpacked[keyword.value.id] = target
        if self_ref is not None:
            self.pending.append(len(self.calls))
        self.calls.append(site)
        if method in STATEMENT_RUNS:
            self._rebuild_receiver(node)
        return target

    def record_protocol(self, entered: ast.expr, awaited: bool, exiting: bool) -> None:
        """Record the ``__enter__`` (``exiting``: the ``__exit__``) that entering ``entered`` runs, as
        a call on it written at its expression: ``with X(...) as x:`` enters where the block starts
        and exits after it, ``stack.enter_context(X())`` enters there and exits when the stack
        closes (both recorded at the call); ``awaited`` (``async with``, ``enter_async_context``):
        ``__aenter__``/``__aexit__``, awaited. So what a project class does on entering or leaving
        (starts a pool, opens a connection) runs on that path. Nothing is recorded for a standard
        library or catalogued type (its knowledge entries charge the construction) unless an entry
        names the protocol method itself (``prime_tunnel.Tunnel.__aexit__``), the rollout's
        state or ``self`` itself, a module or a table of callables. An object of unknown type is
        entered too (the method called on a receiver the project does not settle): the graph then
        holds that any project class's method of that name may run (ProjectGraph.never_set)."""
        method = _PROTOCOL[awaited][exiting]
        attribute = ast.copy_location(ast.Attribute(value=entered, attr=method, ctx=ast.Load()), entered)
        value = self.infer(attribute)
        api = self.catalogue.match(value.name, method) if isinstance(value, Inst) else None
        if isinstance(value, Inst) and (
            value.name.partition(".")[0] in STDLIB_ROOTS or (api is not None and api.pattern != value.name)
        ):
            return
        if isinstance(value, SelfRef) and (value.cls == Marker.STATE or not value.path):
            return
        if isinstance(value, (Sym, Refs)):
            return  # a module or a table of callables: nothing the project enters
        call = ast.copy_location(ast.Call(func=attribute, args=[], keywords=[]), entered)
        call.end_lineno, call.end_col_offset = entered.end_lineno, entered.end_col_offset
        self.record_call(call, awaited=awaited, func_value=value)

    def _unpacked_payload(self, node: ast.Call) -> str:
        """CallFacts.unpacked of a call: what the mapping it is handed was unpacked into, earlier in
        the function (``copy.deepcopy(data)`` after ``WorldState(**data)``), "" when it was not."""
        arg = payload_argument(node, self._data_receiver(node))
        return self.frame.unpacked.get(arg.id, "") if isinstance(arg, ast.Name) else ""

    def _walks_installed_tree(self, node: ast.Call, pattern: str) -> str:
        """Does this directory walk descend into a tree rooted in an installed one (see
        CallFacts.installed; "" when not)? Its root is the path it is called on for one of
        RECEIVER_WALKS, else its first argument."""
        first = node.args[:1]
        if pattern not in TREE_WALKS:
            keyword = PATTERN_WALKS.get(pattern, PATTERN_WALKS["glob.glob"])
            starred = any(RECURSIVE_PATTERN in text for text in string_constants(first))
            asked = not keyword or any(
                k.arg == keyword and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords
            )
            if not (starred and asked):
                return ""  # one directory's listing, however large the tree around it
        on_receiver = pattern in RECEIVER_WALKS and isinstance(node.func, ast.Attribute)
        roots = [node.func.value] if isinstance(node.func, ast.Attribute) and on_receiver else first
        return next((found for root in roots if (found := self.installed_root(root))), "")

    def installed_root(self, node: ast.expr) -> str:
        """Is ``node`` a path in an installed tree, as written (``sys.prefix``, ``Path(numpy.__file__)
        .parent``, ``sysconfig.get_paths()["purelib"]``) or through a name bound to one? ->
        :data:`INSTALLED_PREFIX`, the module it is located by (the graph knows whether the
        project's), or ""."""
        for part in walk(node):
            if isinstance(part, ast.Name):
                found = self.frame.installed.get(part.id) or self.frames[0].installed.get(part.id)
                if found:
                    return found
            if not isinstance(part, ast.Attribute):
                continue
            if part.attr in MODULE_LOCATIONS:
                module = self.infer(part.value)
                if isinstance(module, Sym) and module.name.partition(".")[0] != self.module.partition(".")[0]:
                    return module.name  # not this file's own package: installed unless the graph has it
            elif part.attr in _INSTALLED_NAMES:
                named = self.infer(part)
                if isinstance(named, Sym) and named.name in INSTALLED_ROOTS:
                    return INSTALLED_PREFIX
        return ""

    def _given(self, node: ast.Call) -> tuple[tuple[str, str], ...]:
        """CallSite.given: the constants the call passes, and the rollout's row where it hands it."""
        given = given_arguments(node)
        handed = dict(self._row_tests.arguments.get(id(node), ()))
        return tuple((slot, handed.get(slot, text)) for slot, text in given) if handed else given

    def _nullable(self, node: ast.Call) -> tuple[str, ...]:
        """CallFacts.nullable: the slots (a position, or a keyword) of the call's arguments that are
        names the function binds to ``None`` somewhere."""
        slots = [(str(position), arg) for position, arg in enumerate(node.args)]
        slots += [(keyword.arg, keyword.value) for keyword in node.keywords if keyword.arg is not None]
        return tuple(slot for slot, arg in slots if isinstance(arg, ast.Name) and arg.id in self.frame.nullable)

    def _argument_facts(self, node: ast.Call) -> dict:
        receiver = self._data_receiver(node)
        argument = payload_argument(node, receiver)
        self.direct_payload = id(argument) if argument is not None else 0
        try:
            facts = argument_facts(node, receiver, self._known(), self._returned)
        finally:
            self.direct_payload = 0
        return {**facts, **self._payload_facts(node, receiver, facts["payload"])}

    def _payload_facts(
        self, node: ast.Call, receiver: ast.expr | None = None, payload: tuple[str, str] | None = None
    ) -> dict:
        """CallSite.payload, payload_param and payload_at of a call (``payload`` when already read)."""
        if payload is None:
            payload = payload_of(node, receiver, self.frame.payloads, self._returned)
        shape, word = payload
        return {
            "payload": payload,
            "payload_param": shape in ("name", "each") and word in self.frame.unbound,
            "payload_at": self._bound_at(payload_argument(node, receiver)),
        }

    def _item_of(self, argument: ast.expr | None) -> tuple[str, ...]:
        """CallFacts.item_of: ``state[1]`` of a parameter still holding what the callers hand."""
        if (
            isinstance(argument, ast.Subscript)
            and isinstance(argument.value, ast.Name)
            and argument.value.id in self.frame.unbound
            and isinstance(argument.slice, ast.Constant)
            and type(argument.slice.value) is int
        ):
            return (argument.value.id, str(argument.slice.value))
        return ()

    def _field_arguments(self, node: ast.Call) -> tuple[str, ...]:
        """CallSite.fields of a call (see :func:`.nest_origins.field_slots`)."""
        return field_slots(call_slots(node), self._payload_of, self.frame.params, self._argument)

    def _arguments(self, node: ast.Call) -> _Arguments:
        """CallSite.arguments / keyword_arguments of a call, or nothing when no argument is known."""
        if not node.args and not node.keywords:
            return {}
        positional = tuple("" if isinstance(arg, ast.Starred) else self._argument(arg) for arg in node.args)
        keywords = tuple(
            (keyword.arg, typed)
            for keyword in node.keywords
            if keyword.arg is not None and (typed := self._argument(keyword.value))
        )
        if not keywords and not any(positional):
            return {}
        return {"arguments": positional if any(positional) else (), "keyword_arguments": keywords}

    def _first_type(self, node: ast.expr) -> str:
        """The type of a call's first argument for an entry that cares (``blocks_on``, ``heavier_on``):
        a literal's or a display's, else what the walk infers; "" when not known."""
        if isinstance(node, ast.Constant):
            return f"builtins.{type(node.value).__name__}"
        if type(node) in DISPLAYS:
            return DISPLAYS[type(node)]
        value = self.infer(node)
        return value.name if isinstance(value, Inst) else ""

    def _argument(self, node: ast.expr) -> str | Rooted:
        """An argument's value for the project graph: a type, a path from an instance of a class
        (``pkg.Env().driver``, ``pkg.Env()`` for ``self``), from the rollout's state
        (``<rollout state>.driver``) or from a parameter of the caller (``<param>.driver``)."""
        if isinstance(node, ast.Name) and node.id in self.frame.untyped:
            return Rooted(Marker.PARAM, (node.id,))
        if isinstance(node, ast.Constant):  # a literal's type, so a helper handed one is not typed by its other calls
            return f"builtins.{type(node.value).__name__}"
        handed = self._handed_table(node)
        if handed:
            return handed
        if type(node) in DISPLAYS:
            return DISPLAYS[type(node)]
        # What a nested call returns is rarely a helper's receiver: not worth inferring. A path
        # joined with ``/`` (``self.output / name``) is one.
        if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) and not (
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
        ):
            return ""
        value = self.infer(node)
        if isinstance(value, Inst) and not value.name.startswith((Marker.PASSED, Marker.PARAM)):
            return value.name
        if isinstance(value, Sym):
            return Rooted(Marker.NAMED, tuple(value.name.split(".")))
        if isinstance(value, SelfRef) and Marker.SUPER not in value.path:
            if value.cls == Marker.STATE:
                return Rooted(Marker.STATE, value.path) if value.path else ""
            return ".".join((f"{value.cls}()", *value.path))
        return ""

    def _handed_table(self, node: ast.expr) -> str:
        """A list of the project's functions handed to a project function (``run(text, [check_a,
        check_b])``, or a local bound to one): exported as callables named after where it is
        written (``pkg.mod.<handed@12:8>``), so a loop of the callee over that parameter calls
        them (the graph reads the loop's item as any of them); "" for anything else."""
        if not isinstance(node, (ast.List, ast.Tuple, ast.Name)):
            return ""
        value = self.infer(node)
        if not (isinstance(value, Refs) and value.items and all(isinstance(item, Sym) for item in value.items)):
            return ""
        name = f"<handed@{node.lineno}:{node.col_offset}>"
        self._export_callables(name, (value,))
        return f"{self.module}.{name}"

    def _placed(self, node: ast.expr | ast.stmt) -> Placed:
        """The call site's place and the walk's facts about the code around it, as every recorded
        call (a call, a property read, a function-level import) carries them."""
        end_line = node.end_lineno or node.lineno
        return Placed(
            caller=self.frame.func,
            line=node.lineno,
            col=self._col(node.lineno, node.col_offset),
            end_line=end_line,
            end_col=self._col(end_line, node.end_col_offset or 0),
            in_loop=self.frame.loop_depth > 0,
            once=self.frame.once > 0,
            instance_once=self.frame.instance_once_only,
            memo_key=self.frame.memo_key,
            cache_miss=self.frame.cache_miss > 0,
            first_turn=self.frame.first_turn > 0,
            state_ready=self.frame.state_ready[-1] if self.frame.state_ready else "",
            # the outermost cache keyed by the rollout's state bounds what it guards (one per example)
            keyed=self.frame.keyed[0] if self.frame.keyed else "",
            last_turn=self.frame.last_turn > 0,
            failing=self.frame.failing > 0,
            fallback=self.frame.fallback > 0,
            lambdas=self._inside_lambdas(),
        )

    def record_import(self, node: ast.Import | ast.ImportFrom, module: str, api: BlockingApi) -> None:
        """An import written in a function, of a package an entry names (``Catalogue.match_import``):
        a call of that entry, named after the module."""
        self.calls.append(
            CallSite.of(
                target=module,
                method=None,
                **self._placed(node),
                api=api.pattern,
            )
        )

    def _statement(self, node: ast.Call, method: str | None) -> str | None:
        if method in STATEMENT_RUNS:
            # A name bound here, else a module-level constant (``EMAIL_SQL = "SELECT ..."``).
            constants = {**self.frames[0].constants, **self.frame.constants}
            text = statement_text(node, constants)
            self.frame.statement = FILLED_SCRIPT if text is None and self.fills_new_store(node) else text
            return self.frame.statement
        if method in SCRIPT_RUNS:  # a script's text; no row read follows it
            return statement_text(node, {**self.frames[0].constants, **self.frame.constants})
        return self.frame.statement if method in ROW_READS else None

    def _data_receiver(self, node: ast.Call) -> ast.expr | None:
        """The object a method is called on, unless it is a module or class (``json.dumps``,
        ``Model.model_validate``): those say nothing about the payload; or unless the method is
        handed a positional argument: then that is what it works on (``scorer.score(text)``,
        ``tokenizer.encode(text)``), the receiver is the tool."""
        if not isinstance(node.func, ast.Attribute) or node.args or isinstance(self.infer(node.func.value), Sym):
            return None
        return node.func.value

    def record_ref(self, node: ast.expr, offloaded: bool, call: CallContext) -> None:
        value = self.infer(node)
        items = value.items if isinstance(value, Refs) else (value,)
        for item in items:
            if isinstance(item, Inst) and not self._may_be_callable(item):
                continue
            if isinstance(item, (Sym, Inst)):
                target, self_ref = item.name, None  # an instance's bound method, or a call's result
            elif isinstance(item, SelfRef) and item.path:
                target, self_ref = None, SelfPath.of(item)
            else:
                continue
            ref = call.hands(self.frame.func, target, self_ref, node.lineno, offloaded)
            col, end_col = self._col(node.lineno, node.col_offset), self._col(node.lineno, node.end_col_offset or 0)
            self.refs.append(replace(ref, col=col, end_col=end_col))
