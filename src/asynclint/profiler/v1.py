"""A verifiers v1 environment as a profiling target: a package exporting a ``verifiers.v1.Taskset``
subclass (and optionally its Harness and Env), run offline on one loop the way the framework's
own in-process evaluation runs it: ``env.serving()``, then ``env.run_slot`` per rollout.

Offline means: a local subprocess runtime instead of remote sandboxes, the model and any judge
pointed at the fake server, and (unless the environment brings a harness that runs locally)
asynclint's in-process agent instead of an agent program installed with ``uv``.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, TypeGuard

from asynclint.profiler.target_base import (
    FAKE_API_KEY,
    MODEL_NAME,
    EnvironmentTarget,
    LoadPlan,
    RolloutError,
    RunOutcome,
    TargetError,
    drive,
    error_text,
)

#: The variable the model client config reads its key from (verifiers reads keys by variable name).
API_KEY_VAR = "ASYNCLINT_FAKE_API_KEY"


def _is_v1_class(value: Any, base: str) -> TypeGuard[type[Any]]:
    """A subclass of ``verifiers.v1``'s ``base``, recognised without importing verifiers."""
    return isinstance(value, type) and any(
        c.__name__ == base and c.__module__.startswith("verifiers.v1") for c in value.__mro__[1:]
    )


def _exported(module: Any, base: str) -> list[type[Any]]:
    names = getattr(module, "__all__", None) or ()
    return [value for name in names if _is_v1_class(value := getattr(module, name, None), base)]


def exports_v1_taskset(module: Any) -> bool:
    """What verifiers v1 loads a taskset from: a module listing a Taskset subclass in ``__all__``."""
    return bool(_exported(module, "Taskset"))


class VerifiersV1Target(EnvironmentTarget):
    """``rollout i`` is one episode of the taskset's task ``i mod len(tasks)``, in load order.
    ``env_args`` is an env config (``--env-args``)."""

    kind = "verifiers-v1"

    def __init__(self, spec: str, module: Any, env_args: dict[str, Any]):
        super().__init__(spec, module, env_args)
        self.ctx: Any = None
        self.tasks: list[Any] = []
        self.own_agent = False
        self._serving: AsyncExitStack | None = None

    def prepare(self, base_url: str | None, plan: LoadPlan) -> None:
        # Clients the environment or a judge builds from defaults read these: the fake server too.
        os.environ["OPENAI_BASE_URL"] = os.environ["PRIME_INFERENCE_URL"] = base_url or ""
        os.environ["OPENAI_API_KEY"] = os.environ["PRIME_API_KEY"] = os.environ[API_KEY_VAR] = FAKE_API_KEY
        self._export_import_root()
        try:
            import verifiers.v1 as vf
        except ImportError as exc:
            raise TargetError(
                f"{self.spec}: a verifiers v1 environment, but verifiers.v1 cannot be imported: {error_text(exc)}"
            ) from None
        config = self._config()
        try:
            env = vf.load_environment(vf.resolve_env_config(config))
            tasks = list(env.taskset)
        except Exception as exc:
            raise TargetError(f"{self.spec}: loading the v1 environment failed: {error_text(exc)}") from None
        if not tasks:
            raise TargetError(f"{self.spec}: the taskset loaded no tasks")
        self.env, self.tasks = env, tasks
        self.ctx = vf.ModelContext(
            model=MODEL_NAME, client=vf.EvalClientConfig(base_url=base_url, api_key_var=API_KEY_VAR)
        )
        if self.own_agent:
            from asynclint.profiler import v1_agent

            v1_agent.open_client()

    def _config(self) -> dict[str, Any]:
        """The user's ``--env-args`` (an env config), with this module as the taskset and, where the
        user chose nothing, a local runtime and an agent that runs without installing anything."""
        config = {**self.env_args}
        # verifiers finds a taskset by a flat, lower-case module id; any module can be one under an alias.
        alias = "asynclint_target_" + re.sub(r"\W", "_", self.module.__name__).lower()
        sys.modules[alias] = self.module
        config["taskset"] = {**(config.get("taskset") or {}), "id": alias}
        agent = {**(config.get("agent") or {})}
        agent.setdefault("runtime", {"type": "subprocess"})
        if "harness" not in agent:
            own = _exported(self.module, "Harness")
            if not (own and own[0].NEEDS_CONTAINER is False):
                from asynclint.profiler import v1_agent

                v1_agent.register()
                agent["harness"] = {"id": v1_agent.HARNESS_ID}
                self.own_agent = True
        config["agent"] = agent
        return config

    def _export_import_root(self) -> None:
        """Tool servers run in their own processes and import the task's classes by module path."""
        file = getattr(self.module, "__file__", None)
        if not file:
            return
        depth = self.module.__name__.count(".") + (1 if Path(file).name == "__init__.py" else 0)
        root = Path(file).resolve().parents[depth]
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        if str(root) not in paths:
            os.environ["PYTHONPATH"] = os.pathsep.join([str(root), *paths])

    async def start(self) -> None:
        self._serving = AsyncExitStack()
        try:
            await self._serving.enter_async_context(self.env.serving())
        except Exception as exc:
            raise TargetError(f"{self.spec}: starting the environment failed: {error_text(exc)}") from None

    async def close(self) -> None:
        try:
            if self._serving is not None:
                await self._serving.aclose()
        finally:
            if self.own_agent:
                from asynclint.profiler import v1_agent

                await v1_agent.close_client()

    async def rollout(self, index: int) -> dict[str, Any]:
        task_index = index % len(self.tasks)
        slot = self.env.slots(self.tasks[task_index], 1)[0]
        episode = await self.env.run_slot(slot, self.ctx)
        errors = [*episode.errors, *(e for trace in episode.traces for e in trace.errors)]
        if not episode.ok or errors:
            first = errors[0] if errors else None
            raise RolloutError(f"{first.type}: {first.message.strip()}" if first else "the episode did not complete")
        traces = [_trace_output(trace) for trace in episode.traces]
        return {"task": task_index, **(traces[0] if len(traces) == 1 else {"traces": traces})}

    async def warm_up(self, plan: LoadPlan, stop: asyncio.Event | None = None) -> None:
        await drive(self.rollout, plan, stop)

    async def run(self, plan: LoadPlan, stop: asyncio.Event | None = None) -> RunOutcome:
        return await drive(self.rollout, plan, stop)


def _trace_output(trace: Any) -> dict[str, Any]:
    return {
        "reward": trace.reward,
        "rewards": {name: (reward.value if reward is not None else None) for name, reward in trace.rewards.items()},
        "metrics": dict(trace.metrics),
    }
