"""The pre-commit hook, run by the real ``pre-commit`` against this checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from asynclint.config import toml_reader  # tomllib, or tomli on Python 3.10

ROOT = Path(__file__).parent.parent
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One pre-commit cache for the module's tests: the hook environment (a virtualenv with this
    checkout pip-installed, most of a test's time) is built by the first ``try-repo`` and reused
    by the others, as pre-commit reuses it across commits. A checkout with uncommitted changes
    still gets a fresh one per run (try-repo commits them to a new shadow repository)."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="try-repo needs this checkout to be a git repository")
def test_hook_blocks_a_commit_with_a_blocking_call(tmp_path: Path, pre_commit_home: Path):
    executable = str(PRE_COMMIT) if PRE_COMMIT.exists() else shutil.which("pre-commit")
    assert executable, "pre-commit is a dev dependency: pip install -e '.[dev]'"
    project = tmp_path / "project"
    project.mkdir()
    (project / "hot.py").write_text("import time\n\n\nasync def poll():\n    time.sleep(1)\n")
    (project / "cool.py").write_text("import asyncio\n\n\nasync def poll():\n    await asyncio.sleep(1)\n")
    git("init", "-q", cwd=project)
    git("add", ".", cwd=project)
    env = {**os.environ, "PRE_COMMIT_HOME": str(pre_commit_home), "NO_COLOR": "1"}

    def try_repo(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [executable, "try-repo", str(ROOT), "asynclint", "--files", *files],
            cwd=project,
            capture_output=True,
            text=True,
            env=env,
            timeout=900,
        )

    failed = try_repo("hot.py", "cool.py")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "hot.py:5:5: ASL101 [critical]" in failed.stdout
    assert "cool.py:" not in failed.stdout
    passed = try_repo("cool.py")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


HOOK = "import helpers\n\n\nasync def poll():\n    helpers.wait()\n"


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="try-repo needs this checkout to be a git repository")
def test_a_staged_helper_change_that_makes_an_unchanged_hook_block_fails_the_commit(
    tmp_path: Path, pre_commit_home: Path
):
    executable = str(PRE_COMMIT) if PRE_COMMIT.exists() else shutil.which("pre-commit")
    assert executable, "pre-commit is a dev dependency: pip install -e '.[dev]'"
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
    env = {**os.environ, "PRE_COMMIT_HOME": str(pre_commit_home), "NO_COLOR": "1"}

    def try_repo(hook: str) -> subprocess.CompletedProcess:  # on the staged files, as a commit runs it
        return subprocess.run(
            [executable, "try-repo", str(ROOT), hook], cwd=project, capture_output=True, text=True, env=env, timeout=900
        )

    failed = try_repo("asynclint")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "helpers.py:5:5: ASL101 [critical]" in failed.stdout
    # The fix hook fixes it where it can be fixed: the unchanged hook offloads the helper.
    fixed = try_repo("asynclint-fix")
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
