#!/usr/bin/env python
"""What a TextWorld game costs on the loop: starting it, resetting it and one step.

The ``text_games`` knowledge pack grades ``textworld.start`` (and the gym env TextWorld builds),
``reset`` and ``step`` from these numbers. Side by side in one run, on a game TextWorld
generates (``tw-make tw-cooking``, the benchmark's cooking games; pass ``--game`` to time another
``.z8`` with its ``.json``): ``textworld.start(game, infos, wrappers=[Filter])`` (copies and
loads jericho's libfrotz, reads the story file and the game's data), ``env.reset()`` (restarts
the interpreter and runs the game to its first prompt) and one ``env.step`` of a walkthrough
command, with and without ``admissible_commands`` (which makes TextWorld infer the game state
every step). The interpreter's own share of a step is timed apart (jericho's ``FrotzEnv.step``
under the same wrappers, through ``cProfile``, next to the steps' mean). Each other number is the
median of ``--repeat`` calls (steps: of ten times as many).
Needs textworld importable (``pip install textworld``: it brings jericho and the game compiler).

Usage::

    python bench/bench_text_game_costs.py
    python bench/bench_text_game_costs.py --game /tmp/games/cook.z8 --repeat 10
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from costbench import timed  # bench/, the script's own directory, is sys.path[0]


def generate(directory: Path) -> Path:
    """A TextWorld cooking game (3 ingredients, 6 rooms, cooking and cutting), as ``tw-make`` makes it."""
    maker = shutil.which("tw-make") or str(Path(sys.executable).with_name("tw-make"))
    game = directory / "cook.z8"
    settings = "--recipe 3 --take 3 --go 6 --open --cook --cut --seed 2".split()
    subprocess.run([maker, "tw-cooking", *settings, "--output", str(game)], check=True, capture_output=True)
    return game


def steps(env, commands: list[str], count: int) -> list[float]:
    """Milliseconds of each of ``count`` steps, replaying ``commands`` (reset when the game ends)."""
    env.reset()
    runs = []
    for command in (commands * (count // max(len(commands), 1) + 1))[:count]:
        start = time.perf_counter()
        _, _, done, _ = env.step(command)
        runs.append((time.perf_counter() - start) * 1000)
        if done:
            env.reset()
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", type=Path, help="a TextWorld .z8 game (its .json beside it); default: generate one")
    parser.add_argument("--repeat", type=int, default=7, help="timed calls per measurement (default 7)")
    args = parser.parse_args(argv)
    try:
        import textworld
        from textworld.envs.wrappers import Filter
    except ImportError:
        print("textworld is not importable: pip install textworld", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        game = str(args.game or generate(Path(tmp)))
        for label, admissible in (("plain", False), ("admissible_commands", True)):
            infos = textworld.EnvInfos(
                score=True, max_score=True, won=True, lost=True, feedback=True, moves=True,
                admissible_commands=admissible, extras=["walkthrough"],
            )  # fmt: skip
            start = timed(lambda infos=infos: textworld.start(game, infos, wrappers=[Filter]).close(), args.repeat)
            env = textworld.start(game, infos, wrappers=[Filter])
            reset = timed(env.reset, args.repeat)
            _, info = env.reset()
            walkthrough = list(info.get("extra.walkthrough") or ["look", "inventory"])
            profile = cProfile.Profile()
            profile.enable()
            runs = steps(env, walkthrough, 10 * args.repeat)
            profile.disable()
            interpreter = sum(
                cumulative
                for (path, _, name), (_, _, _, cumulative, _) in pstats.Stats(profile).stats.items()  # type: ignore[attr-defined]
                if name == "step" and path.endswith("jericho/jericho.py")
            )
            env.close()
            share = interpreter * 1000 / len(runs)
            print(
                f"{label:20} start {start:6.1f} ms  reset {reset:6.1f} ms  step {statistics.median(runs):5.2f} ms "
                f"(mean {statistics.mean(runs):5.2f}, of which the interpreter {share:5.2f}, profiled)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
