"""Project call graph: which functions run on the event loop, and the shortest chain proving it.

Hot roots are the entry points something outside the project runs on the loop: framework hooks
and the callables registered with the framework, coroutines started as tasks of their own
(``asyncio.create_task``, ``gather``, ``TaskGroup.create_task``), loop callbacks, configured
entry points, and every ``async def`` that no project code calls or awaits (a server's handler,
a callback some library awaits). A coroutine the project awaits is hot only through its callers,
so its chain starts at the real entry point; one run by ``asyncio.run`` is a program's entry
point, cold like the code that starts the loop. Cold roots (``load_environment``, ``__init__``,
teardown, test functions) stay cold unless a hot function also reaches them. A function is hot
when a hot function calls it directly -- not when it is only handed to ``asyncio.to_thread`` or
an executor. Calls resolve across modules through imports, re-exports and star imports,
``self.method()`` through base classes defined anywhere in the project, and to the overrides of
the method in the project's subclasses (class-hierarchy analysis: ``self`` may be any of them).
Values resolve across modules from the summaries' exports (:meth:`ProjectGraph.resolve`):
module-level instances, what functions and methods return, attributes set on ``self`` in any
class of the MRO, properties, and the callables that lists and factories hold.
"""

from __future__ import annotations

import ast
import fnmatch
from collections import deque
from collections.abc import Iterable, Sequence
from itertools import pairwise
from dataclasses import dataclass, replace

from asynclint.analysis.index.argfacts import guard_holds
from asynclint.analysis.index.records import CallSite, ClassInfo, Function, FunctionRef, Handoff, ModuleSummary
from asynclint.analysis.index.values import ITEM_SUFFIX, PARAM, SELF, STATE, SUPER, linear_chain, split_super
from asynclint.knowledge.asyncio_apis import (
    LOOP_RUNNERS,
    TASK_SPAWNER_METHODS,
    TASK_SPAWNERS,
    runs_loop,
    spawns_task,
)
from asynclint.knowledge.blocking import RETURNS
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.costs import payload_evidence
from asynclint.knowledge.frameworks import (
    COLD_FUNCTIONS,
    DECORATORS,
    FREQUENT,
    REGISTRATIONS,
    REWARD,
    SHARED_CONTEXTS,
    START_UP,
    TOOL_SERVER_PACKAGES,
    SYNC_REWARD,
    TEST_CLASSES,
    TEST_DECORATORS,
    TEST_FILES,
    TEST_FUNCTIONS,
    TOOL,
    Hook,
    HookClass,
    Registration,
    framework_class,
    public_name,
)
from asynclint.knowledge.functions import MEMOIZERS, PROPERTIES
from asynclint.model import ChainLink

FuncKey = tuple[int, int]  # (summary position, function position)
#: A function, whether it is reached more than once per rollout, and whether only on a first call.
HotState = tuple[FuncKey, bool, bool]

_MAX_ALIAS_HOPS = 8
#: ``@overload`` stubs are never what a call runs: the undecorated definition after them is.
_OVERLOAD = frozenset({"typing.overload", "typing_extensions.overload"})
COROUTINE = Hook("async def", "rollout")
CONFIGURED = Hook("configured hot root", "rollout")


@dataclass(frozen=True)
class Use:
    """A place project code uses a function: ``how`` is "called", "passed to `map`", "imported"."""

    path: str
    function: str | None  # the qualname of the function it is in; None at module level / an import
    how: str

    def __str__(self) -> str:
        return f"{self.how} in `{self.function}` ({self.path})" if self.function else f"{self.how} in {self.path}"


@dataclass(frozen=True)
class LibraryEntry:
    """A hot project call into an installed library, on the way to a library function."""

    caller: FuncKey  # the project function
    site: CallSite  # its call into the library
    callee: FuncKey  # the library function it calls
    steps: tuple[FuncKey, ...]  # library functions from ``callee`` down to the one asked about


@dataclass(frozen=True)
class HotInfo:
    root: FuncKey
    root_hook: Hook  # what kind of entry point the root is, and how often it runs
    parent: HotState | None
    call_line: int  # line of the call in ``parent`` that reaches this function
    in_loop: bool  # some call on the chain runs inside a loop
    depth: int
    #: Some step of the chain runs on a first call only: a lazy initialisation, a memoized function.
    once: bool = False

    @property
    def frequent(self) -> bool:
        """The root runs per turn, per tool call or per group."""
        return self.root_hook.frequency in FREQUENT

    @property
    def raised(self) -> bool:
        """Graded one level up: run more often than once per rollout."""
        return self.in_loop or self.frequent


#: (raised, once) -> the states of the same function that make one with these flags redundant:
#: itself, and any reached as often or more often, on every call or on the same first calls.
_DOMINATING: dict[tuple[bool, bool], tuple[tuple[bool, bool], ...]] = {
    (raised, once): tuple(
        (r, o) for r in (False, True) for o in (False, True) if r >= raised and o <= once
    )
    for raised in (False, True)
    for once in (False, True)
}


class ProjectGraph:
    def __init__(
        self,
        summaries: Sequence[ModuleSummary],
        hot_roots: Iterable[str] = (),
        cold_roots: Iterable[str] = (),
        registrations: Iterable[Registration] = (),
        catalogue: Catalogue | None = None,
        memoizers: Iterable[str] = (),
        offloaded: Iterable[Hook] = (),
    ):
        self.summaries = summaries
        #: Hooks the project's release of the framework runs in worker threads (OFFLOADED_HOOKS):
        #: what is registered as one is no hot root.
        self._offloaded = frozenset(offloaded)
        self._producers = (catalogue or Catalogue()).producers
        self._memoizers = MEMOIZERS.union(memoizers)
        self._registrations = tuple(registrations)
        self._hot_patterns = tuple(hot_roots)
        self._cold_patterns = tuple(cold_roots)
        self.modules: dict[str, list[int]] = {}
        #: Qualified name -> every definition of it, first one first. A name defined twice (under
        #: ``if``/``else``, or by two files given the same module name) may run either: calls go
        #: to all of them.
        self.defs: dict[str, list[FuncKey]] = {}
        self.classes: dict[str, tuple[int, ClassInfo]] = {}
        self.exports: dict[str, dict[str, str]] = {}
        self.values: dict[str, str] = {}
        #: Module-level values -> (path, line, column) of the call that built them.
        self.built: dict[str, tuple[str, int, int]] = {}
        self.callables: dict[str, tuple[str, ...]] = {}
        self.stars: dict[str, tuple[str, ...]] = {}
        self.public: dict[str, tuple[str, ...] | None] = {}
        #: Keys of the rollout's state -> the type every hook stores under it ("" when they differ).
        self.state_types: dict[str, str] = {}
        #: Parameter names -> what ``update_tool_args`` passes registered tools there ("" when they differ).
        self.injected: dict[str, str] = {}
        #: Functions registered as tools: the ones ``update_tool_args`` passes arguments to.
        self._tools: frozenset[FuncKey] = frozenset()
        for position, summary in enumerate(summaries):
            for key, type_ in summary.state_values:
                self.state_types[key] = type_ if self.state_types.get(key, type_) == type_ else ""
            for key, stored in summary.injected:
                self.injected[key] = stored if self.injected.get(key, stored) == stored else ""
            self.values.update((f"{summary.module}.{name}", type_) for name, type_ in summary.values)
            self.built.update((f"{summary.module}.{name}", (summary.path, line, col)) for name, line, col in summary.built)
            self.callables.update((f"{summary.module}.{name}", items) for name, items in summary.callables)
            self.modules.setdefault(summary.module, []).append(position)
            self.exports.setdefault(summary.module, {}).update(summary.exports)
            if summary.stars:
                self.stars[summary.module] = (*self.stars.get(summary.module, ()), *summary.stars)
            if summary.public is not None:
                self.public.setdefault(summary.module, summary.public)
            for index, function in enumerate(summary.functions):
                if function.kind == "function" and _OVERLOAD.isdisjoint(function.decorators):
                    self.defs.setdefault(f"{summary.module}.{function.qualname}", []).append((position, index))
            for info in summary.classes:
                self.classes.setdefault(f"{summary.module}.{info.qualname}", (position, info))
        self.states: dict[HotState, HotInfo] = {}
        self._contexts: dict[str, dict[str, Hook]] = {}
        self._direct_callers: dict[FuncKey, list[FuncKey]] | None = None
        self.hot: dict[FuncKey, HotInfo] = {}
        self._roots_of_modules = frozenset(module.partition(".")[0] for module in self.modules)
        self._canonical: dict[str, str] = {}
        self._package_names: frozenset[str] | None = None
        self._ancestors: dict[str, list[str]] = {}
        self._mro: dict[str, list[str]] = {}
        self._tables: dict[str, HookClass | None] = {}
        self._subclasses: dict[str, list[str]] | None = None
        self._overrides: dict[tuple[str, str], list[FuncKey]] = {}
        self._edges: dict[FuncKey, list[tuple[FuncKey, CallSite]]] = {}
        self._by_path: dict[str, list[int]] | None = None
        self._callers: dict[FuncKey, list[tuple[FuncKey, CallSite]]] | None = None
        self._arguments: dict[FuncKey, list[tuple[FuncKey, CallSite]]] | None = None
        self._param_types: dict[tuple[FuncKey, str], str | None] = {}
        self._root_keys: frozenset[FuncKey] = frozenset()
        self._project_calls: tuple[dict[FuncKey, list[CallSite]], set[FuncKey], set[str]] | None = None
        self._fixed: dict[FuncKey, dict[str, object]] = {}
        self._attrs = {name: dict(info.attrs) for name, (_, info) in self.classes.items()}
        self._resolved: dict[str, str] = {}
        self._propagate()

    # -- name resolution ----------------------------------------------------------------------

    def canonical(self, name: str) -> str:
        """Follow re-exports: ``pkg.helper`` imported into ``pkg/__init__`` (or brought there by
        ``from .mod import *``) -> ``pkg.mod.helper``."""
        found = self._canonical.get(name)
        if found is None:
            found = self._canonical[name] = self._follow_exports(name)
        return found

    def _follow_exports(self, name: str) -> str:
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
            if exported is None and len(rest) > 1 and module in self.stars:
                exported = self._star_submodule(module, rest[0])
            if exported is None or exported == name:
                return name
            name = ".".join([exported, *rest[1:]])
        return name

    def _defined(self, name: str) -> bool:
        return name in self.defs or name in self.classes or name in self.values or name in self.callables

    def _star_submodule(self, package: str, name: str) -> str | None:
        """A public alias module: ``package.name.x``, where ``package`` has no submodule ``name``
        but star-imports a package that has one, is that one's (``aliasfw.utils.net_utils`` ->
        ``aliasfw.legacy.utils.net_utils`` under ``from aliasfw.legacy import *``). verifiers 0.3
        answers for its v0 modules at their old paths so, through a meta-path finder no static
        reading can run; the star import is what its package states."""
        packages = self._packages()
        if f"{package}.{name}" in packages:
            return None  # a submodule of its own, loaded or not
        for source in reversed(self.stars[package]):
            if f"{source}.{name}" in packages:
                return f"{source}.{name}"
        return None

    def _packages(self) -> frozenset[str]:
        """Every module read and every package above one."""
        if self._package_names is None:
            names = set()
            for module in self.modules:
                parts = module.split(".")
                names.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
            self._package_names = frozenset(names)
        return self._package_names

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
        if attr.endswith(ITEM_SUFFIX):  # ``self.envs[k]``: what is stored per key, else typed like ``self.envs``
            cls = owner.removesuffix("()")
            member = self._member(cls, attr, 0, True) if owner.endswith("()") and cls in self.classes else None
            return member if member is not None else self._attribute(owner, attr.removesuffix(ITEM_SUFFIX))
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

    def _definitions(self, name: str) -> list[FuncKey]:
        """The project functions ``name`` (resolved) is: every definition of it, or a method inherited."""
        keys = self.defs.get(name)
        if keys is not None:
            return keys
        owner, _, method = name.rpartition(".")
        owner = owner.removesuffix("()")
        key = self.method_of(owner, method) if owner in self.classes else None
        return [key] if key is not None else []

    def _definition(self, name: str) -> FuncKey | None:
        keys = self._definitions(name)
        return keys[0] if keys else None

    def functions_for(self, target: str | None) -> list[FuncKey]:
        """The project functions a call target runs: the function itself (every definition of
        it), a class's ``__init__`` (inherited ones included), or an instance's ``__call__``."""
        if not target:
            return []
        name = self.resolve(target)
        if name in self.classes:
            key = self.method_of(name, "__init__")
            return [key] if key is not None else []
        if name.endswith("()") and name[:-2] in self.classes:
            key = self.method_of(name[:-2], "__call__")
            return [key] if key is not None else []
        return self._definitions(name)

    def function_for(self, target: str | None) -> FuncKey | None:
        """The project function a call target runs (the first, when it is defined more than once)."""
        keys = self.functions_for(target)
        return keys[0] if keys else None

    def functions_denoted(self, target: str | None, depth: int = 0) -> list[FuncKey]:
        """The project functions a value handed over may be: a function, a bound method, a
        list of them (``REWARDS``), what a call returns (``get_rewards()``,
        ``parser.get_format_reward_func()``), and so on through lists of lists."""
        keys = self.functions_for(target)
        if keys or not target or depth > _MAX_ALIAS_HOPS:
            return keys
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
            keys = self.defs.get(f"{owner}.{name}")
            if keys is not None:
                return keys[0]
        return None

    def resolve_self(self, cls: str, path: tuple[str, ...]) -> str | None:
        """``self.<path>`` (or ``super().<path>``) on ``cls``, through base classes in other modules."""
        if path and path[0].endswith(ITEM_SUFFIX) and cls != STATE and self._member(cls, path[0], 0, True) is None:
            path = (path[0].removesuffix(ITEM_SUFFIX), *path[1:])  # nothing stored per key: typed like the container
        if cls == STATE:  # ``state["driver"].get(url)``: typed from what the project stores there
            stored = self.state_types.get(path[0]) if path and not path[0].endswith("()") else None
            return self._walk(self.resolve(stored) or stored, path[1:]) if stored else None
        skip, path = split_super(path)
        if not path:
            return None
        called = path[0].endswith("()")
        current = self._member(cls, path[0].removesuffix("()"), skip, instance=True)
        if current is None:
            return None
        return self._walk(self._result(current) if called else current, path[1:])

    def call_target(self, site: CallSite, caller: FuncKey | None = None) -> str | None:
        """What ``site`` calls, as far as the project says (``caller``: the function it is
        written in, which types its parameters when a framework says what they receive)."""
        if site.property_read:
            return self._property_read(site, caller)
        if site.param is not None and caller is not None:
            received = self.param_type(caller, site.param[0])
            if received:
                return self._walk(received, site.param[1:])
        if site.read:  # ``self.corpus``: a call of the getter, if it is a property
            target = site.target or (f"{site.self_ref[0]}.{site.self_ref[1][0]}" if site.self_ref else None)
            key = self.function_for(target)
            return target if key is not None and not PROPERTIES.isdisjoint(self.function(key).decorators) else None
        if site.self_ref is not None:
            return self.resolve_self(*site.self_ref)
        return site.target

    def _property_read(self, site: CallSite, caller: FuncKey | None) -> str | None:
        """The attribute a property read reads (``selenium.webdriver.Chrome.title``): its receiver
        resolved, the attribute as written (resolving it would give what reading it returns);
        ``None`` when the receiver is not known, or is the project's own (a property of the
        project runs a getter of its own: see ``CallSite.read``)."""
        receiver: str | None = None
        if site.param is not None:
            received = self.param_type(caller, site.param[0]) if caller is not None else None
            receiver = self._walk(received, site.param[1:-1]) if received else None
        elif site.self_ref is not None:
            cls, path = site.self_ref
            receiver = self.resolve_self(cls, path[:-1])
        elif site.target is not None:
            receiver = self.resolve(site.target.rpartition(".")[0])
        if not receiver or receiver.removesuffix("()") in self.classes:
            return None
        return f"{receiver}.{site.method}"

    def param_type(self, key: FuncKey, name: str, depth: int = 0) -> str | None:
        """The type of parameter ``name`` of function ``key`` (one its signature leaves open):
        what ``update_tool_args`` passes it when ``key`` is a tool, else what the project's calls
        of ``key`` hand it, when every one that is known agrees (``mark_page(driver)`` with
        ``driver: webdriver.Chrome``; a caller's own parameter handed on is typed the same way)."""
        memo = (key, name)
        if memo in self._param_types:
            return self._param_types[memo]
        self._param_types[memo] = None  # a cycle of calls handing a parameter round says nothing
        found = self.injected_type(name) if key in self._tools else None
        if found is None and depth <= _MAX_ALIAS_HOPS:
            found = self._argument_type(key, name, depth)
        self._param_types[memo] = found
        return found

    def _argument_type(self, key: FuncKey, name: str, depth: int) -> str | None:
        function = self.function(key)
        if name not in function.params:
            return None
        # Called through an instance or as a class: the first parameter is the receiver.
        shift = function.class_qualname is not None and "builtins.staticmethod" not in function.decorators
        position = function.params.index(name) - shift
        types: set[str] = set()
        for caller, site in self._argument_sites().get(key, ()):
            keywords = dict(site.keyword_arguments)
            value = keywords.get(name) or (site.arguments[position] if 0 <= position < len(site.arguments) else "")
            owner, _, rest = value.partition(".")
            if owner == PARAM:
                typed = self.param_type(caller, rest, depth + 1)
            elif owner == STATE:
                typed = self.resolve_self(STATE, tuple(rest.split(".")))
            else:
                typed = self.resolve(value) if value else None
            if typed:
                types.add(typed)
        return types.pop() if len(types) == 1 else None

    def _argument_sites(self) -> dict[FuncKey, list[tuple[FuncKey, CallSite]]]:
        """Project functions -> the calls handing them a known argument (resolved without typing
        parameters, so this never asks itself)."""
        if self._arguments is None:
            self._arguments = {}
            for position, summary in enumerate(self.summaries):
                for site in summary.calls:
                    if site.arguments or site.keyword_arguments:
                        for callee in self.functions_for(self.call_target(site)):
                            self._arguments.setdefault(callee, []).append(((position, site.caller), site))
        return self._arguments

    def injected_type(self, name: str) -> str | None:
        """What ``update_tool_args`` passes a tool's parameter ``name``: a type, or what the
        rollout's state holds under a key (``updated["env"] = state.get("emulator_env")``)."""
        stored = self.injected.get(name)
        if not stored:
            return None
        owner, _, key = stored.partition(".")
        if owner == STATE:
            return self.resolve_self(STATE, tuple(key.split(".")))
        return self.resolve(stored)

    def handed_type(self, handoff: Handoff) -> str | None:
        """The type of the object handed over: ``judge_client=JUDGE`` is an instance only when
        ``JUDGE`` is a value (not a class or a function)."""
        if handoff.self_ref is not None:
            return self.resolve_self(*handoff.self_ref)
        if handoff.named and self.canonical(handoff.value) not in self.values:
            return None
        return self.resolve(handoff.value) if handoff.value else None

    def built_at(self, summary: ModuleSummary, handoff: Handoff) -> tuple[str, int, int] | None:
        """(path, line, column) of the call that built the object handed over, when the project
        shows it: in the hand-over's module, or where an imported value (``JUDGE = OpenAI()``) is
        defined."""
        if handoff.built is not None:
            return (summary.path, *handoff.built)
        return self.built.get(self.canonical(handoff.value)) if handoff.named else None

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
            decorator = self._memoizer(step)
            if decorator is not None:
                return self.function(step).qualname, decorator
        return None

    # -- classes --------------------------------------------------------------------------------

    def ancestors(self, cls: str) -> list[str]:
        """``cls`` and every base class, project or external, nearest first."""
        return linear_chain(cls, self._bases, self._ancestors)

    def _bases(self, cls: str) -> tuple[str, tuple[str, ...]]:
        name = self.canonical(cls)
        return name, self.classes[name][1].bases if name in self.classes else ()

    def framework_table(self, cls: str) -> HookClass | None:
        """The framework hook table a (project) class inherits, if any."""
        if cls not in self._tables:
            self._tables[cls] = next(filter(None, map(framework_class, self.ancestors(cls))), None)
        return self._tables[cls]

    def overrides(self, cls: str, method: str) -> list[FuncKey]:
        """Definitions of ``method`` in the project's subclasses of ``cls`` (at any depth): what
        ``self.method()`` written in ``cls`` may run instead of its own."""
        key = (cls, method)
        found = self._overrides.get(key)
        if found is not None:
            return found
        if self._subclasses is None:
            self._subclasses = {}
            for name, (_, info) in sorted(self.classes.items()):
                for base in info.bases:
                    self._subclasses.setdefault(self.canonical(base), []).append(name)
        found, seen, queue = [], {cls}, deque(self._subclasses.get(cls, ()))
        while queue:
            sub = queue.popleft()
            if sub in seen:
                continue
            seen.add(sub)
            found.extend(self.defs.get(f"{sub}.{method}", ()))
            queue.extend(self._subclasses.get(sub, ()))
        self._overrides[key] = found
        return found

    # -- hotness --------------------------------------------------------------------------------

    def _matches(self, patterns: tuple[str, ...], name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    def hook_of(self, position: int, function: Function) -> tuple[Hook | None, bool]:
        """(the framework hook ``function`` is, cold?) from its decorators and its class."""
        module = self.summaries[position].module
        contexts = (
            self._class_contexts(f"{module}.{function.class_qualname}")
            if function.class_qualname and function.decorators else {}
        )
        for decorator in function.decorators:
            name = public_name(decorator)
            if name in contexts:
                return contexts[name], False
            if name in DECORATORS:
                hook = DECORATORS[name]
                return hook, hook is None
        if function.class_qualname is not None:
            table = self.framework_table(f"{module}.{function.class_qualname}")
            if table is not None:
                if function.name in table.cold:
                    return None, True
                return table.methods.get(function.name), False
        elif function.name in COLD_FUNCTIONS:
            return None, True
        return None, self._is_test(position, function)

    def model_payload(self, cls: str) -> tuple[str, str] | None:
        """How large an instance of the project class ``cls`` is, by its annotated fields and
        its project ancestors': (``small`` -- scalar fields only, ``whole`` -- a container field
        named like a history, or ``unknown``; the field that says so). ``None``: not a project
        class with fields."""
        fields = [
            field
            for ancestor in self.ancestors(cls)
            if (name := self.canonical(ancestor)) in self.classes
            for field in self.classes[name][1].fields
        ]
        if not fields:
            return None
        containers = [name for name, kind in fields if kind == "container"]
        if not containers:
            return "small", ""
        whole = next((name for name in containers if payload_evidence("name", name) == "whole"), None)
        return ("whole", whole) if whole else ("unknown", containers[0])

    def _class_contexts(self, cls: str) -> dict[str, Hook]:
        """Decorator -> hook, from the type arguments of ``cls``'s generic bases and its
        ancestors' (:data:`~asynclint.knowledge.frameworks.SHARED_CONTEXTS`)."""
        found = self._contexts.get(cls)
        if found is None:
            found = self._contexts[cls] = {}
            for ancestor in self.ancestors(cls):
                name = self.canonical(ancestor)
                for argument in self.classes[name][1].type_args if name in self.classes else ():
                    found.update(SHARED_CONTEXTS.get(public_name(self.canonical(argument)), {}))
        return found

    def _in_test_file(self, position: int) -> bool:
        filename = self.summaries[position].path.rpartition("/")[2]
        return any(fnmatch.fnmatchcase(filename, pattern) for pattern in TEST_FILES)

    def _is_test(self, position: int, function: Function) -> bool:
        """A test function or fixture, collected and run by pytest."""
        if not self._in_test_file(position):
            return False
        if any(public_name(decorator) in TEST_DECORATORS for decorator in function.decorators):
            return True
        owner = function.class_qualname
        if owner is not None and ("." in owner or not self._matches(TEST_CLASSES, owner)):
            return False
        return function.qualname.count(".") == (owner is not None) and self._matches(TEST_FUNCTIONS, function.name)

    def _registered(self) -> dict[FuncKey, Hook]:
        """Callables handed to the framework (rewards, tools, parsers), wherever that happens."""
        found: dict[FuncKey, Hook] = {}
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue  # a library registering its own callables is the library's business
            for ref in summary.refs:
                if ref.offloaded or ref.away is not None:
                    continue
                hook = self.registration(ref)
                if hook is None or hook in self._offloaded or self._in_own_process(position, ref.caller):
                    continue
                if ref.function is not None:  # a lambda written in the call
                    keys = [(position, ref.function)]
                else:
                    target = ref.target if ref.self_ref is None else self.resolve_self(*ref.self_ref)
                    keys = self.functions_denoted(target)
                for key in keys:
                    # v0 scores a group by calling sync rewards back to back
                    own = SYNC_REWARD if hook is REWARD and not self.function(key).is_async else hook
                    if own in self._offloaded:
                        continue
                    if key not in found or own.frequency in FREQUENT:
                        found[key] = own
        return found

    def _in_own_process(self, position: int, index: int) -> bool:
        """Is function ``index`` (or the method it is nested in) a method of a class served by a
        process of its own (a v1 toolset)?"""
        owner = self.summaries[position].functions[index].class_qualname
        outer = self.summaries[position].functions[index].qualname.split(".<locals>.")[0]
        if owner is None and "." in outer:
            owner = outer.rpartition(".")[0]
        table = self.framework_table(f"{self.summaries[position].module}.{owner}") if owner else None
        return table is not None and table.own_process

    def registration(self, ref: FunctionRef) -> Hook | None:
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
                if written and written.startswith(TOOL_SERVER_PACKAGES):
                    return None  # ``mcp.add_tool(fn)``: run by a tool server in its own process
                return registration.hook
            if registration.owner is not None and table is registration.owner:
                return registration.hook
            if registration.any_verifiers_call and (table is not None or (receiver or "").startswith("verifiers.")):
                return registration.hook
        return None

    def _edges_of(self, key: FuncKey) -> list[tuple[FuncKey, CallSite]]:
        """Project functions ``key`` runs on the loop: sync calls, coroutines it awaits (an
        awaited coroutine runs as part of its caller, as often as the caller runs), coroutines
        it starts as tasks (they run on the loop as often as it starts them), and coroutines it
        makes and keeps (``tasks.append(self.launch(i))``, gathered later): they run when it
        awaits them -- not coroutines it hands to a new event loop."""
        found = self._edges.get(key)
        if found is not None:
            return found
        found = self._edges[key] = []
        for site in self._calls_by_caller.get(key, ()):
            if runs_loop(site.consumer) or not self.runs(key, site):
                continue
            for callee in self._targets(key, site):
                if callee != key and (self.function(callee).is_async or not site.awaited):
                    found.append((callee, site))
        return found

    def runs(self, key: FuncKey, site: CallSite) -> bool:
        """False when ``site`` sits behind a test of a parameter of ``key`` that every call of
        ``key`` in the project leaves at (or sets to) one constant, and that is false with it:
        ``if write_to_log:`` where nothing passes ``write_to_log=True``."""
        return not site.guards or guard_holds(site.guards, self.fixed_params(key))

    def fixed_params(self, key: FuncKey) -> dict[str, object]:
        """Parameters of ``key`` every call passes the same constant (or leaves at its constant
        default) -> that constant. Nothing for a root, a function handed over as a value, a
        method a call of unknown receiver may mean, or a function nothing in the project calls:
        someone else calls those, with anything."""
        found = self._fixed.get(key)
        if found is not None:
            return found
        found = self._fixed[key] = {}
        calls, escaped, unresolved = self._calls_of_functions()
        function = self.function(key)
        sites = calls.get(key)
        if not sites or key in self._root_keys or key in escaped or function.name in unresolved:
            return found
        shift = function.class_qualname is not None and "builtins.staticmethod" not in function.decorators
        defaults = dict(function.defaults)
        for position, name in enumerate(function.params[shift:]):
            values = set()
            for site in sites:
                given = dict(site.given)
                values.add("" if "*" in given else given.get(name, given.get(str(position), defaults.get(name, ""))))
            if len(values) == 1 and (value := values.pop()):
                found[name] = ast.literal_eval(value)
        return found

    def _calls_of_functions(self) -> tuple[dict[FuncKey, list[CallSite]], set[FuncKey], set[str]]:
        """Every project call of each project function; the functions also handed over as values;
        the method names of calls whose receiver the project does not settle."""
        if self._project_calls is None:
            calls: dict[FuncKey, list[CallSite]] = {}
            escaped: set[FuncKey] = set()
            unresolved: set[str] = set()
            for position, summary in enumerate(self.summaries):
                for site in summary.calls:
                    if site.read:
                        continue
                    keys = self.functions_for(self.call_target(site, (position, site.caller)))
                    for callee in keys:
                        calls.setdefault(callee, []).append(site)
                    if not keys and site.method and site.target is None and site.self_ref is None:
                        unresolved.add(site.method)  # ``self``/``super()`` calls resolve or are the library's
                for ref in summary.refs:
                    target = ref.target or (self.resolve_self(*ref.self_ref) if ref.self_ref else None)
                    escaped.update(self.functions_for(target))
            self._project_calls = (calls, escaped, unresolved)
        return self._project_calls

    def _targets(self, caller: FuncKey, site: CallSite) -> list[FuncKey]:
        """What a call runs: the function its target names, and when it is called through
        ``self``, the overrides of that method in the project's subclasses of the caller's class."""
        keys = self.functions_for(self.call_target(site, caller))
        through_self = site.origin == "self" or (site.self_ref is not None and site.self_ref[1][0] != SUPER)
        if not keys or not through_self:
            return keys
        method = self.function(keys[0])
        if method.class_qualname is None:
            return keys
        owner = f"{self.summaries[keys[0][0]].module}.{method.class_qualname}"
        function = self.function(caller)
        receiver = owner
        if function.class_qualname is not None:
            own = f"{self.summaries[caller[0]].module}.{function.class_qualname}"
            if owner in self.ancestors(own):
                if self.method_of(own, method.name) != keys[0]:
                    return keys  # ``super().method()``: never one of the overrides below
                receiver = own  # ``self`` is an instance of the caller's class or a subclass of it
        overrides = self.overrides(receiver, method.name)
        return [*keys, *(key for key in overrides if key not in keys)] if overrides else keys

    def _entered(self) -> tuple[dict[FuncKey, Hook], set[FuncKey]]:
        """From the project's own code: (coroutines started as tasks -> their root hook, every
        function something in the project calls, awaits or starts)."""
        spawned: dict[FuncKey, Hook] = {}
        called: set[FuncKey] = set()
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue
            # A test awaiting a coroutine of the project says nothing about who runs it in
            # production (a handler tested by calling it is still the server's to call); it
            # does settle the test file's own helpers.
            from_tests = self._in_test_file(position)
            for site in summary.calls:
                caller = (position, site.caller)
                spawn = spawns_task(site.consumer) and not from_tests
                if site.awaited or site.consumer:
                    callees = self._targets(caller, site)
                else:  # a coroutine made here and awaited later (``tasks.append(self.launch(i))``)
                    callees = [c for c in self.functions_for(self.call_target(site)) if self.function(c).is_async]
                for callee in callees:
                    if callee == caller:
                        continue  # recursion: the function still needs a caller of its own
                    if from_tests and not self._in_test_file(callee[0]):
                        continue
                    called.add(callee)
                    if spawn and callee not in spawned and self.function(callee).is_async:
                        spawned[callee] = _task_hook(site.consumer or "", summary.functions[site.caller].qualname)
            for ref in summary.refs:
                spawner = ref.passed_to in TASK_SPAWNERS or ref.passed_to_method in TASK_SPAWNER_METHODS
                if ref.offloaded or not (spawner or ref.passed_to in LOOP_RUNNERS):
                    continue
                target = ref.target if ref.self_ref is None else self.resolve_self(*ref.self_ref)
                for callee in self.functions_for(target):  # ``anyio.run(main)``, ``tg.start_soon(worker)``
                    if from_tests and not self._in_test_file(callee[0]):
                        continue
                    called.add(callee)
                    if spawner and not from_tests and callee not in spawned and self.function(callee).is_async:
                        consumer = ref.passed_to if ref.passed_to in TASK_SPAWNERS else f".{ref.passed_to_method}"
                        spawned[callee] = _task_hook(consumer, summary.functions[ref.caller].qualname)
        return spawned, called

    def _sent_away(self) -> set[FuncKey]:
        """Functions the project ships to run elsewhere (a program run in a sandbox): cold here,
        unless something on the loop calls them too."""
        return {
            key
            for summary in self.summaries if summary.library is None
            for ref in summary.refs if ref.away is not None
            for key in self.functions_denoted(ref.target)
        }

    def _roots(self) -> dict[FuncKey, Hook]:
        registered = self._registered()
        self._tools = frozenset(key for key, hook in registered.items() if hook is TOOL)
        spawned, called = self._entered()
        away = self._sent_away()
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
                hook = registered.get(key, hook) or spawned.get(key)
                if hook is not None:
                    roots[key] = hook
                elif cold or key in away or (self._cold_patterns and self._matches(self._cold_patterns, name)):
                    continue
                elif self._hot_patterns and self._matches(self._hot_patterns, name):
                    roots[key] = CONFIGURED
                elif function.is_async and key not in called:
                    roots[key] = COROUTINE  # nothing in the project runs it: someone else does
        return roots

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
        roots = self._roots()
        self._root_keys = frozenset(roots)
        for key, hook in sorted(roots.items()):
            root = HotInfo(key, hook, None, 0, False, 0)
            self.states[(key, root.raised, False)] = root
            queue.append((key, root.raised, False))
        while queue:
            state = queue.popleft()
            info = self.states[state]
            for callee, site in self._edges_of(state[0]):
                once = info.once or site.once or self._memoizer(callee) is not None
                hook = info.root_hook
                if site.first_turn and hook.frequency in FREQUENT:
                    hook = replace(hook, frequency="first-turn")  # set up on a rollout's first turn
                reached = HotInfo(info.root, hook, state, site.line, info.in_loop or site.in_loop, info.depth + 1, once)
                if any((callee, raised, first) in self.states for raised, first in _DOMINATING[(reached.raised, once)]):
                    continue
                self.states[(callee, reached.raised, once)] = reached
                queue.append((callee, reached.raised, once))
        for (key, raised, once), info in self.states.items():
            current = self.hot.get(key)
            # Every call rather than a first one, then more than once per rollout rather than once.
            if current is None or (current.once, not current.raised) > (once, not raised):
                self.hot[key] = info

    def first_call_entry(self, key: FuncKey, site: CallSite) -> FuncKey | None:
        """The function whose first call runs ``site`` (written in ``key``) and nothing after,
        nearest the root on the chain: a memoized function, or the function holding the lazy
        initialisation (``key`` itself when the call sits in one of its own). ``None``: every call."""
        info, entry = self.hot[key], None
        state: HotState | None = (key, info.raised, info.once)
        while state is not None:
            info = self.states[state]
            if not info.once:
                break
            # Reached through a guarded call: the guard is in the caller, which warming must call.
            memoized = self._memoizer(state[0]) is not None
            entry = state[0] if memoized or info.parent is None else info.parent[0]
            state = info.parent
        return entry if entry is not None else key if site.once else None

    def warmed(self, key: FuncKey) -> bool:
        """Start-up code -- module level, ``load_environment``, ``__init__`` (see
        :data:`~asynclint.knowledge.frameworks.START_UP`) -- calls ``key`` before any rollout,
        directly or through functions that are not hot themselves: its first call is done."""
        if self._direct_callers is None:
            # Calls by name only, without the overrides a call through ``self`` may reach:
            # warming is done by naming the function, and this costs one pass over the calls
            # (``callers`` would resolve virtual dispatch for every call of the project).
            self._direct_callers = {}
            for caller, sites in self._calls_by_caller.items():
                for site in sites:
                    if not runs_loop(site.consumer):
                        for callee in self.functions_for(self.call_target(site)):
                            self._direct_callers.setdefault(callee, []).append(caller)
        seen, queue = {key}, [key]
        while queue:
            for caller in self._direct_callers.get(queue.pop(), ()):
                if caller in seen or caller in self.hot:
                    continue
                function = self.function(caller)
                if function.kind == "module" or function.name in START_UP:
                    return True
                seen.add(caller)
                queue.append(caller)
        return False

    def _memoizer(self, key: FuncKey) -> str | None:
        """The memoizing decorator of ``key`` (``functools.lru_cache``), if any."""
        return next((d for d in self.function(key).decorators if d in self._memoizers), None)

    # -- who uses a function (asked by the fixers) -----------------------------------------------

    def key_of(self, path: str, qualname: str) -> FuncKey | None:
        """The function ``qualname`` defined in the file ``path``."""
        for position in self._positions_by_path().get(path, ()):
            for index, function in enumerate(self.summaries[position].functions):
                if function.kind == "function" and function.qualname == qualname:
                    return (position, index)
        return None

    def _positions_by_path(self) -> dict[str, list[int]]:
        if self._by_path is None:
            self._by_path = {}
            for position, summary in enumerate(self.summaries):
                self._by_path.setdefault(summary.path, []).append(position)
        return self._by_path

    def callers(self, key: FuncKey) -> list[tuple[FuncKey, CallSite]]:
        """The calls that run ``key`` on the loop (as :meth:`_edges_of` sees them), from any caller."""
        if self._callers is None:
            self._callers = {}
            for caller in self._calls_by_caller:
                for callee, site in self._edges_of(caller):
                    self._callers.setdefault(callee, []).append((caller, site))
        return self._callers.get(key, [])

    def callees(self, key: FuncKey) -> list[tuple[FuncKey, CallSite]]:
        """The project functions ``key`` runs on the loop, with the calls that run them."""
        return self._edges_of(key)

    def reaches(self, key: FuncKey, target: FuncKey) -> bool:
        """``key`` runs ``target`` on the loop through calls of sync functions."""
        seen, queue = {key}, [key]
        while queue:
            for callee, _ in self._edges_of(queue.pop()):
                if callee == target:
                    return True
                if callee not in seen and not self.function(callee).is_async:
                    seen.add(callee)
                    queue.append(callee)
        return False

    def uses(self, key: FuncKey) -> list[Use]:
        """Where project code uses the function ``key`` besides handing it to the framework:
        calls (awaited or not), references (``map(f, ...)``, ``key=f``, ``to_thread(f)``), and
        imports into modules that do not register it (a test importing a reward)."""
        name = f"{self.summaries[key[0]].module}.{self.function(key).qualname}"
        found: list[Use] = []
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue
            for site in summary.calls:
                if key in self.functions_for(self.call_target(site)):
                    found.append(Use(summary.path, self._qualname(position, site.caller), "called"))
            registered = False
            for ref in summary.refs:
                target = ref.target if ref.self_ref is None else self.resolve_self(*ref.self_ref)
                if key not in self.functions_for(target):
                    continue
                if not ref.offloaded and self.registration(ref) is not None:
                    registered = True
                else:
                    passed = (ref.passed_to or ref.passed_to_method or "a call").removeprefix("builtins.")
                    found.append(Use(summary.path, self._qualname(position, ref.caller), f"passed to `{passed}`"))
            used_here = any(use.path == summary.path for use in found)
            if position != key[0] and not registered and not used_here:
                if any(self.canonical(target) == name for _, target in summary.exports):
                    found.append(Use(summary.path, None, "imported"))
        return found

    def _qualname(self, position: int, index: int) -> str | None:
        function = self.summaries[position].functions[index]
        return function.qualname if function.kind == "function" else None

    def external_calls(self, catalogue: Catalogue) -> set[str]:
        """Dotted names that hot code calls but the graph cannot resolve and the knowledge base
        does not know: where deep mode looks next (``slowlib.Client``, ``slowlib.fetch_all``)."""
        found = set()
        for key in self.hot:
            for site in self._calls_by_caller.get(key, ()):
                if site.api is not None or site.property_read:  # deep mode follows calls, not reads
                    continue
                target = self.call_target(site)
                if not target:
                    continue
                target = self.resolve(target)
                # Up to the first call result: ``lib.get().json`` is looked for as ``lib.get``.
                target = target.split("().", 1)[0].removesuffix("()")
                if catalogue.covers(target) or self.functions_for(target):
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

    def entries(self, key: FuncKey) -> list[LibraryEntry]:
        """For a library function on a hot path: every hot project call that leads to it through
        library code, each with the library functions from the one it calls down to ``key``
        (the shortest way). One per project call site, in source order."""
        toward: dict[FuncKey, FuncKey | None] = {key: None}  # library function -> next step to key
        queue, found = deque([key]), {}
        while queue:
            function = queue.popleft()
            for caller, site in self.callers(function):
                if self.is_library(caller):
                    if caller not in toward:
                        toward[caller] = function
                        queue.append(caller)
                elif caller in self.hot:
                    found.setdefault((caller, site.line, site.col), (caller, site, function))
        entries = []
        for _, (caller, site, callee) in sorted(found.items()):
            steps = [callee]
            while (step := toward[steps[-1]]) is not None:
                steps.append(step)
            entries.append(LibraryEntry(caller, site, callee, tuple(steps)))
        return entries

    def library_chain(self, entry: LibraryEntry, site: CallSite) -> tuple[ChainLink, ...]:
        """The chain to ``site`` in library code through ``entry``: the project's own chain to its
        call into the library, then each library function's call into the next."""
        links = list(self.chain(entry.caller, entry.site))
        for step, after in pairwise(entry.steps):
            line = next((s.line for callee, s in self._edges_of(step) if callee == after), 0)
            links.append(ChainLink(self.summaries[step[0]].path, line, self.function(step).qualname))
        last = entry.steps[-1]
        links.append(ChainLink(self.summaries[last[0]].path, site.line, self.function(last).qualname))
        return tuple(links)

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


def _task_hook(consumer: str, caller: str) -> Hook:
    """A coroutine started as a task of its own runs on the loop next to every other task."""
    started = consumer.removeprefix(".")
    return Hook("asyncio task", "rollout", note=f"started with `{started}(...)` in `{caller}`")
