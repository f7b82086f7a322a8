#!/usr/bin/env python
"""How the whole-project analysis scales: a synthetic several-hundred-file environment project.

Writes a project shaped like a monorepo of verifiers environments into a temporary directory:
``--envs`` environment packages side by side (each with its own top-level ``utils.py``, as real
environment directories have), each with ``--modules`` helper modules calling into each other
two and three calls deep, a base class hierarchy with overrides in other modules, async helpers
awaited from hooks, tasks, tests and a sandbox script, plus one chain of ``--depth`` subclasses
(the shape that made the class hierarchy quadratic). Then, in one run and on the same files:

* ``ast.parse`` and ``libcst.parse_module`` of every file (floors);
* ``asynclint check`` in-process, cold (``-j 1``, no cache) and warm (every summary cached);
* the project graph alone (hot roots, propagation, chains) from summaries already made.

Times are medians over ``--repeat`` runs in a rotated order; ratios are medians of the
per-repetition ratios. Nothing asserts an absolute time: the machines are shared and noisy.

Usage::

    python bench/bench_project.py                     # 40 environments x 8 modules, depth 600, 3 runs
    python bench/bench_project.py --envs 80 --depth 1200 --repeat 5
"""

from __future__ import annotations

import argparse
import ast
import gc
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import libcst

from asynclint.config import Config
from asynclint.engine import project_graph
from asynclint.files import discover
from asynclint.pipeline import check_project
from asynclint.pool import index
from asynclint.runner import read_sources, run_check

ENV = '''"""Environment {e}: multi-turn QA over its own corpus."""

import asyncio
import json

import verifiers as vf
from utils import load_config, tidy

from env_{e}.base import Base{e}
from env_{e}.helpers_0 import step_0


class Env{e}(Base{e}):
    async def setup_state(self, state, **kwargs):
        state["config"] = load_config(state["config_path"])
        await self.prepare(state)
        asyncio.create_task(self.report(state))
        return state

    async def env_response(self, messages, state, **kwargs):
        state["value"] = step_0(messages[-1]["content"])
        return [{{"role": "user", "content": self.render(state)}}], state

    async def prepare(self, state):
        tidy(state["workdir"])

    async def report(self, state):
        with open(state["report_path"], "w") as f:
            json.dump(state["value"], f)


def load_environment(**kwargs):
    config = load_config("config.json")
    return Env{e}(config=config, **kwargs)
'''

BASE = '''"""Shared plumbing of environment {e}."""

import verifiers as vf


class Base{e}(vf.MultiTurnEnv):
    def render(self, state):
        return self.describe(state)

    def describe(self, state):
        raise NotImplementedError


class Verbose{e}(Base{e}):
    def describe(self, state):
        return open(state["log"]).read()
'''

HELPER = '''"""Helpers of environment {e}, module {m}."""

import os
import time

from env_{e}.helpers_{n} import step_{n}


def step_{m}(value):
    if value:
        return step_{n}(value[1:])
    return len(os.listdir("."))


def retry_{m}(value):
    time.sleep(0.01)
    return value


async def fetch_{m}(value):
    return step_{m}(value)
'''

UTILS = '''"""Top-level helpers of environment {e} (every environment has its own ``utils``)."""

import json
import shutil


def load_config(path):
    with open(path) as f:
        return json.load(f)


def tidy(path):
    shutil.rmtree(path, ignore_errors=True)
'''

TEST = '''"""Tests of environment {e}: cold."""

import time

from env_{e}.env import Env{e}


async def test_setup_state():
    time.sleep(0.1)
    await Env{e}().setup_state({{}})
'''

SANDBOX = '''"""Run inside the sandbox: cold."""

import asyncio
import subprocess


async def main():
    subprocess.run(["pytest"])


if __name__ == "__main__":
    asyncio.run(main())
'''


def write_project(root: Path, envs: int, modules: int, depth: int) -> None:
    for e in range(envs):
        directory = root / "environments" / f"env_{e}"
        package = directory / f"env_{e}"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "env.py").write_text(ENV.format(e=e))
        (package / "base.py").write_text(BASE.format(e=e))
        for m in range(modules):
            (package / f"helpers_{m}.py").write_text(HELPER.format(e=e, m=m, n=(m + 1) % modules))
        (directory / "utils.py").write_text(UTILS.format(e=e))
        (directory / "tests").mkdir()
        (directory / "tests" / f"test_env_{e}.py").write_text(TEST.format(e=e))
        (directory / "sandbox").mkdir()
        (directory / "sandbox" / "run.py").write_text(SANDBOX)
    lines = [
        "import time",
        "import verifiers as vf",
        "",
        "",
        "class Level0(vf.MultiTurnEnv):",
        "    async def setup_state(self, state):",
        "        return self.level_0()",
        "",
        "    def level_0(self):",
        "        time.sleep(1)",
    ]
    for i in range(1, depth):
        lines += [
            "",
            "",
            f"class Level{i}(Level{i - 1}):",
            f"    def level_{i}(self):",
            f"        return self.level_{i - 1}()",
        ]
    (root / "hierarchy.py").write_text("\n".join(lines) + "\n")


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    gc.collect()
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=40)
    parser.add_argument("--modules", type=int, default=8)
    parser.add_argument("--depth", type=int, default=600, help="length of the single-inheritance chain")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="asynclint-bench-project-"))
    try:
        write_project(scratch, args.envs, args.modules, args.depth)
        # The project's own graph is what scales here: no installed package is read.
        config = replace(Config(root=scratch), follow_imports=False)
        files = discover([str(scratch)], config)
        sources, _ = read_sources(files, config.root)
        texts = [source.text for source in sources]
        lines = sum(text.count("\n") for text in texts)
        catalogue = config.catalogue()
        summaries = [s for s in index(sources, catalogue, 1)]
        steps: dict[str, Callable[[], object]] = {
            "ast.parse": lambda: [ast.parse(text) for text in texts],
            "libcst.parse_module": lambda: [libcst.parse_module(text) for text in texts],
            "asynclint -j 1 (cold)": lambda: run_check([str(scratch)], config, jobs=1, use_cache=False),
            "asynclint warm": lambda: run_check([str(scratch)], config, jobs=1, use_cache=True),
            "project graph": lambda: project_graph(summaries, config, catalogue),  # the graph `check` builds
            "graph + rules": lambda: check_project(summaries, {s.path: s.text for s in sources}, config, catalogue),
        }
        run_check([str(scratch)], config, jobs=1, use_cache=True)  # writes the cache the warm runs read
        times: dict[str, list[float]] = {name: [] for name in steps}
        names = list(steps)
        findings = 0
        for repetition in range(args.repeat):
            for name in names[repetition % len(names) :] + names[: repetition % len(names)]:
                seconds, value = timed(steps[name])
                times[name].append(seconds)
                if name == "asynclint -j 1 (cold)":
                    findings = len(value.findings)
        print(
            f"synthetic project: {len(files)} files, {lines:,} lines ({args.envs} environments x "
            f"{args.modules} helper modules, a {args.depth}-class inheritance chain); {findings} findings"
        )
        print(f"\n  {'step':<26}{'median s':>10}{'min s':>9}{'lines/s':>12}")
        for name in names:
            middle = statistics.median(times[name])
            print(f"  {name:<26}{middle:>10.3f}{min(times[name]):>9.3f}{lines / middle:>12,.0f}")
        print("\nratios (median of per-repetition ratios)")
        for top, bottom in (
            ("asynclint -j 1 (cold)", "libcst.parse_module"),
            ("asynclint -j 1 (cold)", "ast.parse"),
            ("project graph", "ast.parse"),
            ("graph + rules", "asynclint -j 1 (cold)"),
            ("asynclint warm", "asynclint -j 1 (cold)"),
        ):
            ratio = statistics.median(a / b for a, b in zip(times[top], times[bottom], strict=True))
            print(f"  {top + ' / ' + bottom:<50}{ratio:>7.2f}x")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
