#!/usr/bin/env python
"""Side-by-side speed benchmark of ``asynclint check`` against parsers and other async linters.

One run measures every tool on the SAME file set and prints medians and ratios:

* floors: ``libcst.parse_module`` and ``ast.parse`` of every file, in-process (texts pre-read);
* asynclint in-process via ``asynclint.runner.run_check`` (no interpreter start-up):
  cold ``-j 1`` (no cache), cold ``-j 2``, cold with the cache enabled (it writes the cache)
  and warm (the next run, every summary a cache hit);
* the ``asynclint check --no-cache -j 1`` CLI as a subprocess, for reference;
* flake8-async: the plugin in-process (``Plugin.from_source(...).run()``, its own parse and
  visitors, nothing else) and ``flake8 --select ASYNC -j 1`` as a subprocess;
* ``ruff check --select ASYNC --no-cache``, with all threads and with one thread.

The machines this runs on are shared and noisy, so nothing here asserts an absolute time.
Each repetition runs every tool once, in an order rotated per repetition (so drift and
cache warmth do not always favour the same tool); times are reported as medians, and each
ratio is the median of the per-repetition ratios (both sides measured moments apart).

The corpus is copied (``.py`` files only) into a temporary directory: every tool sees
byte-identical files, no project configuration is picked up, and asynclint's cache lands in
the temporary copy rather than in the repository.

Usage::

    python bench/bench_check.py                       # default corpus, 5 repetitions
    python bench/bench_check.py --repeat 3 --corpus ~/src/myproject
    python bench/bench_check.py --download httpx anyio  # add sdists fetched with pip
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import fnmatch
import gc
import importlib.util
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import tokenize
import zipfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from asynclint import __version__ as ASYNCLINT_VERSION
from asynclint.config import DEFAULT_EXCLUDES, Config
from asynclint.model import Result, Severity
from asynclint.runner import CACHE_DIR, run_check

# Default corpus, in order of preference. Packages that are heavy asyncio users come first
# (whichever happen to be installed), then the stdlib's own async code, then ordinary
# pure-Python packages that ship with this venv, taken whole until there are enough files.
ASYNC_HEAVY = (
    "httpx",
    "httpcore",
    "anyio",
    "openai",
    "aiohttp",
    "trio",
    "starlette",
    "fastapi",
    "uvicorn",
    "websockets",
    "aiofiles",
    "redis",
    "asyncpg",
)
STDLIB_ASYNC = ("asyncio", "concurrent")
FILLERS = (
    "pyinstrument",
    "click",
    "jsonschema",
    "pathspec",
    "markdown_it",
    "pluggy",
    "_pytest",
    "rich",
    "astroid",
    "hypothesis",
    "pygments",
    "libcst",
)

SUBPROCESS_TIMEOUT = 1800  # seconds; a hung tool should fail the step, not the whole night
TINY_SOURCE = "import asyncio\n\n\nasync def main():\n    await asyncio.sleep(0)\n"


# ----------------------------------------------------------------------------- corpus


@dataclass
class Corpus:
    root: Path  # the temporary copy every tool runs on
    files: list[str] = field(default_factory=list)  # POSIX paths relative to root, sorted
    texts: list[str] = field(default_factory=list)  # decoded, aligned with ``files``
    parts: list[tuple[str, int, int]] = field(default_factory=list)  # (label, files, lines)
    dropped: list[str] = field(default_factory=list)  # files left out, with the reason

    @property
    def lines(self) -> int:
        return sum(lines for _, _, lines in self.parts)


def count_lines(text: str) -> int:
    # Physical lines as an editor shows them; a missing final newline still ends a line.
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def _excluded_dir(name: str) -> bool:
    # Skip the directories asynclint (and ruff) leave out by default, so that handing the
    # whole directory to asynclint checks exactly the files handed one by one to the others.
    return any(fnmatch.fnmatch(name, pattern) for pattern in DEFAULT_EXCLUDES) or name.startswith(".")


def _python_files(source: Path) -> list[Path]:
    if source.is_file():
        return [source] if source.suffix == ".py" else []
    found = []
    for directory, dirs, names in os.walk(source):
        dirs[:] = sorted(d for d in dirs if not _excluded_dir(d))
        found.extend(Path(directory, n) for n in sorted(names) if n.endswith(".py"))
    return found


def add_source(corpus: Corpus, label: str, source: Path) -> None:
    """Copy the parseable ``.py`` files under ``source`` into ``corpus.root / label``."""
    base = source if source.is_dir() else source.parent
    files = lines = 0
    for path in _python_files(source):
        if path.is_symlink():
            continue
        relative = Path(label, path.relative_to(base)).as_posix()
        try:
            data = path.read_bytes()
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            text = data.decode(encoding).removeprefix("\ufeff")
            ast.parse(text)  # every tool must be able to read every file, or ratios lie
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError, LookupError) as exc:
            corpus.dropped.append(f"{relative}: {type(exc).__name__}")
            continue
        target = corpus.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        corpus.files.append(relative)
        corpus.texts.append(text)
        files += 1
        lines += count_lines(text)
    if files:
        corpus.parts.append((label, files, lines))


def package_dir(name: str) -> Path | None:
    """Where an importable top-level package lives, without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None  # absent, or a single-module distribution too small to matter
    return Path(next(iter(spec.submodule_search_locations)))


def download_sdists(names: list[str], into: Path) -> list[tuple[str, Path]]:
    """``pip download --no-deps`` each sdist and unpack it; opt-in because it needs network."""
    sources = []
    for name in names:
        target = into / name
        target.mkdir(parents=True)
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            "--dest",
            str(target),
            name,
        ]
        completed = subprocess.run(command, check=False, capture_output=True, text=True, timeout=600)
        archives = [p for p in target.iterdir() if p.name.endswith((".tar.gz", ".zip"))]
        if completed.returncode or not archives:
            print(f"note: could not download {name}: {completed.stderr.strip()[-200:]}", file=sys.stderr)
            continue
        unpacked = target / "src"
        if archives[0].name.endswith(".zip"):
            with zipfile.ZipFile(archives[0]) as archive:
                archive.extractall(unpacked)
        else:
            with tarfile.open(archives[0]) as archive:
                archive.extractall(unpacked, filter="data")
        sources.append((archives[0].name.removesuffix(".tar.gz").removesuffix(".zip"), unpacked))
    return sources


def build_corpus(root: Path, args: argparse.Namespace, scratch: Path) -> Corpus:
    corpus = Corpus(root)
    used: set[str] = set()

    def label_for(name: str) -> str:
        label, n = name, 1
        while label in used:
            n += 1
            label = f"{name}-{n}"
        used.add(label)
        return label

    if args.corpus:
        for raw in args.corpus:
            path = Path(raw).expanduser().resolve()
            if not path.exists():
                sys.exit(f"bench_check: {raw}: no such file or directory")
            add_source(corpus, label_for(path.stem if path.is_file() else path.name), path)
    for label, path in download_sdists(args.download, scratch / "downloads") if args.download else ():
        add_source(corpus, label_for(label), path)
    if not args.corpus:
        for name in (*ASYNC_HEAVY, *STDLIB_ASYNC, *FILLERS):
            if name not in STDLIB_ASYNC and len(corpus.files) >= args.min_files:
                break  # the async-heavy and stdlib parts always go in; fillers only as needed
            path = package_dir(name)
            if path is not None:
                add_source(corpus, label_for(name), path)
    return corpus


# ----------------------------------------------------------------------------- measuring


def perf(fn: Callable[[], object]) -> tuple[float, object]:
    gc.collect()  # do not bill this tool for the previous tool's garbage
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    completed = subprocess.run(
        command, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT
    )
    return time.perf_counter() - start, completed


def executable(name: str) -> str | None:
    # Prefer the venv the benchmark runs in over whatever else is on PATH.
    here = Path(sys.executable).parent / name
    return str(here) if here.is_file() and os.access(here, os.X_OK) else shutil.which(name)


@dataclass
class Step:
    """One unit run once per repetition; ``fn`` returns {measurement name: seconds}."""

    name: str
    fn: Callable[[], dict[str, float]]
    slow: bool = False  # a reference tool so slow it runs only in the first --slow-repeat repetitions


@dataclass
class Bench:
    corpus: Corpus
    jobs: int
    steps: list[Step] = field(default_factory=list)
    samples: dict[str, dict[int, float]] = field(default_factory=dict)  # name -> {repetition: s}
    kind: dict[str, str] = field(default_factory=dict)  # name -> "in-process" / "subprocess"
    findings: dict[str, int] = field(default_factory=dict)  # name -> findings it reported
    results: dict[str, Result] = field(default_factory=dict)  # asynclint variants, last run
    notes: list[str] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)

    def skip(self, tool: str, why: str) -> None:
        self.notes.append(f"skipped {tool}: {why}")

    # -- in-process floors ---------------------------------------------------------------

    def add_parsers(self, skip: set[str]) -> None:
        texts = self.corpus.texts
        if "ast" not in skip:

            def ast_all() -> None:
                for text in texts:
                    ast.parse(text)  # each tree dropped at once, as libcst's below

            self._step("ast.parse", "in-process", ast_all)
        if "libcst" in skip:
            return
        try:
            import libcst
        except ImportError:
            return self.skip("libcst.parse_module", "libcst is not installed")
        self.versions["libcst"] = _dist_version("libcst")
        failures: set[int] = set()

        def parse_all() -> None:
            for i, text in enumerate(texts):
                try:
                    libcst.parse_module(text)
                except Exception:  # noqa: BLE001 - count rather than crash: its grammar may lag the stdlib's
                    failures.add(i)

        def note_failures() -> None:
            if failures:
                example = self.corpus.files[min(failures)]
                self.notes.append(f"libcst could not parse {len(failures)} file(s), e.g. {example}")

        self._step("libcst.parse_module", "in-process", parse_all)
        self._after.append(note_failures)

    # -- asynclint ----------------------------------------------------------------------

    def add_asynclint(self, skip: set[str]) -> None:
        self.versions["asynclint"] = ASYNCLINT_VERSION
        root = self.corpus.root
        # Config(root=...) with defaults: the temporary copy has no pyproject.toml to find. Without
        # deep mode: the peers read no dependencies either (bench_follow.py measures deep mode).
        config = replace(Config(root=root), follow_imports=False)

        def check(name: str, jobs: int, use_cache: bool) -> float:
            seconds, result = perf(lambda: run_check([str(root)], config, jobs=jobs, use_cache=use_cache))
            self.results[name] = result
            return seconds

        self._step("asynclint -j 1", "in-process", lambda: check("asynclint -j 1", 1, False), raw=True)
        if "asynclint-j2" not in skip:
            name = f"asynclint -j {self.jobs}"
            self._step(name, "in-process", lambda: check(name, self.jobs, False), raw=True)
        if "asynclint-cache" not in skip:

            def cache_pair() -> dict[str, float]:
                # Clear, then run twice back to back: the first run indexes everything and
                # writes the cache, the second finds every summary in it.
                shutil.rmtree(root / CACHE_DIR, ignore_errors=True)
                cold = check("asynclint cache write", 1, True)
                warm = check("asynclint warm", 1, True)
                return {"asynclint cache write": cold, "asynclint warm": warm}

            self.kind["asynclint cache write"] = self.kind["asynclint warm"] = "in-process"
            self.steps.append(Step("asynclint cache", cache_pair))
        if "asynclint-cli" not in skip:
            script = executable("asynclint")
            base = [script] if script else [sys.executable, "-m", "asynclint"]
            output = root.parent / "asynclint-report.json"
            # JSON to a file: a realistic non-interactive run without terminal rendering.
            command = [*base, "check", "--no-cache", "-j", "1", "--format", "json", "-o", str(output)]
            # Exit 2 also means "some file could not be analysed", which the in-process run tolerates.
            self._subprocess("asynclint CLI", command, ["."], ok=(0, 1, 2), count=lambda _: _json_findings(output))

    # -- other linters --------------------------------------------------------------------

    def add_flake8_async(self, skip: set[str]) -> None:
        if "flake8-async" not in skip:
            try:
                import flake8_async
            except ImportError:
                self.skip("flake8-async", "not installed (pip install flake8-async)")
            else:
                self.versions["flake8-async"] = flake8_async.__version__
                # Enable what `flake8 --select ASYNC` enables: every ASYNC code, including the
                # ASYNC9xx checkpoint rules the standalone runner leaves off by default, so the
                # in-process and CLI measurements do the same work.
                parser = argparse.ArgumentParser()
                flake8_async.Plugin.add_options(parser)
                flake8_async.Plugin.parse_options(parser.parse_args(["--disable="]))
                pairs = list(zip(self.corpus.files, self.corpus.texts, strict=True))

                def lint_all() -> int:
                    found = 0
                    for name, text in pairs:
                        found += sum(1 for _ in flake8_async.Plugin.from_source(text, filename=name).run())
                    self.findings["flake8-async plugin"] = found
                    return found

                self._step("flake8-async plugin", "in-process", lint_all, slow=True)
        if "flake8" not in skip:
            flake8 = executable("flake8")
            if flake8 is None:
                self.skip("flake8 CLI", "flake8 is not installed (pip install flake8)")
            else:
                self.versions["flake8"] = _first_line([flake8, "--version"]).split(" ")[0]  # "7.5.0 (plugins...)"
                # -j 1 to compare like with like; --isolated so no config file changes the run.
                command = [flake8, "--isolated", "--select", "ASYNC", "-j", "1", "--exit-zero"]
                self._subprocess(
                    "flake8 --select ASYNC",
                    command,
                    self.corpus.files,
                    ok=(0,),
                    slow=True,
                    count=lambda c: sum(1 for line in c.stdout.splitlines() if line.strip()),
                )

    def add_ruff(self, skip: set[str]) -> None:
        if "ruff" in skip:
            return
        ruff = executable("ruff")
        if ruff is None:
            return self.skip("ruff", "not installed (pip install ruff)")
        self.versions["ruff"] = _first_line([ruff, "--version"]).split(" ")[-1]  # "ruff 0.17.6"
        command = [
            ruff,
            "check",
            "--isolated",
            "--no-cache",
            "--select",
            "ASYNC",
            "--exit-zero",
            "--output-format",
            "json",
        ]

        def count(completed: subprocess.CompletedProcess) -> int:
            return len(json.loads(completed.stdout or "[]"))

        self._subprocess("ruff", command, self.corpus.files, ok=(0,), count=count)
        # ruff parallelises over files with rayon; one thread is the fair single-core match.
        single = {**os.environ, "RAYON_NUM_THREADS": "1"}
        self._subprocess("ruff (1 thread)", command, self.corpus.files, ok=(0,), count=count, env=single, startup=False)

    # -- plumbing -----------------------------------------------------------------------

    def __post_init__(self) -> None:
        self._after: list[Callable[[], object]] = []
        self.tiny_dir = self.corpus.root.parent / "tiny"
        self.tiny_dir.mkdir(exist_ok=True)
        (self.tiny_dir / "tiny.py").write_text(TINY_SOURCE)

    def _step(self, name: str, kind: str, fn: Callable[[], object], raw: bool = False, slow: bool = False) -> None:
        self.kind[name] = kind
        self.steps.append(Step(name, (lambda: {name: fn()}) if raw else (lambda: {name: perf(fn)[0]}), slow))

    def _subprocess(
        self,
        name: str,
        prefix: list[str],
        targets: list[str],
        *,
        ok: tuple[int, ...],
        count: Callable[[subprocess.CompletedProcess], int],
        env: dict[str, str] | None = None,
        slow: bool = False,
        startup: bool = True,
    ) -> None:
        """Time ``prefix + targets`` in the corpus and, if ``startup``, ``prefix`` on one tiny file."""
        command, tiny = [*prefix, *targets], [*prefix, "tiny.py"]
        # Probe on the tiny file first: a tool broken in this environment is skipped, not fatal.
        _, probe = run(tiny, self.tiny_dir, env)
        if probe.returncode not in ok:
            tail = (probe.stderr or probe.stdout).strip().splitlines()[-3:]
            return self.skip(name, f"exit status {probe.returncode}: {' | '.join(tail)}")
        if not slow:
            run(command, self.corpus.root, env)  # untimed warm-up; too costly for the slow tools

        def step() -> dict[str, float]:
            seconds, completed = run(command, self.corpus.root, env)
            if completed.returncode not in ok:
                tail = (completed.stderr or completed.stdout).strip().splitlines()[-1:]
                self.notes.append(f"{name} exited with status {completed.returncode}: {' | '.join(tail)}; untimed")
                return {}
            self.findings[name] = count(completed)  # before the start-up run overwrites any report
            timings = {name: seconds}
            if startup:
                timings[f"{name} start-up"] = run(tiny, self.tiny_dir, env)[0]
            return timings

        self.kind[name] = "subprocess"
        if startup:
            self.kind[f"{name} start-up"] = "start-up"
        self.steps.append(Step(name, step, slow))

    def warm_up(self) -> None:
        """Pay one-off costs (imports, lazy tables, page cache) outside the timed runs."""
        root = self.corpus.root
        few = self.corpus.texts[:20]
        with contextlib.suppress(Exception):  # libcst may be absent or reject a file
            import libcst

            for text in few:
                libcst.parse_module(text)
        for text in few:
            ast.parse(text)
        run_check(
            [str(root / self.corpus.files[0])],
            replace(Config(root=root), follow_imports=False),
            jobs=1,
            use_cache=False,
        )

    def run(self, repeat: int, slow_repeat: int, progress: bool) -> None:
        self.warm_up()
        for r in range(repeat):
            shift = r % len(self.steps)
            order = [s for s in self.steps[shift:] + self.steps[:shift] if r < slow_repeat or not s.slow]
            for step in order:
                timings = step.fn()
                for name, seconds in timings.items():
                    self.samples.setdefault(name, {})[r] = seconds
                if progress:
                    shown = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in timings.items())
                    print(f"  repetition {r + 1}/{repeat}: {shown}", file=sys.stderr, flush=True)
        for after in self._after:
            after()


def _json_findings(path: Path) -> int:
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError):
        return -1
    items = document.get("findings", []) if isinstance(document, dict) else document
    return len(items) if isinstance(items, list) else -1


def _first_line(command: list[str]) -> str:
    try:
        out = subprocess.run(command, check=False, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return "?"
    return " ".join(out.split())[:90]


def _dist_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


# ----------------------------------------------------------------------------- report


def median(values: list[float]) -> float:
    return statistics.median(values)


def paired_ratio(bench: Bench, top: str, bottom: str) -> tuple[float, float, float, int] | None:
    """Median, min, max of top/bottom over the repetitions that timed both, and their count."""
    a, b = bench.samples.get(top, {}), bench.samples.get(bottom, {})
    ratios = [a[r] / b[r] for r in sorted(a.keys() & b.keys()) if b[r] > 0]
    return (median(ratios), min(ratios), max(ratios), len(ratios)) if ratios else None


def report(bench: Bench, args: argparse.Namespace) -> None:
    corpus = bench.corpus
    print()
    print(
        f"asynclint check benchmark  (python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} CPUs, {args.repeat} repetitions, tools interleaved)"
    )
    print("versions: " + "; ".join(f"{k} {v}" for k, v in bench.versions.items()))
    print(
        f"corpus: {len(corpus.files)} files, {corpus.lines:,} lines, "
        f"{sum(len(t.encode()) for t in corpus.texts) / 1e6:.1f} MB  (copied to {corpus.root})"
    )
    for label, files, lines in corpus.parts:
        print(f"  {label:<24} {files:>5} files {lines:>9,} lines")
    if corpus.dropped:
        print(f"  left out {len(corpus.dropped)} unparseable file(s), e.g. {corpus.dropped[0]}")

    print()
    print("times (median over n repetitions; spread = (max - min) / median)")
    print(f"  {'tool':<34}{'kind':<12}{'n':>3}{'median s':>10}{'min s':>9}{'spread':>8}{'lines/s':>11}")
    for name, timed in bench.samples.items():
        values = list(timed.values())
        kind = bench.kind.get(name, "")
        mid = median(values)
        rate = "" if kind == "start-up" else f"{corpus.lines / mid:>11,.0f}"
        spread = (max(values) - min(values)) / mid if mid else 0.0
        print(f"  {name:<34}{kind:<12}{len(values):>3}{mid:>10.3f}{min(values):>9.3f}{spread:>7.0%} {rate}")

    print()
    print("ratios (median of per-repetition ratios [min-max], n pairs; < 1 means asynclint is faster)")
    j = f"asynclint -j {bench.jobs}"
    rows = [
        ("asynclint -j 1 / libcst.parse_module", "asynclint -j 1", "libcst.parse_module", 2.0),
        ("asynclint -j 1 / ast.parse", "asynclint -j 1", "ast.parse", None),
        ("asynclint -j 1 / flake8-async plugin", "asynclint -j 1", "flake8-async plugin", None),
        ("asynclint CLI / flake8 CLI (both -j 1)", "asynclint CLI", "flake8 --select ASYNC", None),
        ("asynclint CLI / ruff (all threads)", "asynclint CLI", "ruff", None),
        ("asynclint CLI / ruff (1 thread)", "asynclint CLI", "ruff (1 thread)", None),
        (f"{j} / asynclint -j 1 (cold)", j, "asynclint -j 1", None),
        ("warm / cold (cache hit vs --no-cache)", "asynclint warm", "asynclint -j 1", None),
        ("cold writing cache / cold --no-cache", "asynclint cache write", "asynclint -j 1", None),
        ("asynclint CLI / in-process -j 1", "asynclint CLI", "asynclint -j 1", None),
    ]
    for label, top, bottom, target in rows:
        ratio = paired_ratio(bench, top, bottom)
        if ratio is None:
            print(f"  {label:<44}{'n/a (a tool was skipped)':>22}")
            continue
        mid, low, high, n = ratio
        goal = ""
        if target is not None:
            goal = f"   target <= {target:g}x: {'met' if mid <= target else 'NOT met'}"
        print(f"  {label:<44}{mid:>8.2f}x  [{low:.2f}-{high:.2f}] n={n}{goal}")
    cli, startup = bench.samples.get("asynclint CLI", {}), bench.samples.get("asynclint CLI start-up", {})
    net = [cli[r] - startup[r] for r in cli.keys() & startup.keys()]
    if net:
        print(f"  (asynclint CLI minus its start-up on one tiny file: {median(net):.3f} s median)")

    print()
    print("work done")
    base = bench.results.get("asynclint -j 1")
    if base is not None:
        by_severity = Counter(f.severity for f in base.findings)
        shown = ", ".join(f"{s.label} {by_severity.get(s, 0)}" for s in sorted(Severity, reverse=True))
        print(
            f"  asynclint: {base.files_checked} files checked, {len(base.findings)} findings ({shown}), "
            f"{len(base.errors)} file errors"
        )
        by_rule = Counter(f.code for f in base.findings)
        if by_rule:
            print("    by rule: " + ", ".join(f"{code} {n}" for code, n in sorted(by_rule.items())))
        if base.files_checked != len(corpus.files):
            print(f"  WARNING: asynclint checked {base.files_checked} files, the corpus has {len(corpus.files)}")
        for name, result in bench.results.items():
            if name != "asynclint -j 1" and (len(result.findings), result.files_checked) != (
                len(base.findings),
                base.files_checked,
            ):
                print(
                    f"  WARNING: {name} reported {len(result.findings)} findings in "
                    f"{result.files_checked} files, unlike -j 1"
                )
    for name, found in bench.findings.items():
        print(f"  {name}: {found} findings")
    for note in bench.notes:
        print(f"  note: {note}")


# ----------------------------------------------------------------------------- main

SKIPPABLE = ("libcst", "ast", "asynclint-j2", "asynclint-cache", "asynclint-cli", "flake8-async", "flake8", "ruff")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus", nargs="+", metavar="PATH", help="files or directories to benchmark on instead of the default corpus"
    )
    parser.add_argument(
        "--download",
        nargs="+",
        metavar="PKG",
        default=[],
        help="also add these packages' sdists, fetched with `pip download --no-deps` (network)",
    )
    parser.add_argument("--repeat", type=int, default=5, help="repetitions per tool (default 5)")
    parser.add_argument(
        "--min-files",
        type=int,
        default=300,
        help="grow the default corpus with more installed packages to this many files (default 300)",
    )
    parser.add_argument(
        "--slow-repeat",
        type=int,
        default=1,
        metavar="N",
        help="run the slow references (flake8-async, flake8) in only the first N repetitions"
        " (default 1: each takes minutes and is far from asynclint, so noise hardly matters)",
    )
    parser.add_argument(
        "-j", "--jobs", type=int, default=2, help="worker count for the parallel asynclint run (default 2)"
    )
    parser.add_argument(
        "--skip",
        nargs="+",
        default=[],
        choices=SKIPPABLE,
        metavar="TOOL",
        help=f"leave tools out: {', '.join(SKIPPABLE)}",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the raw timings to FILE")
    parser.add_argument("--keep", action="store_true", help="keep the temporary corpus copy")
    args = parser.parse_args(argv)
    if min(args.repeat, args.jobs, args.slow_repeat) < 1:
        parser.error("--repeat, --slow-repeat and --jobs must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="asynclint-bench-"))
    previous_cwd = Path.cwd()
    try:
        corpus = build_corpus(scratch / "corpus", args, scratch)
        if not corpus.files:
            print("bench_check: the corpus has no parseable Python files", file=sys.stderr)
            return 2
        if len(corpus.files) < args.min_files:
            print(f"note: the corpus has only {len(corpus.files)} files (< {args.min_files})", file=sys.stderr)
        print(
            f"corpus: {len(corpus.files)} files, {corpus.lines:,} lines; {args.repeat} repetitions",
            file=sys.stderr,
            flush=True,
        )
        # Run from inside the copy, as a user would: relative display paths, and the in-process
        # runs and the CLI resolve paths the same way.
        os.chdir(corpus.root)
        bench = Bench(corpus, args.jobs)
        skip = set(args.skip)
        bench.notes.extend(f"skipped {tool}: --skip" for tool in args.skip)
        bench.add_parsers(skip)
        bench.add_asynclint(skip)
        bench.add_flake8_async(skip)
        bench.add_ruff(skip)
        bench.run(args.repeat, args.slow_repeat, progress=True)
        report(bench, args)
        if args.json:
            raw = {
                "files": len(corpus.files),
                "lines": corpus.lines,
                "repeat": args.repeat,
                "slow_repeat": args.slow_repeat,
                "samples": bench.samples,
                "findings": bench.findings,
                "notes": bench.notes,
            }
            (previous_cwd / args.json).write_text(json.dumps(raw, indent=2))
        return 0
    finally:
        os.chdir(previous_cwd)
        if args.keep:
            print(f"kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
