"""ASL110: ``copy.deepcopy`` and ``model_copy(deep=True)`` on the event loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule, Candidate


class BlockingDeepcopy(BlockingCallRule):
    """`copy.deepcopy` (or pydantic's `model_copy(deep=True)`) walks a whole object graph on the loop.

    **Why is this bad?**
    Deep-copying a rollout state copies every message, tool result and cached document, in
    pure Python, holding the GIL: milliseconds to seconds per call. A thread does not help
    much (the GIL stays held); copying less does. Graded by what is copied, as serialization
    is: the rollout's state, a trajectory or a history is high (a helper's parameter so named
    only when its callers hand it the framework's value); an object of unknown size is low; a
    small literal, one message or a rollout's prompt (its input messages) is not reported.

    **Example**
    ```python
    import copy

    async def env_response(messages, state):
        snapshot = copy.deepcopy(state)
        return [], snapshot
    ```

    **Use instead**
    ```python
    import asyncio
    import copy

    class Env:
        def __init__(self, corpus):
            self.corpus = corpus
            self._memo = {id(corpus): corpus}  # large, immutable: shared, never copied

        async def env_response(self, messages, state):
            snapshot = await asyncio.to_thread(copy.deepcopy, state, self._memo.copy())
            return [], snapshot
    ```

    **Fix**
    The shared-memo pattern: build `{id(field): field}` for the large immutable fields once,
    pass `memo.copy()` to each `deepcopy`, run it off the loop. `asynclint fix --unsafe-fixes`
    does that for copies of `self`, of `self.attr` and of locals whose class is in the file,
    sharing the fields that nothing in the file changes after `__init__` -- no method call that
    is not known to be read-only, no store, no alias or hand-off (it names them; the copies
    then share them). Otherwise, and by default, it runs the copy with
    `await asyncio.to_thread(...)` (safe, but a thread frees the loop, not the GIL).
    """

    code = "ASL110"
    name = "blocking-deepcopy"
    category = "copy"
    default_severity = Severity.HIGH
    message = "`{callee}` deep-copies {payload}{on_loop} {where}"

    def cost(self, candidate: Candidate) -> str | None:
        if candidate.site.method == "model_copy" and candidate.kwarg("deep") != "True":
            return None  # a shallow model_copy is cheap
        return candidate.cost.name
