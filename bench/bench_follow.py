#!/usr/bin/env python
"""What deep mode (on by default) costs against a check without it, cold and warm, in one run.

The project is either a throwaway one whose ``async def`` calls public entry points of installed
packages (whichever of ``CALLS`` are installed in this interpreter: the more, the better the
picture), or ``--corpus PATH`` (e.g. the labelled corpus, ``/work/corpus``), copied to a
temporary directory (``.py`` files only) so the caches land there and every run sees the same
files. Each repetition runs, the two pairs in a rotated order:

* ``plain cold`` then ``plain warm``: ``--no-follow-imports``, first with no cache at all, then
  with the project's summaries cached;
* ``deep cold`` then ``deep warm``: the default, first with no cache at all (every installed
  module the project's hot code calls into is read and indexed, its twins discovered, all
  cached per distribution and version), then with every cache written.

A pair runs back to back because the project cache is keyed by the knowledge base, which deep
mode extends with discovered twins: the two modes do not share it. Times are medians; ratios
are medians of per-repetition ratios (both sides measured moments apart), deep over plain in
the same cache state. It also prints the installed modules read and the findings each mode
reports. Nothing asserts a time: machines here are shared.

Usage::

    python bench/bench_follow.py [--repeat 5] [--depth 2]
    python bench/bench_follow.py --corpus /work/corpus --repeat 3
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from asynclint import deep as deep_mode, runner
from asynclint.config import DEFAULT_EXCLUDES, Config
from asynclint.model import Result

#: module -> a call written in the project (only installed modules are used).
CALLS = {
    "datasets": "datasets.load_dataset('org/name')",
    "huggingface_hub": "huggingface_hub.hf_hub_download('org/repo', 'file.json')",
    "jsonschema": "jsonschema.validate(payload, schema)",
    "pathspec": "pathspec.PathSpec.from_lines('gitwildmatch', lines).match_tree('.')",
    "click": "click.edit('text')",
    "rich": "rich.print(payload)",
    "libcst": "libcst.parse_module(code)",
    "pyinstrument": "pyinstrument.Profiler().start()",
    "tiktoken": "tiktoken.get_encoding('cl100k_base')",
    "transformers": "transformers.AutoTokenizer.from_pretrained('gpt2')",
}
RUNS = ("plain cold", "plain warm", "deep cold", "deep warm")


def synthetic_project(root: Path) -> str:
    used = [name for name in CALLS if importlib.util.find_spec(name) is not None]
    lines = [f"import {name}" for name in used]
    lines += ["", "", "async def handle(payload, schema, lines, code):"]
    lines += [f"    {CALLS[name]}" for name in used] or ["    pass"]
    (root / "app.py").write_text("\n".join(lines) + "\n")
    return f"a project calling into {', '.join(used) or 'nothing installed'}"


def copied_corpus(source: Path, root: Path) -> str:
    skipped = {pattern for pattern in DEFAULT_EXCLUDES if "*" not in pattern}

    def ignore(directory: str, names: list[str]) -> set[str]:
        return {n for n in names if n in skipped or (not n.endswith(".py") and not (Path(directory) / n).is_dir())}

    shutil.copytree(source, root, ignore=ignore, dirs_exist_ok=True)
    files = sum(1 for _ in root.rglob("*.py"))
    return f"{source} ({files} .py files, copied)"


def timed(config: Config, deep: bool) -> tuple[float, Result, int]:
    """One in-process ``run_check``: seconds, the result, installed modules read."""
    loaded = []
    original = deep_mode._Follower.follow

    def follow(self, summaries, cfg):
        out = original(self, summaries, cfg)
        loaded.append(len(self.library))
        return out

    deep_mode._Follower.follow = follow
    try:
        start = time.perf_counter()
        result = runner.run_check(["."], dataclasses.replace(config, follow_imports=deep))
        return time.perf_counter() - start, result, loaded[0] if loaded else 0
    finally:
        deep_mode._Follower.follow = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--corpus", type=Path, help="check this directory (copied) instead of a throwaway project")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="asynclint-bench-follow-") as tmp:
        root = Path(tmp) / "project"
        root.mkdir()
        what = copied_corpus(args.corpus, root) if args.corpus else synthetic_project(root)
        print(f"python {sys.version.split()[0]}; {what}")
        config = dataclasses.replace(Config(root=root), follow_depth=args.depth)
        os.chdir(root)
        cache = root / runner.CACHE_DIR
        timed(config, True)  # imports and the page cache: not what a first run is about
        times: dict[str, list[float]] = {name: [] for name in RUNS}
        modules, results = 0, {}
        for repetition in range(args.repeat):
            pairs = [("plain cold", "plain warm"), ("deep cold", "deep warm")]
            for cold, warm in pairs[repetition % 2 :] + pairs[: repetition % 2]:
                shutil.rmtree(cache, ignore_errors=True)
                for name in (cold, warm):
                    elapsed, result, read = timed(config, name.startswith("deep"))
                    times[name].append(elapsed)
                    results[name] = result
                    modules = read if name == "deep cold" else modules
        print(f"{'run':<11} {'median s':>9} {'deep / plain':>13}")
        for name in RUNS:
            line = f"{name:<11} {statistics.median(times[name]):>9.3f}"
            if name.startswith("deep"):
                plain = times[name.replace("deep", "plain")]
                ratios = [value / base for value, base in zip(times[name], plain, strict=True)]
                line += f" {statistics.median(ratios):>12.2f}x  (min {min(ratios):.2f}, max {max(ratios):.2f})"
            print(line)
        warm_ratio = [w / c for w, c in zip(times["deep warm"], times["deep cold"], strict=True)]
        print(
            f"deep warm / deep cold: {statistics.median(warm_ratio):.2f}x; "
            f"installed modules read (depth {args.depth}): {modules}"
        )
        for mode in ("plain", "deep"):
            found = results[f"{mode} warm"].findings
            by_severity = Counter(f.severity.label for f in found)
            inside = sum(1 for f in found if f.facts.library)
            print(
                f"findings, {mode}: {len(found)} ({', '.join(f'{k} {v}' for k, v in sorted(by_severity.items()))})"
                + (f", {inside} inside installed packages" if mode == "deep" else "")
            )
        os.chdir(Path(tmp).parent)


if __name__ == "__main__":
    main()
