#!/usr/bin/env python
"""Accuracy of ``asynclint check`` against hand labels of real verifiers environments.

The labels (``labels.jsonl``, one call site per line) were made by reading the code of the
sampled environments listed in ``corpus.toml``: each says what the call really costs where it
runs and how often (critical / high / medium / low / none). This script runs asynclint
in-process (no cache) over every sampled environment directory, matches findings to labels
by (repo, path, line), and prints:

* per reported grade: findings, how many are labelled, precision (label == grade) and
  "at least" precision (label >= grade), and the unlabelled findings so they can be labelled;
* per true severity: recall (labelled offenders reported at all) and recall at the right grade;
* the noise line: findings whose label is ``none``.

One label per line: several findings on one line count as one finding at the highest grade
reported there (a line holding two calls is labelled by its costliest call).

Usage::

    python bench/accuracy/bench_accuracy.py                       # corpus at /work/corpus
    python bench/accuracy/bench_accuracy.py --corpus DIR --json numbers.json
    python bench/accuracy/bench_accuracy.py --show-misses --show-wrong --by-env
    python bench/accuracy/bench_accuracy.py --split heldout       # a held-out split alone (heldout, heldout2)

The corpus layout is ``DIR/<owner>+<name>/<subdirectory>/<environment>/...`` (see corpus.toml
for how to materialise it). An environment with a ``first_party`` entry in its source is checked
together with those repository paths, from the repository root (README.md, "Materialising").
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
import time
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


def splits(here: Path = HERE) -> dict[str, tuple[Path, Path, str]]:
    """Each split by name: its sample, its labels and where its corpus is checked out by default.

    ``main`` is ``corpus.toml`` + ``labels.jsonl`` at /work/corpus; every other split NAME is a
    ``corpus-NAME.toml`` beside this script, with ``NAME.jsonl`` and /work/corpus-NAME. Held-out
    splits are environments nobody tuned on (README.md); each is reported alone.
    """
    found = {"main": (here / "corpus.toml", here / "labels.jsonl", "/work/corpus")}
    for sample in sorted(here.glob("corpus-*.toml")):
        name = sample.stem.removeprefix("corpus-")
        found[name] = (sample, here / f"{name}.jsonl", f"/work/corpus-{name}")
    return found


SPLITS = splits()
#: The held-out splits drawn as this session's after-number: never tuned on, read or fixed (a split
#: joins the tuning sets once the session that drew it has run it: take it out of here then).
AFTER_NUMBER: frozenset[str] = frozenset({"heldout43", "heldout44"})  # drawn in session 37
GRADES = ("critical", "high", "medium", "low")
RANK = {"none": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}


class BenchError(Exception):
    """A one-line error for the user."""


@dataclass(frozen=True)
class Label:
    repo: str
    path: str
    line: int
    callee: str
    label: str
    where: str
    reason: str


@dataclass
class Reported:
    repo: str
    path: str
    line: int
    grade: str
    codes: list[str]
    message: str


def load_corpus(path: Path) -> list[dict]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    return data["source"]


def load_labels(path: Path) -> dict[tuple[str, str, int], Label]:
    labels: dict[tuple[str, str, int], Label] = {}
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        row = json.loads(raw)
        if row["label"] not in RANK:
            raise BenchError(f"{path.name}:{n}: unknown label {row['label']!r}")
        key = (row["repo"], row["path"], int(row["line"]))
        if key in labels:
            raise BenchError(f"{path.name}:{n}: second label for {key[0]} {key[1]}:{key[2]}")
        labels[key] = Label(
            row["repo"],
            row["path"],
            int(row["line"]),
            row.get("callee", ""),
            row["label"],
            row.get("where", ""),
            row.get("reason", ""),
        )
    return labels


def corpus_dir_name(repo: str) -> str:
    return repo.replace("/", "+")


def environment_dirs(corpus: Path, sources: list[dict], sample: str = "corpus.toml") -> list[tuple[str, Path, Path]]:
    """(repo, repo root on disk, environment dir) for every sampled environment."""
    if not corpus.is_dir():
        raise BenchError(f"corpus directory not found: {corpus} (see bench/accuracy/{sample})")
    out = []
    for src in sources:
        repo = src["repo"]
        root = corpus / corpus_dir_name(repo)
        if not root.is_dir():
            raise BenchError(f"corpus is missing {root} for {repo} (see bench/accuracy/{sample})")
        for env in src["environments"]:
            env_dir = root / src.get("subdirectory", "") / env
            if not env_dir.is_dir():
                raise BenchError(f"corpus is missing environment {env_dir}")
            out.append((repo, root, env_dir))
    return out


def first_party_paths(corpus: Path, sources: list[dict]) -> dict[Path, list[Path]]:
    """Per environment dir, the repository's own modules laid out beside it (a source's ``first_party``
    table: environment -> paths from the repository root) that are checked with it, as a run at the
    repository root would: there they are the project's and their calls are followed. An environment
    of an unnamed source (``.``) holds its first-party files already."""
    out: dict[Path, list[Path]] = {}
    for src in sources:
        root = corpus / corpus_dir_name(src["repo"])
        for env, paths in src.get("first_party", {}).items():
            env_dir = root / src.get("subdirectory", "") / env
            missing = [path for path in paths if not (root / path).exists()]
            if missing:
                raise BenchError(f"corpus is missing first-party {root / missing[0]} of {env_dir}")
            out[env_dir] = [root / path for path in paths]
    return out


def installed_packages() -> dict[str, str]:
    """Every distribution this interpreter has, by name: what deep mode follows, so what its numbers
    rest on (a library's call followed or not, a finding inside it or not)."""
    found = {dist.metadata["Name"]: dist.version for dist in importlib.metadata.distributions()}
    return dict(sorted(found.items(), key=lambda item: item[0].lower()))


def run_asynclint(
    envs: list[tuple[str, Path, Path]], follow: bool, first_party: dict[Path, list[Path]] | None = None
) -> tuple[list[Reported], int, str]:
    """Check each environment (with its first-party modules, from the repository root, when it has some)."""
    try:
        from dataclasses import replace

        from asynclint import __version__
        from asynclint.config import Config
        from asynclint.runner import run_check
    except Exception as exc:  # an import error of a half-edited checkout is still one line
        raise BenchError(f"cannot import asynclint: {type(exc).__name__}: {exc}") from None
    findings: dict[tuple[str, str, int], Reported] = {}
    files = 0
    for repo, root, env_dir in envs:
        own = (first_party or {}).get(env_dir, [])
        config = replace(Config(root=root if own else env_dir), follow_imports=follow)
        result = run_check([str(path) for path in (env_dir, *own)], config, jobs=1, use_cache=False)
        files += result.files_checked
        for f in result.findings:
            p = Path(f.path)
            if not p.is_absolute():
                p = config.root / p
            rel = p.resolve().relative_to(root.resolve()).as_posix()
            grade = f.severity.name.lower()
            key = (repo, rel, f.line)
            prev = findings.get(key)
            if prev is None:
                findings[key] = Reported(repo, rel, f.line, grade, [f.code], f.message)
            else:
                prev.codes.append(f.code)
                if RANK[grade] > RANK[prev.grade]:
                    prev.grade, prev.message = grade, f.message
    return list(findings.values()), files, __version__


def pct(num: int, den: int) -> str:
    return f"{100 * num / den:5.1f}%" if den else "    -"


def evaluate(reported: list[Reported], labels: dict[tuple[str, str, int], Label]) -> dict:
    by_key = {(r.repo, r.path, r.line): r for r in reported}
    per_grade = {}
    for g in GRADES:
        rows = [r for r in reported if r.grade == g]
        labelled = [(r, labels[(r.repo, r.path, r.line)]) for r in rows if (r.repo, r.path, r.line) in labels]
        exact = sum(1 for r, lab in labelled if lab.label == g)
        at_least = sum(1 for r, lab in labelled if RANK[lab.label] >= RANK[g])
        per_grade[g] = {
            "reported": len(rows),
            "labelled": len(labelled),
            "exact": exact,
            "at_least": at_least,
            "precision": exact / len(labelled) if labelled else None,
            "precision_at_least": at_least / len(labelled) if labelled else None,
            "label_mix": dict(Counter(lab.label for _, lab in labelled)),
        }
    per_true = {}
    for g in GRADES:
        offenders = [lab for lab in labels.values() if lab.label == g]
        hit = [lab for lab in offenders if (lab.repo, lab.path, lab.line) in by_key]
        right = [lab for lab in hit if by_key[(lab.repo, lab.path, lab.line)].grade == g]
        per_true[g] = {
            "labelled": len(offenders),
            "reported": len(hit),
            "right_grade": len(right),
            "recall": len(hit) / len(offenders) if offenders else None,
            "recall_right_grade": len(right) / len(offenders) if offenders else None,
            "reported_as": dict(Counter(by_key[(lab.repo, lab.path, lab.line)].grade for lab in hit)),
        }
    labelled_findings = [r for r in reported if (r.repo, r.path, r.line) in labels]
    noise = [r for r in labelled_findings if labels[(r.repo, r.path, r.line)].label == "none"]
    offenders = [lab for lab in labels.values() if lab.label != "none"]
    hit_any = [lab for lab in offenders if (lab.repo, lab.path, lab.line) in by_key]
    return {
        "per_reported_grade": per_grade,
        "per_true_severity": per_true,
        "findings": len(reported),
        "findings_labelled": len(labelled_findings),
        "noise": len(noise),
        "noise_share": len(noise) / len(labelled_findings) if labelled_findings else None,
        "offenders": len(offenders),
        "offenders_reported": len(hit_any),
        "labels": dict(Counter(lab.label for lab in labels.values())),
    }


def print_table(m: dict, reported: list[Reported], labels: dict, out=sys.stdout) -> None:
    w = out.write
    w("\nBy reported grade (a finding = one reported line; precision over the labelled ones)\n")
    w(f"  {'grade':9} {'reported':>8} {'labelled':>8} {'precision':>10} {'>= grade':>9}   labels of these findings\n")
    for g in GRADES:
        s = m["per_reported_grade"][g]
        mix = " ".join(f"{k}:{v}" for k, v in sorted(s["label_mix"].items(), key=lambda kv: -RANK[kv[0]]))
        w(
            f"  {g:9} {s['reported']:8d} {s['labelled']:8d} {pct(s['exact'], s['labelled']):>10} "
            f"{pct(s['at_least'], s['labelled']):>9}   {mix}\n"
        )
    w("\nBy true severity (recall over labelled offenders)\n")
    w(f"  {'label':9} {'labelled':>8} {'reported':>8} {'recall':>8} {'right grade':>12}   reported as\n")
    for g in GRADES:
        s = m["per_true_severity"][g]
        mix = " ".join(f"{k}:{v}" for k, v in sorted(s["reported_as"].items(), key=lambda kv: -RANK[kv[0]]))
        w(
            f"  {g:9} {s['labelled']:8d} {s['reported']:8d} {pct(s['reported'], s['labelled']):>8} "
            f"{pct(s['right_grade'], s['labelled']):>12}   {mix}\n"
        )
    w(
        f"\nNoise: {m['noise']} of {m['findings_labelled']} labelled findings are labelled `none` "
        f"({pct(m['noise'], m['findings_labelled']).strip()}); "
        f"offenders reported at all: {m['offenders_reported']} of {m['offenders']} "
        f"({pct(m['offenders_reported'], m['offenders']).strip()})\n"
    )
    unlabelled = [r for r in reported if (r.repo, r.path, r.line) not in labels]
    if unlabelled:
        w(f"\nUnlabelled findings ({len(unlabelled)}): label them in the split's labels file\n")
        for r in sorted(unlabelled, key=lambda r: (r.repo, r.path, r.line)):
            w(f"  {r.repo} {r.path}:{r.line} [{r.grade}] {','.join(sorted(set(r.codes)))} {r.message[:110]}\n")


def show_misses(reported: list[Reported], labels: dict, out=sys.stdout) -> None:
    by_key = {(r.repo, r.path, r.line) for r in reported}
    rows = [lab for lab in labels.values() if lab.label != "none" and (lab.repo, lab.path, lab.line) not in by_key]
    out.write(f"\nMisses: labelled offenders not reported ({len(rows)})\n")
    for lab in sorted(rows, key=lambda row: (-RANK[row.label], row.repo, row.path, row.line)):
        out.write(f"  [{lab.label}] {lab.path}:{lab.line} {lab.callee} — {lab.where}\n")


def show_wrong(reported: list[Reported], labels: dict, out=sys.stdout) -> None:
    rows = []
    for r in reported:
        lab = labels.get((r.repo, r.path, r.line))
        if lab is not None and lab.label != r.grade:
            rows.append((r, lab))
    out.write(f"\nWrong grade: reported grade differs from the label ({len(rows)})\n")
    for r, lab in sorted(rows, key=lambda x: (RANK[x[1].label] - RANK[x[0].grade], x[0].path, x[0].line)):
        out.write(f"  reported {r.grade:8} label {lab.label:8} {r.path}:{r.line} {lab.callee} — {lab.reason}\n")


def show_by_env(reported: list[Reported], labels: dict, out=sys.stdout) -> None:
    """Per environment: labelled offenders, how many reported, findings, noise."""

    def env_of(repo: str, path: str) -> str:
        parts = path.split("/")
        return f"{repo.split('/')[0]}:{parts[1] if len(parts) > 1 else parts[0]}"

    by_key = {(r.repo, r.path, r.line): r for r in reported}
    rows: dict[str, Counter] = defaultdict(Counter)
    for lab in labels.values():
        c = rows[env_of(lab.repo, lab.path)]
        if lab.label != "none":
            c["offenders"] += 1
            c["hit"] += (lab.repo, lab.path, lab.line) in by_key
    for r in reported:
        c = rows[env_of(r.repo, r.path)]
        c["findings"] += 1
        lab = labels.get((r.repo, r.path, r.line))
        c["noise"] += lab is not None and lab.label == "none"
    out.write(f"\nBy environment\n  {'environment':45} {'offenders':>9} {'reported':>8} {'findings':>8} {'noise':>6}\n")
    for env, c in sorted(rows.items(), key=lambda kv: (-kv[1]["offenders"], kv[0])):
        out.write(f"  {env:45} {c['offenders']:9d} {c['hit']:8d} {c['findings']:8d} {c['noise']:6d}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--split",
        choices=sorted(SPLITS),
        default="main",
        help="main: corpus.toml + labels.jsonl; NAME: corpus-NAME.toml + NAME.jsonl, a held-out "
        "split (sets the defaults of --sample, --labels, --corpus)",
    )
    ap.add_argument(
        "--corpus",
        help="corpus root, layout <owner+name>/... (default: /work/corpus, /work/corpus-NAME with --split NAME)",
    )
    ap.add_argument("--labels", help="labels file (default: the split's)")
    ap.add_argument("--sample", help="corpus.toml listing sources and environments (default: the split's)")
    ap.add_argument("--json", metavar="FILE", help="save the numbers as JSON")
    ap.add_argument("--show-misses", action="store_true", help="list labelled offenders asynclint did not report")
    ap.add_argument("--show-wrong", action="store_true", help="list findings whose grade differs from the label")
    ap.add_argument("--by-env", action="store_true", help="per environment: offenders, reported, findings, noise")
    ap.add_argument(
        "--follow-imports",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="deep mode, as `asynclint check` runs by default: what it adds depends on the libraries "
        "installed in this interpreter (--no-follow-imports: the environments' own code only)",
    )
    args = ap.parse_args(argv)
    sample, labels_file, corpus = SPLITS[args.split]
    args.sample = args.sample or str(sample)
    args.labels = args.labels or str(labels_file)
    args.corpus = args.corpus or corpus
    try:
        sources = load_corpus(Path(args.sample))
        labels = load_labels(Path(args.labels))
        envs = environment_dirs(Path(args.corpus), sources, Path(args.sample).name)
        start = time.perf_counter()
        own = first_party_paths(Path(args.corpus), sources)
        reported, files, version = run_asynclint(envs, args.follow_imports, own)
        elapsed = time.perf_counter() - start
    except BenchError as exc:
        print(f"bench_accuracy: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError, tomllib.TOMLDecodeError) as exc:
        print(f"bench_accuracy: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    m = evaluate(reported, labels)
    mode = "deep mode" if args.follow_imports else "no deep mode"
    label_counts = dict(sorted(m["labels"].items(), key=lambda kv: -RANK[kv[0]]))
    print(
        f"asynclint {version} ({args.split} split): {len(envs)} environments, {files} files, "
        f"{len(reported)} finding lines in {elapsed:.1f} s ({mode}); {len(labels)} labels {label_counts}"
    )
    print_table(m, reported, labels)
    if args.show_misses:
        show_misses(reported, labels)
    if args.show_wrong:
        show_wrong(reported, labels)
    if args.by_env:
        show_by_env(reported, labels)
    if args.json:
        m["asynclint_version"] = version
        m["split"] = args.split
        m["environments"] = len(envs)
        m["files"] = files
        if args.follow_imports:
            m["packages"] = installed_packages()
        Path(args.json).write_text(json.dumps(m, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
