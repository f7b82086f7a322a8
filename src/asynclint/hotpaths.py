"""Project call graph: which functions run on the event loop, and the shortest chain proving it.

Hot roots are coroutine functions (and configured entry points); a sync function is hot when a
hot function calls it directly -- not when it is only handed to ``asyncio.to_thread`` or an
executor. Calls resolve across modules through imports, re-exports and star imports, and
``self.method()`` through base classes defined anywhere in the project. Values resolve across
modules from the summaries' exports (:meth:`ProjectGraph.resolve`): module-level instances,
what functions and methods return, attributes set on ``self`` in any class of the MRO,
properties, and the callables that lists and factories hold.
"""

from __future__ import annotations

import fnmatch
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from asynclint.index import SELF, SUPER, CallSite, ClassInfo, Function, FunctionRef, Handoff, ModuleSummary, split_super
from asynclint.knowledge.blocking import RETURNS
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import (
    COLD_FUNCTIONS,
    DECORATORS,
    FREQUENT,
    REGISTRATIONS,
    REWARD,
    Registration,
    SYNC_REWARD,
    Hook,
    HookClass,
    framework_class,
)
from asynclint.knowledge.functions import MEMOIZERS, PROPERTIES
from asynclint.model import ChainLink

FuncKey = tuple[int, int]  # (summary position, function position)
HotState = tuple[FuncKey, bool]  # a function, and whether it is reached more than once per rollout

_MAX_ALIAS_HOPS = 8
#: ``@overload`` stubs are never what a call runs: the undecorated definition after them is.
_OVERLOAD = frozenset({"typing.overload", "typing_extensions.overload"})
COROUTINE = Hook("async def", "rollout")
CONFIGURED = Hook("configured hot root", "rollout")


@dataclass(frozen=True)
class HotInfo:
    root: FuncKey
    root_hook: Hook  # what kind of entry point the root is, and how often it runs
    parent: HotState | None
    call_line: int  # line of the call in ``parent`` that reaches this function
    in_loop: bool  # some call on the chain runs inside a loop
    depth: int

    @property
    def frequent(self) -> bool:
        """The root runs per turn, per tool call or per group."""
        return self.root_hook.frequency in FREQUENT

    @property
    def raised(self) -> bool:
        """Graded one level up: run more often than once per rollout."""
        return self.in_loop or self.frequent


class ProjectGraph:
    def __init__(
        self,
        summaries: Sequence[ModuleSummary],
        hot_roots: Iterable[str] = (),
        cold_roots: Iterable[str] = (),
        registrations: Iterable[Registration] = (),
        catalogue: Catalogue | None = None,
        memoizers: Iterable[str] = (),
    ):
        self.summaries = summaries
        self._producers = (catalogue or Catalogue()).producers
        self._memoizers = MEMOIZERS.union(memoizers)
        self._registrations = tuple(registrations)
        self._hot_patterns = tuple(hot_roots)
        self._cold_patterns = tuple(cold_roots)
        self.modules: dict[str, list[int]] = {}
        self.defs: dict[str, FuncKey] = {}
        self.classes: dict[str, tuple[int, ClassInfo]] = {}
        self.exports: dict[str, dict[str, str]] = {}
        self.values: dict[str, str] = {}
        self.callables: dict[str, tuple[str, ...]] = {}
        self.stars: dict[str, tuple[str, ...]] = {}
        self.public: dict[str, tuple[str, ...] | None] = {}
        for position, summary in enumerate(summaries):
            self.values.update((f"{summary.module}.{name}", type_) for name, type_ in summary.values)
            self.callables.update((f"{summary.module}.{name}", items) for name, items in summary.callables)
            self.modules.setdefault(summary.module, []).append(position)
            self.exports.setdefault(summary.module, {}).update(summary.exports)
            if summary.stars:
                self.stars[summary.module] = (*self.stars.get(summary.module, ()), *summary.stars)
            if summary.public is not None:
                self.public.setdefault(summary.module, summary.public)
            for index, function in enumerate(summary.functions):
                if function.kind == "function" and _OVERLOAD.isdisjoint(function.decorators):
                    self.defs.setdefault(f"{summary.module}.{function.qualname}", (position, index))
            for info in summary.classes:
                self.classes.setdefault(f"{summary.module}.{info.qualname}", (position, info))
        self.states: dict[HotState, HotInfo] = {}
        self.hot: dict[FuncKey, HotInfo] = {}
        self._roots_of_modules = frozenset(module.partition(".")[0] for module in self.modules)
        self._attrs = {name: dict(info.attrs) for name, (_, info) in self.classes.items()}
        self._resolved: dict[str, str] = {}
        self._mro: dict[str, list[str]] = {}
        self._propagate()

    # -- name resolution ----------------------------------------------------------------------

    def canonical(self, name: str) -> str:
        """Follow re-exports: ``pkg.helper`` imported into ``pkg/__init__`` (or brought there by
        ``from .mod import *``) -> ``pkg.mod.helper``."""
        for _ in range(_MAX_ALIAS_HOPS):
            if self._defined(name):
                return name
            head, _, tail = name.rpartition(".")
            module, rest = head, [tail]
            while module and module not in self.modules:
                module, _, part = module.rpartition(".")
                rest.insert(0, part)
            if not module:
                return name
            exported = self.exports.get(module, {}).get(rest[0])
            if exported is None and module in self.stars and not self._defined(f"{module}.{rest[0]}"):
                exported = self._star_export(module, rest[0])  # its own names win over star imports
            if exported is None or exported == name:
                return name
            name = ".".join([exported, *rest[1:]])
        return name

    def _defined(self, name: str) -> bool:
        return name in self.defs or name in self.classes or name in self.values or name in self.callables

    def _star_export(self, module: str, name: str, depth: int = 0) -> str | None:
        """Where ``from m import *`` in ``module`` gets ``name`` from: the last star-imported
        project module that defines or imports it, and exports it (``__all__``, else not private)."""
        for source in reversed(self.stars.get(module, ())):
            if source not in self.modules or depth > _MAX_ALIAS_HOPS:
                continue
            public = self.public.get(source)
            if (name not in public) if public is not None else name.startswith("_"):
                continue
            if self._defined(f"{source}.{name}") or name in self.exports.get(source, {}):
                return f"{source}.{name}"
            further = self._star_export(source, name, depth + 1)
            if further is not None:
                return further
        return None

    def resolve(self, name: str) -> str:
        """What a dotted value path denotes, as far as the summaries say: re-exports followed,
        module-level values replaced by their types, ``f()`` by what ``f`` returns, attributes of
        project instances (``pkg.Judge()``) looked up along their class's MRO, property reads by
        what the getter returns. ``pkg.clients.JUDGE.chat.completions.create`` ->
        ``openai.OpenAI.chat.completions.create``; unknown parts stay as they are written."""
        found = self._resolved.get(name)
        if found is None:
            self._resolved[name] = name  # a cycle through values settles on the name itself
            found = self._resolved[name] = self._walk("", name.split("."))
        return found

    def _walk(self, current: str, parts: Sequence[str]) -> str:
        for part in parts:
            called = part.endswith("()")
            current = self._attribute(current, part[:-2] if called else part)
            if called:
                current = self._result(current)
        return current

    def _attribute(self, owner: str, attr: str) -> str:
        name = f"{owner}.{attr}" if owner else attr
        if owner.partition(".")[0] not in self._roots_of_modules:
            return RETURNS.get(name, name) if owner else name  # not the project's: as written
        instance = owner.endswith("()")
        cls = owner[:-2] if instance else owner
        if name in self.defs:
            return name  # a function of the module, or a method of the class itself
        if cls in self.classes:
            member = self._member(cls, attr, 0, instance)
            return name if member is None else member
        name = self.canonical(name)
        value = self.values.get(name)
        return self.resolve(value) if value is not None else name

    def _member(self, cls: str, attr: str, skip: int, instance: bool) -> str | None:
        """``attr`` of ``cls`` (or of an instance of it), looked up along the MRO from ``skip``."""
        for owner in self.mro(cls)[skip:]:
            info = self.classes[owner][1]
            if attr in info.methods:
                if instance and attr in info.properties:
                    return self._result(f"{owner}.{attr}")  # reading a property runs the getter
                return f"{owner}.{attr}"
            value = self._attrs[owner].get(attr)
            if value is not None and value.startswith(SELF):  # ``self.pages = self.db.collection()``
                return self._on_instance(owner, value)
            if value is not None:
                return self.resolve(value)
        return None

    def _result(self, callee: str) -> str:
        """What calling ``callee`` (resolved) gives."""
        returned = RETURNS.get(f"{callee}()")
        if returned is not None:
            return returned
        if callee in self._producers:
            return callee  # the knowledge base names instances after their producer
        if callee in self.classes:
            return f"{callee}()"  # an instance of a project class
        key = self._definition(callee)
        if key is None:
            return f"{callee}()"
        # Named after the definition, so an unknown result still finds what it holds (callables).
        defined = f"{self.summaries[key[0]].module}.{self.function(key).qualname}()"
        value = self.values.get(defined)
        if value is None:
            return defined
        if value.startswith(SELF):  # ``return self._http``: an attribute of the receiver
            return self._on_instance(defined[:-2].rpartition(".")[0], value)
        return self.resolve(value)

    def _on_instance(self, cls: str, path: str) -> str:
        """``<self>.x.y`` read on an instance of ``cls`` (through :meth:`resolve`, whose memo
        stops ``self.a = self.b; self.b = self.a`` from going round)."""
        return self.resolve(f"{cls}(){path[len(SELF):]}")

    def _definition(self, name: str) -> FuncKey | None:
        """The project function ``name`` (resolved) is: a definition, or a method inherited."""
        key = self.defs.get(name)
        if key is not None:
            return key
        owner, _, method = name.rpartition(".")
        owner = owner.removesuffix("()")
        return self.method_of(owner, method) if owner in self.classes else None

    def function_for(self, target: str | None) -> FuncKey | None:
        """The project function a call target runs: the function itself, a class's ``__init__``,
        or an instance's ``__call__``."""
        if not target:
            return None
        name = self.resolve(target)
        if name in self.classes:
            return self.method_of(name, "__init__")
        if name.endswith("()") and name[:-2] in self.classes:
            return self.method_of(name[:-2], "__call__")
        return self._definition(name)

    def functions_denoted(self, target: str | None, depth: int = 0) -> list[FuncKey]:
        """The project functions a value handed over may be: a function, a bound method, a
        list of them (``REWARDS``), what a call returns (``get_rewards()``,
        ``parser.get_format_reward_func()``), and so on through lists of lists."""
        key = self.function_for(target)
        if key is not None or not target or depth > _MAX_ALIAS_HOPS:
            return [key] if key is not None else []
        name = self.resolve(target)
        items = self.callables.get(name, ())
        receiver = name[:-2].rpartition(".")[0] if name.endswith("()") else ""
        found: list[FuncKey] = []
        for item in items:
            if item.startswith(SELF):  # ``return self.scored``: a method of the receiver
                item = self._on_instance(receiver, item) if receiver else ""
            found.extend(k for k in self.functions_denoted(item, depth + 1) if k not in found)
        return found

    def mro(self, cls: str) -> list[str]:
        """The project classes among ``cls`` and its bases, nearest first."""
        found = self._mro.get(cls)
        if found is None:
            found = self._mro[cls] = [name for name in self.ancestors(cls) if name in self.classes]
        return found

    def method_of(self, cls: str, name: str) -> FuncKey | None:
        for owner in self.mro(cls):
            key = self.defs.get(f"{owner}.{name}")
            if key is not None:
                return key
        return None

    def resolve_self(self, cls: str, path: tuple[str, ...]) -> str | None:
        """``self.<path>`` (or ``super().<path>``) on ``cls``, through base classes in other modules."""
        skip, path = split_super(path)
        if not path:
            return None
        called = path[0].endswith("()")
        current = self._member(cls, path[0].removesuffix("()"), skip, instance=True)
        if current is None:
            return None
        return self._walk(self._result(current) if called else current, path[1:])

    def call_target(self, site: CallSite) -> str | None:
        if site.read:  # ``self.corpus``: a call of the getter, if it is a property
            target = site.target or (f"{site.self_ref[0]}.{site.self_ref[1][0]}" if site.self_ref else None)
            key = self.function_for(target)
            return target if key is not None and not PROPERTIES.isdisjoint(self.function(key).decorators) else None
        if site.self_ref is not None:
            return self.resolve_self(*site.self_ref)
        return site.target

    def handed_type(self, handoff: Handoff) -> str | None:
        """The type of the object handed over: ``judge_client=JUDGE`` is an instance only when
        ``JUDGE`` is a value (not a class or a function)."""
        if handoff.self_ref is not None:
            return self.resolve_self(*handoff.self_ref)
        if handoff.named and self.canonical(handoff.value) not in self.values:
            return None
        return self.resolve(handoff.value) if handoff.value else None

    def as_written(self, name: str) -> str:
        """``name`` as a reader writes it: ``slowlib.Client().query`` (a method of an instance of
        the class) is ``slowlib.Client.query``."""
        parts = name.split(".")
        for end, part in enumerate(parts[:-1]):
            if part.endswith("()") and self.canonical(".".join([*parts[:end], part[:-2]])) in self.classes:
                parts[end] = part[:-2]
        return ".".join(parts)

    def memoized(self, key: FuncKey) -> tuple[str, str] | None:
        """(function, decorator): the first function on the chain to ``key`` whose body runs
        once per argument set (``@functools.lru_cache``), if any."""
        for step, _ in self.path(key):
            function = self.function(step)
            decorator = next((d for d in function.decorators if d in self._memoizers), None)
            if decorator is not None:
                return function.qualname, decorator
        return None

    # -- hotness --------------------------------------------------------------------------------

    def _matches(self, patterns: tuple[str, ...], name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    def ancestors(self, cls: str) -> list[str]:
        """``cls`` and every base class, project or external, nearest first."""
        order, queue = [], deque([cls])
        while queue:
            current = self.canonical(queue.popleft())
            if current in order:
                continue
            order.append(current)
            if current in self.classes:
                queue.extend(self.classes[current][1].bases)
        return order

    def framework_table(self, cls: str) -> HookClass | None:
        """The framework hook table a (project) class inherits, if any."""
        for ancestor in self.ancestors(cls):
            table = framework_class(ancestor)
            if table is not None:
                return table
        return None

    def hook_of(self, position: int, function: Function) -> tuple[Hook | None, bool]:
        """(the framework hook ``function`` is, cold?) from its decorators and its class."""
        module = self.summaries[position].module
        for decorator in function.decorators:
            if decorator in DECORATORS:
                hook = DECORATORS[decorator]
                return hook, hook is None
        if function.class_qualname is not None:
            table = self.framework_table(f"{module}.{function.class_qualname}")
            if table is not None:
                if function.name in table.cold:
                    return None, True
                return table.methods.get(function.name), False
        elif function.name in COLD_FUNCTIONS:
            return None, True
        return None, False

    def _registered(self) -> dict[FuncKey, Hook]:
        """Callables handed to the framework (rewards, tools, parsers), wherever that happens."""
        found: dict[FuncKey, Hook] = {}
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue  # a library registering its own callables is the library's business
            for ref in summary.refs:
                if ref.offloaded:
                    continue
                hook = self._registration(ref)
                if hook is None:
                    continue
                if ref.function is not None:  # a lambda written in the call
                    keys = [(position, ref.function)]
                else:
                    target = ref.target if ref.self_ref is None else self.resolve_self(*ref.self_ref)
                    keys = self.functions_denoted(target)
                for key in keys:
                    # v0 scores a group by calling sync rewards back to back
                    own = SYNC_REWARD if hook is REWARD and not self.function(key).is_async else hook
                    if key not in found or own.frequency in FREQUENT:
                        found[key] = own
        return found

    def _registration(self, ref: FunctionRef) -> Hook | None:
        receiver = self.canonical(ref.passed_to) if ref.passed_to else None
        if receiver is None and ref.passed_to_self is not None and ref.passed_to_self[1] == (SUPER, "__init__"):
            receiver = ref.passed_to_self[0]  # super().__init__(...) in a framework subclass
        table = self.framework_table(receiver) if receiver in self.classes else (
            framework_class(receiver) if receiver else None
        )
        # A method of an instance (``bot.Bot().on_message``) is configured as ``bot.Bot.on_message``.
        written = receiver.replace("()", "") if receiver else None
        for registration in (*self._registrations, *REGISTRATIONS):
            if registration.slot != ref.slot:
                continue
            if registration.callee is not None and registration.callee == written:
                return registration.hook
            if registration.method is not None and registration.method == ref.passed_to_method:
                return registration.hook
            if registration.owner is not None and table is registration.owner:
                return registration.hook
            if registration.any_verifiers_call and (table is not None or (receiver or "").startswith("verifiers.")):
                return registration.hook
        return None

    def _roots(self) -> dict[FuncKey, Hook]:
        registered = self._registered()
        roots: dict[FuncKey, Hook] = {}
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue  # library code is hot only where project code calls into it
            for index, function in enumerate(summary.functions):
                if function.kind != "function":
                    continue
                key = (position, index)
                name = f"{summary.module}.{function.qualname}"
                hook, cold = self.hook_of(position, function)
                hook = registered.get(key, hook)
                if hook is not None:
                    roots[key] = hook
                elif cold or (self._cold_patterns and self._matches(self._cold_patterns, name)):
                    continue
                elif function.is_async:
                    roots[key] = COROUTINE
                elif self._hot_patterns and self._matches(self._hot_patterns, name):
                    roots[key] = CONFIGURED
        return roots

    def _callees(self, key: FuncKey) -> list[tuple[FuncKey, CallSite]]:
        """Project functions ``key`` runs on the loop: sync calls, and coroutines it awaits (an
        awaited coroutine runs as part of its caller, as often as the caller runs)."""
        found = []
        for site in self._calls_by_caller.get(key, ()):
            callee = self.function_for(self.call_target(site))
            if callee is None or callee == key:
                continue
            if site.awaited != self.function(callee).is_async:
                continue  # awaiting a sync result, or a coroutine made and never run here
            found.append((callee, site))
        return found

    def _propagate(self) -> None:
        self._calls_by_caller: dict[FuncKey, list[CallSite]] = {}
        for position, summary in enumerate(self.summaries):
            for site in summary.calls:
                self._calls_by_caller.setdefault((position, site.caller), []).append(site)
                for index, in_loop in site.lambdas:  # also run by a lambda when it runs on its own
                    self._calls_by_caller.setdefault((position, index), []).append(
                        replace(site, in_loop=in_loop, lambdas=())
                    )
        # Breadth-first over (function, looped?) states, so a helper reached both plainly and
        # from inside a loop is graded by the loop, whatever the order of the calls, and each
        # state's parent was found before it (the chains cannot cycle).
        queue: deque[HotState] = deque()
        for key, hook in sorted(self._roots().items()):
            root = HotInfo(key, hook, None, 0, False, 0)
            self.states[(key, root.raised)] = root
            queue.append((key, root.raised))
        while queue:
            state = queue.popleft()
            info = self.states[state]
            for callee, site in self._callees(state[0]):
                reached = HotInfo(
                    info.root, info.root_hook, state, site.line, info.in_loop or site.in_loop, info.depth + 1
                )
                if (callee, reached.raised) in self.states or (callee, True) in self.states:
                    continue
                self.states[(callee, reached.raised)] = reached
                queue.append((callee, reached.raised))
        for (key, raised), info in self.states.items():
            if raised or key not in self.hot:
                self.hot[key] = info

    def external_calls(self, catalogue: Catalogue) -> set[str]:
        """Dotted names that hot code calls but the graph cannot resolve and the knowledge base
        does not know: where deep mode looks next (``slowlib.Client``, ``slowlib.fetch_all``)."""
        found = set()
        for key in self.hot:
            for site in self._calls_by_caller.get(key, ()):
                if site.api is not None:
                    continue
                target = self.call_target(site)
                if not target:
                    continue
                target = self.resolve(target)
                # Up to the first call result: ``lib.get().json`` is looked for as ``lib.get``.
                target = target.split("().", 1)[0].removesuffix("()")
                if catalogue.covers(target) or self.function_for(target) is not None:
                    continue  # a known API, something reached through one, or settled already
                module = self._module_of(target)
                if module is not None and self.summaries[self.modules[module][0]].library is None:
                    continue  # the project's own name, just not one the graph can settle
                found.add(target)
        return found

    def _module_of(self, name: str) -> str | None:
        while name and name not in self.modules:
            name = name.rpartition(".")[0]
        return name or None

    def is_library(self, key: FuncKey) -> bool:
        return self.summaries[key[0]].library is not None

    def entry(self, key: FuncKey) -> tuple[FuncKey, CallSite, FuncKey] | None:
        """For a library function on a hot path: the project call site that crosses into the
        library on the way to it, as (project caller, call site, library callee)."""
        steps = self.path(key)
        for (caller, line), (callee, _) in zip(steps, steps[1:]):
            if self.is_library(caller) or not self.is_library(callee):
                continue
            for site in self._calls_by_caller.get(caller, ()):
                if site.line == line and self.function_for(self.call_target(site)) == callee:
                    return caller, site, callee
        return None

    def function(self, key: FuncKey) -> Function:
        return self.summaries[key[0]].functions[key[1]]

    def path(self, key: FuncKey) -> list[tuple[FuncKey, int]]:
        """The functions from the hot root down to ``key``, each with the line of its call into
        the next one (0 for ``key`` itself)."""
        steps, info = [(key, 0)], self.hot[key]
        while info.parent is not None:
            steps.append((info.parent[0], info.call_line))
            info = self.states[info.parent]
        steps.reverse()
        return steps

    def chain(self, key: FuncKey, site: CallSite) -> tuple[ChainLink, ...]:
        """Entry point's ``def`` line, each call on the way down, then the offending call."""
        steps = self.path(key)
        root = steps[0][0]
        links = [ChainLink(self.summaries[root[0]].path, self.function(root).line, self.function(root).qualname)]
        for caller, line in steps[:-1]:  # each function's call into the next one
            links.append(ChainLink(self.summaries[caller[0]].path, line, self.function(caller).qualname))
        links.append(ChainLink(self.summaries[key[0]].path, site.line, self.function(key).qualname))
        return tuple(links)
