#!/usr/bin/env python
"""The unit costs and grade cut-offs of ASL116's work estimate, measured side by side in one run.

ASL116 (``costly-loop``) estimates the work a project function does per call from its loops' trip
counts times the work per iteration (``asynclint.analysis.work``), in microseconds from the unit
costs of ``knowledge/costs.py`` (:data:`WORK_MICROS`), and grades it by :data:`WORK_GRADES`. This
script times, in one process and interleaved:

* the units: one pure-Python loop step, one call of a small function, a shallow copy of an object
  holding a 100-element list (a project ``copy()`` that copies the list), a ``dict`` of 132 entries
  copied, a ``copy.deepcopy`` of the 100-element object;
* representative shapes: 24 copies-and-edits of a 132-entry state (a one-move search), 24 x 24 =
  576 of them (a two-move search), and a 500-tick simulation over 10 items x 4 actors;

and prints each shape's time beside the estimate the unit costs give it (loops the syntax cannot
bound counted once, as the analysis does), so the ratio shows how far under the real time the
estimate is and the cut-offs can be read in real milliseconds. Nothing asserts an absolute time.

Usage::

    python bench/bench_loop_work.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import copy
import timeit
from dataclasses import dataclass

from asynclint.knowledge.costs import WORK_GRADES, WORK_MICROS

ITEMS = 100
MOVES = tuple((face, turn) for face in "ABCDEFGHIJKL" for turn in ("cw", "ccw"))  # 24


@dataclass
class Listed:
    cells: list[int]

    def copy(self) -> Listed:
        return Listed(list(self.cells))


@dataclass
class Puzzle:
    stickers: dict[tuple[str, int], str]

    def copy(self) -> Puzzle:
        return Puzzle(dict(self.stickers))

    def apply(self, face: str, turn: str) -> None:
        previous = dict(self.stickers)
        for side in range(5):
            self.stickers[(face, side)] = previous[(face, (side + 1) % 5)]

    def solved(self) -> bool:
        return all(color == face for (face, _), color in self.stickers.items())


PUZZLE = Puzzle({(face, index): face for face in "ABCDEFGHIJKL" for index in range(11)})
LISTED = Listed(list(range(ITEMS)))
TABLE = dict(PUZZLE.stickers)


def _after(puzzle: Puzzle, move: tuple[str, str]) -> Puzzle:
    candidate = puzzle.copy()
    candidate.apply(*move)
    return candidate


def one_move(puzzle: Puzzle) -> list[tuple[str, str]]:
    return [move for move in MOVES if _after(puzzle, move).solved()]


def two_moves(puzzle: Puzzle) -> int:
    return sum(len(one_move(_after(puzzle, move))) for move in MOVES)


def simulate(ticks: int = 500, items: int = 10, actors: int = 4) -> int:
    positions = list(range(items))
    hits = 0
    tick = 0
    while tick < ticks:
        for actor in range(actors):
            near = [p for p in positions if abs(p - actor) < 3]
            hits += len(near)
        positions = [p + 1 for p in positions]
        tick += 1
    return hits


def _noop(value: int) -> int:
    return value


def _steps(n: int = 576) -> None:
    total = 0
    for i in range(n):
        total += i


def _calls(n: int = 576) -> None:
    for i in range(n):
        _noop(i)


def _copies(n: int = 576) -> None:
    for _ in range(n):
        LISTED.copy()


def _dict_copies(n: int = 576) -> None:
    for _ in range(n):
        dict(TABLE)


def _deep_copies(n: int = 576) -> None:
    for _ in range(n):
        copy.deepcopy(LISTED)


U = WORK_MICROS
#: Each shape's estimate from the unit costs, as the analysis composes it (``all(...)`` over the
#: stickers and the simulation's inner list loops go over what the syntax does not bound: once).
_AFTER = U["call"] * 2 + (U["call"] + U["copy"]) + (U["copy"] + 5 * (U["step"]))
_SOLVED = U["call"] + U["step"]
_ONE = len(MOVES) * (U["step"] + _AFTER + _SOLVED)
ESTIMATES = {
    "one move (24 copies)": _ONE,
    "two moves (24 x 24 = 576 copies)": len(MOVES) * (U["step"] + _AFTER + U["call"] + _ONE),
    "500 ticks x (4 actors x a list pass)": 500 * (U["step"] + 4 * (U["step"] + 2 * U["step"]) + U["step"]),
}
SHAPES = {
    "one move (24 copies)": lambda: one_move(PUZZLE),
    "two moves (24 x 24 = 576 copies)": lambda: two_moves(PUZZLE),
    "500 ticks x (4 actors x a list pass)": simulate,
}
UNITS = {
    "step": (_steps, 576),
    "call": (_calls, 576),
    "copy": (_copies, 576),
    "dict copy (132 entries)": (_dict_copies, 576),
    "deepcopy": (_deep_copies, 576),
}


def _best(fn, number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print("unit costs (µs each; WORK_MICROS in parentheses)")
    for name, (fn, count) in UNITS.items():
        each = _best(fn, 10, args.repeat) / count * 1e6
        print(f"  {name:28} {each:8.3f}   ({WORK_MICROS.get(name, float('nan')):g})")
    print("shapes (measured ms, estimated ms, measured / estimated)")
    for name, fn in SHAPES.items():
        measured = _best(fn, 3, args.repeat) * 1e3
        estimated = ESTIMATES[name] / 1e3
        print(f"  {name:38} {measured:8.2f} {estimated:8.2f} {measured / estimated:6.1f}x")
    print("grade cut-offs on the estimate (µs): " + ", ".join(f"{cost} >= {floor:g}" for floor, cost in WORK_GRADES))


if __name__ == "__main__":
    main()
