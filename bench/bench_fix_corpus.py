#!/usr/bin/env python
"""What ``asynclint fix`` does to code nobody here wrote: the labelled corpora, fixed and checked.

Every environment of each split (the environments ``accuracy/bench_accuracy.py`` grades, laid out
the same way) is copied to a temporary directory and fixed there with
``asynclint fix --unsafe-fixes --severity low`` (in process, through ``runner.run_fix``, deep mode
as the command runs it). Then, per environment:

- fixed / left: the findings a fix was applied for, and the ones left, counted by the decline
  reason with its names masked (`x`, 'x', numbers), so one reason over many calls counts once;
- parse: every rewritten file must ``ast.parse``;
- re-lint: ``check`` of the fixed copy at severity low; a fixed finding must be gone, and no
  finding may appear that was not there before (by the orchestrator's ``finding_key``:
  file, rule, function, callee, counted -- lines move under fixes), whatever its severity;
- idempotent: a second ``fix`` of the fixed copy must change nothing;
- labels: a fixed finding's line against the split's labels -- an offender (low or worse), a
  line labelled ``none`` (a change the maintainer did not need), or unlabelled.

Defects (an output that does not parse, a finding left that a fix claimed, a new finding, a
second fix that changes something) are listed one by one. Nothing is asserted: this is a
measurement. ``--json FILE`` keeps every number and every defect.

The after-number splits (``AFTER_NUMBER``) are never run: their code is not for tuning.

Usage::

    python bench/bench_fix_corpus.py                        # every tuning split
    python bench/bench_fix_corpus.py --split main --split heldout7 --show-left --json out.json
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "accuracy"))

import bench_accuracy  # noqa: E402  (the splits, their samples and labels: one loader for both benches)

AFTER_NUMBER = bench_accuracy.AFTER_NUMBER

_MASKS = (
    (re.compile(r"`[^`]*`"), "`x`"),
    (re.compile(r"'[^']*'"), "'x'"),
    (re.compile(r"\b\d+\b"), "N"),
    (re.compile(r"\([\w./-]+\.py\)"), "(f.py)"),
)


def masked(reason: str) -> str:
    """A decline reason with the names it quotes masked: the same reason over many calls is one."""
    for pattern, mask in _MASKS:
        reason = pattern.sub(mask, reason)
    return reason


@dataclass
class EnvResult:
    split: str
    env: str  # repo-relative directory
    findings: int = 0  # at severity low and above, before any fix
    fixed: int = 0
    resolved: int = 0  # gone without a fix of their own (another fix changed their route)
    left: int = 0
    files_changed: int = 0
    seconds: float = 0.0
    reasons: Counter = field(default_factory=Counter)  # masked reason -> findings left
    offender_reasons: Counter = field(default_factory=Counter)  # the same, on lines labelled low or worse
    fixed_labels: Counter = field(default_factory=Counter)  # offender / none / unlabelled
    recipes: Counter = field(default_factory=Counter)
    defects: list[str] = field(default_factory=list)
    left_lines: list[str] = field(default_factory=list)  # offender lines left, with their reason


def keys(findings) -> Counter:
    from asynclint.fixers.orchestrator import finding_key

    return Counter(finding_key(f) for f in findings)


def label_of(labels: dict, repo: str, rel: str, line: int) -> str:
    label = labels.get((repo, rel, line))
    if label is None:
        return "unlabelled"
    return "none" if label.label == "none" else "offender"


def fix_environment(split: str, repo: str, root: Path, env_dir: Path, labels: dict, scratch: Path) -> EnvResult:
    from dataclasses import replace

    from asynclint.config import Config
    from asynclint.fixrun import run_fix
    from asynclint.model import Severity
    from asynclint.runner import run_check

    rel_env = env_dir.relative_to(root).as_posix()
    result = EnvResult(split, f"{repo}/{rel_env}")
    copy = scratch / env_dir.name
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(env_dir, copy, symlinks=True)
    config = replace(Config(root=copy), min_severity=Severity.LOW)
    start = time.perf_counter()
    try:
        run = run_fix([str(copy)], config, unsafe=True)
    except Exception as exc:  # a crash of the fixer on real code is the first defect to know of
        result.defects.append(f"fix raised {type(exc).__name__}: {exc}")
        result.seconds = time.perf_counter() - start
        return result
    outcome = run.outcome

    def rel(path: str) -> str:
        p = Path(path)
        return (Path(rel_env) / (p.relative_to(copy) if p.is_absolute() else p)).as_posix()

    result.findings = len(outcome.checked)
    result.fixed = len(outcome.applied)
    result.resolved = len(outcome.resolved)
    result.left = len(outcome.left)
    result.files_changed = len(outcome.changed)
    checked_left = outcome.as_checked([item.finding for item in outcome.left])
    for item, original in zip(outcome.left, checked_left, strict=True):
        reason = masked(item.reason)
        result.reasons[reason] += 1
        if label_of(labels, repo, rel(original.path), original.line) == "offender":
            result.offender_reasons[reason] += 1
            result.left_lines.append(f"{rel(original.path)}:{original.line} {original.code}: {item.reason}")
    for applied in outcome.applied:
        result.recipes[applied.recipe] += 1
        result.fixed_labels[label_of(labels, repo, rel(applied.finding.path), applied.finding.line)] += 1
    for path in outcome.changed:
        try:
            ast.parse(outcome.texts[path])
        except SyntaxError as exc:
            result.defects.append(f"{rel(path)}: the fixed file does not parse ({exc.msg}, line {exc.lineno})")
    if outcome.changed:
        after = run_check([str(copy)], config, jobs=1, use_cache=False)
        before_keys, after_keys = keys(outcome.checked), keys(after.findings)
        fixed_keys = Counter(
            key for key in keys(a.finding for a in outcome.applied) if before_keys[key] <= after_keys[key]
        )
        for key in fixed_keys:
            result.defects.append(f"{rel(key[0])} {key[1]} {key[2]} {key[3]}: a fixed finding is still reported")
        for key, count in (after_keys - before_keys).items():
            finding = next(f for f in after.findings if keys([f]) == Counter([key]))
            result.defects.append(
                f"{rel(key[0])}:{finding.line} {key[1]} {finding.severity.name.lower()} {key[3]}: new finding"
                f" (x{count}) in {key[2]}"
            )
        again = run_fix([str(copy)], config, unsafe=True, write=False)
        for path in again.outcome.changed:
            recipes = sorted({a.recipe for a in again.outcome.applied if path in a.paths})
            result.defects.append(f"{rel(path)}: a second fix changes it again ({', '.join(recipes) or '?'})")
    result.seconds = time.perf_counter() - start
    return result


def run_split(split: str, show: bool, skip: tuple[str, ...] = ()) -> list[EnvResult]:
    sample, labels_file, corpus = bench_accuracy.SPLITS[split]
    sources = bench_accuracy.load_corpus(sample)
    labels = bench_accuracy.load_labels(labels_file)
    envs = bench_accuracy.environment_dirs(Path(corpus), sources, sample.name)
    out = []
    with tempfile.TemporaryDirectory(prefix="fixcorpus-") as scratch:
        for repo, root, env_dir in envs:
            if any(part in env_dir.as_posix() for part in skip):
                print(f"  skipped: {repo} {env_dir.relative_to(root)}", flush=True)
                continue
            result = fix_environment(split, repo, root, env_dir, labels, Path(scratch))
            out.append(result)
            if show and (result.findings or result.defects):
                print(
                    f"  {result.env}: {result.findings} findings, {result.fixed} fixed, {result.left} left,"
                    f" {len(result.defects)} defects ({result.seconds:.1f} s)",
                    flush=True,
                )
    return out


COLUMNS = ("findings", "fixed", "resolved", "left", "files", "fixed offender", "fixed none", "fixed unlab.")
DEFECT_KINDS = ("does not parse", "still reported", "new finding", "second fix", "fix raised")


def row(name: str, results: list[EnvResult]) -> str:
    kinds = Counter(kind for r in results for d in r.defects for kind in DEFECT_KINDS if kind in d)
    values = (
        sum(r.findings for r in results),
        sum(r.fixed for r in results),
        sum(r.resolved for r in results),
        sum(r.left for r in results),
        sum(r.files_changed for r in results),
        sum(r.fixed_labels["offender"] for r in results),
        sum(r.fixed_labels["none"] for r in results),
        sum(r.fixed_labels["unlabelled"] for r in results),
    )
    cells = " | ".join(str(v) for v in values)
    return f"| {name} | {len(results)} | {cells} | " + " | ".join(str(kinds[k]) for k in DEFECT_KINDS) + " |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    tuning = [name for name in bench_accuracy.SPLITS if name not in AFTER_NUMBER]
    ap.add_argument("--split", action="append", choices=tuning, help="a split to run (repeatable; default: all)")
    ap.add_argument("--show-left", action="store_true", help="list the offender lines left, with their reasons")
    ap.add_argument("--progress", action="store_true", help="a line per environment with findings")
    ap.add_argument(
        "--skip", action="append", default=[], metavar="TEXT", help="leave out environments whose path contains TEXT"
    )
    ap.add_argument("--json", metavar="FILE", help="save every number and defect as JSON")
    args = ap.parse_args(argv)
    chosen = args.split or tuning
    results: dict[str, list[EnvResult]] = {}
    start = time.perf_counter()
    for split in chosen:
        results[split] = run_split(split, args.progress, tuple(args.skip))
        if args.json:  # kept after each split: a long run interrupted still leaves its numbers
            write_json(Path(args.json), results)
    every = [r for rs in results.values() for r in rs]
    header = "| split | envs | " + " | ".join(COLUMNS) + " | " + " | ".join(DEFECT_KINDS) + " |"
    print(
        f"asynclint fix --unsafe-fixes --severity low over {len(every)} environments in "
        f"{time.perf_counter() - start:.0f} s"
    )
    print(header)
    print("|" + "---|" * (2 + len(COLUMNS) + len(DEFECT_KINDS)))
    for split, rs in results.items():
        print(row(split, rs))
    print(row("total", every))
    print("\nDefects:")
    for r in every:
        for defect in r.defects:
            print(f"  [{r.split}] {r.env}: {defect}")
    for title, attr in (("Left, by reason", "reasons"), ("Left on offender lines, by reason", "offender_reasons")):
        counts: Counter = sum((getattr(r, attr) for r in every), Counter())
        print(f"\n{title} ({sum(counts.values())}):")
        for reason, n in counts.most_common():
            print(f"  {n:4d}  {reason}")
    recipes: Counter = sum((r.recipes for r in every), Counter())
    print("\nFixes by recipe: " + ", ".join(f"{name} {n}" for name, n in recipes.most_common()))
    if args.show_left:
        print("\nOffender lines left:")
        for r in every:
            for line in r.left_lines:
                print(f"  [{r.split}] {r.env.split('/')[0]}/{r.env.split('/')[1]} {line}")
    return 0


def write_json(path: Path, results: dict[str, list[EnvResult]]) -> None:
    data = {
        split: [
            {
                "env": r.env,
                "findings": r.findings,
                "fixed": r.fixed,
                "resolved": r.resolved,
                "left": r.left,
                "files_changed": r.files_changed,
                "seconds": round(r.seconds, 2),
                "reasons": dict(r.reasons),
                "offender_reasons": dict(r.offender_reasons),
                "fixed_labels": dict(r.fixed_labels),
                "recipes": dict(r.recipes),
                "defects": r.defects,
                "left_lines": r.left_lines,
            }
            for r in rs
        ]
        for split, rs in results.items()
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
