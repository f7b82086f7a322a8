"""What a worker thread does to a call: callees tied to the thread that made their object, lazy
iterators whose I/O happens while they are consumed, CPU work that keeps the GIL, and calls that
change state other rollouts share (read by the ``to-thread`` recipe to decline, to consume in the
thread, to say the loop still waits, or that the fix is unsafe)."""

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

#: Calls that change the filesystem: two rollouts doing them at once on one path can interleave.
FILE_WRITES = frozenset(
    "write_text write_bytes unlink rename replace rmtree remove rmdir makedirs mkdir dump move copy copyfile "
    "copytree touch".split()
)
#: Methods that change a container in place.
MUTATORS = frozenset("append extend insert update pop popitem setdefault clear remove add discard sort".split())
