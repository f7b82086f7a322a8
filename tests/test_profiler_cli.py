"""``asynclint profile`` on the command line: JSON and rich output, --output/--html, --compare
with identical and different outputs, one-line errors (exit 2). A target runs in a process of its
own (``run_process``: the installed command imports it, samples it with signals and ends with
``os._exit``); --compare and input refused before the run go through ``run``, in this process."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import textwrap
import time
from pathlib import Path

import jsonschema
import pytest
from conftest import ASYNCLINT, PROFILE_SCHEMA, QUICK, WORKLOAD, profile_json, run, run_process


def test_json_report_names_the_injected_lines(workdir: Path):
    report = profile_json(workdir, "workload.py:stalls", "profile.json", "--html", "stalls.html")
    assert report["asynclint_profile"] == 3 and report["kind"] == "callable"
    assert report["run"]["rollouts"] == 64 and report["outputs"]["count"] == 64
    lines = {(s["path"], s["line"]) for s in report["sites"] if s["cause"] == "user"}
    source = (workdir / "workload.py").read_text().splitlines()
    sleep_line = next(n for n, text in enumerate(source, 1) if text.endswith("# stall: sleep"))
    assert ("workload.py", sleep_line) in lines
    sleep_site = next(s for s in report["sites"] if s["line"] == sleep_line)
    assert sleep_site["finding"]["code"] == "ASL101" and sleep_site["blind_spot"] is False
    assert set(report["lag"]) >= {"p50_ms", "p90_ms", "p99_ms", "max_ms", "blocked_ms", "histogram"}
    html = (workdir / "stalls.html").read_text()
    assert "<html" in html.lower() and "block_sleep" in html


def test_uvloop_runs_the_target_and_the_report_says_so(workdir: Path):
    pytest.importorskip("uvloop")
    report = profile_json(workdir, "workload.py:stalls", "uvloop.json", "--loop", "uvloop")
    assert report["settings"]["loop"] == "uvloop"
    source = (workdir / "workload.py").read_text().splitlines()
    sleep_line = next(n for n, text in enumerate(source, 1) if text.endswith("# stall: sleep"))
    assert ("workload.py", sleep_line) in {(s["path"], s["line"]) for s in report["sites"] if s["cause"] == "user"}
    rich = run_process(
        "profile", "workload.py:clean", "--loop", "uvloop", "--rollouts", "8", "--warmup", "0", cwd=workdir
    )
    assert rich.returncode == 0 and "sampler signal · loop uvloop" in rich.stdout, rich.stdout
    # Compared with a run on asyncio's loop, the comparison says the runs differ in their loop.
    profile_json(workdir, "workload.py:stalls", "asyncio.json")
    compared = run("profile", "--compare", "asyncio.json", "uvloop.json", cwd=workdir)
    assert "loop 'asyncio' → 'uvloop'" in compared.stdout, compared.stdout


def test_rich_report_to_stdout(workdir: Path):
    result = run_process("profile", "workload.py:stalls", *QUICK, cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert "Event-loop lag" in result.stdout and "Where the loop was held" in result.stdout
    assert re.search(r"workload\.py:\d+ +block_sleep .*ASL101 critical", result.stdout), result.stdout


def test_compare_identical_outputs_exits_0(workdir: Path):
    profile_json(workdir, "workload.py:stalls", "before.json")
    profile_json(workdir, "workload.py:clean", "after.json")
    result = run("profile", "--compare", "before.json", "after.json", cwd=workdir)
    # Different targets with different outputs: exit 1 (see the next test); same target here:
    assert result.returncode == 1
    profile_json(workdir, "workload.py:stalls", "again.json", "--seed", "0")
    same = run("profile", "--compare", "before.json", "again.json", cwd=workdir)
    assert same.returncode == 0, same.stdout + same.stderr
    assert "outputs: identical: 64 outputs" in same.stdout
    for row in ("lag p99 (ms)", "blocked (ms)", "throughput (rollouts/s)"):
        assert row in same.stdout
    assert re.search(r"block_sleep +ASL101 critical", same.stdout), same.stdout


def test_compare_different_outputs_exits_1_and_says_where(workdir: Path):
    profile_json(workdir, "workload.py:offset", "before.json")
    profile_json(workdir, "workload.py:offset", "after.json", env={"ASYNCLINT_TEST_OFFSET": "1"})
    result = run("profile", "--compare", "before.json", "after.json", "--format", "json", cwd=workdir)
    assert result.returncode == 1
    comparison = json.loads(result.stdout)
    assert comparison["outputs_identical"] is False
    assert "64 of 64 outputs differ; first at rollout 0: 0 before, 1 after" == comparison["outputs_note"]


def test_a_module_name_from_the_working_directory_and_a_duration(workdir: Path):
    result = run_process(
        "profile", "workload:clean", "--duration", "0.3", "--concurrency", "8", "--format", "json", cwd=workdir
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["settings"]["duration_s"] == 0.3 and report["settings"]["rollouts"] is None
    assert report["run"]["rollouts"] == report["outputs"]["count"] > 8
    assert report["run"]["wall_s"] >= 0.3


def test_failing_rollouts_are_outputs_and_exit_1(workdir: Path):
    result = run_process("profile", "workload.py:flaky", "--rollouts", "10", "--format", "json", cwd=workdir)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["run"]["errors"] == 2 and report["run"]["first_error"] == "ValueError: rollout 0 failed"
    assert report["outputs"]["values"][0] == {"error": "ValueError: rollout 0 failed"}


def test_a_rollout_calling_sys_exit_is_a_failed_rollout(workdir: Path):
    result = run_process(
        "profile", "workload.py:exits", "--rollouts", "6", "--warmup", "0", "--format", "json", cwd=workdir
    )
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["run"]["errors"] == 1 and report["outputs"]["values"][3] == {"error": "SystemExit: 3"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing.py:run",), "missing.py: no such file or directory"),
        (("no_such_module_xyz",), "no_such_module_xyz: no such file, module or installed environment"),
        ((), "missing TARGET"),
        (("--compare", "missing.json", "workload.py"), "missing.json: no such file"),
        (("--compare", "workload.py", "workload.py"), "workload.py: not valid JSON"),
        (("--compare", "plain.json", "plain.json"), "plain.json: not an asynclint profile report"),
        (("workload.py:clean", "--threshold", "1", "--interval", "2"), "must be shorter than --threshold"),
        (("workload.py:clean", "--env-args", "[1]"), "--env-args: expected a JSON object"),
        (("workload.py:clean", "--loop", "uvloop", "--method", "callbacks"), "cannot run with --loop uvloop"),
        (("workload.py:clean", "-o", "no/such/dir/report.json"), "no/such/dir/report.json: cannot write report"),
        (("workload.py:clean", "--html", "ro.html"), "ro.html: cannot write report: read-only (no write permission)"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(workdir: Path, args, message):
    (workdir / "plain.json").write_text('{"version": 1}')
    (workdir / "ro.html").write_text("kept")
    (workdir / "ro.html").chmod(0o444)
    result = run("profile", *args, cwd=workdir)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("asynclint: error: ") and message in lines[0], result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("workload.py:nope",), "workload.py:nope: workload.py has no attribute 'nope'"),
        (("workload.py:not_async",), "not_async returned int, not an awaitable"),
        (("workload.py",), "neither a verifiers v0 environment (no load_environment()) nor a v1 one"),
    ],
)
def test_a_target_refused_once_imported_is_one_line_on_stderr_and_exit_2(workdir: Path, args, message):
    # A process of its own: the target is imported (a `workload` module other tests import too).
    result = run_process("profile", *args, cwd=workdir)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("asynclint: error: ") and message in lines[0], result.stderr


@pytest.mark.parametrize("option", ["--threshold", "--interval", "--duration", "--timeout", "--latency"])
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_numbers_must_be_finite(workdir: Path, option: str, value: str):
    result = run("profile", "workload.py:clean", option, value, cwd=workdir)
    assert result.returncode == 2 and f"Invalid value for '{option}': '{value}' is not a finite number" in result.stderr


def test_an_import_error_in_the_target_is_one_line(workdir: Path):
    (workdir / "broken.py").write_text("import no_such_dependency_xyz\n\nasync def run(i):\n    return i\n")
    result = run("profile", "broken.py:run", cwd=workdir)  # refused at the import: nothing ran
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "asynclint: error: cannot import broken.py: ModuleNotFoundError: No module named 'no_such_dependency_xyz'"
    )


def test_a_rollout_that_never_ends_is_cancelled_at_the_timeout_and_counted(workdir: Path):
    started = time.monotonic()
    result = run_process(
        "profile",
        "workload.py:hangs",
        "--duration",
        "0.3",
        "--timeout",
        "0.8",
        "--warmup",
        "0",
        "--format",
        "json",
        cwd=workdir,
    )
    assert time.monotonic() - started < 30
    assert result.returncode == 1, result.stderr  # like a rollout that raised
    report = json.loads(result.stdout)
    assert report["run"]["timed_out"] == 1 and report["settings"]["timeout_s"] == 0.8
    assert report["outputs"]["values"][3] == {"error": "timed out: still running at --timeout (0.8 s)"}
    rich = run_process(
        "profile", "workload.py:hangs", "--duration", "0.2", "--timeout", "0.5", "--warmup", "0", cwd=workdir
    )
    assert "1 rollouts timed out: still running at --timeout (0.5 s), cancelled" in rich.stdout


def _profile_in_a_terminal_group(workdir: Path, *args: str) -> subprocess.Popen:
    """``asynclint profile`` in a process group of its own, as a shell runs a foreground job, so
    that a Ctrl-C can be sent as a terminal sends it: to the whole group."""
    env = {**os.environ, "NO_COLOR": "1", "ASYNCLINT_TEST_STARTED": str(workdir / "started")}
    return subprocess.Popen(
        [ASYNCLINT, "profile", *args],
        cwd=workdir,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _ctrl_c(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGINT)


def _interrupt_when(path: Path, process: subprocess.Popen, timeout: float = 60, after: float = 0.2) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert process.poll() is None and time.monotonic() < deadline, "the run never started measuring"
        time.sleep(0.02)
    time.sleep(after)
    _ctrl_c(process)


def test_ctrl_c_writes_the_partial_report_and_exits_130(workdir: Path):
    process = _profile_in_a_terminal_group(
        workdir, "workload.py:hangs", "--rollouts", "100", "--warmup", "0", "--format", "json", "-o", "partial.json"
    )
    _interrupt_when(workdir / "started", process)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stderr.splitlines() == ["asynclint: interrupted: stopping (Ctrl-C again to abort)"] and stdout == ""
    report = json.loads((workdir / "partial.json").read_text())
    jsonschema.validate(report, PROFILE_SCHEMA)
    assert report["run"]["interrupted"] is True and report["run"]["cancelled"] == 1
    assert report["outputs"]["values"][3] == {"error": "interrupted: still running when the run was interrupted"}
    assert not list(workdir.glob(".partial.json.*"))  # no temporary file left behind


@pytest.mark.slow
@pytest.mark.timing
def test_ctrl_c_in_a_flood_of_sampler_signals_stops_the_run_with_nothing_else_on_stderr(workdir: Path):
    # Each rollout holds the loop for 1.5 s while the sampler fires, in a target with a loop
    # signal handler: the wakeup socket used to fill, print tracebacks by the hundred, and lose
    # the Ctrl-C. Interrupted inside the second stall.
    process = _profile_in_a_terminal_group(
        workdir,
        "workload.py:floods",
        "--rollouts",
        "20",
        "--concurrency",
        "1",
        "--warmup",
        "0",
        "--format",
        "json",
        "-o",
        "partial.json",
    )
    _interrupt_when(workdir / "started", process, after=2.0)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr[-2000:]
    assert stderr.splitlines() == ["asynclint: interrupted: stopping (Ctrl-C again to abort)"]
    report = json.loads((workdir / "partial.json").read_text())
    assert report["run"]["interrupted"] is True and 1 <= report["run"]["rollouts"] < 20
    spin = next(s for s in report["sites"] if s["function"] == "_spin")
    # Of the time the loop thread had a CPU for (a busy host's share is charged to <host>).
    assert spin["total_ms"] >= 0.5 * (report["lag"]["blocked_ms"] - report["causes"]["host"]), report["causes"]


def _catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler installed for ``signum`` (Linux: /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def test_the_first_ctrl_c_cuts_the_blocking_call_short_and_no_scheduled_step_runs(workdir: Path):
    # Rollout 0 holds the loop in a one-minute time.sleep when Ctrl-C comes, and eight substeps
    # are scheduled behind it, which the rollouts wait for through asyncio.as_completed (so a
    # cancelled rollout does not cancel them). The sleep is cut short, none of them runs.
    started = time.monotonic()
    result = run_process(
        "profile",
        "workload.py:fans_out",
        "--rollouts",
        "3",
        "--warmup",
        "0",
        "--format",
        "json",
        "-o",
        "partial.json",
        cwd=workdir,
    )
    assert time.monotonic() - started < 45, "the one-minute sleep ran on"
    assert result.returncode == 130, result.stderr
    assert result.stderr.splitlines() == ["asynclint: interrupted: stopping (Ctrl-C again to abort)"]
    report = json.loads((workdir / "partial.json").read_text())
    assert report["run"]["interrupted"] is True and report["run"]["cancelled"] == 3
    line = next(n for n, text in enumerate(WORKLOAD.read_text().splitlines(), 1) if "# cut short by Ctrl-C" in text)
    assert any(site["line"] == line and site["function"] == "_substep" for site in report["sites"]), report["sites"]


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc")
def test_a_second_ctrl_c_aborts_at_once(workdir: Path):
    # The loop is held for a minute in code that swallows the first Ctrl-C's cancellation; the
    # second kills the process by SIGINT (a shell reports 130) with no report.
    process = _profile_in_a_terminal_group(
        workdir, "workload.py:stuck", "--rollouts", "4", "--warmup", "0", "--format", "json", "-o", "none.json"
    )
    _interrupt_when(workdir / "started", process, after=0.5)
    # The first one was handled once SIGINT has its default action again: the kernel's record of
    # the signals the process catches says so (a signal, not a delay).
    deadline = time.monotonic() + 30
    while _catches(process.pid, signal.SIGINT):
        assert process.poll() is None and time.monotonic() < deadline, "the first Ctrl-C was never handled"
        time.sleep(0.02)
    _ctrl_c(process)
    stdout, stderr = process.communicate(timeout=30)  # the stall would last 60 s
    assert process.returncode == -signal.SIGINT, stderr[-2000:]
    assert stderr.splitlines() == ["asynclint: interrupted: stopping (Ctrl-C again to abort)"]
    assert not (workdir / "none.json").exists()


def test_ctrl_c_before_measuring_exits_130_without_a_report(workdir: Path):
    (workdir / "slow_import.py").write_text(
        "import pathlib\nimport time\n\npathlib.Path('importing').touch()\ntime.sleep(30)\n\n\n"
        "async def run(i):\n    return i\n"
    )
    process = subprocess.Popen(
        [ASYNCLINT, "profile", "slow_import.py:run", "-o", "none.json"],
        cwd=workdir,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    # Ctrl-C once the target is being imported (on a loaded machine asynclint itself may take
    # seconds to get there: a fixed wait could land earlier, see the next test for that case).
    deadline = time.monotonic() + 120
    while not (workdir / "importing").exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stderr.strip() == "asynclint: interrupted: no report" and not (workdir / "none.json").exists()


def test_ctrl_c_outside_a_commands_own_handling_exits_130_not_clicks_aborted(monkeypatch):
    # A Ctrl-C that lands where the command has no handling of its own (here: while `profile
    # --compare` reads its reports) exits 130, never click's "Aborted!" and 1 (which means findings).
    from click.testing import CliRunner

    from asynclint import cli
    from asynclint.profiler import cli_support

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_support, "compare_reports", interrupted)
    result = CliRunner().invoke(cli.main, ["profile", "--compare", "a.json", "b.json"])
    assert result.exit_code == 130, result.output
    assert "Aborted" not in result.output and "asynclint: stopped by SIGINT" in result.output


def test_rollouts_raising_keyboard_interrupt_or_cancelled_error_are_failed_rollouts(workdir: Path):
    result = run_process(
        "profile", "workload.py:raises_base", "--rollouts", "6", "--warmup", "0", "--format", "json", cwd=workdir
    )
    assert result.returncode == 1, result.stderr
    values = json.loads(result.stdout)["outputs"]["values"]
    assert values[2] == {"error": "KeyboardInterrupt"} and values[4] == {"error": "CancelledError"}
    assert values[5] == 5


def test_what_the_target_prints_goes_to_stderr_when_the_report_is_on_stdout(workdir: Path):
    result = run_process("profile", "workload.py:chatty", "--rollouts", "4", "--format", "json", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["outputs"]["count"] == 4
    assert "rollout 0 says hello" in result.stderr and "from a child process" in result.stderr


def test_concurrency_above_the_rollouts_runs_only_as_many(workdir: Path):
    started = time.monotonic()
    result = run_process("profile", "workload.py:clean", "--rollouts", "10", "--concurrency", "1000000", cwd=workdir)
    assert result.returncode == 0 and time.monotonic() - started < 30
    assert "concurrency 10 (1000000 asked: only 10 rollouts)" in result.stdout
    assert "model latency" not in result.stdout  # no fake server ran for a function


def test_reports_keep_the_files_mode_or_take_the_umask(workdir: Path):
    profile_json(workdir, "workload.py:clean", "new.json")
    assert stat.S_IMODE((workdir / "new.json").stat().st_mode) == 0o666 & ~_umask()
    (workdir / "new.json").chmod(0o640)
    profile_json(workdir, "workload.py:clean", "new.json")
    assert stat.S_IMODE((workdir / "new.json").stat().st_mode) == 0o640


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_sync_callables_that_return_awaitables_are_profiled(workdir: Path):
    (workdir / "factories.py").write_text(
        textwrap.dedent("""
        import asyncio
        import functools


        async def _inner(i):
            await asyncio.sleep(0.001)
            return i


        def sync_returns_coroutine(i):
            return _inner(i)


        as_lambda = lambda i: _inner(i)  # noqa: E731


        def logged(function):
            @functools.wraps(function)
            def wrapper(*args):
                return function(*args)
            return wrapper


        @logged
        async def decorated(i):
            return await _inner(i)


        partial = functools.partial(_inner)
    """)
    )
    for name in ("sync_returns_coroutine", "as_lambda", "decorated", "partial"):
        result = run_process("profile", f"factories.py:{name}", "--rollouts", "5", "--format", "json", cwd=workdir)
        assert result.returncode == 0, (name, result.stderr)
        assert json.loads(result.stdout)["outputs"]["values"] == [0, 1, 2, 3, 4]


def test_a_module_inside_a_package_is_imported_as_the_packages_module(workdir: Path):
    package = workdir / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text("OFFSET = 100\n")
    (package / "mod.py").write_text("from .helper import OFFSET\n\n\nasync def fn(i):\n    return i + OFFSET\n")
    result = run_process("profile", "pkg/mod.py:fn", "--rollouts", "3", "--format", "json", cwd=workdir)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["outputs"]["values"] == [100, 101, 102]


def test_outputs_are_the_same_for_equal_results_of_two_runs(workdir: Path):
    (workdir / "objects.py").write_text(
        textwrap.dedent("""
        class Result:
            def __init__(self, value):
                self.value = value


        async def run(i):
            return {"object": Result(i), "tags": {"b", "a", "c"}, "nan": float("nan"), 1: "int key", "k": "str key"}
    """)
    )
    first = profile_json(workdir, "objects.py:run", "first.json", env={"PYTHONHASHSEED": "1"})
    second = profile_json(workdir, "objects.py:run", "second.json", env={"PYTHONHASHSEED": "2"})
    assert first["outputs"]["sha256"] == second["outputs"]["sha256"]
    value = first["outputs"]["values"][0]
    assert value == {
        "object": "<objects.Result object>",
        "tags": ["a", "b", "c"],
        "nan": "nan",
        "1": "int key",
        "k": "str key",
    }
    assert "NaN" not in (workdir / "first.json").read_text()  # strict JSON


@pytest.fixture(scope="module")
def clean_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of ``workload.py:clean`` (the quick settings), profiled once for the tests that
    only read one: each copies it into its own directory."""
    root = tmp_path_factory.mktemp("clean-report")
    shutil.copy(WORKLOAD, root / "workload.py")
    profile_json(root, "workload.py:clean", "clean.json")
    return root / "clean.json"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r.update(settings=[1, 2]), "'settings' is not an object"),
        (lambda r: r["lag"].update(p99_ms=float("nan")), "lag.p99_ms is nan, not a finite number >= 0"),
        (lambda r: r["lag"].update(max_ms=float("inf")), "lag.max_ms is inf"),
        (lambda r: r["run"].update(wall_s="fast"), "run.wall_s is 'fast'"),
        (lambda r: r["sites"].append({"cause": "user", "path": "a.py", "line": 1.5, "total_ms": 1}), "site "),
        (lambda r: r.update(sites={"a": 1}), "'sites' is not a list"),
    ],
)
def test_malformed_reports_are_named_in_one_line(workdir: Path, clean_report: Path, edit, message):
    shutil.copy(clean_report, workdir / "good.json")
    report = json.loads(clean_report.read_text())
    edit(report)
    (workdir / "bad.json").write_text(json.dumps(report))
    result = run("profile", "--compare", "good.json", "bad.json", cwd=workdir)
    assert result.returncode == 2
    assert result.stderr.startswith("asynclint: error: bad.json: malformed profile report (")
    assert message in result.stderr


def test_compare_notes_a_different_target_and_sampler(workdir: Path, clean_report: Path):
    shutil.copy(clean_report, workdir / "a.json")
    profile_json(workdir, "workload.py:stalls", "b.json", "--method", "thread")
    result = run("profile", "--compare", "a.json", "b.json", cwd=workdir)
    assert "the runs differ: target 'workload.py:clean' → 'workload.py:stalls'" in result.stdout
    assert "method 'signal' → 'thread'" in result.stdout
