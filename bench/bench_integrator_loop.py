#!/usr/bin/env python
"""What a fixed-step integrator loop in a reward costs per call, at a real task's sizes, beside ASL116's estimate.

ASL116 (``costly-loop``) counts a ``while`` loop that advances a clock by a step the module fixes up
to a limit it fixes (``while time < TIME_LIMIT: ... time += STEP``) as the limit over the step, an
upper bound: the run may end early (the body ``break``s when the outcome is decided). This script
times such a loop in the code of a real environment, split 32's ``marble_v1`` (pypi marble-v1
0.1.0: a 240 Hz integrator up to 26 s of simulated time, contacts against every piece and ramp
segment per step; three ``@vf.reward`` methods each rerun it per rollout), on the levels its own
generator makes and on the layouts a model answers with:

* the level's solution (the marble goes through the ring: the run ends there),
* the solution with each piece moved by one to four grid steps (a near miss: the marble falls past
  the ring or off the side, which ends the run),
* pieces dropped where the marble never reaches them (a miss decided by the fall),
* a level whose ring lies far below everything (``levels.DEEP``: the run plays out to the time
  limit, the loop's full count),

and prints the per-call time of each beside the estimate asynclint gives the loop (the package is
checked as a project and ASL116's finding on ``sim.py`` read). Nothing asserts an absolute time.

Usage::

    python bench/bench_integrator_loop.py [--package /work/corpus-heldout32/pypi+marble-v1] [--levels 12]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import subprocess
import sys
import timeit
from pathlib import Path

DEFAULT_PACKAGE = Path("/work/corpus-heldout32/pypi+marble-v1")


def per_call_ms(run, repeat: int = 5) -> float:
    """The best of ``repeat`` timings of ``run``, in milliseconds per call."""
    number = 3
    return min(timeit.repeat(run, number=number, repeat=repeat)) / number * 1000


def asl116_estimate(package: Path) -> str:
    """ASL116's finding on the integrator loop, as asynclint reports it for the package."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "asynclint",
            "check",
            "--no-cache",
            "--format",
            "json",
            "--select",
            "ASL116",
            str(package),
        ],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    try:
        findings = json.loads(out).get("findings", [])
    except json.JSONDecodeError:
        return "(no JSON report)"
    lines = [f"{f.get('severity')} at line {f.get('line')}: {f.get('message', '')[-120:]}" for f in findings]
    return "\n  ".join(lines) if lines else "(not reported)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", type=Path, default=DEFAULT_PACKAGE)
    parser.add_argument("--levels", type=int, default=12)
    parser.add_argument("--pieces", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(args.package))
    from marble_v1 import levels, sim  # the environment's own code, unchanged

    rng = random.Random(0)
    made = []
    for generated in levels.stream(0, args.pieces):
        made.append(generated)
        if len(made) == args.levels:
            break
    shapes: dict[str, list[float]] = {"solution": [], "near miss": [], "pieces out of reach": [], "to the limit": []}
    verdicts: dict[str, list[str]] = {name: [] for name in shapes}
    for generated in made:
        level, solution = generated.level, generated.solution
        step = sim.POSITION_STEP
        nudged = [dataclasses.replace(p, x=p.x + step * rng.choice((-4, -3, -2, -1, 1, 2, 3, 4))) for p in solution]
        away = [dataclasses.replace(p, x=-p.x if abs(p.x) > 200 else p.x + 400.0, y=p.y - 2000.0) for p in solution]
        deep = dataclasses.replace(level, ring_y=levels.DEEP)
        for name, (lv, layout) in {
            "solution": (level, solution),
            "near miss": (level, nudged),
            "pieces out of reach": (level, away),
            "to the limit": (deep, solution),
        }.items():
            shapes[name].append(per_call_ms(lambda lv=lv, layout=layout: sim.simulate(lv, layout)))
            verdicts[name].append(sim.simulate(lv, layout).verdict.value)
    print(f"marble_v1 simulate(), {len(made)} generated levels of {args.pieces} pieces, ms per call (best of 5):")
    print(f"  {'layout':22} {'median':>8} {'min':>8} {'max':>8}   verdicts")
    for name, times in shapes.items():
        counts = {v: verdicts[name].count(v) for v in sorted(set(verdicts[name]))}
        print(
            f"  {name:22} {statistics.median(times):8.2f} {min(times):8.2f} {max(times):8.2f}   "
            + ", ".join(f"{v} {n}" for v, n in counts.items())
        )
    full = int(sim.TIME_LIMIT / sim.STEP)
    print(f"  loop's full count: TIME_LIMIT / STEP = {sim.TIME_LIMIT} / {sim.STEP:.5f} = {full} steps")
    print("  three @vf.reward methods rerun it per rollout (scored, answered_legally, closeness)")
    print("ASL116 on the package:\n  " + asl116_estimate(args.package))


if __name__ == "__main__":
    main()
