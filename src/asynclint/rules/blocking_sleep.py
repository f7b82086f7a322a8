"""ASL101: ``time.sleep`` on the event loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule, Candidate


class BlockingSleep(BlockingCallRule):
    """`time.sleep` stops the event loop, and with it every other rollout, for the whole sleep.

    **Why is this bad?**
    `time.sleep` suspends the thread, and the loop runs on that thread. A one-second backoff in
    one rollout is a one-second stall for all of them: at 2,000 concurrent rollouts nothing
    else makes progress. `time.sleep(0)` is graded low: it only yields the GIL.

    **Example**
    ```python
    import time

    async def env_response(messages, state):
        time.sleep(1.0)  # back off before calling the tool API again
    ```

    **Use instead**
    ```python
    import asyncio

    async def env_response(messages, state):
        await asyncio.sleep(1.0)
    ```

    **Fix**
    Replace with `await asyncio.sleep(...)` (safe inside `async def`; a sync helper must
    become async first). `asynclint fix` (safe) does exactly that; for a sleep in a sync helper it
    runs the helper's call in the nearest `async def` with `asyncio.to_thread`, and a sync reward,
    tool or `@vf.stop` the framework awaits becomes `async def` first (unless the project calls
    it too). A callee that may be swapped at run time (`self._sleep`) is offloaded instead.
    """

    code = "ASL101"
    name = "blocking-sleep"
    category = "sleep"
    default_severity = Severity.CRITICAL
    message = "`{callee}` sleeps{on_loop}, stalling every rollout, {where}"

    def cost(self, candidate: Candidate) -> str | None:
        if candidate.literal(0) in ("0", "0.0"):
            return "trivial"
        return candidate.cost.name
