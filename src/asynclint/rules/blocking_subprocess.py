"""ASL106: waiting for a child process on the event loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule, Candidate


class BlockingSubprocess(BlockingCallRule):
    """`subprocess.run`, `os.system` and friends wait for a child process on the loop.

    **Why is this bad?**
    Running a checker script, a compiler or a test suite takes as long as the child runs;
    the loop is frozen for all of it. `subprocess.Popen(...)` alone is graded medium (fork and
    exec cost milliseconds); its `communicate()`/`wait()` are critical.

    **Example**
    ```python
    import subprocess

    async def run_tests(path: str) -> int:
        return subprocess.run(["pytest", "-q", path]).returncode
    ```

    **Use instead**
    ```python
    import asyncio

    async def run_tests(path: str) -> int:
        process = await asyncio.create_subprocess_exec("pytest", "-q", path)
        return await process.wait()
    ```

    **Fix**
    `asyncio.create_subprocess_exec` / `create_subprocess_shell`, awaited; or
    `await asyncio.to_thread(subprocess.run, ...)`. `asynclint fix` writes the latter (safe):
    the same call in a worker thread keeps `input=`, `timeout=`, `check=` and `text=` meaning
    exactly what they meant, which a rewrite to `create_subprocess_exec` would not.
    """

    code = "ASL106"
    name = "blocking-subprocess"
    category = "subprocess"
    default_severity = Severity.CRITICAL
    message = "`{callee}` {what} {where}"

    def cost(self, candidate: Candidate) -> str | None:
        if candidate.site.ready:
            return "ready-read"  # a select on the pipe waited first (knowledge.blocking.READY_READS)
        return candidate.cost.name
