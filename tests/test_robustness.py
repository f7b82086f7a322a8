"""The analysis must survive any real Python: it reports a file error or findings, never crashes."""

from __future__ import annotations

import asyncio
import email
import json
import sysconfig
from pathlib import Path

import pytest
from conftest import check_text

from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.pipeline import check_sources

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
