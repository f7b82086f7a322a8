"""Helpers shared by the test modules: running the command line (in this process, or the
installed command as a subprocess), writing a project, checking one text in memory, reading a
fixture's ``# expect:`` comments, a profiling workdir.

Test modules import the plain helpers (``from conftest import run, write``); pytest finds the
fixtures (``workdir``) on its own."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest

from asynclint.analysis.graph import ProjectGraph
from asynclint.config import Config
from asynclint.engine import SourceFile, project_graph, summarize
from asynclint.model import FileError, Result, Severity
from asynclint.pipeline import check_sources

TESTS = Path(__file__).parent
DATA = TESTS / "data"
EXAMPLES = TESTS.parent / "examples"


# --- the command line: in this process, or the installed command --------------------------------


def _executable() -> str:
    beside = Path(sys.executable).parent / "asynclint"
    found = str(beside) if beside.exists() else shutil.which("asynclint")
    assert found, "the asynclint console script is not installed (pip install -e .)"
    return found


ASYNCLINT = _executable()
#: How long one command may take before the test fails instead of hanging (a FIFO opened for
#: reading, a lock never released): generous, the machine may be loaded.
TIMEOUT_S = 120


@pytest.fixture(scope="session", autouse=True)
def _temp_dir_of_this_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The commands' child processes (a profiled target) make their temporary files under a
    directory of this pytest worker's own. The bundled example deletes and rebuilds its index in
    ``<tmp>/wiki_qa`` on every load: two xdist workers profiling it at once deleted it under each
    other's citation checker, which then scored 0.0 on identical trajectories (and the
    before/after comparison of test_profiler_verifiers saw outputs differ)."""
    previous = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(tmp_path_factory.mktemp("tmp", numbered=False))
    yield
    if previous is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = previous


@pytest.fixture(scope="session", autouse=True)
def _ctrl_c_reaches_the_commands() -> Iterator[None]:
    """The commands' child processes get Ctrl-C as from a terminal, however the suite was started.
    A suite run in the background (``pytest ... &`` in a script) starts with SIGINT ignored, its
    workers and their children inherit that, and Python installs its own SIGINT handler only where
    the signal had its default action: a SIGINT sent to a command then did nothing, and the
    Ctrl-C tests waited out their targets (30 s) and failed. A handler set here is reset to the
    default action in every child at ``exec``, so each command starts as a foreground one."""
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if previous is signal.SIG_IGN:
        signal.signal(signal.SIGINT, previous)


def _hermetic(args: tuple[str, ...], hermetic: bool) -> tuple[str, ...]:
    """``check`` and ``fix`` follow whatever imports resolve on the interpreter's path by default
    (deep mode), and what happens to be installed where the tests run is no fixture: unless a test
    passes a follow flag of its own (or ``hermetic=False``, to see the default), they run with
    ``--no-follow-imports``."""
    if hermetic and args[:1] in (("check",), ("fix",)) and not any("follow-" in arg for arg in args):
        return (args[0], "--no-follow-imports", *args[1:])
    return args


def run(
    *args: str, cwd: Path, env: dict | None = None, hermetic: bool = True, timeout: float = TIMEOUT_S
) -> subprocess.CompletedProcess:
    """``asynclint ARGS`` run in this process through click's ``CliRunner``, as the installed
    command would run in ``cwd`` with ``env`` added to the environment and stdout and stderr
    pipes: exit status, stdout and stderr separately, in a ``CompletedProcess`` (the same bytes:
    test_cli checks). A small ``check`` takes ~50 ms so, against ~1.4 s to start the command.
    An exception escaping the command fails the test with its traceback. What a fresh process
    would not carry over from an earlier command is reset (see :func:`_as_a_fresh_process`). See
    :func:`_hermetic` for the follow flag it adds; ``timeout`` replaces :data:`TIMEOUT_S` for a
    command whose work, not a hang, can take that long on a loaded machine.

    What needs a process of its own goes through :func:`run_process`: a signal, ``profile`` running
    a target, the installed console script itself (its smoke tests)."""
    from click.testing import CliRunner

    from asynclint.cli import main

    args = _hermetic(args, hermetic)
    # COLUMNS: pytest-xdist's workers set it (80); a command run by a user into a pipe has none.
    environment = {"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": None, **(env or {})}
    with _as_a_fresh_process(cwd, environment.get("PYTHONPATH")), contextlib.chdir(cwd), _deadline(timeout, args):
        outcome = CliRunner().invoke(main, args, prog_name="asynclint", env=environment, catch_exceptions=False)
    result = subprocess.CompletedProcess([ASYNCLINT, *args], outcome.exit_code, outcome.stdout, outcome.stderr)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def run_process(*args: str, cwd: Path, env: dict | None = None, hermetic: bool = True) -> subprocess.CompletedProcess:
    """The installed console script with ``args``, as a subprocess (text output captured; see
    :func:`_hermetic`): for what needs a process (signals, ``profile`` running a target, which
    imports it and may end with ``os._exit``) and for the smoke tests of the installed command."""
    args = _hermetic(args, hermetic)
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    environment.pop("FORCE_COLOR", None)
    if "COLUMNS" not in (env or {}):  # see run()
        environment.pop("COLUMNS", None)
    result = subprocess.run(
        [ASYNCLINT, *args], cwd=cwd, capture_output=True, text=True, env=environment, timeout=TIMEOUT_S
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@contextlib.contextmanager
def _as_a_fresh_process(cwd: Path, python_path: str | None) -> Iterator[None]:
    """What a command started afresh would see, and nothing it leaves behind: no memo of an
    earlier command (``functools`` caches such as the git excludes of a work tree, read once per
    process), ``$PYTHONPATH`` on ``sys.path`` (deep mode reads what resolves there), and the
    process-wide state (environment, ``sys.path``, the modules imported from ``cwd``: a
    ``profile`` target refused after its import) as it was before. Signal handlers are not reset:
    the command must put back what it set (test_signals checks)."""
    for name, module in list(sys.modules.items()):
        if _ours(name):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and hasattr(value, "__wrapped__"):
                    value.cache_clear()
    environment, path, modules = dict(os.environ), list(sys.path), set(sys.modules)
    added = [entry for entry in (python_path or "").split(os.pathsep) if entry and entry not in sys.path]
    sys.path[:0] = added
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path[:] = path
        here = Path(cwd).resolve()
        for name in set(sys.modules) - modules:
            file = getattr(sys.modules[name], "__file__", None)
            if file and not _ours(name) and Path(file).resolve().is_relative_to(here):
                del sys.modules[name]
        if dict(os.environ) != environment:
            os.environ.clear()
            os.environ.update(environment)


def _ours(module: str) -> bool:
    return module == "asynclint" or module.startswith("asynclint.")


class CommandHung(BaseException):
    """A command in this process ran past :data:`TIMEOUT_S` (a BaseException: no ``except
    Exception`` in the command swallows it)."""


@contextlib.contextmanager
def _deadline(seconds: float, args: tuple[str, ...]) -> Iterator[None]:
    """Fail a command that hangs instead of the whole run: SIGALRM interrupts even a blocking
    system call (an ``open`` of a FIFO nobody writes). Only the main thread gets signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def hung(signum, frame):
        raise CommandHung(f"asynclint {' '.join(args)}: still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


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


def graph_of(text: str, path: str | Path = "env.py", config: Config | None = None) -> ProjectGraph:
    """The call graph :func:`check_text` reads for the same ``text``: what a fixer asks while
    fixing (who calls what, where the chain's calls are)."""
    config = config or Config(root=Path(path).parent)
    summary = summarize(SourceFile(str(path), text, module=Path(path).stem, package=""), config.catalogue())
    assert not isinstance(summary, FileError), summary
    return project_graph([summary], config)


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
    result = run_process("profile", target, *QUICK, "--format", "json", "--output", name, *extra, cwd=workdir, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""  # the report went to the file
    report = json.loads((workdir / name).read_text())
    jsonschema.validate(report, PROFILE_SCHEMA)  # the contract documented in docs/profiler.md
    return report


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``-n``, the suite's default), the timing tests share one worker: each
    compares quantities measured within one run on a loaded machine, and two of them side by side
    would each be the other's unmeasured load. The other worker keeps running the rest, which is
    the load they are written to survive (a shared 2-core CI runner)."""
    for item in items:
        if item.get_closest_marker("timing"):
            item.add_marker(pytest.mark.xdist_group("timing"))
