"""Process pools started per call: ``multiprocessing.Pool`` start-up and shutdown.

``multiprocessing.Pool(n)`` starts ``n`` worker processes before it returns (multiprocessing/
pool.py ``_repopulate_pool``): milliseconds each with ``fork``, a fresh interpreter each (often
seconds) with ``spawn`` or ``forkserver``; ``terminate()`` and the ``with`` block's exit join
them. Build one pool at start-up and reuse it (``loop.run_in_executor`` with a module-level
``ProcessPoolExecutor``, which also starts its workers lazily). A context from
``multiprocessing.get_context("spawn")`` builds the same ``Pool`` (context.py ``BaseContext.Pool``).

Waiting on a pool's work blocks however it is asked for: ``map``/``apply`` wait in the call,
``apply_async(...).get()`` and ``map_async(...).get()`` wait in ``get``, and ``imap``,
``imap_unordered`` and ``concurrent.futures`` ``Executor.map`` return at once with an iterator
whose ``next()`` waits -- those calls are reported for the loop that consumes them and have no
to-thread recipe (offloading the call alone would leave the waiting on the loop), like
``concurrent.futures.as_completed``.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_POOL = "source: CPython 3.11 Lib/multiprocessing/pool.py (Pool.__init__ -> _repopulate_pool; terminate joins)"
_CONTEXT = "source: CPython 3.11 Lib/multiprocessing/context.py (BaseContext.Pool builds pool.Pool)"
_RESULTS = (
    "source: CPython 3.11 Lib/multiprocessing/pool.py (ApplyResult.get/wait wait on an Event; "
    "IMapIterator.next waits on a Condition)"
)
_EXECUTOR_MAP = (
    "source: CPython 3.11 Lib/concurrent/futures/_base.py (Executor.map submits every item, "
    "then its generator waits on each future's result)"
)
_POOLS = ("multiprocessing.Pool.", "multiprocessing.pool.ThreadPool.")
_EXECUTORS = (
    "concurrent.futures.ThreadPoolExecutor.",
    "concurrent.futures.ProcessPoolExecutor.",
    "concurrent.futures.Executor.",
)

APIS: tuple[BlockingApi, ...] = (
    entry("multiprocessing.Pool", "subprocess", "process-start", None, frozenset(), _POOL),
    entry("multiprocessing.Pool.terminate", "wait", "thread-wait", None, frozenset(), _POOL),
    # A thread pool starts threads (cheap), but its map/apply wait like a process pool's.
    *many(
        "wait", "thread-wait", "to-thread", "map starmap apply join", "multiprocessing.pool.ThreadPool.", source=_POOL
    ),
    entry("multiprocessing.context.BaseContext.Pool", "subprocess", "process-start", None, frozenset(), _CONTEXT),
    *many("wait", "thread-wait", "to-thread", "get wait", "multiprocessing.pool.ApplyResult.", source=_RESULTS),
    *(
        api
        for pool in _POOLS
        for api in many("wait", "thread-wait", None, "imap imap_unordered", pool, source=_RESULTS)
    ),
    *(
        api
        for executor in _EXECUTORS
        for api in many("wait", "thread-wait", None, "map", executor, source=_EXECUTOR_MAP)
    ),
)

RETURNS: dict[str, str] = {
    # ``mp.get_context("spawn")``: any context; each builds the pool classes above.
    "multiprocessing.get_context()": "multiprocessing.context.BaseContext",
    "multiprocessing.context.BaseContext.Pool()": "multiprocessing.Pool",
    "multiprocessing.context.BaseContext.Process": "multiprocessing.Process",
    **{
        f"{pool}{method}()": "multiprocessing.pool.ApplyResult"
        for pool in _POOLS
        for method in ("apply_async", "map_async", "starmap_async")
    },
    "multiprocessing.pool.AsyncResult": "multiprocessing.pool.ApplyResult",
    "multiprocessing.pool.MapResult": "multiprocessing.pool.ApplyResult",
}
