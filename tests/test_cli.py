"""The command line: exit codes, formats, config, errors. Run in this process (``run``), except
the smoke tests of the installed command (``run_process``: one per command, the exit status a shell
sees) and what needs a terminal or a signal."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import jsonschema
import pytest
from conftest import ASYNCLINT, DATA, EXAMPLES, TIMEOUT_S, findings, run, run_process, write

from asynclint import progress

HOT = """\
import json
import time
import requests


async def poll(url):
    time.sleep(1)
    return requests.get(url)


async def note(event):
    return json.dumps(event)
"""

CLEAN = """\
import asyncio


async def poll():
    await asyncio.sleep(1)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write(tmp_path, {"pkg/__init__.py": "", "pkg/hot.py": HOT, "pkg/clean.py": CLEAN})


# --- exit codes ------------------------------------------------------------------------------


def test_findings_exit_1_and_clean_exit_0(project: Path):
    assert run_process("check", "pkg/hot.py", cwd=project).returncode == 1
    assert run_process("check", "pkg/clean.py", cwd=project).returncode == 0


def test_version(tmp_path: Path):
    from asynclint import __version__

    result = run_process("--version", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, f"asynclint, version {__version__}\n")


def test_default_path_is_the_current_directory(project: Path):
    result = run("check", "--format", "json", cwd=project)
    assert result.returncode == 1
    assert {f["path"] for f in findings(result)} == {"pkg/hot.py"}


def test_severity_threshold_filters_and_sets_the_exit_code(project: Path):
    everything = findings(run("check", "--format", "json", "pkg", cwd=project))
    assert sorted(f["severity"] for f in everything) == ["critical", "critical", "low"]
    critical = run("check", "--format", "json", "--severity", "critical", "pkg", cwd=project)
    assert [f["severity"] for f in findings(critical)] == ["critical", "critical"]
    write(project, {"low_only.py": "import os\n\nasync def f(p):\n    return os.path.exists(p)\n"})
    assert run("check", "--severity", "high", "low_only.py", cwd=project).returncode == 0
    assert run("check", "--severity", "low", "low_only.py", cwd=project).returncode == 1


def test_syntax_error_beside_good_files_exits_2_and_still_reports_them(project: Path):
    write(project, {"pkg/broken.py": "async def f(:\n    pass\n"})
    result = run("check", "--format", "json", "pkg", cwd=project)
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert [e["path"] for e in report["errors"]] == ["pkg/broken.py"]
    assert "syntax error at line 1" in report["errors"][0]["message"]
    assert {f["path"] for f in report["findings"]} == {"pkg/hot.py"}


def test_non_utf8_file_is_an_error_not_a_crash(project: Path):
    write(project, {"pkg/latin.py": b"x = '\xe9t\xe9'\nasync def f():\n    pass\n"})
    result = run("check", "--format", "concise", "pkg", cwd=project)
    assert result.returncode == 2
    assert "pkg/latin.py: error: cannot decode: not valid utf-8" in result.stdout
    assert "pkg/hot.py:7:5: ASL101 [critical]" in result.stdout


def test_declared_encoding_is_honoured(tmp_path: Path):
    source = "# -*- coding: latin-1 -*-\nimport time\nasync def f():\n    s = 'caf\xe9'; time.sleep(1)\n"
    write(tmp_path, {"legacy.py": source.encode("latin-1")})
    result = run("check", "--format", "json", "legacy.py", cwd=tmp_path)
    assert result.returncode == 1
    [finding] = findings(result)
    assert (finding["line"], finding["column"]) == (4, 17)  # characters (UTF-8 bytes would say 18)


def test_directory_without_python_files_warns_and_exits_0(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    write(tmp_path, {"empty/notes.txt": "nothing here"})
    result = run("check", "empty", cwd=tmp_path)
    assert result.returncode == 0
    assert "no Python files found" in result.stderr


@pytest.mark.parametrize("command", ["check", "fix"])
def test_a_non_python_file_named_explicitly_is_refused(tmp_path: Path, command: str):
    write(
        tmp_path,
        {
            "notes.md": "time.sleep(1)\n",
            "tool": "#!/usr/bin/env python3\nimport time\n\n\nasync def main():\n    time.sleep(1)\n",
            "app.py": "x = 1\n",
        },
    )
    result = run(command, "app.py", "notes.md", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "asynclint: error: notes.md: not a Python file (asynclint reads .py files and scripts "
        "with a python shebang; a directory is searched for .py files)\n"
    )
    script = run("check", "--format", "concise", "tool", cwd=tmp_path)  # a python script without a suffix
    assert script.returncode == 1 and "tool:6:5: ASL101" in script.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("check", "missing_dir"), "missing_dir: no such file or directory"),
        (("check", "--select", "NOPE", "."), "select: unknown rule selector 'NOPE'"),
        (("check", "--ignore", "bogus-rule", "."), "ignore: unknown rule selector 'bogus-rule'"),
        (("check", "--config", "nowhere.toml", "."), "nowhere.toml: no such configuration file"),
        (("rule", "ASL999"), "unknown rule 'ASL999'"),
    ],
)
def test_usage_errors_exit_2_with_one_line(tmp_path: Path, args, message):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == f"asynclint: error: {message}" + (
        " (see `asynclint rules`)" if "unknown rule" in message else ""
    )


def test_bad_option_value_is_a_usage_error(tmp_path: Path):
    result = run_process("check", "--severity", "urgent", cwd=tmp_path)
    assert result.returncode == 2
    assert "Invalid value for '--severity'" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("check", "pkg"),
        ("check", "--format", "concise", "--statistics", "pkg"),
        ("check", "--severity", "urgent", "pkg"),  # click's usage error, which names the program
        ("fix", "--diff", "pkg"),
    ],
)
def test_the_tests_in_process_see_what_the_installed_command_does(project: Path, args):
    """``run`` (in this process) stands for the installed command in most tests: the same
    status, stdout and stderr, byte for byte."""
    in_process, installed = run(*args, cwd=project), run_process(*args, cwd=project)
    assert (in_process.returncode, in_process.stdout, in_process.stderr) == (
        installed.returncode,
        installed.stdout,
        installed.stderr,
    )


# --- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "table, message",
    [
        ("colour = true", "unknown key 'colour'"),
        ('select = "ASL1"', "select must be a list of strings"),
        ('severity = { "blocking-sleep" = "urgent" }', "severity.blocking-sleep: unknown severity 'urgent'"),
        ('severity = { "no-such-rule" = "low" }', "severity: unknown rule 'no-such-rule'"),
        ('[[tool.asynclint.blocking-apis]]\nname = "x.y"\ncategory = "weather"', "category must be one of"),
        ('[[tool.asynclint.blocking-apis]]\nname = "x.y"\ncategory = "http"\nurl = 1', "unknown key 'url'"),
        ("this is not toml", "invalid TOML"),
    ],
)
def test_configuration_errors_are_one_line_exit_2(project: Path, table: str, message: str):
    (project / "pyproject.toml").write_text(f"[tool.asynclint]\n{table}\n")
    result = run("check", "pkg", cwd=project)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("asynclint: error: ")
    assert message in lines[0]


def test_configuration_select_ignore_severity_and_extra_apis(tmp_path: Path):
    write(
        tmp_path,
        {
            "pyproject.toml": """\
                [tool.asynclint]
                ignore = ["inline-serialization"]
                severity = { ASL101 = "medium" }

                [[tool.asynclint.blocking-apis]]
                name = "vendor.fetch_sync"
                category = "http"
                severity = "high"
                fix = "to-thread"
            """,
            "app.py": """\
                import json
                import time
                from vendor import fetch_sync as fetch


                async def handler(url):
                    time.sleep(1)
                    json.dumps({"a": 1})
                    return fetch(url)
            """,
        },
    )
    result = run("check", "--format", "json", "app.py", cwd=tmp_path)
    got = [(f["line"], f["code"], f["severity"]) for f in findings(result)]
    assert got == [(7, "ASL101", "medium"), (9, "ASL102", "high")]
    # Flags: --select replaces the configured selection.
    result = run("check", "--format", "json", "--select", "ASL102", "app.py", cwd=tmp_path)
    assert [f["code"] for f in findings(result)] == ["ASL102"]


def test_configured_hot_and_cold_roots(tmp_path: Path):
    write(
        tmp_path,
        {
            "pyproject.toml": """\
                [tool.asynclint]
                hot-roots = ["server.handle_*"]
                cold-roots = ["server.warm_up"]
            """,
            "server.py": """\
                import time


                def handle_request(req):
                    time.sleep(0.5)


                async def warm_up():
                    time.sleep(5)
            """,
        },
    )
    result = run("check", "--format", "json", "server.py", cwd=tmp_path)
    [finding] = findings(result)
    assert (finding["line"], finding["code"]) == (5, "ASL101")
    assert "configured hot root `handle_request`" in finding["message"]


def test_configured_registrations_and_offload_helpers(tmp_path: Path):
    write(
        tmp_path,
        {
            "pyproject.toml": """\
                [tool.asynclint]
                offload-helpers = ["workers.in_pool:1"]

                [[tool.asynclint.registrations]]
                call = "bot.Bot.on_message"
                arg = 0
                kind = "message handler"
                frequency = "turn"
            """,
            "app.py": """\
                import shutil
                import subprocess
                from bot import Bot
                from workers import in_pool


                def handle(msg):
                    return subprocess.Popen(msg)


                def heavy(path):
                    return shutil.rmtree(path)


                def never_registered(msg):
                    return shutil.rmtree(msg)


                async def main(bot: Bot):
                    bot.on_message(handle)
                    await in_pool(None, heavy, "x")
            """,
        },
    )
    [finding] = findings(run("check", "--format", "json", "app.py", cwd=tmp_path))
    assert (finding["line"], finding["code"], finding["severity"]) == (8, "ASL106", "high")  # medium, per turn
    assert "message handler `handle`" in finding["message"]
    (tmp_path / "pyproject.toml").write_text('[tool.asynclint]\noffload-helpers = ["workers.in_pool:x"]\n')
    bad = run("check", "app.py", cwd=tmp_path)
    assert bad.returncode == 2 and "offload-helpers" in bad.stderr


def test_excludes_gitignore_and_default_directories(project: Path):
    write(
        project,
        {
            ".venv/lib/site.py": HOT,
            "build/gen.py": HOT,
            "generated/out.py": HOT,
            "scratch/tmp.py": HOT,
            ".gitignore": "scratch/\n",
            "pyproject.toml": '[tool.asynclint]\nextend-exclude = ["generated"]\n',
        },
    )
    result = run("check", "--format", "json", ".", cwd=project)
    assert {f["path"] for f in findings(result)} == {"pkg/hot.py"}
    # A file named explicitly is checked even when excluded.
    result = run("check", "--format", "json", "generated/out.py", cwd=project)
    assert {f["path"] for f in findings(result)} == {"generated/out.py"}
    result = run("check", "--format", "json", "--exclude", "pkg", ".", cwd=project)
    assert findings(result) == []


def test_git_info_exclude_and_the_global_excludes_file_are_honoured(project: Path, tmp_path_factory):
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    write(project, {"local/tmp.py": HOT, "mine/tmp.py": HOT, "sub/mine/deep.py": HOT, ".git/info/exclude": "local/\n"})
    home = tmp_path_factory.mktemp("home")
    write(home, {"ignore": "mine/\n", "gitconfig": f"[core]\n\texcludesFile = {home / 'ignore'}\n"})
    env = {"GIT_CONFIG_GLOBAL": str(home / "gitconfig"), "XDG_CONFIG_HOME": str(home / "nowhere")}
    result = run("check", "--format", "json", ".", cwd=project, env=env)
    assert {f["path"] for f in findings(result)} == {"pkg/hot.py"}
    # From a subdirectory too: the patterns match from the work tree's top.
    result = run("check", "--format", "json", "sub", cwd=project, env=env)
    assert findings(result) == []
    # Without core.excludesFile, git's default place for it: $XDG_CONFIG_HOME/git/ignore.
    write(home, {"gitconfig": "", "xdg/git/ignore": "local/\n"})
    (project / ".git/info/exclude").write_text("")
    env = {"GIT_CONFIG_GLOBAL": str(home / "gitconfig"), "XDG_CONFIG_HOME": str(home / "xdg")}
    result = run("check", "--format", "json", ".", cwd=project, env=env)
    assert {f["path"] for f in findings(result)} == {"pkg/hot.py", "mine/tmp.py", "sub/mine/deep.py"}


def test_inline_suppressions(tmp_path: Path):
    write(
        tmp_path,
        {
            "app.py": """\
                import time


                async def f():
                    time.sleep(1)  # asynclint: ignore[ASL101]
                    # asynclint: ignore[blocking-sleep]
                    time.sleep(2)
                    time.sleep(3)  # noqa: ASL101
                    time.sleep(4)  # asynclint: ignore
                    time.sleep(5)  # noqa
                    time.sleep(6)  # asynclint: ignore[ASL102]
            """
        },
    )
    result = run("check", "--format", "json", "app.py", cwd=tmp_path)
    # The suppression of another rule hides nothing: it is reported itself.
    assert [(f["line"], f["code"]) for f in findings(result)] == [(10, "ASL101"), (11, "ASL101"), (11, "ASL901")]


# --- output formats --------------------------------------------------------------------------


def test_json_output_follows_the_contract(tmp_path: Path):
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    result = run("check", "--format", "json", "examples", cwd=tmp_path)
    report = json.loads(result.stdout)
    schema = json.loads((DATA / "asynclint-report.schema.json").read_text())
    jsonschema.validate(report, schema)
    assert report["version"] == 14
    by_line = {(f["path"], f["line"]): f for f in report["findings"]}
    helper = by_line[("examples/wiki_qa/store.py", 48)]
    assert helper["code"] == "ASL107" and helper["rule"] == "blocking-open"
    # The tool registered with ToolEnv awaits `lookup`, which calls the sync `_read_shard`.
    assert [(c["path"], c["line"], c["function"]) for c in helper["chain"]] == [
        ("examples/wiki_qa/env.py", 39, "search_wiki"),
        ("examples/wiki_qa/env.py", 47, "search_wiki"),
        ("examples/wiki_qa/store.py", 72, "lookup"),
        ("examples/wiki_qa/store.py", 48, "_read_shard"),
    ]
    assert helper["severity"] == "high"  # a local file read per tool call: a few ms each time
    for finding in report["findings"]:
        assert finding["chain"][0]["path"] and finding["chain"][-1]["line"] == finding["line"]
        assert 1 <= finding["column"] < finding["end_column"] or finding["end_line"] > finding["line"]


def test_sarif_output_validates_against_the_2_1_0_schema(tmp_path: Path):
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    write(tmp_path, {"examples/broken.py": "def (:\n"})
    result = run("check", "--format", "sarif", "examples", cwd=tmp_path)
    assert result.returncode == 2
    sarif = json.loads(result.stdout)
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(sarif)
    run_ = sarif["runs"][0]
    rule_ids = [rule["id"] for rule in run_["tool"]["driver"]["rules"]]
    assert rule_ids == sorted(rule_ids) and "ASL101" in rule_ids
    levels = {r["properties"]["severity"]: r["level"] for r in run_["results"]}
    assert levels == {"critical": "error", "high": "error", "medium": "warning", "low": "note"}
    for item in run_["results"]:
        assert rule_ids[item["ruleIndex"]] == item["ruleId"]
    assert run_["invocations"][0]["executionSuccessful"] is False


def test_github_annotations(project: Path):
    result = run("check", "--format", "github", "pkg/hot.py", cwd=project)
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith(
        "::error file=pkg/hot.py,line=7,col=5,endLine=7,endColumn=18,title=ASL101 (blocking-sleep)::"
    )
    assert lines[-1].startswith("::notice file=pkg/hot.py,line=12,")


def test_concise_output_and_quiet(project: Path):
    result = run("check", "--format", "concise", "pkg/hot.py", cwd=project)
    lines = result.stdout.strip().splitlines()
    assert re.fullmatch(r"pkg/hot\.py:7:5: ASL101 \[critical\] `time\.sleep` .*", lines[0])
    assert lines[-1] == "Found 3 findings (2 critical, 1 low) in 1 file."
    quiet = run("check", "--format", "concise", "--quiet", "pkg/hot.py", cwd=project)
    assert quiet.stdout.strip().splitlines() == lines[:-1]


def test_rich_output_without_color_has_no_escapes(project: Path):
    result = run("check", "--no-color", "pkg", cwd=project)
    assert "\x1b[" not in result.stdout
    assert "pkg/hot.py" in result.stdout and "ASL102" in result.stdout and "Summary" in result.stdout


def test_statistics_replace_the_findings_in_ruffs_shape(project: Path):
    for fmt in ("rich", "concise"):
        result = run("check", "--format", fmt, "--statistics", "pkg", cwd=project)
        assert result.returncode == 1
        rows = [line.split("\t") for line in result.stdout.splitlines() if "\t" in line]
        assert ["1", "ASL101", "[*] blocking-sleep"] in rows, result.stdout
        assert ["1", "ASL111", "[*] inline-serialization"] in rows, result.stdout
        assert "pkg/hot.py" not in result.stdout and "Summary" not in result.stdout
        assert result.stdout.splitlines()[-1].startswith("[*] ") and "`asynclint check --fix`" in result.stdout
    stats = json.loads(run("check", "--format", "json", "--statistics", "pkg", cwd=project).stdout)
    assert {"code": "ASL101", "name": "blocking-sleep", "count": 1, "fixable": True, "fixable_count": 1} in stats
    refused = run("check", "--format", "sarif", "--statistics", "pkg", cwd=project)
    assert refused.returncode == 2
    assert refused.stderr == "asynclint: error: --statistics has no sarif form (use --format rich, concise or json)\n"


def on_terminal(*args: str, cwd: Path, columns: int, stream: str = "stdout", status: int = 1) -> str:
    """What ``asynclint ARGS`` prints to a terminal ``columns`` wide (a pseudo-terminal) on
    ``stream``; the other stream is a pipe."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    environment = {**os.environ, "NO_COLOR": "1"}
    environment.pop("COLUMNS", None)
    other = tempfile.TemporaryFile()  # a file, not a pipe: nothing waits for it to be read
    streams = {"stdout": slave, "stderr": other}
    if stream == "stderr":
        streams = {"stdout": other, "stderr": slave}
    process = subprocess.Popen([ASYNCLINT, *args], cwd=cwd, env=environment, **streams)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    status_now = process.wait(timeout=300)
    other.seek(0)
    assert status_now == status, other.read().decode()
    return b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.mark.slow
def test_a_progress_bar_on_a_terminals_stderr_for_a_long_run_only(tmp_path: Path):
    # Long enough to take well over a second anywhere (~4 CPU-s here), short enough for the 120 s limit
    # of each of its three runs on a loaded machine: 300 modules of 40 functions, one worker, no cache.
    body = (
        "import json\nimport time\n\n\n"
        + "".join(f"def helper_{i}(x):\n    return json.dumps(x) + str({i})\n\n\n" for i in range(40))
        + "async def handle(state):\n    time.sleep(1)\n    return helper_1(state)\n"
    )
    write(tmp_path, {f"pkg/m{n}.py": body for n in range(300)})
    args = ("check", "--no-cache", "-j", "1", "pkg")
    shown = on_terminal(*args, "--format", "concise", cwd=tmp_path, columns=100, stream="stderr")
    # Which stage is on screen after the first second depends on the machine's speed.
    assert re.search(r"asynclint: (finding files|reading files|indexing|analysing the project)", shown), shown
    assert on_terminal(*args, "--format", "json", cwd=tmp_path, columns=100, stream="stderr") == ""
    assert "asynclint: indexing" not in run(*args, cwd=tmp_path).stderr  # stderr piped
    # A quick run shows nothing: judged only when this run was quick (on a loaded machine even one
    # file can take longer than the delay; test_a_run_shorter_than_the_delay_draws_no_bar holds anyway).
    started = time.monotonic()
    quick = on_terminal(
        "check", "--no-cache", "--no-follow-imports", "pkg/m0.py", cwd=tmp_path, columns=100, stream="stderr"
    )
    if time.monotonic() - started < progress.DELAY:
        assert quick == ""


def test_a_run_shorter_than_the_delay_draws_no_bar(monkeypatch):
    shown = threading.Event()
    monkeypatch.setattr(progress.ProgressBar, "_show", lambda self: shown.set())
    with progress.ProgressBar(True, delay=3600) as bar:  # the run ends long before the delay
        bar("indexing", 1, 2)
    assert bar._timer is not None and bar._timer.finished.is_set()  # cancelled at the end of the run
    assert not shown.is_set()
    with progress.ProgressBar(True, delay=0.0) as bar:  # a run still going when the delay is over
        assert shown.wait(60)
    with progress.ProgressBar(False, delay=0.0) as bar:  # not a terminal: never
        pass
    assert bar._timer is None


def test_rich_report_takes_the_terminals_width_and_pads_nothing_in_a_pipe(project: Path):
    for columns in (60, 140):
        text = on_terminal("check", "pkg", cwd=project, columns=columns)
        lines = text.splitlines()
        assert lines[0].startswith("pkg/hot.py ─") and len(lines[0]) == columns, lines[0]
        assert max(len(line) for line in lines) <= columns
        # words wrap whole: every word of the messages is on one line
        assert "`requests.get`" in text and "`time.sleep`" in text
    wide = on_terminal("check", "pkg", cwd=project, columns=140)
    assert len(wide.splitlines()) < len(on_terminal("check", "pkg", cwd=project, columns=60).splitlines())
    piped = run("check", "pkg", cwd=project, env={"COLUMNS": "80"}).stdout
    assert piped.splitlines()[0] == "pkg/hot.py"  # the heading alone: no rule of dashes
    assert "─" not in piped.split("Summary")[0]
    assert max(len(line) for line in piped.splitlines()) <= 80
    assert not any(line.endswith(" ") for line in piped.splitlines())


@pytest.mark.slow
def test_watch_checks_again_when_a_file_changes_and_ctrl_c_exits_130(tmp_path: Path):
    import queue
    import signal
    import threading

    write(tmp_path, {"pkg/a.py": "import time\n\n\nasync def f():\n    time.sleep(1)\n"})
    environment = {**os.environ, "NO_COLOR": "1"}
    process = subprocess.Popen(
        [ASYNCLINT, "check", "--watch", "--format", "concise", "pkg"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()

    def summary() -> str:  # the next round's closing line; generous: the machine may be loaded
        while True:
            line = lines.get(timeout=120)
            if line.startswith(("Found", "No findings")):
                return line.strip()

    try:
        assert summary() == "Found 1 finding (1 critical) in 1 file."
        (tmp_path / "pkg/a.py").write_text("import time\n\n\nasync def f():\n    time.sleep(1)\n    time.sleep(2)\n")
        assert summary() == "Found 2 findings (2 critical) in 1 file."
        (tmp_path / "pkg/b.py").write_text("async def g():\n    return 1\n")  # a new file is seen too
        assert summary() == "Found 2 findings (2 critical) in 2 files."
    finally:
        process.send_signal(signal.SIGINT)
        status = process.wait(timeout=120)
    assert status == 130
    assert process.stderr.read().splitlines()[-1] == "asynclint: stopped watching"


def test_output_file(project: Path):
    result = run("check", "--format", "json", "--output", "report.json", "pkg", cwd=project)
    assert result.returncode == 1 and result.stdout == ""
    report = json.loads((project / "report.json").read_text())
    assert len(report["findings"]) == 3
    assert not list(project.glob(".report.json.*"))  # no temporary file left behind
    bad = run("check", "--output", "no/such/dir/report.json", "pkg", cwd=project)
    assert bad.returncode == 2 and "cannot write report" in bad.stderr


def test_python_dash_m_entry_point(project: Path):
    result = subprocess.run(
        [sys.executable, "-m", "asynclint", "check", "--no-follow-imports", "--format", "json", "pkg"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert result.returncode == 1 and len(findings(result)) == 3


# --- rule listing ----------------------------------------------------------------------------


def test_rules_and_rule(tmp_path: Path):
    listing = run_process("rules", "--format", "json", cwd=tmp_path)  # the installed commands
    rules = json.loads(listing.stdout)
    assert [r["code"] for r in rules] == [f"ASL1{n:02}" for n in range(1, 21)] + ["ASL201", "ASL202", "ASL901"]
    assert {r["severity"] for r in rules} == {"critical", "high", "medium", "low"}
    table = run("rules", cwd=tmp_path)
    assert "blocking-sleep" in table.stdout and "critical" in table.stdout
    explained = run_process("rule", "blocking-sleep", cwd=tmp_path)
    assert explained.returncode == 0
    assert "ASL101" in explained.stdout and "Why is this bad?" in explained.stdout
    assert "await asyncio.sleep" in explained.stdout
    words = " ".join(explained.stdout.split())  # rich wraps lines at the terminal width
    assert "Grading" in words and "per tool call" in words  # the frequency grading is documented


# --- baseline ----------------------------------------------------------------------------------


def test_baseline_hides_known_findings_and_fails_on_new_ones(tmp_path: Path):
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    recorded = run("check", "--baseline", "known.json", "--write-baseline", "examples", cwd=tmp_path)
    assert recorded.returncode == 0 and "recorded 18 findings" in recorded.stderr
    document = json.loads((tmp_path / "known.json").read_text())
    assert len(document["findings"]) == 18

    assert run("check", "--baseline", "known.json", "examples", cwd=tmp_path).returncode == 0
    env = tmp_path / "examples" / "wiki_qa" / "env.py"
    text = env.read_text()
    # Every line shifts: the known findings stay known; a new offender is reported.
    env.write_text(
        "# a comment that moves every line down\n"
        + text.replace(
            "    if not query.strip():",
            "    time.sleep(0.1)\n    if not query.strip():",
        )
    )
    shifted = run("check", "--baseline", "known.json", "--format", "json", "examples", cwd=tmp_path)
    assert shifted.returncode == 1
    assert [(f["path"], f["code"]) for f in findings(shifted)] == [("examples/wiki_qa/env.py", "ASL101")]
    assert "18 known findings hidden" in shifted.stderr


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("not json", "known.json: not JSON"),
        ("{}", "known.json: not an asynclint baseline"),
        ('{"asynclint_baseline": 2, "findings": [1]}', 'known.json: "findings" must be a list'),
    ],
)
def test_bad_baseline_is_one_line_exit_2(tmp_path: Path, content: str, error: str):
    write(tmp_path, {"known.json": content, "m.py": "x = 1\n"})
    result = run("check", "--baseline", "known.json", "m.py", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and error in result.stderr


def test_write_baseline_needs_a_file(tmp_path: Path):
    write(tmp_path, {"m.py": "x = 1\n"})
    result = run("check", "--write-baseline", "m.py", cwd=tmp_path)
    assert result.returncode == 2 and "--write-baseline needs --baseline FILE" in result.stderr
    missing = run("check", "--baseline", "nope.json", "m.py", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.json: cannot read baseline" in missing.stderr


def test_asynclint_passes_its_own_check():
    """The profiler, the fake server and the watch API run on event loops too: asynclint's own
    source must be clean by its own rules (deliberate exceptions carry a suppression with a reason)."""
    repo = Path(__file__).parent.parent
    # The whole source tree, uncached: ~20 s on an idle machine, past TIMEOUT_S at a load of 25.
    result = run("check", "--format", "concise", "--no-cache", "src", cwd=repo, timeout=10 * TIMEOUT_S)
    assert result.returncode == 0, result.stdout + result.stderr
