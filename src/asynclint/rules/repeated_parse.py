"""ASL118: a loop over the rollout's data parses or walks a syntax tree for every item, on the loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from asynclint.analysis.api import CallGraph, FunctionId
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite, ModuleSummary
from asynclint.knowledge.costs import TREE_PASSES
from asynclint.model import Finding, Severity
from asynclint.rules.context import CheckContext
from asynclint.rules.ownwork import OwnWorkRule


class RepeatedParse(OwnWorkRule):
    """A loop over the rollout's data parses or walks a syntax tree for every item (each code cell of a trace).

    **Why is this bad?**
    `ast.parse` of one code cell the model wrote is tens of microseconds, and `ast.walk` over its
    tree a few more: not worth a thread hop alone, and not reported alone. A reward or metric that
    goes over every cell of the rollout's trace and parses each one (or calls a helper of the
    project that does), often once per question it asks of the trace, repeats that cost for every
    cell: a few hundred microseconds to a millisecond of pure-Python CPU per call, held on the
    loop. The rule reports a loop (a `for`, a comprehension's `for`) of a hot function whose
    count the code does not fix (it goes over data: a parameter, a value computed from the trace)
    when each iteration calls `ast.parse` or `ast.walk`, or a project function whose own body does;
    at the loop's header (a comprehension's first line), graded low and raised per turn or per tool
    call (the trace it goes over then grows every turn; back to back for a group it stays a few
    ms). Only the outermost such loop is reported, also across calls: a loop in a helper that a
    reported loop of its caller repeats is that finding's cost (the hottest chain decides). Not
    reported: one parse or walk outside a loop (one reply, one cell), a loop whose count the code
    fixes (a literal list of three snippets), a loop over one tree's nodes (`for node in
    ast.walk(tree)`: the walk is one pass), a loop over the pieces of one text (`for block in
    re.findall(fence, reply)`, a reply's lines: together the parses read that text once, as one
    parse does), a loop whose body awaits (it hands the loop back on
    every iteration), start-up code.

    **Example**
    ```python
    import ast


    def trees(cells: list[str]) -> list[ast.AST]:
        return [ast.parse(cell) for cell in cells]


    async def defines_helper(completion, **kwargs) -> float:
        cells = [call["function"]["arguments"] for m in completion for call in m.get("tool_calls") or []]
        return float(any(isinstance(n, ast.FunctionDef) for t in trees(cells) for n in ast.walk(t)))
    ```

    **Use instead**
    ```python
    import ast


    async def defines_helper(completion, **kwargs) -> float:
        cells = [call["function"]["arguments"] for m in completion for call in m.get("tool_calls") or []]
        return float(any("def " in cell for cell in cells))
    ```
    or parse each cell once, when its tool call is handled, and keep what the reward asks of it.

    **Fix**
    Parse each cell once per rollout and answer every question from those trees (or from the
    cell's text, where a substring says enough), or run the whole scan in a worker thread
    (`await asyncio.to_thread(scan, cells)`). `asynclint fix --unsafe-fixes` runs the sync helper
    holding the loop in a process pool where an `async def` calls it, as for ASL115 (unsafe:
    arguments and result are pickled).
    """

    code = "ASL118"
    name = "repeated-parse"
    default_severity = Severity.LOW
    costs = ("cpu-reparse",)
    #: The helper holding the loop, called from an ``async def``, goes to a process pool (as ASL115).
    recipes = ("process-pool",)
    message = "a loop that {what} on the event loop {where}: {evidence}"

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        graph = ctx.graph
        # The parsing calls of the functions the loops and the chains above them ask about, each
        # function's found once (only hot functions' loops ask: most loops of a large project are
        # cold, and finding a function's parsing calls resolves all its calls).
        cache = Cache()
        for position, summary in graph.numbered_summaries():
            if summary.library is not None:
                continue
            for loop in summary.work_loops:
                key = FunctionId((position, loop.function))
                if loop.trips or loop.cut or graph.hot_info(key) is None:
                    continue
                found = _parse_in(loop, _parses(graph, key, cache), summary.work_loops)
                if found is None or _outer_parses(graph, position, summary, loop, cache):
                    continue
                if graph.awaits_in(key, loop) or _repeated(graph, key, loop, cache):
                    continue
                finding = self.own_work_finding(
                    ctx,
                    key,
                    loop,
                    (loop.end_line, loop.end_col),
                    "cpu-reparse",
                    False,
                    f"`{loop.header}` calls {found} on every iteration",
                )
                if finding is None:
                    continue
                if ctx.judged(finding, self.code, self.name):
                    yield finding


@dataclass
class Cache:
    """What the rule found so far: each function's parsing calls (:func:`_parsing_sites`), and each
    module's tree passes (``ast.parse``, ``ast.walk``) by the function calling them."""

    parses: dict[FunctionId, list[tuple[CallSite, str]]] = field(default_factory=dict)
    passes: dict[int, dict[int, list[tuple[CallSite, str]]]] = field(default_factory=dict)


def _parses(graph: CallGraph, key: FunctionId, cache: Cache) -> list[tuple[CallSite, str]]:
    """The parsing calls of function ``key`` (:func:`_parsing_sites`), found once."""
    found = cache.parses.get(key)
    if found is None:
        found = cache.parses[key] = _parsing_sites(graph, key, cache)
    return found


def _passes(graph: CallGraph, key: FunctionId, cache: Cache) -> list[tuple[CallSite, str]]:
    """The calls of tree passes function ``key`` makes itself, each with the pass it calls: its
    module's calls gone through once for all its functions."""
    by_function = cache.passes.get(key[0])
    if by_function is None:
        by_function = cache.passes[key[0]] = {}
        for site in graph.summary_of(key).calls:
            if site.target is not None and site.target in TREE_PASSES:
                by_function.setdefault(site.caller, []).append((site, site.target))
    return by_function.get(key[1], [])


def _repeated(graph: CallGraph, key: FunctionId, loop: WorkLoop, cache: Cache) -> bool:
    """Does a call on the hottest chain into ``key`` (above ``loop``) run on every iteration of a loop
    of its caller that is reported itself? Then that loop's finding holds this one's cost."""
    hot = graph.hot_at(key, loop)
    child, seen = key, {key}
    while hot is not None and hot.parent is not None:
        caller = hot.parent.function
        if caller in seen:
            return False
        seen.add(caller)
        parses = _parses(graph, caller, cache)
        sites = [site for callee, site in graph.callees(caller) if callee == child and site.line == hot.call_line]
        loops = graph.summary_of(caller).work_loops
        for around in loops:
            if around.function != caller[1] or around.trips or not any(_inside(around, s, loops) for s in sites):
                continue
            if _parse_in(around, parses, loops) is not None:
                return True
        child, hot = caller, graph.hot_info(caller)
    return False


def _parsing_sites(graph: CallGraph, key: FunctionId, cache: Cache) -> list[tuple[CallSite, str]]:
    """The calls of function ``key`` that parse or walk a tree, directly (``ast.parse``) or through
    a project function whose own body does (one level: ``_calls(event)``), with words."""
    found = [(site, f"`{target}`") for site, target in _passes(graph, key, cache)]
    for callee, site in graph.callees(key):
        if site.caller != key[1] or graph.is_library(callee):
            continue
        passes = sorted({target for _, target in _passes(graph, callee, cache)})
        if passes:
            name = graph.function(callee).qualname
            found.append((site, f"`{name}`, which calls {' and '.join(f'`{p}`' for p in passes)}"))
    return found


def _inside(loop: WorkLoop, site: CallSite, loops: tuple[WorkLoop, ...]) -> bool:
    """``site`` runs on every iteration of ``loop``: within it, and not in what it or a loop around it
    goes over (a comprehension's inner ``for`` spans the whole comprehension, the first's iterable too)."""
    at = (site.line, site.col)
    if not (loop.line, loop.col) <= at < (loop.end_line, loop.end_col):
        return False
    current = loop
    while True:
        if (current.outside[0], current.outside[1]) <= at < (current.outside[2], current.outside[3]):
            return False
        if current.parent < 0:
            return True
        current = loops[current.parent]


def _parse_in(loop: WorkLoop, sites: list[tuple[CallSite, str]], loops: tuple[WorkLoop, ...]) -> str | None:
    """The words for the first parsing call each iteration of ``loop`` makes, or ``None``."""
    return next((words for site, words in sites if _inside(loop, site, loops)), None)


def _outer_parses(graph: CallGraph, position: int, summary: ModuleSummary, loop: WorkLoop, cache: Cache) -> bool:
    """A loop around ``loop`` repeats a parse on every iteration itself: that one is reported."""
    parent = loop.parent
    while parent >= 0:
        outer = summary.work_loops[parent]
        if (
            not outer.trips
            and _parse_in(outer, _parses(graph, FunctionId((position, outer.function)), cache), summary.work_loops)
            is not None
        ):
            return True
        parent = outer.parent
    return False
