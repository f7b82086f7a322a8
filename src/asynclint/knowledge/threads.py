"""What a worker thread does to a call: callees tied to the thread that made their object, lazy
iterators whose I/O happens while they are consumed, streams that send nothing until iterated or
entered, CPU work that keeps the GIL, and calls that change state other rollouts share (read by
the ``to-thread`` recipe to decline, to consume in the thread, to say the loop still waits, or
that the fix is unsafe)."""

from __future__ import annotations

from asynclint.knowledge.packs import PACK_DEFERRED

#: Callees whose objects are tied to the thread that made them: moving a call to another thread
#: raises (sqlite3's ``check_same_thread``) -- matched on the resolved callee's prefix.
THREAD_BOUND = ("sqlite3.connect",)

#: Calls returning lazy iterators: the I/O happens while iterating, so the thread must consume
#: them: ``await asyncio.to_thread(lambda: list(path.iterdir()))``.
LAZY = frozenset(
    "pathlib.Path.iterdir pathlib.Path.glob pathlib.Path.rglob pathlib.Path.walk os.walk os.fwalk os.scandir "
    "glob.iglob importlib.resources.abc.Traversable.iterdir".split()
)

#: Library calls that only build a generator or a stream manager: the request is sent as the result
#: is iterated, or when its ``with`` is entered, so a worker thread given the call alone would take
#: nothing off the loop. Callee -> what the call gives, in words (follows "returns"), with where
#: that was read. The fix is the library's async stream, iterated with ``async for``.
DEFERRED: dict[str, str] = {
    **{
        f"openai.{client}.{resource}.stream": (
            f"a stream manager that sends the request when its `with` is entered (openai 3.57.0 lib/{module}: "
            "partial(resource.create, ...))"
        )
        for client in ("OpenAI", "AzureOpenAI")
        for resource, module in (
            ("chat.completions", "_chat_completion_resources.py"),
            ("responses", "_response_resources.py"),
        )
    },
    "anthropic.Anthropic.messages.stream": (
        "a stream manager that sends the request when its `with` is entered (anthropic 2.14.0 "
        "resources/messages/messages.py: MessageStreamManager(partial(self._post, ...)))"
    ),
    **{
        callee: f"a `@contextmanager` that sends the request when its `with` is entered (httpx 0.28.1 {module})"
        for callee, module in (("httpx.stream", "_api.py"), ("httpx.Client.stream", "_client.py"))
    },
    **PACK_DEFERRED,
}

#: Pure-Python CPU work, where a worker thread frees the loop but still holds the GIL.
GIL_BOUND = ("copy.deepcopy", "json.", "pickle.", "marshal.", "yaml.", "base64.")

#: Calls that change the filesystem: two rollouts doing them at once on one path can interleave.
FILE_WRITES = frozenset(
    "write_text write_bytes unlink rename replace rmtree remove rmdir makedirs mkdir dump move copy copyfile "
    "copytree touch".split()
)
#: Methods that change a container in place.
MUTATORS = frozenset("append extend insert update pop popitem setdefault clear remove add discard sort".split())
