"""Properties of ``fix`` over generated programs.

Programs are modules of async and sync functions (and classes with async methods) whose bodies
mix ordinary statements -- assignments, ``if``/``for``/``while``/``try``/``with`` blocks, comments,
semicolons, calls laid out over several lines -- with blocking offenders injected at random
statement positions: directly in ``async def`` bodies, inside their nested blocks and
comprehensions, and where ``await`` is illegal (a nested sync ``def``, a ``lambda``, a sync helper
the async code calls). Some functions shadow ``asyncio`` or the module rebinds it. For each
program, ``fix --severity low --unsafe-fixes`` must give code that

* parses and compiles, and is a fixed point (fixing it again changes nothing);
* has no ``await`` in a sync function or ``lambda``, and never writes ``<name>.to_thread`` (or
  ``.sleep``, ``.get_running_loop``) through a name the function binds to something else;
* for every offender written in an ``async def`` body: the linter saw it, and it was either fixed
  -- its value is now awaited through ``asyncio.sleep``/``to_thread``/``run_in_executor``, or its
  ``with`` block runs in a helper that is awaited in a worker thread -- or left with a reason;
* leaves every statement that is not on an edited line as it was (``ast.dump`` of module-level,
  class-level and function-level statements outside the edited lines, matched through the diff).

A second test runs generated functions before and after fixing and compares what they compute.

The example budget is fixed and the search derandomized, so CI is deterministic and the file runs
in a few seconds; ``ASYNCLINT_PROPERTY_EXAMPLES=2000`` searches longer, with fresh randomness.
"""

from __future__ import annotations

import ast
import asyncio
import difflib
import os
import re
import types
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.fixers.orchestrator import FixOutcome, fix_sources
from asynclint.model import Severity

_LONG = int(os.environ.get("ASYNCLINT_PROPERTY_EXAMPLES", "0"))
settings.register_profile(
    "fix",
    derandomize=not _LONG,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
FIX = settings.get_profile("fix")


def fix(text: str, name: str = "generated") -> FixOutcome:
    path = Path(f"{name}.py")
    return fix_sources(
        [SourceFile(str(path), text, name, "")], Config(root=Path("."), min_severity=Severity.LOW), unsafe=True
    )


# --- generated modules ------------------------------------------------------------------------------

#: Offenders written in an ``async def`` body; ``{k}`` makes each one's names unique, so its fix
#: can be found in the output by the names it reads.
DIRECT = {
    "sleep": "time.sleep(v_{k})",
    "loads": "r_{k} = json.loads(v_{k})",
    "rmtree": "shutil.rmtree(v_{k}, ignore_errors=True)",
    "exists": "if os.path.exists(v_{k}):\n    a = a + 1",
    "deepcopy": "snap_{k} = copy.deepcopy(v_{k})",
    "subprocess": "done_{k} = subprocess.run(v_{k}, check=False)",
    "read": "text_{k} = open(v_{k}).read()",
    "with": "with open(v_{k}) as fh_{k}:\n    line_{k} = fh_{k}.readline()",
    "comprehension": "dumped_{k} = [json.dumps(v_{k}) for _ in range(2)]",
    "nested": "total = len(str(json.loads(v_{k}))) + a",
    "sympy": "expr_{k} = sympy.simplify(v_{k}) if a else sympy.sympify(v_{k}, rational=True)",
}
#: Offenders where the call itself cannot be awaited: only the invariants are checked there.
ELSEWHERE = [
    "def inner_{k}():\n    time.sleep(v_{k})",  # a nested sync def nobody calls
    "def inner_{k}():\n    return json.loads(v_{k})\n\nres_{k} = inner_{k}()",  # ... that the function calls
    "cb_{k} = lambda: time.sleep(v_{k})",
    "cb_{k} = lambda: shutil.rmtree(v_{k})\ncb_{k}()",
    "helper_{k}(v_{k})",  # a module-level sync helper with offenders of its own (added below)
]
HELPER = "def helper_{k}(path):\n    time.sleep(0)\n    with open(path) as fh:\n        return fh.read()\n"

EXPRESSIONS = [
    "1",
    "a + 1",
    "len(items)",
    "str(b)",
    "[x * 2 for x in range(3)]",
    "{'k': a, 'n': [1, 2]}",
    "a if b else c",
    "(a, b)",
    "f'{a}-{b}'",
    "sorted(items)[0] if items else None",
    "not a",
    "-a * (b or 1)",
    "max(a, 2)",
    "items[1:] + [c]",
]
TARGETS = ["a", "b", "c", "total", "items"]


@dataclass(frozen=True)
class Offender:
    key: int
    kind: str  # a DIRECT kind
    function: str
    #: ``asyncio`` can be written there: imported under another name, or its own name is free
    #: (not a parameter of the function, not rebound by the module). Where it cannot, the fix
    #: must decline rather than write ``asyncio.to_thread`` through the wrong object.
    fixable: bool


@dataclass
class Program:
    text: str
    offenders: list[Offender]  # DIRECT ones, in async bodies
    lines: dict[int, int]  # offender key -> line of its call in ``text``


@st.composite
def simple_statements(draw) -> str:
    shape = draw(st.integers(0, 7))
    target, expression = draw(st.sampled_from(TARGETS)), draw(st.sampled_from(EXPRESSIONS))
    if shape == 0:
        return f"{target} = {expression}"
    if shape == 1:
        return "a += 1"
    if shape == 2:
        return "pass"
    if shape == 3:
        return f"assert {expression} or True"
    if shape == 4:
        return f"# a comment about {target}\nprint({expression})"
    if shape == 5:
        return f"{target} = {expression}; c = {draw(st.sampled_from(EXPRESSIONS))}"
    if shape == 6:
        return "items = list(\n    [a, b],\n)  # laid out over lines"
    return f"b = {{'x': {expression}}}.get('x')"


def _indent(block: str) -> str:
    return "\n".join(("    " + line) if line else line for line in block.splitlines())


@st.composite
def blocks(draw, inner: list[str]) -> str:
    """A compound statement holding ``inner`` (statements already written)."""
    body = "\n".join(inner) or "pass"
    shape = draw(st.integers(0, 5))
    if shape == 0:
        return f"if a > {draw(st.integers(0, 3))}:\n{_indent(body)}\nelse:\n    b = a"
    if shape == 1:
        return f"for x in range(2):\n{_indent(body)}"
    if shape == 2:
        return f"while c is None and a < 0:\n{_indent(body)}\n    break"
    if shape == 3:
        return f"try:\n{_indent(body)}\nexcept Exception as exc:\n    c = str(exc)\nfinally:\n    b = 1"
    if shape == 4:
        return f"with contextlib.nullcontext(a) as cm:\n{_indent(body)}"
    return f"if b:\n{_indent(body)}"


@st.composite
def programs(draw) -> Program:
    counter = iter(range(1000))
    offenders: list[Offender] = []
    helpers: list[str] = []
    functions: list[str] = []
    rebinds_asyncio = draw(st.integers(0, 9)) == 0  # `asyncio = None` at module level: every fix declines
    aliased = draw(st.booleans())  # `import asyncio as aio` already there
    for index in range(draw(st.integers(1, 4))):
        name = f"f_{index}"
        is_async = draw(st.integers(0, 4)) > 0
        shadows = is_async and draw(st.integers(0, 7)) == 0  # a parameter named `asyncio`
        statements: list[str] = []
        keys: list[int] = []
        for _ in range(draw(st.integers(1, 6))):
            roll = draw(st.integers(0, 9))
            if roll < 4:
                statements.append(draw(simple_statements()))
                continue
            k = next(counter)
            keys.append(k)
            if roll < 8 and is_async:
                kind = draw(st.sampled_from(sorted(DIRECT)))
                offenders.append(Offender(k, kind, name, fixable=aliased or not (shadows or rebinds_asyncio)))
                statement = DIRECT[kind].format(k=k)
            else:
                template = draw(st.sampled_from(ELSEWHERE))
                statement = template.format(k=k)
                if template.startswith("helper_"):
                    helpers.append(HELPER.format(k=k))
            if draw(st.booleans()):  # inside a block, with filler around it
                statement = draw(blocks([draw(simple_statements()), statement]))
            statements.append(statement)
        params = ["a", "b", "c", "items", *(f"v_{k}" for k in keys), *(["asyncio"] if shadows else [])]
        body = "\n".join(statements) + "\nreturn a"
        header = f"{'async ' if is_async else ''}def {name}({', '.join(params)}):"
        function = f"{header}\n{_indent(body)}\n"
        if draw(st.integers(0, 3)) == 0:  # the same function as a method
            function = (
                f"class C_{index}:\n    marker = {index}\n\n{_indent(function.replace('(a, ', '(self, a, ', 1))}\n"
            )
        functions.append(function)
    head = (
        "import contextlib\nimport copy\nimport json\nimport os\nimport shutil\nimport subprocess\nimport time\n"
        "\nimport sympy\n"
    )
    if aliased:
        head = "import asyncio as aio\n" + head
    if rebinds_asyncio:
        head += "\nasyncio = None\n"
    text = head + "\n\n" + "\n\n".join([*helpers, *functions])
    lines = {}
    for offender in offenders:
        pattern = re.compile(rf"\b(v_{offender.key})\b")
        lines[offender.key] = next(
            n
            for n, line in enumerate(text.splitlines(), 1)
            if pattern.search(line) and not re.match(r"\s*(async )?def ", line)
        )
    return Program(text, offenders, lines)


# --- what the fixed code must satisfy -------------------------------------------------------------


def _sync_scopes_with_await(tree: ast.AST) -> list[str]:
    """``await`` directly inside a sync ``def`` or a ``lambda`` (not crossing into an async def)."""
    found = []

    def visit(node: ast.AST, sync: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.AsyncFunctionDef):
                visit(child, None)
            elif isinstance(child, ast.FunctionDef | ast.Lambda):
                visit(child, getattr(child, "name", "lambda"))
            else:
                if isinstance(child, ast.Await) and sync is not None:
                    found.append(sync)
                visit(child, sync)

    visit(tree, None)
    return found


def _captured_names(tree: ast.AST) -> list[str]:
    """``X.to_thread`` / ``X.sleep`` / ``X.get_running_loop`` written through an ``X`` the function
    binds itself (a parameter or a local): the fix meant the module and got something else."""
    bad = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.AsyncFunctionDef | ast.FunctionDef):
            continue
        arguments = function.args
        bound = {a.arg for a in [*arguments.args, *arguments.posonlyargs, *arguments.kwonlyargs]}
        bound |= {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for node in ast.walk(function):
            awaited_sleep = isinstance(node, ast.Await) and isinstance(node.value, ast.Call)
            attribute = node.value.func if awaited_sleep else node
            if (
                isinstance(attribute, ast.Attribute)
                and attribute.attr in (("sleep", "to_thread") if awaited_sleep else ("to_thread", "get_running_loop"))
                and isinstance(attribute.value, ast.Name)
                and attribute.value.id in bound
            ):
                bad.append(f"{attribute.value.id}.{attribute.attr} in {function.name}")
    return bad


def _awaited_off_the_loop(tree: ast.AST, key: int) -> bool:
    """The offender ``key`` now runs awaited: an ``await`` of ``X.sleep``/``X.to_thread``/
    ``loop.run_in_executor`` whose arguments read ``v_key``, or of ``to_thread(helper)`` where
    ``helper`` is a sync def holding the offender's ``with`` block."""
    name = f"v_{key}"
    helpers = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(n, ast.With) for n in ast.walk(node))
        and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))
    }
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Await) and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        if not (isinstance(call.func, ast.Attribute) and call.func.attr in ("sleep", "to_thread", "run_in_executor")):
            continue
        reads = {n.id for arg in call.args for n in ast.walk(arg) if isinstance(n, ast.Name)}
        if name in reads or reads & helpers:
            return True
    return False


def _statements(tree: ast.AST) -> list[ast.stmt]:
    """Every statement of the module, of classes and of functions (recursively through blocks)."""
    return [node for node in ast.walk(tree) if isinstance(node, ast.stmt)]


def _unchanged_outside_edits(before: str, after: str) -> list[str]:
    """Statements of ``before`` on lines the diff leaves equal must reappear, equal, at the lines
    those map to in ``after``."""
    old_lines, new_lines = before.splitlines(), after.splitlines()
    moved: dict[int, int] = {}  # 1-based line in before -> line in after, for equal lines
    for tag, i1, i2, j1, _ in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            for offset in range(i2 - i1):
                moved[i1 + offset + 1] = j1 + offset + 1
    after_statements: dict[int, set[str]] = {}
    for statement in _statements(ast.parse(after)):
        after_statements.setdefault(statement.lineno, set()).add(ast.dump(statement))
    changed = []
    for statement in _statements(ast.parse(before)):
        span = range(statement.lineno, statement.end_lineno + 1)
        if all(line in moved for line in span) and all(moved[line] - moved[span[0]] == line - span[0] for line in span):
            if ast.dump(statement) not in after_statements.get(moved[statement.lineno], set()):
                changed.append(f"line {statement.lineno}: {ast.unparse(statement).splitlines()[0]}")
    return changed


@settings(FIX, max_examples=_LONG or 40)
@given(program=programs())
def test_fixed_programs_compile_stay_fixed_and_change_only_the_offenders(program: Program):
    outcome = fix(program.text)
    result = outcome.texts["generated.py"]
    tree = ast.parse(result)
    compile(result, "<fixed>", "exec", dont_inherit=True)
    assert fix(result).texts["generated.py"] == result, "not a fixed point"
    assert not _sync_scopes_with_await(tree), "await in a sync function or lambda"
    assert not _captured_names(tree), "a module written through a local name"
    assert not (changed := _unchanged_outside_edits(program.text, result)), f"changed outside the edits: {changed}"
    checked_lines = {finding.line for finding in outcome.checked}
    fixed = [applied.finding for applied in outcome.applied]  # as check reported them
    left = dict(zip(outcome.as_checked([item.finding for item in outcome.left]), outcome.left, strict=True))
    for offender in program.offenders:
        line = program.lines[offender.key]
        assert line in checked_lines, f"offender {offender} on line {line} was not reported"
        on_line = [f for f in outcome.checked if f.line == line]
        if offender.fixable:
            assert all(f in fixed for f in on_line), (
                f"{offender} not fixed: {[left[f].reason for f in on_line if f in left]}"
            )
            assert _awaited_off_the_loop(tree, offender.key), f"{offender} claimed fixed, but nothing is awaited"
        else:
            assert all(f in left and "asyncio" in left[f].reason for f in on_line), f"{offender} fixed through a clash"


# --- generated async functions, run before and after ----------------------------------------------

#: Offending expressions with deterministic values, given the files the test creates.
RUNNABLE = [
    "os.path.exists(FILE)",
    "json.dumps({'k': [1, 2], 'file': FILE})",
    "time.sleep(0)",
    "sorted(os.listdir(DIR))",
    "Path(FILE).read_text()",
    "copy.deepcopy([1, {'a': 2}, FILE])",
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
def runnable_bodies(draw) -> list[str]:
    count = draw(st.integers(min_value=1, max_value=5))
    body = []
    for index in range(count):
        shape = draw(st.sampled_from(SHAPES))
        expression = draw(st.sampled_from(RUNNABLE))
        body.append(f"marker_{index} = {index}")  # code between the offenders that must not move
        body.append(shape.format(e=expression))
    return body


def _run(text: str, name: str) -> list:
    module = types.ModuleType(name)
    exec(compile(text, name, "exec"), module.__dict__)
    return asyncio.run(module.generated())


@settings(FIX, max_examples=_LONG or 25)
@given(body=runnable_bodies())
def test_generated_functions_compute_the_same_after_fixing(body: list[str], tmp_path_factory):
    workspace = tmp_path_factory.mktemp("fix-properties")
    (workspace / "b.json").write_text('{"n": [1, 2, 3]}', encoding="utf-8")
    prelude = PRELUDE.format(dir=str(workspace), file=str(workspace / "a.txt"), json=str(workspace / "b.json"))
    lines = [f"    {line}" for statement in body for line in statement.splitlines()]
    text = prelude + "\n".join(lines) + "\n    return out\n"
    outcome = fix(text)
    result = outcome.texts["generated.py"]
    compile(result, "<fixed>", "exec")
    assert fix(result).texts["generated.py"] == result, "not a fixed point"
    assert "asyncio" in result and all(left.reason for left in outcome.left)  # (a helper can be ambiguous)
    assert _run(text, "before") == _run(result, "after")
    assert not _unchanged_outside_edits(text, result)
    assert "def untouched(x):\n    return [x, x * 2]" in result
