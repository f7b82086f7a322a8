"""The clients a project hands the framework: which hand-overs give the framework a blocking client, the
methods the framework runs by itself on the object holding one, and the project's calls that make the
framework call it. Part of :class:`asynclint.rules.context.CheckContext`, which rules ask."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from asynclint.analysis.api import CallGraph, FunctionId, TypeName
from asynclint.analysis.graph_records import HotInfo
from asynclint.analysis.index.records import CallSite, Handoff, ModuleSummary
from asynclint.analysis.index.values import Marker, Rooted
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import HandedClient, client_holder, framework_class, sync_method
from asynclint.rules.hotcalls import CallInHotCode, HandedOver, RunByFramework

if TYPE_CHECKING:  # the configuration names rules, which import this module
    from asynclint.config import Config


class FrameworkHandoffs:
    """The hand-over answers of :class:`~asynclint.rules.context.CheckContext` (a part of it), each
    table built the first time it is asked."""

    graph: CallGraph
    catalogue: Catalogue
    config: Config
    _handed: dict[tuple[int, int], HandedOver] | None
    _runs: dict[str, list[RunByFramework]] | None
    _uses: dict[str, list[CallInHotCode]] | None

    if TYPE_CHECKING:  # CheckContext's: where a call runs hot

        def _hot_site(self, position: int, site: CallSite) -> tuple[FunctionId, HotInfo, CallSite] | None: ...

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
