"""The walk of a project is skipped while nothing it depends on changed (cache_results.WalkCache): every
change that could make it find other files, or other configurations, is seen on the next run."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import findings, run, write

from asynclint import cache, cache_results, files
from asynclint.project import Project, load_project

TREE = {
    "pyproject.toml": "[project]\nname = 'p'\n",  # not a configuration, but read to find out
    ".gitignore": "ignored/\n",
    "base.toml": "[tool.asynclint]\nignore = []\n",
    "a/pyproject.toml": "[tool.asynclint]\nextend-exclude = ['skipped']\n",
    "a/x.py": "x = 1\n",
    "a/skipped/y.py": "y = 1\n",
    "ignored/u.py": "u = 1\n",
    "b/pyproject.toml": "[tool.asynclint]\nextend = '../base.toml'\n",
    "b/v.py": "v = 1\n",
    "b/w.py": "w = 1\n",
    "c/notes.txt": "not python\n",
    # As after a first run: making the cache directory changes the root, so the run after it walks again.
    f"{cache.CACHE_DIR}/.gitignore": "*\n",
}


@pytest.fixture
def walks(monkeypatch) -> list[Path]:
    """The directories each walk lists. Nothing is too recent to trust here (the tests wait for
    the clock to move past what they recorded instead: see :func:`_later`)."""
    monkeypatch.setattr(cache_results, "_RACY_NS", 0)
    listed: list[Path] = []
    real = files._walk_dir

    def counting(directory, *args):
        listed.append(directory)
        return real(directory, *args)

    monkeypatch.setattr(files, "_walk_dir", counting)
    return listed


def _later() -> None:
    """Past the filesystem's timestamp tick: a change now has a time the record does not."""
    time.sleep(0.02)


def _load(root: Path, use_cache: bool = True) -> Project:
    return load_project([str(root)], cwd=root, use_cache=use_cache)


def _shown(project: Project, root: Path) -> list[str]:
    assert project.files is not None
    return [file.relative_to(root).as_posix() for file in project.files]


def test_nothing_changed_no_walk(tmp_path: Path, walks: list[Path]):
    root = write(tmp_path / "proj", TREE)
    first = _load(root)
    assert walks and _shown(first, root) == ["a/x.py", "b/v.py", "b/w.py"]
    _later()
    walks.clear()
    again = _load(root)
    assert walks == []  # from the record
    assert again == first
    (root / "a" / "x.py").write_text("x = 2\n")  # an edit inside: the walk's outcome is the same
    assert _load(root) == first and walks == []
    assert list((root / cache.CACHE_DIR).glob("walk-*.json"))


def _rename(root: Path) -> None:
    (root / "b" / "w.py").rename(root / "b" / "w2.py")


def _link_target_gone(root: Path) -> None:
    (root / "c" / "real.py").unlink()


CHANGES: dict[str, Callable[[Path], object]] = {
    "new file": lambda root: (root / "a" / "new.py").write_text("n = 1\n"),
    "deleted file": lambda root: (root / "b" / "v.py").unlink(),
    "renamed file": _rename,
    "new subdirectory": lambda root: write(root, {"a/sub/deep/z.py": "z = 1\n"}),
    "subdirectory removed": lambda root: shutil.rmtree(root / "b"),
    "edited .gitignore": lambda root: (root / ".gitignore").write_text("ignored/\nb/w.py\n"),
    "new .gitignore": lambda root: (root / "a" / ".gitignore").write_text("x.py\n"),
    "edited pyproject config": lambda root: (root / "a" / "pyproject.toml").write_text(
        "[tool.asynclint]\nextend-exclude = ['x.py']\n"
    ),
    "pyproject gains a table": lambda root: (root / "pyproject.toml").write_text(
        "[project]\nname = 'p'\n[tool.asynclint]\nexclude = ['real.py']\n"
    ),
    "edited extended config": lambda root: (root / "base.toml").write_text("[tool.asynclint]\nignore = ['ASL101']\n"),
    "configuration above the root": lambda root: (root.parent / "asynclint.toml").write_text("select = ['ASL101']\n"),
    "link's target removed": _link_target_gone,
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_is_seen_on_the_next_warm_run(tmp_path: Path, walks: list[Path], change: str):
    root = write(tmp_path / "proj", {**TREE, "c/real.py": "r = 1\n"})
    (root / ".git").mkdir()  # the root, whatever is configured above it
    (root / "c" / "link.py").symlink_to(root / "c" / "real.py")
    before = _load(root)
    _later()
    walks.clear()
    assert _load(root) == before and walks == []
    CHANGES[change](root)
    after = _load(root)
    expected = _load(root, use_cache=False)
    assert after == expected
    assert expected != before  # the change matters: a stale record would have been wrong
    assert walks  # walked again


def test_git_excludes_are_part_of_the_record(tmp_path: Path, walks: list[Path]):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = write(tmp_path / "proj", TREE)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    files.repository_excludes.cache_clear()
    files._excludes_files.cache_clear()
    before = _load(root)
    _later()
    walks.clear()
    assert _load(root) == before and walks == []
    exclude = root / ".git" / "info" / "exclude"
    exclude.parent.mkdir(parents=True, exist_ok=True)
    exclude.write_text("a/\n")
    files.repository_excludes.cache_clear()  # a new process would read it again
    files._excludes_files.cache_clear()
    after = _load(root)
    assert "a/x.py" not in _shown(after, root) and after == _load(root, use_cache=False)


def test_a_recent_change_is_not_trusted(tmp_path: Path, monkeypatch):
    # Modified within the racy window of the walk: no record, the next run walks again.
    root = write(tmp_path / "proj", TREE)
    _load(root)
    assert not list((root / cache.CACHE_DIR).glob("walk-*.json"))


def test_a_new_file_is_checked_on_the_next_warm_run(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(cache_results, "_RACY_NS", 0)
    root = write(tmp_path / "proj", {"m.py": "x = 1\n"})
    assert run("check", "--format", "json", ".", cwd=root).returncode == 0
    _later()
    assert run("check", "--format", "json", ".", cwd=root).returncode == 0
    write(root, {"env/hot.py": "import time\n\n\nasync def rollout():\n    time.sleep(1)\n"})
    result = run("check", "--format", "json", ".", cwd=root)
    assert result.returncode == 1
    assert [f["path"] for f in findings(result)] == ["env/hot.py"]
