"""mypy, configured in pyproject.toml ([tool.mypy]), reports nothing on src/asynclint."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.mark.slow  # about 40 s without mypy's cache, a few seconds with it
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (pip install -e '.[dev]')")
def test_mypy_reports_no_errors_on_the_package():
    ran = subprocess.run(
        [sys.executable, "-m", "mypy", "src/asynclint"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert ran.returncode == 0 and ran.stdout.startswith("Success"), ran.stdout + ran.stderr
