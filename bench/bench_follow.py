#!/usr/bin/env python
"""What deep mode (``--follow-imports``) costs, side by side with a plain check, in one run.

A throwaway project calls public entry points of installed packages from an ``async def``
(whichever of ``CALLS`` are installed in this interpreter: the more, the better the picture).
Each repetition runs, in a rotated order:

* ``plain``: ``run_check`` without deep mode (project cache warm: the baseline);
* ``deep cold``: deep mode with the library cache cleared (every installed module read,
  indexed and cached per distribution and version);
* ``deep warm``: deep mode again (library summaries from the cache);

and prints medians, the median per-repetition ratios against ``deep cold``, the installed
modules read, and the findings deep mode adds. Nothing asserts a time: machines here are shared.

Usage::

    python bench/bench_follow.py [--repeat 5] [--depth 2]
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from asynclint import runner
from asynclint.config import Config

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


def project(root: Path) -> list[str]:
    used = [name for name in CALLS if importlib.util.find_spec(name) is not None]
    lines = [f"import {name}" for name in used]
    lines += ["", "", "async def handle(payload, schema, lines, code):"]
    lines += [f"    {CALLS[name]}" for name in used] or ["    pass"]
    (root / "app.py").write_text("\n".join(lines) + "\n")
    return used


def timed(config: Config, deep: bool) -> tuple[float, runner.Result, int]:
    loaded = []
    original = runner._Follower.follow

    def follow(self, summaries, cfg):
        out = original(self, summaries, cfg)
        loaded.append(len(self.library))
        return out

    runner._Follower.follow = follow
    try:
        start = time.perf_counter()
        result = runner.run_check(["."], dataclasses.replace(config, follow_imports=deep))
        return time.perf_counter() - start, result, loaded[0] if loaded else 0
    finally:
        runner._Follower.follow = original


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--depth", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        used = project(root)
        print(f"python {sys.version.split()[0]}; project calls into: {', '.join(used) or 'nothing installed'}")
        config = dataclasses.replace(Config(root=root), follow_depth=args.depth)
        import os

        os.chdir(root)
        library_cache = root / runner.CACHE_DIR / "libraries"
        timed(config, False)  # warm the project cache and imports
        times: dict[str, list[float]] = {"plain": [], "deep cold": [], "deep warm": []}
        modules, findings = 0, (0, 0)
        for repetition in range(args.repeat):
            order = ["plain", "deep cold", "deep warm"]
            order = order[repetition % 3:] + order[: repetition % 3]
            if order.index("deep warm") < order.index("deep cold"):
                order.remove("deep warm")
                order.insert(order.index("deep cold") + 1, "deep warm")
            for name in order:
                if name == "deep cold":
                    shutil.rmtree(library_cache, ignore_errors=True)
                elapsed, result, read = timed(config, name != "plain")
                times[name].append(elapsed)
                if name == "deep cold":
                    modules = read
                findings = (len(result.findings), findings[1]) if name == "plain" else (findings[0], len(result.findings))
        print(f"{'run':<10} {'median s':>9} {'x deep cold':>12}")
        for name, values in times.items():
            ratios = [value / cold for value, cold in zip(values, times["deep cold"], strict=True)]
            print(f"{name:<10} {statistics.median(values):>9.3f} {statistics.median(ratios):>12.2f}")
        cold = statistics.median(times["deep cold"])
        print(f"installed modules read in deep mode (depth {args.depth}): {modules}"
              f" ({1000 * cold / max(modules, 1):.1f} ms each, cold)")
        print(f"findings: plain {findings[0]}, deep {findings[1]}")


if __name__ == "__main__":
    main()
