"""What a rule asks when it checks a project: the hot functions' blocking calls, the framework
hooks, the objects handed to the framework, and whether a finding is kept (threshold,
suppressions). Computed once per project and shared by every rule."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from asynclint.analysis.api import CallGraph, FunctionId, TypeName
from asynclint.analysis.graph_records import HotInfo, RegisteredElsewhere
from asynclint.analysis.index.records import CallSite, Function, ModuleSummary
from asynclint.analysis.index.values import INSTALLED_PREFIX, Marker
from asynclint.knowledge.api import Protocol
from asynclint.knowledge.blocking import (
    ARCHIVE_OPENERS,
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
    Hook,
)
from asynclint.knowledge.streams import LAZY_STREAMS
from asynclint.model import ChainLink, Finding, Knowledge, Severity
from asynclint.rules.handoffs import FrameworkHandoffs
from asynclint.rules.hotcalls import CallInHotCode, HandedOver, RunByFramework
from asynclint.rules.provenance import MODEL_METHOD_PREFIX, PayloadProvenance
from asynclint.suppressions import covering_at, mentions, naming

if TYPE_CHECKING:  # the configuration names rules, which import this module
    from asynclint.config import Config

BUILTIN_PATTERNS = frozenset(api.pattern for api in BUILTIN_APIS)


class CheckContext(FrameworkHandoffs, PayloadProvenance):
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
        return opener is not None and (
            opener.api.pattern in FILE_OPENERS
            or opener.api.pattern in ARCHIVE_OPENERS  # (only its members that touch its file alone are tied)
            or opener.site.method in BUFFER_FLUSHES
        )

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
                if api.typed_only and self._project_method(position, site):
                    api = None  # a catch-all by method name (``*.to_csv``) is no project method's entry
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
                    if api is None and site.target is None and site.method is None and site.dispatch:
                        api, target = self._dispatched_entry(site.dispatch)
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

    def _project_method(self, position: int, site: CallSite) -> bool:
        """Does the graph resolve ``site`` to a function the project defines (not an installed one)?"""
        resolved = self.graph.call_target(site, FunctionId((position, site.caller)))
        return any(not self.graph.is_library(key) for key in self.graph.functions_for(resolved))

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

    def _dispatched_entry(self, items: tuple[str, ...]) -> tuple[BlockingApi | None, str]:
        """The entry of the first item of a dispatch table that the graph settles to a catalogued
        library callable, and its name: ``{"left": self._sandbox.left_click, ...}[button](x, y)``
        on a sandbox an annotation types runs ``e2b_desktop.Sandbox.left_click`` (the walk, which
        cannot type ``self._sandbox``, matched only the items it could name); never a project
        function's, which the graph follows instead."""
        graph = self.graph
        for item in items:
            resolved = graph.resolve(item)
            if resolved != item and all(graph.is_library(key) for key in graph.functions_for(resolved)):
                api, name = self._public_entry(resolved, None)
                if api is not None:
                    return api, name
        return None, ""

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
