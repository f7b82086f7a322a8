"""Configuration, ignore files and baselines a checkout brings (issue 14): each mistake is a
one-line error and exit 2, never a traceback; the entry point never imports the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run, write

from asynclint.config import _KEYS, ConfigError, _from_table

HOT = "import time\n\n\nasync def setup_state(state):\n    time.sleep(1)\n    return state\n"


def _one_line_error(result, expected: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("asynclint: error: ") and expected in lines[0], result.stderr


@pytest.mark.parametrize(
    "toml, expected",
    [
        ("tool = 1\n", "[tool] must be a table"),
        ('tool = "asynclint"\n', "[tool] must be a table"),
        ("[tool.asynclint]\nselect = " + "[" * 2000 + "]" * 2000 + "\n", "nested too deeply"),
        ('[[tool.asynclint.blocking-apis]]\nname = "x"\ncategory = [1]\n', "category must be one of"),
        ('[[tool.asynclint.blocking-apis]]\nname = "x"\ncategory = "sleep"\nfix = [1]\n', "fix must be one of"),
        ('[[tool.asynclint.registrations]]\ncall = "x"\narg = true\n', "give exactly one of arg"),
    ],
    ids=["tool-int", "tool-string", "deep-array", "category-list", "fix-list", "arg-bool"],
)
@pytest.mark.parametrize("command", ["check", "fix"])
def test_a_bad_pyproject_is_a_one_line_error(tmp_path: Path, toml: str, expected: str, command: str):
    write(tmp_path, {"pyproject.toml": toml, "m.py": HOT})
    _one_line_error(run(command, ".", cwd=tmp_path), expected)


@pytest.mark.parametrize("key", sorted(_KEYS))
def test_every_key_refuses_every_wrong_type_with_a_config_error(key: str):
    wrong = [
        1,
        1.5,
        True,
        "x",
        [1],
        [[1]],
        {"a": 1},
        [{"a": 1}],
        [{"name": "x", "category": [1]}],
        [{"name": "x", "category": "sleep", "fix": {"a": 1}}],
        [{"call": "x", "arg": -1}],
        [{"call": "x", "keyword": ""}],
        {"ASL101": [1]},
    ]
    for value in wrong:
        try:
            _from_table({key: value}, Path("/p/pyproject.toml"))
        except ConfigError:
            pass


def test_an_invalid_gitignore_pattern_is_skipped_as_git_does(tmp_path: Path):
    write(tmp_path, {".gitignore": "!\nignored.py\n", "m.py": HOT, "ignored.py": HOT})
    result = run("check", "--format", "concise", ".", cwd=tmp_path)
    assert result.returncode == 1 and "m.py:5:5" in result.stdout and "ignored.py" not in result.stdout


@pytest.mark.parametrize("pattern", ["!", "a\\"])
def test_an_invalid_exclude_pattern_is_a_one_line_error(tmp_path: Path, pattern: str):
    write(tmp_path, {"m.py": HOT})
    _one_line_error(run("check", "--exclude", pattern, ".", cwd=tmp_path), "invalid gitignore-style pattern")
    write(tmp_path, {"pyproject.toml": f"[tool.asynclint]\nextend-exclude = ['{pattern}']\n"})  # a TOML literal string
    _one_line_error(run("fix", ".", cwd=tmp_path), "invalid gitignore-style pattern")


def test_a_deeply_nested_baseline_is_a_one_line_error(tmp_path: Path):
    write(tmp_path, {"m.py": HOT, "base.json": "[" * 100_000 + "]" * 100_000})
    _one_line_error(run("check", "--baseline", "base.json", ".", cwd=tmp_path), "nested too deeply")


@pytest.mark.parametrize("shadow", ["click", "rich", "pathspec"])
def test_python_m_asynclint_does_not_import_the_projects_modules(tmp_path: Path, shadow: str):
    write(tmp_path, {"m.py": HOT, f"{shadow}.py": "raise SystemExit('the project module was imported')\n"})
    source = str(Path(__file__).parent.parent / "src")
    # An empty PYTHONPATH entry would put the working directory back on the path (Python's rule,
    # not ours): only the real entries are passed on.
    inherited = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([source, *inherited]), "NO_COLOR": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "asynclint", "check", "--format", "concise", "--no-cache", "."],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "imported" not in result.stderr and result.returncode == 1 and "m.py:5:5" in result.stdout
