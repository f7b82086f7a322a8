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
    python bench/bench_memory_holders.py DIR --jobs 0 --types    # and the objects by type

``--types`` adds, at the same snapshot, the objects the collector tracks grouped by type (count and
``sys.getsizeof``, the object alone, not what it refers to): the by-line table names the generated
record decoders only as ``<string>:N``, one line per record class whatever the class, so this says
which records they are (call sites, handed callables, ...). Strings and integers are not tracked:
the by-line table's ``json/decoder.py`` line holds them.
"""

from __future__ import annotations

import argparse
import gc
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
    parser.add_argument("--types", action="store_true", help="also the tracked objects by type at the snapshot")
    args = parser.parse_args(argv)
    root = args.root.resolve()

    import asynclint.engine as engine
    from asynclint.config import Config
    from asynclint.runner import run_check

    snapshots: list[tracemalloc.Snapshot] = []
    by_type: list[tuple[str, int, int]] = []
    peaks: list[int] = []
    last_step = engine._one_per_call

    def snapshot_then(*step):  # called once the rules have all run, the graph still alive
        snapshots.append(tracemalloc.take_snapshot())
        if args.types:  # not the census's own list in the traced peak
            peaks.append(tracemalloc.get_traced_memory()[1])
            by_type[:] = _by_type()
            tracemalloc.reset_peak()
        return last_step(*step)

    engine._one_per_call = snapshot_then
    config = Config(root=root, follow_imports=not args.no_follow_imports)
    tracemalloc.start(1)
    with tempfile.TemporaryDirectory(prefix="asynclint-holders-") as cache:
        result = run_check([str(root)], config, jobs=args.jobs or None, cache_directory=Path(cache))
    peak = max([tracemalloc.get_traced_memory()[1], *peaks])
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
    if by_type:
        # No share of the traced total: these include what was made before tracing began (modules).
        print("\nby type (objects the collector tracks, each alone):")
        for name, count, size in by_type[: args.top]:
            print(f"  {size / 2**20:8.1f} MB  {count:>10,} objects  {size / count:6.0f} B  {name}")
    return 0


def _by_type() -> list[tuple[str, int, int]]:
    """(type, count, bytes) of every object the collector tracks, largest first. The summaries are
    frozen (``gc.freeze``: not in ``gc.get_objects``) while the check runs: unfrozen to be counted,
    which only lets the next collections walk them."""
    gc.unfreeze()
    counts: dict[type, list[int]] = {}
    for item in gc.get_objects():
        entry = counts.setdefault(type(item), [0, 0])
        entry[0] += 1
        entry[1] += sys.getsizeof(item)
    rows = [(f"{kind.__module__}.{kind.__qualname__}", count, size) for kind, (count, size) in counts.items()]
    return sorted(rows, key=lambda row: -row[2])


if __name__ == "__main__":
    sys.exit(main())
