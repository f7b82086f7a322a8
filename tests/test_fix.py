"""``asynclint fix`` in memory: goldens, what ``check`` says about fixes, declines, verification.

Goldens: every rule fixture ``tests/fixtures/<rule>.py`` and every recipe fixture
``tests/fixtures/fixers/<recipe>.py`` has a ``.fixed.py`` beside it: the result of fixing it at
severity low with ``--unsafe-fixes``. Review a changed golden as you would a human's diff, then
regenerate with ``ASYNCLINT_REGENERATE=1 python -m pytest tests/test_fix.py``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import libcst as cst
import pytest
from conftest import check_text, graph_of

from asynclint import fixers
from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.fixers.base import Decline, Edit, Fix
from asynclint.fixers.orchestrator import FixOutcome, finding_key, fix_sources
from asynclint.model import Severity
from asynclint.pipeline import check_sources

FIXTURES = Path(__file__).parent / "fixtures"
RECIPES = FIXTURES / "fixers"
PROJECTS = FIXTURES / "projects"
REGENERATE = os.environ.get("ASYNCLINT_REGENERATE") == "1"


def fix_text(path: Path, text: str, *, unsafe: bool = True, severity: Severity = Severity.LOW) -> FixOutcome:
    source = SourceFile(str(path), text, module=path.stem, package="")
    return fix_sources([source], Config(root=path.parent, min_severity=severity), unsafe=unsafe)


def lint(path: Path, text: str):
    result = check_text(text, path)
    assert not result.errors, result.errors
    return result.findings


def inputs() -> list[Path]:
    found = [*FIXTURES.glob("*.py"), *RECIPES.glob("*.py")]
    return sorted(path for path in found if not path.name.endswith(".fixed.py"))


def golden(path: Path) -> Path:
    return path.with_name(path.stem + ".fixed.py")


@pytest.mark.parametrize("path", inputs(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_golden(path: Path):
    text = path.read_text(encoding="utf-8")
    outcome = fix_text(path, text)
    fixed = outcome.texts[str(path)]
    if REGENERATE:
        golden(path).write_text(fixed, encoding="utf-8")
    expected = golden(path).read_text(encoding="utf-8")
    assert fixed == expected, f"fix({path.name}) differs from its golden: review, then ASYNCLINT_REGENERATE=1"
    compile(expected, str(golden(path)), "exec")
    assert fix_text(path, expected).texts[str(path)] == expected, "fixing the golden again must change nothing"
    # Re-linting the golden finds none of what the fix claimed (counted: a message can repeat).
    before = Counter(finding_key(f) for f in lint(path, text))
    after = Counter(finding_key(f) for f in lint(path, expected))
    claimed = Counter(finding_key(applied.finding) for applied in outcome.applied)
    for key, count in claimed.items():
        assert after[key] <= max(0, before[key] - count), f"{key} is still reported in the golden"
    # The report adds up: fixed + left + resolved by other fixes = what `check` reported.
    left = [item for item in outcome.left if item not in outcome.introduced]
    fixed = {applied.finding for applied in outcome.applied} & set(outcome.checked)  # not what a fix made
    assert len(fixed) + len(left) + len(outcome.resolved) == len(outcome.checked)
    assert fixed | set(outcome.as_checked([item.finding for item in left])) | set(outcome.resolved) == set(
        outcome.checked
    )


def test_every_fixture_has_a_golden_and_every_golden_a_fixture():
    missing = [str(path) for path in inputs() if not golden(path).exists()]
    assert not missing, missing
    goldens = [*FIXTURES.glob("*.fixed.py"), *RECIPES.glob("*.fixed.py")]
    orphans = [
        str(path)
        for path in goldens
        if not path.with_name(path.name.removesuffix(".fixed.py") + ".py").exists() or path.name.count(".fixed") > 1
    ]
    assert not orphans, orphans


@pytest.mark.parametrize("path", [p for p in inputs() if p.parent == FIXTURES], ids=lambda p: p.stem)
def test_safe_mode_applies_only_safe_fixes(path: Path):
    text = path.read_text(encoding="utf-8")
    outcome = fix_text(path, text, unsafe=False)
    assert all(applied.safe for applied in outcome.applied)
    compile(outcome.texts[str(path)], str(path), "exec")  # (fixed points: see test_golden, a superset)
    assert all(left.reason for left in outcome.left)
    assert all("--unsafe-fixes" in left.reason for left in outcome.left if "unsafe" in left.reason)


# --- what `check` says about fixes ---------------------------------------------------------------


def _findings(source: str):
    return lint(Path("snippet.py"), textwrap.dedent(source))


def test_check_marks_safe_unsafe_and_missing_fixes():
    findings = _findings("""
        import time, sympy

        async def handler(state):
            time.sleep(1)
            return sympy.simplify(state["answer"])

        def _heartbeat():
            time.sleep(0.1)

        async def schedule(loop):
            loop.call_soon(_heartbeat)
    """)
    by_line = {f.line: f for f in findings}
    assert by_line[5].fix.safe and "asyncio.sleep" in by_line[5].fix.title
    assert by_line[6].fix.safe and "ProcessPoolExecutor" in by_line[6].fix.title  # pure: only its result matters
    assert by_line[9].fix is None  # a loop callback: no async def to await in, and asyncio would not await it


def test_helper_and_root_placements_are_named():
    findings = _findings("""
        import time
        import verifiers as vf

        def _wait():
            time.sleep(1)

        async def caller():
            _wait()

        CALLERS = [caller]  # named: something may run it (an environment's unnamed coroutine is dead)

        def reward(completion) -> float:
            time.sleep(1)
            return 1.0

        def load_environment():
            return vf.SingleTurnEnv(rubric=vf.Rubric(funcs=[reward]))
    """)
    titles = sorted(f.fix.title for f in findings)
    assert any(t.startswith("Offload the call of the sync helper") for t in titles), titles
    assert any(t.startswith("Make the framework callable `async def`") for t in titles), titles


def test_rules_table_and_json_know_which_rules_have_fixes():
    from asynclint.metadata import rule_meta
    from asynclint.rules import ALL_RULES

    # Every rule about code has a fix; an unused suppression is the user's comment to edit, and a
    # loop awaiting a blocking coroutine (ASL120) is fixed where the coroutine's blocking call is
    # reported (its own finding carries the fix).
    assert {rule.code for rule in ALL_RULES if not rule_meta(rule).fix_available} == {"ASL120", "ASL901"}
    assert fixers.fix_available("ASL999", frozenset()) is False


def test_check_never_imports_libcst():
    code = textwrap.dedent("""
        import sys
        from pathlib import Path
        from asynclint.config import Config
        from asynclint.engine import SourceFile
        from asynclint.pipeline import check_sources
        result = check_sources([SourceFile("x.py", "import time\\nasync def f():\\n    time.sleep(1)\\n", "x", "")],
                               Config(root=Path(".")))
        assert result.findings[0].fix is not None
        assert "libcst" not in sys.modules, "check imported libcst"
    """)
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr


# --- declines and their reasons ---------------------------------------------------------------------


def _left(source: str, unsafe: bool = True) -> dict[int, str]:
    outcome = fix_text(Path("snippet.py"), textwrap.dedent(source), unsafe=unsafe)
    return _reasons_by_line(outcome)


def _reasons_by_line(outcome: FixOutcome) -> dict[int, str]:
    """Why each finding was left, by its line in the source as given (not as fixed)."""
    placed = outcome.as_checked([left.finding for left in outcome.left])
    return {finding.line: left.reason for finding, left in zip(placed, outcome.left, strict=True)}


def test_unsafe_recipes_wait_for_the_flag():
    reasons = _left(
        """
        import sympy
        from sympy.parsing.sympy_parser import parse_expr

        async def tags(state, namespace):
            factors = sympy.factor(state["expression"])
            return parse_expr(state["answer"], local_dict=namespace), factors
    """,
        unsafe=False,
    )
    assert "needs --unsafe-fixes" in reasons[6] and "pickle" in reasons[6]  # not known to be pure
    assert "needs --unsafe-fixes" in reasons[7] and "`local_dict=` may hold values that do not pickle" in reasons[7]


def test_a_line_a_suppression_covers_is_never_rewritten():
    source = textwrap.dedent(
        """
        import json
        import time

        def helper():
            time.sleep(1)

        async def handle():
            helper()  # asynclint: ignore
            return 1

        async def load(path, state):
            # asynclint: ignore[inline-serialization]
            with open(path) as f:
                state["doc"] = f.read()
            data = json.loads(open(path).read())  # noqa: ASL111
            return data
    """
    )
    outcome = fix_text(Path("snippet.py"), source)
    placed = outcome.as_checked([left.finding for left in outcome.left])
    reasons = {f.line: left.reason for f, left in zip(placed, outcome.left, strict=True) if f.code != "ASL901"}
    # The helper's only route runs through the marked call: offloading it would rewrite that line;
    # the block under a comment line would be moved away from it; the marked call would be wrapped.
    assert set(reasons) == {6, 14, 16}, reasons
    assert "`helper()  # asynclint: ignore`, a line a suppression comment covers" in reasons[6]
    assert "`with open(path) as f:`" in reasons[14]
    assert "`data = json.loads(open(path).read())  # noqa: ASL111`" in reasons[16]
    assert outcome.texts["snippet.py"] == source
    # Unmarked, the same code is fixed.
    unmarked = re.sub(r"  # (asynclint: ignore|noqa: ASL111)|\n *# asynclint: ignore\[.*\]", "", source)
    assert not fix_text(Path("snippet.py"), unmarked).left


def test_check_advertises_exactly_the_fixes_fix_makes():
    # exec/eval/compile cannot run in a worker process: no fix is advertised, none is tried,
    # also when a configuration names the process-pool recipe for one of them.
    from asynclint.knowledge.blocking import BlockingApi

    source = textwrap.dedent("""
        async def run(code, state):
            exec(code, {})
            return eval(state["expression"])
    """)
    configured = BlockingApi("builtins.eval", "cpu", "cpu-heavy", "process-pool")
    for config in (Config(root=Path(".")), Config(root=Path("."), blocking_apis=(configured,))):
        findings = check_text(source, "snippet.py", config).findings
        assert [f.line for f in findings] == [3, 4] and all(f.fix is None for f in findings)
    for unsafe in (False, True):
        reasons = _left(source, unsafe=unsafe)
        assert set(reasons) == {3, 4} and all("no automatic fix" in r for r in reasons.values()), reasons


SHARED_STATE_HELPER = """
    import json


    class Env:
        def record(self, key):
            self.seen += 1
            with open(self.path) as f:
                data = json.load(f)
            return data

        def lookup(self, key, table):
            with open(self.path) as f:
                table[key] = json.load(f)
            return table

        async def step(self, key):
            return self.record(key), self.lookup(key, {})
"""


def test_offloading_a_helper_that_changes_shared_state_is_unsafe():
    # On the loop, `record`'s steps never interleave with another rollout's; in a thread they do.
    reasons = _left(SHARED_STATE_HELPER, unsafe=False)
    assert set(reasons) == {8}  # the open in `record` (its json.load folded in); `lookup` only fills its argument
    assert all("needs --unsafe-fixes" in r and "`self.seen = ...` in `Env.record`" in r for r in reasons.values())
    fixed = fix_text(Path("snippet.py"), textwrap.dedent(SHARED_STATE_HELPER), unsafe=True)
    assert not fixed.left
    assert (
        "return await asyncio.to_thread(self.record, key), await asyncio.to_thread(self.lookup, key, {})"
        in (fixed.texts["snippet.py"])
    )


def test_a_helper_opening_a_file_in_a_mode_it_may_write_with_is_offloaded_only_as_unsafe():
    # A mode that is not a literal may be "w": two rollouts could then write one file at once.
    reasons = _left(
        """
        import gzip
        from pathlib import Path

        def save(path, mode, text):
            with open(path, mode) as f:
                f.write(text)

        def append(path, text):
            with Path(path).open("a") as f:
                f.write(text)

        def passed_on(path, *args):
            with open(path, *args) as f:
                return f.read()

        def load(path):
            with gzip.open(path, encoding="utf-8") as f:
                return f.read()

        async def handler(path, mode):
            save(path, mode, "x")
            append(path, "y")
            passed_on(path)
            return load(path)
        """,
        unsafe=False,
    )
    assert set(reasons) == {6, 10, 14}  # `load` reads (gzip.open's mode comes second): offloaded as safe
    assert all("needs --unsafe-fixes" in reason and "`open(..., 'w')`" in reason for reason in reasons.values())


def test_a_with_block_is_named_for_what_its_open_mode_may_do():
    fixed = fix_text(
        Path("snippet.py"),
        textwrap.dedent("""\
            from pathlib import Path


            async def method_mode(path):
                with Path(path).open("w") as f:
                    f.write("x")


            async def unknown_mode(path, mode):
                with open(path, mode) as f:
                    f.write("y")


            async def method_default(path):
                with Path(path).open(encoding="utf-8") as f:
                    text = f.read()
                return text
        """),
    ).texts["snippet.py"]
    assert fixed.count("    def _write_file():\n") == 2
    assert "text = await asyncio.to_thread(_read_text)" in fixed


def test_a_with_block_that_changes_shared_state_waits_for_unsafe_fixes():
    # As for an offloaded helper: in a worker thread the block runs concurrently with other rollouts.
    reasons = _left(
        """
        def make_counter():
            total = 0

            async def count(path):
                nonlocal total
                with open(path) as f:
                    total += len(f.read())
                return total

            return count

        class Reader:
            async def remember(self, path):
                with open(path) as f:
                    self.reads += 1
                    self.last = f.read()
                return self.last

        async def local_only(path, seen):
            with open(path) as f:
                seen.append(f.read())
            return seen
        """,
        unsafe=False,
    )
    assert set(reasons) == {7, 15}  # `local_only` fills its own argument: still a safe fix
    assert "needs --unsafe-fixes" in reasons[7] and "`total`, declared `nonlocal`" in reasons[7]
    assert "needs --unsafe-fixes" in reasons[15] and "`self.reads = ...`" in reasons[15]


def test_an_opened_object_is_offloaded_only_with_its_use():
    # `f = await asyncio.to_thread(open, p)` would leave every read on the loop, and hide it.
    reasons = _left("""
        import tempfile
        import zipfile

        async def handler(path):
            f = open(path)
            data = f.read()
            for line in open(path):
                data += line
            archive = zipfile.ZipFile(path)
            scratch = tempfile.NamedTemporaryFile()
            return data, open(path).read(), zipfile.ZipFile(path).namelist(), archive, scratch
    """)
    assert set(reasons) == {6, 8, 10, 11}
    assert all("would stay on the loop" in reason and "`with` block" in reason for reason in reasons.values())


def test_a_property_read_goes_to_the_thread_only_with_a_receiver_that_runs_no_code():
    # `driver.title` is read in the thread (`lambda: driver.title`); a receiver that calls
    # something would be called there too.
    source = """
        from selenium import webdriver

        async def lease() -> webdriver.Chrome:
            return POOL.pop()

        async def titles(driver: webdriver.Chrome):
            return driver.title, (await lease()).title, driver.switch_to.alert.text
    """
    outcome = fix_text(Path("snippet.py"), textwrap.dedent(source))
    assert _reasons_by_line(outcome) == {
        8: "the receiver `(await lease())` runs code, which would move into the worker thread with the read: bind it"
        " to a name first"
    }
    # The line would grow too long: the first read is stored in a local first.
    fixed = """
        title_2 = await asyncio.to_thread(lambda: driver.title)
        return title_2, (await lease()).title, await asyncio.to_thread(lambda: driver.switch_to.alert.text)
    """
    assert textwrap.indent(textwrap.dedent(fixed).strip(), "    ") in outcome.texts["snippet.py"]


def test_a_with_block_declines_a_name_it_assigns_only_on_some_paths():
    reasons = _left("""
        async def behind_or(path, known):
            with open(path) as f:
                if known or (size := len(f.read())):
                    pass
            return size
    """)
    assert reasons == {3: "the `with` block assigns `size` only on some paths"}


def test_a_with_block_goes_with_the_parse_after_it_or_not_at_all():
    # The parse of the text as read is the opener's finding: moving the block without it would
    # leave it on the loop, reported nowhere.
    reasons = _left("""
        import json

        async def last_task(paths):
            for path in paths:
                with open(path) as f:
                    text = f.read()
            return json.loads(text)

        async def awaited_between(path, client):
            with open(path) as f:
                text = f.read()
            await client.ping()
            return json.loads(text)
    """)
    assert reasons == {
        6: "the `json.loads` of what the `with` block reads is not in the statements that follow the block:"
        " moved alone, the block would leave it on the loop",
        11: "the `with` block, with the statements after it up to the parse of what it reads, contains `await`",
    }


def test_a_with_block_that_uses_the_event_loop_stays_on_it():
    # In a worker thread `get_running_loop()` raises, and a loop's (or queue's) methods are not
    # thread-safe: whatever name the block reaches asyncio, anyio or trio by.
    source = """
        import asyncio as aio
        import anyio as aa
        from asyncio import get_running_loop

        LOOP = aio.new_event_loop()

        async def alias(path):
            with open(path) as f:
                loop = aio.get_running_loop()
                data = f.read()
            return data, loop

        async def imported_function(path):
            with open(path) as f:
                return_here = get_running_loop()
                data = f.read()
            return data, return_here

        async def running_loop_local(path):
            running = aio.get_running_loop()
            scheduler = running
            with open(path) as f:
                scheduler.call_soon(print)
                data = f.read()
            return data

        async def module_loop(path):
            with open(path) as f:
                LOOP.call_soon(print)
                data = f.read()
            return data

        async def other_library(path):
            with open(path) as f:
                aa.get_cancelled_exc_class()
                data = f.read()
            return data

        async def loop_parameter(path, loop):
            with open(path) as f:
                loop.call_soon(print)
                data = f.read()
            return data

        class Client:
            async def read(self, path):
                with open(path) as f:
                    self._loop.call_soon(print)
                    data = f.read()
                return data

        async def keyword_only(path, send):
            with open(path) as f:
                send(f.read(), loop=None)  # a keyword called `loop` is not the loop

        async def gathered(path, jobs):
            results = await aio.gather(*jobs)  # the coroutines' results: data, not loop objects
            with open(path, "w") as f:
                f.write(str(results))
    """
    reasons = _left(source)
    suffix = ", which works only on the event loop's thread"
    assert reasons == {
        9: "the `with` block uses `aio` (from `asyncio`)" + suffix,
        15: "the `with` block uses `get_running_loop` (from `asyncio`)" + suffix,
        23: "the `with` block uses `scheduler`, obtained from `asyncio`" + suffix,
        29: "the `with` block uses `LOOP`, obtained from `asyncio`" + suffix,
        35: "the `with` block uses `aa` (from `anyio`)" + suffix,
        41: "the `with` block uses `loop`" + suffix,  # nothing says what it is: its name does
        48: "the `with` block uses `self._loop`" + suffix,
    }
    fixed = fix_text(Path("snippet.py"), textwrap.dedent(source)).texts["snippet.py"]
    assert "    await aio.to_thread(_write_file)\n" in fixed


def test_a_helper_that_uses_the_event_loop_is_not_offloaded():
    # `to_thread(schedule, ...)` would call `get_running_loop()` in a worker thread: RuntimeError.
    source = """
        import asyncio as aio
        import time

        def _now():
            return aio.get_running_loop().time()

        def schedule(delay):
            time.sleep(delay)
            return _now()

        def pause(delay):
            time.sleep(delay)

        async def handler(delay):
            pause(delay)
            return schedule(delay)
    """
    reasons = _left(source)
    assert reasons == {
        9: "the helper uses `aio` (from `asyncio`) in `_now`, which works only on the event loop's thread"
    }
    fixed = fix_text(Path("snippet.py"), textwrap.dedent(source)).texts["snippet.py"]
    assert "    await aio.to_thread(pause, delay)\n" in fixed  # `pause` alone is offloaded


def test_thread_bound_connections_are_not_moved_to_a_thread():
    reasons = _left("""
        import sqlite3

        async def rows(path):
            conn = sqlite3.connect(path)
            return conn.execute("select 1").fetchall()
    """)
    assert "thread that opened them" in reasons[5]


def test_a_sync_callable_the_framework_does_not_await_is_left_with_the_reason():
    reasons = _left("""
        import time
        import verifiers as vf

        class Env(vf.StatefulToolEnv):
            def update_tool_args(self, tool_name, tool_args, messages, state, **kwargs):
                time.sleep(1)
                return tool_args
    """)
    assert "does not await `Env.update_tool_args`" in reasons[7]


def test_a_call_with_no_recipe_under_an_awaited_root_is_left_for_want_of_a_recipe():
    # The framework awaits a reward that is a coroutine: the root could become `async def`, so
    # the reason is the missing recipe for the call (was "the framework does not await it").
    reasons = _left("""
        import verifiers as vf
        from langdetect import detect

        def same_language(completion, answer, **kwargs) -> float:
            return float(detect(completion) == detect(answer))

        def load_environment():
            return vf.SingleTurnEnv(rubric=vf.Rubric(funcs=[same_language]))
    """)
    assert reasons[6] == (
        "no automatic fix: the knowledge base names no fix recipe for `langdetect.detect` called from a framework hook"
    )


def test_a_sync_callable_is_made_async_only_when_the_framework_alone_uses_it():
    env = textwrap.dedent("""\
        import functools
        import time

        import verifiers as vf


        def judge(completion, answer) -> float:
            time.sleep(0.1)
            return 1.0


        def batch(completions, answers):
            return list(map(judge, completions, answers))


        @functools.lru_cache
        def cached(completion) -> float:
            time.sleep(0.1)
            return 1.0


        def tested(completion) -> float:
            time.sleep(0.1)
            return 1.0


        @vf.stop
        def done(state) -> bool:
            time.sleep(0.1)
            return True


        def load_environment():
            return vf.SingleTurnEnv(rubric=vf.Rubric(funcs=[judge, cached, tested]))
    """)
    test = "from env import tested\n\n\ndef test_tested():\n    assert tested('a') == 1.0\n"
    sources = [SourceFile("env.py", env, "env", ""), SourceFile("tests/test_env.py", test, "test_env", "")]
    outcome = fix_sources(sources, Config(root=Path("."), min_severity=Severity.LOW))
    reasons = _reasons_by_line(outcome)
    assert "passed to `map` in `batch` (env.py)" in reasons[8] and "would get a coroutine" in reasons[8]
    assert "decorated with `@functools.lru_cache`" in reasons[18]
    assert "called in `test_tested` (tests/test_env.py)" in reasons[23]
    assert "async def done(state)" in outcome.texts["env.py"]  # the framework's own decorator hands it through
    assert outcome.texts["tests/test_env.py"] == test


HELPER_CALLED_TWICE = """\
import json


def _read(path):
    with open(path) as f:
        return json.load(f)


async def both(first, second):
    x = _read(first)
    y = _read(second)
    return x, y


async def other(path):
    return _read(path)
"""


def test_a_helper_is_offloaded_at_every_call_from_async_code_and_counted_as_check_counts():
    checked = lint(Path("snippet.py"), HELPER_CALLED_TWICE)
    assert len(checked) == 1  # the open in `_read`, its json.load folded in (one finding per file object)
    outcome = fix_text(Path("snippet.py"), HELPER_CALLED_TWICE, unsafe=False)
    fixed = outcome.texts["snippet.py"]
    assert fixed.count("await asyncio.to_thread(_read, ") == 3 and not outcome.left
    assert sorted((a.finding for a in outcome.applied), key=lambda f: f.line) == list(checked)  # as check said
    assert "3 calls of the sync helper `_read` in `both`, `other`" in outcome.applied[0].title


def _fix_package(util: str, a: str, b: str) -> FixOutcome:
    """Fix ``pkg`` made of a helper module ``util`` and two modules ``a`` and ``b`` calling it."""
    sources = [
        SourceFile("pkg/__init__.py", "", "pkg", "pkg"),
        SourceFile("pkg/util.py", util, "pkg.util", "pkg"),
        SourceFile("pkg/a.py", a, "pkg.a", "pkg"),
        SourceFile("pkg/b.py", b, "pkg.b", "pkg"),
    ]
    return fix_sources(sources, Config(root=Path("."), min_severity=Severity.LOW))


def test_a_helper_called_from_two_modules_is_offloaded_in_both_by_one_fix():
    util = "import json\n\n\ndef read(p):\n    with open(p) as f:\n        return json.load(f)\n"
    a = "from pkg.util import read\n\n\nasync def a(p):\n    return read(p)\n"
    b = "from .util import read\n\n\nasync def b(p):\n    x = read(p)\n    return x\n"
    outcome = _fix_package(util, a, b)
    assert not outcome.left and len(outcome.applied) == 1  # the open, its json.load folded in
    assert "return await asyncio.to_thread(read, p)" in outcome.texts["pkg/a.py"]
    assert "x = await asyncio.to_thread(read, p)" in outcome.texts["pkg/b.py"]
    assert all(text.count("import asyncio") == 1 for text in (outcome.texts["pkg/a.py"], outcome.texts["pkg/b.py"]))
    assert {applied.paths for applied in outcome.applied} == {("pkg/a.py", "pkg/b.py")}


def test_a_helper_offloaded_in_several_modules_adds_to_each_only_the_import_it_needs():
    util = "def read(p):\n    with open(p) as f:\n        return f.read()\n"
    a = "from pkg.util import read\n\n\nasync def a(p):\n    return read(p)\n"
    b = "import asyncio as aio\n\nfrom pkg.util import read\n\n\nasync def b(p):\n    await aio.sleep(0)\n"
    b += "    return read(p)\n"
    outcome = _fix_package(util, a, b)
    assert not outcome.left
    assert outcome.texts["pkg/a.py"] == "import asyncio\n\n" + a.replace("read(p)", "await asyncio.to_thread(read, p)")
    assert outcome.texts["pkg/b.py"] == b.replace("return read(p)", "return await aio.to_thread(read, p)")


def test_a_helper_fix_that_would_leave_a_route_on_the_loop_is_declined():
    reasons = _left(HELPER_CALLED_TWICE + "\n\nasync def lazily(paths):\n    return list(_read(p) for p in paths)\n")
    assert set(reasons) == {5}  # the open, its json.load folded in
    assert all("inside a generator expression in `lazily`" in reason for reason in reasons.values())


def test_verification_counts_a_finding_reached_by_another_route_as_still_there(monkeypatch):
    # Offloading only the chain's call changes the finding's message (now reached from `other`),
    # not the finding: the fix must not pass as having removed it.
    from asynclint.fixers import to_thread
    from asynclint.fixers.project import FixProject

    monkeypatch.setattr(FixProject, "sites", lambda self, finding: (self.site(finding),))
    _install(monkeypatch, to_thread.fix)
    outcome = fix_text(Path("snippet.py"), HELPER_CALLED_TWICE)
    assert outcome.texts["snippet.py"] == HELPER_CALLED_TWICE
    assert all("still reported after the edit" in left.reason for left in outcome.left)


def test_calls_are_placed_where_their_code_runs():
    # A default value runs in the function around the `def`; a class body cannot await.
    source = textwrap.dedent("""\
        import time as t


        async def deco():
            def inner(d=t.sleep(0.1)):
                return d

            class K:
                v = t.sleep(0.1)

            return inner, K
    """)
    outcome = fix_text(Path("snippet.py"), source)
    assert "def inner(d=await asyncio.sleep(0.1)):" in outcome.texts["snippet.py"]
    [left] = outcome.left
    assert outcome.as_checked([left.finding])[0].line == 9
    assert left.reason == "the call runs in the body of class `K`, where `await` cannot go"


def test_each_fix_and_reason_is_reported_at_its_own_finding():
    source = textwrap.dedent("""\
        import time
        from time import sleep


        async def f(path):
            sleep(1)
            time.sleep(
                2)
            handle = open(path)
            other = open(path)
            return handle, other, open(path).read()
    """)
    outcome = fix_text(Path("snippet.py"), source)
    applied = {applied.finding.line: applied.title for applied in outcome.applied}  # each at its line in `source`
    assert "`sleep`" in applied[6] and "`time.sleep`" in applied[7] and "open(path).read" in applied[11]
    placed = outcome.as_checked([left.finding for left in outcome.left])
    assert sorted(f.line for f in placed) == [9, 10]


def test_process_pool_title_says_when_a_root_was_made_async():
    # As the other recipes' titles do (Site.did): the call, or the helper's call, moved at a root.
    source = textwrap.dedent("""\
        import sympy
        import verifiers as vf


        def reward_simplified(completion, answer) -> float:
            return float(str(sympy.simplify(completion)) == answer)


        def _expand(text):
            return sympy.expand(text)


        def reward_expanded(completion, answer) -> float:
            return float(str(_expand(completion)) == answer)


        def load_environment(**kwargs) -> vf.Environment:
            return vf.SingleTurnEnv(dataset=None, rubric=vf.Rubric(funcs=[reward_simplified, reward_expanded]))
    """)
    outcome = fix_text(Path("snippet.py"), source)
    assert {applied.finding.line: applied.title for applied in outcome.applied} == {
        6: "made `reward_simplified` `async def` and ran `sympy.simplify` in the module-level process pool "
        "`_PROCESS_POOL`",
        10: "made `reward_expanded` `async def` and ran `_expand` in the module-level process pool `_PROCESS_POOL`",
    }
    assert "async def reward_expanded" in outcome.texts["snippet.py"]


# --- verification guards every edit ----------------------------------------------------------------


OFFENDER = """\
import time


async def handler():
    time.sleep(1)
"""


def _install(monkeypatch, make_fix):
    """Make every recipe answer with ``make_fix(finding, project)``."""
    monkeypatch.setattr(fixers, "load", lambda name: make_fix)


def test_a_fix_that_does_not_compile_is_reported_and_not_applied(monkeypatch):
    def broken(finding, project):
        file, call = project.locate(finding)
        function = file.enclosing_function(call)
        sync = function.with_changes(asynchronous=None, body=function.body.deep_replace(call, cst.Await(call)))
        return Fix(finding.path, (Edit(function, sync),), "to-thread", True, "broken", claims=(finding,))

    _install(monkeypatch, broken)
    outcome = fix_text(Path("snippet.py"), OFFENDER)
    assert outcome.texts["snippet.py"] == OFFENDER
    assert not outcome.applied
    assert "failed verification" in outcome.left[0].reason and "does not compile" in outcome.left[0].reason


def test_a_fix_that_leaves_its_finding_is_reported_and_not_applied(monkeypatch):
    def useless(finding, project):
        file, call = project.locate(finding)
        return Fix(
            finding.path,
            (Edit(call, call.with_changes(args=[cst.Arg(cst.Integer("2"))])),),
            "to-thread",
            True,
            "useless",
            claims=(finding,),
        )

    _install(monkeypatch, useless)
    outcome = fix_text(Path("snippet.py"), OFFENDER)
    assert outcome.texts["snippet.py"] == OFFENDER
    assert "still reported" in outcome.left[0].reason


def test_a_crashing_fixer_costs_one_fix_not_the_run(monkeypatch):
    def crash(finding, project):
        raise RuntimeError("boom")

    _install(monkeypatch, crash)
    outcome = fix_text(Path("snippet.py"), OFFENDER)
    assert outcome.texts["snippet.py"] == OFFENDER
    assert "internal error" in outcome.left[0].reason and "boom" in outcome.left[0].reason


def test_a_declining_fixer_leaves_the_file_alone(monkeypatch):
    _install(monkeypatch, lambda finding, project: Decline("not sure"))
    outcome = fix_text(Path("snippet.py"), OFFENDER)
    assert outcome.texts["snippet.py"] == OFFENDER and outcome.left[0].reason == "not sure"


STREAMS = """\
import anthropic
import httpx
from google import genai

CLIENT = genai.Client()
CLAUDE = anthropic.Anthropic()
HTTP = httpx.Client()


async def reply(prompt):
    for chunk in CLIENT.models.generate_content_stream(model="m", contents=prompt):
        print(chunk)
    events = CLAUDE.messages.stream(model="m", max_tokens=1, messages=[])
    response = HTTP.stream("GET", "https://example.com")
    return events, response
"""


def test_a_call_that_only_builds_a_stream_is_not_offloaded(monkeypatch):
    # The request goes out when the stream is iterated or entered, on the loop: a thread given
    # the call alone would take nothing off it, and check does not offer it either.
    from asynclint.fixers import to_thread

    checked = lint(Path("snippet.py"), STREAMS)
    assert [f.facts.callee for f in checked] == [
        "google.genai.Client.models.generate_content_stream",
        "anthropic.Anthropic.messages.stream",
        "httpx.Client.stream",
    ]
    assert all(f.fix is None or "thread" not in f.fix.title for f in checked), [f.fix for f in checked]
    _install(monkeypatch, to_thread.fix)
    outcome = fix_text(Path("snippet.py"), STREAMS)
    assert outcome.texts["snippet.py"] == STREAMS
    reasons = [left.reason for left in outcome.left]
    assert len(reasons) == 3 and all(
        "a worker thread given the call alone would take nothing off the loop" in reason for reason in reasons
    ), reasons
    assert "returns a generator that sends the request when iterated" in reasons[0]
    assert "returns a stream manager that sends the request when its `with` is entered" in reasons[1]


# Shapes on which a recipe once failed (an "internal error" decline) where it means to decline in words.
DEEPCOPY_OF_A_BUILTIN = """\
import copy


async def snapshot(state: dict) -> dict:
    return copy.deepcopy(state)
"""

CLIENT_HANDED_IN = """\
import openai


class Judge:
    def __init__(self, factory):
        self.client: openai.OpenAI = factory.client

    async def score(self, prompt):
        return self.client.chat.completions.create(model="m", messages=[{"role": "user", "content": prompt}])
"""


@pytest.mark.parametrize(
    ("recipe", "text", "reason"),
    [
        # `dict` is a builtin: its binding has no node to be a class of this file.
        ("deepcopy_memo", DEEPCOPY_OF_A_BUILTIN, "the class of `state` is not known in this file"),
        # The holder is assigned once, from an attribute: nothing here builds it.
        ("async_client", CLIENT_HANDED_IN, "`self.client` is not built by calling `openai.OpenAI` directly"),
    ],
)
def test_a_recipe_declines_in_words_on_shapes_it_cannot_fix(monkeypatch, recipe, text, reason):
    import importlib

    _install(monkeypatch, importlib.import_module(f"asynclint.fixers.{recipe}").fix)
    outcome = fix_text(Path("snippet.py"), text)
    assert outcome.texts["snippet.py"] == text
    assert [left.reason for left in outcome.left] == [reason]


def test_a_finding_is_identified_by_its_call_site_and_callee_not_its_message_or_fix():
    # Rerouted (reached from another root) a finding's message changes, and its fix may go: it is
    # still the same finding, so a fix claiming it cannot pass while `check` still reports it.
    from dataclasses import replace

    [finding] = lint(Path("snippet.py"), OFFENDER)
    rerouted = replace(finding, message="`time.sleep` ... in event-loop callback `tick`", fix=None)
    assert finding_key(rerouted) == finding_key(finding)


def test_a_finding_on_own_work_keeps_its_key_when_a_fix_makes_its_root_async():
    # The reward's `json.loads` goes to a thread, which makes `correct_answer` an `async def`; the
    # nest in the method it calls now has an `async def` to be offloaded from (its fix request's
    # placement changes from the root to a helper) and is the same finding, left: not one the fix
    # introduced, nor a reason to refuse it.
    from asynclint.report.fix_report import render_fix_report

    source = textwrap.dedent("""\
        import json

        import verifiers as vf


        class Checker:
            def verify(self, grid, answer) -> bool:
                words = answer.split()
                pairs = sum(1 for a in words for b in words if a == b)
                return pairs == len(grid)


        def correct_answer(completion, info, **kwargs) -> float:
            grid = json.loads(info["game_data_str"])
            return float(Checker().verify(grid, completion[-1]["content"]))


        def load_environment(**kwargs) -> vf.Environment:
            return vf.SingleTurnEnv(dataset=None, rubric=vf.Rubric(funcs=[correct_answer]))
    """)
    outcome = fix_text(Path("snippet.py"), source)
    assert [(applied.finding.line, applied.finding.code) for applied in outcome.applied] == [(14, "ASL111")]
    assert "async def correct_answer" in outcome.texts["snippet.py"]
    [left] = outcome.left
    [checked] = [finding for finding in outcome.checked if finding.code == "ASL115"]
    assert checked.fix_request is not None and left.finding.fix_request is not None
    assert (checked.fix_request.placement, left.finding.fix_request.placement) == ("root", "helper")  # on the way
    assert not outcome.introduced and outcome.as_checked([left.finding]) == [checked]
    report = render_fix_report(outcome, [], {})
    assert "snippet.py:9:" in report and " new" not in report


TWO_OFFENDERS = """\
import time


async def handler():
    time.sleep(1)


async def other():
    time.sleep(2)
"""


def test_a_fix_that_makes_another_finding_vanish_unclaimed_is_declined(monkeypatch):
    # The edit claims the sleep in `handler`, but rebinding `time` also hides the one in `other`:
    # an edit off that finding's route that makes it disappear changed more than it says.
    def rebinds_time(finding, project):
        if finding.line != 5:
            return Decline("not this one")
        file = project.file(finding.path)
        statement = file.module.body[0]
        return Fix(
            finding.path,
            (Edit(statement, cst.parse_statement("import asyncio as time\n")),),
            "to-thread",
            True,
            "rebinds time",
            claims=(finding,),
        )

    _install(monkeypatch, rebinds_time)
    outcome = fix_text(Path("snippet.py"), TWO_OFFENDERS)
    assert outcome.texts["snippet.py"] == TWO_OFFENDERS and not outcome.applied
    reasons = {left.finding.line: left.reason for left in outcome.left}
    assert "`ASL101` at snippet.py:9 disappeared without any fix claiming it" in reasons[5]


def test_the_report_adds_up_in_the_original_line_numbers(tmp_path: Path):
    # A fix above a finding left moves its line; the report places both where `check` did.
    from asynclint.report.fix_report import render_fix_report

    source = textwrap.dedent("""\
        import time


        async def handler(path):
            with open(path) as f:
                data = f.read()

            class K:
                v = time.sleep(0.1)

            return data, K
    """)
    outcome = fix_text(Path("snippet.py"), source)
    checked = {(f.line, f.code) for f in outcome.checked}
    fixed = [applied.finding for applied in outcome.applied]
    placed = outcome.as_checked([left.finding for left in outcome.left])
    assert len(fixed) + len(placed) + len(outcome.resolved) == len(outcome.checked)
    assert {(f.line, f.code) for f in [*fixed, *placed, *outcome.resolved]} == checked
    moved = [
        (f.line, left.finding.line)
        for f, left in zip(placed, outcome.left, strict=False)
        if f.line != left.finding.line
    ]
    assert moved, "the fixture should leave a finding below a fix that adds lines"
    report = render_fix_report(outcome, [], {})
    for original, now in moved:
        assert f"snippet.py:{original}:" in report and f"(now line {now})" in report


# --- projects: fixes across files ---------------------------------------------------------------------


def _project_sources(root: Path) -> list[SourceFile]:
    from asynclint.module_names import module_names

    paths = sorted(root.rglob("*.py"))
    names = module_names(paths, project_root=root)  # as the CLI names them, with what bare names mean
    return [
        SourceFile(
            str(path), path.read_text(encoding="utf-8"), names[path].module, names[path].package, names[path].imports
        )
        for path in paths
    ]


@pytest.mark.parametrize("name", ["named_tools_env", "registrations_env", "v0_env", "v1_env", "values_env"])
def test_fixture_projects_fix_to_a_verified_fixed_point(name: str):
    sources = _project_sources(PROJECTS / name)
    config = Config(root=PROJECTS / name)
    outcome = fix_sources(sources, config, unsafe=True)
    assert outcome.applied
    for path, text in outcome.changed.items():
        compile(text, path, "exec")
    again = fix_sources(
        [SourceFile(s.path, outcome.texts[s.path], s.module, s.package) for s in sources], config, unsafe=True
    )
    assert not again.changed, "a second run must change nothing"
    # Counted: a message can repeat (the same client handed to several rubrics in one function).
    before = Counter(finding_key(f) for f in check_sources(sources, config).findings)
    remaining = Counter(finding_key(left.finding) for left in outcome.left)
    fixed = Counter(finding_key(applied.finding) for applied in outcome.applied)
    assert all(remaining[key] <= before[key] - count for key, count in fixed.items())


def _run_fix_in_memory(project: Path):
    """``asynclint fix --unsafe-fixes`` of a fixture project, as the command runs it (the project's
    pins read from its pyproject.toml), nothing written."""
    from asynclint.fixrun import run_fix

    config = Config(root=project, min_severity=Severity.LOW, follow_imports=False)
    return run_fix([str(project)], config, unsafe=True, write=False).outcome


def test_a_reward_is_made_async_only_when_every_release_the_project_admits_awaits_it():
    # verifiers 0.1.2's Rubric calls a reward and sums what it returns: a reward made `async def`
    # (or a lambda returning an awaitable) would hand it a coroutine. 0.1.3 and later await it.
    declined = _run_fix_in_memory(PROJECTS / "rewards_unawaited")
    assert not declined.applied and len(declined.left) == 4
    for left in declined.left:
        assert left.reason.endswith(
            "the project runs verifiers 0.1.2, where `Rubric` uses what a reward function returns without awaiting it"
        ), left.reason
    roots = {left.reason.split("`")[3] for left in declined.left}  # no `async def` on the chain, and `root`
    assert roots == {"load_environment.<locals>.<lambda>", "remote_match"}
    fixed = _run_fix_in_memory(PROJECTS / "rewards_awaited")
    assert len(fixed.applied) == 4 and not fixed.left
    (text,) = fixed.changed.values()
    assert "async def remote_match(completion, answer, **kwargs) -> float:" in text
    assert "lambda completion, answer: asyncio.to_thread(fetch_score, answer)" in text
    compile(text, "env.py", "exec")
    # check advertises no fix where fix declines one, and the same fix where it makes it
    unawaited = _project_sources(PROJECTS / "rewards_unawaited")
    versions = (("verifiers", "0.1.2"),)
    checked = check_sources(unawaited, Config(root=PROJECTS / "rewards_unawaited", framework_versions=versions))
    assert [f.fix for f in checked.findings] == [None] * 4
    unpinned = check_sources(unawaited, Config(root=PROJECTS / "rewards_unawaited"))
    assert all(f.fix is not None and f.fix.root_awaited for f in unpinned.findings)


def test_a_helper_in_another_module_is_offloaded_where_the_async_caller_calls_it():
    sources = _project_sources(PROJECTS / "v0_env")
    outcome = fix_sources(sources, Config(root=PROJECTS / "v0_env"), unsafe=False)
    elsewhere = [a for a in outcome.applied if a.path != a.finding.path]
    assert any("sync helper" in applied.title for applied in elsewhere), "expected a helper offloaded at its caller"
    for applied in elsewhere:  # the async caller's call of the helper, or a sync root made async
        assert "sync helper" in applied.title or "`async def`" in applied.title


def test_a_call_dispatched_by_name_is_offloaded_whole_unless_it_can_pick_an_async_method(tmp_path: Path):
    """``getattr(api, name)(**kwargs)`` runs whichever public method the model's tool name picks:
    offloading that call offloads each of them, and is declined once one is an ``async def`` (its
    coroutine would come back from the thread unawaited)."""
    project = tmp_path / "named_tools_env"
    shutil.copytree(PROJECTS / "named_tools_env", project)
    outcome = fix_sources(_project_sources(project), Config(root=project), unsafe=False)
    dispatched = [a for a in outcome.applied if "`getattr(api, name)`" in a.title]
    assert {a.finding.line for a in dispatched} == {12, 25, 26}  # _rows (list_accounts), post_entry
    env = next(text for path, text in outcome.changed.items() if path.endswith("env.py"))
    assert "await asyncio.to_thread(getattr(api, name), **kwargs)" in env

    ledger = project / "named_tools_env" / "ledger.py"
    ledger.write_text(
        ledger.read_text(encoding="utf-8").replace(
            "    def list_accounts(self) -> list:",
            "    async def audit(self) -> None:\n        pass\n\n    def list_accounts(self) -> list:",
        ),
        encoding="utf-8",
    )
    outcome = fix_sources(_project_sources(project), Config(root=project), unsafe=False)
    assert not any("getattr" in a.title for a in outcome.applied)
    reasons = {left.finding.line: left.reason for left in outcome.left if left.finding.path.endswith("ledger.py")}
    assert "calls by name" in reasons[29] and "unawaited" in reasons[29]  # post_entry's commit, 3 lines down


def test_a_call_of_what_a_registry_field_holds_is_offloaded_whole_unless_it_holds_an_async_def(tmp_path: Path):
    """``LEDGER.prepare(path)`` runs ``seed``, which the registry was built with
    (``Domain(prepare=seed, ...)``): no call names ``seed``, so the field's call is offloaded, and
    declined once the field can also hold an ``async def``."""
    project = tmp_path / "named_tools_env"
    shutil.copytree(PROJECTS / "named_tools_env", project)
    outcome = fix_sources(_project_sources(project), Config(root=project), unsafe=False)
    held = [a for a in outcome.applied if "`LEDGER.prepare`" in a.title]
    assert {a.finding.line for a in held} == {37, 38}  # seed's connect and executescript
    env = next(text for path, text in outcome.changed.items() if path.endswith("env.py"))
    assert "path = await asyncio.to_thread(\n            LEDGER.prepare, Path(" in env

    env_path = project / "named_tools_env" / "env.py"
    env_path.write_text(
        env_path.read_text(encoding="utf-8")
        .replace("LEDGER = Domain(", "async def seed_later(path):\n    return path\n\n\nLEDGER = Domain(")
        .replace(
            "report=export_report)",
            'report=export_report)\nSPARE = Domain(name="spare", prepare=seed_later, make_api=make_api)',
        ),
        encoding="utf-8",
    )
    outcome = fix_sources(_project_sources(project), Config(root=project), unsafe=False)
    assert not any("`LEDGER.prepare`" in a.title for a in outcome.applied)
    reasons = [left.reason for left in outcome.left if left.finding.line in (37, 38)]
    assert reasons and all("no call of `seed`" in reason for reason in reasons), reasons


def test_a_sync_client_handed_to_the_judge_rubric_becomes_the_async_one():
    """Reported where a reward calls the judge; fixed where the client is handed over."""
    source = textwrap.dedent("""\
        import verifiers as vf
        from openai import OpenAI


        def load_environment():
            judge = OpenAI(base_url="http://localhost:8000/v1")
            direct = vf.JudgeRubric(judge_client=OpenAI(max_retries=1))
            shared = OpenAI()
            shared.models.list()
            named = vf.JudgeRubric(judge_client=judge)
            kept = vf.JudgeRubric(judge_client=shared)

            async def judged(prompt, completion, answer, state):
                verdicts = [
                    await named.judge(prompt, completion, answer, state),
                    await direct.judge(prompt, completion, answer, state),
                    await kept.judge(prompt, completion, answer, state),
                ]
                return float(all("yes" in verdict for verdict in verdicts))

            named.add_reward_func(judged)
            return [named, direct, kept]
    """)
    path = Path("judge_env.py")
    checked = {f.line: f for f in lint(path, source)}
    assert sorted(checked) == [15, 16, 17]
    assert checked[16].fix is not None and not checked[16].fix.safe
    assert checked[16].facts.handed_at == "judge_env.py:7:42"  # judge_client=OpenAI(max_retries=1)
    safe = fix_text(path, source, unsafe=False)
    assert safe.texts[str(path)] == source and "needs --unsafe-fixes" in safe.left[0].reason
    outcome = fix_text(path, source)
    fixed = outcome.texts[str(path)]
    assert 'judge = AsyncOpenAI(base_url="http://localhost:8000/v1")' in fixed
    assert "judge_client=AsyncOpenAI(max_retries=1)" in fixed
    assert "shared = OpenAI()" in fixed and "from openai import AsyncOpenAI, OpenAI" in fixed
    assert [left.finding.line for left in outcome.left] == [17]
    assert "used elsewhere" in outcome.left[0].reason


def test_requests_calls_go_through_one_shared_async_client_only_when_spelled_alike():
    source = textwrap.dedent("""\
        import requests


        async def search(url, query):
            hits = requests.get(url, params={"q": query}, timeout=10)
            return hits.json()


        async def download(url):
            return requests.get(url, stream=True)


        async def guarded(url):
            try:
                return requests.post(url, json={})
            except requests.RequestException:
                return None
    """)
    path = Path("http_env.py")
    outcome = fix_text(path, source)
    fixed = outcome.texts[str(path)]
    # built on first use, as hoist-client builds a client: not at import, outside any event loop
    assert "@functools.cache\ndef _http_client():\n    return httpx.AsyncClient(follow_redirects=True)\n" in fixed
    assert 'hits = await _http_client().get(url, params={"q": query}, timeout=10)' in fixed
    assert "serves one event loop" in outcome.applied[0].note
    # the other two keep requests (it behaves differently there), in a worker thread
    assert "await asyncio.to_thread(requests.get, url, stream=True)" in fixed
    assert "await asyncio.to_thread(requests.post, url, json={})" in fixed
    assert fixed.count("httpx.AsyncClient(") == 1 and "import requests" in fixed
    # a client built so by hand is reused; fixing again changes nothing
    shared = "import httpx\nimport requests\n\nHTTP = httpx.AsyncClient(follow_redirects=True)\n"
    by_hand = source.replace("import requests\n", shared)
    assert "hits = await HTTP.get(" in fix_text(path, by_hand).texts[str(path)]
    assert fix_text(path, fixed).texts[str(path)] == fixed


# --- names: what a fix writes must mean the same module where it writes it -----------------------


@pytest.mark.parametrize(
    ("source", "line", "reason"),
    [
        ("import time\n\n\nasync def a(asyncio):\n    time.sleep(asyncio)\n", 5, "`asyncio` is a parameter (line 4)"),
        (
            "import time\n\nasyncio = None\n\n\nasync def a(x):\n    time.sleep(x)\n",
            7,
            "a module-level variable (line 3)",
        ),
        ("import time\n\n\nasync def a(xs):\n    return [time.sleep(0) for asyncio in xs]\n", 5, "a local variable"),
    ],
    ids=["parameter", "module-level", "comprehension"],
)
def test_a_module_name_that_means_something_else_is_not_captured(source: str, line: int, reason: str):
    outcome = fix_text(Path("snippet.py"), source)
    assert outcome.texts["snippet.py"] == source
    (left,) = outcome.left
    assert left.finding.line == line and reason in left.reason and "import it under another name" in left.reason
    # the way out the reason names: import it under another name, which every fix then uses
    renamed = "import asyncio as aio\n" + source
    fixed = fix_text(Path("snippet.py"), renamed).texts["snippet.py"]
    assert "aio.sleep(" in fixed or "aio.to_thread(" in fixed
    assert fixed.count("import asyncio") == 1


def test_a_module_imported_under_a_condition_is_imported_for_real():
    source = (
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import asyncio\n"
        "import time\n\n\nasync def a(x):\n    time.sleep(x)\n"
    )
    fixed = fix_text(Path("snippet.py"), source).texts["snippet.py"]
    assert fixed.startswith("import asyncio\nfrom typing import TYPE_CHECKING\n") and "await asyncio.sleep(x)" in fixed


def test_waits_that_consume_what_they_wait_for_are_offloaded_only_as_unsafe():
    # a cancelled rollout's worker thread still takes the item: nobody receives it
    source = textwrap.dedent("""
        import queue
        import threading

        JOBS = queue.Queue()
        DONE = threading.Event()

        async def next_job():
            DONE.wait(1)
            return JOBS.get()
    """)
    checked = {f.line: f for f in _findings(source)}
    assert checked[9].fix.safe and not checked[10].fix.safe  # check says what fix will do
    (reason,) = _left(source, unsafe=False).values()  # (on line 11 once `import asyncio` is added)
    assert "needs --unsafe-fixes" in reason and "an item taken after the awaiting task is cancelled is lost" in reason
    fixed = fix_text(Path("snippet.py"), source)
    assert "return await asyncio.to_thread(JOBS.get)" in fixed.texts["snippet.py"]
    assert [a.safe for a in fixed.applied] == [True, False] and "lost" in fixed.applied[1].note


def test_requests_responses_read_through_what_httpx_lacks_are_not_converted():
    from asynclint.fixers import async_client
    from asynclint.fixers.project import FixProject

    path = RECIPES / "requests_calls.py"
    text = path.read_text(encoding="utf-8")
    findings = lint(path, text)
    project = FixProject({str(path): text}, tuple(findings))
    by_function = {}
    for finding in findings:
        if finding.fix_request is not None and finding.fix_request.recipe == "async-client":
            # the sync calls themselves (search's parse of the body is another finding, to-thread's)
            by_function[finding.chain[-1].function] = async_client.fix(finding, project)
    assert isinstance(by_function["search"], Fix) and isinstance(by_function["alive"], Fix)
    assert "`response.ok` means something else (or nothing)" in by_function["uses_ok"].reason
    assert "the response is handed on" in by_function["hands_it_on"].reason
    assert "`.raise_for_status` of the response" in by_function["head_raises"].reason
    assert "inside a generator expression" in by_function["lazily"].reason


# --- twin-call: a sync call rewritten to its async twin --------------------------------------------

TWIN_SITE = Path(__file__).parent / "data" / "twins" / "site"
DISCOVERED = FIXTURES / "twins" / "discovered.py"


def _discovered_twins():
    from asynclint.libraries import Installed
    from asynclint.twin_discovery import twins_for

    return twins_for(["syncsdk", "aiolib", "kvstore"], Installed([str(TWIN_SITE)], ()))


def _fix_with_twins(path: Path, text: str, twins) -> FixOutcome:
    source = SourceFile(str(path), text, module=path.stem, package="")
    return fix_sources([source], Config(root=path.parent, min_severity=Severity.LOW), unsafe=True, twins=twins)


def test_golden_with_discovered_twins():
    # As test_golden, with the twins discovered in the fake installed packages (deep mode's).
    twins = _discovered_twins()
    text = DISCOVERED.read_text(encoding="utf-8")
    outcome = _fix_with_twins(DISCOVERED, text, twins)
    fixed = outcome.texts[str(DISCOVERED)]
    if REGENERATE:
        golden(DISCOVERED).write_text(fixed, encoding="utf-8")
    expected = golden(DISCOVERED).read_text(encoding="utf-8")
    assert fixed == expected, "fix(twins/discovered.py) differs from its golden: review, then ASYNCLINT_REGENERATE=1"
    compile(expected, str(golden(DISCOVERED)), "exec")
    again = _fix_with_twins(DISCOVERED, expected, twins)
    assert again.texts[str(DISCOVERED)] == expected, "fixing the golden again must change nothing"
    before = Counter(finding_key(f) for f in outcome.checked)
    after = Counter(finding_key(f) for f in again.checked)  # the golden re-linted with the same twins
    claimed = Counter(finding_key(applied.finding) for applied in outcome.applied)
    for key, count in claimed.items():
        assert after[key] <= max(0, before[key] - count), f"{key} is still reported in the golden"
    recipes = {applied.finding.line: applied.recipe for applied in outcome.applied}
    assert {line for line, recipe in recipes.items() if recipe == "twin-call"} == {18, 21, 22, 26, 27}
    assert recipes[34] == recipes[38] == recipes[47] == "to-thread"
    # Without the discovered twins nothing in the file is known to block.
    assert not _fix_with_twins(DISCOVERED, text, ()).checked


def _twin_outcomes(path: Path, twins=()) -> dict[str, list]:
    """What the twin-call fixer itself says for each finding, by the function it is in."""
    from asynclint.fixers import twin_call
    from asynclint.fixers.project import FixProject
    from asynclint.twin_discovery import twin_calls

    text = path.read_text(encoding="utf-8")
    findings = _fix_with_twins(path, text, twins).checked
    project = FixProject({str(path): text}, tuple(findings), graph_of(text, path), twin_calls(twins))
    outcomes: dict[str, list] = {}
    for finding in findings:
        outcomes.setdefault(finding.chain[-1].function.rpartition(".")[2], []).append(twin_call.fix(finding, project))
    return outcomes


def test_twin_call_declines_say_why():
    by_function = _twin_outcomes(RECIPES / "twin_calls.py")
    for rewritten in ("aio_family", "prefixed", "prefixed_methods", "client_aio", "search", "remember"):
        assert all(isinstance(outcome, Fix) for outcome in by_function[rewritten]), by_function[rewritten]
    reasons = {name: [o.reason for o in outcomes if isinstance(o, Decline)] for name, outcomes in by_function.items()}
    assert reasons["streamed"] == ["the call streams: the twin's stream is iterated with `async for`"]
    # A `stream` call only makes a generator: no recipe, the twin (`astream`) is named in the message.
    assert [outcome.applicable for outcome in by_function["streamed_method"]] == [False]
    assert reasons["in_a_generator"] == [
        "the call is inside a generator expression (an `await` there would make it async)"
    ]
    assert reasons["iterated"] == ["the call's result is iterated: the twin's is iterated with `async for`"]
    assert reasons["as_a_context_manager"] == [
        "the call's result is a context manager: the twin's is entered with `async with`"
    ]
    assert (
        all(
            r.startswith("`pinecone.PineconeAsyncio` takes other arguments than `pinecone.Pinecone`: an async index")
            for r in reasons["parameters_differ"]
        )
        and len(reasons["parameters_differ"]) == 2
    )
    assert reasons["_exec_in"] == ["the call is not written in `async def`, where its twin could be awaited"] * 2
    assert reasons["lookup"] == ["`self.cache` is called in `__init__`, which is not `async def`"]
    assert reasons["bump"] == [
        "`pipeline` is not a coroutine on `redis.asyncio.Redis`: what it returns is used differently there"
    ]


def test_discovered_twins_are_rewritten_only_where_the_parameters_read_match():
    by_function = _twin_outcomes(DISCOVERED, _discovered_twins())
    (fetch,) = by_function["fetch"]
    assert fetch.reason == (
        "`syncsdk.AsyncClient.fetch` takes other arguments than `syncsdk.Client.fetch`, or is an async generator"
        " (read in syncsdk 1.0 syncsdk/__init__.py (Client / AsyncClient))"
    )
    (follow,) = by_function["follow"]
    assert follow.reason.startswith("`aiolib.Sandbox.logs.aio` is an async generator, iterated with `async for`")
    assert all(isinstance(outcome, Fix) for outcome in by_function["run"] + by_function["remember"])
    assert [type(outcome) for outcome in by_function["search"]] == [Fix, Decline]  # Tools, BuildsUrlsToo
    assert by_function["search"][1].reason == (
        "`build_url` is not a coroutine on `syncsdk.AsyncClient`: what it returns is used differently there"
    )


def test_twin_call_is_tried_only_with_unsafe_fixes_and_only_for_calls_with_a_twin():
    assert fixers.candidates("to-thread", True, twin=True) == ("twin-call", "with-block", "to-thread")
    assert fixers.candidates("async-client", True, twin=True) == (
        "async-client",
        "twin-call",
        "with-block",
        "to-thread",
    )
    assert fixers.candidates("to-thread", False, twin=True) == ("with-block", "to-thread")
    assert "twin-call" not in fixers.candidates("to-thread", True, twin=False)
    outcome = fix_text(RECIPES / "twin_calls.py", (RECIPES / "twin_calls.py").read_text(encoding="utf-8"), unsafe=False)
    assert outcome.applied and all(applied.safe for applied in outcome.applied)
    assert not [applied for applied in outcome.applied if applied.recipe == "twin-call"]


def test_a_callable_handed_to_an_applier_is_not_offloaded_alone():
    # `map(requests.get, urls)` calls `requests.get` once per item where no call is written: the
    # finding is on the name (CallFacts.applier), and the reason says to offload the `map(...)`;
    # so for a helper that `async def` hands to `map`. Those reached through a sync helper
    # (`fetch_all`, lines 8 and 11) are offloaded with that helper's call.
    reasons = _left("""
        import requests

        def _fetch(url):
            return requests.get(url).text

        def _page(url):
            return requests.get(url).text

        def fetch_all(urls):
            return list(map(requests.get, urls)), list(map(_page, urls))

        async def handler(urls):
            pages = list(map(requests.get, urls))
            return pages, list(map(_fetch, urls)), fetch_all(urls)
    """)
    assert set(reasons) == {5, 14}, reasons
    assert "`requests.get` is handed to `map`, which calls it once per item" in reasons[14]
    assert "offload the whole `map(...)` call" in reasons[14]
    assert "`_fetch` is handed to `map`, which calls it once per item" in reasons[5]
    assert "offload the whole `map(...)` call in `handler`" in reasons[5]


def test_a_callable_an_async_helper_calls_through_its_parameter_is_not_offloaded_there():
    # `_apply` runs `check(text)` for whatever its callers hand it: `_slow` is reported on the
    # chain of the caller that handed it, with no fix offered (offloading `check(text)` would
    # change every caller's); `_relay`, a sync helper, is offloaded where `handler` calls it.
    source = """
        import time

        def _slow(text):
            time.sleep(0.01)
            return text

        def _slower(text):
            time.sleep(0.02)
            return text

        def _relay(check, text):
            return check(text)

        async def _apply(check, text):
            return check(text)

        async def handler(text):
            return await _apply(_slow, text), _relay(_slower, text)
    """
    findings = check_text(textwrap.dedent(source), "snippet.py", Config(root=Path("."))).findings
    assert {(f.line, f.fix is not None) for f in findings} == {(5, False), (9, True)}, findings
    reasons = _left(source)
    assert set(reasons) == {5}, reasons
    assert "`_slow` is handed to `_apply`, which calls it as its parameter `check`" in reasons[5]


def test_the_process_pool_takes_every_route_of_a_helper_off_the_loop_or_none():
    # vision_sr1.py:59: the pool took one reward's call, the other reward still ran the helper on
    # the loop, and verification refused the fix ("still reported after the edit"); declined up
    # front in session 26, now every route's call goes to the pool, in one fix.
    path = RECIPES / "process_pool_routes.py"
    outcome = fix_text(path, path.read_text(encoding="utf-8"))
    fixed = outcome.texts[str(path)]
    assert fixed.count("ProcessPoolExecutor(") == 1  # one pool for every route
    assert fixed.count("run_in_executor(") == 4 and fixed.count("loop = asyncio.get_running_loop()") == 1
    (graded,) = [applied for applied in outcome.applied if "`_graded`" in applied.title]
    assert graded.title.startswith("ran 3 calls of `_graded` in `judged`, `first_pass`, `second_pass`")
    assert "(made `first_pass`, `second_pass` `async def`)" in graded.title
    # a route that cannot take an `await` leaves the helper, with the reason
    reasons = _reasons_by_line(outcome)
    assert list(reasons) == [36]
    assert reasons[36] == (
        "`_scored` is also called inside a generator expression in `every_turn` (an `await` there would make it"
        " async): the call stays on the loop by that route"
    )
