#!/usr/bin/env python
"""What a byte codec costs on the loop next to a parser of the same bytes: base64 vs json.

The cost model grades ``base64`` encoding and decoding (``payload-codec``) apart from parsers and
serializers (``payload``): a linear pass in C over the bytes, without building objects. This
measures the sizes that grading assumes, side by side in one run: ``b64encode``/``b64decode`` of
random bytes (an image, a file's contents) and ``json.loads``/``json.dumps`` of a JSON document
of the same size (records of a few short fields), each at 30 KB, 300 KB and 3 MB, plus one
``asyncio.to_thread`` hop of a no-op (what offloading costs). Each is the median of ``--repeat``
timings of one call.

Usage::

    python bench/bench_codec_costs.py
    python bench/bench_codec_costs.py --repeat 50
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import statistics
import time

from costbench import timed  # bench/, the script's own directory, is sys.path[0]

SIZES = (30_000, 300_000, 3_000_000)


def document(size: int) -> str:
    """A JSON array of small records, about ``size`` bytes."""
    return json.dumps([{"id": n, "name": f"item-{n}", "ok": n % 2 == 0} for n in range(size // 40)])


async def hop(repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        await asyncio.to_thread(int)
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="timed calls per measurement (default 20)")
    args = parser.parse_args(argv)
    print(f"{'bytes':>10}  {'b64encode':>10}  {'b64decode':>10}  {'json.loads':>10}  {'json.dumps':>10}   (ms)")
    for size in SIZES:
        raw = os.urandom(size)
        encoded = base64.b64encode(raw)
        text = document(size)
        parsed = json.loads(text)
        row = (
            timed(lambda raw=raw: base64.b64encode(raw), args.repeat),
            timed(lambda encoded=encoded: base64.b64decode(encoded), args.repeat),
            timed(lambda text=text: json.loads(text), args.repeat),
            timed(lambda parsed=parsed: json.dumps(parsed), args.repeat),
        )
        print(f"{size:>10}  " + "  ".join(f"{value:>10.3f}" for value in row))
    print(f"one asyncio.to_thread hop: {asyncio.run(hop(args.repeat)):.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
