"""ASL113: waiting for another thread or process on the event loop."""

from __future__ import annotations

from asynclint.knowledge.blocking import WAIT_TIMEOUTS, ZERO_TIMEOUTS
from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule, Candidate


class BlockingWait(BlockingCallRule):
    """`future.result()`, `queue.get()`, `lock.acquire()`, `thread.join()` block the loop until another thread or process is done.

    **Why is this bad?**
    Handing work to a thread pool is right; waiting for it with a blocking call undoes it. The
    loop stops until the other thread finishes, and if that thread needs the loop (a coroutine
    scheduled with `run_coroutine_threadsafe`, a callback), the program deadlocks. A
    `threading.Lock` held by another thread stalls every rollout for as long as it is held.

    **Example**
    ```python
    from concurrent.futures import ThreadPoolExecutor

    POOL = ThreadPoolExecutor(4)

    async def score(text: str) -> float:
        future = POOL.submit(len, text)
        return float(future.result())
    ```

    **Use instead**
    ```python
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    POOL = ThreadPoolExecutor(4)

    async def score(text: str) -> float:
        loop = asyncio.get_running_loop()
        return float(await loop.run_in_executor(POOL, len, text))
    ```

    **Fix**
    Await the work instead of waiting for it: `await asyncio.wrap_future(future)`,
    `loop.run_in_executor`, `asyncio.Queue`, `asyncio.Lock`/`asyncio.Event`. `asynclint fix`
    moves the wait to a worker thread (`await asyncio.to_thread(event.wait)`, safe; for
    `queue.get` unsafe: when the rollout is cancelled the thread still takes the item, and it
    is lost); it leaves locks alone (acquiring one in a worker thread changes which thread owns
    it) and `as_completed` (iterating over it blocks, not the call). Starting a thread
    (`Thread.start()` waits until the new thread runs) or building an event loop
    (`asyncio.new_event_loop()`) per rollout is a fraction of a millisecond, low, and no cheaper
    in a worker thread: keep one thread or loop for the process (no automatic fix).
    """

    code = "ASL113"
    name = "blocking-wait"
    category = "wait"
    default_severity = Severity.CRITICAL
    message = "`{callee}` {what} {where}"

    def cost(self, candidate: Candidate) -> str | None:
        timeout = WAIT_TIMEOUTS.get(candidate.api.pattern)
        if timeout is not None and (candidate.kwarg(timeout[1]) or candidate.literal(timeout[0])) in ZERO_TIMEOUTS:
            return "descriptor-poll"  # returns at once: asks, does not wait
        return candidate.cost.name
