"""Where teams run it: each file's nearest configuration, paths from the project root in every
output and in the baseline, stale baseline entries, the whole-project mode of the hooks."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from conftest import run, write

from asynclint.config import ConfigError
from asynclint.project import configure, project_root
from asynclint.runner import run_check

DATA = Path(__file__).parent / "data"
SLEEPER = "import time\n\n\nasync def poll():\n    time.sleep(1)\n"
FETCHER = "import vendor\n\n\nasync def poll():\n    vendor.fetch_sync()\n"


def environments(root: Path) -> Path:
    """A repository of two environments, each configured its own way, sharing a helper module."""
    write(
        root,
        {
            "pyproject.toml": '[tool.asynclint]\nextend-exclude = ["scratch/"]\n',
            "env_a/pyproject.toml": (
                '[tool.asynclint]\nignore = ["blocking-sleep"]\n\n'
                '[[tool.asynclint.blocking-apis]]\nname = "vendor.fetch_sync"\ncategory = "http"\n'
            ),
            "env_a/env.py": SLEEPER + "\n\nasync def fetch():\n    import vendor\n    vendor.fetch_sync()\n",
            "env_b/asynclint.toml": 'extend = "../pyproject.toml"\nseverity = { blocking-sleep = "low" }\n',
            "env_b/env.py": SLEEPER,
            "env_b/fetch.py": FETCHER,
            "env_b/scratch/skip.py": SLEEPER,
            "scratch/skip.py": SLEEPER,
        },
    )
    return root


def findings(root: Path, *paths: str) -> list[tuple[str, int, str, str]]:
    arguments = [str(root / p) for p in paths]
    result = run_check(arguments, configure(arguments, cwd=root), jobs=1, use_cache=False)
    return [(f.path, f.line, f.code, f.severity.label) for f in result.findings]


def test_each_file_uses_its_nearest_configuration_whatever_the_argument_order(tmp_path: Path):
    root = environments(tmp_path)
    expected = [
        # env_a ignores blocking-sleep; its own blocking API is known everywhere (knowledge describes code)
        ("env_a/env.py", 10, "ASL102", "critical"),
        # env_b grades blocking-sleep low, extends the root (its excludes apply, relative to env_b)
        ("env_b/env.py", 5, "ASL101", "low"),
        ("env_b/fetch.py", 5, "ASL102", "critical"),
    ]
    assert findings(root, "env_a", "env_b") == expected
    assert findings(root, "env_b", "env_a") == expected
    assert findings(root, "env_b/fetch.py", "env_b/env.py", "env_a/env.py") == expected
    assert findings(root, ".") == expected  # from the root: per-environment settings still apply


def test_configuration_errors_name_the_file(tmp_path: Path):
    write(
        tmp_path,
        {
            "a/asynclint.toml": 'extend = "../b/asynclint.toml"\n',
            "b/asynclint.toml": 'extend = "../a/asynclint.toml"\n',
            "a/m.py": SLEEPER,
        },
    )
    with pytest.raises(ConfigError, match="cycle"):
        configure([str(tmp_path / "a")], cwd=tmp_path)
    write(
        tmp_path,
        {
            "a/asynclint.toml": '[[blocking-apis]]\nname = "vendor.fetch_sync"\ncategory = "http"\n',
            "b/asynclint.toml": '[[blocking-apis]]\nname = "vendor.fetch_sync"\ncategory = "sleep"\n',
            "b/m.py": SLEEPER,
        },
    )
    with pytest.raises(ConfigError, match="described differently"):
        configure([str(tmp_path)], cwd=tmp_path)
    assert configure([str(tmp_path / "a")], cwd=tmp_path).blocking_apis  # one of them alone is fine
    result = run("check", "b", "a", cwd=tmp_path)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "asynclint.toml" in result.stderr


def git_repository(root: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(root)], check=True, capture_output=True)
    return root


def test_root_is_the_git_work_tree_else_the_outermost_configuration(tmp_path: Path):
    write(
        tmp_path,
        {"repo/pkg/sub/m.py": SLEEPER, "repo/pkg/pyproject.toml": "[tool.asynclint]\n", "plain/pkg/m.py": SLEEPER},
    )
    assert project_root([tmp_path / "repo/pkg/sub/m.py"], tmp_path) == (tmp_path / "repo/pkg").resolve()
    git_repository(tmp_path / "repo")
    assert project_root([tmp_path / "repo/pkg/sub"], tmp_path / "repo/pkg") == (tmp_path / "repo").resolve()
    assert project_root([tmp_path / "plain/pkg"], tmp_path / "plain") == (tmp_path / "plain").resolve()
    assert project_root([tmp_path / "plain/pkg"], tmp_path / "repo") == (tmp_path / "plain/pkg").resolve()


def test_reports_from_a_subdirectory_name_files_from_the_project_root(tmp_path: Path):
    root = git_repository(environments(tmp_path / "repo"))
    inside = root / "env_b"
    sarif = json.loads(run("check", "--format", "sarif", ".", cwd=inside).stdout)
    jsonschema.Draft4Validator(json.loads((DATA / "sarif-schema-2.1.0.json").read_text("utf-8"))).validate(sarif)
    base = sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == root.resolve().as_uri() + "/"
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in sarif["runs"][0]["results"]]
    shown = {(location["uri"], location["uriBaseId"]) for location in locations}
    assert shown == {("env_b/env.py", "%SRCROOT%"), ("env_b/fetch.py", "%SRCROOT%")}
    for location in locations:  # they point at the files checked, resolved as code scanning does
        assert (root / location["uri"]).is_file()
    github = run("check", "--format", "github", ".", cwd=inside).stdout
    assert "file=env_b/env.py," in github and "file=env_b/fetch.py," in github
    concise = run("check", "--format", "concise", "fetch.py", cwd=inside).stdout
    assert concise.startswith("env_b/fetch.py:5:5: ASL102")


def test_a_baseline_matches_from_any_directory_and_reports_its_stale_entries(tmp_path: Path):
    root = git_repository(environments(tmp_path / "repo"))
    recorded = run("check", "--baseline", "known.json", "--write-baseline", ".", cwd=root)
    assert recorded.returncode == 0, recorded.stderr
    entries = json.loads((root / "known.json").read_text())["findings"]
    assert [e["path"] for e in entries] == ["env_a/env.py", "env_b/env.py", "env_b/fetch.py"]
    # From a subdirectory, the same findings have the same names: all known.
    inside = run("check", "--baseline", "../known.json", ".", cwd=root / "env_b")
    assert inside.returncode == 0, inside.stdout + inside.stderr
    assert "stale" not in inside.stderr and "match no finding" not in inside.stderr
    # Fixed: the entry is stale, and said so; the other environment's entry is not (not checked).
    (root / "env_b/fetch.py").write_text("async def poll():\n    pass\n")
    stale = run("check", "--baseline", "../known.json", ".", cwd=root / "env_b")
    assert stale.returncode == 0
    assert "1 baseline entries match no finding any more" in stale.stderr
    assert "env_b/fetch.py:5: ASL102" in stale.stderr
    # Below the severity shown, or a rule not reported, an entry cannot be judged stale.
    quiet = run("check", "--baseline", "../known.json", "--select", "ASL101", "env.py", cwd=root / "env_b")
    assert "match no finding" not in quiet.stderr
    # Written again from the subdirectory: pruned, and the entries of files not checked are kept.
    rewritten = run("check", "--baseline", "../known.json", "--write-baseline", ".", cwd=root / "env_b")
    assert "pruned 1 stale entries" in rewritten.stderr
    entries = json.loads((root / "known.json").read_text())["findings"]
    assert [e["path"] for e in entries] == ["env_a/env.py", "env_b/env.py"]


def test_whole_project_reports_what_a_change_touches(tmp_path: Path):
    root = git_repository(tmp_path / "repo")
    write(
        root,
        {
            "hot.py": "import helpers\n\n\nasync def poll():\n    helpers.wait()\n",
            "helpers.py": "import time\n\n\ndef wait():\n    time.sleep(1)\n",
            "other.py": "def unrelated():\n    pass\n",
            "broken.py": "def (:\n",
        },
    )
    # The helper alone: the chain from the unchanged hook runs through it.
    helper = run("check", "--whole-project", "--format", "concise", "helpers.py", cwd=root)
    assert helper.returncode == 1 and "helpers.py:5:5: ASL101" in helper.stdout, helper.stdout + helper.stderr
    # The hook alone: the finding's chain starts there.
    assert run("check", "--whole-project", "hot.py", cwd=root).returncode == 1
    # A file no chain touches passes, and a broken file elsewhere is not this change's problem.
    assert run("check", "--whole-project", "other.py", cwd=root).returncode == 0
    # Without --whole-project, the helper alone is not known to be hot.
    assert run("check", "helpers.py", cwd=root).returncode == 0
    fixed = run("fix", "--whole-project", "--severity", "low", "other.py", cwd=root)
    assert fixed.returncode == 0 and "hot.py" not in fixed.stdout


def test_the_filesystem_root_is_never_walked_as_a_project(tmp_path, monkeypatch):
    """Files that share only ``/`` (``/tmp/a.py`` and ``/work/b.py``, or files named from ``/`` in a
    container) are checked as named: walking ``/`` would read the whole disk (and met unreadable
    directories in ``/proc``)."""
    from asynclint import project

    write(tmp_path, {"a/env.py": "import time\n\nasync def f():\n    time.sleep(1)\n", "b/other.py": "X = 1\n"})
    walked: list[list[str]] = []
    real_discover = project.discover
    monkeypatch.setattr(project, "project_root", lambda paths, cwd: Path(tmp_path.anchor))
    monkeypatch.setattr(
        project, "discover", lambda targets, *a: walked.append(list(targets)) or real_discover(targets, *a)
    )
    named = str(tmp_path / "a" / "env.py")
    loaded = project.load_project([named], cwd=tmp_path)
    assert walked == [[named]] and loaded.config.root == Path(tmp_path.anchor)


def test_an_unmarked_directory_a_run_starts_in_is_not_walked_as_a_project(tmp_path: Path):
    """Run from a home directory (no git, no configuration) on one project below it: the paths are
    shown from there, but only what the run names is read -- a broken ``pyproject.toml`` of an
    unrelated directory beside it is never opened. Named itself, the directory is read whole."""
    write(
        tmp_path,
        {
            "proj/env.py": "import time\n\nasync def f():\n    time.sleep(1)\n",
            "elsewhere/pyproject.toml": "tool = 3\n",
            "elsewhere/other.py": "X = 1\n",
        },
    )
    named = [str(tmp_path / "proj")]
    result = run_check(named, configure(named, cwd=tmp_path), jobs=1, use_cache=False)
    assert [(f.path, f.line) for f in result.findings] == [("proj/env.py", 4)]
    with pytest.raises(ConfigError, match="elsewhere/pyproject.toml"):
        configure([str(tmp_path)], cwd=tmp_path)


def test_a_directory_that_cannot_be_read_holds_no_configuration(tmp_path, monkeypatch):
    from asynclint import files
    from asynclint.config import config_in

    def unreadable(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_file", unreadable)
    assert config_in(tmp_path) is None
    assert files._gitignore(tmp_path) is None  # nor a .gitignore
