"""One profiling run: resolve the target, start the fake server if it needs one, drive the load
on a fresh loop under the monitor, match stall sites with the static check, build the report."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Coroutine, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

from asynclint.model import Finding
from asynclint.profiler.attribution import (
    GC,
    HOST,
    THREAD,
    USER,
    analyze,
    file_cause,
    loop_part,
    root_prefixes,
    stall_owners,
)
from asynclint.profiler.fakeserver import FakeServer, ReplySettings
from asynclint.profiler.monitor import LoopMonitor
from asynclint.profiler.records import Recording
from asynclint.profiler.report import OutputsDigest, ProfileReport, RunFacts, Settings, StaticSummary
from asynclint.profiler.target_base import INTERRUPTED, TIMED_OUT, LoadPlan, RunOutcome, Stop, Target, canonical
from asynclint.profiler.targets import default_rollouts, resolve

#: Seconds a run with --duration waits for the rollouts in flight before cancelling them, unless
#: --timeout says otherwise.
DURATION_GRACE = 10.0


class Interrupted(Exception):
    """Interrupted (SIGINT) before anything was measured: there is no report to give."""


T = TypeVar("T")


@dataclass(frozen=True)
class ProfileRun:
    report: ProfileReport
    recording: Recording


def run_timeout(duration: float | None, timeout: float | None) -> float | None:
    """The measured phase's hard limit: ``--timeout``, else ``--duration`` plus a grace period."""
    if timeout is not None:
        return timeout
    return None if duration is None else duration + DURATION_GRACE


async def measure(
    target: Target, plan: LoadPlan, monitor: LoopMonitor | None, warmup: int = 0
) -> tuple[RunOutcome, float, Recording | None]:
    """Drive ``target`` on the running loop with ``monitor`` attached (or none, for baselines),
    after ``warmup`` unmeasured rollouts on the same loop: first calls import modules, build
    clients and validators, and fill caches, once per process — not what a long run is made of.

    The first SIGINT stops the run: rollouts in flight are cancelled and the outcome says it was
    interrupted (``Interrupted`` if that happened before measuring). A second one aborts at once.
    """
    stop = Stop()
    loop = asyncio.get_running_loop()
    driver = asyncio.current_task()
    handling, previous = False, None
    interrupted = False

    def interrupt(signum: int, frame: FrameType | None) -> None:
        nonlocal interrupted
        if interrupted:
            # A second Ctrl-C that came before the default action was back (between the message
            # and the line that restores it): abort as the default action would.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
            return
        interrupted = True
        # A plain handler, not loop.add_signal_handler: that one learns of the signal only from a
        # byte in the loop's wakeup descriptor, which a full descriptor loses (see timers'
        # WakeupRelay), and it runs only once the loop gets back from a stall. This one runs on
        # the main thread at the next bytecode, wherever the loop is, and wakes the loop itself
        # (call_soon_threadsafe writes the loop's own self-pipe, as asyncio.Runner's handler does).
        # The second Ctrl-C gets the default action: the process dies of SIGINT at once, even in
        # C code that never returns to Python, and a shell sees "killed by SIGINT" (status 130).
        # The message goes out first: a second Ctrl-C pressed the moment the default action is back
        # (a test watching the process's caught signals does exactly that) killed the process
        # before it had said a word about the first.
        try:
            os.write(2, b"asynclint: interrupted: stopping (Ctrl-C again to abort)\n")
        except OSError:
            pass
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            stop.halt(loop)
        except Exception:  # noqa: BLE001 - never raise the handler's own error into the target
            pass  # (the event below still stops the run, at the loop's pace)
        loop.call_soon_threadsafe(stop.set)
        if _holds_the_loop(loop, frame, driver):
            # The rollout holding the loop gets its cancellation here, inside the blocking call
            # (a sleep, a socket read, a subprocess wait returns EINTR and Python raises from this
            # handler), not at its next await, which may be seconds away. Raised between any two
            # bytecodes, it can leave a coroutine made but never awaited (anyio's happy-eyeballs
            # connect did, once in ten runs of the example): the warning of that says nothing
            # about the target, only that it was interrupted.
            warnings.filterwarnings("ignore", r"coroutine .* was never awaited", RuntimeWarning)
            raise asyncio.CancelledError("interrupted (Ctrl-C)")

    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, interrupt)
        handling = True
    try:
        await target.start()
        stop.spare(asyncio.all_tasks(loop))
        try:
            if warmup and not stop.halted:
                await target.warm_up(LoadPlan(warmup, min(plan.concurrency, warmup), None, plan.timeout), stop)
            if stop.halted:
                raise Interrupted("interrupted before measuring: no report")
            if monitor is not None:
                monitor.start()
            started = time.perf_counter()
            try:
                outcome = await target.run(plan, stop)
            finally:
                wall = time.perf_counter() - started
                recording = monitor.stop() if monitor is not None else None
        finally:
            await target.close()
    finally:
        # Once interrupted, SIGINT keeps its default action until the process ends, so that a
        # second Ctrl-C aborts the analysis and the writing of the report too.
        if handling and not stop.halted and signal.getsignal(signal.SIGINT) is interrupt:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    return outcome, wall, recording


_ASYNCIO = os.path.dirname(asyncio.__file__) + os.sep


def _holds_the_loop(loop: asyncio.AbstractEventLoop, frame: FrameType | None, driver: asyncio.Task | None) -> bool:
    """The code ``frame`` is in (interrupted by a signal on the loop's thread) is a step of the
    target's tasks: neither the loop waiting for events or running a plain callback (no task,
    such as the monitor's heartbeat), nor the profiler's own driver, nor asyncio's machinery in
    the middle of a step, where an exception would land in the loop rather than in a rollout."""
    if frame is None or frame.f_code.co_filename.startswith(_ASYNCIO):
        return False
    task = asyncio.current_task(loop)
    return task is not None and task is not driver


#: Event loops a target can run on (``--loop``).
LOOPS = ("asyncio", "uvloop")


def run_on(loop: str, main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` on a fresh loop of the kind asked: asyncio's own, or uvloop's (production
    servers often run on it: its callbacks run from C, its clock counts whole milliseconds)."""
    if loop == "uvloop":
        import uvloop

        return uvloop.run(main)
    return asyncio.run(main)


def static_findings(paths: Sequence[Path]) -> tuple[list[Finding], StaticSummary]:
    """``asynclint check`` on the target's files (and other user files seen in stalls)."""
    from asynclint.config import ConfigError
    from asynclint.files import PathError, display_path
    from asynclint.project import configure
    from asynclint.runner import run_check

    existing = [p for p in dict.fromkeys(paths) if p.exists()]
    if not existing:
        return [], StaticSummary(0, 0, "no source files to check")
    try:
        files = [str(p) for p in _explicit_files(existing)]
        config = configure(files)
        result = run_check(files, config, jobs=1, use_cache=False)
    except (ConfigError, PathError) as exc:
        return [], StaticSummary(0, 0, f"static check skipped: {exc}")
    # Findings are shown from the project root; a profile names files as the working directory sees them.
    findings = [replace(f, path=display_path(config.root / f.path, Path.cwd())) for f in result.findings]
    return findings, StaticSummary(result.files_checked, len(result.findings))


def _explicit_files(paths: Sequence[Path]) -> list[Path]:
    """Files named one by one are checked even where the project's excludes would skip them."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.py") if "__pycache__" not in p.parts))
        else:
            files.append(path)
    return list(dict.fromkeys(files))


def _user_files(recording: Recording, roots: tuple[str, ...] = ()) -> list[Path]:
    """The user's files a stall passed through, on the loop thread or on another one."""
    user_roots = root_prefixes(roots)
    seen: dict[Path, None] = {}
    for stall in recording.stalls:
        for sample in stall.samples:
            for stack in (sample.stack, *sample.others):
                for code, _line in stack:
                    if file_cause(code.co_filename, user_roots) == USER and Path(code.co_filename).is_file():
                        seen[Path(code.co_filename).resolve()] = None
    return list(seen)


def _suppressed(paths: Sequence[Path]) -> list[tuple[str, int]]:
    """(file, line) pairs an asynclint suppression covers: a stall there is no blind spot."""
    from asynclint.suppressions import suppressed_lines

    found: list[tuple[str, int]] = []
    for file in _explicit_files([p for p in dict.fromkeys(paths) if p.exists()]):
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        found.extend((str(file), line) for line in suppressed_lines(text))
    return found


def profile(
    spec: str,
    settings: Settings,
    *,
    tokens: int = 24,
    tool_turns: int = 2,
    env_args: dict[str, Any] | None = None,
    check: bool = True,
    keep_alive: ExitStack | None = None,
) -> ProfileRun:
    """Run ``spec`` under load and return the report (TargetError/MonitorError on bad input).

    The fake server, if the target needs one, is stopped before returning, or with ``keep_alive``
    when one is given: the command keeps it until its report is written, so that nothing a late
    rollout or a cancelled one's clean-up says to the model fails because the server went first."""
    target = resolve(spec, env_args)
    rollouts = default_rollouts(target, settings.rollouts, settings.duration_s)
    timeout = run_timeout(settings.duration_s, settings.timeout_s)
    plan = LoadPlan(rollouts, settings.concurrency, settings.duration_s, timeout)
    server = None
    if target.needs_server:
        server = FakeServer(ReplySettings(settings.seed, settings.latency_ms, tokens, tool_turns))
    if server is not None:
        server.start()
        if keep_alive is not None:
            keep_alive.callback(server.stop)
    try:
        target.prepare(server.base_url if server else None, plan)
        monitor = LoopMonitor(
            threshold=settings.threshold_ms / 1000, interval=settings.interval_ms / 1000, method=settings.method
        )
        outcome, wall, recording = run_on(settings.loop, measure(target, plan, monitor, settings.warmup))
    finally:
        if server is not None and keep_alive is None:
            server.stop()
    assert recording is not None
    roots = tuple(str(path) for path in target.sources)
    user_files = _user_files(recording, roots)
    if check:
        findings, static = static_findings([*target.sources, *user_files])
    else:
        findings, static = [], StaticSummary(0, 0, "static check not run")
    analysis = analyze(recording, findings, user_roots=roots, suppressed=_suppressed([*target.sources, *user_files]))
    concurrency, concurrency_note = target.concurrency(plan)
    report = ProfileReport(
        target=spec,
        kind=target.kind,
        settings=Settings(
            rollouts,
            settings.concurrency,
            settings.duration_s,
            settings.latency_ms,
            settings.seed,
            settings.threshold_ms,
            settings.interval_ms,
            recording.method,
            settings.warmup,
            timeout,
            settings.loop,
        ),
        rollouts=len(outcome.outputs),
        wall_s=wall,
        analysis=analysis,
        outputs=OutputsDigest.of(tuple(canonical(value) for value in outcome.outputs), outcome.errors),
        static=static,
        first_error=outcome.first_error,
        run=RunFacts(
            concurrency,
            concurrency_note,
            outcome.cut if outcome.ended == TIMED_OUT else 0,
            outcome.ended == INTERRUPTED,
            outcome.cut if outcome.ended == INTERRUPTED else 0,
            server is not None,
        ),
    )
    return ProfileRun(report, recording)


def html_call_tree(recording: Recording, *, worst: int = 10, title: str = "asynclint profile") -> str:
    """pyinstrument's interactive call tree of the ``worst`` stalls: each stall is a root named by
    its duration, under it the sampled stacks weighted by their share of the stall."""
    from pyinstrument.renderers import HTMLRenderer
    from pyinstrument.session import Session

    top = f"{title}: the {worst} worst stalls\x00<stalls>\x000"
    records: list[tuple[list[str], float]] = []
    stalls = sorted(recording.stalls, key=lambda s: -s.duration)[:worst]
    for rank, stall in enumerate(stalls, 1):
        label = f"stall #{rank}: {stall.duration * 1000:.1f} ms at +{stall.due - recording.started:.3f} s"
        root = f"{label}\x00<stall>\x00{rank}"
        # Charged as the report charges it: GIL waits to the other thread's stack, under a frame
        # that says so; waits for a CPU and garbage collection as frames of their own.
        for owner, seconds in stall_owners(stall):
            if owner is None:
                frames = ["no sample landed here\x00<unattributed>\x000"]
            elif owner[0] == GC:
                frames = ["garbage collection\x00<gc>\x000"]
            elif owner[0] == HOST:
                frames = ["waiting for a CPU (other processes)\x00<host>\x000"]
            else:
                frames = [
                    f"{code.co_name}\x00{code.co_filename}\x00{code.co_firstlineno}\x01l{line}"
                    for code, line in reversed(loop_part(owner[1]))
                ]
                if owner[0] == THREAD:
                    frames.insert(0, "another thread, holding the GIL\x00<thread>\x000")
            records.append(([top, root, *frames], seconds))
    session = Session(
        frame_records=records,
        start_time=time.time(),
        duration=sum(s.duration for s in stalls),
        min_interval=recording.interval,
        max_interval=recording.interval,
        sample_count=len(records),
        start_call_stack=[top],
        target_description=title,
        cpu_time=0.0,
        sys_path=sys.path,
        sys_prefixes=_sys_prefixes(),
    )
    return HTMLRenderer().render(session)


def _sys_prefixes() -> list[str]:
    return sorted({sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix})
