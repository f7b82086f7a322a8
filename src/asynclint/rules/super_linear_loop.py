"""ASL115: the project's own super-linear pure-Python work (loop nests over the data) on the loop."""

from __future__ import annotations

from collections.abc import Iterator

from asynclint.analysis.api import FunctionId
from asynclint.analysis.index.loops import LoopNest, WorkLoop
from asynclint.knowledge.costs import record_field
from asynclint.model import Finding, Severity
from asynclint.rules.context import CheckContext
from asynclint.rules.ownwork import OwnWorkRule

#: How the steps of a nest grow with the size of the data, by how many of its factors multiply.
_ORDERS = {2: "quadratic", 3: "cubic"}


class SuperLinearLoop(OwnWorkRule):
    """Nested loops whose counts all grow with the data run in pure Python on the loop (an edit distance, pairs).

    **Why is this bad?**
    A loop over the characters of the model's reply inside a loop over the characters of the
    answer runs `len(reply) * len(answer)` steps of Python bytecode while holding the loop: a
    Levenshtein distance of two 600-character texts fills a 360,000-cell table, about 100 ms.
    No knowledge base names such code -- it is the project's own -- so the rule reads the loops:
    a nest is reported when two of its loops (one inside the other) each go over data of the
    rollout (a parameter, a string, `range(len(x))`, a value computed from them), or when a loop
    goes over `itertools.permutations`/`combinations`/`product` of such data, or over the cartesian
    product a project function builds of pools of such data (`product(*pools)` returned, a cross
    join, `res = [r + [x] for r in res for x in pool]` for each pool, or a recursion on the rest of
    the pools, `for x in pools[0]: for rest in cart(pools[1:])`, each reported there too: the
    product of the pools' sizes, `objects ** arity` for pools of a world's objects; pools filled per
    item of a loop around the product make it that loop's, reported at its header), or when the function
    calls itself per item of a loop on a value computed from its parameter and that item
    (`best(play(board, move)) for move in moves(board)`: a search over every sequence of moves,
    exponential in its depth; a recursion on the item itself, `walk(child)`, walks a tree once and
    is not reported). A nest that fills
    a 2-D table cell by cell (`dp[i][j] = ...`, the dynamic-programming shape) is graded high, any
    other medium; both are raised by repetition like other CPU work (a sync reward run back to
    back for a group, per turn, per tool call). A loop of a hot caller that calls the function
    holding the nest on every iteration (a transcript replayed turn by turn, each turn listing a
    board's pairs) is reported too, at that loop's outermost header: the cost is the nest times
    the loop, and the change is written there. It is graded as the nest, by the caller's own
    chain (the loop's count is not known, so it does not raise the grade), and the nest itself is then
    graded per call, not raised by that loop: the repetition is the loop's finding. A nest whose every
    count is one task's data -- a field of a record read from a parameter (`data.metadata["grid"]`,
    `info["board"]`), or a parameter the call on its hottest chain hands such a field
    (`legal_pours(puzzle.true_board)`, `leaked(info["secret"], text)`) -- is low and not raised: the
    dataset fixes its size (a board, a grid, a key), well under a ms; a loop repeating it is low too,
    unless that loop goes over the rollout's history (its replies, turns, trajectory), which grows every
    turn. Not for the model's reply, a text field or a key that grows (`state["completion"]`,
    `msg["content"]`): those stay graded as data. A corpus the code built over a whole source --
    an attribute the class's constructor filled per item of what it was handed or of a dataset it
    loaded (`self._tokenized = [tokenize(d) for d in docs]`, `for row in load_dataset(...):
    self.texts[row["id"]] = row["text"]`), a module's name or a `load_environment` local its tools
    read bound to a dataset load (`load_dataset`, `pd.read_*`, `[json.loads(l) for l in f]`) or
    filled per item of one -- is as long as the corpus: a loop over it times any loop over the
    data (a query's terms; one posting list of an inverted index is a part of the corpus) is
    reported as "the corpus times the query"; and where it was built from a load (not from a
    parameter, which may be a few things), even a single loop over it is reported (medium, raised by
    repetition like the nests): the whole corpus walked per call, where a lookup by key was meant;
    so is a loop over the corpus a loaded search index holds (`bm25s.BM25.load(dir,
    load_corpus=True)`'s `.corpus`). A collection exponential in a count the row or the state gives --
    every tuple of `product(pool, repeat=n)`, the masks of `range(2 ** n)` (`1 << n`), every ordering
    of a pool the data sizes, `n` read from the row, the state, a parameter or a length -- holds 2^n
    items: a loop over the generator itself is reported (medium: ~0.2 µs an item, 20 ms for 2^16),
    and so is a loop over a collection built of one and kept in the state or on the object
    (`state["hypotheses"] = [b for b in product((0, 1), repeat=n)]` in `setup_state`, filtered again
    every turn in `env_response`), in whichever function walks it; a walk whose every item calls
    the project's code or numpy (a consistency test per hypothesis, ~10 µs an item) is high; both
    are raised by repetition (per turn: critical). Not for a count that is a literal, a module
    constant or a setting of the object (`range(2 ** 4)`, `product(LETTERS, repeat=2)`,
    `self.depth`: a size the code fixes, ASL116's to estimate). Not reported: any other single
    loop (linear), loops over a fixed few constants, over a rollout's messages or turns (tens
    of items: unless a loop repeats a nest, as above), over a module's
    constants or the environment's own attributes (`self.tools`, a parsed settings file: unless a
    corpus as above), over the parts of an outer
    loop's item (`for line in lines: for word in line.split()` is the words once), over a
    mapping's entries (a record's fields), over the rows and columns of a grid read cell by cell
    (`grid[i][j]`: the grid once), a window around an index (`range(i, i + 3)`), and `while`
    loops (a scanner's inner `while` usually advances the outer one's index).

    **Example**
    ```python
    async def similarity(completion, answer, **kwargs) -> float:
        response = completion[-1]["content"]
        m, n = len(response), len(answer)
        dp = [[0] * (n + 1) for _ in range(m + 1)]
        for i in range(1, m + 1):
            for j in range(1, n + 1):
                cost = response[i - 1] != answer[j - 1]
                dp[i][j] = min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + cost)
        return 1 - dp[m][n] / max(m, n, 1)
    ```

    **Use instead**
    ```python
    import difflib

    async def similarity(completion, answer, **kwargs) -> float:
        response = completion[-1]["content"]
        return difflib.SequenceMatcher(None, response, answer, autojunk=False).quick_ratio()
    ```
    or a C implementation (`rapidfuzz.distance.Levenshtein.normalized_similarity`, microseconds),
    or the distance computed by a top-level function run in a `ProcessPoolExecutor`
    (`await loop.run_in_executor(pool, distance, response, answer)`).

    **Fix**
    Use a C implementation, bound the input (compare the first few thousand characters), or run
    the function in a process pool (a worker thread frees the loop but not the GIL). `asynclint
    fix --unsafe-fixes` does the last where an `async def` on the chain calls a sync top-level
    function on the way to the nest: that call becomes `await loop.run_in_executor(pool, f, ...)`
    with a module-level `ProcessPoolExecutor` (unsafe: arguments and result are pickled, and what
    the function changes stays in the worker). It declines for methods and local functions, and
    where no `async def` is on the chain (a sync reward: move the work into a top-level function
    and call it from an `async def` reward).
    """

    code = "ASL115"
    name = "super-linear-loop"
    default_severity = Severity.MEDIUM
    costs = ("cpu-nested", "cpu-table", "cpu-nested-task", "cpu-corpus", "cpu-exponential", "cpu-exponential-calls")
    #: The function holding the nest, called from an ``async def``, goes to a process pool.
    recipes = ("process-pool",)
    message = "{what} on the event loop {where}: {evidence}"

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        # A loop both nesting over the data itself and repeating a helper's nest is one finding: at
        # equal grades its own nest's, whose words say what the loop goes over.
        kept: dict[tuple[str, int], tuple[Finding, bool]] = {}
        for finding, own in self._findings(ctx):
            place = (finding.path, finding.line)
            if place not in kept or (finding.severity, own) > (kept[place][0].severity, kept[place][1]):
                kept[place] = (finding, own)
        yield from (finding for finding, _ in kept.values())

    def _findings(self, ctx: CheckContext) -> Iterator[tuple[Finding, bool]]:
        """Each finding, and whether it is on a nest itself (not a loop repeating a helper's)."""
        graph = ctx.graph
        for position, summary in graph.numbered_summaries():
            if summary.library is not None or not summary.nests:
                continue
            heaviest: dict[int, LoopNest] = {}
            for nest in summary.nests:
                kept = heaviest.get(nest.function)
                if kept is None or (nest.steps, bool(nest.table)) > (kept.steps, bool(kept.table)):
                    heaviest[nest.function] = nest
            for nest in heaviest.values():
                key = FunctionId((position, nest.function))
                task = _task_sized(ctx, key, nest)
                found = self._finding(ctx, key, nest, task)
                if found is None:
                    continue
                if ctx.judged(found, self.code, self.name):
                    yield found, True
                yield from ((repeat, False) for repeat in self._repeats(ctx, key, nest, found, task))

    def _repeats(
        self, ctx: CheckContext, key: FunctionId, nest: LoopNest, found: Finding, task: bool
    ) -> Iterator[Finding]:
        """The loops of hot callers that repeat the call of ``key`` (holding ``nest``), each at its
        outermost loop's header: the cost is the nest times that loop's count, and the change (one
        pass instead of one per item, or the whole loop offloaded) is written there. A nest over one
        task's data (``task``) adds up only in a loop over the rollout's history (its turns): there it
        costs as a nest over the data; anywhere else it stays the task's small cost."""
        graph = ctx.graph
        seen: set[tuple[FunctionId, int]] = set()
        for caller, site in graph.hot_callers(key):
            if not site.in_loop or caller == key:
                continue
            loop = _outermost(graph.summary_of(caller).work_loops, caller[1], site.line)
            if loop is None or (caller, loop.line) in seen:
                continue
            seen.add((caller, loop.line))
            repeated = self.own_work_finding(
                ctx,
                caller,
                loop,
                (loop.end_line, loop.end_col),
                "cpu-nested-task" if task and not loop.history else _cost(nest),
                True,
                f"`{loop.header}` calls `{found.facts.function}` on every iteration, whose "
                f"{'walk' if nest.steps == 1 else 'nest'} ({' × '.join(nest.levels)}) runs each time",
            )
            if repeated is not None and ctx.judged(repeated, self.code, self.name):
                yield repeated

    def _finding(self, ctx: CheckContext, key: FunctionId, nest: LoopNest, task: bool) -> Finding | None:
        """The finding on ``nest`` before the file's configuration says whether it is shown; ``task``:
        its counts are one task's data (:func:`_task_sized`)."""
        if ctx.graph.hot_info(key) is None:
            return None
        order = (
            "combinatorial"
            if any("every " in level for level in nest.levels)
            else _ORDERS.get(nest.steps, f"degree {nest.steps}")
        )
        table = f", filling the table `{nest.table}` cell by cell" if nest.table else ""
        data = "one task's data (" + ", ".join(f"`{path}`" for path in nest.sized_by) + ")" if task else "the data"
        size = f"{order} in the size of {data}"
        if nest.exponential:
            size = "exponential in a count the row or the state gives" + (
                ", calling code for every item" if nest.exponential == "calls" else ""
            )
        elif nest.whole and not task:
            # A corpus built over a whole source: its size is the corpus's, whatever the query's.
            size = "the whole corpus, on every call" if nest.steps == 1 else "the corpus times the query"
        return self.own_work_finding(
            ctx,
            key,
            nest,
            (nest.end_line, nest.end_col),
            "cpu-nested-task" if task and not nest.exponential else _cost(nest),
            not task and not _repeated(ctx, key, nest),
            f"{' × '.join(nest.levels)}{table}: {size}",
        )


def _cost(nest: LoopNest) -> str:
    """The cost class of ``nest`` over the data (not one task's)."""
    if nest.exponential:  # 2^n items from a count the data gives: each call of code per item weighs
        return "cpu-exponential-calls" if nest.exponential == "calls" else "cpu-exponential"
    return "cpu-table" if nest.table else "cpu-corpus" if nest.steps == 1 else "cpu-nested"


def _task_sized(ctx: CheckContext, key: FunctionId, nest: LoopNest) -> bool:
    """Is every count of ``nest`` sized by one task's data: a field of a record read from a parameter
    in the function (``data.metadata["grid"]``), or a parameter that the call its hottest chain enters
    by hands such a field (``pairs(info["board"])``, ``legal_pours(puzzle.true_board)``)? The dataset
    fixes that size (a board, a grid, a key: a few dozen items), not the rollout's growth, nor the
    model's reply (:func:`asynclint.knowledge.costs.record_field`)."""
    hot = ctx.graph.hot_at(key, nest)
    if hot is None or not nest.sized_by:
        return False
    handed: frozenset[str] | None = None
    for dotted in nest.sized_by:
        path = tuple(dotted.split("."))
        if len(path) > 1:
            if not record_field(path):
                return False
            continue
        handed = ctx.graph.handed_fields(key, hot) if handed is None else handed
        if path[0] not in handed:
            return False
    return True


def _repeated(ctx: CheckContext, key: FunctionId, nest: LoopNest) -> bool:
    """Is the call that takes ``nest``'s hottest chain into ``key`` inside a loop of its caller, which
    :meth:`SuperLinearLoop._repeats` reports at that loop's header? Then the repetition is that
    finding's cost, and the nest is graded per call: raising both would count the loop twice."""
    hot = ctx.graph.hot_at(key, nest)
    if hot is None or hot.parent is None or hot.parent.function == key:
        return False
    caller = hot.parent.function
    return _outermost(ctx.graph.summary_of(caller).work_loops, caller[1], hot.call_line) is not None


def _outermost(loops: tuple[WorkLoop, ...], function: int, line: int) -> WorkLoop | None:
    """The outermost loop of ``function`` around ``line``."""
    around = [loop for loop in loops if loop.function == function and loop.line <= line <= loop.end_line]
    return min(around, key=lambda loop: loop.line, default=None)
