"""The README's walkthroughs run as written: every ```bash block after a ``<!-- walkthrough``
comment is run, one line after another in one shell, from a directory holding a copy of
``examples`` (as the repository's root does), through the installed ``asynclint``.

Each line's trailing comment states what it must do: ``exit N`` its exit status (0 when it says
none), and each ``"quoted text"`` must appear in what it prints.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ASYNCLINT, EXAMPLES

README = Path(__file__).parent.parent / "README.md"
_BLOCK = re.compile(r"<!-- walkthrough\b[^>]*-->\n```bash\n(?P<body>.*?)```", re.DOTALL)
_EXIT = re.compile(r"\bexit (\d+)\b")
_QUOTED = re.compile(r'"([^"]+)"')


@dataclass(frozen=True)
class Step:
    command: str
    status: int
    says: tuple[str, ...]


def steps(body: str) -> list[Step]:
    found = []
    for line in body.splitlines():
        if not line.strip():
            continue
        # The comment starts at a " # " outside quotes (the commands here quote no "#").
        command, _, comment = line.partition("  # ")
        status = _EXIT.search(comment)
        found.append(Step(command.strip(), int(status.group(1)) if status else 0, tuple(_QUOTED.findall(comment))))
    return found


def walkthroughs() -> list[str]:
    return [match.group("body") for match in _BLOCK.finditer(README.read_text(encoding="utf-8"))]


def _needs(body: str) -> list:
    if "asynclint profile" not in body:
        return []
    # The profiler drives the bundled verifiers environment: the `verifiers` extra, seconds per run.
    try:
        import verifiers.legacy  # noqa: F401
    except ImportError:
        return [pytest.mark.skip(reason="needs `pip install -e .[verifiers]` (verifiers 0.3.x)")]
    return [pytest.mark.slow]


def test_the_readme_has_walkthroughs_and_each_line_says_what_it_does():
    blocks = walkthroughs()
    assert len(blocks) >= 2, "the walkthrough markers are gone from README.md"
    parsed = [step for body in blocks for step in steps(body)]
    assert any(step.status == 1 for step in parsed) and any(step.says for step in parsed)
    assert steps('asynclint check x   # "Found 2", exit 1\n') == [Step("asynclint check x", 1, ("Found 2",))]


@pytest.mark.parametrize(
    "body", [pytest.param(body, id=f"block{n}", marks=_needs(body)) for n, body in enumerate(walkthroughs())]
)
def test_walkthrough_runs_as_written(body: str, tmp_path: Path):
    start = tmp_path / "repo"
    start.mkdir()
    shutil.copytree(EXAMPLES, start / "examples", ignore=shutil.ignore_patterns("__pycache__", ".asynclint_cache"))
    out = tmp_path / "out"
    out.mkdir()
    script = ["set -u"]
    walk = steps(body)
    for number, step in enumerate(walk):
        # Braces, not a subshell: a `cd` carries over to the next line, as when a reader types them.
        script.append(f'{{ {step.command} ; }} > "{out}/{number}.out" 2>&1; echo $? > "{out}/{number}.status"')
    bin_dir = tmp_path / "bin"  # `asynclint` on PATH is the one under test
    bin_dir.mkdir()
    (bin_dir / "asynclint").symlink_to(ASYNCLINT)
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    environment = {**os.environ, "NO_COLOR": "1", "TMPDIR": str(tmp_path), "PATH": path}
    subprocess.run(["bash", "-c", "\n".join(script)], cwd=start, env=environment, check=True, timeout=900)
    for number, step in enumerate(walk):
        printed = (out / f"{number}.out").read_text(encoding="utf-8", errors="replace")
        status = int((out / f"{number}.status").read_text())
        assert "Traceback" not in printed, f"{step.command}\n{printed}"
        assert status == step.status, f"`{step.command}` exited {status}, the README says {step.status}:\n{printed}"
        for text in step.says:
            assert text in printed, f"`{step.command}` did not print {text!r}:\n{printed}"
