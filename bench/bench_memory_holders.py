#!/usr/bin/env python
"""Who holds a cold check's memory: ``tracemalloc`` by the module (and line) that allocated it.

Checks a tree in-process (one job unless ``--jobs``, deep mode as configured) cold -- with an
empty cache of its own in a temporary directory, as ``bench_memory.py``'s CLI runs, so the rules
read only the texts that may hold a suppression -- under ``tracemalloc``, and takes one snapshot
when the rules have all run -- the summaries, deep mode's libraries, the graph
and the rules' lazy indexes all alive, the peak's neighbourhood -- then prints the traced peak,
the snapshot's total, and its largest holders grouped by asynclint module and by line. Traced
sizes are Python's allocations only (no allocator slack, no interpreter): ``bench_memory.py``
measures resident sizes, this says whose objects they are. With one job the summaries are the
indexer's own objects (a fresh tuple per value); with workers they come back encoded and are
decoded with one copy of each equal value (``cache._SHARED_TUPLES``), as in a default cold run.

Usage::

    python bench/bench_memory_holders.py /work/corpus                # the top 15 of each
    python bench/bench_memory_holders.py DIR --top 30 --no-follow-imports
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import tracemalloc
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the tree to check (as one project)")
    parser.add_argument("--top", type=int, default=15, help="holders shown per grouping (default 15)")
    parser.add_argument("--no-follow-imports", action="store_true", help="shallow mode")
    parser.add_argument(
        "--jobs", type=int, default=1, help="indexing workers (default 1; 0: the default; workers are not traced)"
    )
    args = parser.parse_args(argv)
    root = args.root.resolve()

    import asynclint.engine as engine
    from asynclint.config import Config
    from asynclint.runner import run_check

    snapshots: list[tracemalloc.Snapshot] = []
    last_step = engine._one_per_call

    def snapshot_then(*args):  # called once the rules have all run, the graph still alive
        snapshots.append(tracemalloc.take_snapshot())
        return last_step(*args)

    engine._one_per_call = snapshot_then
    config = Config(root=root, follow_imports=not args.no_follow_imports)
    tracemalloc.start(1)
    with tempfile.TemporaryDirectory(prefix="asynclint-holders-") as cache:
        result = run_check([str(root)], config, jobs=args.jobs or None, cache_directory=Path(cache))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    if not snapshots:
        sys.exit("bench_memory_holders: the check took no snapshot")
    snapshot = snapshots[-1].filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    total = sum(stat.size for stat in snapshot.statistics("filename"))
    print(f"{root}: {result.files_checked} files, {len(result.findings)} findings")
    print(f"traced peak {peak / 2**20:.1f} MB; at the snapshot (rules done) {total / 2**20:.1f} MB\n")
    marker = f"{Path(engine.__file__).parent}/"
    print("by module:")
    for stat in snapshot.statistics("filename")[: args.top]:
        name = stat.traceback[0].filename.replace(marker, "asynclint/")
        print(f"  {stat.size / 2**20:8.1f} MB {stat.size / total:6.1%}  {stat.count:>10,} blocks  {name}")
    print("\nby line:")
    for stat in snapshot.statistics("lineno")[: args.top]:
        frame = stat.traceback[0]
        name = frame.filename.replace(marker, "asynclint/")
        print(
            f"  {stat.size / 2**20:8.1f} MB {stat.size / total:6.1%}  {stat.count:>10,} blocks  {name}:{frame.lineno}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
