#!/usr/bin/env python
"""Warm runs on a large tree: the cache against ruff's, side by side in one run.

Builds a corpus of public asyncio code from this machine (the standard library, then the
installed async-heavy packages: httpx, httpcore, anyio, aiohttp, starlette, uvicorn,
websockets, aiofiles, openai, anthropic, ...) until it has ``--files`` files, copied into a
temporary directory. Then, with the ``asynclint`` and ``ruff`` command lines as subprocesses:

* **cold**: ``asynclint check`` with an empty cache (it writes the cache), once;
* per repetition: **one file changed** (a function appended to one module: the last result
  cannot be reused, every other summary comes from the cache), one untimed run, then in a
  rotated order **warm** (nothing changed) and **ruff warm** (``ruff check --select ASYNC``
  with its cache);
* **fresh machine**: the tree copied elsewhere (every modification time new), the cache
  restored beside it, another ``HOME``: the first run there;
* with ``--compare-with SRC``, another asynclint (a ``src`` directory, e.g. a commit's
  ``git archive REV src``) with a cache of its own, run on the same tree in the same rotation:
  its cold run (untimed), **one file changed** right after the same edit, and **warm**; the
  findings of both are compared (``--format concise``), and the ratio printed is the median of
  the per-repetition ratios;
* **cold cost**, in-process on two samples of the corpus (every 16th and every 8th file):
  ``asynclint check -j 1 --no-cache`` against ``libcst.parse_module`` of the same files, and
  the time per file of the larger sample against the smaller (1.0: linear in files).

Each subprocess's peak memory is sampled from ``/proc`` (the process and its workers together,
proportional set sizes: a page a forked worker shares with its parent counts once) every 10 ms.
Wall times are medians; ratios are medians of per-repetition ratios. Nothing asserts an
absolute time: the machines are shared and noisy.

Usage::

    python bench/bench_cache.py                 # 7,000 files, 3 repetitions
    python bench/bench_cache.py --files 2000 --repeat 5 --skip-cold-cost
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_check import Corpus, add_source, package_dir

from asynclint.config import Config
from asynclint.runner import CACHE_DIR, run_check

ASYNC_PACKAGES = (
    "httpx",
    "httpcore",
    "anyio",
    "aiohttp",
    "starlette",
    "uvicorn",
    "websockets",
    "aiofiles",
    "trio",
    "fastapi",
    "redis",
    "asyncpg",
    "openai",
    "anthropic",
    "google",
    "botocore",
)
STDLIB = Path(os.__file__).parent


def build(root: Path, wanted: int) -> Corpus:
    corpus = Corpus(root)
    add_source(corpus, "stdlib", STDLIB)  # site-packages is excluded by asynclint's defaults too
    for name in ASYNC_PACKAGES:
        if len(corpus.files) >= wanted:
            break
        path = package_dir(name)
        if path is not None:
            add_source(corpus, name, path)
    return corpus


def _tree_rss(pid: int) -> int:
    """Memory of ``pid`` and its children (the indexing workers): the sum of their proportional
    set sizes (a page shared by n processes counts 1/n in each), else of their resident sizes.
    Resident sizes alone count twice what a forked worker shares with its parent."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            total += _pss(current)
            with open(f"/proc/{current}/task/{current}/children") as handle:
                pending.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            continue
    return total


def _pss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass  # no smaps_rollup (kernels before 4.14): the resident size
    with open(f"/proc/{pid}/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


#: The largest resident set size of the last :func:`timed` command's process (``getrusage``'s
#: ``ru_maxrss``, from ``wait4``: the process itself, not its indexing workers), in bytes.
MAXRSS: list[int] = []
#: The CPU time (user + system) of the last :func:`timed` command and the workers it waited for,
#: in seconds: on a loaded shared machine, what wall times of two versions hide.
CPU: list[float] = []


def timed(command: list[str], cwd: Path, env: dict[str, str] | None = None, ok=(0, 1)) -> tuple[float, int]:
    """(wall seconds, peak proportional set size of the process tree); the process's own peak
    resident size is appended to :data:`MAXRSS`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            done.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert process.stderr is not None
    stderr = process.stderr.read()
    # Reaped here rather than by Popen, for the child's own resource usage.
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    MAXRSS.append(usage.ru_maxrss * 1024)  # kilobytes on Linux
    CPU.append(usage.ru_utime + usage.ru_stime)
    if process.returncode not in ok:
        sys.exit(f"bench_cache: {' '.join(command)} exited {process.returncode}: {stderr.decode()[-400:]}")
    return seconds, peak


def executable(name: str) -> list[str] | None:
    here = Path(sys.executable).parent / name
    found = str(here) if here.is_file() else shutil.which(name)
    return [found] if found else None


def cold_cost(corpus: Corpus, scratch: Path) -> list[str]:
    """asynclint cold / libcst parse on two samples, and the per-file time of one against the other."""
    import libcst

    lines = []
    per_file = {}
    for step in (16, 8):
        sample = Corpus(scratch / f"sample-{step}")
        for relative in corpus.files[::step]:
            target = sample.root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(corpus.root / relative, target)
            sample.files.append(relative)
        texts = [corpus.texts[i] for i in range(0, len(corpus.files), step)]
        gc.collect()
        start = time.process_time()
        run_check([str(sample.root)], Config(root=sample.root), jobs=1, use_cache=False)
        asynclint = time.process_time() - start
        per_file[step] = asynclint / len(texts)
        if step == 8:
            gc.collect()
            start = time.process_time()
            failures = 0
            for text in texts:
                try:
                    libcst.parse_module(text)
                except Exception:  # noqa: BLE001 - its grammar may lag the stdlib's: count the time anyway
                    failures += 1
            parse = time.process_time() - start
            lines.append(
                f"cold asynclint -j 1 / libcst.parse_module ({len(texts)} files): "
                f"{asynclint:.1f} / {parse:.1f} CPU-s = {asynclint / parse:.2f}x  (target <= 0.4x; "
                f"libcst failed on {failures})"
            )
    lines.append(
        f"cold time per file, {len(corpus.files[::8])} files / {len(corpus.files[::16])} files: "
        f"{per_file[8] / per_file[16]:.2f}  (1.0 = linear in files)"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=7000, help="corpus size in files (default 7000)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions of the warm runs (default 3)")
    parser.add_argument("--skip-cold-cost", action="store_true", help="leave out the in-process cold samples")
    parser.add_argument("--keep", action="store_true", help="keep the temporary corpus")
    parser.add_argument(
        "--compare-with",
        metavar="SRC",
        type=Path,
        help="another asynclint's src directory, timed beside this one (before/after)",
    )
    args = parser.parse_args(argv)
    asynclint, ruff = executable("asynclint"), executable("ruff")
    if asynclint is None:
        sys.exit("bench_cache: the asynclint command is not installed (pip install -e .)")
    scratch = Path(tempfile.mkdtemp(prefix="asynclint-bench-cache-"))
    try:
        corpus = build(scratch / "corpus", args.files)
        print(
            f"corpus: {len(corpus.files)} files, {corpus.lines:,} lines "
            f"({', '.join(f'{label} {files}' for label, files, _ in corpus.parts)})",
            flush=True,
        )
        root = corpus.root
        # asynclint's bytecode cached as an installed package's is (pip compiles it; an editable
        # install writes it on first import), in the scratch directory: with PYTHONDONTWRITEBYTECODE
        # set, as on some shared machines, every run compiled asynclint's modules again (0.2 s).
        environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        environment["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
        check = [*asynclint, "check", "--format", "concise", "-o", str(scratch / "report.txt"), "."]
        samples: dict[str, list[tuple[float, int]]] = {}
        other_check: list[str] = []
        other_environment: dict[str, str] = {}
        if args.compare_with is not None:
            # Its own cache directory: each version's cache files would be the other's stale ones.
            other_check = [
                *asynclint,
                "check",
                "--format",
                "concise",
                "-o",
                str(scratch / "other.txt"),
                "--cache-dir",
                str(scratch / "other-cache"),
                ".",
            ]
            other_environment = {
                **environment,
                "PYTHONPATH": str(args.compare_with.resolve()),
                "PYTHONPYCACHEPREFIX": str(scratch / "other-pycache"),
            }

        cold = timed(check, root, environment)
        cold_maxrss = MAXRSS[-1]
        print(
            f"cold (writes the cache): {cold[0]:.1f} s, peak {cold[1] / 2**20:.0f} MB "
            f"(maxrss {cold_maxrss / 2**20:.0f} MB)",
            flush=True,
        )
        if ruff:
            subprocess.run([*ruff, "check", "--select", "ASYNC", "-q", "."], cwd=root, capture_output=True, check=False)
        if other_check:
            other_cold = timed(other_check, root, other_environment)
            print(f"cold, --compare-with (writes its cache): {other_cold[0]:.1f} s", flush=True)
        edited = root / corpus.files[len(corpus.files) // 2]

        maxrss: dict[str, list[int]] = {}
        cpu: dict[str, list[float]] = {}

        def warm() -> tuple[float, int]:
            measured = timed(check, root, environment)
            maxrss.setdefault("warm", []).append(MAXRSS[-1])
            return measured

        def changed() -> tuple[float, int]:
            # A real edit: a new function, so the file's summary changes (a comment would not).
            with open(edited, "a", encoding="utf-8") as handle:
                handle.write(f"\n\ndef _edited_{time.time_ns()}():\n    return 1\n")
            if not other_check:
                measured = timed(check, root, environment)
                maxrss.setdefault("changed", []).append(MAXRSS[-1])
                return measured
            # Both versions see the same edit, in an order rotated per repetition.
            first_ours = len(samples.get("asynclint one file changed", [])) % 2 == 0
            for ours in (first_ours, not first_ours):
                if ours:
                    measured = timed(check, root, environment)
                    maxrss.setdefault("changed", []).append(MAXRSS[-1])
                else:
                    samples.setdefault("compared one file changed", []).append(
                        timed(other_check, root, other_environment)
                    )
                name = "asynclint one file changed" if ours else "compared one file changed"
                cpu.setdefault(name, []).append(CPU[-1])
            same = (scratch / "report.txt").read_bytes() == (scratch / "other.txt").read_bytes()
            print(f"one file changed: findings {'identical' if same else 'DIFFER'} (--compare-with)", flush=True)
            return measured

        steps = {"asynclint warm": warm}
        if other_check:
            steps["compared warm"] = lambda: timed(other_check, root, other_environment)
        if ruff:
            steps["ruff warm"] = lambda: timed([*ruff, "check", "--select", "ASYNC", "."], root)
        names = [*steps, "asynclint one file changed", *(["compared one file changed"] if other_check else [])]
        for repetition in range(args.repeat):
            samples.setdefault("asynclint one file changed", []).append(changed())
            # Untimed: the edited file was written moments before the run read it, so its stamp
            # is not trusted and this run hashes it; and the cache just written is still being
            # flushed to disk. The warm runs below are the steady state.
            timed(check, root, environment)
            if other_check:
                timed(other_check, root, other_environment)
            order = list(steps)[repetition % len(steps) :] + list(steps)[: repetition % len(steps)]
            for name in order:
                samples.setdefault(name, []).append(steps[name]())
            print(
                f"repetition {repetition + 1}: " + ", ".join(f"{n} {samples[n][-1][0]:.2f} s" for n in names),
                flush=True,
            )

        fresh = scratch / "fresh"
        shutil.copytree(root, fresh, ignore=shutil.ignore_patterns(CACHE_DIR, ".ruff_cache"))
        shutil.copytree(root / CACHE_DIR, fresh / CACHE_DIR)
        home = scratch / "new-home"
        env = {**environment, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}
        restored = timed(
            [*asynclint, "check", "--format", "concise", "-o", str(scratch / "fresh.txt"), "."], fresh, env
        )
        again = timed([*asynclint, "check", "--format", "concise", "-o", str(scratch / "fresh.txt"), "."], fresh, env)

        print()
        for name in names:
            walls = [s for s, _ in samples[name]]
            peaks = [m for _, m in samples[name]]
            print(f"{name:28} median {statistics.median(walls):6.2f} s   peak {max(peaks) / 2**20:5.0f} MB")
        if other_check:
            for ours, theirs in (
                ("asynclint one file changed", "compared one file changed"),
                ("asynclint warm", "compared warm"),
            ):
                ratios = [a[0] / b[0] for a, b in zip(samples[ours], samples[theirs], strict=True)]
                print(f"{ours} / --compare-with: {statistics.median(ratios):.2f}x")
            mine, theirs_cpu = cpu["asynclint one file changed"], cpu["compared one file changed"]
            print(
                f"one file changed, CPU (with workers): median {statistics.median(mine):.1f} s against "
                f"{statistics.median(theirs_cpu):.1f} s --compare-with "
                f"({statistics.median(a / b for a, b in zip(mine, theirs_cpu, strict=True)):.2f}x)"
            )
        if ruff:
            for name, target in (("asynclint warm", 1.5), ("asynclint one file changed", None)):
                ratios = [a[0] / r[0] for a, r in zip(samples[name], samples["ruff warm"], strict=True)]
                aim = f"  (target <= {target}x)" if target else ""
                print(f"{name} / ruff warm: {statistics.median(ratios):.2f}x{aim}")
        print(
            f"fresh machine, restored cache: {restored[0]:.2f} s (peak {restored[1] / 2**20:.0f} MB), "
            f"then {again[0]:.2f} s  (cold here: {cold[0]:.1f} s)"
        )
        print(
            f"peak memory: cold {cold[1] / 2**20:.0f} MB, warm "
            f"{max(m for _, m in samples['asynclint warm']) / 2**20:.0f} MB, one file changed "
            f"{max(m for _, m in samples['asynclint one file changed']) / 2**20:.0f} MB  (target <= 250 MB)"
        )
        print(
            f"maxrss (the main process alone): cold {cold_maxrss / 2**20:.0f} MB, warm "
            f"{max(maxrss['warm']) / 2**20:.0f} MB, one file changed {max(maxrss['changed']) / 2**20:.0f} MB"
        )
        if not args.skip_cold_cost:
            for line in cold_cost(corpus, scratch):
                print(line)
        return 0
    finally:
        if args.keep:
            print(f"kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
