"""What a rule asks when it checks a project: the hot functions' blocking calls, the framework
hooks, the objects handed to the framework, and whether a finding is kept (threshold,
suppressions). Computed once per project and shared by every rule."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from asynclint.analysis.api import CallGraph, FunctionId, TypeName
from asynclint.analysis.graph_records import HotInfo, RegisteredElsewhere
from asynclint.analysis.index.records import CallSite, Function, Handoff, ModuleSummary
from asynclint.analysis.index.values import INSTALLED_PREFIX, Marker, Rooted
from asynclint.knowledge.api import Protocol
from asynclint.knowledge.blocking import (
    BUFFER_FLUSHES,
    BUILTIN_APIS,
    FILE_OPENER_METHODS,
    FILE_OPENERS,
    OPENED_BY_USE,
    BlockingApi,
)
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.costs import MODEL_BASES
from asynclint.knowledge.frameworks import (
    HandedClient,
    Hook,
    SyncMethod,
    client_holder,
    framework_class,
    sync_method,
)
from asynclint.knowledge.streams import LAZY_STREAMS
from asynclint.model import ChainLink, Finding, Knowledge, Severity
from asynclint.rules.provenance import MODEL_METHOD_PREFIX, PayloadProvenance
from asynclint.suppressions import covering_at, mentions, naming

if TYPE_CHECKING:  # the configuration names rules, which import this module
    from asynclint.config import Config

BUILTIN_PATTERNS = frozenset(api.pattern for api in BUILTIN_APIS)


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


class CheckContext(PayloadProvenance):
    def __init__(self, graph: CallGraph, texts: Mapping[str, str], config: Config, catalogue: Catalogue):
        super().__init__(graph)
        self.config, self.catalogue = config, catalogue
        self._texts = texts
        self._lines: dict[str, list[str]] = {}
        self._calls: dict[str, list[CallInHotCode]] | None = None
        #: (path, function, line, column) -> the hot blocking call written there (:meth:`contents`).
        self._by_place: dict[tuple[str, FunctionId, int, int], CallInHotCode] | None = None
        self._handed: dict[tuple[int, int], HandedOver] | None = None
        self._runs: dict[str, list[RunByFramework]] | None = None
        self._uses: dict[str, list[CallInHotCode]] | None = None
        self._reported: dict[int, frozenset[str]] = {}
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
            if site.caller == opener.site.caller
            and site.api is None
            and site.payload[0] == "read"  # (not a call on a content call's result at its place: ``.hexdigest()``)
            and (site.line, site.col) in places
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
        return opener is not None and (opener.api.pattern in FILE_OPENERS or opener.site.method in BUFFER_FLUSHES)

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
                    api = api or self._opened_by_use(summary, site)
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

    def _opened_by_use(self, summary: ModuleSummary, site: CallSite) -> BlockingApi | None:
        """A file opener's entry for an ``open`` whose receiver nothing types (a library the project does
        not install) when a catalogued reader or writer is handed its object (``hashlib.file_digest(f)``):
        its object is a file's (:data:`~asynclint.knowledge.blocking.OPENED_BY_USE`)."""
        if site.method not in FILE_OPENER_METHODS or site.rare is None or not site.rare.contents:
            return None
        places = {(line, col) for line, col, _ in site.rare.contents}
        if not any(
            each.caller == site.caller and each.api is not None and (each.line, each.col) in places
            for each in summary.calls
        ):
            return None
        return self.catalogue.get(OPENED_BY_USE)

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


def knowledge_of(api: BlockingApi) -> Knowledge:
    """Which knowledge says the call blocks (deep mode is settled by the caller)."""
    if api.source.startswith("discovered:"):
        return "discovered"  # a sync/async twin found in installed source (asynclint.twin_discovery)
    return "configuration" if api.severity is not None or api.pattern not in BUILTIN_PATTERNS else "catalogue"
