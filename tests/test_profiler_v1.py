"""A verifiers v1 environment (a package exporting a Taskset) profiled offline: the local
subprocess runtime, asynclint's in-process agent, the model behind the fake server. Needs
verifiers with ``verifiers.v1`` (0.3.x bundles it; 0.4.x is only that)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest
from conftest import ASYNCLINT, run, run_process

pytest.importorskip("verifiers.v1", reason="needs verifiers with the v1 API (`pip install -e .[verifiers]`)")

# Real runs of a verifiers v1 environment: seconds each.
pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data" / "profiler"
SCHEMA = json.loads((Path(__file__).parent / "data" / "profile-report.schema.json").read_text())
ARGS = ("--rollouts", "12", "--concurrency", "6", "--latency", "10", "--warmup", "3", "--format", "json")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("v1")
    shutil.copytree(DATA / "qa_v1", root / "qa_v1", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _profile(workdir: Path, name: str, *extra: str) -> dict:
    result = run_process("profile", "qa_v1", *ARGS, "-o", name, *extra, cwd=workdir)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads((workdir / name).read_text())
    jsonschema.validate(report, SCHEMA)
    return report


@pytest.fixture(scope="module")
def first(workdir: Path) -> dict:
    return _profile(workdir, "first.json")


def _line(workdir: Path, marker: str) -> int:
    source = (workdir / "qa_v1" / "__init__.py").read_text().splitlines()
    return next(n for n, text in enumerate(source, 1) if text.endswith(f"# stall: {marker}"))


def test_rollouts_run_in_task_order_with_their_rewards(first: dict):
    assert first["kind"] == "verifiers-v1"
    assert first["run"]["rollouts"] == 12 and first["run"]["errors"] == 0
    values = first["outputs"]["values"]
    assert [v["task"] for v in values] == [0, 1, 2] * 4
    assert all(set(v) == {"task", "reward", "rewards", "metrics"} for v in values)
    assert all(v["rewards"]["mentions_answer"] in (0.0, 1.0) and v["metrics"]["reply_chars"] > 0 for v in values)
    # Same task, same conversation, same seed: the same reward every time it comes round.
    assert values[:3] == values[3:6] == values[9:]


def test_a_blocking_reward_is_attributed_to_its_line_and_finding(workdir: Path, first: dict):
    sleep = _line(workdir, "sleep")
    site = next(s for s in first["sites"] if (s["path"], s["line"]) == ("qa_v1/__init__.py", sleep))
    assert site["function"] == "QATask.mentions_answer" and site["cause"] == "user"
    assert site["finding"]["code"] == "ASL101" and site["finding"]["severity"] == "critical"
    # Twelve rollouts each sleep 20 ms in the reward, on the loop: most of that is seen.
    assert site["total_ms"] >= 0.5 * 12 * 20
    assert first["static"]["findings"] >= 3  # the sleep, mkdtemp and write_text in setup


def test_the_same_seed_gives_identical_outputs_and_another_seed_differs(workdir: Path, first: dict):
    _profile(workdir, "again.json")
    same = run("profile", "--compare", "first.json", "again.json", cwd=workdir)
    assert same.returncode == 0, same.stdout + same.stderr
    other = _profile(workdir, "seed.json", "--seed", "2")
    assert other["outputs"]["sha256"] != first["outputs"]["sha256"]


def test_a_failing_hook_makes_failed_rollouts_and_exit_1(tmp_path: Path):
    shutil.copytree(DATA / "qa_v1", tmp_path / "qa_v1", ignore=shutil.ignore_patterns("__pycache__"))
    module = tmp_path / "qa_v1" / "__init__.py"
    module.write_text(
        module.read_text().replace(
            "        time.sleep(0.02)  # stall: sleep\n", "        raise ValueError('judge unavailable')\n"
        )
    )
    result = run_process("profile", "qa_v1", *ARGS, "-o", "broken.json", cwd=tmp_path)
    assert result.returncode == 1, result.stderr[-2000:]
    report = json.loads((tmp_path / "broken.json").read_text())
    assert report["run"]["errors"] == 12
    assert "judge unavailable" in report["run"]["first_error"]
    assert not report["run"]["first_error"].startswith("RolloutError")


def test_a_module_without_a_taskset_or_load_environment_is_one_line(tmp_path: Path):
    (tmp_path / "plain.py").write_text("import verifiers.v1 as vf\n\nVALUE = 1\n")
    # In this process: refused before anything runs, and verifiers is imported here already.
    result = run("profile", "plain.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "no Taskset subclass in __all__" in result.stderr


def test_tools_are_called_over_mcp_by_the_in_process_agent(tmp_path: Path):
    pytest.importorskip("mcp", reason="v1 tool servers need the `mcp` package (verifiers 0.4 installs it)")
    shutil.copytree(DATA / "lookup_v1", tmp_path / "lookup_v1", ignore=shutil.ignore_patterns("__pycache__"))
    result = run_process(
        "profile",
        "lookup_v1",
        "--rollouts",
        "2",
        "--concurrency",
        "2",
        "--warmup",
        "0",
        "--tool-turns",
        "1",
        "--format",
        "json",
        "-o",
        "tools.json",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads((tmp_path / "tools.json").read_text())
    assert report["run"]["errors"] == 0, report["run"]["first_error"]
    # The fake model searches with the question, then answers with a word of the tool's result.
    assert [v["reward"] for v in report["outputs"]["values"]] == [1.0, 1.0]


def _server_child(parent: int) -> int | None:
    """The fake server among ``parent``'s children, from /proc."""
    for task in Path(f"/proc/{parent}/task").glob("*"):
        for child in (task / "children").read_text().split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
            if b"asynclint.profiler.fakeserver" in cmdline:
                return int(child)
    return None


def _listening_port(pid: int) -> int | None:
    """The TCP port ``pid`` listens on, from /proc (its sockets' inodes in /proc/net/tcp)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").glob("*"):
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    for row in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = row.split()
        if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
            return int(fields[1].rsplit(":", 1)[1], 16)
    return None


def _model_requests(port: int) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/_stats")
        return json.loads(connection.getresponse().read())["requests"]
    finally:
        connection.close()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_ctrl_c_during_the_run_reaps_the_fake_server_and_writes_the_partial_report(workdir: Path):
    env = {**os.environ, "NO_COLOR": "1"}
    # Model calls of 3 s: the run is still measuring when it is interrupted. In a process group
    # of its own, like a shell's foreground job, so that Ctrl-C goes to the group as a terminal's.
    process = subprocess.Popen(
        [
            ASYNCLINT,
            "profile",
            "qa_v1",
            "--rollouts",
            "4",
            "--warmup",
            "0",
            "--latency",
            "3000",
            "--format",
            "json",
            "-o",
            "partial.json",
        ],
        cwd=workdir,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    server = port = None
    while (server is None or port is None) and time.monotonic() < deadline and process.poll() is None:
        server = _server_child(process.pid)
        port = _listening_port(server) if server is not None else None
        time.sleep(0.05)
    assert server is not None and port is not None, "no fake server started"
    # The terminal's Ctrl-C does not reach the server: its process group is not the profiler's.
    assert os.getpgid(server) != os.getpgid(process.pid)
    # Measuring has begun once a rollout has asked the model (no warm-up): a signal, not a delay.
    while _model_requests(port) == 0:
        assert time.monotonic() < deadline and process.poll() is None, "no rollout reached the model"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.2)
    # The server outlives the first Ctrl-C (the rollouts being cancelled may still talk to it)
    # until the partial report is written...
    try:
        assert _model_requests(port) >= 1
    except ConnectionRefusedError:
        assert (workdir / "partial.json").exists(), "the server went before the report was written"
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr[-2000:]
    # ... and is gone once the profiler has written its report.
    assert not Path(f"/proc/{server}").exists() or Path(f"/proc/{server}/stat").read_text().split()[2] == "Z"
    report = json.loads((workdir / "partial.json").read_text())
    jsonschema.validate(report, SCHEMA)
    assert report["run"]["interrupted"] is True and report["run"]["cancelled"] == 4
