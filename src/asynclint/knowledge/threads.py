"""What a worker thread does to a call: callees tied to the thread that made their object, lazy
iterators whose I/O happens while they are consumed, and CPU work that keeps the GIL (read by the
``to-thread`` recipe to decline, to consume in the thread, or to say the loop still waits)."""

from __future__ import annotations

#: Callees whose objects are tied to the thread that made them: moving a call to another thread
#: raises (sqlite3's ``check_same_thread``) -- matched on the resolved callee's prefix.
THREAD_BOUND = ("sqlite3.connect",)

#: Calls returning lazy iterators: the I/O happens while iterating, so the thread must consume
#: them: ``await asyncio.to_thread(lambda: list(path.iterdir()))``.
LAZY = frozenset(
    "pathlib.Path.iterdir pathlib.Path.glob pathlib.Path.rglob pathlib.Path.walk os.walk os.fwalk os.scandir "
    "glob.iglob".split()
)

#: Pure-Python CPU work, where a worker thread frees the loop but still holds the GIL.
GIL_BOUND = ("copy.deepcopy", "json.", "pickle.", "marshal.", "yaml.", "base64.")
