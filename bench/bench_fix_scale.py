#!/usr/bin/env python
"""How ``asynclint fix`` grows with the number of findings in one file, side by side with ``check``.

A generated module holds n offenders of three shapes (a ``time.sleep`` in ``async def``, a sync
helper reading a file called from ``async def``, ``json.load(open(p))``), 4 findings per 3
shapes. For each size the same process times ``check`` and ``fix`` (CPU seconds, in memory: no
start-up, no disk) and prints the time per finding, ``fix``/``check``, and the growth exponent
between successive sizes (1.0 is linear, 2.0 quadratic), and the process's peak memory (one
process per size with ``--src``). Nothing is asserted: the machine is
shared; the exponent and the ratios are measured within one run.

``--src DIR`` (repeatable) measures other checkouts too, each in a subprocess with
``PYTHONPATH=DIR`` (e.g. ``--src /work/main/src`` for the code before a change): the tables are
printed one after the other from one run.

Usage::

    python bench/bench_fix_scale.py                      # sizes 60 120 240 480 960
    python bench/bench_fix_scale.py --sizes 120 480 1920 --src /work/main/src --src src
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path


def module(n: int) -> str:
    parts = ["import json\nimport time\n\n\n"]
    for i in range(n):
        shape = i % 3
        if shape == 0:
            parts.append(f"async def sleeper_{i}(x):\n    time.sleep(0.1)\n    return x\n\n\n")
        elif shape == 1:
            parts.append(
                f"def _read_{i}(p):\n    with open(p) as f:\n        return f.read()\n\n\n"
                f"async def reader_{i}(p):\n    return _read_{i}(p)\n\n\n"
            )
        else:
            parts.append(f"async def loader_{i}(p):\n    return json.load(open(p))\n\n\n")
    return "".join(parts)


def measure(n: int) -> dict:
    from asynclint.config import Config
    from asynclint.engine import SourceFile
    from asynclint.fixers.orchestrator import fix_sources
    from asynclint.model import Severity
    from asynclint.pipeline import check_sources

    sources = [SourceFile("generated.py", module(n), "generated", "")]
    config = Config(root=Path("."), min_severity=Severity.LOW)
    start = time.process_time()
    findings = len(check_sources(sources, config).findings)
    check = time.process_time() - start
    start = time.process_time()
    outcome = fix_sources(sources, config)
    fix = time.process_time() - start
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {"n": n, "findings": findings, "check": check, "fix": fix, "fixed": len(outcome.applied), "peak": peak}


def table(rows: list[dict]) -> str:
    lines = [
        (
            f"{'findings':>8} {'check s':>8} {'fix s':>8} {'fix ms/finding':>15} {'fix/check':>10} {'growth':>7}"
            f" {'peak MB':>8}"
        )
    ]
    previous = None
    for row in rows:
        growth = ""
        if previous is not None and row["fix"] > 0 and previous["fix"] > 0:
            growth = f"{math.log(row['fix'] / previous['fix']) / math.log(row['findings'] / previous['findings']):.2f}"
        ratio = row["fix"] / row["check"] if row["check"] > 0 else float("inf")
        per = 1000 * row["fix"] / max(row["findings"], 1)
        lines.append(
            f"{row['findings']:>8} {row['check']:>8.2f} {row['fix']:>8.2f} {per:>15.2f} {ratio:>10.0f} {growth:>7}"
            f" {row['peak']:>8.0f}"
        )
        previous = row
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[60, 120, 240, 480, 960])
    parser.add_argument("--src", action="append", default=[], help="measure this checkout's src (repeatable)")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(measure(args.worker)))
        return
    if not args.src:
        print(table([measure(n) for n in args.sizes]))
        return
    for src in args.src:
        rows = []
        for n in args.sizes:
            env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
            done = subprocess.run(
                [sys.executable, __file__, "--worker", str(n)], env=env, capture_output=True, text=True, check=True
            )
            rows.append(json.loads(done.stdout))
        print(f"{src}:\n{table(rows)}\n")


if __name__ == "__main__":
    main()
