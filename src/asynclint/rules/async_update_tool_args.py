"""ASL202: ``async def update_tool_args`` in a verifiers v0 ``StatefulToolEnv``."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.hook_definitions import DefinitionRule


class AsyncUpdateToolArgs(DefinitionRule):
    """`update_tool_args` of a verifiers v0 `StatefulToolEnv` is written as `async def`.

    **Why is this bad?**
    v0 calls `update_tool_args` synchronously and never awaits it. An `async def` returns a
    coroutine that is dropped: the tool arguments are never updated (the state-injected
    arguments are missing), and Python warns that the coroutine was never awaited.

    **Example**
    ```python
    import verifiers as vf

    class SandboxEnv(vf.StatefulToolEnv):
        async def update_tool_args(self, tool_name, tool_args, messages, state, **kwargs):
            tool_args["sandbox_id"] = state["sandbox_id"]
            return tool_args
    ```

    **Use instead**
    ```python
    import verifiers as vf

    class SandboxEnv(vf.StatefulToolEnv):
        def update_tool_args(self, tool_name, tool_args, messages, state, **kwargs):
            tool_args["sandbox_id"] = state["sandbox_id"]
            return tool_args
    ```

    **Fix**
    Write it as a plain `def`; keep it cheap (it runs on the loop for every tool call).
    `asynclint fix` does (safe), unless its body awaits or the project calls it itself.
    """

    code = "ASL202"
    name = "async-update-tool-args"
    default_severity = Severity.CRITICAL
    requirement = "sync"
    message = (
        "{hook} `{function}` is `async def`, but verifiers v0 calls it without awaiting: "
        "the tool arguments are never updated"
    )
