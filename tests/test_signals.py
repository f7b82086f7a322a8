"""Stop signals during ``check`` and ``fix`` (issue 14): every file is old or new, no temporary
file stays, the files already rewritten are listed, and the exit status says which signal."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import ASYNCLINT, EXAMPLES, run, write

import asynclint.io
import asynclint.runner
import asynclint.writer
from asynclint.io import TEMP_SUFFIX

HOT = "import time\n\n\nasync def setup_state(state):\n    time.sleep(1)\n    return state\n"
FIXED = "import asyncio\n\n\nasync def setup_state(state):\n    await asyncio.sleep(1)\n    return state\n"


def test_sigterm_while_fix_writes_finishes_the_file_and_lists_what_was_written(tmp_path, monkeypatch):
    write(tmp_path, {"a.py": HOT, "b.py": HOT, "c.py": HOT})
    real_write = asynclint.io._replace_in
    calls = []

    def write_then_signal(dir_fd, name, payload, mode, **kwargs):
        calls.append(name)
        if len(calls) == 2:  # the signal lands in the middle of the second file's write
            os.kill(os.getpid(), signal.SIGTERM)
        real_write(dir_fd, name, payload, mode, **kwargs)

    monkeypatch.setattr(asynclint.io, "_replace_in", write_then_signal)
    result = run("fix", ".", cwd=tmp_path)
    assert result.returncode == 143
    assert (
        "stopped by SIGTERM after rewriting 2 of 3 files (the others are unchanged):\n  a.py\n  b.py\n" in result.stderr
    )
    assert [(tmp_path / name).read_text() for name in ("a.py", "b.py", "c.py")] == [FIXED, FIXED, HOT]
    assert not list(tmp_path.glob(f"*{TEMP_SUFFIX}"))
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # put back


def test_ctrl_c_while_fix_analyses_writes_nothing(tmp_path, monkeypatch):
    write(tmp_path, {"a.py": HOT})

    def interrupted(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGINT)
        raise AssertionError("the signal did not stop the run")

    monkeypatch.setattr("asynclint.fixrun.fix_sources", interrupted)
    result = run("fix", ".", cwd=tmp_path)
    assert result.returncode == 130 and "stopped by SIGINT: no file was changed" in result.stderr
    assert (tmp_path / "a.py").read_text() == HOT


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_check_stops_with_the_signals_exit_status(tmp_path, monkeypatch, signum, code):
    write(tmp_path, {"a.py": HOT})

    def interrupted(*args, **kwargs):
        os.kill(os.getpid(), signum)
        raise AssertionError("the signal did not stop the run")

    monkeypatch.setattr(asynclint.runner, "run_check", interrupted)
    result = run("check", ".", cwd=tmp_path)
    assert result.returncode == code and f"stopped by {signal.Signals(signum).name}" in result.stderr
    assert "Aborted" not in result.stdout + result.stderr


def test_a_killed_runs_temp_files_are_removed_by_the_next_fix(tmp_path):
    write(tmp_path, {"a.py": HOT, "sub/b.py": "x = 1\n"})
    left = [tmp_path / f".a.py.99999999-0123abcd{TEMP_SUFFIX}", tmp_path / "sub" / f".b.py.k3j4_x9q{TEMP_SUFFIX}"]
    for temp in left:
        temp.write_text(HOT[:10])
    result = run("fix", ".", cwd=tmp_path)
    assert result.returncode == 0 and (tmp_path / "a.py").read_text() == FIXED
    assert not any(temp.exists() for temp in left)


# --- a storm of signals on a copy of a real tree ---------------------------------------------

#: (signal, when): "start" right after the process starts (possibly before Python set any
#: handler), N once N files have been replaced (observed on disk).
TRIALS = [(signal.SIGTERM, "start"), (signal.SIGTERM, 1), (signal.SIGTERM, 2), (signal.SIGINT, 1), (signal.SIGHUP, 2)]


def _snapshot(tree: Path) -> dict[str, tuple[int, bytes]]:
    return {
        str(p.relative_to(tree)): (p.lstat().st_ino, p.read_bytes()) for p in sorted(tree.rglob("*")) if p.is_file()
    }


def _replaced(tree: Path, before: dict[str, tuple[int, bytes]]) -> int:
    count = 0
    for name, (inode, _) in before.items():
        try:
            count += os.lstat(tree / name).st_ino != inode
        except FileNotFoundError:
            pass
    return count


def _trial(tree: Path, signum: int, when, outcome: dict) -> None:
    before = _snapshot(tree)
    env = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen(
        [ASYNCLINT, "fix", "--unsafe-fixes", "-q", "."],
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    if when == "start":
        process.send_signal(signum)
    elif isinstance(when, int):
        deadline = time.monotonic() + 120
        while process.poll() is None and _replaced(tree, before) < when and time.monotonic() < deadline:
            time.sleep(0.001)
        if process.poll() is None:
            process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=120)
    outcome.update(code=process.returncode, stdout=stdout, stderr=stderr)


@pytest.mark.slow
def test_a_storm_of_stop_signals_leaves_every_file_old_or_new(tmp_path):
    trees = []
    for index in range(len(TRIALS) + 1):
        tree = tmp_path / f"tree{index}"
        shutil.copytree(EXAMPLES, tree, ignore=shutil.ignore_patterns("__pycache__", ".asynclint_cache"))
        trees.append(tree)
    original = _snapshot(trees[0])
    outcomes: list[dict] = [{} for _ in trees]
    # All at once: the runs are slower on a loaded machine, which moves where the signals land,
    # never what must hold. The last tree is fixed without a signal: the reference.
    threads = [
        threading.Thread(target=_trial, args=(tree, *trial, out))
        for tree, trial, out in zip(trees, TRIALS, outcomes, strict=False)
    ]  # trees[-1]: the reference
    threads.append(threading.Thread(target=_trial, args=(trees[-1], signal.SIGTERM, None, outcomes[-1])))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    reference = {name: data for name, (_, data) in _snapshot(trees[-1]).items()}
    assert outcomes[-1]["code"] in (0, 1), outcomes[-1]["stderr"]
    fixable = {name for name, (_, data) in original.items() if reference[name] != data}
    assert len(fixable) >= 3
    for tree, (signum, when), outcome in zip(trees, TRIALS, outcomes, strict=False):
        after = {name: data for name, (_, data) in _snapshot(tree).items()}
        context = f"{signal.Signals(signum).name} at {when}: exit {outcome['code']}\n{outcome['stderr']}"
        # Deep mode may keep what it read of installed packages in the cache directory; any
        # other new file (a temporary one) must not be left behind.
        created = {
            name
            for name in set(after) - set(original)
            if not (name.startswith(".asynclint_cache/") and not name.endswith(asynclint.io.TEMP_SUFFIX))
        }
        assert not created and set(original) <= set(after), context
        after = {name: after[name] for name in original}
        assert all(after[name] in (original[name][1], reference[name]) for name in after), context
        rewritten = {name for name in fixable if after[name] == reference[name]}
        assert "Traceback" not in outcome["stderr"], context
        if outcome["code"] == 128 + signum:  # stopped by asynclint: it says what it rewrote
            listed = {line.strip() for line in outcome["stderr"].splitlines() if line.startswith("  ")}
            assert listed == rewritten, context
        elif outcome["code"] == -signum:  # killed before asynclint set its handlers, or after it wrote
            assert rewritten in (set(), fixable), context
        else:  # finished before the signal came
            assert outcome["code"] == outcomes[-1]["code"] and rewritten == fixable, context
