"""pytest plugin (entry point ``pytest11``): fail an async test whose event loop was held longer
than a budget, naming the code that held it.

- ``@pytest.mark.loop_budget(50)`` on an ``async def`` test: the test runs under
  ``asynclint.profiler.watch`` inside whatever loop runs it: pytest-asyncio's, anyio's, another
  runner's, or, when no runner takes it, a fresh one of asynclint's (``asyncio.run``).
- The ``loop_budget`` fixture, for any runner: ``with loop_budget(50): await work()``. Budgets
  nest: an inner one judges its own block, sharing the running monitor.

Nothing happens for tests that use neither: the hooks return at once and nothing heavy is
imported until a marked test runs.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest

MARKER = "loop_budget"
#: The watched coroutine function a marked test's ``obj`` was replaced with.
_WATCHED = pytest.StashKey[Callable[..., Any]]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(ms, threshold_ms=None): fail this async test if its event loop is held longer than ms "
        "at once, naming the code that held it (asynclint)",
    )


def _budget(marker: pytest.Mark) -> tuple[float, float]:
    args, kwargs = marker.args, dict(marker.kwargs)
    if len(args) > 1 or (args and "ms" in kwargs) or set(kwargs) - {"ms", "threshold_ms"}:
        raise pytest.UsageError(f"{MARKER}: expected {MARKER}(ms, threshold_ms=None)")
    ms = args[0] if args else kwargs.get("ms")
    if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms <= 0:
        raise pytest.UsageError(f"{MARKER}: the budget must be a positive number of milliseconds, got {ms!r}")
    threshold = kwargs.get("threshold_ms") or default_threshold(ms)
    return float(ms), float(threshold)


def default_threshold(budget_ms: float) -> float:
    """Stalls are attributed from this lateness on: below the budget, so an over-budget stall
    always has its site, and not below 1 ms, to keep the heartbeat cheap."""
    return max(1.0, min(5.0, budget_ms / 2))


def verdict(report: Any, budget_ms: float) -> str | None:
    """The failure message when a stall's code held the loop longer than the budget, else None.

    A stall is judged by the part of it the loop thread was not kept waiting for a CPU (the
    ``<host>`` part, from the thread's own run-queue clock, left out): a test is not failed because
    the machine running it was busy, as CI machines and a laptop mid-build are. Where that clock
    cannot be read (outside Linux) nothing is left out."""
    analysis = report.analysis
    held = analysis.most_held
    if held is None or held.held_ms <= budget_ms:
        return None
    host = held.duration_ms - held.held_ms
    waited = f" (and waited {host:.1f} ms for a CPU)" if host >= 0.05 else ""
    lines = [
        f"event loop held for {held.held_ms:.1f} ms at once{waited} (budget {budget_ms:g} ms); "
        f"{analysis.lag.stalls} stalls >= {analysis.threshold_ms:g} ms, {analysis.lag.blocked_ms:.1f} ms blocked"
    ]
    if held.sites:
        lines.append("the worst stall was spent in:")
        for frame, cause, ms in held.sites[:3]:
            lines.append(f"  {frame.path}:{frame.line} in {frame.function} ({cause}): {ms:.1f} ms")
    by_site = {(s.cause, s.frame): s for s in analysis.sites}
    # The callers of the largest part that is code: on a busy machine the largest part of a stall
    # can be the wait for a CPU (<host>), which has none.
    sites = [by_site.get((cause, frame)) for frame, cause, _ in held.sites]
    site = next((site for site in sites if site is not None and site.chain), None)
    for frame in site.chain if site else ():
        lines.append(f"    ← {frame.function}  {frame.path}:{frame.line}")
    return "\n".join(lines)


@contextmanager
def _watching(budget_ms: float, threshold_ms: float) -> Iterator[Any]:
    from asynclint.profiler.live import watch

    with watch(loop_threshold_ms=threshold_ms) as report:
        yield report
    message = verdict(report, budget_ms)
    if message:
        pytest.fail(message, pytrace=False)


def _watched(function: Callable[..., Any], budget_ms: float, threshold_ms: float) -> Callable[..., Any]:
    @functools.wraps(function)
    async def run(*args: Any, **kwargs: Any) -> Any:
        with _watching(budget_ms, threshold_ms):
            return await function(*args, **kwargs)

    return run


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Wrap a marked test's coroutine function before any runner touches it. Runners take the
    test at different points: pytest-asyncio swaps ``item.obj`` for a sync function inside
    ``runtest``, anyio and others run the coroutine from their own ``pytest_pyfunc_call``; all of
    them start from ``item.obj``, so the watch is inside whatever loop runs the test."""
    if not isinstance(item, pytest.Function) or (marker := item.get_closest_marker(MARKER)) is None:
        yield
        return
    budget_ms, threshold_ms = _budget(marker)
    function = item.obj
    if not inspect.iscoroutinefunction(function):
        pytest.fail(
            f"{MARKER} applies to `async def` tests (this one is a plain function; "
            "use the loop_budget fixture inside the loop it runs)",
            pytrace=False,
        )
    item.obj = item.stash[_WATCHED] = _watched(function, budget_ms, threshold_ms)
    try:
        yield
    finally:
        item.obj = function


def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """No runner took the marked coroutine (it is still ours, unrun): run it with asyncio.run.
    Runners that call the test from this hook (anyio) are ``tryfirst`` and come before; pytest's
    own call, which fails an async test, is ``trylast`` and comes after."""
    watched = pyfuncitem.stash.get(_WATCHED, None)
    # By identity: a runner's sync wrapper made with functools.wraps copies every attribute.
    if watched is None or pyfuncitem.obj is not watched:
        return None
    arguments = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    asyncio.run(watched(**arguments))
    return True


@pytest.fixture
def loop_budget() -> Callable[..., Any]:
    """``with loop_budget(ms): ...`` inside a running loop fails the test if the loop was held
    longer than ``ms`` at once within the block; it yields the watch report."""

    def budget(ms: float, *, threshold_ms: float | None = None) -> AbstractContextManager[Any]:
        if not isinstance(ms, (int, float)) or ms <= 0:
            raise ValueError(f"loop_budget: the budget must be a positive number of milliseconds, got {ms!r}")
        return _watching(float(ms), float(threshold_ms or default_threshold(ms)))

    return budget
