"""Deep mode in the environment's own venv: what a user running `asynclint check env/` there sees.

For each (environment, requirements) of the list: a venv of its own (built once, kept under
--venv-root), the requirements installed in it and asynclint from this checkout installed
editable; then, side by side in one run and in a rotated order, three checks of the environment,
each cold (a fresh cache directory) and warm (the same directory again):

- own-deep:  the environment's venv, default (deep mode follows the installed libraries);
- own-plain: the environment's venv, `--no-follow-imports`;
- dev-deep:  this interpreter (the development venv), default.

It prints the wall times and their ratios (over own-plain in the same cache state), the findings
per severity, and every finding line one check has and another lacks, with what the finding
rests on (catalogue, twin, deep: the library and the call it entered). Reads the environment's
files, writes only under --venv-root and a temporary directory.

    python bench/bench_env_venv.py                      # the list in bench/env_venvs.toml
    python bench/bench_env_venv.py --only web_voyager --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHECKS = ("own-deep", "own-plain", "dev-deep")


@dataclass(frozen=True)
class Env:
    name: str
    path: Path
    requirements: tuple[str, ...]
    no_deps: tuple[str, ...]  # installed with --no-deps: their full install is impossible here


def read_envs(listing: Path) -> list[Env]:
    data = tomllib.loads(listing.read_text())
    return [
        Env(
            e["name"],
            Path(e["path"]),
            tuple(e.get("requirements", ())),
            tuple(e.get("no_deps", ())),
        )
        for e in data["env"]
    ]


def build_venv(env: Env, root: Path) -> Path:
    """The environment's venv, built once: its python."""
    venv = root / env.name
    python = venv / "bin" / "python"
    if (venv / ".asynclint-bench-ready").exists():
        return python
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(python), "-m", "pip", "install", "-q"]
    if env.requirements:
        subprocess.run([*pip, *env.requirements], check=True)
    if env.no_deps:
        subprocess.run([*pip, "--no-deps", *env.no_deps], check=True)
    subprocess.run([*pip, "-e", str(REPO)], check=True)
    (venv / ".asynclint-bench-ready").write_text("")
    return python


def run_check(python: str, path: Path, cache: Path, deep: bool, dev: bool) -> tuple[float, list[dict]]:
    command = [python, "-m", "asynclint", "check", str(path), "--format", "json", "--severity", "low"]
    command += ["--cache-dir", str(cache), "-j", "1"]
    if not deep:
        command.append("--no-follow-imports")
    environ = None
    if dev:
        # the development venv's editable install may point at another checkout: run this one
        environ = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=environ)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return elapsed, json.loads(done.stdout)["findings"]


def key(finding: dict) -> tuple[str, int, str, str]:
    return finding["path"], finding["line"], finding["code"], finding["facts"]["callee"]


def describe(finding: dict) -> str:
    facts = finding["facts"]
    rests = facts["knowledge"]
    if facts["library"]:
        rests += f", inside {facts['library']} via {facts['entered']}"
    twin = f"; twin: {facts['twin']}" if facts["twin"] else ""
    return f"{finding['severity']:8} `{facts['callee']}` ({rests}){twin}"


def compare(left: list[dict], right: list[dict], label: str) -> None:
    mine = {key(f): f for f in left}
    theirs = {key(f): f for f in right}
    only = sorted(set(mine) - set(theirs))
    moved = sorted(k for k in set(mine) & set(theirs) if mine[k]["severity"] != theirs[k]["severity"])
    print(f"  {label}: {len(only)} lines only in the first, {len(moved)} graded differently")
    for k in only:
        print(f"    + {k[0]}:{k[1]} {k[2]} {describe(mine[k])}")
    for k in moved:
        print(f"    ~ {k[0]}:{k[1]} {k[2]} {theirs[k]['severity']} -> {describe(mine[k])}")


def severities(findings: list[dict]) -> str:
    order = ("critical", "high", "medium", "low")
    counts = {s: sum(f["severity"] == s for f in findings) for s in order}
    return " ".join(f"{s[0]}{counts[s]}" for s in order)


def bench(env: Env, python: Path, repeat: int) -> None:
    times: dict[tuple[str, str], list[float]] = {(c, s): [] for c in CHECKS for s in ("cold", "warm")}
    found: dict[str, list[dict]] = {}
    with tempfile.TemporaryDirectory(prefix="asynclint-envvenv-") as scratch:
        for rep in range(repeat):
            order = CHECKS[rep % 3 :] + CHECKS[: rep % 3]
            for check in order:
                cache = Path(scratch) / f"{check}-{rep}"
                interpreter = sys.executable if check == "dev-deep" else str(python)
                for state in ("cold", "warm"):
                    elapsed, findings = run_check(
                        interpreter, env.path, cache, check != "own-plain", check == "dev-deep"
                    )
                    times[check, state].append(elapsed)
                    found[check] = findings
                shutil.rmtree(cache, ignore_errors=True)
    print(f"\n== {env.name}: {env.path}")
    for state in ("cold", "warm"):
        plain = statistics.median(times["own-plain", state])
        cells = []
        for check in CHECKS:
            median = statistics.median(times[check, state])
            cells.append(f"{check} {median:.2f} s ({median / plain:.2f}x)")
        print(f"  {state}: " + ", ".join(cells))
    for check in CHECKS:
        inside = sum(bool(f["facts"]["library"]) for f in found[check])
        print(f"  {check:9} {len(found[check]):3} findings [{severities(found[check])}], {inside} inside libraries")
    compare(found["own-deep"], found["own-plain"], "own-deep against own-plain")
    compare(found["own-deep"], found["dev-deep"], "own-deep against dev-deep")
    compare(found["dev-deep"], found["own-deep"], "dev-deep against own-deep")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=Path, default=REPO / "bench" / "env_venvs.toml")
    parser.add_argument("--venv-root", type=Path, default=Path(tempfile.gettempdir()) / "asynclint-env-venvs")
    parser.add_argument("--only", action="append", default=[], help="an environment's name (repeatable)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    args.venv_root.mkdir(parents=True, exist_ok=True)
    for env in read_envs(args.envs):
        if args.only and env.name not in args.only:
            continue
        bench(env, build_venv(env, args.venv_root), args.repeat)


if __name__ == "__main__":
    main()
