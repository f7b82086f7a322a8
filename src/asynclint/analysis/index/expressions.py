"""The walk over expressions: calls, their arguments, lambdas and comprehensions."""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TypeGuard

from asynclint.analysis.index.argfacts import evidence_of, handed_field, joined
from asynclint.analysis.index.callshapes import copy_kind, dumped
from asynclint.analysis.index.consumed import consumed_arguments, consumed_calls
from asynclint.analysis.index.frames import CallContext, Frame
from asynclint.analysis.index.handoff_records import HandoffRecords
from asynclint.analysis.index.helpers import (
    COPYING_BUILTINS,
    GROWING,
    MUTATORS,
    callables_of,
    last_name,
    may_be_project,
)
from asynclint.analysis.index.literals import few_iterations
from asynclint.analysis.index.nests import starts_nest
from asynclint.analysis.index.nestshapes import calls_itself
from asynclint.analysis.index.records import CallFacts, Function, FunctionRef
from asynclint.analysis.index.statefields import ADDING, state_addition
from asynclint.analysis.index.values import Inst, Marker, Refs, Rooted, SelfPath, SelfRef, Sym, Value
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.asyncio_apis import (
    CALLABLE_WRAPPERS,
    INLINE_APPLIERS,
    LOOP_SUBMITTERS,
    OFFLOAD_KEYWORDS,
    OFFLOAD_METHODS,
    consumer_name,
)
from asynclint.knowledge.blocking import ENTERING_METHODS
from asynclint.knowledge.costs import GROWN, INFO_COLUMN, short_item
from asynclint.knowledge.frameworks import (
    CONFIG_KEYWORD,
    CONFIG_REFERENCE_SLOTS,
    HANDOFF_SLOTS,
    MAPPING_SLOTS,
    PROGRAM_CALLEES,
    PROGRAM_KEYWORDS,
    REFERENCE_SLOTS,
    SETTING_KEYWORDS,
    UNKNOWN,
    public_name,
)
from asynclint.knowledge.programs import ANY_NAME, NAME_LOOKUPS

#: The last names of the loop submitters, as a call may write them.
_SUBMITTER_NAMES = frozenset(submitter.rpartition(".")[2] for submitter in LOOP_SUBMITTERS)


class Expressions(HandoffRecords):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    # -- expressions ------------------------------------------------------------------------

    def visit_expr(self, node: ast.expr, awaited: bool = False, receiver: bool = False) -> None:
        """``receiver``: ``node`` is what an attribute is read from or a method called on."""
        if isinstance(node, ast.Call):
            self.visit_call(node, awaited)
        elif isinstance(node, ast.Await):
            self.visit_expr(node.value, awaited=True)
        elif isinstance(node, ast.Lambda):
            self.visit_lambda(node)
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            self.visit_comprehension(node)
        elif isinstance(node, ast.NamedExpr):
            self.visit_expr(node.value)
            self.bind(node.target, self.infer(node.value))
        elif isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                self.loaded.add(node.id)
        elif isinstance(node, ast.Constant):
            return
        elif isinstance(node, ast.IfExp):
            self._visit_branches(node)
        elif isinstance(node, ast.Dict):
            self._note_row_fields(node)
            self.note_table(node)
            for part in (*(key for key in node.keys if key is not None), *node.values):
                self.visit_expr(part)
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Load):
                self.loaded.add(node.attr)
                if isinstance(node.value, ast.Name):
                    self._note_read(node, node.value)
                named = node.attr in self.catalogue.read_names
                if named or not receiver:  # ``self.client.chat.completions.create()`` reads no property of the project
                    self.record_property_read(node, named=named)
            self.visit_expr(node.value, receiver=True)
        else:
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
                self.note_items(node)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.visit_expr(child)
                elif isinstance(child, ast.comprehension):  # pragma: no cover - handled above
                    self.visit_expr(child.iter)

    def _note_name_lookup(self, node: ast.Call) -> None:
        """``getattr(obj, name)`` reads an attribute as surely as ``obj.name``: the name it is given,
        or -- not written out -- any name (what runs a method nobody else names, HotSet._unreferenced)."""
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        at = NAME_LOOKUPS.get(called) if isinstance(called, str) else None
        if at is None or len(node.args) <= at:
            return
        name = node.args[at]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            self.loaded.add(name.value)
        elif at and isinstance(node.args[0], ast.Name) and node.args[0].id == "self" and self.frame.cls:
            self.loaded.add(f"{ANY_NAME}{self.frame.cls}")
        else:
            self.loaded.add(ANY_NAME)

    def visit_call(self, node: ast.Call, awaited: bool) -> None:
        self._note_name_lookup(node)
        named = self._by_any_name(node)
        if named is not None:
            self.visit_expr(node.func)  # the lookup itself, its receiver and name read
            node = named
        on_receiver = isinstance(node.func, ast.Attribute)
        if named is None:
            func = node.func
            self.visit_expr(func.value if isinstance(func, ast.Attribute) else func, receiver=on_receiver)
        func_value = self.infer(node.func)
        recorded = len(self.calls)
        target = self.record_call(node, awaited, func_value)
        self.note_arguments(node, target, len(self.calls) > recorded)
        self.register_appended(node)
        frame = self.frame
        if frame.loop_depth and frame.kind == "function":
            # A recursion per item of a loop may be a search (nests.Nests._recursion).
            own = self.functions[frame.func]
            frame.nested |= calls_itself(node, own.name, own.class_qualname is not None)
        copied = copy_kind(node, target)
        if copied is not None:
            self.work_copies.append((self.frame.func, node.lineno, self._col(node.lineno, node.col_offset), copied))
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        self_target = SelfPath.of(func_value) if isinstance(func_value, SelfRef) and func_value.path else None
        offload_functions = self.catalogue.offload
        offload_at = offload_functions.get(target) if target else None
        if offload_at is None and method in OFFLOAD_METHODS and target not in offload_functions:
            offload_at = OFFLOAD_METHODS[method]
        consumer = consumer_name(target, method)
        consumes = {id(arg) for arg in consumed_arguments(node, consumer)}
        if consumer is not None:
            self._mark_consumed(node, consumer)
        # Hand-overs first: a reward registered in the same call (``funcs=[...]``) is tied to them.
        for keyword in node.keywords:
            if keyword.arg in HANDOFF_SLOTS:
                self._record_handoff(node, keyword, CallContext(target, method, self_target, keyword.arg))
        handed = self._built.get(id(node), ()) + (func_value.handed if isinstance(func_value, Inst) else ())
        config, in_call = self._config_entries(node)
        # A keyword given wins over the config mapping's entry, unless it is ``None`` (Toolset.__init__).
        given = {name: value for name, value in config if name in SETTING_KEYWORDS}
        given.update(
            (keyword.arg, keyword.value)
            for keyword in node.keywords
            if keyword.arg in SETTING_KEYWORDS
            and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
        )
        settings = tuple(
            (name, repr(value.value) if isinstance(value, ast.Constant) else UNKNOWN) for name, value in given.items()
        )
        stack = node.func.value if isinstance(node.func, ast.Attribute) else None
        on_stack = method in ENTERING_METHODS and isinstance(stack, ast.Name) and stack.id in self.frame.stacks
        for position, arg in enumerate(node.args):
            inner = arg.value if isinstance(arg, ast.Starred) else arg
            context = CallContext(target, method, self_target, str(position), handed, settings)
            if on_stack and position == 0:
                self._entered = inner  # ``stack.enter_context(X())``: undone where the stack's block ends
            self._visit_argument(inner, offloaded=position == offload_at, call=context, awaited=id(arg) in consumes)
            if on_stack and position == 0:
                self._entered = None
            if method in ENTERING_METHODS and position == 0:  # on any stack, a ``with`` item or not
                self.record_protocol(inner, ENTERING_METHODS[method], exiting=False)
                self.record_protocol(inner, ENTERING_METHODS[method], exiting=True)  # when the stack closes
        for keyword in node.keywords:
            if in_call and keyword.arg == CONFIG_KEYWORD:
                continue  # its entries are read below, like keywords
            offloaded = keyword.arg in OFFLOAD_KEYWORDS and offload_at is not None
            context = CallContext(target, method, self_target, keyword.arg or "**", handed, settings)
            self._visit_argument(
                keyword.value, offloaded=offloaded, call=context, awaited=id(keyword.value) in consumes
            )
        for name, value in config:
            context = CallContext(target, method, self_target, name, handed, settings)
            if name in CONFIG_REFERENCE_SLOTS and not (in_call and name in REFERENCE_SLOTS):
                self._record_references(value, context)  # else _visit_argument records them
            if not in_call:  # a module's constant, visited where it is written: only what it hands over
                for item in value.values if isinstance(value, ast.Dict) and name in MAPPING_SLOTS else [value]:
                    self.record_ref(item, False, context)
            elif name in SETTING_KEYWORDS:
                self.visit_expr(value)
            else:
                self._visit_argument(value, offloaded=False, call=context, awaited=id(value) in consumes)
        if in_call:
            mapping = next(keyword.value for keyword in node.keywords if keyword.arg == CONFIG_KEYWORD)
            assert isinstance(mapping, ast.Dict)
            read = {id(value) for _, value in config}
            for part in (*mapping.keys, *mapping.values):
                if part is not None and id(part) not in read:
                    self.visit_expr(part)
        applied = INLINE_APPLIERS.get(target) if target is not None else None
        if target is not None and applied is not None:
            function = (
                next((keyword.value for keyword in node.keywords if keyword.arg == applied), None)
                if isinstance(applied, str)
                else node.args[applied]
                if applied < len(node.args)
                else None
            )
            if function is not None and not isinstance(function, ast.Starred):
                self._record_applied(function, target.rpartition(".")[2])
        # Looked up only for calls passing a program keyword: public_name walks the name's prefixes.
        if target is not None and any(keyword.arg in PROGRAM_KEYWORDS for keyword in node.keywords):
            callee = public_name(target)
            if callee in PROGRAM_CALLEES:
                self._record_program(node, callee, method, self_target)
        if method in MUTATORS and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            self._accumulate(
                node.func.value.id, [*node.args, *(keyword.value for keyword in node.keywords)], node.lineno
            )
        if method in ADDING and (written := state_addition(node, self._payload_of)) is not None:
            self.state_fields.append(written)  # ``state.setdefault("seen", []).append(x)``
        if method in GROWING and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            last = node.args[-1] if node.args else None
            added = self.infer(last) if last is not None else None
            if added is not None:
                self._grow(node.func.value, added)

    def _record_applied(self, handed: ast.expr, applier: str) -> None:
        """``reduce(merge, rules, state)``, ``map(score, rows)``: the function handed over runs
        here, once per item, as if called where it is written (a lambda's calls already are the
        enclosing function's). The call is marked with the applier (``CallFacts.applier``): it is
        the name handed over, which no recipe can rewrite as a call (``map(requests.get, urls)``)."""
        value = self.infer(handed)
        if not (
            (isinstance(value, Sym) and may_be_project(value.name))
            or (isinstance(value, SelfRef) and value.cls != Marker.STATE and value.path)
        ):
            return
        call = ast.copy_location(ast.Call(func=handed, args=[], keywords=[]), handed)
        call.end_lineno, call.end_col_offset = handed.end_lineno, handed.end_col_offset
        recorded = len(self.calls)
        self.frame.loop_depth += 1
        try:
            self.record_call(call, awaited=False, func_value=value)
        finally:
            self.frame.loop_depth -= 1
        for index in range(recorded, len(self.calls)):
            site = self.calls[index]
            self.calls[index] = replace(site, rare=replace(site.rare or CallFacts(), applier=applier))

    def _note_row_fields(self, node: ast.Dict) -> None:
        """Record what a dict display puts under ``"info"`` (ModuleSummary.row_fields): how the
        project builds a dataset row's info, which a rollout reads back as ``state["info"]``."""
        for key, value in zip(node.keys, node.values, strict=True):
            if not (isinstance(key, ast.Constant) and key.value == INFO_COLUMN):
                continue
            info = self._payload_of(value)
            if isinstance(value, ast.Call) and value.args and dumped(value):
                value = value.args[0]  # ``json.dumps({...})``: the display it encodes
            if isinstance(value, ast.Name):
                value = self.frame.displays.get(value.id, value)  # ``info = {...}`` then ``"info": info``
            if isinstance(value, ast.Dict):
                for field, held in zip(value.keys, value.values, strict=True):
                    payload = self._payload_of(held)
                    short = isinstance(held, ast.Name) and short_item(held.id)
                    if payload[0] == "each" and evidence_of(payload) == "unknown" and not short:
                        # a row built per record of the data (``"info": {"dialog": dialog}`` in a loop over
                        # the dialogs): as large as one record, which no display rule proves small; a loop
                        # over names (``env_name``) builds one row per name, not per record
                        info = payload
                    if isinstance(field, ast.Constant) and isinstance(field.value, str):
                        self.row_fields.append((f"{INFO_COLUMN}.{field.value}", *payload, self.frame.func))
            self.row_fields.append((INFO_COLUMN, *info, self.frame.func))

    def _accumulate(self, name: str, values: list[ast.expr], lineno: int) -> None:
        """What ``name`` holds after ``name.append(x)`` (or ``.update``, ``.extend``, ``.setdefault``...),
        ``values`` being what goes in.
        A collection this function proved small stays small when everything the call puts in is
        (``d.update({"ok": True})``, ``d.setdefault("error", reason.strip())``) outside any loop;
        otherwise it holds what is put in it, and in a loop as much as the loops go over (``for c in
        world.campaigns: results.append(c.to_dict())`` is as large as ``world.campaigns``, however
        the collection is named). One not proven small is left to its name, as before."""
        held = self.frame.payloads.get(name)
        if held is None or evidence_of(held) != "small":
            self.frame.payloads.pop(name, None)
            return
        added = [self._payload_of(value) for value in values]
        if not self.frame.loop_depth and all(
            not isinstance(value, ast.Starred) and evidence_of(payload) == "small"
            for value, payload in zip(values, added, strict=True)
        ):
            return
        sources = [source for _, _, source in self.frame.loops]
        if sources and all(handed_field(source, self.frame.params) for source in sources):
            if all(evidence_of(payload) == "small" for payload in added):
                # a short record per item of a field of a handed mapping: as large as that field,
                # which the graph sizes where the project's generator builds it
                self._hold(name, joined(sources), lineno)
                return
        if (copied := self._copied_items(added)) is not None:
            self._hold(name, copied, lineno)
            return
        grown = joined([*sources, *added])
        self._hold(name, grown if evidence_of(grown) != "unknown" else (GROWN, name), lineno)

    def _fill_key(self, name: str, value: ast.expr, lineno: int) -> None:
        """What ``name`` holds after ``name[key] = value``: the items of a parameter copied over one by
        one (``for k, v in raw.items(): out[k] = v``) into a collection proven small; otherwise it is
        left to its name (keys may repeat, so a fill in a loop is not as large as the loop).
        """
        held = self.frame.payloads.pop(name, None)
        copied = self._copied_items([self._payload_of(value)])
        if held is not None and evidence_of(held) == "small" and copied is not None:
            self._hold(name, copied, lineno)

    def _copied_items(self, added: list[tuple[str, str]]) -> tuple[str, str] | None:
        """Inside loops over parameters only, each of ``added`` being an item of one of them: the
        parameters (as large as them, sized by the graph from what the callers hand), else ``None``."""
        sources = [source for _, _, source in self.frame.loops]
        if not sources or not all(shape == "name" and word in self.frame.params for shape, word in sources):
            return None
        items = {("each", word) for _, word in sources}
        return joined(sources) if all(payload in items for payload in added) else None

    def _mark_consumed(self, node: ast.Call, consumer: str) -> None:
        """Remember which calls among ``node``'s arguments make the coroutines it consumes,
        also one per item: ``gather(*(fetch(u) for u in urls)); and, for a consumer that names
        the loop to run them on (``run_coroutine_threadsafe(coro, loop)``), that loop."""
        loop = self._submitted_loop(node, consumer)
        for inner in consumed_calls(node, consumer):
            self._consumed[id(inner)] = (consumer, loop)

    def _submitted_loop(self, node: ast.Call, consumer: str) -> str | Rooted:
        """The loop a consumer that names one is handed (``run_coroutine_threadsafe(coro, loop)``), else ""."""
        if consumer not in LOOP_SUBMITTERS:
            return ""
        position, name = LOOP_SUBMITTERS[consumer]
        given = next((k.value for k in node.keywords if k.arg == name), None)
        if given is None and position < len(node.args):
            given = node.args[position]
        return self._argument(given) if given is not None else ""

    def mark_submitted(self, target: ast.expr, value: ast.expr) -> None:
        """``coro = self._session.call_tool(...)`` and, later in the function,
        ``run_coroutine_threadsafe(coro, self._loop)``: the call making the coroutine is handed to
        that loop, as when written inline (it runs there, not where it is made)."""
        if not (isinstance(target, ast.Name) and isinstance(value, ast.Call)) or self.frame.kind != "function":
            return
        if self.frame.submitted is None:
            self.frame.submitted = self._submissions(self.frame.own)
        submitter = self.frame.submitted.get(target.id)
        if submitter is not None and submitter.lineno > value.lineno:
            consumer = self._submitter(submitter)
            if consumer is not None:
                self._consumed[id(value)] = (consumer, self._submitted_loop(submitter, consumer))

    def _submissions(self, body: tuple[ast.stmt, ...]) -> dict[str, ast.Call]:
        """Each name ``body`` hands a loop submitter as the coroutine it consumes, with that call."""
        found: dict[str, ast.Call] = {}
        calls = (node for stmt in body for node in walk(stmt) if isinstance(node, ast.Call))
        if not any(last_name(call.func) in _SUBMITTER_NAMES for call in calls):
            return found  # (most functions: the walk below keeps ``ast.walk``'s order, the first call wins)
        for stmt in body:
            for node in ast.walk(stmt):
                if not isinstance(node, ast.Call) or last_name(node.func) not in _SUBMITTER_NAMES:
                    continue
                consumer = self._submitter(node)
                for arg in consumed_arguments(node, consumer) if consumer is not None else ():
                    if isinstance(arg, ast.Name):
                        found.setdefault(arg.id, node)
        return found

    def _submitter(self, node: ast.Call) -> str | None:
        """The loop submitter ``node`` calls (``asyncio.run_coroutine_threadsafe``), if it is one."""
        func = self.infer(node.func)
        return func.name if isinstance(func, Sym) and func.name in LOOP_SUBMITTERS else None

    def _grow(self, receiver: ast.Name, added: Value) -> None:
        """``funcs.append(f)``, ``funcs.extend(more)``, ``funcs += [f]`` on a list of callables
        (``more`` may be a list defined elsewhere: it stands for its items)."""
        current = self.lookup(receiver.id)
        if isinstance(current, (Refs, type(None))) and (grown := callables_of((current, added))) is not None:
            self.frame.bindings[receiver.id] = grown

    def _visit_argument(self, arg: ast.expr, offloaded: bool, call: CallContext, awaited: bool) -> None:
        if call.slot in REFERENCE_SLOTS and not offloaded:
            self._record_references(arg, call)
        if isinstance(arg, (ast.List, ast.Tuple)):
            self.record_ref(arg, offloaded, call)
            for element in arg.elts:
                element = element.value if isinstance(element, ast.Starred) else element
                if isinstance(element, ast.Lambda):
                    self.visit_lambda(element, offloaded=offloaded, handed=call)
                else:
                    self.visit_expr(element)
        elif isinstance(arg, (ast.Name, ast.Attribute, ast.ListComp, ast.GeneratorExp)):
            self.record_ref(arg, offloaded, call)
            self.visit_expr(arg)
        elif isinstance(arg, ast.Dict) and call.slot in MAPPING_SLOTS:  # ``objects={"index": load_index}``
            for key in arg.keys:
                if key is not None:
                    self.visit_expr(key)
            for value in arg.values:
                self._visit_argument(value, offloaded, call, awaited)
        elif isinstance(arg, (ast.IfExp, ast.BoolOp)) or self._joins_callables(arg):
            # ``tools=[a, b] if flag else []``, ``tools or [default]``, ``base + [extra]``: what
            # is passed is one of the parts, or all of their items; each may be the one that runs.
            if isinstance(arg, ast.IfExp):
                self.visit_expr(arg.test)
            parts = (
                (arg.body, arg.orelse)
                if isinstance(arg, ast.IfExp)
                else arg.values
                if isinstance(arg, ast.BoolOp)
                else (arg.left, arg.right)
            )
            for part in parts:
                self._visit_argument(part, offloaded, call, awaited)
        elif isinstance(arg, ast.Call) and self._copies_items(arg):
            self.visit_expr(arg.func)
            self._visit_argument(arg.args[0], offloaded, call, awaited)  # ``list(tools)`` passes the items of tools
        elif offloaded and isinstance(arg, ast.Call) and arg.args:
            wrapper = self.infer(arg.func)
            if isinstance(wrapper, Sym) and wrapper.name in CALLABLE_WRAPPERS:
                # functools.partial(fn, ...) handed to an executor: fn runs off the loop.
                self.record_call(arg, awaited=False, func_value=wrapper)
                self._visit_argument(arg.args[0], offloaded=True, call=call, awaited=False)
                for rest in (*arg.args[1:], *(k.value for k in arg.keywords)):
                    self.visit_expr(rest)
                return
            self.visit_expr(arg, awaited=awaited)
        elif isinstance(arg, ast.Lambda):
            self.visit_lambda(arg, offloaded=offloaded, handed=call)
        else:
            if isinstance(arg, ast.Call):  # ``partial(reward, mode="b")``, ``parser.get_format_reward_func()``
                self.record_ref(arg, offloaded, call)
            self.visit_expr(arg, awaited=awaited)

    def _joins_callables(self, node: ast.expr) -> TypeGuard[ast.BinOp]:
        """``base_tools + [extra]``: a sum of lists, one of them of callables."""
        return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(self.infer(node), Refs)

    def _copies_items(self, node: ast.Call) -> bool:
        """``list(tools)``, ``tuple(tools)``: a new list of the same items."""
        return (
            len(node.args) == 1
            and not node.keywords
            and not isinstance(node.args[0], ast.Starred)
            and self.infer(node.func) in COPYING_BUILTINS
        )

    def visit_lambda(
        self, node: ast.Lambda, offloaded: bool = False, name: str | None = None, handed: CallContext | None = None
    ) -> None:
        for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            self.visit_expr(default)
        outer = self.frame
        qualname = f"{outer.qualprefix}<lambda>"
        index, loop_depth = outer.func, outer.loop_depth
        col = self._col(node.lineno, node.col_offset)
        handed_over = False
        if name is not None:  # ``f = lambda: ...`` is ``def f(): ...``: hot only where it is called
            qualname, index, loop_depth = f"{outer.qualprefix}{name}", len(self.functions), 0
            self.functions.append(Function(qualname, name, node.lineno, False, "function", col=col))
            outer.bindings[name] = Sym(f"{self.module}.{qualname}")
        elif offloaded:  # runs in a worker: a function of its own, which nothing makes hot
            index, loop_depth = len(self.functions), 0
            self.functions.append(Function(qualname, "<lambda>", node.lineno, False, "lambda", col=col))
        elif handed is not None:
            # Handed to a call: assumed to run inline there (a sort key), so its calls stay the
            # enclosing function's; it is also a function of its own, which the project graph
            # makes a root when the call registers it with a framework (``add_reward_func``).
            handed_over = True
            own = len(self.functions)
            self.functions.append(Function(qualname, "<lambda>", node.lineno, False, "function", col=col))
            self.refs.append(
                FunctionRef.of(
                    outer.func,
                    None,
                    node.lineno,
                    False,
                    handed.target,
                    None,
                    handed.slot,
                    handed.method,
                    handed.self_ref,
                    function=own,
                    handed=handed.handed,
                    settings=handed.settings,
                )
            )
            self._lambdas.append((own, outer.loop_depth))
        # Any other lambda (a sort key, a callback) is assumed to run where it is written, on
        # the enclosing function's thread: its calls are that function's calls.
        frame = Frame(
            "function",
            index,
            f"{qualname}.<locals>.",
            cls=outer.cls if outer.kind != "class" else None,
            loop_depth=loop_depth,
        )
        for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg):
            if arg is not None:
                frame.bindings[arg.arg] = None
        self.frames.append(frame)
        self.visit_expr(node.body)
        self.frames.pop()
        if handed_over:
            self._lambdas.pop()

    def visit_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        first, *rest = node.generators
        self.frame.nested |= bool(rest) or starts_nest(first.iter, self.frame.loop_depth, self.products, self.walked)
        self._note_loop(node)
        self.visit_expr(first.iter)  # evaluated once, in the enclosing scope
        saved, saved_items = dict(self.frame.bindings), dict(self.frame.payloads)
        # a comprehension over a fixed few items is not a loop that adds up, as a ``for`` over them
        repeats = int(not all(few_iterations(generator.iter, self._counted) for generator in node.generators))
        self.frame.loop_depth += repeats
        self.bind(first.target, self._item_type(first.iter))
        self._bind_loop_item(first.target, first.iter)
        for condition in first.ifs:
            self.visit_expr(condition)
        for generator in rest:
            self.visit_expr(generator.iter)
            self.bind(generator.target, self._item_type(generator.iter))
            self._bind_loop_item(generator.target, generator.iter)
            for condition in generator.ifs:
                self.visit_expr(condition)
        if isinstance(node, ast.DictComp):
            self.visit_expr(node.key)
            self.visit_expr(node.value)
        else:
            self.visit_expr(node.elt)
        self.frame.loop_depth -= repeats
        self.frame.payloads = saved_items
        self.frame.bindings = saved  # comprehension variables do not leak
