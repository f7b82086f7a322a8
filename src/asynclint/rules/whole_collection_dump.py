"""ASL119: a project function serializes or copies a whole collection item by item, called on the loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from asynclint.analysis.api import FunctionId
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite, ModuleSummary
from asynclint.grading import CallEvidence, cost_of
from asynclint.knowledge.blocking import BlockingApi
from asynclint.model import Finding, Severity
from asynclint.rules.context import CheckContext
from asynclint.rules.ownwork import HandedLoopRule

#: What dumping every item of a collection is graded as: a dump of the whole collection, by the payload
#: each call hands the function (``costs.PAYLOAD_GRADES["payload"]``, as ``json.dumps`` is).
_DUMP = BlockingApi("", "cpu", "payload")
#: What the evidence must conclude for the loop to be the whole collection's dump.
_WHOLE = frozenset({"whole", "growing"})


class WholeCollectionDump(HandedLoopRule):
    """A project function serializes or copies every item of a whole collection (a trajectory) one by one, on the loop.

    **Why is this bad?**
    A helper that saves a rollout goes over every step of its trajectory and dumps each step's
    messages, response and tokens (`model_dump`, `json.dumps`, `copy.deepcopy`). Each dump is of one
    item, microseconds, but together they serialize the whole trajectory: milliseconds of CPU held
    on the loop every rollout, growing with the rollout (a multi-turn step's prompt repeats the
    conversation so far). The rule reads a project function's loops for one that goes over a
    parameter (`for step in trajectory`, also `trajectory or []`, `enumerate(...)`) and serializes or
    copies a value made from each item (the item rebound, a key or an attribute of it, an item of a
    loop over it), and reports the loop, at its header, when a hot call hands that parameter a whole
    payload by the evidence of ASL111 (the rollout's `state["trajectory"]`, its completion or message
    history, a dataset, a file's contents): graded as serializing that payload, high, and raised by
    repetition (per turn, back to back for a group). Not reported: a call handing one turn's
    messages, the rollout's `prompt` (a message or two) or anything of unknown size; a loop over a
    slice (`trajectory[:3]`, a constant few); a loop that only collects the items; a body that awaits
    (it hands the loop back on every iteration). A dump of the loop variable itself is ASL111's
    ("every item of `trajectory` in turn"), at the dump.

    **Example**
    ```python
    import json


    def serialize(trajectory: list) -> list[dict]:
        out = []
        for step in trajectory:
            out.append({key: step[key].model_dump() for key in ("prompt", "completion")})
        return out


    async def save(state, **kwargs) -> None:
        await log.send(json.dumps(serialize(state["trajectory"])))
    ```

    **Use instead**
    ```python
    import asyncio
    import json


    async def save(state, **kwargs) -> None:
        text = await asyncio.to_thread(lambda: json.dumps(serialize(state["trajectory"])))
        await log.send(text)
    ```
    one worker thread for the whole serialization (it frees the loop, not the GIL), or keep only
    the steps and fields needed.

    **Fix**
    Serialize less (the last step, the fields needed), or run the whole serialization in a worker
    thread from the `async def` that calls it. `asynclint fix` does the last where an `async def`
    on the chain calls a sync top-level function on the way to the loop: that call becomes `await
    asyncio.to_thread(f, ...)`.
    """

    code = "ASL119"
    name = "whole-collection-dump"
    default_severity = Severity.HIGH
    costs = ("payload-whole", "payload-growing")
    #: The helper's call, from the ``async def`` on the chain, goes to a worker thread, as ASL111's
    #: dumps do: a process pool would pickle the whole collection to hand it over, the cost itself.
    recipes = ("to-thread",)
    message = "a loop serializes or copies a whole collection item by item, on the event loop {where}: {evidence}"

    def handed_loops(self, summary: ModuleSummary) -> Iterator[tuple[WorkLoop, str]]:
        for loop in summary.work_loops:
            # An inner loop over the same collection is the outer one's dump.
            if loop.dumps and (loop.parent < 0 or summary.work_loops[loop.parent].dumps != loop.dumps):
                yield loop, loop.dumps

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
        cost = cost_of(_DUMP, evidence)
        if cost.size not in _WHOLE:
            return None
        hands = f"`{ctx.graph.function(caller).qualname}` hands"
        if through != key:
            hands = f"{hands} `{ctx.graph.function(through).qualname}`, which passes it on,"
        found = self.own_work_finding(
            ctx,
            key,
            loop,
            (loop.end_line, loop.end_col),
            cost.name,
            False,
            f"`{loop.header}` dumps every item of `{loop.dumps}`, which {hands} {cost.evidence}",
        )
        if found is None or found.fix_request is None:
            return found
        return replace(found, fix_request=replace(found.fix_request, recipe="to-thread"))
