#!/usr/bin/env python
"""What the graph's tables of calls hold when the rules have run: as call refs, and as the pairs they were.

Checks a tree in-process, cold (an empty cache of its own, default workers, deep mode as
configured), and when the rules have all run finds each project graph still alive and sizes its
tables of the calls that run a function (the direct callers, the arguments' table, the callers,
hot callers and hot-or-library callers; a table the check never asked for is not built): how many
functions and calls each holds, its bytes as `array('Q')` of call refs (`analysis/callrefs.py`:
the dict, the arrays) and the bytes the same table took as a tuple of (caller, site) pairs per
function (a 56-byte pair per call and its 8-byte slot; the caller's key and the site are shared
with the summaries either way; for the tables that held a tuple of sites per function, that tuple:
``SITE_TABLES``); the edges each function runs on the loop, as held and as the pairs they were; and
the table that still keeps a pair per call (the calls running a constructor's instance), as it is. Sizes are
`sys.getsizeof`'s, so the numbers are the same from run to run whatever the machine's load --
`bench_memory.py`'s resident sizes move by 10-20 MB between runs of one version on a loaded
machine, more than one table's cut.

Usage::

    python bench/bench_call_tables.py /work/corpus
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

TABLES = ("_direct_callers", "_arguments", "_callers", "_hot_callers", "_hot_or_library_callers")
#: Tables that held a tuple of sites per function (no pair: the caller is the key or the site's own):
#: their "as pairs" column is that tuple (``_calls_index`` also kept an array('i') of positions
#: beside each tuple).
SITE_TABLES = ("_calls_by_caller", "_calls_index")
#: The edges each function runs on the loop: a callee code and a call ref an edge in one array
#: (``HotSet._edge_items``); "as pairs" is the tuple of (callee, site) pairs per function they were
#: and the array of each edge's ref kept beside it (``_edge_calls``, session 26's).
EDGE_TABLE = "_edges"
#: Tables that still keep a (callee or caller, site) pair per call: sized as they are.
PAIR_TABLES = ("_running_calls",)
PAIR_BYTES = sys.getsizeof((0, 1))
T = TypeVar("T")


def sizes(graph: object) -> list[tuple[str, tuple[int, int, int, int] | None]]:
    """Per table: (functions, calls, bytes as refs, bytes as pairs), or None when not built."""
    rows: list[tuple[str, tuple[int, int, int, int] | None]] = []
    for name in (*TABLES, *SITE_TABLES):
        table = getattr(graph, name)
        if table is not None and name == "_calls_index":
            table = table[0]
        if name == "_calls_by_caller":
            rows.append((name, run_calls_sizes(table)))
            continue
        if table is None:
            rows.append((name, None))
            continue
        calls = sum(len(refs) for refs in table.values())
        as_refs = sys.getsizeof(table) + sum(sys.getsizeof(refs) for refs in table.values())
        if name in SITE_TABLES:
            as_pairs = sys.getsizeof(table) + sum(sys.getsizeof(tuple(refs)) for refs in table.values())
            if name == "_calls_index":
                as_pairs += sum(sys.getsizeof(array("i", refs[:0])) + 4 * len(refs) for refs in table.values())
        else:
            as_pairs = sys.getsizeof(table) + sum(
                sys.getsizeof(tuple(refs)) + PAIR_BYTES * len(refs) for refs in table.values()
            )
        rows.append((name, (len(table), calls, as_refs, as_pairs)))
    rows.append((EDGE_TABLE, edge_sizes(getattr(graph, EDGE_TABLE))))
    return rows


def edge_sizes(table: dict[Any, Any]) -> tuple[int, int, int, int]:
    """``_edges``: (functions, edges, bytes as held, bytes as pairs beside ``_edge_calls`` they were);
    a function with none holds the shared empty tuple then and now."""
    counts = [len(items) // 2 for items in table.values()]
    held = sys.getsizeof(table) + sum(sys.getsizeof(items) for items in table.values() if items)
    as_pairs = sys.getsizeof(table) + sum(sys.getsizeof((None,) * n) + PAIR_BYTES * n for n in counts if n)
    with_edges = [n for n in counts if n]
    as_pairs += sys.getsizeof(dict.fromkeys(range(len(with_edges)))) + sum(
        sys.getsizeof(array("Q", range(n))) for n in with_edges
    )
    return len(counts), sum(counts), held, as_pairs


def run_calls_sizes(table: list[Any]) -> tuple[int, int, int, int]:
    """``_calls_by_caller`` (a summary's calls by function, ``callrefs.RunCalls``): (functions,
    calls, bytes as held, bytes as the dict of a tuple of sites per function it was)."""
    held = [item for item in table if item is not None]
    counts = [
        end - start for item in held for start, end in zip(item.starts, item.starts[1:], strict=False) if end > start
    ]
    as_held = sys.getsizeof(table) + sum(
        sys.getsizeof(item) + sum(sys.getsizeof(column) for column in (item.calls, item.starts, item.callers))
        for item in held
    )
    as_tuples = sys.getsizeof(dict.fromkeys(range(len(counts)))) + sum(sys.getsizeof((None,) * n) for n in counts)
    return len(counts), sum(counts), as_held, as_tuples


def pair_sizes(graph: object) -> list[tuple[str, int, int, int]]:
    """Per table still of pairs: (name, functions, calls, bytes)."""
    rows = []
    for name in PAIR_TABLES:
        table = getattr(graph, name)
        calls = sum(len(pairs) for pairs in table.values())
        held = sys.getsizeof(table) + sum(sys.getsizeof(pairs) + PAIR_BYTES * len(pairs) for pairs in table.values())
        rows.append((name, len(table), calls, held))
    return rows


def graphs_after_rules(root: Path, bench: str, measure: Callable[[Any], T]) -> tuple[int, list[T]]:
    """Check ``root`` in-process and cold (an empty cache of its own), and once the rules have all
    run, with every project graph still alive, ``measure`` each: the files checked and what each
    graph measured. Exits with a message naming ``bench`` when no graph was alive then."""
    import asynclint.engine as engine
    from asynclint.analysis.graph import ProjectGraph
    from asynclint.config import Config
    from asynclint.runner import run_check

    measured: list[T] = []
    last_step = engine._one_per_call

    def measure_then(*step_args):  # called once the rules have all run, the graphs still alive
        if not measured:
            gc.unfreeze()  # the runner freezes what it holds before forking workers: get_objects skips it
            measured.extend(measure(item) for item in gc.get_objects() if isinstance(item, ProjectGraph))
        return last_step(*step_args)

    engine._one_per_call = measure_then
    try:
        with tempfile.TemporaryDirectory(prefix=f"asynclint-{bench}-") as cache:
            result = run_check([str(root)], Config(root=root), cache_directory=Path(cache))
    finally:
        engine._one_per_call = last_step
    if not measured:
        sys.exit(f"{bench}: no graph was alive when the rules had run")
    return result.files_checked, measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the tree to check (as one project)")
    args = parser.parse_args(argv)
    root = args.root.resolve()

    files, measured = graphs_after_rules(
        root,
        "bench_call_tables",
        lambda graph: (
            len(graph.summaries),
            sum(len(summary.calls) for summary in graph.summaries),
            sizes(graph),
            pair_sizes(graph),
        ),
    )
    print(f"{root}: {files} files")
    for summaries, calls, rows, pair_rows in measured:
        print(f"graph: {summaries:,} summaries, {calls:,} calls")
        total_refs = total_pairs = 0
        for name, row in rows:
            if row is None:
                print(f"  {name:26} not built")
                continue
            functions, held, as_refs, as_pairs = row
            total_refs, total_pairs = total_refs + as_refs, total_pairs + as_pairs
            print(
                f"  {name:26} {functions:>8,} functions {held:>9,} calls: "
                f"refs {as_refs / 2**20:6.2f} MB, as pairs {as_pairs / 2**20:6.2f} MB"
            )
        print(
            f"  total: refs {total_refs / 2**20:.2f} MB, as pairs {total_pairs / 2**20:.2f} MB "
            f"({total_refs / total_pairs:.2f}x)"
        )
        for name, functions, held, size in pair_rows:
            print(f"  still pairs: {name:14} {functions:>8,} functions {held:>9,} calls: {size / 2**20:6.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
