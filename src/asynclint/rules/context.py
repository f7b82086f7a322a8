"""What a rule asks when it checks a project: the hot functions' blocking calls, the framework
hooks, the objects handed to the framework, and whether a finding is kept (threshold,
suppressions). Computed once per project and shared by every rule."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from asynclint.analysis.api import CallGraph, FunctionId, TypeName
from asynclint.analysis.graph_records import HotInfo, RegisteredElsewhere
from asynclint.analysis.index.callfacts import NO_FACTS
from asynclint.analysis.index.records import CallSite, Function, Handoff, ModuleSummary
from asynclint.analysis.index.values import INSTALLED_PREFIX, Marker, Rooted, SelfMethod
from asynclint.knowledge.api import Protocol
from asynclint.knowledge.blocking import BUILTIN_APIS, FILE_OPENERS, BlockingApi
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.costs import (
    FRAMEWORK_HANDED,
    HANDED_LONG,
    HANDED_SMALL,
    HANDED_UNSIZED,
    INFO_COLUMN,
    LARGE_COLUMN,
    MODEL_BASES,
    MODEL_BUILDERS,
    RETURNED_SLOTS,
    SIZE_ORDER,
    STATE_KEY,
    grows,
    named_state,
    payload_evidence,
    returned_callee,
    sized_by_name,
    token_list,
)
from asynclint.knowledge.frameworks import (
    HandedClient,
    Hook,
    SyncMethod,
    client_holder,
    framework_class,
    handed_by_framework,
    sync_method,
)
from asynclint.knowledge.streams import LAZY_STREAMS
from asynclint.model import ChainLink, Finding, Knowledge, Severity
from asynclint.suppressions import covering_at, mentions, naming

if TYPE_CHECKING:  # the configuration names rules, which import this module
    from asynclint.config import Config

BUILTIN_PATTERNS = frozenset(api.pattern for api in BUILTIN_APIS)
#: pydantic's methods, matched on any receiver: graded by the model's own fields when it is the project's.
MODEL_METHOD_PREFIX = "*.model_"


@dataclass(frozen=True)
class HandedOver:
    """An object handed to the framework, which calls a blocking method on it when the project
    calls one of the holder's ``users`` (or the method through the attribute it keeps it as)."""

    summary: ModuleSummary
    handoff: Handoff
    api: BlockingApi
    value: str  # the object's type
    callee: str  # what the framework calls on it
    owner: str  # the framework class it is handed to
    holder: HandedClient
    receiver: TypeName  # the class it is handed to, as the project names it (a subclass of ``owner``)


@dataclass(frozen=True)
class RunByFramework:
    """A client handed to a class whose method the framework runs by itself (a hook the class
    overrides) calls the client there: the hand-over blocks the loop wherever the framework runs
    ``method``, with no project call on the way -- the project's one line is the hand-over."""

    handed: HandedOver  # its ``api`` and ``callee``: what the method calls on the client
    method: str  # the holder's method the framework runs (``score_rollouts``)
    hook: Hook  # how the framework runs it
    in_loop: bool  # the method calls it inside a loop
    #: Where the method makes the call, when deep mode reads the library's code (else the
    #: knowledge base's holder table says it): the method and its call site.
    read: tuple[FunctionId, CallSite] | None = None


@dataclass(frozen=True)
class CallInHotCode:
    """A call the knowledge base says blocks, written in a function that runs on the loop."""

    summary: ModuleSummary
    key: FunctionId  # the function it is written in
    hot: HotInfo  # why that function runs on the loop
    site: CallSite
    api: BlockingApi
    target: str  # resolved dotted name of the callee
    #: The call reaches a client handed to a framework object: ``user`` names the holder's method
    #: called (``judge``), empty when the client's own method is called through the holder.
    handed: HandedOver | None = None
    user: str = ""
    #: The framework method called is a sync one at the project's version of the framework.
    sync: SyncMethod | None = None
    #: ``target`` is a method the receiver's class inherits: the callee named on that class (what the
    #: finding says), and the base class defining it, as exported.
    shown: str = ""
    defined: str = ""
    #: The receiver is an instance of one of several classes: the method called on each
    #: (``requests.Session.get``, ``pkg.Pages().get``), ``target`` among them; () for one class.
    members: tuple[str, ...] = ()


K = TypeVar("K")
V = TypeVar("V")


class ProjectIndex(Generic[K, V]):
    """A table over the project's own summaries (no installed module's), built in one pass the
    first time it is asked: ``rows(position, summary)`` gives a summary's (key, value) pairs, and a
    key answers its values in the summaries' order. One pass, not one per payload asked about."""

    def __init__(self, graph: CallGraph, rows: Callable[[int, ModuleSummary], Iterable[tuple[K, V]]]):
        self._graph, self._rows = graph, rows
        self._table: dict[K, list[V]] | None = None

    def __getitem__(self, key: K) -> list[V]:
        if self._table is None:
            self._table = {}
            for position, summary in self._graph.numbered_summaries():
                if summary.library is None:
                    for found, value in self._rows(position, summary):
                        self._table.setdefault(found, []).append(value)
        return self._table.get(key, [])


class CheckContext:
    def __init__(self, graph: CallGraph, texts: Mapping[str, str], config: Config, catalogue: Catalogue):
        self.graph, self.config, self.catalogue = graph, config, catalogue
        self._texts = texts
        self._lines: dict[str, list[str]] = {}
        self._calls: dict[str, list[CallInHotCode]] | None = None
        #: (path, function, line, column) -> the hot blocking call written there (:meth:`contents`).
        self._by_place: dict[tuple[str, FunctionId, int, int], CallInHotCode] | None = None
        self._handed: dict[tuple[int, int], HandedOver] | None = None
        self._runs: dict[str, list[RunByFramework]] | None = None
        self._uses: dict[str, list[CallInHotCode]] | None = None
        self._reported: dict[int, frozenset[str]] = {}
        self._callers: dict[FunctionId, list[tuple[FunctionId, CallSite]]] = {}  # see _project_callers
        self._returned: dict[FunctionId, tuple[tuple[str, str], ...]] | None = None
        #: A row's ``info`` field -> the payloads the dataset build puts there (see _row_builds).
        self._row_fields = ProjectIndex(graph, self._built_rows)
        #: A key of the rollout's state -> the evidence of each value stored there (see _state_field).
        self._state_fields = ProjectIndex(
            graph, lambda _, summary: ((field, evidence) for field, evidence in summary.state_fields)
        )
        #: A key of the rollout's state -> the payload of each value stored there (see _injected_field).
        self._stores = ProjectIndex(
            graph, lambda _, summary: ((key, (shape, word)) for key, shape, word in summary.state_payloads)
        )
        #: A function -> (line of a ``return``, a field of the display it returns or "", the field's
        #: payload) for each (see _returned_field).
        self._fields = ProjectIndex(
            graph,
            lambda position, summary: (
                (FunctionId((position, index)), (line, name, (shape, held)))
                for index, line, name, shape, held in summary.returned_fields
            ),
        )
        #: A generator -> (line of a ``yield``, "" or the element ``[i]`` of the tuple it yields, its
        #: payload) for each (see _yielded).
        self._yields = ProjectIndex(
            graph,
            lambda position, summary: (
                (FunctionId((position, index)), (line, name, (shape, held)))
                for index, line, name, shape, held in summary.yielded_fields
            ),
        )
        self._kinds: dict[str, Protocol] | None = None
        self._project_modules: frozenset[str] | None = None  # see installed
        #: (path, line of the comment, kind, the code or name as written; None for a bare ignore):
        #: the suppressions that hid a finding so far (rules that judge them run last).
        self.used_suppressions: set[tuple[str, int, str, str | None]] = set()
        #: The findings of the rules run so far, shown or not (:meth:`judged`): a rule that
        #: ``reads_findings`` runs after the others and weighs what they found (ASL120).
        self.reported: list[Finding] = []

    def overridden(self, path: str, code: str) -> Severity | None:
        """The severity the configuration of the file at ``path`` gives rule ``code``, if any."""
        return self.config.for_shown(path).severity.get(code)

    def keep(self, path: str, line: int, code: str, name: str, severity: Severity, *, bare: bool = True) -> bool:
        """The file's configuration reports the rule, at or above the threshold, and no
        suppression comment covers the line (``bare``: a bare ``# asynclint: ignore`` counts).
        A suppression that hides the finding is recorded as used, whatever the threshold."""
        if code not in self.enabled(path):
            return False
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = self._texts.get(path, "").splitlines()
        hidden = False
        for at, suppression in covering_at(lines, line):
            if suppression[1] is None and not bare:
                continue
            if mentions(suppression, code, name):
                hidden = True
                for part in naming(suppression, code, name) or (None,):
                    self.used_suppressions.add((path, at, suppression[0], part))
        return not hidden and severity >= self.config.min_severity

    def judged(self, finding: Finding, code: str, name: str) -> bool:
        """:meth:`keep` for ``finding``, which is recorded in :attr:`reported` whatever the answer: a
        suppression or the threshold hides a finding, not the cost a loop around it repeats."""
        self.reported.append(finding)
        return self.keep(finding.path, finding.line, code, name, finding.severity)

    def enabled(self, path: str) -> frozenset[str]:
        """The codes of the rules the configuration of the file at ``path`` reports."""
        scope = self.config.for_shown(path)
        if id(scope) not in self._reported:
            self._reported[id(scope)] = scope.enabled_codes()
        return self._reported[id(scope)]

    def texts(self) -> Mapping[str, str]:
        """The project's sources, by path as shown."""
        return self._texts

    def registered_apis(self, category: str) -> list[tuple[RegisteredElsewhere, BlockingApi]]:
        """The installed libraries' functions the project hands the framework to run
        (:meth:`~asynclint.analysis.api.CallGraph.registered_elsewhere`, ``ToolEnv(tools=[python])``)
        that the knowledge base files under ``category``: the framework calls them, without awaiting."""
        found = []
        for registered in self.graph.registered_elsewhere():
            api = self.catalogue.match(registered.target, None)
            api = self.catalogue.blocking(api, False, (), "") if api is not None else None
            if api is not None and api.category == category:
                found.append((registered, api))
        return found

    def hooks(self) -> Iterator[tuple[ModuleSummary, Function, Hook]]:
        """Every function of the project that is a framework hook, with its hook."""
        for position, summary in self.graph.numbered_summaries():
            if summary.library is not None:
                continue
            for function in summary.functions:
                hook = self.graph.hook_of(position, function)[0] if function.kind == "function" else None
                if hook is not None:
                    yield summary, function, hook

    def calls(self, category: str) -> list[CallInHotCode]:
        """The blocking calls of ``category`` in hot functions, project and library code."""
        if self._calls is None:
            found = [
                call
                for position, summary in self.graph.numbered_summaries()
                for call in self._calls_in(position, summary)
            ]
            blocking = {call.key for call in found}
            self._calls = {}
            for call in found:
                if all(self._member_blocks(call, member, blocking) for member in call.members):
                    self._calls.setdefault(call.api.category, []).append(call)
        return self._calls.get(category, [])

    def _member_blocks(self, call: CallInHotCode, member: str, blocking: set[FunctionId]) -> bool:
        """A method called on an instance of one of several classes, graded by the member the
        knowledge base names (``Catalogue.union_entry``), blocks whichever runs when each other
        member does too: one the knowledge base names (it gave the call an entry only then), a
        project class's method that makes a blocking call itself, or a project subclass of the
        named member's class that inherits the method."""
        if member == call.target or self.catalogue.match(member, None) is not None:
            return True
        keys = self.graph.functions_for(member)
        return blocking.issuperset(keys) if keys else self._inherits(member, call.target)

    def contents(self, opener: CallInHotCode) -> list[tuple[CallInHotCode, str]]:
        """The blocking calls that read or write the file object ``opener`` opens, in its function
        (``CallFacts.contents``), as :meth:`calls` finds them hot, each with its callee as written."""
        places = opener.site.rare.contents if opener.site.rare is not None else ()
        found = ((self._at(opener, line, col), written) for line, col, written in places)
        return [(call, written) for call, written in found if call is not None]

    def handed_texts(self, opener: CallInHotCode) -> list[tuple[CallSite, str]]:
        """The project calls ``opener``'s function hands the text read through its file object
        (``parse_log(f.read())``: ``CallFacts.contents`` no blocking call is written at), each with
        its callee as written."""
        places = {(line, col): written for line, col, written in opener.site.rare.contents} if opener.site.rare else {}
        return [
            (site, places[(site.line, site.col)])
            for site in opener.summary.calls
            if site.caller == opener.site.caller and site.api is None and (site.line, site.col) in places
        ]

    def folded(self, content: CallInHotCode) -> bool:
        """Is ``content`` I/O on a file object its function opens (``CallFacts.opened_at``), whose
        opener's finding carries it? An ``open`` tied before the graph typed its receiver
        (``cache_path(key).open()``) carries it only once it resolves to a file opener."""
        return self.folded_site(content.summary.path, content.key, content.site)

    def folded_site(self, path: str, key: FunctionId, site: CallSite) -> bool:
        """:meth:`folded` for any call ``site`` of function ``key`` in module ``path`` (a project
        parser handed the text read through the file object)."""
        at = site.rare.opened_at if site.rare is not None else None
        opener = self._place(path, key, *at) if at is not None else None
        return opener is not None and opener.api.pattern in FILE_OPENERS

    def _at(self, beside: CallInHotCode, line: int, col: int) -> CallInHotCode | None:
        """The blocking call, hot, at ``line``:``col`` of ``beside``'s function."""
        return self._place(beside.summary.path, beside.key, line, col)

    def _place(self, path: str, key: FunctionId, line: int, col: int) -> CallInHotCode | None:
        """The blocking call, hot, at ``line``:``col`` of function ``key`` in module ``path``."""
        if self._by_place is None:
            self.calls("")
            assert self._calls is not None
            self._by_place = {
                (call.summary.path, call.key, call.site.line, call.site.col): call
                for found in self._calls.values()
                for call in found
            }
        return self._by_place.get((path, key, line, col))

    def _hot_site(self, position: int, site: CallSite) -> tuple[FunctionId, HotInfo, CallSite] | None:
        """Where ``site`` runs hot: its function, or a lambda around it registered on its own."""
        key = FunctionId((position, site.caller))
        # The chain that runs the site: a function some chains pass a constant that turns the
        # site's branch off is judged by the others.
        hot = self.graph.hot_at(key, site)
        if hot is not None and site.in_loop:
            # A group call's loop over the group runs the call per rollout of the group: its frequency.
            site = site.with_facts(in_loop=self.graph.in_loop_at(key, site, hot))
        for index, in_loop in site.lambdas if self.graph.hot_info(key) is None else ():
            # A lambda handed over (a registered reward) runs the call when it runs on its own.
            key = FunctionId((position, index))
            hot = self.graph.hot_at(key, site)
            if hot is not None:
                return key, hot, site.with_facts(in_loop=in_loop)
        return (key, hot, site) if hot is not None else None

    def _calls_in(self, position: int, summary: ModuleSummary) -> Iterator[CallInHotCode]:
        graph = self.graph
        for index, site in enumerate(summary.calls):
            if site.read:
                continue  # a property read blocks only through its getter, a function of its own
            found = self._hot_site(position, site)
            if found is None:
                continue
            key, hot, site = found
            if not graph.runs(key, site):
                continue  # behind a flag every caller leaves off
            api: BlockingApi | None
            shown = defined = ""  # an inherited method called: as held, and its defining base (``_inherited``)
            # ``self.client.get`` on either of two clients a base class of another module keeps: the
            # method on each (the index wrote a union it settled itself as the site's dispatch).
            union = graph.held_union(site, FunctionId((position, site.caller)))
            if site.api is not None:
                api, target = self.catalogue.get(site.api), site.target or site.method or ""
            elif site.property_read:  # ``state["driver"].title``: its receiver typed by the project
                read = graph.call_target(site, FunctionId((position, site.caller)))
                api = self.catalogue.match_read(read)
                if api is None and read:  # the class read where deep mode found it defined
                    api = next(filter(None, map(self.catalogue.match_read, graph.exported_as(read))), None)
                target = read or ""
            elif union:
                found_target, api = self.catalogue.union_entry(union, site.awaited, site.keywords, site.argument)
                target = found_target or ""
            else:
                # Resolved only now: self attributes set in other modules' classes, and values
                # (module-level clients, factory results) defined in other modules.
                caller = FunctionId((position, site.caller))
                resolved = graph.call_target(site, caller)
                resolved = resolved and graph.resolve(resolved)
                if resolved is None or resolved == site.target:
                    api, target = self._driven_entry(position, index, site.target), site.target or ""
                    api = api or (self._model_built(site.target) if site.spread else None)
                    base = graph.built_base(target) if api is None and site.method is None else None
                    if base is not None:  # a project class with no ``__init__`` of its own: its base's runs
                        api, target = self.catalogue.match(base, None), base
                else:
                    held = graph.held_class(site, caller, resolved)
                    if held is not None:  # an inherited method: named on the class held, known by either
                        api, target, shown, defined = self._inherited(held, resolved, site.method or "")
                    else:
                        api, target = self._public_entry(resolved, site.method)
                    if api is None and site.method is None and site.origin is not None:
                        # Calling an instance typed only project-wide (``model, _ = load()``, then
                        # ``model(x)``) runs its ``__call__``, as the walk reads a call of one it typed.
                        api = self.catalogue.match(f"{resolved}.__call__", "__call__")
                        target = f"{resolved}.__call__" if api is not None else target
                    # A protocol's engine built by ``super().__init__()`` is reported where the
                    # subclass is built (``_driven_entry`` reads a subclass's construction as its own).
                    if site.self_ref is None or site.self_ref.path != (Marker.SUPER, "__init__"):
                        api = api or self._driven_entry(position, index, resolved)
            if site.stream:
                if graph.canonical(target) not in LAZY_STREAMS:
                    continue  # a read of what some other ``get_archive`` returned: no stream known
                # A stream opened by a call the walk already named (``requests.get``): its entry.
                api = api or self.catalogue.match(target, site.method)
            # An awaited call blocks only when its entry says it blocks although awaited, or when it
            # is a framework method calling a sync client handed to its object (``await rubric.judge()``).
            if api is not None:
                handed = next(filter(None, (self.handed_over(position, i) for i in site.handed)), None)
                if handed is None:
                    api = self.catalogue.blocking(api, site.awaited, site.keywords, site.argument)
                if api is not None:
                    dispatch = site.rare.dispatch if site.rare is not None else ()
                    # A method of each class a union holds (``Catalogue.union_entry``); a table's callables
                    # the index took one of (``TOOLS[name](q)``) are no receiver's classes.
                    members = union or (dispatch if site.method and site.target in dispatch else ())
                    yield CallInHotCode(
                        summary, key, hot, site, api, target, handed, shown=shown, defined=defined, members=members
                    )

    def _inherits(self, member: str, named: str) -> bool:
        """``pkg.Pooled().get`` runs ``named`` (``requests.Session.get``) when ``pkg.Pooled`` is a
        project subclass of ``requests.Session`` that does not define ``get`` itself."""
        built, _, path = member.partition("().")
        cls = named.removesuffix(f".{path}") if path else named
        ancestors = self.graph.ancestors(TypeName(built))
        return cls != named and (cls in ancestors or self.graph.canonical(cls) in ancestors)

    def _public_entry(self, name: str, method: str | None) -> tuple[BlockingApi | None, str]:
        """The entry of ``name`` (resolved) and the name it matched: ``name`` itself, or the first
        public spelling that has one (deep mode read the package exporting the class, and the
        knowledge base names it as exported)."""
        api = self.catalogue.match(name, method)
        for public in self.graph.exported_as(name) if api is None else ():
            if (api := self.catalogue.match(public, method)) is not None:
                return api, public
        return api, name

    def _inherited(self, held: str, resolved: str, method: str) -> tuple[BlockingApi | None, str, str, str]:
        """The entry of method ``resolved``, which class ``held`` inherits from a base, and the name
        it matched (what a fix rewrites, as before): the held class's own entry where the knowledge
        base has one (by its name only: a project class's method is no duck-typed entry), else the
        defining class's. Then the callee as the project holds it (``selenium.webdriver.Chrome.get``)
        and the defining class as its package exports it (``selenium.webdriver.Remote``)."""
        api, target = self._public_entry(f"{held}.{method}", None)
        if api is None:
            api, target = self._public_entry(resolved, method)
        if api is None:
            return None, resolved, "", ""
        return api, target, f"{self._exported(held)}.{method}", self._exported(resolved[: -len(method) - 1])

    def _exported(self, cls: str) -> str:
        """Library class ``cls`` as its own package exports it (``selenium.webdriver.Remote``),
        not as a project module imports it."""
        package = cls.partition(".")[0]
        return next((name for name in self.graph.exported_as(cls) if name.partition(".")[0] == package), cls)

    def _model_built(self, target: str | None) -> BlockingApi | None:
        """``model_validate``'s entry when ``target``, built from a mapping (``Model(**data)``), is
        a project pydantic model whose fields say it holds a whole history or world
        (:meth:`model`): building one validates all the mapping holds, as ``model_validate(data)``
        does. One built from values named one by one (``Ticket(messages=[first])``) is a new
        record of those pieces; a model of unknown size is built everywhere (one request, one
        record) and stays quiet; a small one is cheap."""
        if not target or not any(base in MODEL_BASES for base in self.graph.ancestors(TypeName(target))):
            return None
        size = self.graph.model_payload(TypeName(target))
        return self.catalogue.get(f"{MODEL_METHOD_PREFIX}validate") if size and size[0] == "whole" else None

    # -- objects recognised by how the project drives them ----------------------------------------

    def _driven_entry(self, position: int, index: int, target: str | None) -> BlockingApi | None:
        """The entry of call ``index`` of summary ``position`` (of ``target``) when it builds, or
        calls a method of, a class the project drives as a protocol of the knowledge base says,
        or a project subclass of one (its ``__init__`` builds the engine through the base's; a
        method it does not define is the base's)."""
        kinds = self._driven_kinds()
        if not kinds or not target:
            return None
        if self.graph.called_at(position, index):  # the project's own code: only a subclass's construction
            cls, method = target, None
            lineage = self.graph.ancestors(TypeName(cls))[1:]
        else:
            receiver, _, method = target.rpartition(".")
            cls, method = (receiver[:-2], method) if receiver.endswith("()") else (target, None)
            lineage = self.graph.ancestors(TypeName(cls))
        kind = next((kinds[ancestor] for ancestor in lineage if ancestor in kinds), None)
        return kind.entry(method) if kind is not None else None

    def _driven_kinds(self) -> dict[str, Protocol]:
        """Classes no entry names and no code the analysis reads defines -> the protocol their
        instances follow, when the project calls every method of it on them somewhere (an
        instance that is both ``reset`` and ``step``ped is a simulator), and never awaits one
        (an awaited ``step`` is a coroutine's: an async environment, not an engine on the loop).
        What a project function gives is no such class when each of its ``return``s builds one of
        the project's (``-> TrolleyRubric | NavigationRubric``)."""
        if self._kinds is None:
            methods = frozenset().union(*(protocol.methods for protocol in self.catalogue.protocols))
            driven: dict[str, set[str]] = {}
            awaited: set[str] = set()
            for position, summary in self.graph.numbered_summaries():
                for index, site in enumerate(summary.calls if summary.library is None else ()):
                    if site.method not in methods or site.read or site.property_read:
                        continue
                    if self.graph.called_at(position, index):
                        continue  # the project's own method, or a library's deep mode reads
                    target = self.graph.call_target(site, FunctionId((position, site.caller)))
                    receiver = self.graph.resolve(target).rpartition(".")[0] if target else ""
                    if not receiver.endswith("()"):
                        continue  # not called on an instance of a named class
                    cls = receiver.removesuffix("()")
                    if cls in self.catalogue.producers or self.catalogue.match(target, site.method):
                        continue  # the knowledge base describes it: its entries grade it
                    if self.graph.own_classes(receiver):
                        continue  # one of the project's classes, whichever a project function gave
                    driven.setdefault(cls, set()).add(site.method)
                    if site.awaited:
                        awaited.add(cls)
            self._kinds = {
                cls: protocol
                for cls, used in sorted(driven.items())
                for protocol in self.catalogue.protocols
                if protocol.methods <= used and cls not in awaited
            }
        return self._kinds

    # -- clients handed to the framework ---------------------------------------------------------

    def handed_over(self, position: int, index: int) -> HandedOver | None:
        """Hand-over ``index`` of summary ``position``, when what is handed is a client whose
        method the framework calls blocks."""
        if self._handed is None:
            self._handed = {}
            for at, summary in self.graph.numbered_summaries():
                for number, handoff in enumerate(summary.handoffs if summary.library is None else ()):
                    handed = self._handed_client(summary, handoff)
                    if handed is not None:
                        self._handed[(at, number)] = handed
        return self._handed.get((position, index))

    def _handed_parts(self, handoff: Handoff) -> tuple[TypeName, TypeName] | None:
        """(the class handed to, the type of what it is handed) of ``handoff``, when both are known."""
        graph = self.graph
        receiver = TypeName(graph.canonical(handoff.passed_to.removesuffix("()"))) if handoff.passed_to else None
        if (
            receiver is None
            and handoff.passed_to_self is not None
            and handoff.passed_to_self.path == (Marker.SUPER, "__init__")
        ):
            receiver = TypeName(handoff.passed_to_self.cls)  # ``super().__init__(judge_client=...)`` in a subclass
        value = graph.handed_type(handoff) if receiver is not None else None
        return (receiver, value) if receiver is not None and value is not None else None

    def _handed_client(self, summary: ModuleSummary, handoff: Handoff) -> HandedOver | None:
        parts = self._handed_parts(handoff)
        if parts is None:
            return None
        receiver, value = parts
        for ancestor in self.graph.ancestors(receiver):
            holder = client_holder(ancestor, handoff.slot)
            if holder is not None:
                callee = f"{value}.{holder.method}"
                api = self.catalogue.match(callee, holder.method.rpartition(".")[2])
                if api is None:
                    return None
                return HandedOver(summary, handoff, api, value, callee, ancestor.rpartition(".")[2], holder, receiver)
        return None

    # -- methods the framework runs itself on an object handed a client ---------------------------

    def framework_runs(self, category: str) -> list[RunByFramework]:
        """Blocking calls of ``category`` that methods the framework runs by itself make on a
        client the project handed their object: from the holder tables (``HandedClient.runs``),
        or, where deep mode reads the class handed to, from its code -- a framework hook it
        overrides calling ``self.<slot>.<method>(...)`` without awaiting. A method the project
        overrides is the project's code, checked like any other."""
        if self._runs is None:
            self._runs = {}
            for at, summary in self.graph.numbered_summaries():
                for number, handoff in enumerate(summary.handoffs if summary.library is None else ()):
                    handed = self.handed_over(at, number)
                    runs = self._table_runs(handed) if handed is not None else self._read_runs(summary, handoff)
                    for run in runs:
                        self._runs.setdefault(run.handed.api.category, []).append(run)
        return self._runs.get(category, [])

    def _method_of(self, cls: TypeName, method: str) -> FunctionId | None:
        """The function ``cls.method`` denotes, when the project or a library deep mode reads defines it."""
        target = self.graph.resolve_self(cls, (method,))
        return self.graph.function_for(target) if target else None

    def _table_runs(self, handed: HandedOver) -> Iterator[RunByFramework]:
        for method, hook in handed.holder.runs:
            key = self._method_of(handed.receiver, method)
            if key is None or self.graph.is_library(key):  # not the project's own override
                yield RunByFramework(handed, method, hook, handed.holder.runs_in_loop)

    def _read_runs(self, summary: ModuleSummary, handoff: Handoff) -> Iterator[RunByFramework]:
        graph = self.graph
        parts = self._handed_parts(handoff)
        if parts is None:
            return
        receiver, value = parts
        # The framework's hook table of the nearest framework class the receiver derives from.
        table = next((t for a in graph.ancestors(receiver) if (t := framework_class(a)) is not None), None)
        for method, hook in table.methods.items() if table is not None else ():
            key = self._method_of(receiver, method)
            if key is None or not graph.is_library(key):
                continue  # unread, or the project's own override (checked as the project's code)
            reported: set[str] = set()  # one finding per rule and method: a call in a loop first
            for site in sorted(graph.summary_of(key).calls, key=lambda site: not site.in_loop):
                if site.caller != key[1] or site.awaited:
                    continue
                # ``self.judge_client.<...>(...)``: an attribute path (left for the graph, or kept
                # when the module settled it), or -- the attribute kept from the ``__init__``
                # parameter of the slot's name -- that parameter's (PASSED_NAMES).
                path = site.self_ref.path if site.self_ref is not None else site.self_path
                passed = Rooted.read(site.target, Marker.PASSED) if not path and site.target else None
                if passed is not None and passed.path[0] == handoff.slot:
                    path = passed.path
                if len(path) < 2 or path[0] != handoff.slot:
                    continue
                callee = graph.resolve(".".join((value, *path[1:])))
                api = self.catalogue.match(callee, path[-1])
                if api is None or api.category in reported:
                    continue
                reported.add(api.category)
                holder = HandedClient(
                    owner=graph.function(key).class_qualname or "",
                    slot=handoff.slot,
                    attribute=handoff.slot,
                    method=".".join(path[1:]),
                    users=frozenset(),
                    passed=frozenset(),
                )
                owner = receiver.rpartition(".")[2]
                handed = HandedOver(summary, handoff, api, value, callee, owner, holder, receiver)
                yield RunByFramework(handed, method, hook, site.in_loop, (key, site))

    def _runs_project_code(self, site: CallSite) -> bool:
        """Whether ``self.<method>(...)`` calls a method the project defines. The framework's own
        (``JudgeRubric.judge``, unknown in plain mode, read from the installed library in deep
        mode) calls the client handed over."""
        target = self.graph.call_target(site)
        key = self.graph.function_for(target) if target else None
        return key is not None and not self.graph.is_library(key)

    def client_uses(self, category: str) -> list[CallInHotCode]:
        """Hot project calls that make the framework call a blocking client handed to it, the
        client's own call through the holder excepted (that one is a call like any other, see
        :meth:`calls`): ``rubric.judge(...)`` on the object built with the client, ``self.judge(...)``
        or ``self.judge_client.<...>`` in a subclass of the class handed it, and ``judge(...)`` or
        ``judge_client.<...>`` in a reward function registered on the holder, which gets them by
        parameter name."""
        if self._uses is None:
            self._uses = {}
            registered = self._registered_on()
            for position, summary in self.graph.numbered_summaries():
                if summary.library is not None:
                    continue
                for site in summary.calls:
                    found = None if site.read or site.property_read else self._hot_site(position, site)
                    if found is None:
                        continue
                    # One finding per call, for the first hand-over it may reach (in project order).
                    use = self._sync_use(position, summary, *found) or next(
                        self._uses_of(position, summary, *found, registered), None
                    )
                    if use is not None:
                        self._uses.setdefault(use.api.category, []).append(use)
        return self._uses.get(category, [])

    def _uses_of(
        self,
        position: int,
        summary: ModuleSummary,
        key: FunctionId,
        hot: HotInfo,
        site: CallSite,
        registered: dict[FunctionId, list[HandedOver]],
    ) -> Iterator[CallInHotCode]:
        if site.handed and site.method is not None:  # ``rubric.judge(...)``
            for index in site.handed:
                handed = self.handed_over(position, index)
                if handed is not None and site.method in handed.holder.users:
                    yield CallInHotCode(summary, key, hot, site, handed.api, handed.callee, handed, site.method)
            return
        if site.self_ref is not None and not self._runs_project_code(site):  # ``self.judge(...)``
            cls, path = site.self_ref.cls, site.self_ref.path
            candidates = [h for h in self._all_handed() if self._holds(TypeName(cls), h)]
        elif site.target is not None and (passed := Rooted.read(site.target, Marker.PASSED)) is not None:
            path = passed.path  # ``judge(...)`` in a reward
            candidates = registered.get(key, [])
        else:
            return
        for handed in candidates:
            if path == (path[0],) and path[0] in handed.holder.users:
                yield CallInHotCode(summary, key, hot, site, handed.api, handed.callee, handed, path[0])
            elif path[0] == handed.holder.attribute and len(path) > 1 and not site.awaited:
                callee = self.graph.resolve(".".join((handed.value, *path[1:])))
                api = self.catalogue.match(callee, path[-1])
                if api is not None:
                    yield CallInHotCode(summary, key, hot, site, api, callee, handed)

    def _sync_use(
        self, position: int, summary: ModuleSummary, key: FunctionId, hot: HotInfo, site: CallSite
    ) -> CallInHotCode | None:
        """``rubric.judge(...)`` or ``self.judge(...)`` (not overridden by the project) where the
        project's version of the framework defines the method sync (verifiers 0.1.2's
        ``JudgeRubric.judge``): the call blocks whatever client was handed over, and also when
        none was -- unless the one handed is not a blocking one."""
        versions = dict(self.config.framework_versions)
        if not versions:
            return None
        graph = self.graph
        if site.self_ref is not None:
            if len(site.self_ref.path) != 1 or graph.call_target(site) is not None:
                return None
            cls, method = TypeName(site.self_ref.cls), site.self_ref.path[0]
        elif site.method is not None and site.target is not None and site.target.endswith(f"().{site.method}"):
            built = graph.canonical(site.target.removesuffix(f"().{site.method}"))
            if built is None:
                return None
            cls, method = TypeName(built), site.method
        else:
            return None
        handed = [h for i in site.handed if (h := self.handed_over(position, i)) is not None]
        if site.handed and not handed:
            return None  # handed an async client (0.1.2 would not await its calls: broken, not blocking)
        if site.self_ref is not None:
            handed = [h for h in self._all_handed() if self._holds(cls, h)]
        for ancestor in graph.ancestors(cls):
            change = sync_method(ancestor.rpartition(".")[2], method, versions)
            if change is None or framework_class(ancestor) is None:
                continue
            api = self.catalogue.match(change.calls, change.calls.rpartition(".")[2])
            if api is None:
                return None
            callee = handed[0].callee if handed else change.calls
            return CallInHotCode(summary, key, hot, site, api, callee, handed[0] if handed else None, method, change)
        return None

    def _all_handed(self) -> list[HandedOver]:
        self.handed_over(0, 0)
        return list(self._handed.values()) if self._handed else []

    def _holds(self, cls: TypeName, handed: HandedOver) -> bool:
        """May ``self`` in a method of ``cls`` hold what ``handed`` hands over? When the object built
        is an instance of ``cls`` (or of a subclass), or -- handed to ``super().__init__`` in a
        class -- when ``cls`` is that class, one of its bases or one of its subclasses."""
        if cls in self.graph.ancestors(handed.receiver):
            return True
        return handed.handoff.passed_to is None and handed.receiver in self.graph.ancestors(cls)

    def _registered_on(self) -> dict[FunctionId, list[HandedOver]]:
        """Functions registered on an object holding a handed client (``rubric.add_reward_func(f)``,
        ``JudgeRubric(funcs=[f], judge_client=...)``, ``self.add_reward_func(self.f)`` in a
        subclass of the class handed it) -> those hand-overs."""
        graph = self.graph
        found: dict[FunctionId, list[HandedOver]] = {}
        for position, summary in graph.numbered_summaries():
            for ref in summary.refs if summary.library is None else ():
                if ref.offloaded or graph.registration(ref) is None:
                    continue
                handed = [h for i in ref.handed if (h := self.handed_over(position, i)) is not None]
                if ref.passed_to_self is not None:
                    handed += [h for h in self._all_handed() if self._holds(TypeName(ref.passed_to_self.cls), h)]
                if not handed:
                    continue
                keys: Sequence[FunctionId]
                if ref.function is not None:
                    keys = [FunctionId((position, ref.function))]
                else:
                    owner = ref.self_ref
                    denoted = ref.target if owner is None else graph.resolve_self_ref(owner)
                    keys = graph.functions_denoted(denoted)
                for function in keys:
                    found.setdefault(function, []).extend(h for h in handed if h not in found.get(function, []))
        return found

    # -- answers rules share -----------------------------------------------------------------------

    def model(self, api: BlockingApi, target: str) -> tuple[str, str, str] | None:
        """(class, evidence, field) for a pydantic method (``*.model_dump``) of a project class."""
        if not api.pattern.startswith(MODEL_METHOD_PREFIX):
            return None
        owner = target.rpartition(".")[0].removesuffix("()")
        built_from, _, builder = owner.rpartition(".")
        if builder in MODEL_BUILDERS:  # ``Model.model_validate(d).model_dump()``: a ``Model``
            owner = built_from.removesuffix("()")
        size = self.graph.model_payload(TypeName(owner)) if owner else None
        if size is None and target:  # the model's own construction (:meth:`_model_built`)
            owner, size = target, self.graph.model_payload(TypeName(target))
        return (owner, *size) if size is not None else None

    def state_model(self, api: BlockingApi, key: FunctionId, site: CallSite) -> tuple[str, str, str] | None:
        """(class, evidence, field) for a pydantic method of the rollout's ``state`` (``state.model_dump()``,
        ``trace.state``, a tool server's ``self.state``) in a class that names the project's model of it
        in its generic arguments (:meth:`~asynclint.analysis.api.CallGraph.state_model`): that model's
        fields size it, as :meth:`model` sizes a receiver the project types."""
        shape, word = site.payload
        if not api.pattern.startswith(MODEL_METHOD_PREFIX) or shape not in ("name", "attr"):
            return None
        if not named_state(word):
            return None
        cls = self.graph.state_model(key)
        size = self.graph.model_payload(TypeName(cls)) if cls else None
        return (cls, *size) if cls and size is not None else None

    def unpacked_model(self, site: CallSite) -> tuple[str, str, str] | None:
        """(class, evidence, field) when the payload of ``site`` is a mapping the function unpacks into
        a project class (``WorldState(**data)``, CallFacts.unpacked) whose fields say how large it is:
        the mapping holds those fields, as an instance does (:meth:`model`)."""
        if not site.unpacked:
            return None
        cls = self.graph.resolve(site.unpacked)
        size = self.graph.model_payload(TypeName(cls))
        return (cls, *size) if size is not None else None

    def default_off(self, key: FunctionId, site: CallSite, chain: tuple[ChainLink, ...]) -> str:
        """The test that keeps the call ``site`` (in ``key``, reached along ``chain``) from running
        while the instances on the way keep their defaults (``if self.log_trajectories == "none":
        return`` before the call, or before a call of the helper it is in): a feature off by
        default. "" when every step runs with the defaults."""
        graph = self.graph
        found = graph.default_off(key, site)
        # Each link between the root's and the call's own is a call into the next link's function.
        for link, callee in zip(chain[1:-1], chain[2:], strict=False):
            if found:
                break
            caller = graph.key_of(link.path, link.function)
            if caller is None:
                continue
            found = next(
                (
                    off
                    for target, step in graph.callees(caller)
                    if step.line == link.line
                    and graph.function(target).qualname == callee.function
                    and (off := graph.default_off(caller, step))
                ),
                "",
            )
        return found

    def passed_payload(self, key: FunctionId, site: CallSite) -> str | None:
        """What the payload of ``site`` (written in project function ``key``) is evidence of, when
        it is a parameter of ``key``: the framework hook's parameter it holds (traced up the calls
        that pass it on as it is), or "" when some caller passes anything else. ``None`` when the
        name alone says: not a parameter, or a parameter of an entry point (what the framework
        passes a hook under a name is what the name says)."""
        if self.graph.summary_of(key).library is not None:
            return None
        if not site.payload_param:
            return self._injected_field(key, site.payload) or self._handed_field(key, site.payload)
        name = site.payload[1]
        passed = self._passed(key, name, frozenset())
        if passed != name and passed == self._framework_handed(key, name):
            return FRAMEWORK_HANDED + passed  # the hook's own parameter, sized by the framework's call
        return passed

    def handed_whole(self, key: FunctionId, site: CallSite) -> list[tuple[FunctionId, CallSite, tuple[str, str]]]:
        """The hot project calls of ``key`` that hand the parameter the payload of ``site`` is a whole
        payload where they are written (``_count_tokens(full_history)`` in a rollout's set-up, for
        the helper's ``text``): each with the function it is written in and the payload it hands.
        The parameter is as large as the largest of them on the chains through those calls, whatever
        its name says (:meth:`passed_payload` reads it by its name when no caller proves more, as
        tokens15 measured it should). Empty for an entry point's parameter (the framework's value). A
        payload that is one slot of the parameter (``snapshot[1]``, CallFacts.item_of) is that slot of the
        tuple a project function returns where the caller hands its result."""
        graph = self.graph
        item = (site.rare or NO_FACTS).item_of
        if not (site.payload_param or item) or graph.summary_of(key).library is not None:
            return []
        name, function = item[0] if item else site.payload[1], graph.function(key)
        callers = [(caller, call) for caller, call in self._project_callers(key) if graph.hot_info(caller) is not None]
        if name not in function.params or graph.is_root(key) and not all(call.consumer for _, call in callers):
            return []
        slots = function.slots(name)
        return [
            (caller, call, ("name", local) if local else (shape, word))
            for caller, call in callers
            for slot, shape, word, local in (call.rare or NO_FACTS).large_args
            if slot in slots and self._handed_size(caller, (shape, word, local), item) == "whole"
        ]

    def _handed_size(self, caller: FunctionId, handed: tuple[str, str, str], item: tuple[str, ...]) -> str | None:
        """How large what ``caller`` hands is (``handed``: shape, word, local), or, for a payload that is
        the slot ``item[1]`` of the parameter, that slot of the tuple a project function returns there."""
        shape, word, local = handed
        if not item:
            return self._settled(caller, shape, word, local)
        return self._returned_field(word, f"[{item[1]}]") if shape == "returned" else None

    def _settled(self, key: FunctionId, shape: str, word: str, local: str) -> str:
        """How large a payload of shape ``shape`` and word ``word`` written in ``key`` (bound to the
        name ``local``, or "") is, as a call's own payload is settled there: a project function's result
        by its returns, a key of the rollout's state by what the project stores there, else (or where
        those say nothing) by the names: the local's, else the payload's own."""
        if shape == "returned":
            settled: str | None = self._returns(word, frozenset(), key)
        elif STATE_KEY in word and shape in ("key", "each", "display"):
            settled = self._state_payload(shape, word)
        else:
            settled = None
        if settled not in (None, "unknown"):
            return settled
        return payload_evidence("name", local) if local else payload_evidence(shape, word)

    def _handed_field(self, key: FunctionId, payload: tuple[str, str]) -> str | None:
        """:data:`HANDED_SMALL` when the payload is a field of a parameter of ``key``
        (``params.json_string``, ``submission.affected_models``) that every caller proves small (one
        tool call's arguments, one reply): a part of a small value is small. ``None`` otherwise (the
        field's name decides, as before)."""
        shape, word = payload
        param, _, field = word.partition(".")
        if shape != "key" or not field or param not in self.graph.function(key).params:
            return None
        origin = self._passed(key, param, frozenset())
        return HANDED_SMALL if origin and payload_evidence("name", origin) == "small" else None

    def _injected_field(self, key: FunctionId, payload: tuple[str, str]) -> str | None:
        """:data:`HANDED_SMALL` when the payload is a field of a tool's parameter (``_scenario.gmail_messages``)
        that ``update_tool_args`` injects from a key of the rollout's state, that key is set from a field
        of the row's info, and every function that builds that field returns the field as a small
        value (``_generate_scenario``'s literal records): the project's generator sizes it. ``None``
        when a link is missing (the key's name decides, as before)."""
        shape, word = payload
        param, _, field = word.partition(".")
        graph = self.graph
        if shape != "key" or not field or not graph.is_tool(key) or param not in graph.function(key).params:
            return None
        source = graph.injected.get(param, "")
        state = Rooted.read(source, Marker.STATE)
        if state is None:
            return None
        stored = set(self._stores[".".join(state.path)])
        rows = {word for shape, word in stored if shape == "key" and word.startswith(f"{INFO_COLUMN}.")}
        if len(rows) != 1 or len(stored) != 1:
            return None  # set from something else too: not only the row's field
        built = self._row_builds(next(iter(rows)))
        sizes = [self._returned_field(held, field) if shape == "returned" else None for shape, held in built]
        return HANDED_SMALL if sizes and all(size == "small" for size in sizes) else None

    def _returned_field(self, word: str, field: str) -> str | None:
        """How large ``field`` of the dict display the function in a ``returned`` payload's ``word``
        returns is: the largest over every such ``return``; ``None`` when one returns no such field."""
        keys = self._functions_called(returned_callee(word)[0])
        sizes: set[str] = set()
        for function in keys:
            returns: dict[int, dict[str, tuple[str, str]]] = {}  # line of each ``return`` -> its display's fields
            for line, name, payload in self._fields[function]:
                fields = returns.setdefault(line, {})
                if name:
                    fields[name] = payload
            if not returns or any(field not in fields for fields in returns.values()):
                return None  # a ``return`` without the field (or of something else)
            sizes.update(
                self._returns(value, frozenset()) if shape == "returned" else payload_evidence(shape, value)
                for shape, value in (fields[field] for fields in returns.values())
            )
        return min(sizes, key=SIZE_ORDER.index) if sizes else None

    def _passed(self, key: FunctionId, name: str, seen: frozenset[tuple[FunctionId, str]]) -> str:
        graph = self.graph
        callers = self._project_callers(key)
        # What the hot path hands the parameter is what its hot callers hand: a call at start-up (a
        # dataset build parsing a column with the same helper) runs before any rollout.
        callers = [(caller, site) for caller, site in callers if graph.hot_info(caller) is not None] or callers
        # A coroutine the project starts as a task (``gather(*[run(i, x) for ...])``) is a root, but
        # what it is handed is what those calls hand it, not a framework's value of that name.
        spawned = bool(callers) and all(site.consumer for _, site in callers)
        if graph.is_root(key) and not spawned:
            framework_word = self._framework_handed(key, name)
            if framework_word is not None:
                return framework_word  # what the framework's own call hands that parameter
            if graph.is_tool(key) and name not in graph.injected and payload_evidence("name", name) != "whole":
                # What the model wrote for one tool call (``update_tool_args`` may inject others).
                return HANDED_SMALL
            if graph.is_tool(key) and self._injected_size(name) == "small":
                return HANDED_SMALL  # what ``update_tool_args`` injects there, proven small where it is built
            return name
        if not callers or (key, name) in seen or len(seen) > 8:
            return ""  # called the way nothing here shows, or a cycle handing it round
        function = graph.function(key)
        if name not in function.params:
            return ""
        slots = function.slots(name)
        origins: set[str] = set()
        for caller, site in callers:
            if any(slot in site.small_args for slot in slots):
                origins.add(HANDED_SMALL)  # the caller hands it one reply, one tool call's arguments...
                continue
            if _left_to_default(site, slots, function):
                # ``_store.request("GET", reference)``: the parameter keeps its constant default (split 26
                # fhir helpers.py:258, beside the tool that hands its parsed argument, environment.py:71)
                origins.add(HANDED_SMALL)
                continue
            handed = dict(site.passed_params)
            passed = next((handed[slot] for slot in slots if slot in handed), None)
            if caller == key and passed == name:
                continue  # a recursion handing the parameter (or a part of it) back: what the others hand
            if passed is None:
                origin = self._built(caller, site, slots)
                if not origin and caller == key and not _hands_large(site, slots):
                    # A recursion handing a part of what it was handed (a transaction's entries, each
                    # ``entry.get("resource")`` executed again: split 26 store.py:506), or anything else
                    # nothing here proves large: what the other callers hand decides.
                    continue
            else:
                origin = self._passed(caller, passed, seen | {(key, name)})
            if not origin:
                return ""
            origins.add(origin)
        if not origins:
            return ""  # only called by itself
        # The largest of what the callers hand: whole if one is, small only if every one is.
        return min(origins, key=lambda origin: (SIZE_ORDER.index(payload_evidence("name", origin)), origin))

    def _framework_handed(self, key: FunctionId, name: str) -> str | None:
        """The framework's word for what it hands the parameter ``name`` of the root ``key`` (a hook
        whose table says: ``call_tool``'s parameters are one tool call), ``None`` when it does not say
        or says what the name already does."""
        hot, function = self.graph.hot_info(key), self.graph.function(key)
        if hot is None or hot.root != key or name not in function.params:
            return None
        word = handed_by_framework(hot.root_hook, function.argument_position(name))
        # A name that already says as much is the author's word for the same value (``is_completed``'s
        # ``messages`` of 0.1.x, where the table's ``*`` says ``state``): the message keeps it.
        if word is None or payload_evidence("name", name) == payload_evidence("name", word):
            return None
        return word

    def _built(self, caller: FunctionId, site: CallSite, slots: tuple[str, str]) -> str:
        """:data:`HANDED_UNSIZED` when the call ``site`` in ``caller`` hands the parameter in ``slots`` what a
        project function returns (``tokens(serialize(notes))``) and its returns settle it neither small nor
        whole, :data:`HANDED_LONG` when it hands a text holding a reasoning trace; "" otherwise: the parameter's
        name decides (a whole one is :meth:`handed_whole`'s chain). A key of the rollout's state handed as it is
        stays read by the name (the framework's keys are what they are called: ``named_params.py``, tokens15)."""
        for slot, shape, word, local in (site.rare or NO_FACTS).large_args:
            if slot in slots and shape == "returned" and self._settled(caller, shape, word, local) == "unknown":
                return HANDED_UNSIZED
            if slot in slots and sized_by_name(word.rpartition(".")[2]) and payload_evidence(shape, word) == "unknown":
                return HANDED_LONG  # ``_count_tokens(content + reasoning)``: a reasoning trace, not a short ``text``
        return ""

    def _injected_size(self, name: str) -> str | None:
        """How large what ``update_tool_args`` passes tools as ``name`` is, joined over every place
        that injects it (small only if every one is): a state key read by what the project stores
        there, a row's info field by what the dataset build writes. ``None`` when nothing injects it."""
        payloads = self.graph.injected_payloads.get(name)
        if not payloads:
            return None
        sizes = set()
        for shape, word in payloads:
            if STATE_KEY in word and shape in ("key", "each", "display"):
                size = self._state_payload(shape, word)
            elif shape == "key" and word.partition(".")[0] == INFO_COLUMN:
                size = self._row_field(word)
            else:
                size = None
            sizes.add(size or payload_evidence(shape, word))
        return min(sizes, key=SIZE_ORDER.index)

    def installed(self, site: CallSite) -> bool:
        """Does the directory walk ``site`` go over an installed tree: site-packages or the
        interpreter's prefix, or the location of a module that is not one of the project's?"""
        located = site.installed
        if located in ("", INSTALLED_PREFIX):
            return located == INSTALLED_PREFIX
        if self._project_modules is None:
            self._project_modules = frozenset(
                summary.module for _, summary in self.graph.numbered_summaries() if summary.library is None
            )
        return located not in self._project_modules and not any(
            module.startswith(f"{located}.") for module in self._project_modules
        )

    def returned_payload(self, key: FunctionId, site: CallSite) -> str | None:
        """What the payload of ``site`` (written in project function ``key``) is evidence of when it
        is what a project function returns (``json.loads(self._last_json(text))``): settled from that
        function's ``return`` statements, joined (whole if one is, small only if every one is; a
        parameter returned is as small as what this call hands it, and a parameter of ``key`` handed
        on is what ``key``'s callers hand). ``None`` when the payload is no such value."""
        shape, word = site.payload
        if shape in ("key", "name") and word.partition(".")[0] == INFO_COLUMN:
            # a local bound to something untraced (``obs, reward, done, info = game.step(a)``) is not the row's
            return self._row_field(word) if shape == "key" or site.payload_param else None
        if STATE_KEY in word and shape in ("key", "each", "display"):
            return self._state_payload(shape, word)
        if shape == "display" and RETURNED_SLOTS in word:
            # ``{"turns": recorded(state)}``: whole when what a function it holds returns is; a return the graph
            # cannot size leaves the display as its names say (an id or a name a helper makes is a short string)
            sizes = [self._returns(part, frozenset(), key) for part in word.split() if RETURNED_SLOTS in part]
            return "whole" if "whole" in sizes else None
        return self._returns(word, frozenset(), key) if shape == "returned" else None

    def returned_growth(self, key: FunctionId, site: CallSite) -> str:
        """What the payload of ``site`` (written in ``key``) says of its growth when it holds what a project
        function returns: ``tokens`` when one of that function's ``return`` statements holds a prompt's token
        list (``prompt_ids``: ``**_tok_kwargs(tokens)``; one turn's field, the whole prompt at that turn),
        ``growing`` when one returns a whole payload that grows every turn (``return state["messages"]``: the
        history, as read directly), "" otherwise."""
        shape, word = site.payload
        if shape not in ("returned", "display"):
            return ""
        returned = self._project_returns()
        growth = ""
        for part in word.split():
            callee = returned_callee(part)[0] if RETURNED_SLOTS in part else ""
            for function in self._functions_called(callee):
                for held, words in returned.get(function, ()):
                    if any(token_list(name) for name in words.split()):
                        return "tokens"
                    if held not in ("returned", "param") and any(_grows_whole(held, name) for name in words.split()):
                        growth = "growing"
        return growth

    def _state_payload(self, shape: str, word: str) -> str | None:
        """How large a payload holding keys of the rollout's state is, from what the project stores
        under them (:meth:`_state_field`); a key nothing traceable fills is read by its name. A
        display is whole if one thing it holds is, else small (as ``payload_evidence`` reads one)."""
        parts = word.split() if shape == "display" else [word]
        stored = {part: self._state_field(part.removeprefix(STATE_KEY)) for part in parts if part.startswith(STATE_KEY)}
        if not any(stored.values()):
            return None  # nothing the project stores says more than the names
        sizes = [stored.get(part) or payload_evidence("name", part) for part in parts]
        if shape == "display":
            return "whole" if "whole" in sizes else "small"
        return sizes[0]

    def _state_field(self, key: str) -> str | None:
        """How large what the project stores under the rollout state's ``key`` is (ModuleSummary.state_fields),
        joined over every write: small only if every one is, whole if one is. ``None`` when no write
        proves either (the key's name decides). A value a project function returns (``state["test_output"] =
        await self.run_tests(state)``) is whole when the graph settles its ``return``s so (a file's contents)."""
        returned = [self._returns(word, frozenset()) for shape, word in self._stores[key] if shape == "returned"]
        written = [*self._state_fields[key], *(size for size in returned if size == "whole")]
        if not written or "unknown" in written and "whole" not in written:
            return None
        return "whole" if "whole" in written else "small"

    def _row_field(self, word: str) -> str | None:
        """How large a row's ``info`` (or its field ``info.<key>``) is, from what the project's dict
        displays put there (ModuleSummary.row_fields), joined: small only if every one is. ``None``
        when the project builds none (the dataset comes from elsewhere: its name decides). A display
        written in code the rollouts run is a record of a step (``{"reward": r, "info": info}`` of a
        game's ``step``), not a dataset row: the dataset is built before any rollout."""
        built = [
            self._returns(held, frozenset()) if shape == "returned" else _built_evidence(shape, held)
            for shape, held in self._row_builds(word)
        ]
        size = min(built, key=SIZE_ORDER.index) if built else None
        column, dot, _ = word.partition(".")
        if size == "unknown" and dot and any(shape == LARGE_COLUMN for shape, _ in self._row_builds(column)):
            return "whole"  # a field of a column the build casts to a large type: its author says the values are big
        return size

    def _row_builds(self, word: str) -> list[tuple[str, str]]:
        """What the project's dataset build puts in a row's ``info`` (or its field ``info.<key>``):
        the payloads of :meth:`_row_field`, from code no rollout runs."""
        return self._row_fields[word]

    def _built_rows(self, position: int, summary: ModuleSummary) -> Iterator[tuple[str, tuple[str, str]]]:
        """The rows of :attr:`_row_fields` in ``summary``: each field a display puts in a row's ``info``
        in code no rollout runs, with its payload."""
        for field, shape, held, function in summary.row_fields:
            if self.graph.hot_info(FunctionId((position, function))) is None:
                yield field, (shape, held)

    def _returns(self, word: str, seen: frozenset[FunctionId], caller: FunctionId | None = None) -> str:
        """How large what the call in ``word`` (written in ``caller``, when known) returns is."""
        graph = self.graph
        callee, field = returned_callee(word)
        if field is not None and (yielded := self._yielded(callee, field, seen)) is not None:
            return yielded
        slots, _, passed = word.partition(RETURNED_SLOTS)[2].partition(RETURNED_SLOTS)
        small = frozenset(slots.split(",")) - {""}
        # the caller's own parameters handed on: as small as what the caller's callers hand, if they prove it
        handed = dict(item.split("=", 1) for item in passed.split(",") if item) if caller is not None else {}
        keys = self._functions_called(callee)
        returned = self._project_returns()
        if not keys or len(seen) > 8 or any(key in seen or key not in returned for key in keys):
            return "unknown"  # a library's function, one that returns nothing, or a recursion
        evidence: set[str] = set()
        for key in keys:
            function = graph.function(key)
            for shape, name in returned[key]:
                if shape == "param":
                    param_slots = function.slots(name) if name in function.params else (name,)
                    param = next((handed[slot] for slot in param_slots if handed.get(slot)), "")
                    origin = self._passed(caller, param, frozenset()) if caller is not None and param else ""
                    # only proven small counts: a hook's ``completion`` returned by a helper may be one reply
                    handed_small = bool(origin) and payload_evidence("name", origin) == "small"
                    evidence.add("small" if small.intersection(param_slots) or handed_small else "unknown")
                elif shape == "returned":
                    evidence.add(self._returns(name, seen | {key}, key))
                else:
                    evidence.add(payload_evidence(shape, name))
        return min(evidence, key=SIZE_ORDER.index)

    def _yielded(self, callee: str, field: str, seen: frozenset[FunctionId]) -> str | None:
        """How large ``field`` ("": all) of one item the generator ``callee`` yields is, joined over every
        ``yield`` (unknown where one yields no such element); ``None`` when ``callee`` yields nothing
        (a function that returns: one item of what it returns is read from its returns)."""
        keys = self._functions_called(callee)
        if len(seen) > 8 or any(key in seen for key in keys):
            return "unknown"  # a recursion
        sizes: set[str] = set()
        for key in keys:
            yields: dict[int, dict[str, tuple[str, str]]] = {}  # line of each ``yield`` -> its item and elements
            for line, name, payload in self._yields[key]:
                yields.setdefault(line, {})[name] = payload
            for held in yields.values():
                shape, value = held.get(field, ("", ""))
                sizes.add(self._returns(value, seen | {key}) if shape == "returned" else payload_evidence(shape, value))
        return min(sizes, key=SIZE_ORDER.index) if sizes else None

    def _functions_called(self, callee: str) -> Sequence[FunctionId]:
        """The project functions the callee of a ``returned`` payload names: a dotted name, or a
        method called on ``self`` (``SelfMethod``) resolved on its class; [] for "" or a library's."""
        if (on_self := SelfMethod.read(callee)) is not None:
            callee = self.graph.resolve_self(TypeName(on_self.cls), (on_self.method,)) or ""
        return self.graph.functions_denoted(callee) if callee else ()

    def _project_returns(self) -> dict[FunctionId, tuple[tuple[str, str], ...]]:
        """Project functions -> the payloads their ``return`` statements give."""
        if self._returned is None:
            self._returned = {
                FunctionId((position, index)): payloads
                for position, summary in self.graph.numbered_summaries()
                if summary.library is None
                for index, payloads in summary.returned
            }
        return self._returned

    def _project_callers(self, key: FunctionId) -> list[tuple[FunctionId, CallSite]]:
        """Every project call of project function ``key`` (no installed module's, no read of a
        property, no call of a blocking API), with the function it is written in."""
        found = self._callers.get(key)
        if found is None:
            graph = self.graph
            found = self._callers[key] = [
                (caller, site)
                for caller, site in graph.calls_of(key)
                if site.api is None and not site.property_read and not graph.is_library(caller)
            ]
        return found


def knowledge_of(api: BlockingApi) -> Knowledge:
    """Which knowledge says the call blocks (deep mode is settled by the caller)."""
    if api.source.startswith("discovered:"):
        return "discovered"  # a sync/async twin found in installed source (asynclint.twin_discovery)
    return "configuration" if api.severity is not None or api.pattern not in BUILTIN_PATTERNS else "catalogue"


def _left_to_default(site: CallSite, slots: tuple[str, ...], function: Function) -> bool:
    """Does the call ``site`` of ``function`` pass nothing in ``slots`` (the parameter's keyword and
    position), no ``*``/``**`` spread either, so that the parameter holds its constant default?"""
    given = dict(site.given)
    return "*" not in given and not any(slot in given for slot in slots) and slots[0] in dict(function.defaults)


def _hands_large(site: CallSite, slots: tuple[str, ...]) -> bool:
    """Does the call ``site`` hand one of ``slots`` a payload its text proves whole, or one whose size
    the graph settles (CallFacts.large_args)?"""
    return any(slot in slots for slot, *_ in (site.rare or NO_FACTS).large_args)


#: Payload shapes sized by a name alone (a local, a key, an attribute, a loop's item).
_NAMED_SHAPES = frozenset({"name", "key", "attr", "each"})


def _built_evidence(shape: str, held: str) -> str:
    """The evidence of what a dataset build puts in a row's field. A builder handles one record of
    the source data at a time, so a name that says a rollout-sized payload there (a record's
    ``question_turns``, its ``messages``) names the record's own fixed part, not a history that grows:
    it proves nothing (unknown) until the structure does (a file read whole, a display of small parts)."""
    evidence = payload_evidence(shape, held)
    return "unknown" if evidence == "whole" and shape in _NAMED_SHAPES else evidence


def _grows_whole(shape: str, name: str) -> bool:
    """Is ``name``, held by a returned payload of ``shape``, a whole payload that grows every turn (the
    history, the trajectory: :func:`asynclint.knowledge.costs.grows`)? Not a ``state``: one a helper returns
    is an object's own as often as the rollout's (main text_quests textquests_core.py:630, ``get_state()``
    returning a game's deep-copied state, the same size every turn: labelled critical, a whole payload per turn)."""
    whole = payload_evidence("name" if shape == "display" else shape, name) == "whole"
    return whole and grows(name) and not named_state(name)
