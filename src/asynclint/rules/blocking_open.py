"""ASL107: ``open()`` and file-object reads and writes on the event loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule, Candidate

_FILE_OBJECT_ORIGINS = frozenset({"self", "module", "param"})
_OPENERS = frozenset({"builtins.open", "io.open"})


class BlockingOpen(BlockingCallRule):
    """`open()` and reads/writes on file objects do disk I/O on the event loop.

    **Why is this bad?**
    Disk reads and writes block the thread: microseconds on a warm page cache, many
    milliseconds on a network filesystem or a busy disk, which is what training clusters
    have. File objects kept on `self` (a log opened in `__init__`, written per turn) are
    flagged where they are used. One finding per file object: the reads, writes and parses
    (`json.load(f)`, `f.write(...)`) made through a file the same function opens, and the parse of
    the text read through it (`json.loads(f.read())`, a project parser handed `text = f.read()`
    while `text` is unchanged), are named in the finding on its `open()`, graded by the costliest
    of them, not on their own lines.

    **Example**
    ```python
    import json

    async def setup_state(state):
        with open(state["doc_path"]) as f:
            state["doc"] = json.load(f)
    ```

    **Use instead**
    ```python
    import asyncio
    import json

    def _read_doc(path):
        with open(path) as f:
            return json.load(f)

    async def setup_state(state):
        state["doc"] = await asyncio.to_thread(_read_doc, state["doc_path"])
    ```

    **Fix**
    Move the block into a small sync function and `await asyncio.to_thread(...)` it, or read
    the data once at load time. `asynclint fix` does the former (safe): the helper is defined
    just above, returns the names the function uses afterwards and rebinds the ones it already
    had (`nonlocal`); it declines when the block awaits, returns or breaks out.
    """

    code = "ASL107"
    name = "blocking-open"
    category = "open"
    default_severity = Severity.HIGH
    message = "`{callee}` {what} {where}"

    def cost(self, candidate: Candidate) -> str | None:
        is_file_method = candidate.api.pattern.rpartition(".")[0] in _OPENERS
        if is_file_method and candidate.site.origin not in _FILE_OBJECT_ORIGINS:
            return None  # opened in this function: its open() is the finding
        return candidate.cost.name
