"""``asynclint profile`` as an installed command, run as a subprocess: JSON and rich output,
--output/--html, --compare with identical and different outputs, one-line errors (exit 2)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest

from test_cli import run

SCHEMA = json.loads((Path(__file__).parent / "data" / "profile-report.schema.json").read_text())

WORKLOAD = Path(__file__).parent / "data" / "profiler" / "workload.py"
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
    jsonschema.validate(report, SCHEMA)  # the contract documented in docs/profiler.md
    return report


def test_json_report_names_the_injected_lines(workdir: Path):
    report = profile_json(workdir, "workload.py:stalls", "profile.json", "--html", "stalls.html")
    assert report["asynclint_profile"] == 1 and report["kind"] == "callable"
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


def test_rich_report_to_stdout(workdir: Path):
    result = run("profile", "workload.py:stalls", *QUICK, cwd=workdir)
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
    result = run("profile", "workload:clean", "--duration", "0.3", "--concurrency", "8", "--format", "json",
                 cwd=workdir)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["settings"]["duration_s"] == 0.3 and report["settings"]["rollouts"] is None
    assert report["run"]["rollouts"] == report["outputs"]["count"] > 8
    assert report["run"]["wall_s"] >= 0.3


def test_failing_rollouts_are_outputs_and_exit_1(workdir: Path):
    result = run("profile", "workload.py:flaky", "--rollouts", "10", "--format", "json", cwd=workdir)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["run"]["errors"] == 2 and report["run"]["first_error"] == "ValueError: rollout 0 failed"
    assert report["outputs"]["values"][0] == {"error": "ValueError: rollout 0 failed"}


def test_a_rollout_calling_sys_exit_is_a_failed_rollout(workdir: Path):
    result = run("profile", "workload.py:exits", "--rollouts", "6", "--warmup", "0", "--format", "json", cwd=workdir)
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["run"]["errors"] == 1 and report["outputs"]["values"][3] == {"error": "SystemExit: 3"}


@pytest.mark.parametrize(("args", "message"), [
    (("missing.py:run",), "missing.py: no such file or directory"),
    (("workload.py:nope",), "workload.py:nope: workload.py has no attribute 'nope'"),
    (("workload.py:not_async",), "'not_async' is not an async function"),
    (("no_such_module_xyz",), "no_such_module_xyz: no such file, module or installed environment"),
    (("workload.py",), "neither a verifiers v0 environment (no load_environment()) nor a v1 one"),
    ((), "missing TARGET"),
    (("--compare", "missing.json", "workload.py"), "missing.json: no such file"),
    (("--compare", "workload.py", "workload.py"), "workload.py: not valid JSON"),
    (("--compare", "plain.json", "plain.json"), "plain.json: not an asynclint profile report"),
    (("workload.py:clean", "--threshold", "1", "--interval", "2"), "must be shorter than --threshold"),
    (("workload.py:clean", "--env-args", "[1]"), "--env-args: expected a JSON object"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(workdir: Path, args, message):
    (workdir / "plain.json").write_text('{"version": 1}')
    result = run("profile", *args, cwd=workdir)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("asynclint: error: ") and message in lines[0], result.stderr


def test_an_import_error_in_the_target_is_one_line(workdir: Path):
    (workdir / "broken.py").write_text("import no_such_dependency_xyz\n\nasync def run(i):\n    return i\n")
    result = run("profile", "broken.py:run", cwd=workdir)
    assert result.returncode == 2
    assert result.stderr.strip() == ("asynclint: error: cannot import broken.py: ModuleNotFoundError: "
                                     "No module named 'no_such_dependency_xyz'")
