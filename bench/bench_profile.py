"""How much does `asynclint profile` cost, and how well does each attribution method name the
line that held the loop? Prints ratios; asserts nothing. See bench/README.md."""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import re
import statistics
import sys
import time
from pathlib import Path

from asynclint.profiler.attribution import THREAD, USER, analyze, classify
from asynclint.profiler.monitor import LoopMonitor
from asynclint.profiler.records import Recording
from asynclint.profiler.session import measure
from asynclint.profiler.target_base import LoadPlan
from asynclint.profiler.targets import resolve

WORKLOAD = Path(__file__).resolve().parent.parent / "tests" / "data" / "profiler" / "workload.py"
CONTENTION = WORKLOAD.with_name("contention.py")
METHODS = ("signal", "thread", "callbacks")


class TimedMonitor(LoopMonitor):
    """The monitor, timing its own callbacks on the loop thread: heartbeat, SIGALRM handler, GC
    hook. Their sum over the run's wall clock is the profiler's share of the loop, measured within
    one run, so other load on the machine cannot skew it the way it skews two runs' throughput."""

    own = 0.0

    def _beat(self) -> None:
        started = time.perf_counter()
        super()._beat()
        self.own += time.perf_counter() - started

    def _on_alarm(self, signum, frame) -> None:
        started = time.perf_counter()
        super()._on_alarm(signum, frame)
        self.own += time.perf_counter() - started

    def _on_gc(self, phase, info) -> None:
        started = time.perf_counter()
        super()._on_gc(phase, info)
        self.own += time.perf_counter() - started


def self_time(args) -> None:
    print(
        f"\nThe profiler's own time on the loop thread (heartbeat + SIGALRM handler + GC hook) / wall clock, "
        f"median of {args.repeat}:"
    )
    for function, rollouts in (("busy", args.busy_rollouts), ("stalls", args.rollouts)):
        plan = LoadPlan(rollouts, args.concurrency, None)
        for method in ("none", "signal"):
            shares = []
            for _ in range(args.repeat):
                monitor = TimedMonitor(threshold=args.threshold / 1000, interval=args.interval / 1000, method=method)
                _, wall, _ = asyncio.run(measure(resolve(f"{WORKLOAD}:{function}"), plan, monitor))
                shares.append(monitor.own / wall)
            label = "heartbeat only" if method == "none" else method
            print(
                f"  workload.{function:<7} {label:<15} {statistics.median(shares):.2%}  "
                f"(min-max {min(shares):.2%}-{max(shares):.2%})"
            )


def marker_lines() -> dict[int, str]:
    found = {}
    for number, text in enumerate(WORKLOAD.read_text().splitlines(), 1):
        match = re.search(r"# stall: ([a-z]+)$", text)
        if match:
            found[number] = match.group(1)
    return found


def run_once(
    function: str,
    plan: LoadPlan,
    method: str | None,
    threshold_ms: float,
    interval_ms: float,
    module: Path = WORKLOAD,
    recordings: list | None = None,
):
    """(throughput, CPU seconds per rollout, analysis or None) for one run; method None = no
    profiler at all. CPU time counts every thread of the process (the watchdog too) and is far
    less disturbed than wall-clock time by other work on a shared machine. ``recordings`` collects
    (recording, outputs) when given."""
    target = resolve(f"{module}:{function}")
    monitor = (
        None
        if method is None
        else LoopMonitor(threshold=threshold_ms / 1000, interval=interval_ms / 1000, method=method)
    )
    gc.collect()
    cpu = time.process_time()
    outcome, wall, recording = asyncio.run(measure(target, plan, monitor))
    cpu = time.process_time() - cpu
    count = len(outcome.outputs)
    if recordings is not None:
        recordings.append((recording, outcome.outputs))
    return count / wall, cpu / count, (analyze(recording) if recording else None)


def overhead(args) -> None:
    plan = LoadPlan(args.busy_rollouts, args.concurrency, None)
    variants = [None, "none", *METHODS]
    names = {None: "no profiler", "none": "heartbeat only"}
    throughput: dict[str | None, list[float]] = {v: [] for v in variants}
    cpu: dict[str | None, list[float]] = {v: [] for v in variants}
    run_once("busy", plan, None, args.threshold, args.interval)  # warm-up: imports, caches
    for repetition in range(args.repeat):
        order = variants[repetition % len(variants) :] + variants[: repetition % len(variants)]
        for variant in order:
            speed, cpu_per_rollout, _ = run_once("busy", plan, variant, args.threshold, args.interval)
            throughput[variant].append(speed)
            cpu[variant].append(cpu_per_rollout)
    base = throughput[None]
    print(
        f"\nOverhead: workload.busy ({args.busy_rollouts} rollouts x 20 steps of ~50 us, no stall), concurrency "
        f"{args.concurrency}, heartbeat {args.interval:g} ms, threshold {args.threshold:g} ms, "
        f"{args.repeat} repetitions, order rotated"
    )
    print(
        f"{'variant':<16} {'rollouts/s':>11} {'throughput / no profiler':>25} {'min-max':>13} "
        f"{'CPU per rollout / no profiler':>31} {'min-max':>13}"
    )
    for variant in variants:
        ratios = [w / b for w, b in zip(throughput[variant], base, strict=True)]
        costs = [c / b for c, b in zip(cpu[variant], cpu[None], strict=True)]
        print(
            f"{names.get(variant, variant):<16} {statistics.median(throughput[variant]):>11.0f} "
            f"{statistics.median(ratios):>25.3f} {min(ratios):>6.3f}-{max(ratios):.3f} "
            f"{statistics.median(costs):>31.3f} {min(costs):>6.3f}-{max(costs):.3f}"
        )


def accuracy(args, shares: dict[str, float]) -> None:
    plan = LoadPlan(args.rollouts, args.concurrency, None)
    lines = marker_lines()
    variants = [None, *METHODS]
    results: dict[str | None, list] = {v: [] for v in variants}
    for repetition in range(args.repeat):
        order = variants[repetition % len(variants) :] + variants[: repetition % len(variants)]
        for variant in order:
            results[variant].append(run_once("stalls", plan, variant, args.threshold, args.interval))
    base = [speed for speed, _, _ in results[None]]
    print(
        f"\nAttribution: workload.stalls ({args.rollouts} rollouts, 5 injected sites: "
        f"{', '.join(lines.values())}), concurrency {args.concurrency}, threshold {args.threshold:g} ms, "
        f"{args.repeat} repetitions"
    )
    print(
        f"{'method':<10} {'sites at the exact line':>24} {'blocked time on them':>22} "
        f"{'site estimate / truth':>24} {'throughput / no profiler':>26}"
    )
    for method in METHODS:
        found, on_share = [], []
        estimates: dict[int, list[float]] = {line: [] for line in lines}
        for _, _, analysis in results[method]:
            user = {s.frame.line: s for s in analysis.sites if s.cause == USER and s.frame.path.endswith("workload.py")}
            hits = [line for line in lines if line in user]
            found.append(len(hits))
            on_lines = sum(user[line].total_ms for line in hits)
            on_share.append(on_lines / analysis.lag.blocked_ms if analysis.lag.blocked_ms else 0.0)
            # Each site's share of the injected stall time, against its true share (each operation
            # timed alone): 1.00 is a perfect split.
            for line in hits:
                if on_lines:
                    estimates[line].append((user[line].total_ms / on_lines) / shares[lines[line]])
        ratios = [speed / b for (speed, _, _), b in zip(results[method], base, strict=True)]
        # Per site, the median over repetitions; shown: the worst two sites' medians.
        medians = [statistics.median(values) for values in estimates.values() if values]
        spread = f"{min(medians):.2f}-{max(medians):.2f}" if medians else "-"
        print(
            f"{method:<10} {statistics.median(found):>22.0f}/5 {statistics.median(on_share):>22.0%} "
            f"{spread:>24} {statistics.median(ratios):>26.3f}"
        )


def _even_split(recording: Recording) -> dict[str, float]:
    """ms per function as attribution did before: each stall's time split evenly among its samples."""
    found: dict[str, float] = {}
    for stall in recording.stalls:
        classified = [c for c in (classify(sample.stack) for sample in stall.samples) if c is not None]
        for _cause, frame, _chain, _inner in classified:
            found[frame.function] = found.get(frame.function, 0.0) + stall.duration * 1000 / len(classified)
    return found


def _by_function(analysis, cause: str = USER) -> dict[str, float]:
    found: dict[str, float] = {}
    for site in analysis.sites:
        if site.cause == cause and site.frame.path.endswith("contention.py"):
            name = site.frame.function.split(".<locals>")[0]
            found[name] = found.get(name, 0.0) + site.total_ms
    return found


def contention(args) -> None:
    """Where an even split of each stall per sample goes wrong, and what each method makes of it:
    a 100 ms C call followed by Python code, a thread holding the GIL, a target's own results."""
    sys.path.insert(0, str(CONTENTION.parent))
    import contention as workload

    def alone(function) -> float:
        return statistics.median(_timed(function) for _ in range(5))

    true_ratio = alone(workload.c_call) / alone(workload.py_loop)
    print(f"\nContention (tests/data/profiler/contention.py), {args.repeat} repetitions, median:")
    print(
        f"{'method':<10} {'C call / Python, estimate / truth':>34} {'same, even split / truth':>26} "
        f"{'GIL wait charged to the holder':>32} {'sqlite results as without':>27}"
    )
    os.environ.setdefault("ASYNCLINT_TEST_HOG_S", "1.2")
    for method in METHODS:
        mixed, even, holder, intact = [], [], [], []
        for _ in range(args.repeat):
            recordings: list = []
            _, _, analysis = run_once(
                "mixed", LoadPlan(16, 1, None), method, args.threshold, args.interval, CONTENTION, recordings
            )
            found, naive = _by_function(analysis), _even_split(recordings[0][0])
            if found.get("c_call") and found.get("py_loop"):
                mixed.append(found["c_call"] / found["py_loop"] / true_ratio)
            if naive.get("c_call") and naive.get("py_loop"):
                even.append(naive["c_call"] / naive["py_loop"] / true_ratio)
            _, _, analysis = run_once("gil", LoadPlan(None, 16, 1.0), method, args.threshold, args.interval, CONTENTION)
            blocked = analysis.lag.blocked_ms
            holder.append(_by_function(analysis, THREAD).get("_hog", 0.0) / blocked if blocked else 0.0)
            recordings = []
            run_once("sqlite_wait", LoadPlan(8, 1, None), method, args.threshold, args.interval, CONTENTION, recordings)
            intact.append(all(value in ("ok", "skip") for value in recordings[0][1]))
        show = lambda values: f"{statistics.median(values):.2f}" if values else "-"  # noqa: E731
        print(
            f"{method:<10} {show(mixed):>34} {show(even):>26} {statistics.median(holder):>32.0%} "
            f"{f'{sum(intact)}/{len(intact)}':>27}"
        )


def _timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def true_shares(repeat: int = 5) -> dict[str, float]:
    sys.path.insert(0, str(WORKLOAD.parent))
    import workload

    timings = {}
    for name, blocker in workload.BLOCKERS.items():
        samples = []
        for _ in range(repeat):
            started = time.perf_counter()
            blocker()
            samples.append(time.perf_counter() - started)
        timings[name] = statistics.median(samples)
    total = sum(timings.values())
    return {name: value / total for name, value in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=512, help="rollouts of workload.stalls")
    parser.add_argument("--busy-rollouts", type=int, default=4000, help="rollouts of workload.busy")
    parser.add_argument("--concurrency", type=int, default=128)
    parser.add_argument("--threshold", type=float, default=5.0, help="stall threshold, ms")
    parser.add_argument("--interval", type=float, default=2.0, help="heartbeat period, ms")
    parser.add_argument("--skip", nargs="*", default=[], choices=["overhead", "self-time", "accuracy", "contention"])
    args = parser.parse_args()
    if "overhead" not in args.skip:
        overhead(args)
    if "self-time" not in args.skip:
        self_time(args)
    if "accuracy" not in args.skip:
        shares = true_shares()
        print(
            "\nTrue shares of the injected operations (each timed alone): "
            + ", ".join(f"{name} {share:.0%}" for name, share in shares.items())
        )
        accuracy(args, shares)
    if "contention" not in args.skip:
        contention(args)


if __name__ == "__main__":
    main()
