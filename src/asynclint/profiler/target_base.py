"""What every profiling target shares: the load plan, the run's outcome, the pool that keeps
rollouts in flight and the errors a target raises. ``targets`` finds a target and ``v1`` is one
kind of it; both build on this module, which imports neither."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import math
import re
import time
from collections.abc import Awaitable, Callable
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
    duration: float | None  # seconds: no rollout starts after this
    timeout: float | None = None  # seconds: rollouts still running then are cancelled (timed out)


#: Why a run ended before its rollouts did.
TIMED_OUT, INTERRUPTED = "timed out", "interrupted"


@dataclass(frozen=True)
class RunOutcome:
    outputs: tuple[Any, ...]  # one per rollout, in rollout order (``canonical`` makes them JSON)
    errors: int  # rollouts that raised
    first_error: str | None
    cut: int = 0  # rollouts cancelled while running, at the timeout or on an interrupt
    ended: str | None = None  # TIMED_OUT or INTERRUPTED when the run was cut short


class Stop(asyncio.Event):
    """An interrupt (Ctrl-C) of a run: an event the pools wait on, and ``halt``, which a SIGINT
    handler calls while the loop may be held. ``halt`` marks the pools as stopping and cancels,
    at once, every task the target started since ``spare`` was called (its rollouts, and the
    tasks they started), as ``asyncio.Runner``'s own SIGINT handler cancels its main task. A
    rollout step already scheduled then gets its ``CancelledError`` instead of running: on the
    bundled example, verifiers waits for its group tasks through ``asyncio.as_completed``, which
    does not pass a cancellation on to them, and their scheduled steps made the sync judge's
    calls for seconds after the Ctrl-C. Tasks from before (the target's servers, the profiler's
    driver) are left to the target's ``close``."""

    def __init__(self) -> None:
        super().__init__()
        self.halted = False
        self._pools: list[Pool] = []
        self._spared: set[asyncio.Task[Any]] = set()

    def spare(self, tasks: set[asyncio.Task[Any]]) -> None:
        self._spared = tasks

    def halt(self, loop: asyncio.AbstractEventLoop) -> None:
        self.halted = True
        for pool in list(self._pools):
            pool.stopping = True
        for task in asyncio.all_tasks(loop) - self._spared:
            task.cancel()

    def attach(self, pool: Pool) -> None:
        self._pools.append(pool)
        if self.halted:
            pool.stopping = True

    def detach(self, pool: Pool) -> None:
        if pool in self._pools:
            self._pools.remove(pool)


@dataclass(frozen=True)
class PoolEnding:
    """How a pool ended: the jobs it cancelled while they ran, and why (None: all finished)."""

    cut: tuple[Any, ...]
    reason: str | None


class Pool:
    """Runs jobs with ``workers`` at a time, starting none after ``plan.duration``. At
    ``plan.timeout`` seconds, or when ``stop`` is set (an interrupt), jobs still running are
    cancelled. ``stopping`` tells a job's ``CancelledError`` apart from one a rollout raised itself."""

    def __init__(self, plan: LoadPlan, workers: int, stop: asyncio.Event | None = None):
        self.plan, self.workers, self.stop = plan, workers, stop
        self.stopping = False

    def _interrupted(self) -> bool:
        return self.stop is not None and (self.stop.is_set() or getattr(self.stop, "halted", False))

    async def run(self, next_job: Callable[[], Any], run: Callable[[Any], Awaitable[None]]) -> PoolEnding:
        """``run(job)`` for each ``next_job()`` (None: no more). ``run`` records its own results and
        failures; what it raises ends the pool (a TargetError: the target cannot be run at all)."""
        plan = self.plan
        started = time.monotonic()
        deadline = None if plan.duration is None else started + plan.duration
        running: dict[int, Any] = {}

        def take() -> Any:
            if self.stopping or (deadline is not None and time.monotonic() >= deadline):
                return None
            return next_job()

        async def worker(number: int) -> None:
            while (job := take()) is not None:
                running[number] = job
                await run(job)
                del running[number]

        tasks = [asyncio.ensure_future(worker(n)) for n in range(self.workers)]
        everything = asyncio.gather(*tasks)
        interrupted = asyncio.ensure_future(self.stop.wait()) if self.stop is not None else None
        if isinstance(self.stop, Stop):
            self.stop.attach(self)
        try:
            limit = None if plan.timeout is None else max(0.0, started + plan.timeout - time.monotonic())
            await asyncio.wait(
                {everything} | ({interrupted} if interrupted else set()),
                timeout=limit,
                return_when=asyncio.FIRST_COMPLETED,
            )
            # Halted, the jobs were cancelled before the event was set: their gather may be done first.
            if everything.done() and not self._interrupted():
                everything.result()  # a TargetError ends the run
                return PoolEnding((), None)
            reason = INTERRUPTED if self._interrupted() else TIMED_OUT
            self.stopping = True
            cut = tuple(running.values())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return PoolEnding(cut, reason)
        finally:
            if isinstance(self.stop, Stop):
                self.stop.detach(self)
            self.stopping = True
            for task in tasks:
                task.cancel()
            if interrupted is not None:
                interrupted.cancel()
            await asyncio.gather(everything, return_exceptions=True)


#: The memory address in a default ``repr`` (``<Result object at 0x7f3a…>``): it differs between
#: runs that produced the same thing.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def canonical(value: Any) -> Any:
    """A JSON value standing for a rollout's output, the same for equal outputs of two runs. JSON
    types stay; dict keys become strings (sorted on dump; ``1`` and ``True`` as JSON writes them);
    tuples become lists and sets sorted lists; ``nan`` and ``inf`` become the strings ``"nan"``,
    ``"inf"``, ``"-inf"`` (JSON has no such numbers); anything else becomes its ``repr``, with
    memory addresses (`` at 0x7f…``) taken out."""
    try:
        return _canonical(value)
    except RecursionError:  # a structure that contains itself
        return _ADDRESS.sub("", repr(value))


def _canonical(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else repr(float(value))
    if isinstance(value, dict):
        return {_key(key): _canonical(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_canonical(item) for item in value), key=lambda item: json.dumps(item, sort_keys=True))
    return _ADDRESS.sub("", repr(value))


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)  # what json.dumps does with such a key: 1 -> "1", True -> "true"
    return _ADDRESS.sub("", repr(key))


def error_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    if isinstance(exc, RolloutError) and text:
        return text[0]
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


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

    async def run(self, plan: LoadPlan, stop: asyncio.Event | None = None) -> RunOutcome:
        """The measured rollouts; ``stop`` set (an interrupt) cancels the ones running."""
        raise NotImplementedError

    async def warm_up(self, plan: LoadPlan, stop: asyncio.Event | None = None) -> None:
        """Rollouts before measuring; their outputs are not part of the run's."""
        await self.run(plan, stop)

    def concurrency(self, plan: LoadPlan) -> tuple[int, str | None]:
        """Rollouts in flight at most, and why that is not ``plan.concurrency`` when it is not."""
        if plan.rollouts is not None and plan.rollouts < plan.concurrency:
            return plan.rollouts, f"only {plan.rollouts} rollouts"
        return plan.concurrency, None


def cut_output(reason: str, plan: LoadPlan) -> dict[str, str]:
    """The output of a rollout cancelled while it ran."""
    if reason == TIMED_OUT:
        return {"error": f"timed out: still running at --timeout ({plan.timeout:g} s)"}
    return {"error": "interrupted: still running when the run was interrupted"}


def _awaitable_of(function: Callable[[int], Any], index: int) -> Awaitable[Any]:
    awaitable = function(index)
    if not inspect.isawaitable(awaitable):
        raise TargetError(
            f"{getattr(function, '__qualname__', function)!s} returned {type(awaitable).__name__}, "
            "not an awaitable: profile an async function (or one that returns an awaitable)"
        )
    return awaitable


async def drive(
    function: Callable[[int], Awaitable[Any]], plan: LoadPlan, stop: asyncio.Event | None = None
) -> RunOutcome:
    """Run ``function(0), function(1), …`` with ``plan.concurrency`` in flight, until
    ``plan.rollouts`` are done or ``plan.duration`` has passed (then the ones in flight finish, up
    to ``plan.timeout``), or ``stop`` is set."""
    results: dict[int, Any] = {}
    errors: list[str] = []
    indices = itertools.count() if plan.rollouts is None else iter(range(plan.rollouts))
    # No more workers than rollouts: each is a task on the measured loop.
    workers = Pool(plan, plan.concurrency if plan.rollouts is None else min(plan.concurrency, plan.rollouts), stop)

    async def one(index: int) -> None:
        try:
            results[index] = await _awaitable_of(function, index)  # made canonical after the run, off the clock
        except TargetError:
            raise
        except BaseException as exc:
            # A failing rollout is an output too, and the run goes on: whatever it raised, a
            # KeyboardInterrupt or CancelledError of its own included (a real Ctrl-C reaches the
            # loop's signal handler, not the rollout). Only the pool's own cancellation passes.
            if isinstance(exc, asyncio.CancelledError) and workers.stopping:
                raise
            errors.append(error_text(exc))
            results[index] = {"error": error_text(exc)}

    ending = await workers.run(lambda: next(indices, None), one)
    for index in ending.cut:
        assert ending.reason is not None  # a pool cuts jobs only when it says why
        results[index] = cut_output(ending.reason, plan)
    return RunOutcome(
        tuple(results[i] for i in sorted(results)),
        len(errors),
        errors[0] if errors else None,
        len(ending.cut),
        ending.reason,
    )


class EnvironmentTarget(Target):
    """A verifiers environment module, run against the fake model server with ``env_args``."""

    needs_server = True

    def __init__(self, spec: str, module: Any, env_args: dict[str, Any]):
        super().__init__(spec)
        self.module = module
        self.env_args = env_args
        self.sources = module_sources(module)
        self.env: Any = None
