"""Properties of ``fix`` over generated programs: the output compiles, is a fixed point, leaves
everything outside the edits alone, and computes what the input computed.

Two generators: hypothesmith's random programs with an async function of offenders appended
(the random code must come through untouched), and async functions assembled from offenders in
many syntactic positions, run before and after on real files. Example counts are modest and the
search is derandomized, so CI is deterministic and the suite stays fast.
"""

from __future__ import annotations

import ast
import asyncio
import types
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.fixers.orchestrator import fix_sources
from asynclint.model import Severity

settings.register_profile(
    "fix",
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
FIX = settings.get_profile("fix")


def fixed(text: str, name: str = "generated") -> str:
    path = Path(f"{name}.py")
    outcome = fix_sources(
        [SourceFile(str(path), text, name, "")], Config(root=Path("."), min_severity=Severity.LOW), unsafe=True
    )
    return outcome.texts[str(path)]


# --- random programs with offenders appended ------------------------------------------------------

OFFENDERS = """

async def _injected_offenders(path, state):
    import time, os, json, shutil, copy, subprocess
    time.sleep(0)
    data = json.loads(open(path).read())
    if os.path.exists(path):
        shutil.rmtree(path, ignore_errors=True)
    snapshot = copy.deepcopy(state)
    with open(path) as handle:
        first = handle.readline()
    return subprocess.run(["true"]).returncode, data, snapshot, first
"""


def _statements(text: str) -> list[str]:
    return [ast.dump(statement) for statement in ast.parse(text).body]


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@settings(FIX, max_examples=25)
@given(source=hypothesmith.from_grammar(auto_target=False))
def test_random_programs_come_through_untouched(source: str):
    try:
        compile(source, "<random>", "exec")
        ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        assume(False)
    assume("\\\n" not in source and "\f" not in source)  # line continuations at top level confuse nobody but us
    text = source.rstrip("\n") + "\n" + OFFENDERS
    try:
        compile(text, "<random>", "exec")
    except SyntaxError:
        assume(False)
    result = fixed(text)
    compile(result, "<fixed>", "exec")
    assert fixed(result) == result, "not a fixed point"
    # Every statement of the random program is still there, unchanged and in order; the fixes
    # may only add imports / module-level statements and rewrite the injected function.
    kept = iter(_statements(result))
    for statement in _statements(source):
        assert any(statement == candidate for candidate in kept), "a statement outside the edits changed"


# --- generated async functions, run before and after ----------------------------------------------

#: Offending expressions with deterministic values, given the files the test creates.
EXPRESSIONS = [
    "os.path.exists(FILE)",
    "json.dumps({'k': [1, 2]})",
    "time.sleep(0)",
    "sorted(os.listdir(DIR))",
    "Path(FILE).read_text()",
    "copy.deepcopy([1, {'a': 2}])",
    "os.path.getsize(FILE)",
    "json.loads(Path(JSON).read_text())",
    "shutil.which('definitely-not-a-command')",
    "Path(FILE).read_text().splitlines()[0]",
]

#: Statement shapes: {e} is an offending expression; each stores something in `out`.
SHAPES = [
    "out.append({e})",
    "value = {e}\nout.append(value)",
    "if {e}:\n    out.append('yes')\nelse:\n    out.append('no')",
    "out.append([{e} for _ in range(2)])",
    "for _ in range(2):\n    out.append({e})",
    "try:\n    out.append({e})\nexcept Exception as exc:\n    out.append(type(exc).__name__)",
    "with open(FILE) as handle:\n    out.append((handle.readline(), {e}))",
    "out.append(str({e}).upper())",
    "out.append(len(str({e})) + 1)",
    "out.append(({e}, {e}))",
    # long lines: the awaited value may be stored in a local first, never ahead of a call that ran before it
    "out.append(('" + "padding " * 8 + "', str({e}), len(str({e}))))",
    "out.append((tick(), str({e}), '" + "padding " * 8 + "', tick()))",
]

PRELUDE = """\
import copy
import json
import os
import shutil
import time
from pathlib import Path

DIR = {dir!r}
FILE = {file!r}
JSON = {json!r}


def untouched(x):
    return [x, x * 2]


TICKS = []


def tick():
    # a side effect the offenders can see: any reordering of it changes the results
    TICKS.append(len(TICKS))
    Path(FILE).write_text("tick %d\\nsecond\\n" % len(TICKS), encoding="utf-8")
    return len(TICKS)


async def generated():
    Path(FILE).write_text("first line\\nsecond\\n", encoding="utf-8")
    out = []
"""


@st.composite
def programs(draw) -> list[str]:
    count = draw(st.integers(min_value=1, max_value=5))
    body = []
    for index in range(count):
        shape = draw(st.sampled_from(SHAPES))
        expression = draw(st.sampled_from(EXPRESSIONS))
        body.append(f"marker_{index} = {index}")  # code between the offenders that must not move
        body.append(shape.format(e=expression))
    return body


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fix-properties")
    (root / "a.txt").write_text("first line\nsecond\n", encoding="utf-8")
    (root / "b.json").write_text('{"n": [1, 2, 3]}', encoding="utf-8")
    return root


def _run(text: str, name: str) -> list:
    module = types.ModuleType(name)
    exec(compile(text, name, "exec"), module.__dict__)
    return asyncio.run(module.generated())


@settings(FIX, max_examples=30)
@given(body=programs())
def test_generated_functions_compute_the_same_after_fixing(body: list[str], workspace: Path):
    prelude = PRELUDE.format(dir=str(workspace), file=str(workspace / "a.txt"), json=str(workspace / "b.json"))
    lines = [f"    {line}" for statement in body for line in statement.splitlines()]
    text = prelude + "\n".join(lines) + "\n    return out\n"
    result = fixed(text)
    compile(result, "<fixed>", "exec")
    assert fixed(result) == result, "not a fixed point"
    assert _run(text, "before") == _run(result, "after")
    # The markers between the offenders are untouched and in order; so is the sync function.
    markers = [line.strip() for line in result.splitlines() if line.strip().startswith("marker_")]
    assert markers == [line for line in body if line.startswith("marker_")]
    assert "def untouched(x):\n    return [x, x * 2]" in result
