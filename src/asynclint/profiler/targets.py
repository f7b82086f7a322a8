"""What ``asynclint profile`` runs: a generic async callable taking a rollout index, or a verifiers
environment driven offline against the fake model server. Loading is cold (before measuring);
``run`` is the measured part and happens on the profiled loop."""

from __future__ import annotations

import asyncio
import copy
import importlib
import importlib.util
import itertools
import math
import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from asynclint.profiler.target_base import (
    FAKE_API_KEY,
    MODEL_NAME,
    EnvironmentTarget,
    LoadPlan,
    Pool,
    RunOutcome,
    Target,
    TargetError,
    cut_output,
    drive,
    error_text,
    module_sources,
)
from asynclint.profiler.v1 import VerifiersV1Target, exports_v1_taskset


def _package_root(directory: Path) -> Path | None:
    """The outermost package directory holding ``directory`` (itself included), if it is one."""
    root = None
    while (directory / "__init__.py").is_file():
        root, directory = directory, directory.parent
    return root


def _import_file(path: Path) -> Any:
    """Import a module file, or a package directory, by path. One inside a package is imported as
    that package's module (``pkg/mod.py`` as ``pkg.mod``, with the package's parent on sys.path),
    so its relative imports work; any other has its parent put on sys.path, so sibling imports
    work as they would for the user."""
    path = path.resolve()
    root = _package_root(path.parent)
    if root is not None:
        return _import_in_package(path, root)
    package = path.is_dir()
    name = path.name if package else path.stem
    parent = str(path.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)
    existing = sys.modules.get(name)
    if existing is not None:
        origin = getattr(existing, "__file__", None)
        expected = path / "__init__.py" if package else path
        if origin and Path(origin).resolve() == expected:
            return existing
        raise TargetError(f"{path}: a different module named {name!r} is already imported")
    location = path / "__init__.py" if package else path
    spec = importlib.util.spec_from_file_location(
        name, location, submodule_search_locations=[str(path)] if package else None
    )
    if spec is None or spec.loader is None:
        raise TargetError(f"{path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _import_in_package(path: Path, root: Path) -> Any:
    parts = path.relative_to(root.parent).parts
    name = ".".join([*parts[:-1], parts[-1] if path.is_dir() else path.stem])
    if str(root.parent) not in sys.path:
        sys.path.insert(0, str(root.parent))
    module = importlib.import_module(name)
    origin = getattr(module, "__file__", None)
    expected = path / "__init__.py" if path.is_dir() else path
    if not origin or Path(origin).resolve() != expected:
        raise TargetError(f"{path}: a different module named {name!r} is already importable ({origin})")
    return module


def _load(where: str) -> Any:
    """A module by dotted name, file path or package directory; TargetError on any failure."""
    path = Path(where)
    try:
        if where.endswith(".py") or path.is_dir() or path.is_file():
            if not path.exists():
                raise TargetError(f"{where}: no such file or directory")
            if path.is_dir() and not (path / "__init__.py").is_file():
                raise TargetError(f"{where}: not a Python package (no __init__.py)")
            return _import_file(path)
        # Like `python -m`, a module name is looked up from the working directory first (the
        # console script's own directory is what sys.path starts with otherwise).
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        return importlib.import_module(where)
    except TargetError:
        raise
    except ModuleNotFoundError as exc:
        if exc.name and (where == exc.name or where.startswith(exc.name + ".")):
            raise TargetError(f"{where}: no such file, module or installed environment") from None
        raise TargetError(f"cannot import {where}: {error_text(exc)}") from None
    except BaseException as exc:  # the user's module failed at import time
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise TargetError(f"cannot import {where}: {error_text(exc)}") from None


class CallableTarget(Target):
    """``module:function`` or ``path/to/file.py:function``: ``await function(index)`` per rollout."""

    kind = "callable"

    def __init__(self, spec: str, function: Callable[[int], Awaitable[Any]], sources: list[Path]):
        super().__init__(spec)
        self.function = function
        self.sources = sources

    async def run(self, plan: LoadPlan, stop: asyncio.Event | None = None) -> RunOutcome:
        return await drive(self.function, plan, stop)


class VerifiersTarget(EnvironmentTarget):
    """A verifiers v0 environment (``load_environment()`` in a module, package or installed id),
    run with ``env.generate`` (what ``env.evaluate`` calls) on its evaluation dataset, repeated
    in dataset order to the number of rollouts asked for, against the fake model server.

    verifiers runs (and scores) all rollouts of one example together, as a group, and its
    ``max_concurrent`` counts groups. So the load is a stream of groups, each example's rollouts
    one group (one rollout per example and pass with ``--duration`` alone), each group one
    ``env.generate`` call, with as many groups in flight as ``--concurrency`` holds: concurrency
    stays where it was asked between groups, and ``--duration`` stops starting groups on time."""

    kind = "verifiers-v0"

    def __init__(self, spec: str, module: Any, env_args: dict[str, Any]):
        super().__init__(spec, module, env_args)
        self.client: Any = None
        self.rows: list[dict[str, Any]] = []
        self.prepared: dict[int, list[dict[str, Any]]] = {}  # the measured run's inputs, by example, copied cold
        self._executor_set = False

    def prepare(self, base_url: str | None, plan: LoadPlan) -> None:
        # Any OpenAI client the environment builds itself (a judge, say) reads these: point it at
        # the fake server too, before load_environment builds it.
        os.environ["OPENAI_BASE_URL"] = base_url or ""
        os.environ["OPENAI_API_KEY"] = FAKE_API_KEY
        # A progress bar per dataset.map in load_environment is noise around the report. The
        # variable works only before `datasets` is imported; importing the target usually did that.
        os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
        datasets = sys.modules.get("datasets")
        if datasets is not None and hasattr(datasets, "disable_progress_bars"):
            datasets.disable_progress_bars()
        try:
            env = self.module.load_environment(**self.env_args)
        except Exception as exc:
            raise TargetError(f"{self.spec}: load_environment() failed: {error_text(exc)}") from None
        legacy_environment = _v0_environment_class()
        if legacy_environment is None or not isinstance(env, legacy_environment):
            raise TargetError(
                f"{self.spec}: load_environment() returned {type(env).__name__}, not a verifiers (v0) Environment"
            )
        dataset = env.get_eval_dataset()
        if dataset is None or len(dataset) == 0:
            raise TargetError(f"{self.spec}: the environment has no dataset to run")
        self.rows = dataset.to_list()
        if plan.rollouts is not None:
            self.prepared = {example: self.inputs(example, size) for example, size in self.groups(plan.rollouts)}
        self.env = env
        self.client = _client(base_url)

    def groups(self, rollouts: int | None) -> Iterator[tuple[int, int]]:
        """(example, rollouts of it) in run order: the dataset repeated in order to ``rollouts``
        inputs makes each example one group; without a count, pass after pass, one rollout each."""
        count = len(self.rows)
        if rollouts is None:
            return ((index % count, 1) for index in itertools.count())
        return ((example, len(range(example, rollouts, count))) for example in range(min(count, rollouts)))

    def group_size(self, rollouts: int | None) -> int:
        return 1 if rollouts is None else math.ceil(rollouts / len(self.rows))

    def concurrency(self, plan: LoadPlan) -> tuple[int, str | None]:
        size = self.group_size(plan.rollouts)
        effective = max(1, plan.concurrency // size) * size
        if plan.rollouts is not None:
            effective = min(effective, plan.rollouts)
        if effective == plan.concurrency:
            return effective, None
        if plan.rollouts is not None and effective == plan.rollouts:
            return effective, f"only {plan.rollouts} rollouts"
        if size > plan.concurrency:
            return effective, f"verifiers runs each example's {size} rollouts together, as one group"
        return effective, f"whole groups of {size} rollouts (one example each)"

    async def warm_up(self, plan: LoadPlan, stop: asyncio.Event | None = None) -> None:
        inputs = await asyncio.to_thread(lambda: {e: self.inputs(e, n) for e, n in self.groups(plan.rollouts)})
        await self._drive(plan, inputs, stop)

    async def run(self, plan: LoadPlan, stop: asyncio.Event | None = None) -> RunOutcome:
        return await self._drive(plan, self.prepared, stop)

    async def _drive(
        self, plan: LoadPlan, prepared: dict[int, list[dict[str, Any]]], stop: asyncio.Event | None
    ) -> RunOutcome:
        if not self._executor_set:
            # What the framework's own runner does: a default executor sized for its to_thread calls.
            asyncio.get_running_loop().set_default_executor(
                ThreadPoolExecutor(max_workers=getattr(self.env, "max_workers", None) or 32)
            )
            self._executor_set = True
        results: dict[int, list[Any]] = {}  # by group, in run order
        errors: list[str] = []
        planned = enumerate(self.groups(plan.rollouts))
        workers = Pool(plan, max(1, plan.concurrency // self.group_size(plan.rollouts)), stop)

        async def one(job: tuple[int, tuple[int, int]]) -> None:
            number, (example, size) = job
            inputs = prepared.get(example) if plan.rollouts is not None else None
            if inputs is None:  # --duration alone: copied per group, off the loop
                inputs = await asyncio.to_thread(self.inputs, example, size)
            results[number] = self._outputs(await self._generate(inputs), errors)

        ending = await workers.run(lambda: next(planned, None), one)
        for number, (example, size) in ending.cut:
            assert ending.reason is not None  # a pool cuts jobs only when it says why
            results[number] = [
                {"example_id": self.rows[example].get("example_id", example), **cut_output(ending.reason, plan)}
            ] * size
        outputs = [output for number in sorted(results) for output in results[number]]
        return RunOutcome(
            tuple(outputs),
            len(errors),
            errors[0] if errors else None,
            sum(size for _, (_, size) in ending.cut),
            ending.reason,
        )

    async def _generate(self, inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """One ``env.generate`` over one group's inputs, all in flight."""
        try:
            results = await self.env.generate(
                inputs,
                client=self.client,
                model=MODEL_NAME,
                max_concurrent=1,
                on_start=lambda *args, **kwargs: None,
                on_progress=lambda *args, **kwargs: None,
            )
        except Exception as exc:
            raise TargetError(f"{self.spec}: generate() failed: {error_text(exc)}") from None
        return results["outputs"]

    @staticmethod
    def _outputs(outputs: list[dict[str, Any]], errors: list[str]) -> list[dict[str, Any]]:
        """Each rollout's reward and metrics; error lines are appended to ``errors``."""
        kept = []
        for output in outputs:
            error = output.get("error")
            if error:
                errors.append(str(error).splitlines()[0] if str(error).strip() else "error")
            kept.append(
                {
                    "example_id": output.get("example_id"),
                    "reward": output.get("reward"),
                    "metrics": output.get("metrics") or {},
                    **({"error": str(error)} if error else {}),
                }
            )
        return kept

    def inputs(self, example: int, size: int) -> list[dict[str, Any]]:
        """``size`` rollout inputs of one example, each its own copy: the framework may write into one."""
        return [copy.deepcopy(self.rows[example]) for _ in range(size)]


def _v0_environment_class() -> type[Any] | None:
    try:
        from verifiers.legacy.envs.environment import Environment
    except ImportError:
        try:
            from verifiers.envs.environment import Environment  # releases before the legacy split
        except ImportError:
            return None
    return Environment


def _client(base_url: str | None) -> Any:
    from openai import AsyncOpenAI

    raw = AsyncOpenAI(base_url=base_url, api_key=FAKE_API_KEY, max_retries=0)
    try:
        from verifiers.legacy.clients import OpenAIChatCompletionsClient
    except ImportError:
        return raw  # older releases take the AsyncOpenAI client itself
    return OpenAIChatCompletionsClient(raw)


def resolve(spec: str, env_args: dict[str, Any] | None = None) -> Target:
    """Find and import the target named by ``spec`` (TargetError with a one-line reason)."""
    if not spec.strip():
        raise TargetError("empty target")
    where, colon, name = spec.rpartition(":")
    if colon and where and name.isidentifier():
        module = _load(where)
        function = getattr(module, name, None)
        if function is None:
            raise TargetError(f"{spec}: {where} has no attribute {name!r}")
        if not callable(function):
            raise TargetError(f"{spec}: {name!r} is not callable")
        # Whether it returns an awaitable is checked at the first call (drive): a sync function,
        # lambda or decorator can return a coroutine, and no signature says so reliably.
        return CallableTarget(spec, function, module_sources(module))
    path = Path(spec)
    candidates = [spec]
    if not path.exists() and not spec.endswith(".py"):
        candidates.append(spec.replace("-", "_"))  # environment ids are dashed, modules underscored
    module = None
    for candidate in candidates:
        try:
            module = _load(candidate)
            break
        except TargetError as exc:
            if candidate == candidates[-1] or "no such" not in str(exc):
                raise
    if hasattr(module, "load_environment"):
        return VerifiersTarget(spec, module, env_args or {})
    if exports_v1_taskset(module):
        return VerifiersV1Target(spec, module, env_args or {})
    raise TargetError(
        f"{spec}: neither a verifiers v0 environment (no load_environment()) nor a v1 one "
        "(no Taskset subclass in __all__); for any other code, name an async function: "
        "module:function"
    )


def default_rollouts(target: Target, rollouts: int | None, duration: float | None) -> int | None:
    if rollouts is not None or duration is not None:
        return rollouts
    return 256 if isinstance(target, CallableTarget) else 24


__all__ = ["CallableTarget", "VerifiersTarget", "default_rollouts", "resolve"]
