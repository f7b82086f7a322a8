#!/usr/bin/env python
"""Where a recheck's CPU goes: one file changed, two versions of asynclint side by side.

Builds the corpus ``bench_cache.py`` builds (the standard library first, then the installed
async-heavy packages) in a temporary directory, then runs each version -- this checkout's
``src`` and ``--compare-with SRC`` (another ``src`` directory, e.g. ``git archive REV src``) --
in a process of its own (``PYTHONPATH``), with a cache of its own:

* **cold** once each (default workers; it writes the cache; not timed per stage);
* per repetition, in an order rotated per repetition: **one file changed** (a function appended
  to one module, the same edit for both, a run of each after it), **one comment added** (a
  comment line appended to another module, one without suppression comments: its summary stays
  as it was, so the last result may stand), **comment beside a suppression** (the same, to a
  module holding a suppression comment -- asynclint's or a ``# noqa: CODE`` -- when the tree has
  one: what the rules read of it stays as it was too), **lines moved in a body** (a comment line
  inserted at the top of a function's body in another module: every line below it moves, nothing
  else changes, so the last result stands with its lines renumbered -- :mod:`asynclint.renumber`;
  before that round, deep mode's plan -- :func:`asynclint.cache.moved_digest`), **a call added in a
  body** (a call of another of its module's top-level functions, inserted at the top of a function's
  body in a fourth module: the edit issue 11 names, adding a call in one function; today a whole
  recheck, like the first row), **a local added in a body** (``_edited_<n> = 1`` at the top of a
  function's body in a fifth module: a name written that is no switch field's, lines moved --
  :func:`asynclint.runner.as_read`), **warm** (nothing changed) and **a call removed, a watch's round**
  (in one process, as ``check --watch`` runs its rounds: a check, the same call added once more and a
  check, then that call taken out again and the round timed, handed what the last round kept,
  :class:`asynclint.cache.Decoded`, by a version that keeps anything);

each in-process through ``run_check`` with one job (the changed file is indexed in the main
process: its CPU is the whole recheck's), the CPU seconds of each stage timed around it:
decoding the summaries from the cache, deep mode's follow (its graphs included), the graphs
built (whoever built them), the check (its graph when it builds one, and the rules), and the
total. The reports of both versions are compared after every run (``--format concise``). Last, a
check of each version without the cache (one job): each row's total is printed as a fraction of it,
both measured in the same run. ``--equivalence``: after each edit, this checkout checks the tree
without the cache too, and its JSON report must equal each version's recheck's, byte for byte (exit 1
if not).

Usage::

    python bench/bench_recheck.py --compare-with /tmp/before/src            # 3 repetitions
    python bench/bench_recheck.py --compare-with /tmp/before/src --repeat 1 --files 2000
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: What the child process runs: one check of ``root``, each stage timed (CPU seconds).
CHILD = r"""
import json, sys, time
from pathlib import Path
import asynclint.analysis.graph as graph_module
import asynclint.cache as cache
import asynclint.pipeline as pipeline
import asynclint.runner as runner
from asynclint.project import load_project
from asynclint.report import render

root, cache_dir, report = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
stages = {}

def timed(owner, name, stage):
    original = getattr(owner, name)
    def run(*args, **kwargs):
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            stages[stage] = stages.get(stage, 0.0) + time.process_time() - start
    setattr(owner, name, run)

try:  # where a version keeps the summary cache (cache.py was split along its sections)
    import asynclint.cache_summaries as summaries
except ImportError:
    summaries = cache
timed(summaries.SummaryCache, "get", "decoding summaries")
timed(runner, "follow_libraries", "deep mode's follow")
timed(graph_module.ProjectGraph, "__init__", "graphs built")
timed(pipeline, "check_project", "the check")
# A watch's rounds (argv[5]: a file, a line, a text to insert there): in this process, a check of the
# tree, then the text inserted and a check (a round after an edit: what a version keeps of a round,
# cache.Decoded, is filled), then the text taken out again and the round timed, handed what the
# last one kept by a version that keeps anything. The file is as it was after.
watched = json.loads(sys.argv[5]) if len(sys.argv) > 5 else None
# argv[5] "cold": a check of the tree without the cache (what a recheck's report must equal).
cold = watched == "cold"
watched = None if cold else watched
kept = {"decoded": summaries.Decoded()} if watched and hasattr(summaries, "Decoded") else {}


def check_once(jobs):
    project = load_project([str(root)], cwd=root, use_cache=not cold, cache_directory=cache_dir)
    return runner.run_check(
        [str(root)], project.config, files=project.files, jobs=jobs, cache_directory=cache_dir,
        use_cache=not cold, **kept
    )


if watched:
    check_once(1)
    edited = Path(watched["path"])
    text = edited.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = watched["at"]
    edited.write_text("".join([*lines[: at - 1], watched["text"], *lines[at - 1 :]]), encoding="utf-8")
    time.sleep(2.5)  # past the stamps' "too recent to trust" window
    check_once(1)
    edited.write_text(text, encoding="utf-8")
    time.sleep(2.5)
    stages.clear()
start = time.process_time()
result = check_once(int(sys.argv[4]) or None)
stages["total"] = time.process_time() - start
report.write_text(render(result, "concise"), encoding="utf-8")
report.with_suffix(".json").write_text(render(result, "json"), encoding="utf-8")
print(json.dumps(stages))
"""

#: A suppression comment as the rules look for one (``suppressions.may_suppress``'s patterns: a
#: noqa comment listing another tool's codes is read too, to find out whose codes it lists).
SUPPRESSION = re.compile(r"#\s*asynclint\s*:\s*ignore\b|#\s*noqa\s*:\s*[A-Za-z]+[0-9]+", re.I)

STAGES = ("decoding summaries", "deep mode's follow", "graphs built", "the check", "total")


def check(
    src: Path, root: Path, cache_dir: Path, report: Path, jobs: int, watched: dict[str, object] | str | None = None
) -> dict[str, float]:
    environment = {**os.environ, "PYTHONPATH": str(src.resolve())}
    more = [json.dumps(watched)] if watched is not None else []
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), str(cache_dir), str(report), str(jobs), *more],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"bench_recheck: {src} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _first_body(path: Path) -> tuple[int, int] | None:
    """(line, indent) of the first statement of the first top-level function of ``path`` whose
    body starts on a line of its own; ``None`` when there is none (or the file does not parse)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0]
            if first.lineno > node.lineno:  # ``def f(): return 1`` has no line to insert above
                return first.lineno, first.col_offset
    return None


def _call_edit(path: Path) -> tuple[int, int, str] | None:
    """(line, indent, callee): the first statement of the first top-level function of ``path``
    whose body starts on a line of its own, and another top-level function of the module it may
    call; ``None`` when there is none (or the file does not parse)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError):
        return None
    functions = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    body = _first_body(path)
    caller = next((node for node in functions if node.body[0].lineno > node.lineno), None)
    callee = next((node.name for node in functions if node is not caller), None)
    if body is None or callee is None:
        return None
    return body[0], body[1], callee


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000, help="corpus size in files (default 2000)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("--corpus", type=Path, help="a directory to copy and check instead (its .py files)")
    parser.add_argument("--compare-with", metavar="SRC", type=Path, required=True, help="the other version's src")
    parser.add_argument(
        "--equivalence",
        action="store_true",
        help="after each edit, check the tree without the cache too (this checkout): its JSON report "
        "must equal each recheck's, byte for byte (a cold check per row: slow)",
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_cache import build

    ours = Path(__file__).resolve().parent.parent / "src"
    versions = {"after": ours, "before": args.compare_with}
    scratch = Path(tempfile.mkdtemp(prefix="asynclint-bench-recheck-"))
    try:
        root = scratch / "corpus"
        if args.corpus is not None:
            shutil.copytree(args.corpus, root, ignore=shutil.ignore_patterns(".*", "__pycache__"))
            files = sorted(path.relative_to(root) for path in root.rglob("*.py"))
            print(f"corpus: {len(files)} files copied from {args.corpus}", flush=True)
        else:
            corpus = build(root, args.files)
            files = [Path(file) for file in corpus.files]
            print(f"corpus: {len(files)} files, {corpus.lines:,} lines", flush=True)
        caches = {name: scratch / f"cache-{name}" for name in versions}
        reports = {name: scratch / f"{name}.txt" for name in versions}
        for name, src in versions.items():
            start = time.perf_counter()
            check(src, root, caches[name], reports[name], 0)  # 0: the default workers
            print(f"cold {name}: {time.perf_counter() - start:.0f} s wall", flush=True)
        edited = root / files[len(files) // 2]
        # The comment goes to a module that holds no suppression comment (nor anything like one):
        # what the rules read of a file that does is compared too (the next row's case).
        commented = next(
            root / file
            for file in files[len(files) // 2 + 1 :] + files
            if not re.search(r"noqa|asynclint", (root / file).read_text(encoding="utf-8", errors="replace"), re.I)
        )
        # And a module that holds one: its comment edits leave what the rules read of it as it was.
        suppressed = next(
            (
                root / file
                for file in files[len(files) // 2 + 1 :] + files
                if SUPPRESSION.search((root / file).read_text(encoding="utf-8", errors="replace"))
                and root / file not in (edited, commented)
            ),
            None,
        )
        # A module with a function whose body starts on a line of its own, not one of the above.
        moved = next(
            (
                (root / file, body)
                for file in files[len(files) // 2 + 1 :] + files
                if root / file not in (edited, commented, suppressed) and (body := _first_body(root / file)) is not None
            ),
            None,
        )
        # And a fourth, with two top-level functions: a call of the second added to the first's body.
        called = next(
            (
                (root / file, edit)
                for file in files[len(files) // 2 + 1 :] + files
                if root / file not in (edited, commented, suppressed, moved[0] if moved else None)
                and (edit := _call_edit(root / file)) is not None
            ),
            None,
        )
        # And a fifth: a local of a new name assigned at the top of a function's body (the common
        # edit a line added in a body is: its summary differs by the name written and lines moved).
        assigned = next(
            (
                (root / file, body)
                for file in files[len(files) // 2 + 1 :] + files
                if root / file not in (edited, commented, suppressed, moved[0] if moved else None)
                and root / file != (called[0] if called else None)
                and (body := _first_body(root / file)) is not None
            ),
            None,
        )
        samples: dict[tuple[str, str], list[dict[str, float]]] = {}
        unequal: list[str] = []

        def equivalent(row: str) -> None:
            """This checkout's check of the tree without the cache: its JSON report is each
            version's recheck's, byte for byte (``--equivalence``)."""
            if not args.equivalence:
                return
            cold_report = scratch / "cold.txt"
            check(versions["after"], root, scratch / "cache-cold", cold_report, 1, "cold")
            cold_json = cold_report.with_suffix(".json").read_bytes()
            differ = [name for name in versions if reports[name].with_suffix(".json").read_bytes() != cold_json]
            unequal.extend(f"{row} ({name})" for name in differ)
            print(f"  {row}: recheck JSON == cold JSON: {'NOT for ' + ', '.join(differ) if differ else 'yes'}")

        def same() -> str:
            return "identical" if reports["after"].read_bytes() == reports["before"].read_bytes() else "DIFFER"

        def edit_and_check(
            row: str, path: Path, text: str, order: list[str], repetition: int, at: int | None = None
        ) -> None:
            """Append ``text`` to ``path``, or insert it before its line ``at`` (1-based)."""
            if at is None:
                with open(path, "a", encoding="utf-8") as handle:
                    handle.write(text)
            else:
                lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
                path.write_text("".join([*lines[: at - 1], text, *lines[at - 1 :]]), encoding="utf-8")
            time.sleep(2.5)  # past the stamps' "too recent to trust" window: as a later run would
            for name in order:
                samples.setdefault((row, name), []).append(check(versions[name], root, caches[name], reports[name], 1))
            print(f"repetition {repetition + 1}: {row}, reports {same()}", flush=True)
            equivalent(row)

        for repetition in range(args.repeat):
            order = list(versions) if repetition % 2 == 0 else list(reversed(versions))
            edit_and_check(
                "one file changed", edited, f"\n\ndef _edited_{time.time_ns()}():\n    return 1\n", order, repetition
            )
            edit_and_check("one comment added", commented, f"\n# edited {time.time_ns()}\n", order, repetition)
            if suppressed is not None:
                edit_and_check(
                    "comment beside a suppression", suppressed, f"\n# edited {time.time_ns()}\n", order, repetition
                )
            if moved is not None:
                (path, (line, indent)) = moved
                comment = f"{' ' * indent}# edited {time.time_ns()}\n"
                edit_and_check("lines moved in a body", path, comment, order, repetition, at=line)
            if called is not None:
                (path, (line, indent, callee)) = called
                edit_and_check(
                    "a call added in a body", path, f"{' ' * indent}{callee}()\n", order, repetition, at=line
                )
            if assigned is not None:
                (path, (line, indent)) = assigned
                local = f"{' ' * indent}_edited_{time.time_ns()} = 1\n"
                edit_and_check("a local added in a body", path, local, order, repetition, at=line)
            for name in order:
                samples.setdefault(("warm", name), []).append(
                    check(versions[name], root, caches[name], reports[name], 1)
                )
            print(f"repetition {repetition + 1}: warm, reports {same()}", flush=True)
            if called is not None:
                # A watch's rounds, each version in a process of its own: the call added (as above,
                # once more), then taken out again -- that round timed.
                (path, (line, indent, callee)) = called
                watched = {"path": str(path), "at": line, "text": f"{' ' * indent}{callee}()\n"}
                for name in order:
                    samples.setdefault(("a call removed, a watch's round", name), []).append(
                        check(versions[name], root, caches[name], reports[name], 1, watched)
                    )
                print(f"repetition {repetition + 1}: a call removed, a watch's round, reports {same()}", flush=True)
        # A check without the cache, one job, each version: what each row's recheck is a fraction of.
        for name in order:
            samples.setdefault(("cold, no cache", name), []).append(
                check(versions[name], root, scratch / f"cache-cold-{name}", scratch / f"cold-{name}.txt", 1, "cold")
            )
        print("\nCPU seconds, medians (before -> after, ratio of medians):")
        for run in (
            "one file changed",
            "one comment added",
            "comment beside a suppression",
            "lines moved in a body",
            "a call added in a body",
            "a local added in a body",
            "warm",
            "a call removed, a watch's round",
        ):
            if (run, "after") not in samples:
                continue
            print(f"{run}:")
            for stage in STAGES:
                before = statistics.median(s.get(stage, 0.0) for s in samples[(run, "before")])
                after = statistics.median(s.get(stage, 0.0) for s in samples[(run, "after")])
                ratio = f"{after / before:.2f}x" if before else "-"
                print(f"  {stage:22} {before:7.2f} -> {after:7.2f}  {ratio}")
        print("\nEach recheck over a check without the cache (total CPU, medians; measured in this run):")
        cold = {name: statistics.median(s["total"] for s in samples[("cold, no cache", name)]) for name in versions}
        print(f"  {'cold, no cache':34} before {cold['before']:7.2f} s   after {cold['after']:7.2f} s")
        for run in sorted({row for row, _ in samples} - {"cold, no cache"}):
            shares = {
                name: statistics.median(s["total"] for s in samples[(run, name)]) / cold[name] for name in versions
            }
            print(f"  {run:34} before {shares['before']:7.3f}     after {shares['after']:7.3f}")
        if args.equivalence:
            print(f"\nrecheck JSON == cold JSON: {'every row' if not unequal else 'NOT for ' + ', '.join(unequal)}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if unequal else 0


if __name__ == "__main__":
    sys.exit(main())
