"""ASL117: a project function walks a whole text line by line in pure Python, called on the loop."""

from __future__ import annotations

from collections.abc import Iterator

from asynclint.analysis.api import FunctionId
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite, ModuleSummary
from asynclint.grading import CallEvidence, cost_of
from asynclint.knowledge.blocking import BlockingApi
from asynclint.knowledge.costs import COST_CLASSES, LARGE_COLUMN
from asynclint.model import Finding, Severity
from asynclint.rules.context import CheckContext
from asynclint.rules.ownwork import HandedLoopRule

#: What a walk of a text parameter is graded as: by the payload each call hands it, like a parser's
#: argument (``costs.PAYLOAD_GRADES["payload-walk"]``).
_WALK = BlockingApi("", "cpu", "payload-walk")
#: Payload shapes that say what a text was made of, whole whatever it is called: a file's contents, a
#: dataset column the build casts to a large type.
_MADE_WHOLE = frozenset({"read", LARGE_COLUMN})


class WholeTextWalk(HandedLoopRule):
    """A project function walks a whole text (a test log, a file's contents) line by line in pure Python, on the loop.

    **Why is this bad?**
    A log parser that goes over every line of a test run's output, splitting and testing each one,
    runs a microsecond or so of bytecode per line: the tens of thousands of lines of a pytest run are
    milliseconds of CPU held on the loop, and a sync reward runs it back to back for every rollout of
    a group. Nothing in the function says how long the text is, so the rule reads a project function's
    loops for one that goes over the pieces of a text parameter (`p.splitlines()`, `p.split(...)`,
    `re.findall(pattern, p)`, also of a text computed from `p` in the same size, or a part of a split
    such as the section after a header) doing work with every piece (a method of it, a function on it,
    a membership test, a loop over it; or a sort, `min`, `max` or `heapq.nlargest` of the pieces whose
    key does such work: `sorted(chunks, key=lambda c: score(c, query))`), and reports each hot call of
    the function -- or of a project function passing the text on to it as it is -- that hands that
    parameter a payload the code proves whole: a file's contents, a state key the project fills with
    one, what a project function returns when its `return`s are (the payload evidence of ASL111; a name
    alone is not enough here: `completion` written as a text is one reply). It is
    reported at that call, graded medium and raised by repetition (per turn, per tool call, back to
    back for a group). Not reported: a call handing one reply, one message or a tool call's
    arguments, or a text of unknown size (one reply far more often than a log: microseconds); a loop
    that only collects the pieces as they are, a slice keeping a constant few (`lines[-3:]`), a body
    that awaits (it hands the loop back on every iteration). Nor, on its own line, a text as read
    through a file object the function opens (`text = f.read()` in `with open(p) as f:`): the finding
    on that `open()` (ASL107) names the walk, one finding per file object.

    **Example**
    ```python
    from pathlib import Path


    def failed_tests(log: str) -> list[str]:
        failed = []
        for line in log.splitlines():
            if "FAILED" in line:
                failed.append(line.split("::")[-1])
        return failed


    async def passed(state, **kwargs) -> float:
        text = Path(state["log_path"]).read_text()
        return float(not failed_tests(text))
    ```

    **Use instead**
    ```python
    import re

    FAILED = re.compile(r"^FAILED .*::(\\S+)", re.MULTILINE)


    async def passed(state, **kwargs) -> float:
        text = await asyncio.to_thread(read_log, state["log_path"])
        return float(not FAILED.findall(text))
    ```
    one regex pass in C over the whole text (microseconds for a long log), or the parse run in a
    process pool.

    **Fix**
    Let a compiled regex scan the whole text in one call, parse only the part needed (the summary
    after its header), or run the parse in a process pool (a worker thread frees the loop but not
    the GIL). `asynclint fix --unsafe-fixes` does the last where an `async def` makes the call, or,
    as for ASL115, calls a sync top-level function on the way to it.
    """

    code = "ASL117"
    name = "whole-text-walk"
    default_severity = Severity.MEDIUM
    costs = ("cpu-text-walk",)
    #: The function holding the call, called from an ``async def``, goes to a process pool (as ASL115's).
    recipes = ("process-pool",)
    message = "a call that {what}, on the event loop {where}: {evidence}"

    def handed_loops(self, summary: ModuleSummary) -> Iterator[tuple[WorkLoop, str]]:
        walks: dict[tuple[int, str], WorkLoop] = {}
        for loop in summary.work_loops:
            if loop.pieces:
                walks.setdefault((loop.function, loop.pieces), loop)  # a function's first walk of each text
        for (_, param), loop in walks.items():
            yield loop, param

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
        cost = cost_of(_WALK, evidence)
        if COST_CLASSES[cost.name].severity is None or not _proven(site, evidence):
            return None
        if ctx.folded_site(ctx.graph.path_of(caller), caller, site):
            return None  # the text read through a file object opened here: its opener's finding carries it
        graph = ctx.graph
        walker = graph.function(key).qualname
        goes = f"goes `{loop.header}` over {cost.evidence}"
        walk = f"`{walker}` {goes}"
        if through != key:
            walk = f"`{graph.function(through).qualname}` passes it on to `{walker}`, which {goes}"
        return self.own_work_finding(ctx, caller, site, (site.end_line, site.end_col), cost.name, True, walk)


def _proven(site: CallSite, evidence: CallEvidence) -> bool:
    """Does the code prove the text whole, not only its name? A message collection's name
    (``completion``, ``messages``) on a text is one reply's text (a parser handed
    ``completion[0]["content"] if ... else completion``, main gpu_puzzles.py:66), so the walk needs
    what the text was made of: a file's contents, or a value the graph settles as whole (what a
    project function returns, a state key the project fills with one)."""
    return site.payload[0] in _MADE_WHOLE or evidence.returned == "whole"
