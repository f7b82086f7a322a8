"""Exclusion checks for a new held-out split, before it is labelled (README.md, "Held-out split 6").

A held-out environment must be new to the benchmark: its name is in no other split and not in
PrimeIntellect-ai/verifiers' history (its examples are copied everywhere) nor in willccbb/verifiers'
(the same repository under its old name, whose branches hold environments the other mirror lacks:
livecodebench_port, ...); none of its ``.py`` files is byte-identical to a ``.py`` blob of those
histories, of CodeAgentCN/prime-environments' history or of another split; and no module of 40+
lines is 50% or more similar (difflib, by line) to a file of another split. "Another split" is
every other ``corpus*.toml`` beside this script (main, heldout, heldout2 ...), read from its corpus
directory by this script only: an after-number split is compared without anyone else reading it.
The three histories gave the same findings on every split 1-38 (session 34): the third is for new
splits.

    python bench/accuracy/exclusion_checks.py --split heldout9 \\
        --history /work/.mirror/PrimeIntellect-ai+verifiers/repo \\
        --history /work/.mirror/CodeAgentCN+prime-environments/repo \\
        --history /work/.mirror/willccbb+verifiers/repo

Prints one line per finding and a summary; exit code 1 when anything is found. Stdlib + git only.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIN_LINES = 40
MAX_SIMILARITY = 0.5


def sample_envs(split: str, toml: Path | None = None, corpus: Path | None = None) -> list[tuple[str, Path]]:
    """(environment name, directory on disk) of every environment a split samples."""
    toml = toml or HERE / ("corpus.toml" if split == "main" else f"corpus-{split}.toml")
    corpus = corpus or Path("/work/corpus" if split == "main" else f"/work/corpus-{split}")
    with toml.open("rb") as f:
        sources = tomllib.load(f)["source"]
    out = []
    for src in sources:
        root = corpus / src["repo"].replace("/", "+")
        for env in src["environments"]:
            name = src["repo"].split("/")[1] if env == "." else Path(env).name
            out.append((name, root / src.get("subdirectory", "") / env))
    return out


def py_files(env_dir: Path) -> list[Path]:
    return sorted(p for p in env_dir.rglob("*.py") if p.is_file())


def blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def history(git_dir: str) -> tuple[set[str], set[str]]:
    """Environment names (``environments/<name>/``) and ids of every ``.py`` blob (any directory) over all refs."""

    def git(*args: str) -> str:
        # check=True: a git error used to pass silently as a truncated listing
        return subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True, text=True, check=True).stdout

    # The mirrors are partial snapshots: without --missing, rev-list stopped at the first absent
    # object (and `git log --name-only` at the first absent tree), so everything after it went
    # unchecked, e.g. upstream's verifiers/v1/runtimes/. rev-list names each object by the first
    # path it is seen at; an environment directory is a tree object, so its name is listed too.
    names = set()
    blobs = set()
    for line in git("rev-list", "--all", "--objects", "--missing=allow-any").splitlines():
        sha, _, path = line.partition(" ")
        parts = path.split("/")
        if len(parts) > 1 and parts[0] == "environments":
            names.add(parts[1].removesuffix(".py"))
        if path.endswith(".py"):
            blobs.add(sha)
    return names, blobs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", required=True, help="the new split (corpus-NAME.toml, /work/corpus-NAME)")
    ap.add_argument("--history", action="append", default=[], help="a bare git dir whose history is excluded")
    ap.add_argument("--sample", type=Path, help="candidates' sample file, before it becomes corpus-SPLIT.toml")
    ap.add_argument("--corpus", type=Path, help="where the candidates are materialised (default /work/corpus-SPLIT)")
    args = ap.parse_args()

    new = sample_envs(args.split, args.sample, args.corpus)
    others = [s.stem.removeprefix("corpus-") for s in sorted(HERE.glob("corpus-*.toml"))]
    others = ["main"] + [s for s in others if s != args.split]
    other_envs = [(split, name, d) for split in others for name, d in sample_envs(split)]

    hist_names: set[str] = set()
    hist_blobs: set[str] = set()
    for git_dir in args.history:
        names, blobs = history(git_dir)
        hist_names |= names
        hist_blobs |= blobs
    other_files = [(split, p) for split, _, d in other_envs for p in py_files(d)]
    other_blobs = {blob_id(p.read_bytes()): (split, p) for split, p in other_files}
    other_texts = [(split, p, p.read_text(encoding="utf-8", errors="replace").splitlines()) for split, p in other_files]
    print(
        f"{len(new)} environments against {len(other_envs)} of {len(others)} other splits "
        f"({len(other_files)} .py files) and {len(hist_names)} names / {len(hist_blobs)} .py blobs of history"
    )

    found = 0
    other_names = {name: split for split, name, _ in other_envs}
    for name, env_dir in new:
        if name in hist_names:
            print(f"name {name}: in the history")
            found += 1
        if name in other_names:
            print(f"name {name}: in split {other_names[name]}")
            found += 1
        for path in py_files(env_dir):
            data = path.read_bytes()
            lines = data.decode("utf-8", errors="replace").splitlines()
            trivial = len([line for line in lines if line.strip()]) <= 1
            sha = blob_id(data)
            if not trivial and sha in hist_blobs:
                print(f"blob {path}: identical to a blob of the history")
                found += 1
            if not trivial and sha in other_blobs:
                print(f"blob {path}: identical to {other_blobs[sha][1]} (split {other_blobs[sha][0]})")
                found += 1
            if len(lines) < MIN_LINES:
                continue
            best = (0.0, "")
            for split, other, other_lines in other_texts:
                matcher = difflib.SequenceMatcher(None, lines, other_lines, autojunk=False)
                if matcher.real_quick_ratio() < MAX_SIMILARITY or matcher.quick_ratio() < MAX_SIMILARITY:
                    continue
                ratio = matcher.ratio()
                if ratio > best[0]:
                    best = (ratio, f"{other} (split {split})")
            if best[0] >= MAX_SIMILARITY:
                print(f"similar {path}: {best[0]:.0%} like {best[1]}")
                found += 1
    print(f"{found} findings")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
