"""ASL120: a loop over the rollout's data awaits a project coroutine that blocks, on every iteration."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from asynclint.analysis.api import CallGraph, FunctionId
from asynclint.analysis.awaited_loops import over_one_reply
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite
from asynclint.knowledge.costs import COST_CLASSES, FEW
from asynclint.knowledge.frameworks import RARE_ROOT_FREQUENCIES
from asynclint.model import Finding, RelatedLocation, Severity
from asynclint.rules.context import CheckContext
from asynclint.rules.ownwork import OwnWorkRule

#: Frequencies at which a blocking call is not every iteration's cost: a first call's, a failing one's.
_RARE = RARE_ROOT_FREQUENCIES | {"first-call", "failure"}


class LoopAwaitsBlocking(OwnWorkRule):
    """A loop over the rollout's data awaits a coroutine of the project that blocks the loop, once per item.

    **Why is this bad?**
    Awaiting a coroutine does not make its body non-blocking: a project `async def` that parses
    with sympy, reads a file or replays a board holds the event loop for as long as that work
    takes, and hands it back only at its next real `await`. A loop that awaits it for every item
    of a collection the code does not bound -- a list-shaped final answer's candidates, the
    rollout's messages, a row's test cases, or `asyncio.gather` of one such coroutine per item,
    which runs them on the same loop one after another -- repeats that stall once per item: the
    loop is where the cost multiplies, and where a maintainer changes it (fewer items, or the
    whole check in a worker). The rule reports the loop's header, graded as the worst blocking
    call the awaited coroutine runs (found by the other rules, at its one-call grade) raised one
    level for the repetition, and names the coroutine and that call; the call itself keeps its
    one-call grade, unless it repeats on its own. Not reported: a loop the code bounds to a few
    items (a literal list of three candidates), a hook the framework itself runs once per item
    (`call_tool` for each tool call of a reply: its calls are graded per tool call already), a
    per-turn hook's loop over its reply's tool calls (`for call in messages[-1]["tool_calls"]`: each
    iteration is one tool call, and the turn's frequency already raised the coroutine's calls; one
    nested in a loop over every message is reported), a coroutine whose blocking work runs in a worker
    (`asyncio.to_thread`, `run_in_executor`: it yields), one that only awaits (its waits hand the
    loop back), a loop over a group reward's rollouts (graded as the group's), a `while` loop (it
    goes over no collection: a server's next request, a rollout's own next turn, each iteration an
    event graded at that event's frequency), the pieces of one reply, start-up code.

    A suppression comment, the severity threshold or a rule switched off in the configuration
    (`ignore`, `select`) hides a finding, as `# noqa` and `--ignore` do in ruff: it does not change
    what the analysis sees. The coroutine's call still costs what it costs, so a
    loop around it is reported even when that call's own finding is suppressed (`# asynclint:
    ignore[ASL112]` says one call is acceptable, not that a loop may repeat it for every item);
    suppress ASL120 at the loop's header when the repetition is acceptable too.

    **Example**
    ```python
    from sympy.parsing.sympy_parser import parse_expr


    async def equivalent(expected: str, predicted: str) -> bool:
        return parse_expr(expected).equals(parse_expr(predicted))


    async def any_item_matches(completion, answer, **kwargs) -> float:
        for message in completion:
            if await equivalent(answer, message["content"]):
                return 1.0
        return 0.0
    ```

    **Use instead**
    ```python
    import asyncio

    from sympy.parsing.sympy_parser import parse_expr


    def equivalent(expected: str, predicted: str) -> bool:
        return parse_expr(expected).equals(parse_expr(predicted))


    async def any_item_matches(completion, answer, **kwargs) -> float:
        for message in completion:
            if await asyncio.to_thread(equivalent, answer, message["content"]):
                return 1.0
        return 0.0
    ```

    **Fix**
    Run the blocking part of the coroutine in a worker (`await asyncio.to_thread(f, ...)`, a
    process pool for CPU work), or check fewer items (stop at the first match, cap the list).
    The fixers offload the blocking call itself, where its own finding sits; there is no fix at the
    loop.
    """

    code = "ASL120"
    name = "loop-awaits-blocking"
    default_severity = Severity.MEDIUM
    reads_findings = True
    message = "a loop that awaits a blocking coroutine once per item, on the event loop {where}: {evidence}"

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        graph = ctx.graph
        blocking = _blocking_by_function(ctx.reported)
        for position, summary in graph.numbered_summaries():
            if summary.library is not None or not summary.work_loops:
                continue
            for index in sorted({loop.function for loop in summary.work_loops}):
                key = FunctionId((position, index))
                hot = graph.hot_info(key)
                if hot is None or not graph.function(key).is_async:
                    continue
                worst: dict[int, tuple[Finding, FunctionId, CallSite]] = {}
                for callee, site in graph.callees(key):
                    number = _repeating_loop(graph, key, callee, site, hot.root_hook.frequency)
                    if number < 0 or set(summary.work_loops[number].over) & set(hot.group):
                        continue
                    found = _worst(graph, callee, blocking)
                    if found is not None and (number not in worst or _rank(found) > _rank(worst[number][0])):
                        worst[number] = (found, callee, site)
                for number, (found, callee, site) in sorted(worst.items()):
                    finding = self._finding(ctx, key, summary.work_loops[number], found, callee, site)
                    if finding is not None and ctx.keep(
                        finding.path, finding.line, self.code, self.name, finding.severity
                    ):
                        yield finding

    def _finding(
        self, ctx: CheckContext, key: FunctionId, loop: WorkLoop, worst: Finding, callee: FunctionId, site: CallSite
    ) -> Finding | None:
        coroutine = ctx.graph.function(callee).qualname
        awaits = "gathers one per item of" if site.consumer is not None else "awaits"
        evidence = (
            f"`{loop.header}` {awaits} `{coroutine}`, which runs `{worst.facts.callee}` on the loop "
            f"({worst.path}:{worst.line}, {_one_call_words(worst)})"
        )
        finding = self.own_work_finding(
            ctx,
            key,
            loop,
            (loop.line, loop.col + len(loop.header)),
            worst.facts.cost,
            False,
            evidence,
            base=_one_call(worst),
            repeats=True,
        )
        if finding is None:
            return None
        related = RelatedLocation(
            worst.path,
            worst.line,
            f"`{worst.facts.callee}` blocks here, in `{worst.facts.function}`, run by `{coroutine}`",
        )
        return replace(
            finding,
            facts=replace(finding.facts, callee=coroutine),
            related=(*finding.related, related),
            fix_request=None,
        )


def _blocking_by_function(reported: list[Finding]) -> dict[tuple[str, str], list[Finding]]:
    """The findings on blocking calls and the project's own work that a loop would repeat, by the
    function (path, qualified name) they sit in: every iteration pays them."""
    found: dict[tuple[str, str], list[Finding]] = {}
    for finding in reported:
        cost = COST_CLASSES.get(finding.facts.cost)
        if cost is None or "loop" not in cost.raised_by or finding.facts.frequency in _RARE:
            continue
        found.setdefault((finding.path, finding.facts.function), []).append(finding)
    return found


def _repeating_loop(graph: CallGraph, key: FunctionId, callee: FunctionId, site: CallSite, frequency: str) -> int:
    """The loop of ``key`` (run at its root's ``frequency``) that awaits (or gathers) the project
    coroutine ``callee`` once per item of data the code does not bound to a few, on top of that
    frequency: its index into the summary's ``work_loops``, else -1."""
    if not site.in_loop or not (site.awaited or site.consumer is not None):
        return -1
    if graph.is_library(callee) or not graph.function(callee).is_async:
        return -1
    hook, _ = graph.hook_of(callee[0], graph.function(callee))
    if hook is not None:
        return -1  # a hook the framework runs per item (``call_tool``, per tool call): graded so already
    number = graph.loop_around(key, site)
    if number < 0:
        return -1
    loop = graph.summary_of(key).work_loops[number]
    if loop.header.startswith("while") or loop.cut:
        # A ``while`` goes over no collection: it waits on a condition (a server's next request, a
        # rollout's own next turn), each iteration an event graded at that event's frequency. The
        # pieces of one text are one reply's few.
        return -1
    if over_one_reply(loop, frequency):
        return -1  # a per-turn hook's loop over its reply's tool calls: per tool call, raised per turn already
    trips = graph.trips(key, loop)
    return -1 if trips is not None and trips <= FEW else number


def _worst(graph: CallGraph, start: FunctionId, blocking: dict[tuple[str, str], list[Finding]]) -> Finding | None:
    """The costliest finding in ``start`` or a project function it runs on the loop (awaited or
    called), by its one-call grade."""
    seen, queue = {start}, [start]
    found: list[Finding] = []
    while queue:
        key = queue.pop()
        found.extend(blocking.get((graph.path_of(key), graph.function(key).qualname), ()))
        for callee, _ in graph.callees(key):
            if callee not in seen and not graph.is_library(callee):
                seen.add(callee)
                queue.append(callee)
    return max(found, key=_rank, default=None)


def _one_call(finding: Finding) -> Severity:
    """The grade of one run of the finding's call: its grade without a raise for repetition (a
    raise is one level, and only a grade below critical is raised: ``grading.grade``)."""
    if finding.facts.escalation:
        return Severity(max(finding.severity - 1, Severity.LOW))
    return finding.severity


def _one_call_words(finding: Finding) -> str:
    """The finding's one-call grade in words, and what raised its own grade above it, if anything:
    ``high for one call, critical: runs per turn``."""
    one = _one_call(finding)
    if one == finding.severity:
        return f"{one.label} for one call"
    return f"{one.label} for one call, {finding.severity.label}: {finding.facts.escalation}"


def _rank(finding: Finding) -> tuple[int, bool, str, int]:
    """Costlier first; of equal cost, one that does not repeat on its own, then the first written."""
    return (_one_call(finding), not finding.facts.escalation, finding.path, -finding.line)
