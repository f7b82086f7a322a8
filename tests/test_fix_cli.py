"""``asynclint fix`` on the command line: what it writes (and refuses to), exit codes, --diff, --dry-run,
read-only files, permissions, encodings, and the example environment end to end (on a copy)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, run, run_process, write

HOT = """\
import time
import os


async def poll(path):
    time.sleep(1)
    return os.path.exists(path)
"""

FIXED_HOT = """\
import asyncio
import os


async def poll(path):
    await asyncio.sleep(1)
    return await asyncio.to_thread(os.path.exists, path)
"""

CPU = """\
import sympy


async def factors(state):
    return sympy.factor(state["expression"])
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write(
        tmp_path,
        {"pkg/__init__.py": "", "pkg/hot.py": HOT, "pkg/cpu.py": CPU, "pkg/clean.py": "async def f():\n    return 1\n"},
    )


def test_fix_writes_the_fix_and_exits_0_when_nothing_is_left(project: Path):
    result = run_process("fix", "--severity", "low", "pkg/hot.py", cwd=project)  # the installed command
    assert result.returncode == 0, result.stdout + result.stderr
    assert (project / "pkg/hot.py").read_text() == FIXED_HOT
    assert "pkg/hot.py:6:5: ASL101 fixed: replaced `time.sleep` with `await asyncio.sleep`" in result.stdout
    assert "Fixed 2 findings in 1 file." in result.stdout
    assert run("check", "--severity", "low", "pkg/hot.py", cwd=project).returncode == 0


def test_default_severity_is_checks_and_the_closing_line_says_what_a_higher_one_leaves(project: Path):
    original = (project / "pkg/hot.py").read_text()
    result = run("fix", "--severity", "high", "pkg/hot.py", cwd=project)
    assert result.returncode == 0
    text = (project / "pkg/hot.py").read_text()
    assert "await asyncio.sleep(1)" in text and "os.path.exists(path)" in text and "to_thread" not in text
    assert result.stdout.splitlines()[-1] == (
        "Fixed 1 finding in 1 file; 1 below --severity high not tried (1 low; --severity low tries them)."
    )
    (project / "pkg/hot.py").write_text(original)
    result = run("fix", "pkg/hot.py", cwd=project)  # as check: every severity
    assert result.returncode == 0 and (project / "pkg/hot.py").read_text() == FIXED_HOT
    assert result.stdout.splitlines()[-1] == "Fixed 2 findings in 1 file."


def test_check_fix_fixes_then_reports_what_is_left(project: Path):
    result = run("check", "--fix", "--format", "json", "pkg", cwd=project)
    assert result.returncode == 1  # the CPU call needs --unsafe-fixes
    assert (project / "pkg/hot.py").read_text() == FIXED_HOT
    assert [(f["path"], f["code"]) for f in json.loads(result.stdout)["findings"]] == [("pkg/cpu.py", "ASL112")]
    assert result.stderr == "asynclint: Fixed 2 findings in 1 file.\n"
    result = run("check", "--fix", "--unsafe-fixes", "--show-fixes", "pkg", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pkg/cpu.py:5:12: ASL112 fixed: " in result.stderr and "[unsafe]" in result.stderr
    assert "No blocking calls found in 4 files." in result.stdout
    for flag in ("--unsafe-fixes", "--show-fixes"):
        refused = run("check", flag, "pkg", cwd=project)
        assert refused.returncode == 2 and refused.stderr == (
            f"asynclint: error: {flag} needs --fix (to see the fixes without writing them: asynclint fix --dry-run)\n"
        )


def test_findings_left_exit_1_and_say_why(project: Path):
    result = run("fix", "--severity", "low", "pkg", cwd=project)
    assert result.returncode == 1
    assert "pkg/cpu.py:5:12: ASL112 [medium] left: unsafe fix, needs --unsafe-fixes" in result.stdout
    assert (project / "pkg/cpu.py").read_text() == CPU
    assert "1 left (1 with an unsafe fix: --unsafe-fixes)" in result.stdout


def test_unsafe_fixes_flag(project: Path):
    result = run("fix", "--severity", "low", "--unsafe-fixes", "pkg/cpu.py", cwd=project)
    assert result.returncode == 0, result.stdout
    text = (project / "pkg/cpu.py").read_text()
    assert '_PROCESS_POOL = ProcessPoolExecutor(mp_context=multiprocessing.get_context("spawn"))' in text
    assert "loop.run_in_executor" in text
    assert "[unsafe]" in result.stdout


def test_diff_writes_nothing_and_exits_1(project: Path):
    result = run("fix", "--severity", "low", "--diff", "pkg", cwd=project)
    assert result.returncode == 1
    assert result.stdout.startswith("--- a/pkg/hot.py\n+++ b/pkg/hot.py\n")
    lines = result.stdout.splitlines()
    assert "-    time.sleep(1)" in lines and "+    await asyncio.sleep(1)" in lines and "+import asyncio" in lines
    assert (project / "pkg/hot.py").read_text() == HOT
    clean = run("fix", "--diff", "pkg/clean.py", cwd=project)
    assert (clean.returncode, clean.stdout) == (0, "")


@pytest.mark.parametrize("tool", [["git", "apply"], ["patch", "-p1", "-s"]], ids=["git-apply", "patch"])
def test_diff_applies_with_git_apply_and_patch(project: Path, tool: list[str]):
    if shutil.which(tool[0]) is None:
        pytest.skip(f"no {tool[0]}")
    diff = run("fix", "--severity", "low", "--diff", "pkg/hot.py", cwd=project).stdout
    assert diff.startswith("--- a/pkg/hot.py\n+++ b/pkg/hot.py\n")
    subprocess.run(tool, input=diff, text=True, cwd=project, check=True)
    assert (project / "pkg/hot.py").read_text() == FIXED_HOT


def test_dry_run_reports_and_writes_nothing(project: Path):
    result = run("fix", "--severity", "low", "--dry-run", "pkg/hot.py", cwd=project)
    assert result.returncode == 1
    assert "ASL101 would fix:" in result.stdout and "Would fix 2 findings in 1 file." in result.stdout
    assert (project / "pkg/hot.py").read_text() == HOT


def _make_read_only(path: Path) -> None:
    """chmod for ordinary users; root ignores permissions, so it gets the immutable flag."""
    path.chmod(0o444)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        import subprocess

        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode:
            path.chmod(0o644)
            pytest.skip("running as root without chattr: cannot make a file read-only")


def _make_writable(path: Path) -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("chattr"):
        import subprocess

        subprocess.run(["chattr", "-i", str(path)])
    path.chmod(0o644)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_read_only_file_is_reported_and_the_others_are_still_fixed(project: Path):
    write(project, {"pkg/other.py": HOT})
    locked = project / "pkg/hot.py"
    _make_read_only(locked)
    try:
        result = run("fix", "--severity", "low", "pkg/hot.py", "pkg/other.py", cwd=project)
        assert locked.read_text() == HOT
    finally:
        _make_writable(locked)
    assert result.returncode == 2
    assert "pkg/hot.py: error: not fixed, " in result.stdout
    assert "could not be written" in result.stdout
    assert (project / "pkg/other.py").read_text() == FIXED_HOT
    assert not list(project.glob("pkg/.*tmp")), "no temporary file left behind"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_file_without_write_bits_is_read_only_even_for_root(tmp_path: Path):
    from asynclint.writer import WriteError, replace_source

    path = tmp_path / "locked.py"
    path.write_text(HOT, encoding="utf-8")
    path.chmod(0o444)
    try:
        with pytest.raises(WriteError, match="read-only"):
            replace_source(path, HOT, FIXED_HOT)
        assert path.read_text(encoding="utf-8") == HOT and stat.S_IMODE(path.stat().st_mode) == 0o444
        assert [p.name for p in tmp_path.iterdir()] == ["locked.py"], "no temporary file left behind"
    finally:
        path.chmod(0o644)


def test_permissions_are_kept(project: Path):
    script = project / "pkg/hot.py"
    script.chmod(0o750)
    assert run("fix", "--severity", "low", "pkg/hot.py", cwd=project).returncode == 0
    assert stat.S_IMODE(script.stat().st_mode) == 0o750
    assert not list(project.glob("pkg/.*tmp")), "no temporary file left behind"


def test_encoding_and_line_endings_are_kept(tmp_path: Path):
    source = (
        "# -*- coding: latin-1 -*-\r\nimport time\r\n\r\n\r\n"
        "async def f():\r\n    s = 'caf\xe9'\r\n    time.sleep(1)\r\n"
    )
    write(tmp_path, {"legacy.py": source.encode("latin-1")})
    assert run("fix", "legacy.py", cwd=tmp_path).returncode == 0
    data = (tmp_path / "legacy.py").read_bytes()
    assert "caf\xe9".encode("latin-1") in data and b"await asyncio.sleep(1)\r\n" in data
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_bad_input_is_one_line_on_stderr_and_exit_2(project: Path):
    for args in (["fix", "missing_dir"], ["fix", "--select", "NOPE", "pkg"], ["fix", "--config", "nope.toml", "pkg"]):
        result = run(*args, cwd=project)
        assert result.returncode == 2, args
        assert result.stderr.startswith("asynclint: error:") and result.stderr.count("\n") == 1, result.stderr


def test_unparsable_file_is_reported_and_the_others_fixed(project: Path):
    write(project, {"pkg/broken.py": "async def f(:\n"})
    result = run("fix", "--severity", "low", "pkg/hot.py", "pkg/broken.py", cwd=project)
    assert result.returncode == 2
    assert "pkg/broken.py: error:" in result.stdout
    assert (project / "pkg/hot.py").read_text() == FIXED_HOT


def test_select_and_ignore(project: Path):
    run("fix", "--severity", "low", "--select", "ASL109", "pkg/hot.py", cwd=project)
    text = (project / "pkg/hot.py").read_text()
    assert "time.sleep(1)" in text and "to_thread(os.path.exists" in text
    run("fix", "--severity", "low", "--ignore", "blocking-fs-call", "pkg/hot.py", cwd=project)
    assert "await asyncio.sleep(1)" in (project / "pkg/hot.py").read_text()


def test_check_shows_the_fix_in_json_and_rich(project: Path):
    report = json.loads(run("check", "--format", "json", "--severity", "low", "pkg", cwd=project).stdout)
    fixes = {f["code"]: f["fix"] for f in report["findings"]}
    assert fixes["ASL101"] == {"safe": True, "title": "Replace with `await asyncio.sleep(...)`"}
    assert fixes["ASL112"]["safe"] is False
    rich = run("check", "--severity", "low", "pkg", cwd=project).stdout
    assert "fix available (safe): Replace with await asyncio.sleep(...)" in rich.replace("`", "")


def test_rules_command_shows_which_rules_can_be_fixed(tmp_path: Path):
    rules = json.loads(run("rules", "--format", "json", cwd=tmp_path).stdout)
    # Every rule about code has a fix but two: an unused suppression is the user's comment to edit, and
    # a loop that awaits a blocking coroutine is fixed where the coroutine blocks (that call's own finding).
    assert {rule["code"] for rule in rules if not rule["fix_available"]} == {"ASL120", "ASL901"}


# --- the example environment, on a copy ------------------------------------------------------------


@pytest.fixture
def example(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    return tmp_path


def test_example_environment_fixes_clean(example: Path):
    """The issue's 'done when': `fix --severity low examples/` leaves nothing for `check` at that
    severity (the CPU-bound calls are pure library functions: a process pool is safe for them),
    the result is a fixed point, and `--unsafe-fixes` on top still checks clean."""
    result = run("fix", "--severity", "low", "examples", cwd=example)
    assert result.returncode == 0, result.stdout
    assert " left: " not in result.stdout and "[unsafe]" not in result.stdout, result.stdout
    check = run("check", "--severity", "low", "--format", "json", "examples", cwd=example)
    assert (check.returncode, json.loads(check.stdout)["findings"]) == (0, [])
    again = run("fix", "--severity", "low", "--unsafe-fixes", "--diff", "examples", cwd=example)
    assert (again.returncode, again.stdout) == (0, ""), "fixing the fixed example must change nothing"
    env = (example / "examples/wiki_qa/env.py").read_text()
    # The diff a careful human would write: one helper per blocking block, nothing doubled.
    assert env.count("def _read_gold_doc():") == 1 and "await asyncio.to_thread(_read_gold_doc)" in env
    assert env.count("import asyncio") == 1 and "to_thread(asyncio.to_thread" not in env
    for path in (example / "examples/wiki_qa").glob("*.py"):
        compile(path.read_text(), str(path), "exec")


def test_example_environment_fixes_clean_with_unsafe_fixes(tmp_path: Path):
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    result = run("fix", "--severity", "low", "--unsafe-fixes", "examples", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "[unsafe]" in result.stdout  # the judge's sync client became the async one
    check = run("check", "--severity", "low", "--format", "json", "examples", cwd=tmp_path)
    assert (check.returncode, json.loads(check.stdout)["findings"]) == (0, [])
    again = run("fix", "--severity", "low", "--unsafe-fixes", "--diff", "examples", cwd=tmp_path)
    assert (again.returncode, again.stdout) == (0, "")


# --- the writer, in process ------------------------------------------------------------------------


def test_writer_refuses_a_file_changed_since_it_was_read(tmp_path: Path):
    from asynclint.writer import WriteError, replace_source

    target = tmp_path / "mod.py"
    target.write_text("x = 2\n", encoding="utf-8")
    with pytest.raises(WriteError, match="changed on disk"):
        replace_source(target, "x = 1\n", "x = 3\n")
    assert target.read_text() == "x = 2\n"


def test_writer_keeps_a_byte_order_mark(tmp_path: Path):
    from asynclint.writer import replace_source

    target = tmp_path / "bom.py"
    target.write_bytes(b"\xef\xbb\xbfx = 1\n")
    replace_source(target, "x = 1\n", "x = 'caf\u00e9'\n")
    assert target.read_bytes() == b"\xef\xbb\xbfx = 'caf\xc3\xa9'\n"


def test_writer_reports_text_the_encoding_cannot_hold(tmp_path: Path):
    from asynclint.writer import WriteError, replace_source

    target = tmp_path / "latin.py"
    target.write_bytes(b"# -*- coding: latin-1 -*-\nx = 1\n")
    with pytest.raises(WriteError, match="encoding"):
        replace_source(target, "# -*- coding: latin-1 -*-\nx = 1\n", "# -*- coding: latin-1 -*-\nx = '\u2603'\n")
    assert target.read_bytes() == b"# -*- coding: latin-1 -*-\nx = 1\n"


def test_dry_run_places_what_it_leaves_in_the_file_as_it_is(tmp_path: Path):
    # The fix of line 5 adds `import asyncio` (and a blank line) above; nothing is written, so
    # the finding left on line 9 must be reported on line 9, not where the fixed text has it.
    source = (
        "import time\n"
        "\n"
        "\n"
        "async def step(path):\n"
        "    time.sleep(1)\n"
        "\n"
        "\n"
        "async def read(path):\n"
        "    with open(path) as f:\n"
        "        return f.read()\n"
    )
    (tmp_path / "m.py").write_text(source)
    result = run("fix", "--severity", "low", "--dry-run", "m.py", cwd=tmp_path)
    assert "m.py:5:5: ASL101 would fix:" in result.stdout
    assert "m.py:9:10: ASL107 [high] left: " in result.stdout, result.stdout
    assert (tmp_path / "m.py").read_text() == source


def _stopped_after_rewriting_hot(result: subprocess.CompletedProcess, project: Path) -> None:
    """A run stopped by SIGINT once pkg/hot.py was rewritten: exit 130, the file fixed and listed."""
    assert result.returncode == 130, result.stderr
    assert (project / "pkg/hot.py").read_text() == FIXED_HOT
    assert "stopped by SIGINT after rewriting 1 of 1 files" in result.stderr
    assert "  pkg/hot.py" in result.stderr.splitlines()


@pytest.mark.parametrize("command", [("fix",), ("check", "--fix")])
def test_a_stop_while_the_report_is_written_still_lists_the_rewritten_files(
    project: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
):
    # A stop signal that lands after the writes, while the report is being written (a loaded machine
    # makes that window long), must not say less than one that lands during the writes.
    import signal

    from asynclint.interrupts import Interrupted
    from asynclint.report import fix_report

    def stopped(*args: object, **kwargs: object) -> str:
        raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(fix_report, "render_fix_report", stopped)
    monkeypatch.setattr(fix_report, "fixed_summary", stopped)
    result = run(*command, "--severity", "low", "pkg/hot.py", cwd=project)
    _stopped_after_rewriting_hot(result, project)


@pytest.mark.parametrize("command", [("fix",), ("check", "--fix")])
def test_a_stop_as_the_fix_run_returns_still_lists_the_rewritten_files(
    project: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
):
    # The writing's deferred signals end with the run: one that lands as it returns, before the
    # command's next line (the storm test in test_signals caught a bare "stopped by SIGINT" there),
    # lists the files as one during the writes does.
    import signal

    from asynclint import fixrun
    from asynclint.interrupts import Interrupted

    written = fixrun.run_fix

    def stopped_on_return(*args: object, **kwargs: object) -> fixrun.FixRun:
        written(*args, **kwargs)  # type: ignore[arg-type]
        raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(fixrun, "run_fix", stopped_on_return)
    result = run(*command, "--severity", "low", "pkg/hot.py", cwd=project)
    _stopped_after_rewriting_hot(result, project)


def test_a_stop_before_the_fix_run_writes_says_nothing_changed(project: Path, monkeypatch: pytest.MonkeyPatch):
    import signal

    from asynclint import fixrun
    from asynclint.interrupts import Interrupted

    def stopped_before(*args: object, **kwargs: object) -> fixrun.FixRun:
        raise Interrupted(signal.SIGINT)

    monkeypatch.setattr(fixrun, "run_fix", stopped_before)
    before = (project / "pkg/hot.py").read_text()
    for command in (("fix",), ("check", "--fix")):
        result = run(*command, "--severity", "low", "pkg/hot.py", cwd=project)
        assert result.returncode == 130, result.stderr
        assert "stopped by SIGINT: no file was changed" in result.stderr
        assert (project / "pkg/hot.py").read_text() == before
