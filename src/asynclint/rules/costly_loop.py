"""ASL116: a loop of the project's own Python whose bounded work per call is large, on the loop."""

from __future__ import annotations

from collections.abc import Iterator

from asynclint.analysis.api import CallGraph, FunctionId
from asynclint.analysis.graph_records import Estimate
from asynclint.analysis.index.loops import WorkLoop
from asynclint.knowledge.costs import ARRAY_LIBRARIES, CEILING_WORK_COST, WORK_GRADES, work_cost
from asynclint.model import Finding, Severity
from asynclint.rules import phrasing
from asynclint.rules.context import CheckContext
from asynclint.rules.ownwork import OwnWorkRule


class CostlyLoop(OwnWorkRule):
    """A loop the code bounds repeats the project's own copies and calls on the loop (a search, a simulation).

    **Why is this bad?**
    No knowledge base names an environment's own simulation or search, yet it holds the loop as
    long as any library call: a metric that copies a puzzle and applies a move for each of 24
    first moves and each of 24 replies makes 576 copies and moves, tens of milliseconds in
    CPython; a tower-defence round simulated tick by tick up to `max_ticks_per_round=500`, over
    every tower and every enemy, costs milliseconds each turn. The rule estimates each project
    function's work per call from its loops' trip counts -- `range(N)` of a literal, a module
    constant or a setting the module gives a literal (`max_ticks_per_round=500`, a config dict's
    key, a parameter's default), shifted by a step or two (`range(steps + 1)`), a loop over a
    module-constant tuple (its length, also across modules and for a constant built by a
    comprehension over others), `range(start, end)` of two parameters that every call passes as a
    start and the start plus such a count (`end = start + self.window_days`), the combinations,
    permutations or product of such items (`combinations(CARDS, 6)`: n choose k), a `while` loop
    counting up to such a bound, a `while` loop advancing a clock by a step the module fixes up to a
    limit it fixes (`time += STEP` to `TIME_LIMIT`: the limit over the step, at most), a conditional
    of two counts (`range(1 if cw else 4)`, taken at the larger and said as "up to"); nested loops
    multiply -- times the work of each iteration:
    copies of containers (`dict(state)`, a `.copy()`, `copy.copy`; `copy.deepcopy` weighs more),
    regex passes over a text (`re.search(p, text)`, a compiled pattern's `finditer`: each weighs a
    pass over one model reply, so a table of ~50 patterns run over the reply is a few hundred µs),
    calls into numpy (each ~1 µs of allocation and checks on small arrays, dozens of Python calls)
    and calls, a call of a project function weighing that function's estimate (estimates compose
    across functions and modules). A loop whose count the code does not bound is counted once, so the
    estimate is a lower bound. The outermost bounded loop of a hot function is reported when its
    estimate reaches 0.1 ms per call: low below 1 ms, medium below 25 ms, high above (the unit
    costs and cut-offs are measured by `bench/bench_loop_work.py`; a clock loop whose body breaks
    when its outcome is decided is graded at most medium, its full count a ceiling that real runs
    leave at a fifth: `bench/bench_integrator_loop.py`), raised by repetition like other
    CPU work (per turn, per tool call) but not by a loop around the call: a loop the code bounds
    counts the work in its own estimate, and an unknown count is not guessed large. Work run back
    to back for every rollout of a group -- by a sync reward, or in a group reward's (or a rubric's
    `score_group`'s) loop over the group's lists (`for state in states`, also in a helper the lists
    are handed to) -- is one stall of the estimate times the group's size: the environment's
    `[tool.verifiers.eval] rollouts_per_example` (its pyproject.toml, as `vf-eval` reads it), else
    the largest `rollouts_per_example` the project gives a literal (`load_environment`'s default),
    else verifiers' default of 3 -- and, as run repeatedly, its grade rises one level like per-turn
    work.
    Settings are the environment's own (read from `self` or a module constant), never a key of the
    data handed in (`info["n"]` is one task's size). A loop behind a flag test is judged by the
    call chains that pass the flag so that it runs. The message says what the
    estimate is made of: the copies, regex passes and numpy calls among it and the counts that
    multiply its heaviest part. Not reported: a loop whose body awaits (it hands the event loop
    back on every iteration; a bounded loop inside it is judged on its own), a function whose every
    hot call is written inside a reported loop of its caller (that finding's estimate counts it as
    often as it runs), a loop over a few constants calling cheap code, loops over data whose size
    the code does not fix (a rollout's growing collections are ASL115's), start-up code.

    **Example**
    ```python
    MOVES = tuple((face, turn) for face in "ABCDEFGHIJKL" for turn in ("cw", "ccw"))


    class Puzzle:
        def __init__(self, cells: list[int]):
            self.cells = cells

        def copy(self) -> "Puzzle":
            return Puzzle(list(self.cells))

        def turned(self, move: tuple[str, str]) -> "Puzzle":
            after = self.copy()
            for _ in range(5):
                after.cells.append(after.cells.pop(0))
            return after


    def best_reply(puzzle: Puzzle) -> int:
        return max(sum(puzzle.turned(move).cells[:5]) for move in MOVES)


    async def lookahead(state, **kwargs) -> float:
        puzzle = state["puzzle"]
        return float(max(best_reply(puzzle.turned(move)) for move in MOVES))
    ```

    **Use instead**
    ```python
    import asyncio
    from concurrent.futures import ProcessPoolExecutor

    MOVES = tuple((face, turn) for face in "ABCDEFGHIJKL" for turn in ("cw", "ccw"))
    POOL = ProcessPoolExecutor(max_workers=2)


    def lookahead_value(cells: list[int]) -> float:
        ...  # the same search, in a top-level function a worker process runs


    async def lookahead(state, **kwargs) -> float:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(POOL, lookahead_value, list(state["puzzle"].cells))
    ```
    or search less (cache the values per state, prune the replies), or keep the state in arrays a
    C library updates in one call.

    **Fix**
    Move the search or the simulation into a top-level function run in a `ProcessPoolExecutor`
    (a worker thread frees the loop but not the GIL), cache what repeats across calls, or shrink
    the loop. `asynclint fix --unsafe-fixes` does the first where an `async def` on the chain calls
    a sync top-level function on the way to the loop, as for ASL115: that call becomes `await
    loop.run_in_executor(pool, f, ...)` with a module-level `ProcessPoolExecutor` (unsafe:
    arguments and result are pickled, and what the function changes stays in the worker). It
    declines for methods and local functions, and where no `async def` is on the chain.
    """

    code = "ASL116"
    name = "costly-loop"
    default_severity = Severity.LOW
    costs = ("cpu-work-light", "cpu-work", "cpu-work-heavy")
    #: The function holding the loop, called from an ``async def``, goes to a process pool (as ASL115's).
    recipes = ("process-pool",)
    message = "a loop that {what}, on the event loop {where}: {evidence}"

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        graph = ctx.graph
        found: dict[FunctionId, list[Finding]] = {}
        covered: dict[FunctionId, set[int]] = {}  # loops reported, and the loops inside them
        for position, summary in graph.numbered_summaries():
            if summary.library is not None or not summary.work_loops:
                continue
            nested = {(nest.line, nest.col) for nest in summary.nests}  # ASL115's
            for index in sorted({loop.function for loop in summary.work_loops}):
                key = FunctionId((position, index))
                if graph.hot_info(key) is None:
                    continue
                inside = covered.setdefault(key, set())
                for number, loop, estimate in graph.loop_work(key):
                    if loop.parent in inside:
                        inside.add(number)
                        continue
                    if graph.trips(key, loop) is None or (loop.line, loop.col) in nested:
                        continue  # unknown counts are not guessed; a nest over the data is ASL115's
                    if graph.awaits_in(key, loop):
                        continue  # it yields on each iteration: a loop inside it may still hold the loop
                    finding = self._finding(ctx, key, loop, estimate)
                    if finding is not None:
                        inside.add(number)
                        found.setdefault(key, []).append(finding)
        # A loop covers what it runs whether or not its own finding is shown (a suppression, the
        # threshold): its work is the caller's to move, however the caller's line is configured.
        for key, findings in found.items():
            if _folded(graph, key, covered):
                continue
            for finding in findings:
                if ctx.judged(finding, self.code, self.name):
                    yield finding

    def _finding(self, ctx: CheckContext, key: FunctionId, loop: WorkLoop, estimate: Estimate) -> Finding | None:
        """The finding on ``loop`` before the file's configuration has its say (:meth:`check` asks)."""
        hot = ctx.graph.hot_at(key, loop)
        # Run back to back for every rollout of a group, the stall is the group's: the estimate times
        # the group's size sizes it. The grade still rises for the group, as for every frequent
        # chain: the same loop reached per turn and from a group is one state of the graph, so a
        # group is never graded under a turn.
        group = ctx.graph.group_size() if hot is not None and hot.root_hook.frequency == "group" else None
        size = group.count if group is not None else 1
        cost_name = work_cost(estimate.micros * size)
        if cost_name is None:
            return None
        evidence = describe(loop, estimate)
        if loop.ceiling and _above(cost_name, CEILING_WORK_COST):
            cost_name = CEILING_WORK_COST  # a run that decides its outcome leaves well before the count
            evidence += " (the full count is a ceiling: the loop breaks when its outcome is decided)"
        if group is not None and size > 1:
            evidence += f"; ~{estimate.micros * size / 1000:.1f} ms for {phrasing.group_size(group)}, back to back"
        # Not raised by a loop around the call: a loop the code bounds counts this work in its own
        # estimate (reported there when large), and an unknown count is not guessed large.
        return self.own_work_finding(
            ctx,
            key,
            loop,
            (loop.line, loop.col + len(loop.header)),
            cost_name,
            False,
            evidence,
        )


def _above(cost: str, ceiling: str) -> bool:
    """``cost`` is a heavier work class than ``ceiling`` (:data:`WORK_GRADES`, heaviest first)."""
    order = [name for _, name in WORK_GRADES]
    return order.index(cost) < order.index(ceiling)


def _folded(graph: CallGraph, key: FunctionId, covered: dict[FunctionId, set[int]]) -> bool:
    """Every hot call of ``key`` is written inside a loop reported in its caller (or a loop inside
    one): that finding's estimate counts ``key``'s work as many times as it runs, so a finding of
    ``key``'s own would report the same work again."""
    hot = graph.hot_callers(key)
    return bool(hot) and all(
        site.caller == caller[1] and graph.loop_around(caller, site) in covered.get(caller, ()) for caller, site in hot
    )


#: The array libraries a message names (``numpy``): the ones whose calls Estimate.arrays counts.
_ARRAY_NAMES = " or ".join(prefix.rstrip(".") for prefix in ARRAY_LIBRARIES)


def describe(loop: WorkLoop, estimate: Estimate) -> str:
    """What the estimate is made of, in words: "`for move in LEGAL_MOVES`: ~1.2 ms per call, 600
    copies of list or dict state, `LEGAL_MOVES` (24) × `LEGAL_MOVES` (24)"."""
    millis = estimate.micros / 1000
    about = "up to ~" if estimate.upper else "~"  # a conditional count taken at its larger branch
    amount = f"{about}{millis:.1f} ms" if millis >= 1 else f"{about}{estimate.micros:.0f} µs"
    among = f", {about}{estimate.copies:.0f} copies of list or dict state" if estimate.copies >= 1 else ""
    if estimate.scans >= 1:
        among += f", {about}{estimate.scans:.0f} regex passes over a text (each taken as one reply)"
    if estimate.arrays >= 1:
        among += f", {about}{estimate.arrays:.0f} calls into {_ARRAY_NAMES}"
    factors = f": {' × '.join(estimate.factors)}" if estimate.factors else ""
    return f"`{loop.header}` estimated at {amount} per call{among}{factors}"
