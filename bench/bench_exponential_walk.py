#!/usr/bin/env python
"""What a collection exponential in a count the row gives costs on the loop: ASL115's
``cpu-exponential`` and ``cpu-exponential-calls`` cost classes (``knowledge/costs.py``).

For n objects it times, best of ``--repeat``:

* building every (assignment of n bits, rule) pair, ``[(bits, rule) for bits in product((0, 1),
  repeat=n) for rule in RULES]`` -- 2^(n+1) tuples (``cpu-exponential``: a walk whose items call nothing);
* filtering them once with a project helper that builds a numpy array and a boolean mask per item
  (``cpu-exponential-calls``: the hypothesis test a detector environment runs per turn).

Nothing asserts an absolute time: the numbers back the words of the cost classes.

Usage::

    python bench/bench_exponential_walk.py [--repeat 3] [--sizes 8 10 12 15]
"""

from __future__ import annotations

import argparse
import time
from itertools import product

import numpy as np

RULES = ("disjunctive", "conjunctive")


def machine(objects: np.ndarray, blickets: np.ndarray, rule: str) -> int:
    on = objects[blickets == 1]
    if rule == "disjunctive":
        return int(on.any())
    return int(on.size > 0 and on.all())


def consistent(objects: np.ndarray, bits: tuple[int, ...], rule: str, seen: int) -> bool:
    return machine(objects, np.array(bits), rule) == seen


def best(repeat: int, run) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 10, 12, 15])
    args = parser.parse_args()
    print(f"{'n':>3} {'items':>7} {'build ms':>9} {'µs/item':>8} {'filter ms':>10} {'µs/item':>8}")
    for n in args.sizes:
        hypotheses = [(bits, rule) for bits in product((0, 1), repeat=n) for rule in RULES]
        objects = np.zeros(n, dtype=int)
        objects[0] = 1
        build = best(args.repeat, lambda n=n: [(b, r) for b in product((0, 1), repeat=n) for r in RULES])
        walk = best(
            args.repeat,
            lambda hypotheses=hypotheses, objects=objects: [h for h in hypotheses if consistent(objects, *h, 1)],
        )
        items = len(hypotheses)
        print(
            f"{n:>3} {items:>7} {build * 1e3:>9.2f} {build * 1e6 / items:>8.2f} "
            f"{walk * 1e3:>10.1f} {walk * 1e6 / items:>8.1f}"
        )


if __name__ == "__main__":
    main()
