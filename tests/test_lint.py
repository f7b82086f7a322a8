"""`ruff check src bench` is clean under the configuration in pyproject.toml ([tool.ruff])."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed (pip install -e '.[dev]')")
def test_ruff_check_is_clean() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "src", "bench"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, f"ruff check src bench (exit {done.returncode}):\n{done.stdout}{done.stderr}"
