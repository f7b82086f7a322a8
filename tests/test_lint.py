"""ruff's linter and formatter are clean on src, tests and bench under pyproject.toml's [tool.ruff]."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["src", "tests", "bench"]

needs_ruff = pytest.mark.skipif(
    importlib.util.find_spec("ruff") is None, reason="ruff is not installed (pip install -e '.[dev]')"
)


def ruff(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments, "--no-cache", *CHECKED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


@needs_ruff
def test_ruff_check_is_clean() -> None:
    done = ruff("check")
    assert done.returncode == 0, f"ruff check (exit {done.returncode}):\n{done.stdout}{done.stderr}"


@needs_ruff
def test_ruff_format_leaves_every_file_as_it_is() -> None:
    done = ruff("format", "--check")
    assert done.returncode == 0, f"ruff format --check (exit {done.returncode}):\n{done.stdout}{done.stderr}"
