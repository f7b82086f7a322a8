"""Writes that cannot be turned against the user: a checkout's links, FIFOs and foreign cache
directories (issue 14). Each test plants what a hostile checkout could commit, in a temp dir."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from conftest import run, write

from asynclint.cache import refusal
from asynclint.io import TEMP_SUFFIX, CacheDir, UnsafeCache, atomic_write, remove_stale_temps, write_output
from asynclint.runner import CACHE_DIR
from asynclint.twin_discovery import DiscoveredTwin, TwinCache

HOT = "import time\n\n\nasync def setup_state(state):\n    time.sleep(1)\n    return state\n"
FIXED = "import asyncio\n\n\nasync def setup_state(state):\n    await asyncio.sleep(1)\n    return state\n"


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A directory outside the project that nothing may write to or delete from."""
    directory = tmp_path / "victim"
    directory.mkdir()
    (directory / "important.txt").write_text("keep\n")
    (directory / "summaries-old.jsonl").write_text("keep\n")  # the name the stale clean-up removes
    return directory


def _unchanged(victim: Path) -> None:
    assert sorted(p.name for p in victim.iterdir()) == ["important.txt", "summaries-old.jsonl"]
    assert (victim / "important.txt").read_text() == "keep\n"


def test_a_symlinked_cache_directory_is_not_used(tmp_path: Path, victim: Path):
    project = write(tmp_path / "proj", {"m.py": HOT})
    (project / CACHE_DIR).symlink_to(victim)
    result = run("check", "--format", "concise", ".", cwd=project)
    assert result.returncode == 1 and "m.py:5:5: ASL101" in result.stdout
    assert f"{CACHE_DIR} is a symbolic link: not used as a cache" in result.stderr
    _unchanged(victim)


def test_a_symlinked_gitignore_or_cache_file_is_replaced_not_followed(tmp_path: Path, victim: Path):
    project = write(tmp_path / "proj", {"m.py": HOT})
    run("check", ".", cwd=project)
    cache = project / CACHE_DIR
    (summaries,) = cache.glob("summaries-*.jsonl")
    for result_file in cache.glob("results-*"):
        result_file.unlink()  # the last result would answer without reading the summaries
    (cache / ".gitignore").unlink()
    (cache / ".gitignore").symlink_to(victim / "important.txt")
    (cache / "summaries-zzz.jsonl").symlink_to(victim / "summaries-old.jsonl")  # stale: removed
    summaries.unlink()
    summaries.symlink_to(victim / "important.txt")  # read: refused (a link); written: replaced
    (project / "m.py").write_text(HOT + "\n")  # a change: the summaries are written again
    result = run("check", ".", cwd=project)
    assert result.returncode == 1 and "warning" not in result.stderr
    _unchanged(victim)
    assert (cache / ".gitignore").is_symlink()  # the user's (a link is never written through or replaced)
    assert not summaries.is_symlink() and summaries.read_text().count("\n") == 1
    assert not (cache / "summaries-zzz.jsonl").exists()


def test_a_fifo_planted_as_a_cache_file_does_not_hang_check(tmp_path: Path):
    project = write(tmp_path / "proj", {"m.py": HOT})
    run("check", ".", cwd=project)
    for result_file in (project / CACHE_DIR).glob("results-*"):
        result_file.unlink()
    (summaries,) = (project / CACHE_DIR).glob("summaries-*.jsonl")
    summaries.unlink()
    os.mkfifo(summaries)
    result = run("check", "--format", "concise", ".", cwd=project)  # the helper's timeout fails a hang
    assert result.returncode == 1 and "ASL101" in result.stdout


def test_a_symlinked_libraries_directory_is_refused(tmp_path: Path, victim: Path):
    (tmp_path / CACHE_DIR).mkdir()
    (tmp_path / CACHE_DIR / "libraries").symlink_to(victim)
    assert (
        refusal(tmp_path / CACHE_DIR) == f"{tmp_path / CACHE_DIR / 'libraries'} is a symbolic link: not used as a cache"
    )
    twin = DiscoveredTwin("syncsdk.Client", "syncsdk.AsyncClient", "class", ("get",), (), "discovered: x")
    cache = TwinCache(tmp_path, CACHE_DIR, "libraries")
    cache.put("syncsdk", "1.0", [twin])
    assert cache.get("syncsdk", "1.0") is None
    _unchanged(victim)


@pytest.mark.skipif(os.geteuid() != 0, reason="making a directory another user's needs root")
def test_a_cache_directory_of_another_user_is_refused(tmp_path: Path):
    project = write(tmp_path / "proj", {"m.py": HOT})
    (project / CACHE_DIR).mkdir()
    os.chown(project / CACHE_DIR, 12345, 12345)
    result = run("check", ".", cwd=project)
    assert result.returncode == 1
    assert "belongs to another user (uid 12345): not used as a cache" in result.stderr
    assert list((project / CACHE_DIR).iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ("check", "-o", "out.json", "."),
        ("check", "--baseline", "out.json", "--write-baseline", "."),
        ("profile", "--compare", "a.json", "b.json", "--html", "out.json"),
    ],
)
def test_outputs_never_write_through_a_symlink(tmp_path: Path, victim: Path, args):
    project = write(tmp_path / "proj", {"m.py": HOT})
    (project / "out.json").symlink_to(victim / "important.txt")
    result = run(*args, cwd=project)
    assert result.returncode == 2
    assert "out.json: cannot write" in result.stderr and "is a symbolic link (not followed" in result.stderr
    assert (project / "out.json").is_symlink()
    _unchanged(victim)


def test_a_fifo_named_as_output_is_written_in_place(tmp_path: Path):
    project = write(tmp_path / "proj", {"m.py": HOT})
    fifo = project / "report.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    # A daemon: if the FIFO were replaced by a file, the reader would wait for a writer forever.
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run("check", "--format", "concise", "-o", str(fifo), ".", cwd=project)
    reader.join(timeout=60)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert result.returncode == 1 and received and b"m.py:5:5: ASL101" in received[0]


def test_system_streams_are_written_in_place(capfd):
    # In process (asynclint's code of today only): an older writer, run as root, replaced
    # /dev/null and the /dev/stdout link with regular files.
    write_output(Path("/dev/null"), "discarded\n")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    write_output(Path("/dev/stdout"), "to the stream\n")
    assert os.path.islink("/dev/stdout") and capfd.readouterr().out == "to the stream\n"


def test_fix_edits_a_symlinked_source_at_its_real_path_once(tmp_path: Path):
    project = write(tmp_path / "proj", {"inner.py": HOT, "vendored/real.py": HOT})
    (project / "alias.py").symlink_to("inner.py")
    (project / "other.py").symlink_to("vendored/real.py")  # its target is excluded: edited through the link
    result = run("fix", "--exclude", "vendored", ".", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Fixed 2 findings in 2 files." in result.stdout
    assert (project / "alias.py").is_symlink() and (project / "inner.py").read_text() == FIXED
    assert (project / "other.py").is_symlink() and (project / "vendored/real.py").read_text() == FIXED


def test_fix_leaves_a_symlink_out_of_the_tree_alone(tmp_path: Path):
    shared = write(tmp_path / "shared", {"reward.py": HOT})
    project = tmp_path / "proj"
    project.mkdir()
    (project / "reward.py").symlink_to(shared / "reward.py")
    result = run("fix", ".", cwd=project)
    assert "reward.py is a symbolic link to" in result.stderr and "not fixed" in result.stderr
    assert (project / "reward.py").is_symlink() and (shared / "reward.py").read_text() == HOT


def test_atomic_write_refuses_what_it_must_not_replace(tmp_path: Path):
    (tmp_path / "target").write_text("keep\n")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    for name, reason in (("link", "symbolic link"), ("fifo", "not a regular file"), ("dir", "is a directory")):
        with pytest.raises(OSError, match=reason):
            atomic_write(tmp_path / name, "new")
    assert (tmp_path / "target").read_text() == "keep\n"
    assert stat.S_ISFIFO((tmp_path / "fifo").lstat().st_mode)
    # Through a directory link the user named: the file is written in the real directory.
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "real")
    write_output(tmp_path / "via" / "report.txt", "ok\n")
    assert (tmp_path / "real" / "report.txt").read_text() == "ok\n"
    assert not [p for p in tmp_path.rglob(f"*{TEMP_SUFFIX}")]


def test_only_a_dead_runs_temp_files_are_removed(tmp_path: Path):
    live = f".m.py.{os.getpid()}-0a1b2c3d{TEMP_SUFFIX}"
    dead = f".m.py.99999999-0a1b2c3d{TEMP_SUFFIX}"
    older = f".m.py.abcd_123{TEMP_SUFFIX}"  # written before temp names carried the process id
    for name in (live, dead, older, "m.py"):
        (tmp_path / name).write_text("x")
    assert sorted(remove_stale_temps(tmp_path)) == sorted([dead, older])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live, "m.py"])


def test_cache_dir_refuses_a_link_and_never_deletes_through_one(tmp_path: Path, victim: Path):
    (tmp_path / "link").symlink_to(victim)
    with pytest.raises(UnsafeCache, match="symbolic link"):
        CacheDir.open(tmp_path, "link")
    with CacheDir.open(tmp_path, "cache") as cache:
        os.symlink(victim / "important.txt", tmp_path / "cache" / "planted")
        with pytest.raises(OSError):
            cache.read("planted")
        cache.remove("planted")
        cache.write("planted", "mine\n")
        assert cache.read("planted") == b"mine\n"
    _unchanged(victim)
