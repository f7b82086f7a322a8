"""Helpers shared by the test modules: running the installed command, writing a project,
checking one text in memory, reading a fixture's ``# expect:`` comments, a profiling workdir.

Test modules import the plain helpers (``from conftest import run, write``); pytest finds the
fixtures (``workdir``) on its own."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest

from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.model import Result, Severity
from asynclint.pipeline import check_sources

TESTS = Path(__file__).parent
DATA = TESTS / "data"
EXAMPLES = TESTS.parent / "examples"


# --- the installed command ---------------------------------------------------------------------


def _executable() -> str:
    beside = Path(sys.executable).parent / "asynclint"
    found = str(beside) if beside.exists() else shutil.which("asynclint")
    assert found, "the asynclint console script is not installed (pip install -e .)"
    return found


ASYNCLINT = _executable()


def run(*args: str, cwd: Path, env: dict | None = None, hermetic: bool = True) -> subprocess.CompletedProcess:
    """The console script with ``args``. ``check`` and ``fix`` follow whatever imports resolve on
    the interpreter's path by default (deep mode), and what happens to be installed where the tests
    run is no fixture: unless a test passes a follow flag of its own (or ``hermetic=False``, to see
    the default), they run with ``--no-follow-imports``."""
    if hermetic and args[:1] in (("check",), ("fix",)) and not any("follow-" in arg for arg in args):
        args = (args[0], "--no-follow-imports", *args[1:])
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    environment.pop("FORCE_COLOR", None)
    result = subprocess.run(
        [ASYNCLINT, *args], cwd=cwd, capture_output=True, text=True, env=environment, timeout=120
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def findings(result: subprocess.CompletedProcess) -> list[dict]:
    return json.loads(result.stdout)["findings"]


# --- one text checked in memory ------------------------------------------------------------------


def check_text(text: str, path: str | Path = "env.py", config: Config | None = None) -> Result:
    """``text`` checked alone, as the top-level module named after ``path`` (by default with the
    settings of a project rooted where ``path`` is)."""
    return check_sources(
        [SourceFile(str(path), text, module=Path(path).stem, package="")], config or Config(root=Path(path).parent)
    )


# --- fixture specifications: `# expect: CODE severity` ------------------------------------------


# Loose on purpose: "# expect ASL101 critical" (no colon) must fail loudly, not be skipped.
_EXPECT = re.compile(r"#\s*expect\b(?P<colon>:?)\s*(?P<items>.*)$")
_ITEM = re.compile(r"(?P<code>[A-Z]+[0-9]+)\s+(?P<severity>[a-z]+)")
_LABELS = frozenset(severity.label for severity in Severity)

Expectation = tuple[int, str, str]  # (line, code, severity label)


@dataclass(frozen=True)
class ExpectComment:
    line: int
    col: int  # 0-based offset of the ``#`` in its line
    items: tuple[tuple[str, str], ...]  # (code, severity label)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(code for code, _ in self.items))


def expect_comments(text: str) -> list[ExpectComment]:
    """The ``# expect:`` comments, found with ``tokenize`` so that strings are never read as one.
    One may follow another comment on its line (``# noqa: ASL999  # expect: ASL901 low``)."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        match = _EXPECT.search(token.string) if token.type == tokenize.COMMENT else None
        if match is None:
            continue
        line, col = token.start[0], token.start[1] + match.start()
        items = []
        for item in match.group("items").split(","):
            parsed = _ITEM.fullmatch(item.strip())
            if not match.group("colon") or parsed is None or parsed.group("severity") not in _LABELS:
                raise AssertionError(f"line {line}: malformed {token.string!r} (want '# expect: ASL101 critical')")
            items.append((parsed.group("code"), parsed.group("severity")))
        found.append(ExpectComment(line, col, tuple(items)))
    return found


def expectations(text: str) -> set[Expectation]:
    return {(c.line, code, severity) for c in expect_comments(text) for code, severity in c.items}


# --- profiling ----------------------------------------------------------------------------------

PROFILE_SCHEMA = json.loads((DATA / "profile-report.schema.json").read_text())
WORKLOAD = DATA / "profiler" / "workload.py"
QUICK = ("--rollouts", "64", "--concurrency", "64")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    shutil.copy(WORKLOAD, tmp_path / "workload.py")
    return tmp_path


def profile_json(workdir: Path, target: str, name: str, *extra: str, env: dict | None = None) -> dict:
    result = run("profile", target, *QUICK, "--format", "json", "--output", name, *extra, cwd=workdir, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""  # the report went to the file
    report = json.loads((workdir / name).read_text())
    jsonschema.validate(report, PROFILE_SCHEMA)  # the contract documented in docs/profiler.md
    return report
