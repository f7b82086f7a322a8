"""What a rule asks when it checks a project: the hot functions' blocking calls, the framework
hooks, the objects handed to the framework, and whether a finding is kept (threshold,
suppressions). Computed once per project and shared by every rule."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from asynclint.hotpaths import FuncKey, HotInfo, ProjectGraph
from asynclint.index import SUPER, CallSite, Function, Handoff, ModuleSummary
from asynclint.knowledge.blocking import BUILTIN_APIS, BlockingApi
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import CLIENT_HANDOFFS, Hook, framework_class, root_awaited
from asynclint.model import Severity
from asynclint.suppressions import covering, mentions

if TYPE_CHECKING:  # the configuration names rules, which import this module
    from asynclint.config import Config

BUILTIN_PATTERNS = frozenset(api.pattern for api in BUILTIN_APIS)
#: pydantic's methods, matched on any receiver: graded by the model's own fields when it is the project's.
MODEL_METHOD_PREFIX = "*.model_"


@dataclass(frozen=True)
class CallInHotCode:
    """A call the knowledge base says blocks, written in a function that runs on the loop."""

    summary: ModuleSummary
    key: FuncKey  # the function it is written in
    hot: HotInfo  # why that function runs on the loop
    site: CallSite
    api: BlockingApi
    target: str  # resolved dotted name of the callee


@dataclass(frozen=True)
class HandedOver:
    """An object handed to the framework, which then calls a blocking method on it."""

    summary: ModuleSummary
    handoff: Handoff
    api: BlockingApi
    value: str  # the object's type
    callee: str  # what the framework calls on it
    owner: str  # the framework class it is handed to
    note: str  # how often the framework calls it


class CheckContext:
    def __init__(self, graph: ProjectGraph, texts: Mapping[str, str], config: Config, catalogue: Catalogue):
        self.graph, self.config, self.catalogue = graph, config, catalogue
        self._texts = texts
        self._lines: dict[str, list[str]] = {}
        self._calls: dict[str, list[CallInHotCode]] | None = None
        self._handoffs: dict[str, list[HandedOver]] | None = None
        self._reported: dict[int, frozenset[str]] = {}

    def overridden(self, path: str, code: str) -> Severity | None:
        """The severity the configuration of the file at ``path`` gives rule ``code``, if any."""
        return self.config.for_shown(path).severity.get(code)

    def keep(self, path: str, line: int, code: str, name: str, severity: Severity) -> bool:
        """The file's configuration reports the rule, at or above the threshold, and no
        suppression comment covers the line."""
        if severity < self.config.min_severity:
            return False
        scope = self.config.for_shown(path)
        if id(scope) not in self._reported:
            self._reported[id(scope)] = frozenset(rule.code for rule in scope.enabled_rules())
        if code not in self._reported[id(scope)]:
            return False
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = self._texts.get(path, "").splitlines()
        return not any(mentions(suppression, code, name) for suppression in covering(lines, line))

    def hooks(self) -> Iterator[tuple[ModuleSummary, Function, Hook]]:
        """Every function of the project that is a framework hook, with its hook."""
        for position, summary in enumerate(self.graph.summaries):
            if summary.library is not None:
                continue
            for function in summary.functions:
                hook = self.graph.hook_of(position, function)[0] if function.kind == "function" else None
                if hook is not None:
                    yield summary, function, hook

    def calls(self, category: str) -> list[CallInHotCode]:
        """The blocking calls of ``category`` in hot functions, project and library code."""
        if self._calls is None:
            self._calls = {}
            for position, summary in enumerate(self.graph.summaries):
                for call in self._calls_in(position, summary):
                    self._calls.setdefault(call.api.category, []).append(call)
        return self._calls.get(category, [])

    def _calls_in(self, position: int, summary: ModuleSummary) -> Iterator[CallInHotCode]:
        graph = self.graph
        for site in summary.calls:
            if site.awaited or site.read:
                continue  # a property read blocks only through its getter, a function of its own
            key: FuncKey = (position, site.caller)
            hot = graph.hot.get(key)
            for index, in_loop in site.lambdas if hot is None else ():
                # A lambda handed over (a registered reward) runs the call when it runs on its own.
                key, hot = (position, index), graph.hot.get((position, index))
                if hot is not None:
                    site = replace(site, in_loop=in_loop)
                    break
            if hot is None:
                continue
            if site.api is not None:
                api, target = self.catalogue.get(site.api), site.target or site.method or ""
            else:
                # Resolved only now: self attributes set in other modules' classes, and values
                # (module-level clients, factory results) defined in other modules.
                resolved = graph.call_target(site)
                resolved = resolved and graph.resolve(resolved)
                if resolved is None or resolved == site.target:
                    continue
                api, target = self.catalogue.match(resolved, site.method), resolved
            if api is not None:
                yield CallInHotCode(summary, key, hot, site, api, target)

    def handoffs(self, category: str) -> list[HandedOver]:
        """Objects handed to the framework whose blocking method is of ``category``."""
        if self._handoffs is None:
            self._handoffs = {}
            for summary in self.graph.summaries:
                for handoff in summary.handoffs if summary.library is None else ():
                    used = self._handoff_use(summary, handoff)
                    if used is not None:
                        self._handoffs.setdefault(used.api.category, []).append(used)
        return self._handoffs.get(category, [])

    def _handoff_use(self, summary: ModuleSummary, handoff: Handoff) -> HandedOver | None:
        graph = self.graph
        receiver = handoff.passed_to
        if receiver is None and handoff.passed_to_self is not None and handoff.passed_to_self[1] == (SUPER, "__init__"):
            receiver = handoff.passed_to_self[0]  # ``super().__init__(judge_client=...)`` in a subclass
        value = graph.handed_type(handoff) if receiver is not None else None
        if value is None:
            return None
        for ancestor in graph.ancestors(receiver):
            owner = ancestor.rpartition(".")[2]
            use = CLIENT_HANDOFFS.get((owner, handoff.slot))
            if use is not None and framework_class(ancestor) is not None:
                method, note = use
                callee = f"{value}.{method}"
                api = self.catalogue.match(callee, method.rpartition(".")[2])
                return HandedOver(summary, handoff, api, value, callee, owner, note) if api is not None else None
        return None

    # -- answers rules share -----------------------------------------------------------------------

    def placement(self, key: FuncKey) -> str | None:
        """Where a fix can take a call in ``key`` off the loop: ``direct`` (in ``async def``),
        ``helper`` (an ``async def`` up the chain calls the sync function), ``root`` (the chain
        starts at a sync callable the framework awaits), or ``None``."""
        graph = self.graph
        if graph.function(key).is_async:
            return "direct"
        if any(graph.function(step).is_async for step, _ in graph.path(key)[:-1]):
            return "helper"
        return "root" if root_awaited(graph.hot[key].root_hook) else None

    def model(self, api: BlockingApi, target: str) -> tuple[str, str, str] | None:
        """(class, evidence, field) for a pydantic method (``*.model_dump``) of a project class."""
        if not api.pattern.startswith(MODEL_METHOD_PREFIX):
            return None
        owner = target.rpartition(".")[0].removesuffix("()")
        size = self.graph.model_payload(owner) if owner else None
        return (owner, *size) if size is not None else None


def knowledge_of(api: BlockingApi) -> str:
    """Which knowledge says the call blocks (deep mode is settled by the caller)."""
    if api.source.startswith("discovered:"):
        return "discovered"  # a sync/async twin found in installed source (asynclint.twin_discovery)
    return "configuration" if api.severity is not None or api.pattern not in BUILTIN_PATTERNS else "catalogue"
