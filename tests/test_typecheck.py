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
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0 and ran.stdout.startswith("Success"), ran.stdout + ran.stderr


def test_the_typed_state_bases_hold_nothing_at_run_time():
    """IndexerState and GraphState declare, for mypy, what the parts of the Indexer and the
    ProjectGraph use of each other: at run time they add no attribute or method, so a part that
    is missing fails loudly instead of falling back on a stub's empty body."""
    from asynclint.analysis.graph_state import GraphState
    from asynclint.analysis.index.scopes import IndexerState

    for state in (IndexerState, GraphState):
        assert [name for name in vars(state) if not name.startswith("__")] == [], state
        assert state.__annotations__, state  # the declarations are there, for the type checker
