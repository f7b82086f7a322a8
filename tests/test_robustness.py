"""The analysis must survive any real Python: it reports a file error or findings, never crashes."""

from __future__ import annotations

import asyncio
import email
import json
import os
import sysconfig
from pathlib import Path

import pytest
from conftest import check_text

from asynclint import pool
from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.knowledge.catalogue import Catalogue
from asynclint.model import FileError
from asynclint.pipeline import check_sources
from asynclint.pool import PARALLEL_THRESHOLD

_SUMMARIZE_IN_WORKER = pool._summarize_in_worker

STDLIB = Path(sysconfig.get_paths()["stdlib"])
CORPUS = sorted(
    [
        *Path(asyncio.__file__).parent.glob("*.py"),
        *Path(email.__file__).parent.glob("*.py"),
        *Path(json.__file__).parent.glob("*.py"),
        *STDLIB.glob("[a-c]*.py"),
    ]
)


def test_stdlib_corpus_is_analysed_without_errors():
    sources = [
        SourceFile(path.relative_to(STDLIB).as_posix(), path.read_text(encoding="utf-8"), path.stem, "")
        for path in CORPUS
    ]
    result = check_sources(sources, Config(root=STDLIB))
    assert len(sources) > 80
    assert result.errors == ()
    # asyncio's own sync helpers called from coroutines do block (that is why it offloads some).
    assert any(f.path.startswith("asyncio/") for f in result.findings)


@pytest.mark.parametrize(
    "source, message",
    [
        ("def f(:\n", "syntax error at line 1"),
        ("x = 1\0\n", "cannot parse"),
        ("(" * 300 + ")" * 300 + "\n", "syntax error"),
        ("x = " + "-" * 100_000 + "1\n", "nesting too deep"),
    ],
)
def test_bad_sources_become_file_errors(source: str, message: str):
    result = check_text(source, "bad.py")
    assert result.findings == ()
    [error] = result.errors
    assert error.path == "bad.py" and message in error.message


NEWER_GRAMMAR = """\
import time
from typing import Literal

import verifiers as vf

type Mode = Literal["fast", "slow"]
type Pair[T] = tuple[T, T]


def first[T](items: list[T]) -> T:
    time.sleep(0.1)
    return items[0]


class Env[S: (str, bytes)](vf.MultiTurnEnv):
    def pick[
        K,  # spread over lines: the bracket no longer joins them
        V,
    ](self, table: dict[K, V]) -> V:
        time.sleep(0.1)
        return next(iter(table.values()))

    async def env_response(self, messages, state):
        first([1, 2])
        self.pick({"a": 1})
        return [], state
"""


def test_python_3_12_type_parameters_are_read_in_place():
    """A file written for Python 3.12 (PEP 695 aliases and type parameters) is analysed on an
    older interpreter: its calls are found at the lines and columns the file has."""
    result = check_text(NEWER_GRAMMAR)
    assert result.errors == ()
    lines = NEWER_GRAMMAR.splitlines()
    found = sorted((f.line, f.column, f.code) for f in result.findings)
    expected = [(n, line.index("time.sleep") + 1, "ASL101") for n, line in enumerate(lines, 1) if "time.sleep" in line]
    assert len(expected) == 2 and found == expected


INFINITE_LITERALS = """\
_POS_INF = 1e10000
_NEG_INF = -1e10000


class Settings:
    ceiling: float = 1e10000

    def __init__(self, limit=1e10000):
        self.limit = -1e10000
        self.configure(limit=1e10000, floor=-1e10000, table={"limit": 1e10000})
"""


def test_float_literals_too_large_to_be_finite_are_analysed():
    """``1e10000`` is ``inf``, a constant no text can give back to ``ast.literal_eval``
    (protobuf's encoder and the standard library's test_fractions write one): the file is
    analysed like any other, in every place a constant is read (assigned, passed, a default)."""
    result = check_text(INFINITE_LITERALS)
    assert result.errors == ()


def test_newer_grammar_still_failing_reports_the_first_error():
    """The rewrite covers PEP 695 only: any other syntax error is the parser's, as written."""
    result = check_text("type Mode = int\ndef f(:\n    pass\n")
    [error] = result.errors
    assert "syntax error at line" in error.message and "read as Python" in error.message


INFINITE_CONSTANTS = """\
import time


class Recorder:
    enabled: bool = 1e999

    def __init__(self, limit=1e999, record=-1e999, bound=None):
        self.limit = limit
        self.record = record
        self.scale = 1e999
        self.bound = bound if bound else 1e999


def helper(threshold=1e999):
    if threshold:
        time.sleep(1)


async def handler():
    helper(1e999)
    helper(threshold=-1e999)
    Recorder()
"""


def test_a_float_too_large_to_write_is_read_as_the_infinity_it_is():
    """``1e999`` is ``inf``, whose ``repr`` no literal reads back: where a constant is kept as text
    (a default, a constant passed, an attribute written, a bool field, the constant a parameter's
    test gives) it is read as the float,
    not a crash of the whole check (the bench corpus's standard library holds such literals)."""
    result = check_text(INFINITE_CONSTANTS)
    assert result.errors == ()
    assert [(f.line, f.code) for f in result.findings] == [(16, "ASL101")]


def _dies_on_boom(source: SourceFile) -> str | FileError:
    """A worker killed while it indexes one file (the OOM killer, a signal)."""
    if source.path.endswith("boom.py"):
        os._exit(1)
    return _SUMMARIZE_IN_WORKER(source)


def test_a_worker_that_dies_leaves_the_same_summaries(monkeypatch: pytest.MonkeyPatch) -> None:
    sources = [
        SourceFile(
            f"pkg/mod_{n:02d}.py",
            f"import time\n\n\nasync def f_{n}():\n    time.sleep({n})\n",
            f"pkg.mod_{n:02d}",
            "pkg",
        )
        for n in range(PARALLEL_THRESHOLD)
    ]
    sources.insert(
        PARALLEL_THRESHOLD // 2, SourceFile("pkg/boom.py", "import os\n\nX = os.getcwd()\n", "pkg.boom", "pkg")
    )
    catalogue = Catalogue()
    alone = pool.index(sources, catalogue, jobs=1)
    monkeypatch.setattr(pool, "_summarize_in_worker", _dies_on_boom)  # forked workers inherit it
    assert pool.index(sources, catalogue, jobs=2) == alone
