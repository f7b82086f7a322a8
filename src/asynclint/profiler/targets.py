"""What ``asynclint profile`` runs: a generic async callable taking a rollout index, or a verifiers
environment driven offline against the fake model server. Loading is cold (before measuring);
``run`` is the measured part and happens on the profiled loop."""

from __future__ import annotations

import asyncio
import copy
import importlib
import importlib.util
import inspect
import json
import math
import os
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The API key the fake server is given by the profiled code; it checks none.
FAKE_API_KEY = "asynclint-fake-key"
MODEL_NAME = "asynclint-fake-model"


class TargetError(Exception):
    """The target cannot be found, loaded or run (one line, for the CLI)."""


class RolloutError(Exception):
    """A rollout that failed in a way the target has already put into words (its first line is the
    rollout's output, without this class's name in front)."""


@dataclass(frozen=True)
class LoadPlan:
    rollouts: int | None  # None: until ``duration`` runs out
    concurrency: int
    duration: float | None  # seconds


@dataclass(frozen=True)
class RunOutcome:
    outputs: tuple[Any, ...]  # one per rollout, in rollout order (``canonical`` makes them JSON)
    errors: int  # rollouts that raised
    first_error: str | None


def canonical(value: Any) -> Any:
    """A JSON-able copy of a rollout's output, stable across runs (dict keys sorted on dump)."""
    try:
        return json.loads(json.dumps(value, sort_keys=True, default=repr))
    except (TypeError, ValueError):
        return repr(value)


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    if isinstance(exc, RolloutError) and text:
        return text[0]
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _import_file(path: Path) -> Any:
    """Import a module file, or a package directory, by path (its parent goes on sys.path, so
    sibling and relative imports work as they would for the user)."""
    path = path.resolve()
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
        name, location, submodule_search_locations=[str(path)] if package else None)
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
        raise TargetError(f"cannot import {where}: {_error_text(exc)}") from None
    except BaseException as exc:  # the user's module failed at import time
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise TargetError(f"cannot import {where}: {_error_text(exc)}") from None


def module_sources(module: Any) -> list[Path]:
    """The files to check statically: a package's directory, or the module's file."""
    paths = getattr(module, "__path__", None)
    if paths:
        return [Path(p) for p in paths]
    file = getattr(module, "__file__", None)
    return [Path(file)] if file else []


class Target:
    kind = "target"
    needs_server = False

    def __init__(self, spec: str):
        self.spec = spec
        self.sources: list[Path] = []

    def prepare(self, base_url: str | None, plan: LoadPlan) -> None:
        """Cold work before measuring (imports, loading the environment)."""

    async def start(self) -> None:
        """Cold work on the profiled loop before the warm-up (servers the rollouts share)."""

    async def close(self) -> None:
        """Undo ``start``, after measuring."""

    async def run(self, plan: LoadPlan) -> RunOutcome:
        raise NotImplementedError

    async def warm_up(self, plan: LoadPlan) -> None:
        """Rollouts before measuring; their outputs are not part of the run's."""
        await self.run(plan)


class CallableTarget(Target):
    """``module:function`` or ``path/to/file.py:function``: ``await function(index)`` per rollout."""

    kind = "callable"

    def __init__(self, spec: str, function: Callable[[int], Awaitable[Any]], sources: list[Path]):
        super().__init__(spec)
        self.function = function
        self.sources = sources

    async def run(self, plan: LoadPlan) -> RunOutcome:
        return await drive(self.function, plan)


async def drive(function: Callable[[int], Awaitable[Any]], plan: LoadPlan) -> RunOutcome:
    """Run ``function(0), function(1), …`` with ``plan.concurrency`` in flight, until
    ``plan.rollouts`` are done or ``plan.duration`` has passed (then the ones in flight finish)."""
    results: dict[int, Any] = {}
    errors: list[str] = []
    next_index = 0
    deadline = None if plan.duration is None else time.monotonic() + plan.duration

    def take() -> int | None:
        nonlocal next_index
        if plan.rollouts is not None and next_index >= plan.rollouts:
            return None
        if deadline is not None and time.monotonic() >= deadline:
            return None
        next_index += 1
        return next_index - 1

    async def worker() -> None:
        while (index := take()) is not None:
            try:
                awaitable = function(index)
                if not inspect.isawaitable(awaitable):
                    raise TargetError(f"{getattr(function, '__qualname__', function)!s} returned "
                                      f"{type(awaitable).__name__}, not an awaitable: profile an async function")
                results[index] = await awaitable  # made canonical after the run, off the clock
            except TargetError:
                raise
            except (Exception, SystemExit) as exc:  # a failing rollout is an output too; the run goes on
                errors.append(_error_text(exc))
                results[index] = {"error": _error_text(exc)}

    workers = [asyncio.ensure_future(worker()) for _ in range(plan.concurrency)]
    try:
        await asyncio.gather(*workers)
    finally:
        for task in workers:
            task.cancel()
    return RunOutcome(tuple(results[i] for i in sorted(results)), len(errors), errors[0] if errors else None)


class EnvironmentTarget(Target):
    """A verifiers environment module, run against the fake model server with ``env_args``."""

    needs_server = True

    def __init__(self, spec: str, module: Any, env_args: dict[str, Any]):
        super().__init__(spec)
        self.module = module
        self.env_args = env_args
        self.sources = module_sources(module)
        self.env: Any = None


class VerifiersTarget(EnvironmentTarget):
    """A verifiers v0 environment (``load_environment()`` in a module, package or installed id),
    run with ``env.generate`` (what ``env.evaluate`` calls) on its evaluation dataset, repeated
    in dataset order to the number of rollouts asked for, against the fake model server."""

    kind = "verifiers-v0"

    def __init__(self, spec: str, module: Any, env_args: dict[str, Any]):
        super().__init__(spec, module, env_args)
        self.client: Any = None
        self.rows: list[dict[str, Any]] = []
        self.first_batch: list[dict[str, Any]] = []
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
            raise TargetError(f"{self.spec}: load_environment() failed: {_error_text(exc)}") from None
        legacy_environment = _v0_environment_class()
        if legacy_environment is None or not isinstance(env, legacy_environment):
            raise TargetError(f"{self.spec}: load_environment() returned {type(env).__name__}, "
                              "not a verifiers (v0) Environment")
        dataset = env.get_eval_dataset()
        if dataset is None or len(dataset) == 0:
            raise TargetError(f"{self.spec}: the environment has no dataset to run")
        self.rows = dataset.to_list()
        self.first_batch = self.batch(plan.rollouts or len(self.rows))
        self.env = env
        self.client = _client(base_url)

    async def warm_up(self, plan: LoadPlan) -> None:
        await self._generate(await asyncio.to_thread(self.batch, plan.rollouts or len(self.rows)), plan, [], [])

    async def run(self, plan: LoadPlan) -> RunOutcome:
        deadline = None if plan.duration is None else time.monotonic() + plan.duration
        outputs: list[Any] = []
        errors: list[str] = []
        inputs = self.first_batch
        while True:
            await self._generate(inputs, plan, outputs, errors)
            if deadline is None or time.monotonic() >= deadline:
                break
            # --duration: another batch, copied off the loop (still GIL-bound, but not a stall).
            inputs = await asyncio.to_thread(self.batch, len(inputs))
        return RunOutcome(tuple(outputs), len(errors), errors[0] if errors else None)

    async def _generate(self, inputs: list[dict[str, Any]], plan: LoadPlan, outputs: list[Any],
                        errors: list[str]) -> None:
        """One ``env.generate`` over ``inputs``; outputs and error lines are appended."""
        env = self.env
        if not self._executor_set:
            # What the framework's own runner does: a default executor sized for its to_thread calls.
            asyncio.get_running_loop().set_default_executor(
                ThreadPoolExecutor(max_workers=getattr(env, "max_workers", None) or 32))
            self._executor_set = True
        per_example = math.ceil(len(inputs) / len(self.rows))
        try:
            # max_concurrent counts groups (all rollouts of one example) under group scoring.
            results = await env.generate(
                inputs, client=self.client, model=MODEL_NAME, max_concurrent=max(1, plan.concurrency // per_example),
                on_start=lambda *args, **kwargs: None, on_progress=lambda *args, **kwargs: None,
            )
        except Exception as exc:
            raise TargetError(f"{self.spec}: generate() failed: {_error_text(exc)}") from None
        for output in results["outputs"]:
            error = output.get("error")
            if error:
                errors.append(str(error).splitlines()[0] if str(error).strip() else "error")
            outputs.append({
                "example_id": output.get("example_id"), "reward": output.get("reward"),
                "metrics": output.get("metrics") or {}, **({"error": str(error)} if error else {}),
            })

    def batch(self, size: int) -> list[dict[str, Any]]:
        """``size`` rollout inputs, the dataset's rows in order and over again; each its own copy,
        as the framework may write into an input."""
        return [copy.deepcopy(self.rows[i % len(self.rows)]) for i in range(size)]


def _v0_environment_class() -> type | None:
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
        is_async = inspect.iscoroutinefunction(function) or (
            not inspect.isroutine(function) and inspect.iscoroutinefunction(type(function).__call__))
        if inspect.isclass(function) or not is_async:
            if not _returns_awaitable_hint(function):
                raise TargetError(f"{spec}: {name!r} is not an async function (profile `async def {name}(index)`)")
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
    from asynclint.profiler.v1 import VerifiersV1Target, exports_v1_taskset

    if exports_v1_taskset(module):
        return VerifiersV1Target(spec, module, env_args or {})
    raise TargetError(f"{spec}: neither a verifiers v0 environment (no load_environment()) nor a v1 one "
                      "(no Taskset subclass in __all__); for any other code, name an async function: "
                      "module:function")


def _returns_awaitable_hint(function: Callable) -> bool:
    """A sync factory annotated to return an awaitable/coroutine is accepted too."""
    try:
        annotation = inspect.signature(function).return_annotation
    except (TypeError, ValueError):
        return False
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    return any(word in str(text) for word in ("Awaitable", "Coroutine", "Future", "Task"))


def default_rollouts(target: Target, rollouts: int | None, duration: float | None) -> int | None:
    if rollouts is not None or duration is not None:
        return rollouts
    return 256 if isinstance(target, CallableTarget) else 24


__all__ = ["CallableTarget", "EnvironmentTarget", "LoadPlan", "RolloutError", "RunOutcome", "Target", "TargetError",
           "VerifiersTarget", "canonical", "default_rollouts", "drive", "resolve"]
