#!/usr/bin/env python
"""The filesystem and SQLite costs behind the cost classes of ``knowledge/costs.py`` that say a call
reads no file's contents, measured side by side in one run on a scratch directory.

Held-out split 6 (``bench/accuracy/README.md``, cause 3) labels directory walks, the creation of a
``TemporaryDirectory`` and fixed SQLite DDL low, and a keyed ``INSERT OR REPLACE`` into an open
transaction low per row, the commit carrying the write. This script times, interleaved in one
process, each against a worker-thread hop (``asyncio.to_thread`` of a no-op, the price of moving a
call off the loop):

* walks that read nothing: ``Path.rglob("*")``, ``os.walk`` and ``glob.glob("**", recursive=True)``
  over a workspace-sized tree (120 entries, 6 directories, as the split's workspaces) and over a
  repo-copy-sized one (2,000 files in 40 directories: a tree the project fills per rollout, or an
  installed package), ``os.scandir`` of one directory and ``os.listdir`` of one (metadata, for
  scale);
* a temporary directory: ``tempfile.TemporaryDirectory()`` created (a ``mkdtemp``), then its
  ``cleanup()`` after 20 small files were written into it (the rmtree), its
  whole life in a ``with`` block that writes 20 files and beside it the same entered on an
  ``ExitStack`` (its exit deletes the tree as the ``with`` form's does), and ``mkdtemp`` alone;
* SQLite on a file on disk, in Python's default mode (a DML statement opens a transaction
  implicitly): ``CREATE TABLE IF NOT EXISTS`` of a table that exists, one keyed ``INSERT OR
  REPLACE`` into the open transaction, and the ``commit`` of 20 such rows (the journal write and
  its fsync); for contrast one ``INSERT OR REPLACE`` on an autocommit connection
  (``isolation_level=None``: every statement is its own commit), and on a connection put into
  that mode after connecting (``conn.isolation_level = None``; Python 3.12's ``autocommit=True``
  is the same mode where the interpreter has it);
* a child's pipe: ``select.select`` with a zero timeout on an empty pipe (a poll: it returns at
  once), and ``readline`` of a line already in the pipe after a ``select`` found it readable (the
  read is a copy: the wait was the select's);
* a content copy for contrast: ``shutil.copy2`` of one 4 KB file and ``shutil.copytree`` of the
  small tree.

It prints the median of ``--repeat`` rounds per operation in microseconds and its ratio to the hop.
Nothing asserts an absolute time: the numbers go into the reasons of the cost classes.

Usage::

    python bench/bench_fs_costs.py [--repeat 7] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import select
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from costbench import hop  # bench/, the script's own directory, is sys.path[0]


def make_tree(root: Path, dirs: int, files_per_dir: int, size: int = 512) -> None:
    """``dirs`` directories of ``files_per_dir`` files of ``size`` bytes each under ``root``."""
    for d in range(dirs):
        sub = root / f"pkg{d}"
        sub.mkdir(parents=True, exist_ok=True)
        for f in range(files_per_dir):
            (sub / f"module_{f}.py").write_bytes(b"x" * size)


def timed(fn: Callable[[], object], setup: Callable[[], object] | None = None) -> float:
    """Microseconds of one call of ``fn`` (after ``setup``, untimed)."""
    if setup is not None:
        setup()
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--dir", default=None, help="where to make the scratch trees (default: the temp dir)")
    args = ap.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="asl-fs-bench-", dir=args.dir))
    try:
        small, large = scratch / "small", scratch / "large"
        make_tree(small, 6, 19)  # 6 dirs + 114 files = 120 entries
        make_tree(large, 40, 50)  # 2,000 files
        one_file = scratch / "one.txt"
        one_file.write_bytes(b"y" * 4096)
        db_path = scratch / "registry.db"
        conn = sqlite3.connect(db_path)
        conn.execute("CREATE TABLE IF NOT EXISTS documents (document_id TEXT PRIMARY KEY, rel_path TEXT, size INTEGER)")
        conn.commit()
        auto = sqlite3.connect(db_path, isolation_level=None)
        switched = sqlite3.connect(db_path)
        switched.isolation_level = None  # autocommit from here on, as if opened so
        # A child's stdout as the loop sees it: a pipe read through a text file object.
        read_fd, write_fd = os.pipe()
        pipe = os.fdopen(read_fd, "r", encoding="utf8")
        empty_fd, empty_write_fd = os.pipe()
        counter = iter(range(10**9))

        def insert(connection: sqlite3.Connection) -> None:
            n = next(counter)
            connection.execute(
                "INSERT OR REPLACE INTO documents (document_id, rel_path, size) VALUES (?, ?, ?)",
                (f"doc{n % 50}", f"docs/{n}.pdf", n),
            )

        def twenty_then_commit() -> None:
            for _ in range(20):
                insert(conn)

        def temp_with_files() -> tempfile.TemporaryDirectory[str]:
            holder = tempfile.TemporaryDirectory(dir=scratch)
            for i in range(20):
                Path(holder.name, f"f{i}.txt").write_bytes(b"z" * 2048)
            return holder

        def reply_written() -> None:
            os.write(write_fd, b'{"ok": true, "grid": "#....#"}\n')  # the child's one-line reply

        def reply_found_ready() -> None:
            reply_written()
            select.select([pipe], [], [], 5.0)  # what the code does before its readline: the wait

        def with_files() -> None:
            with tempfile.TemporaryDirectory(dir=scratch) as directory:
                for i in range(20):
                    Path(directory, f"f{i}.txt").write_bytes(b"z" * 2048)

        def exit_stack_with_files() -> None:
            with contextlib.ExitStack() as stack:
                directory = stack.enter_context(tempfile.TemporaryDirectory(dir=scratch))
                for i in range(20):
                    Path(directory, f"f{i}.txt").write_bytes(b"z" * 2048)

        copies = iter(range(10**9))
        made: list[tempfile.TemporaryDirectory[str]] = []
        ops: dict[str, tuple[Callable[[], object], Callable[[], object] | None]] = {
            "os.listdir (one directory)": (lambda: os.listdir(small / "pkg0"), None),
            "Path.rglob('*'), 120 entries": (lambda: list(small.rglob("*")), None),
            "os.walk, 120 entries": (lambda: list(os.walk(small)), None),
            "glob.glob('**'), 120 entries": (lambda: glob.glob(str(small / "**"), recursive=True), None),
            "Path.rglob('*'), 2,000 files": (lambda: list(large.rglob("*")), None),
            "os.walk, 2,000 files": (lambda: list(os.walk(large)), None),
            "glob.glob('**'), 2,000 files": (lambda: glob.glob(str(large / "**"), recursive=True), None),
            "os.scandir (one directory, 50 files)": (lambda: list(os.scandir(large / "pkg0")), None),
            "TemporaryDirectory() created": (lambda: made.append(tempfile.TemporaryDirectory(dir=scratch)), None),
            "tempfile.mkdtemp": (lambda: tempfile.mkdtemp(dir=scratch), None),
            "TemporaryDirectory.cleanup, 20 files": (
                lambda: made[-1].cleanup(),
                lambda: made.append(temp_with_files()),
            ),
            "with TemporaryDirectory(), 20 files": (with_files, None),
            "ExitStack.enter_context(same), 20 files": (exit_stack_with_files, None),
            "CREATE TABLE IF NOT EXISTS (exists)": (
                lambda: conn.execute("CREATE TABLE IF NOT EXISTS documents (document_id TEXT PRIMARY KEY)"),
                None,
            ),
            "INSERT OR REPLACE, open transaction": (lambda: insert(conn), None),
            "commit of 20 rows": (conn.commit, twenty_then_commit),
            "INSERT OR REPLACE, autocommit": (lambda: insert(auto), None),
            "INSERT OR REPLACE, isolation_level=None set": (lambda: insert(switched), None),
            "select.select(..., 0), empty pipe (a poll)": (lambda: select.select([empty_fd], [], [], 0), None),
            "readline after select found it readable": (pipe.readline, reply_found_ready),
            "shutil.copy2, one 4 KB file": (lambda: shutil.copy2(one_file, scratch / f"copy{next(copies)}.txt"), None),
            "shutil.copytree, 120 entries": (lambda: shutil.copytree(small, scratch / f"tree{next(copies)}"), None),
        }
        samples: dict[str, list[float]] = {name: [] for name in ops}
        hops: list[float] = []
        for _ in range(args.repeat):
            hops.append(hop())
            for name, (fn, setup) in ops.items():
                samples[name].append(timed(fn, setup))
            conn.commit()
        thread_hop = statistics.median(hops)
        print(f"worker-thread hop (asyncio.to_thread of a no-op): {thread_hop:8.1f} µs  (median of {args.repeat})")
        for name, times in samples.items():
            median = statistics.median(times)
            print(f"  {name:44} {median:10.1f} µs  {median / thread_hop:7.1f}x the hop")
        conn.close()
        auto.close()
        switched.close()
        pipe.close()
        for fd in (write_fd, empty_fd, empty_write_fd):
            os.close(fd)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
