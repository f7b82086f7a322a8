#!/usr/bin/env python
"""Peak memory of a cold ``asynclint check``: two versions side by side on one corpus.

Builds the corpus ``bench_cache.py`` builds (the standard library, then installed async-heavy
packages, until it has ``--files`` files), exports ``--before`` (a git revision) of this
repository's ``src`` into a scratch directory, and runs, per round in a rotated order, the
before and the working tree's ``asynclint check --format concise`` on the corpus, each with an
empty cache of its own (cold: every file indexed, deep mode following installed code, the cache
written) and the default workers. For each run: the wall time, the main process's peak resident
size (``ru_maxrss``) and the peak of the process tree's proportional set sizes sampled every
10 ms (the workers' private pages too; see ``bench_cache.timed``). The reports of the two
versions are compared byte for byte: a change to what is held must not change what is found.

Usage::

    python bench/bench_memory.py --before main              # 7,500 files, one round
    python bench/bench_memory.py --before HEAD~3 --files 2000 --rounds 2
    python bench/bench_memory.py --before main --after mem --corpus DIR   # an existing tree
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_cache import MAXRSS, build, timed

HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent


def export(revision: str, into: Path) -> Path:
    """``src`` of ``revision`` in ``into``; -> the directory to put on ``PYTHONPATH``."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", revision, "src"], cwd=REPOSITORY, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="git revision to compare against")
    parser.add_argument("--after", help="git revision to compare (default: the working tree)")
    parser.add_argument("--files", type=int, default=7500, help="corpus size in files (default 7500)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of before and after (default 1)")
    parser.add_argument("--corpus", type=Path, help="an existing corpus directory instead of building one")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="asynclint-bench-memory-"))
    try:
        if args.corpus is not None:
            root = args.corpus.resolve()
            print(f"corpus: {root}", flush=True)
        else:
            corpus = build(scratch / "corpus", args.files)
            root = corpus.root
            print(f"corpus: {len(corpus.files)} files, {corpus.lines:,} lines", flush=True)
        after = export(args.after, scratch / "after") if args.after else REPOSITORY / "src"
        versions = {"before": export(args.before, scratch / "before"), "after": after}
        environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        runs: dict[str, list[tuple[float, int, int]]] = {}
        reports: dict[str, bytes] = {}
        for number in range(args.rounds):
            order = list(versions)[number % 2 :] + list(versions)[: number % 2]
            for label in order:
                cache, report = scratch / f"cache-{label}", scratch / f"report-{label}.txt"
                shutil.rmtree(cache, ignore_errors=True)
                env = {
                    **environment,
                    "PYTHONPATH": str(versions[label]),
                    "PYTHONPYCACHEPREFIX": str(scratch / f"pycache-{label}"),
                }
                command = [
                    sys.executable,
                    "-m",
                    "asynclint",
                    "check",
                    "--format",
                    "concise",
                    "-o",
                    str(report),
                    "--cache-dir",
                    str(cache),
                    ".",
                ]
                seconds, peak = timed(command, root, env)
                runs.setdefault(label, []).append((seconds, MAXRSS[-1], peak))
                reports[label] = report.read_bytes()
                print(
                    f"round {number + 1} {label:6}: {seconds:6.1f} s, maxrss {MAXRSS[-1] / 2**20:5.0f} MB, "
                    f"tree peak {peak / 2**20:5.0f} MB",
                    flush=True,
                )
            if reports["before"] != reports["after"]:
                print("REPORTS DIFFER", flush=True)
                return 1
        print()
        for label, measured in runs.items():
            print(
                f"{label:6}  wall median {statistics.median(s for s, _, _ in measured):6.1f} s   "
                f"maxrss max {max(m for _, m, _ in measured) / 2**20:5.0f} MB   "
                f"tree peak max {max(p for _, _, p in measured) / 2**20:5.0f} MB"
            )
        ratio = statistics.median(a[1] / b[1] for a, b in zip(runs["after"], runs["before"], strict=True))
        lines = reports["after"].count(b"\n")
        print(f"maxrss after / before: {ratio:.2f}  (reports byte-identical, {lines} lines)")
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
