"""Does `asynclint profile` charge a stall to the line that blocked, and how much of the time?
A held-out check: stalls of known kinds and sizes, injected at known lines of a workload this
script writes (none of the tests' workloads, which the profiler was tuned on), each timed around
its call. Prints shares; asserts nothing. See bench/README.md.

Per event loop (asyncio, uvloop when installed) and sampler method, for each kind of stall and
each size: the injected time; the part of it the heartbeat saw as stalls; the part charged to the
exact line, to ``<host>`` (the loop thread waiting for a CPU), to other lines of the workload
(lines that did not block: the blame that misleads), to garbage collection and to anything else
(the library, the runtime, no sample); the time the exact line was charged beyond its call (the
stall's tail); and, of what was charged to code rather than the host, the share on the exact
line. Also the host's load and the CPU share the process got while it ran.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from asynclint.profiler.attribution import GC, HOST, classify, root_prefixes, stall_owners
from asynclint.profiler.monitor import LoopMonitor
from asynclint.profiler.records import Recording
from asynclint.profiler.session import measure, run_on
from asynclint.profiler.target_base import LoadPlan
from asynclint.profiler.targets import CallableTarget

KINDS = ("sleep", "spin", "json", "deepcopy", "socket", "subprocess")
SIZES_MS = (2, 5, 10, 20, 50)

#: The workload: one function per kind, its blocking call on the line marked ``# stall: KIND``.
#: ``sleep``, ``socket`` and ``subprocess`` wait with the GIL released (the thread asleep);
#: ``spin`` runs Python bytecode; ``json`` is one C call holding the GIL; ``deepcopy`` is stdlib
#: Python under the marked line. The rollout's other lines (its awaits, the bookkeeping, a little
#: work right after the stall, where callback timing would put the blame) did not block.
WORKLOAD = '''"""Written by bench/bench_profile_accuracy.py: stalls of known kinds, sizes and lines."""
import asyncio
import copy
import json
import socket
import subprocess
import time

RECORD = []  # (kind, nominal ms, started, ended): time.monotonic() around each injected call
SCHEDULE = []  # (kind, nominal ms) of rollout i
ARGUMENTS = {}  # (kind, nominal ms) -> the calibrated payload of json and deepcopy
QUIET, _PEER = socket.socketpair()  # nobody writes: a read waits for its timeout


def stall_sleep(ms):
    time.sleep(ms / 1000)  # stall: sleep


def stall_spin(ms):
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end: pass  # stall: spin


def stall_json(ms):
    return len(json.dumps(ARGUMENTS["json", ms]))  # stall: json


def stall_deepcopy(ms):
    return len(copy.deepcopy(ARGUMENTS["deepcopy", ms]))  # stall: deepcopy


def stall_socket(ms):
    QUIET.settimeout(ms / 1000)
    try:
        QUIET.recv(1)  # stall: socket
    except TimeoutError:
        pass


def stall_subprocess(ms):
    subprocess.run(["sleep", str(ms / 1000)], check=True)  # stall: subprocess


STALLS = {"sleep": stall_sleep, "spin": stall_spin, "json": stall_json, "deepcopy": stall_deepcopy,
          "socket": stall_socket, "subprocess": stall_subprocess}


async def rollout(index):
    kind, ms = SCHEDULE[index]
    await asyncio.sleep(0.001 * (index % 4))
    started = time.monotonic()
    STALLS[kind](ms)
    ended = time.monotonic()
    RECORD.append((kind, ms, started, ended))
    checksum = sum(range(200)) + index
    await asyncio.sleep(0.002)
    return checksum
'''


def write_workload(directory: Path):
    path = directory / "heldout_workload.py"
    path.write_text(WORKLOAD)
    lines = {}
    for number, text in enumerate(WORKLOAD.splitlines(), 1):
        if "# stall: " in text:
            lines[text.rsplit("# stall: ", 1)[1].strip()] = number
    spec = importlib.util.spec_from_file_location("heldout_workload", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return path, module, lines


def calibrate(module, sizes: tuple[int, ...]) -> None:
    """Payloads for json.dumps and deepcopy sized to take about each nominal time here, now: from
    a small unit, then corrected once by timing the largest payload (a large copy costs more per
    item than a small one)."""
    unit_json = [{"id": i, "text": "w" * 24, "values": list(range(8))} for i in range(1000)]
    unit_copy = [{"role": "user", "content": "c" * 16, "meta": {"n": i}} for i in range(200)]

    def build(kind: str, unit: list, repeat: int) -> list:
        # Distinct copies for deepcopy: it copies an object it has seen before only once.
        return unit * repeat if kind == "json" else [copy.deepcopy(unit) for _ in range(repeat)]

    for kind, unit, work in (("json", unit_json, json.dumps), ("deepcopy", unit_copy, copy.deepcopy)):
        per_unit_ms = _median_ms(work, unit)
        largest = max(sizes)
        per_unit_ms *= _median_ms(work, build(kind, unit, max(1, round(largest / per_unit_ms)))) / largest
        for ms in sizes:
            module.ARGUMENTS[kind, ms] = build(kind, unit, max(1, round(ms / per_unit_ms)))


def _median_ms(work, argument, repeat: int = 3) -> float:
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        work(argument)
        timings.append(time.perf_counter() - started)
    return sorted(timings)[len(timings) // 2] * 1000


def schedule(repeat: int, seed: int) -> list[tuple[str, int]]:
    plan = [(kind, ms) for kind in KINDS for ms in SIZES_MS for _ in range(repeat)]
    random.Random(seed).shuffle(plan)
    return plan


def run_config(module, path: Path, loop: str, method: str, args) -> tuple[Recording, list, float, float]:
    module.RECORD.clear()
    plan = LoadPlan(len(module.SCHEDULE), args.concurrency, None)
    target = CallableTarget(f"{path}:rollout", module.rollout, [path])
    monitor = LoopMonitor(threshold=args.threshold / 1000, interval=args.interval / 1000, method=method)
    wall, cpu = time.perf_counter(), time.process_time()
    outcome, _, recording = run_on(loop, measure(target, plan, monitor))
    share = (time.process_time() - cpu) / (time.perf_counter() - wall)
    assert outcome.errors == 0, outcome.first_error
    assert recording is not None
    return recording, list(module.RECORD), share, recording.wall


def score(recording: Recording, record: list, path: Path, lines: dict[str, int]) -> dict:
    """Charge every part of every stall, as the report does, and compare with the injections."""
    real = os.path.realpath(path)
    roots = root_prefixes([str(path.parent)])
    line_kind = {line: kind for kind, line in lines.items()}
    truth = defaultdict(float)  # (kind, ms) -> injected ms
    seen = defaultdict(float)  # (kind, ms) -> injected ms inside stalls
    charged = defaultdict(lambda: defaultdict(float))  # (kind, ms) -> bucket -> ms
    outside = defaultdict(float)  # bucket -> ms of stalls during no injection
    exact_ms = defaultdict(float)  # (stall, kind, ms, overlap start) -> ms charged to that injection's line
    overlap_ms = {}  # the same key -> ms of the stall the injection covered
    for kind, ms, started, ended in record:
        truth[kind, ms] += (ended - started) * 1000
    for stall in recording.stalls:
        begin, end = stall.due, stall.due + stall.duration
        overlapping = [
            (kind, ms, max(begin, started), min(end, ended))
            for kind, ms, started, ended in record
            if started < end and ended > begin
        ]
        overlapping = [(kind, ms, low, high) for kind, ms, low, high in overlapping if high > low]
        for kind, ms, low, high in overlapping:
            seen[kind, ms] += (high - low) * 1000
            overlap_ms[stall, kind, ms, low] = (high - low) * 1000
        weight = sum(high - low for *_, low, high in overlapping)
        for owner, seconds in stall_owners(stall):
            bucket, blamed_kind = _bucket(owner, real, roots, line_kind)
            if not overlapping:
                outside[bucket] += seconds * 1000
                continue
            # A part at a stall line goes to the injection of that kind in the stall; the rest is
            # shared among the stall's injections by how much of the stall each covered.
            exact = [entry for entry in overlapping if entry[0] == blamed_kind]
            if bucket == "line" and exact:
                total = sum(high - low for *_, low, high in exact)
                for kind, ms, low, high in exact:
                    exact_ms[stall, kind, ms, low] += seconds * 1000 * (high - low) / total
                continue
            if bucket == "line":
                bucket = "other lines"  # a stall line, while another kind blocked
            for kind, ms, low, high in overlapping:
                charged[kind, ms][bucket] += seconds * 1000 * (high - low) / weight
    # The exact line is charged at most for the time its call ran within the stall; the rest (the
    # last sample stands for the stall's tail, which other code may have run) is time blamed on a
    # line while it did not block.
    for (stall, kind, ms, low), value in exact_ms.items():
        ran = overlap_ms[stall, kind, ms, low]
        charged[kind, ms]["exact"] += min(value, ran)
        charged[kind, ms]["over"] += max(0.0, value - ran)
    return {"truth": truth, "seen": seen, "charged": charged, "outside": outside}


def _bucket(owner, real: str, roots: tuple[str, ...], line_kind: dict[int, str]) -> tuple[str, str | None]:
    if owner is None:
        return "elsewhere", None
    cause, stack = owner
    if cause == HOST:
        return "host", None
    if cause == GC:
        return "gc", None
    classified = classify(stack, roots)
    if classified is None:
        return "elsewhere", None
    frame = classified[1]
    if os.path.realpath(frame.location) != real:
        return "elsewhere", None
    kind = line_kind.get(frame.line)
    return ("line", kind) if kind is not None else ("other lines", None)


def _sum(table: dict, keys) -> float:
    return sum(table.get(key, 0.0) for key in keys)


def report(name: str, result: dict, share: float, wall: float) -> dict[str, float]:
    truth, seen, charged, outside = result["truth"], result["seen"], result["charged"], result["outside"]
    buckets = ("exact", "host", "over", "other lines", "gc", "elsewhere")
    print(f"\n{name}: process CPU share {share:.2f} of a core over {wall:.1f} s")
    print(
        f"  {'kind':<11} {'injected':>10} {'in stalls':>10} {'exact line':>11} {'host':>6} {'not host':>9} "
        f"{'over':>6} {'other lines':>12} {'gc':>6} {'elsewhere':>10}   exact line by size "
        f"{'/'.join(map(str, SIZES_MS))} ms"
    )
    rows = {}
    for kind in (*KINDS, "all"):
        keys = [(k, ms) for k in (KINDS if kind == "all" else (kind,)) for ms in SIZES_MS]
        injected = _sum(truth, keys)
        parts = {bucket: sum(charged[key].get(bucket, 0.0) for key in keys) for bucket in buckets}
        by_size = []
        for ms in SIZES_MS:
            size_keys = [key for key in keys if key[1] == ms]
            size_truth = _sum(truth, size_keys)
            exact = sum(charged[key].get("exact", 0.0) for key in size_keys)
            by_size.append(f"{exact / size_truth:.0%}" if size_truth else "-")
        # Of what was charged to code (the host's part left out), the share on the exact line.
        code = sum(parts[bucket] for bucket in buckets if bucket not in ("host", "gc"))
        rows[kind] = parts["exact"] / injected if injected else 0.0
        rows[kind + "/held"] = parts["exact"] / code if code > 0 else 0.0
        print(
            f"  {kind:<11} {injected:>8.0f} ms {_sum(seen, keys) / injected:>10.0%} "
            f"{parts['exact'] / injected:>11.0%} {parts['host'] / injected:>6.0%} {rows[kind + '/held']:>9.0%} "
            f"{parts['over'] / injected:>6.1%} {parts['other lines'] / injected:>12.1%} "
            f"{parts['gc'] / injected:>6.1%} {parts['elsewhere'] / injected:>10.1%}   {' / '.join(by_size)}"
        )
    blamed = sum(charged[key].get("other lines", 0.0) for key in charged) + outside.get("other lines", 0.0)
    over = sum(charged[key].get("over", 0.0) for key in charged)
    out = sum(outside.values())
    print(
        f"  lines that did not block: {blamed:.1f} ms ({outside.get('other lines', 0.0):.1f} ms of it in stalls "
        f"during no injection, which took {out:.0f} ms, {outside.get('host', 0.0):.0f} ms of it host); "
        f"stall lines beyond their call: {over:.1f} ms"
    )
    rows["blamed_ms"], rows["over_ms"] = blamed, over
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="injections of each kind and size per run")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--threshold", type=float, default=5.0, help="stall threshold, ms")
    parser.add_argument("--interval", type=float, default=2.0, help="heartbeat period, ms")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--methods", nargs="*", default=["signal", "thread", "callbacks"])
    args = parser.parse_args()
    try:
        import uvloop  # noqa: F401

        loops = ("asyncio", "uvloop")
    except ImportError:
        loops = ("asyncio",)
    load_before = os.getloadavg()
    print(
        f"Held-out stalls: {len(KINDS)} kinds x sizes {', '.join(map(str, SIZES_MS))} ms x {args.repeat}, "
        f"in random order (seed {args.seed}), concurrency {args.concurrency}, threshold {args.threshold:g} ms, "
        f"heartbeat {args.interval:g} ms; {os.cpu_count()} CPUs, load average {load_before[0]:.1f} at start"
    )
    with tempfile.TemporaryDirectory(prefix="asynclint-heldout-") as directory:
        path, module, lines = write_workload(Path(directory))
        sys.path.insert(0, directory)
        summary = {}
        for loop in loops:
            for method in args.methods:
                if loop == "uvloop" and method == "callbacks":
                    continue  # it times asyncio's Handle._run, which uvloop never calls
                calibrate(module, SIZES_MS)
                module.SCHEDULE[:] = schedule(args.repeat, args.seed)
                recording, record, share, wall = run_config(module, path, loop, method, args)
                summary[loop, method] = report(f"{loop}, {method}", score(recording, record, path, lines), share, wall)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    print(
        "\nAll kinds: exact line / injected, exact line / charged to code (not host), "
        "ms blamed on lines that did not block, ms on stall lines beyond their call; "
        "exact line / injected per kind:"
    )
    for (loop, method), rows in summary.items():
        print(
            f"  {loop:<8} {method:<10} {rows['all']:>5.0%} {rows['all/held']:>5.0%} {rows['blamed_ms']:>7.1f} "
            f"{rows['over_ms']:>7.1f}   " + "  ".join(f"{kind} {rows[kind]:.0%}" for kind in KINDS)
        )


if __name__ == "__main__":
    main()
