"""A warm run after editing one file reports exactly what a run without the cache does: the edit's
effects reach files left alone (chains through other modules, suppressions that hide nothing any
more), and what the last run kept per file (summaries, stamps, deep mode's plan) must not stand in
for what changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write

from asynclint import runner
from asynclint.config import Config
from asynclint.model import Result
from asynclint.report import render
from asynclint.runner import run_check

PROJECT = {
    "proj/app.py": (
        "from helpers import prepare, wait\n"
        "from models import Store\n"
        "\n\n"
        "async def handle(request):\n"
        "    wait()\n"
        "    return prepare(request) + Store().load()\n"
    ),
    "proj/helpers.py": (
        "import json\n"
        "import time\n"
        "\n\n"
        "def prepare(request):\n"
        "    return json.dumps(request)\n"
        "\n\n"
        "def wait():\n"
        "    time.sleep(1)  # asynclint: ignore[ASL101]\n"
    ),
    "proj/models.py": (
        "class Store:\n"
        "    def load(self):\n"
        "        with open('data.txt') as handle:\n"
        "            return handle.read()\n"
    ),
    "proj/util.py": "import time\n\n\ndef block():\n    time.sleep(2)\n",
}

#: One file edited at a time, in this order, each on top of the last.
EDITS = [
    # A body edit: a blocking call, reached from the hot handler through another module.
    (
        "body",
        "proj/helpers.py",
        lambda text: text.replace(
            "    return json.dumps(request)\n", "    time.sleep(0.5)\n    return json.dumps(request)\n"
        ),
    ),
    # A new import: an unchanged module's cold function is now called from the hot handler.
    (
        "import",
        "proj/app.py",
        lambda text: "import util\n" + text.replace("    wait()\n", "    wait()\n    util.block()\n"),
    ),
    # A removed function: the handler's call of it leads nowhere any more.
    (
        "removed",
        "proj/helpers.py",
        lambda text: text.replace(
            "def prepare(request):\n    time.sleep(0.5)\n    return json.dumps(request)\n\n\n", ""
        ),
    ),
    # A renamed class: the handler's ``Store()`` no longer names it.
    ("renamed", "proj/models.py", lambda text: text.replace("class Store:", "class Repository:")),
    # The handler stops calling ``wait``: the unchanged helpers.py's suppression hides nothing now.
    ("unused suppression", "proj/app.py", lambda text: text.replace("    wait()\n", "")),
]


def _shown(result: Result) -> str:
    return render(result, "concise")


@pytest.mark.parametrize("deep", [False, True], ids=["shallow", "deep"])
def test_warm_runs_after_each_edit_equal_runs_without_the_cache(tmp_path: Path, monkeypatch, deep):
    write(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path, follow_imports=deep)
    last = run_check(["proj"], config, jobs=1)
    assert last == run_check(["proj"], config, jobs=1, use_cache=False)
    assert ("proj/models.py", 3, "ASL107") in {(f.path, f.line, f.code) for f in last.findings}
    for label, path, edit in EDITS:
        file = tmp_path / path
        before = file.read_text()
        file.write_text(edit(before))
        assert file.read_text() != before, label
        warm = run_check(["proj"], config, jobs=1)
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert warm == cold, label
        assert _shown(warm) == _shown(cold), label
        assert warm.findings != last.findings, f"{label}: the edit changed nothing to check against"
        last = warm


def test_a_file_without_suppressions_is_not_read_again_for_them(tmp_path: Path, monkeypatch):
    # Shallow: unchanged files are not read to find their summaries; of those, only one that may
    # hold a suppression comment is read for the rules (ASL901 looks through every file).
    write(tmp_path, PROJECT)
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path, follow_imports=False)
    run_check(["proj"], config, jobs=1)
    app = tmp_path / "proj" / "app.py"
    app.write_text(app.read_text().replace("    wait()\n", ""))
    read: list[str] = []
    real = runner._Texts.__getitem__

    def reading(self, path):
        if path not in self.read:
            read.append(path)
        return real(self, path)

    with monkeypatch.context() as patched:
        patched.setattr(runner._Texts, "__getitem__", reading)
        warm = run_check(["proj"], config, jobs=1)
    # (read once for its findings' lines and once by ASL901: texts read from the disk are not kept)
    assert set(read) == {"proj/helpers.py"}
    unused = [(f.path, f.line) for f in warm.findings if f.code == "ASL901"]
    assert unused == [("proj/helpers.py", 10)]
    assert warm == run_check(["proj"], config, jobs=1, use_cache=False)
