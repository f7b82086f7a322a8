"""The pre-commit hooks, run by the real ``pre-commit`` from this checkout."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from pre_commit.commands.try_repo import _repo_ref

from asynclint.config import toml_reader  # tomllib, or tomli on Python 3.10

ROOT = Path(__file__).parent.parent
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@dataclass(frozen=True)
class Hooks:
    """This checkout's hooks as a project's ``.pre-commit-config.yaml`` names them, run by the
    real ``pre-commit run`` (what a commit runs) with one pre-commit cache for the module: the
    hook environment (a virtualenv with this checkout pip-installed, most of the time here) is
    built by the first run and reused by the others, as pre-commit reuses it across commits.
    ``pre-commit try-repo`` would build it afresh in a temporary cache at every run."""

    executable: str
    config: Path
    env: dict[str, str]

    def run(self, hook: str, *files: str, cwd: Path) -> subprocess.CompletedProcess:
        """``hook`` on ``files``, or on the staged files as a commit runs it."""
        selected = ("--files", *files) if files else ()
        return subprocess.run(
            [self.executable, "run", "--config", str(self.config), hook, *selected],
            cwd=cwd,
            capture_output=True,
            text=True,
            env=self.env,
            timeout=900,
        )


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Hooks:
    executable = str(PRE_COMMIT) if PRE_COMMIT.exists() else shutil.which("pre-commit")
    assert executable, "pre-commit is a dev dependency: pip install -e '.[dev]'"
    root = tmp_path_factory.mktemp("pre-commit")
    # The revision try-repo would use: HEAD, or with uncommitted changes a commit of them in a
    # shadow clone (so the hooks under test are the working tree's, new files once `git add`ed).
    repo, rev = _repo_ref(str(root), str(ROOT), None)
    hook_ids = re.findall(r"^- id: (\S+)", (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"), re.M)
    listed = "".join(f"      - id: {hook}\n" for hook in hook_ids)
    config = root / "pre-commit-config.yaml"
    config.write_text(f"repos:\n  - repo: {json.dumps(repo)}\n    rev: {rev}\n    hooks:\n{listed}", encoding="utf-8")
    env = {**os.environ, "PRE_COMMIT_HOME": str(root / "cache"), "NO_COLOR": "1"}
    return Hooks(executable, config, env)


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="the hooks are pinned to this checkout's git revision")
def test_hook_blocks_a_commit_with_a_blocking_call(tmp_path: Path, hooks: Hooks):
    project = tmp_path / "project"
    project.mkdir()
    (project / "hot.py").write_text("import time\n\n\nasync def poll():\n    time.sleep(1)\n")
    (project / "cool.py").write_text("import asyncio\n\n\nasync def poll():\n    await asyncio.sleep(1)\n")
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)

    failed = hooks.run("asynclint", "hot.py", "cool.py", cwd=project)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "hot.py:5:5: ASL101 [critical]" in failed.stdout
    assert "cool.py:" not in failed.stdout
    passed = hooks.run("asynclint", "cool.py", cwd=project)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


HOOK = "import helpers\n\n\nasync def poll():\n    helpers.wait()\n"


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="the hooks are pinned to this checkout's git revision")
def test_a_staged_helper_change_that_makes_an_unchanged_hook_block_fails_the_commit(tmp_path: Path, hooks: Hooks):
    project = tmp_path / "project"
    project.mkdir()
    (project / "hot.py").write_text(HOOK)
    (project / "helpers.py").write_text("def wait():\n    return None\n")
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "clean", cwd=project)
    # Only the helper changes, and only it is staged: the hook that calls it is not.
    (project / "helpers.py").write_text("import time\n\n\ndef wait():\n    time.sleep(1)\n")
    git("add", "helpers.py", cwd=project)

    failed = hooks.run("asynclint", cwd=project)  # on the staged files, as a commit runs it
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "helpers.py:5:5: ASL101 [critical]" in failed.stdout
    # The fix hook fixes it where it can be fixed: the unchanged hook offloads the helper.
    fixed = hooks.run("asynclint-fix", cwd=project)
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # files were modified by this hook
    assert "asyncio.to_thread(helpers.wait)" in (project / "hot.py").read_text()


def test_the_readme_snippet_names_this_release_and_its_hooks():
    """The README's pre-commit snippet must name a release that exists: the package's version as
    a tag (`git tag v<version>` on the release commit), and hooks .pre-commit-hooks.yaml defines."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = readme.split("## pre-commit", 1)[1].split("```yaml", 1)[1].split("```", 1)[0]
    version = toml_reader().loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    rev = re.search(r"^\s*rev:\s*(\S+)", snippet, re.M).group(1)
    assert rev == f"v{version}"
    defined = set(re.findall(r"^- id: (\S+)", (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"), re.M))
    assert set(re.findall(r"- id: (\S+)", snippet)) <= defined
    if not (ROOT / ".git").exists():
        return  # an sdist or a copy: no history to hold tags
    tags = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    if not tags:
        pytest.skip("this clone carries no tags (a tagless or shallow clone): the release tag cannot be checked")
    assert rev in tags, f"no git tag {rev}: tag the release commit (`git tag {rev}`)"
