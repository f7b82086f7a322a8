"""Process pools started per call: ``multiprocessing.Pool`` start-up and shutdown.

``multiprocessing.Pool(n)`` starts ``n`` worker processes before it returns (multiprocessing/
pool.py ``_repopulate_pool``): milliseconds each with ``fork``, a fresh interpreter each (often
seconds) with ``spawn`` or ``forkserver``; ``terminate()`` and the ``with`` block's exit join
them. Build one pool at start-up and reuse it (``loop.run_in_executor`` with a module-level
``ProcessPoolExecutor``, which also starts its workers lazily).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_POOL = "source: CPython 3.11 Lib/multiprocessing/pool.py (Pool.__init__ -> _repopulate_pool; terminate joins)"

APIS: tuple[BlockingApi, ...] = (
    entry("multiprocessing.Pool", "subprocess", "process-start", None, frozenset(), _POOL),
    entry("multiprocessing.Pool.terminate", "wait", "thread-wait", None, frozenset(), _POOL),
    # A thread pool starts threads (cheap), but its map/apply wait like a process pool's.
    *many("wait", "thread-wait", "to-thread", "map starmap apply join", "multiprocessing.pool.ThreadPool.",
          source=_POOL),
)
