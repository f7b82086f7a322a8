"""Rules about CPU work written in the project's own code, which no catalogue entry names: a loop nest
over the data, a bounded loop, a walk a helper is handed -- graded by its cost class and how often its
function runs, the fix moving the function's call off the loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from asynclint.analysis.api import CallGraph, FunctionId
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite, ModuleSummary, Place
from asynclint.grading import CallEvidence, grade
from asynclint.knowledge.costs import COST_CLASSES
from asynclint.knowledge.frameworks import (
    EXAMPLE_FREQUENCY,
    cached_frequency,
    result_unawaited,
)
from asynclint.model import Finding, FixRequest, Severity
from asynclint.rules import phrasing
from asynclint.rules.base import Rule, where_facts
from asynclint.rules.context import CheckContext


class OwnWorkRule(Rule):
    """A rule about CPU work written in the project's own code (a loop nest over the data, a bounded
    loop), which no catalogue entry names: the finding sits on the code itself, graded by its cost
    class and how often its function runs, and the fix moves the function's call off the loop."""

    def own_work_finding(
        self,
        ctx: CheckContext,
        key: FunctionId,
        at: Place,
        end: tuple[int, int],
        cost_name: str,
        looped: bool,
        evidence: str,
        *,
        base: Severity | None = None,
        repeats: bool = False,
    ) -> Finding | None:
        """The finding on the code starting at ``at`` (a loop or a nest of hot function ``key``: the
        chain's last link) and ending at ``end``, judged by the chains that take it (the flag tests
        around it), before the file's configuration says whether it is shown; ``None`` when no chain
        takes it or start-up runs the function first (the rollouts find it done). ``looped``: a
        loop around the call of ``key`` on the chain raises the grade. ``base``: the grade of one
        iteration's cost where the cost class's own is not it (ASL120: the awaited coroutine's worst
        blocking call); ``repeats``: the code at ``at`` is itself a loop repeating that cost."""
        graph = ctx.graph
        hot = graph.hot_at(key, at)
        if hot is None:
            return None
        path = graph.path_of(key)
        first_call = graph.first_call_entry(key, at, hot)
        keyed = graph.keyed_frequency(key, at, hot) if first_call is not None else ""
        cached_by = first_call if keyed else None
        if keyed:
            first_call = None  # behind a cache keyed by the rollout's value: it misses once per example or rollout
        if first_call is not None and graph.warmed(key, at, hot):
            return None
        base = ctx.overridden(path, self.code) or base or COST_CLASSES[cost_name].severity
        assert base is not None  # the rules' own cost classes are all reported
        in_loop = (repeats or (looped and hot.in_loop)) and first_call is None
        frequency = cached_frequency(hot.root_hook.frequency, keyed)  # the cache hits within the example or rollout
        graded = grade(base, cost_name, frequency, in_loop, first_call is not None)
        chain = graph.chain(key, at, hot)
        named = cached_by if graded.frequency == EXAMPLE_FREQUENCY else first_call
        facts = replace(
            where_facts(graph, key, hot, graded, chain, named, dict(ctx.config.framework_versions)),
            cost=cost_name,
            evidence=evidence,
            knowledge="code",
        )
        # The work is the function's own code: what can move is the call of the function (or of a
        # sync function on the way to it) from the nearest `async def` (fixers/project.py), or
        # from a sync root the framework awaits, made `async def` (not the root's own work: no
        # call of it is written); for work reported at the call handing it its payload (ASL117,
        # ASL119), that call itself when an `async def` makes it.
        placement = graph.placement(key, hot)
        unawaited = result_unawaited(hot.root_hook, dict(ctx.config.framework_versions))
        request = (
            FixRequest("call", "process-pool", facts.function, placement)
            if placement == "helper"
            else FixRequest("call", "process-pool", facts.function, placement, not unawaited, unawaited)
            if placement == "root" and hot.parent is not None
            else FixRequest("call", "process-pool", at.target or "", placement)
            if placement == "direct" and isinstance(at, CallSite)
            else None
        )
        return Finding(
            path=path,
            line=at.line,
            column=at.col,
            end_line=end[0],
            end_column=end[1],
            code=self.code,
            rule=self.name,
            severity=graded.severity,
            message=self.message.format(
                what=COST_CLASSES[cost_name].what,
                where=phrasing.where(facts, graph.memoized(key)),
                evidence=facts.evidence,
            ),
            chain=chain,
            facts=facts,
            fix_request=request,
        )


def slot_of(graph: CallGraph, key: FunctionId, param: str) -> int | None:
    """The position a call passes ``param`` of ``key`` at (a method's receiver not counted): for the
    rules grading a helper's own loop by what each hot call hands one of its parameters (ASL117, ASL119)."""
    function = graph.function(key)
    if param not in function.params:
        return None
    return function.argument_position(param)


def hands(site: CallSite, slot: int, param: str) -> bool:
    """Is the payload recorded for ``site`` (its first argument) the one it passes ``param`` (at ``slot``)?"""
    if not site.given:
        return False
    first = site.given[0][0]
    return first == param or (first == "0" and slot == 0)


#: How many project functions passing a parameter on as it is (``top_chunks(text)`` handing ``text`` to
#: ``chunk_text``) a loop's parameter is followed up through, as a text walk follows a local's bindings.
PASSED_ON_DEPTH = 4


def passed_on(graph: CallGraph, key: FunctionId, param: str) -> Iterator[tuple[FunctionId, str]]:
    """``(key, param)``, then each hot project function that passes one of its own parameters on as it is
    to a function yielded before, in that function's slot (``top_chunks(text)`` -> ``chunk_text(text)``),
    with that parameter: what a hot call hands it is what the loop of ``key`` goes over. Up to
    :data:`PASSED_ON_DEPTH` calls up; a recursion or a cycle handing it round adds nothing."""
    seen = {(key, param)}
    level = [(key, param)]
    yield key, param
    for _ in range(PASSED_ON_DEPTH):
        following = []
        for holder, held in level:
            slot = slot_of(graph, holder, held)
            if slot is None:
                continue
            slots = (str(slot), held)
            for caller, site in graph.hot_callers(holder):
                passed = dict(site.passed_params)
                own = next((passed[s] for s in slots if s in passed), None)
                if own is None or (caller, own) in seen or own not in graph.function(caller).params:
                    continue
                seen.add((caller, own))
                following.append((caller, own))
                yield caller, own
        level = following


class HandedLoopRule(OwnWorkRule):
    """A rule about a project function's loop over one of its parameters, whose cost is what the
    function's hot callers hand that parameter (ASL117's text walk, ASL119's item-by-item dump): each
    hot call handing it is graded by its payload's evidence, one finding per place, the costliest. A
    project function passing one of its parameters on to it as it is hands the loop what its own hot
    callers hand that parameter (:func:`passed_on`)."""

    def handed_loops(self, summary: ModuleSummary) -> Iterator[tuple[WorkLoop, str]]:
        """The loops of ``summary`` this rule grades, each with the parameter it goes over."""
        raise NotImplementedError

    def handed_finding(
        self,
        ctx: CheckContext,
        key: FunctionId,
        loop: WorkLoop,
        caller: FunctionId,
        site: CallSite,
        evidence: CallEvidence,
        through: FunctionId,
    ) -> Finding | None:
        """The finding on ``loop`` (in ``key``) when ``site`` (in ``caller``, hot) hands the parameter
        what ``evidence`` says, or ``None`` when that is not proven large enough: ``site`` calls
        ``through``, ``key`` itself or a function passing the parameter on to it."""
        raise NotImplementedError

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        graph = ctx.graph
        kept: dict[tuple[str, int], Finding] = {}
        for position, summary in graph.numbered_summaries():
            if summary.library is not None:
                continue
            for loop, param in self.handed_loops(summary):
                key = FunctionId((position, loop.function))
                for through, held in passed_on(graph, key, param):
                    self._graded_calls(ctx, key, loop, through, held, kept)
        for found in kept.values():
            if ctx.judged(found, self.code, self.name):
                yield found

    def _graded_calls(
        self,
        ctx: CheckContext,
        key: FunctionId,
        loop: WorkLoop,
        through: FunctionId,
        param: str,
        kept: dict[tuple[str, int], Finding],
    ) -> None:
        """Grade ``loop`` (in ``key``) at each hot call of ``through`` handing its parameter ``param``,
        into ``kept`` (the costliest finding per place)."""
        graph = ctx.graph
        slot = slot_of(graph, through, param)
        if slot is None:
            return
        for caller, site in graph.hot_callers(through):
            if caller == through or not hands(site, slot, param):
                continue
            hot = graph.hot_at(caller, site)
            if hot is None:
                continue
            evidence = CallEvidence(
                payload=site.payload,
                frequency=hot.root_hook.frequency,
                passed=ctx.passed_payload(caller, site),
                bound_at=site.payload_at,
                returned=ctx.returned_payload(caller, site),
            )
            found = self.handed_finding(ctx, key, loop, caller, site, evidence, through)
            if found is None:
                continue
            place = (found.path, found.line)
            if place not in kept or found.severity > kept[place].severity:
                kept[place] = found
