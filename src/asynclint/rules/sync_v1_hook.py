"""ASL201: a verifiers v1 hook that must be a coroutine function written with plain ``def``."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.hook_definitions import DefinitionRule


class SyncV1Hook(DefinitionRule):
    """A verifiers v1 hook that the framework awaits (`@vf.reward`, `@vf.metric`, Task/Env `setup`/`finalize`, Harness hooks) is a plain `def`.

    **Why is this bad?**
    verifiers v1 awaits these hooks: `@vf.reward`/`@vf.metric` and `Task.setup`/`finalize`
    through its hook invoker, `Harness.setup`/`launch`/`resume`/`session`/`cleanup` and
    `Env.setup`/`run`/`finalize` directly. It calls the function first and awaits the result,
    so a sync body runs in full on the event loop -- blocking every rollout -- and then the
    rollout fails, because a float or `None` cannot be awaited. Every rollout pays the stall
    and produces no result.

    **Example**
    ```python
    import verifiers.v1 as vf

    class MathTask(vf.Task):
        @vf.reward
        def correct(self, trace) -> float:
            return float(trace.answer == self.answer)
    ```

    **Use instead**
    ```python
    import verifiers.v1 as vf

    class MathTask(vf.Task):
        @vf.reward
        async def correct(self, trace) -> float:
            return float(trace.answer == self.answer)
    ```

    **Fix**
    Write it as `async def` (and offload any blocking work inside it). `asynclint fix` does
    (safe), unless the project also calls the hook itself.
    """

    code = "ASL201"
    name = "sync-v1-hook"
    default_severity = Severity.CRITICAL
    requirement = "async"
    message = (
        "{hook} `{function}` is a plain `def`: verifiers v1 awaits it, "
        "so it fails after running its body on the event loop"
    )
