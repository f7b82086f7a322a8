"""A warm run after editing one file reports exactly what a run without the cache does: the edit's
effects reach files left alone (chains through other modules, suppressions that hide nothing any
more), and what the last run kept per file (summaries, stamps, deep mode's plan) must not stand in
for what changed."""

from __future__ import annotations

import ast
import json
import shutil
import tracemalloc
from pathlib import Path

import pytest
from conftest import write

from asynclint import runner
from asynclint.analysis.index.records import ModuleSummary
from asynclint.cache import CACHE_DIR, decode, encode
from asynclint.cache_summaries import Decoded, SummaryCache
from asynclint.config import Config
from asynclint.deep import _Follower
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
    # A body edit that leaves the module's names as they were (the same defs, classes and calls
    # made elsewhere): its new blocking call is reached from the unchanged handler.
    ("body only", "proj/util.py", lambda text: text.replace("    time.sleep(2)\n", "    open('log').read()\n")),
    # A new hot root: ``Repository`` (cold since the rename) is loaded by an ``async def`` nobody calls.
    (
        "hot root",
        "proj/models.py",
        lambda text: text + "\n\nasync def refresh():\n    return Repository().load()\n",
    ),
    # The handler becomes a program's entry point (run by ``asyncio.run``): app.py, and util.py
    # through it, turn cold; models.py's root stays hot.
    (
        "cold",
        "proj/app.py",
        lambda text: "import asyncio\n" + text + "\n\ndef main():\n    asyncio.run(handle(None))\n",
    ),
]


def _project(root: Path, monkeypatch, files: dict[str, str], *, deep: bool) -> Config:
    """``files`` written under ``root``, the working directory moved there, and its configuration."""
    write(root, files)
    monkeypatch.chdir(root)
    return Config(root=root, follow_imports=deep)


@pytest.fixture(params=[False, True], ids=["shallow", "deep"])
def deep(request) -> bool:
    """Each test taking it runs twice: without following imports, then in deep mode."""
    return request.param


def _shown(result: Result) -> str:
    return render(result, "concise")


def test_warm_runs_after_each_edit_equal_runs_without_the_cache(tmp_path: Path, monkeypatch, deep):
    config = _project(tmp_path, monkeypatch, PROJECT, deep=deep)
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


def test_an_edited_argument_settles_a_guard_in_a_file_left_alone(tmp_path: Path, monkeypatch, deep):
    # What every call of ``fetch`` passes ``dry_run`` is read from the graph's index of every
    # project call (built again each run, never kept): the unchanged helpers.py's blocking call
    # runs only once the one caller passes False.
    config = _project(
        tmp_path,
        monkeypatch,
        {
            "proj/app.py": (
                "from helpers import fetch\n\n\nasync def handle(request):\n    return fetch(request, dry_run=True)\n"
            ),
            "proj/helpers.py": (
                "import time\n\n\ndef fetch(request, dry_run=False):\n"
                "    if not dry_run:\n        time.sleep(1)\n    return request\n"
            ),
        },
        deep=deep,
    )
    last = run_check(["proj"], config, jobs=1)
    assert not last.findings
    app = tmp_path / "proj/app.py"
    for before, after in (("dry_run=True", "dry_run=False"), ("dry_run=False", "dry_run=True")):
        app.write_text(app.read_text().replace(before, after))
        warm = run_check(["proj"], config, jobs=1)
        assert warm == run_check(["proj"], config, jobs=1, use_cache=False), after
        assert warm.findings != last.findings, after
        last = warm
    assert not last.findings


def test_a_call_added_in_cold_code_changes_what_is_hot_in_a_file_left_alone(tmp_path: Path, monkeypatch, deep):
    # A read of the hot set that no key of hot code covers (bench/README.md, round incr23): a call
    # from code that never runs on the loop makes an uncalled coroutine called -- no longer a root,
    # so its blocking call is no finding any more. Only scripts.py is edited; worker.py's finding
    # goes and comes back.
    config = _project(
        tmp_path,
        monkeypatch,
        {
            "proj/worker.py": "import time\n\n\nasync def worker():\n    time.sleep(1)\n",
            "proj/scripts.py": "import worker\n\n\ndef main():\n    pass\n",
        },
        deep=deep,
    )
    last = run_check(["proj"], config, jobs=1)
    assert {(f.path, f.code) for f in last.findings} == {("proj/worker.py", "ASL101")}
    scripts = tmp_path / "proj/scripts.py"
    for label, before, after, flagged in [
        ("called from cold code", "    pass\n", "    worker.worker()\n", False),
        ("the call removed", "    worker.worker()\n", "    pass\n", True),
    ]:
        scripts.write_text(scripts.read_text().replace(before, after))
        warm = run_check(["proj"], config, jobs=1)
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert warm == cold and _shown(warm) == _shown(cold), label
        assert bool(warm.findings) == flagged, label


def test_a_file_without_suppressions_is_not_read_again_for_them(tmp_path: Path, monkeypatch):
    # Shallow: unchanged files are not read to find their summaries; of those, only one that may
    # hold a suppression comment is read for the rules (ASL901 looks through every file).
    config = _project(tmp_path, monkeypatch, PROJECT, deep=False)
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


def test_the_summary_cache_reads_each_line_when_asked_and_keeps_none(tmp_path: Path, monkeypatch):
    # A recheck reading most summaries from the cache: the file's lines are read one at a time as
    # their summaries are asked for, from the file as it was opened (another run may replace it
    # meanwhile), and none of them is held; a damaged line is a miss for its file alone.
    files = {
        f"proj/m{n:02}.py": f"import time\n\n\ndef helper_{n}():\n    time.sleep({n})\n\n\nasync def entry_{n}():\n"
        f"    helper_{n}()\n" + "    print(len(str(n)))\n" * 100
        for n in range(30)
    }
    config = _project(tmp_path, monkeypatch, files, deep=False)
    run_check(["proj"], config, jobs=1)
    (file,) = (tmp_path / runner.CACHE_DIR).glob("summaries-*.jsonl")
    written = file.read_bytes()
    lines = dict(line.split(b" ", 1) for line in written.splitlines())
    fingerprint = file.name.removesuffix(".jsonl").rpartition("-")[2]

    tracemalloc.start()
    try:
        cache = SummaryCache(file.parent, fingerprint)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(cache.lines) == len(lines) == 30
    assert held < len(written) / 10, (held, len(written))
    # Replaced by another run (as every cache write replaces a file): the open file is still read.
    (tmp_path / "other").write_bytes(b"")
    (tmp_path / "other").replace(file)
    keys = sorted(cache.lines)
    for key in keys:
        assert encode(cache.get(_Named(key, lines), key)) == lines[key.encode()].decode()
    cache.close()

    damaged_key = keys[3]
    file.write_bytes(written.replace(lines[damaged_key.encode()], b'["not a summary"]'))
    cache = SummaryCache(file.parent, fingerprint)
    assert [key for key in keys if cache.get(_Named(key, lines), key) is None] == [damaged_key]
    cache.close()
    (tmp_path / "proj" / "m00.py").write_text(files["proj/m00.py"] + "\n")  # not the last result
    assert run_check(["proj"], config, jobs=1) == run_check(["proj"], config, jobs=1, use_cache=False)
    assert file.read_bytes().count(b"\n") == 30  # the damaged line made again, the others copied


class _Named:
    """What :meth:`SummaryCache.get` reads of a source: the name its cached summary records."""

    def __init__(self, key: str, lines: dict[bytes, bytes]):
        value = json.loads(lines[key.encode()])
        self.path, self.module = value[0], value[1]


def test_a_deep_recheck_reads_only_the_changed_files(tmp_path: Path, monkeypatch):
    # Which twins deep mode trusts depends on what every file imports: an unchanged file's imports
    # come from the record kept by content digest (the twin found through `client.py`'s import of
    # `syncsdk` still reaches the finding), and only the edited file and the one that lost its
    # record are read again.
    site = str(Path(__file__).parent / "data" / "twins" / "site")
    files = {
        "proj/client.py": "import syncsdk\n\nCLIENT = syncsdk.Client()\n",
        "proj/app.py": "from client import CLIENT\n\n\nasync def handle(query):\n    return CLIENT.search(query)\n",
        "proj/other.py": "import kvstore\n\nSTORE = kvstore.Store()\n",
        "proj/more.py": "def plain():\n    return 1\n",
    }
    config = _project(tmp_path, monkeypatch, files, deep=True)
    run_check(["proj"], config, jobs=1, search_path=[site])
    read: list[str] = []
    real = runner.read_sources

    def reading(files, *args, **kwargs):
        read.extend(file.name for file in files)
        return real(files, *args, **kwargs)

    monkeypatch.setattr(runner, "read_sources", reading)
    (tmp_path / "proj" / "more.py").write_text("def plain():\n    return 2\n")
    warm = run_check(["proj"], config, jobs=1, search_path=[site])
    assert read == ["more.py"]
    cold = run_check(["proj"], config, jobs=1, use_cache=False, search_path=[site])
    assert warm == cold and _shown(warm) == _shown(cold)
    assert any("syncsdk.AsyncClient" in f.message for f in warm.findings if f.path == "proj/app.py"), _shown(warm)

    (record,) = (tmp_path / runner.CACHE_DIR / runner.LIBRARIES).glob("imports-*.json")
    held = json.loads(record.read_text())
    digest = next(digest for digest, modules in held.items() if modules == ["syncsdk"])
    record.write_text(json.dumps({key: value for key, value in held.items() if key != digest}))
    (tmp_path / "proj" / "more.py").write_text("def plain():\n    return 3\n")
    read.clear()
    assert run_check(["proj"], config, jobs=1, search_path=[site]) == warm
    assert sorted(read) == ["client.py", "more.py"]


def test_a_damaged_import_record_means_every_file_is_read(tmp_path: Path, monkeypatch):
    config = _project(tmp_path, monkeypatch, PROJECT, deep=True)
    run_check(["proj"], config, jobs=1)
    (record,) = (tmp_path / runner.CACHE_DIR / runner.LIBRARIES).glob("imports-*.json")
    record.write_text('{"not": "a list", "x": [1]')
    read: list[str] = []
    real = runner.read_sources
    monkeypatch.setattr(runner, "read_sources", lambda files, *a, **k: read.extend(files) or real(files, *a, **k))
    (tmp_path / "proj" / "util.py").write_text("import time\n\n\ndef block():\n    time.sleep(3)\n")
    warm = run_check(["proj"], config, jobs=1)
    assert len(read) == len(PROJECT)
    assert warm == run_check(["proj"], config, jobs=1, use_cache=False)
    assert json.loads(record.read_text())  # written again, whole


#: Where the last result stands for edited files (see ``runner._same_inputs``).
REUSED = runner.REUSED

HOT_SET = {
    "proj/app.py": (
        "import asyncio\n"
        "from helpers import compute, fetch, prepare\n"
        "\n\n"
        "async def handle(request):\n"
        '    """Answer one request."""\n'
        '    detail = "request handled"\n'
        "    await fetch(request)\n"
        "    return prepare(request), detail\n"
    ),
    "proj/helpers.py": (
        '"""The helpers of the handler."""\n'
        "import asyncio\n"
        "import time\n"
        "\n\n"
        "def prepare(request):\n"
        "    return request\n"
        "\n\n"
        "def compute(request):\n"
        "    time.sleep(1)\n"
        "    return request\n"
        "\n\n"
        "async def fetch(request):\n"
        "    await asyncio.sleep(0)\n"
        "    with open(request) as handle:\n"
        "        return handle.read()\n"
    ),
}


def _check_watching(config: Config, stages: list[str]) -> Result:
    return run_check(["proj"], config, jobs=1, progress=lambda stage, done, total: stages.append(stage))


def test_an_edit_that_changes_an_edge_of_the_hot_set_is_checked_again(tmp_path: Path, monkeypatch, deep):
    config = _project(tmp_path, monkeypatch, HOT_SET, deep=deep)
    last = run_check(["proj"], config, jobs=1)
    app = tmp_path / "proj/app.py"
    edits = [
        # A new call of a blocking helper: an edge into helpers.py's ``compute``.
        ("new call", "    await fetch(request)\n", "    await fetch(request)\n    compute(request)\n", True),
        # A removed await: ``fetch`` is made here and kept (the edge stays; the summary does not).
        ("removed await", "    await fetch(request)\n", "    pending = fetch(request)\n", False),
        # The helper handed to a thread: the edge into ``compute`` is gone.
        ("offloaded", "    compute(request)\n", "    await asyncio.to_thread(compute, request)\n", True),
        # The await back, the thread's call removed: what the first run found.
        ("await again", "    pending = fetch(request)\n", "    await fetch(request)\n", False),
        ("removed call", "    await asyncio.to_thread(compute, request)\n", "", False),
    ]
    for label, before, after, changes in edits:
        app.write_text(app.read_text().replace(before, after))
        stages: list[str] = []
        warm = _check_watching(config, stages)
        assert REUSED not in stages, label
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert warm == cold and _shown(warm) == _shown(cold), label
        if changes:
            assert warm.findings != last.findings, f"{label}: the edit changed nothing to check against"
        last = warm


def test_an_edit_the_summaries_do_not_record_reuses_the_last_result(tmp_path: Path, monkeypatch, deep):
    config = _project(tmp_path, monkeypatch, HOT_SET, deep=deep)
    app, helpers = tmp_path / "proj/app.py", tmp_path / "proj/helpers.py"
    app.write_text(app.read_text().replace("    await fetch(request)\n", "    compute(request)\n"))
    first = run_check(["proj"], config, jobs=1)
    assert ("proj/helpers.py", "ASL101") in {(f.path, f.code) for f in first.findings}, _shown(first)
    edits = [
        # A local message string, a docstring and a comment: no summary records them.
        ("message", app, "request handled", "request answered in full"),
        ("docstring", app, "Answer one request.", "Answer one request, blocking."),
        ("comment", helpers, "    time.sleep(1)\n", "    time.sleep(1)  # a second, no more\n"),
    ]
    for label, file, before, after in edits:
        file.write_text(file.read_text().replace(before, after))
        stages: list[str] = []
        warm = _check_watching(config, stages)
        assert REUSED in stages, label
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert warm == cold and _shown(warm) == _shown(cold), label
    # Near misses: a string inside a call moves the call's end (which findings report), and a new
    # suppression comment hides a finding -- both checked again.
    for label, file, before, after in [
        ("argument", helpers, "time.sleep(1)", "time.sleep(1.0)"),
        ("suppression", helpers, "# a second, no more", "# asynclint: ignore[ASL101]"),
    ]:
        file.write_text(file.read_text().replace(before, after))
        stages = []
        warm = _check_watching(config, stages)
        assert REUSED not in stages, label
        assert warm == run_check(["proj"], config, jobs=1, use_cache=False), label
    # A file holding a suppression comment, edited where the rules do not read (its docstring, a
    # comment elsewhere): its suppressions are what they were, and so is the result.
    for label, before, after in [
        ("suppressed text", "The helpers of the handler.", "What the handler calls."),
        ("comment beside a suppression", "def compute(request):\n", "def compute(request):  # slow\n"),
    ]:
        helpers.write_text(helpers.read_text().replace(before, after))
        stages = []
        warm = _check_watching(config, stages)
        assert REUSED in stages, label
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert warm == cold and _shown(warm) == _shown(cold), label


#: Edits of a file holding suppression comments that leave its summary as it was: each changes
#: what the rules read of the text (so each is checked again), or does not (the last result).
SUPPRESSED = {
    "proj/app.py": (
        "import time\n"
        "\n\n"
        "async def handle(request):\n"
        "    # asynclint: ignore[ASL101]\n"
        "    time.sleep(1)\n"
        "    time.sleep(2)  # noqa: ASL101\n"
        "    open(request).read()\n"
        "    return request  # asynclint: ignore[blocking-sleep]\n"
    ),
}


def test_suppression_edits_that_keep_the_summary_reuse_only_what_the_rules_read_alike(
    tmp_path: Path, monkeypatch, deep
):
    config = _project(tmp_path, monkeypatch, SUPPRESSED, deep=deep)
    app = tmp_path / "proj/app.py"
    run_check(["proj"], config, jobs=1)
    edits = [
        # Comments the rules never read: a line's comment, prose after the code.
        ("comment", "    open(request).read()\n", "    open(request).read()  # read it all\n", True),
        ("def's comment", "async def handle(request):\n", "async def handle(request):  # the handler\n", True),
        # A line holding a suppression is read whole: any edit of it is checked again.
        ("suppression's line", "[blocking-sleep]\n", "[blocking-sleep]  # why\n", False),
        # The comment above a call no longer a suppression: the call's finding is back.
        ("unsuppressed", "# asynclint: ignore[ASL101]", "# asynclint: see ASL101", False),
        # A suppression moved onto the line it covers from above, then back: another view each time.
        (
            "moved",
            "    # asynclint: see ASL101\n    time.sleep(1)\n",
            "    # note\n    time.sleep(1)  # noqa: ASL101\n",
            False,
        ),
        # The unused suppression's codes changed: ASL901 reports another text.
        ("codes", "ignore[blocking-sleep]", "ignore[ASL101, blocking-sleep]", False),
        # A suppression quoted in a comment's prose: no comment to ASL901, but a line the rules read.
        ("quoted", "# note\n", "# see `# asynclint: ignore` for why\n", False),
        # Prose that only looks like one (no ``#`` just before it), added: nothing the rules read.
        ("prose", "import time\n", "import time  # see `asynclint: ignore` below\n", True),
    ]
    for label, before, after, reused in edits:
        assert before in app.read_text(), label
        app.write_text(app.read_text().replace(before, after))
        stages: list[str] = []
        warm = _check_watching(config, stages)
        assert (REUSED in stages) == reused, label
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert warm == cold and _shown(warm) == _shown(cold), label


#: A project calling into two installed packages (``site/``): ``slowlib.fetch`` returns an
#: ``otherlib.Response`` (calling nothing itself), whose ``json`` blocks. Deep mode reads slowlib at
#: its first level (hot code calls it) and otherlib at its second only when hot code calls a method
#: of what ``fetch`` returned. Both are installed from distributions (their summaries are cached, so
#: the plan can be replayed).
INSTALLED = {
    "site/slowlib/__init__.py": (
        "from otherlib import Response\n\nREPLIES = {}\n\n\ndef fetch(url) -> Response:\n    return REPLIES[url]\n"
        "\n\ndef ping(url):\n    import time\n    time.sleep(1)\n"
    ),
    "site/slowlib-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: slowlib\nVersion: 1.0\n",
    "site/slowlib-1.0.dist-info/top_level.txt": "slowlib\n",
    "site/otherlib-0.3.dist-info/METADATA": "Metadata-Version: 2.1\nName: otherlib\nVersion: 0.3\n",
    "site/otherlib-0.3.dist-info/top_level.txt": "otherlib\n",
    "site/otherlib/__init__.py": (
        "import time\n\n\nclass Response:\n    def __init__(self, url):\n        self.url = url\n"
        "\n    def json(self):\n        time.sleep(1)\n        return {}\n"
    ),
    "proj/app.py": (
        "import slowlib\n"
        "\n\n"
        "def local(request):\n"
        "    with open(request) as handle:\n"
        "        return handle.read()\n"
        "\n\n"
        "async def handle(request):\n"
        "    reply = slowlib.fetch(request)\n"
        "    return reply\n"
    ),
}


def test_edits_that_change_what_hot_code_calls_outside_the_project_or_not_equal_a_cold_check(
    tmp_path: Path, monkeypatch, deep
):
    # Deep mode's plan (the installed modules a run read) is replayed only for the sources it was
    # made from. What hot code calls outside the project is not a sound key for it: the third edit
    # leaves that as the second left it (``slowlib.fetch``, ``slowlib.ping``), yet the follow's second
    # level now reads otherlib -- ``reply.json()`` is ``otherlib.Response.json`` only once slowlib's
    # summary is read, so only the second level's graph sees it. A plan keyed by the first level's
    # external calls would replay slowlib alone and miss line 13's finding.
    config = _project(tmp_path, monkeypatch, INSTALLED, deep=deep)
    site = [str(tmp_path / "site")]
    run_check(["proj"], config, jobs=1, search_path=site)
    app = tmp_path / "proj/app.py"
    edits = [
        # A new local call from hot code: nothing more called outside the project.
        ("local call", "    return reply\n", "    local(request)\n    return reply\n"),
        # A new call into an installed package from hot code.
        ("installed call", "    return reply\n", "    slowlib.ping(request)\n    return reply\n"),
        # A call on what an installed function returned: the same first level, another second.
        ("call on its result", "    return reply\n", "    return reply.json()\n"),
    ]
    codes = set()
    for label, before, after in edits:
        app.write_text(app.read_text().replace(before, after))
        warm = run_check(["proj"], config, jobs=1, search_path=site)
        cold = run_check(["proj"], config, jobs=1, use_cache=False, search_path=site)
        assert warm == cold, label
        assert render(warm, "json") == render(cold, "json"), label
        codes.add((label, tuple(sorted((f.line, f.code) for f in warm.findings))))
    if deep:  # each edit changed what deep mode reports: there was something to get wrong
        assert len({found for _, found in codes}) == len(edits), codes


def _counting_follows(monkeypatch) -> list[int]:
    """A list that gains an item each time deep mode follows the imports (builds its graphs)."""
    followed: list[int] = []
    follow = _Follower.follow
    monkeypatch.setattr(_Follower, "follow", lambda self, *args: followed.append(1) or follow(self, *args))
    return followed


def _forget_results(root: Path) -> None:
    """The last results gone, the summaries and deep mode's plan kept: the next run checks again."""
    for file in (root / CACHE_DIR).glob("results-*.json"):
        file.unlink()


@pytest.mark.parametrize("answered_by", ["result", "plan"])
def test_edits_that_only_move_lines_replay_deep_modes_plan_and_equal_a_cold_check(
    tmp_path: Path, monkeypatch, answered_by
):
    # Deep mode's plan is replayed for summaries that are the plan's but for where their lines
    # are (cache_summaries.moved_digest): the follow's graphs are not built, and the check equals a cold
    # one. An edit that changes what hot code calls is followed again, whatever file it is in.
    # With the last result kept, a move is answered before that, by the last result renumbered
    # (findings inside the libraries included); without it, the check runs on the replayed plan.
    config = _project(
        tmp_path,
        monkeypatch,
        {
            **INSTALLED,
            "proj/poll.py": "import slowlib\n\n\ndef poll(url):\n    return slowlib.fetch(url).json()\n",
        },
        deep=True,
    )
    site = [str(tmp_path / "site")]
    followed = _counting_follows(monkeypatch)
    last = run_check(["proj"], config, jobs=1, search_path=site)
    app, poll = tmp_path / "proj/app.py", tmp_path / "proj/poll.py"
    edits = [
        # Lines inserted above the hot handler and inside its body, above its call into slowlib.
        ("moved", app, "async def handle", "# the handler\n\nasync def handle"),
        ("moved in a body", app, "    reply = slowlib.fetch", "    # fetch it\n\n    reply = slowlib.fetch"),
        # A call of poll.py's function from the hot handler: poll's call on what ``slowlib.fetch``
        # returned runs now, and the follow's second level reads otherlib for it.
        ("import of another file", app, "import slowlib\n", "import slowlib\nfrom poll import poll\n"),
        ("hot call into another file", app, "    return reply\n", "    poll(request)\n    return reply\n"),
        # A line deleted above poll's call into the libraries, now hot, and one inserted in its body.
        ("moved in a hot file", poll, "import slowlib\n\n\n", "import slowlib\n\n"),
        ("moved in a hot file", poll, "    return slowlib", "    # poll once\n    return slowlib"),
        # The same lines, one of them moved below the other: not a move of the summary's lines.
        ("swapped", app, "import slowlib\nfrom poll import poll\n", "from poll import poll\nimport slowlib\n"),
    ]
    refollowed = {"import of another file", "hot call into another file", "swapped"}
    stages: list[str] = []
    for label, file, before, after in edits:
        assert before in file.read_text(), label
        file.write_text(file.read_text().replace(before, after, 1))
        followed.clear()
        if answered_by == "plan":
            _forget_results(tmp_path)
        stages.clear()
        warm = run_check(["proj"], config, jobs=1, search_path=site, progress=lambda stage, *_: stages.append(stage))
        assert bool(followed) == (label in refollowed), label
        assert (runner.MOVED in stages) == (answered_by == "result" and label not in refollowed), label
        cold = run_check(["proj"], config, jobs=1, use_cache=False, search_path=site)
        assert warm == cold, label
        assert render(warm, "json") == render(cold, "json"), label
        if label == "hot call into another file":  # otherlib's blocking ``json``, reached through poll
            assert ("proj/poll.py", 5, "ASL101") in {(f.path, f.line, f.code) for f in warm.findings}, _shown(warm)
            assert warm.findings != last.findings
        last = warm


def test_a_namespace_packages_modules_are_cached_so_the_plan_is_replayed(tmp_path: Path, monkeypatch):
    # No distribution names a module of a namespace package (``nslib.part``: no ``__init__.py``, no
    # dist-info of its own): its summary is cached under the top-level name, so the plan can stand.
    config = _project(
        tmp_path,
        monkeypatch,
        {
            "site/nslib/part.py": "import time\n\n\ndef slow():\n    time.sleep(1)\n",
            "proj/app.py": "from nslib.part import slow\n\n\nasync def handle():\n    slow()\n",
        },
        deep=True,
    )
    site = [str(tmp_path / "site")]
    followed = _counting_follows(monkeypatch)
    first = run_check(["proj"], config, jobs=1, search_path=site)
    assert any(f.facts.library for f in first.findings), _shown(first)
    app = tmp_path / "proj/app.py"
    app.write_text(app.read_text().replace("async def", "# the handler\nasync def"))
    followed.clear()
    _forget_results(tmp_path)  # else the last result renumbered answers before deep mode is asked
    warm = run_check(["proj"], config, jobs=1, search_path=site)
    assert not followed
    cold = run_check(["proj"], config, jobs=1, use_cache=False, search_path=site)
    assert warm == cold and render(warm, "json") == render(cold, "json")


def test_edits_that_only_move_lines_are_answered_by_the_last_result_renumbered(tmp_path: Path, monkeypatch):
    # An edit that moves lines of a file and changes nothing else there (its summary and its
    # suppressions are the last ones but for where their lines are) is answered by the last result
    # with those lines renumbered, wherever findings hold them (chains, related places, hand-overs):
    # the same report as a check without the cache, byte for byte. An edit the graph or the rules
    # read otherwise is checked again.
    project = tmp_path / "judges_env"
    shutil.copytree(Path(__file__).parent / "fixtures" / "projects" / "judges_env", project)
    monkeypatch.chdir(project)
    config = Config(root=project, follow_imports=False)
    env = project / "judges_env" / "env.py"
    suppression = "        # asynclint: ignore[ASL103]\n"
    hidden = '        return float("yes" in await bound_earlier'
    edits = [
        # A suppression comment on a line of its own above a finding: a new view of the text.
        ("suppression", hidden, suppression + hidden, False),
        ("comment in a body", "        verdict = await", "        # judged once\n        verdict = await", True),
        (
            "lines deleted above a function",
            '"""Judge rubrics handed sync and async clients, used and unused."""\n\n',
            "",
            True,
        ),
        ("blank line before a suppression", suppression, "\n" + suppression, True),
        # Near misses: the suppression cut off from its line, then its codes changed; a call added.
        ("blank line below a suppression", suppression, suppression + "\n", False),
        ("suppression's codes", "ignore[ASL103]", "ignore[ASL103, ASL101]", False),
        ("call added", "        verdict = await", "        OpenAI()\n        verdict = await", False),
    ]
    last = run_check(["."], config, jobs=1)
    stages: list[str] = []
    for label, before, after, moved in edits:
        assert before in env.read_text(), label
        env.write_text(env.read_text().replace(before, after, 1))
        stages.clear()
        warm = run_check(["."], config, jobs=1, progress=lambda stage, done, total: stages.append(stage))
        assert (runner.MOVED in stages) == moved, label
        assert REUSED not in stages, label
        cold = run_check(["."], config, jobs=1, use_cache=False)
        assert warm == cold, label
        assert render(warm, "json") == render(cold, "json"), label
        assert warm.findings != last.findings, f"{label}: nothing moved to check against"
        last = warm


def test_a_watchs_runs_take_what_an_edit_left_alone_as_it_is_and_equal_runs_without_the_cache(
    tmp_path: Path, monkeypatch, deep
):
    # ``check --watch`` hands each round the summaries the last one read or made: after each edit
    # (a call added, made blocking, removed; an import; a function added; a class renamed; a new
    # root; a hot function turned cold), no project summary is decoded from the cache file again,
    # and the report is the one a run without the cache gives, byte for byte.
    config = _project(tmp_path, monkeypatch, PROJECT, deep=deep)
    kept = Decoded()
    run_check(["proj"], config, jobs=1, decoded=kept)
    read_again: list[str] = []

    def counted(cls, value):
        decoded = decode(cls, value)
        if isinstance(decoded, ModuleSummary) and decoded.library is None:
            read_again.append(decoded.path)
        return decoded

    monkeypatch.setattr("asynclint.cache_summaries.decode", counted)
    for label, path, edit in [
        *EDITS,
        ("a file added", "proj/extra.py", lambda text: "import time\n\n\nasync def tick():\n    time.sleep(1)\n"),
    ]:
        file = tmp_path / path
        file.write_text(edit(file.read_text() if file.exists() else ""))
        read_again.clear()
        warm = run_check(["proj"], config, jobs=1, decoded=kept)
        assert read_again == [], label
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert render(warm, "json") == render(cold, "json"), label
        assert warm == cold, label
    (tmp_path / "proj/extra.py").unlink()
    warm = run_check(["proj"], config, jobs=1, decoded=kept)
    assert read_again == []
    assert render(warm, "json") == render(run_check(["proj"], config, jobs=1, use_cache=False), "json")


def test_a_watch_keeps_only_the_last_runs_summaries(tmp_path: Path, monkeypatch):
    config = _project(tmp_path, monkeypatch, PROJECT, deep=True)
    kept = Decoded()
    run_check(["proj"], config, jobs=1, decoded=kept)
    (file,) = kept._files.values()
    assert {summary.path for summary in file.values()} == set(PROJECT)
    (tmp_path / "proj/util.py").unlink()
    run_check(["proj"], config, jobs=1, decoded=kept)
    (file,) = kept._files.values()
    assert {summary.path for summary in file.values()} == set(PROJECT) - {"proj/util.py"}


#: A switch field (``record_video``) guarding a blocking call: graded low while nothing in the
#: project writes the name, high once something does (``Instances.field_switches``).
SWITCHED = {
    "proj/env.py": (
        "import time\n"
        "from dataclasses import dataclass\n\n"
        "import verifiers as vf\n\n\n"
        "@dataclass\n"
        "class Settings:\n"
        "    record_video: bool = False\n\n\n"
        "class Env(vf.MultiTurnEnv):\n"
        "    def __init__(self, settings: Settings, **kwargs):\n"
        "        super().__init__(**kwargs)\n"
        "        self.settings = settings\n\n"
        "    async def env_response(self, messages, state, **kwargs):\n"
        "        if self.settings.record_video:\n"
        "            time.sleep(1)\n"
        "        return [], state\n\n\n"
        "def load_environment(**kwargs):\n"
        "    return Env(Settings(), **kwargs)\n"
    ),
    "proj/helpers.py": "def describe(rows):\n    count = len(rows)\n    return count\n",
}


def test_a_name_written_that_is_no_switch_fields_reuses_the_last_result(tmp_path: Path, monkeypatch, deep):
    # Of the names a file writes (ModuleSummary.field_writes) the check reads only whether a switch
    # field's is among them: a new local of another name leaves every answer as it was, and the last
    # result stands (runner.as_read). Writing a switch field's name, or no longer writing it, or a
    # name that becomes a switch field's, is checked again -- and each equals a check without the cache.
    config = _project(tmp_path, monkeypatch, SWITCHED, deep=deep)
    env, helpers = tmp_path / "proj/env.py", tmp_path / "proj/helpers.py"
    last = run_check(["proj"], config, jobs=1)
    assert [(f.path, f.line, f.severity.name) for f in last.findings if f.code == "ASL101"] == [
        ("proj/env.py", 19, "LOW")
    ], _shown(last)
    edits = [
        # (label, file, before, after, the last result stands, the findings change)
        ("a new local", helpers, "    return count\n", "    marker = count\n    return count\n", True, False),
        ("a new keyword", helpers, "len(rows)", "len(rows, verbose=True)", False, False),
        ("another new local", helpers, "    return count\n", "    total = count\n    return count\n", True, False),
        # Near misses: the switch field's name written (the finding is graded high), then no more.
        ("a switch written", helpers, "    total = count\n", "    record_video = count\n", False, True),
        ("a switch no longer written", helpers, "    record_video = count\n", "    total = count\n", False, True),
        # A name already written becomes a switch field's: the names the next run compares by are
        # this run's (``marker`` is written, so its new guard's call is graded high, not low).
        (
            "a switch declared",
            env,
            "    record_video: bool = False\n",
            "    record_video: bool = False\n    marker: bool = False\n",
            False,
            True,  # its lines below moved
        ),
        (
            "its guard",
            env,
            "        return [], state\n",
            "        if self.settings.marker:\n            time.sleep(2)\n        return [], state\n",
            False,
            True,
        ),
        ("the switch's name no longer written", helpers, "    marker = count\n", "    kept = count\n", False, True),
    ]
    for label, file, before, after, stands, changes in edits:
        assert before in file.read_text(), label
        file.write_text(file.read_text().replace(before, after, 1))
        stages: list[str] = []
        warm = _check_watching(config, stages)
        assert (REUSED in stages or runner.MOVED in stages) == stands, label
        cold = run_check(["proj"], config, jobs=1, use_cache=False)
        assert warm == cold, label
        assert render(warm, "json") == render(cold, "json"), label
        assert (warm.findings != last.findings) == changes, label
        last = warm


def test_the_names_a_file_writes_are_read_only_for_the_switch_fields():
    # runner.as_read compares summaries without the written names that are no switch field's: sound
    # while the one reader of ModuleSummary.field_writes is Instances.field_switches, which asks only
    # whether a switch field's name is among them. A new reader must be weighed there first.
    source = Path(runner.__file__).parent
    readers = {}
    for path in sorted(source.rglob("*.py")):
        if path.relative_to(source).parts[:2] == ("analysis", "index"):  # where it is made
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [node for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "field_writes"]
        if found:
            readers[path.relative_to(source).as_posix()] = len(found)
    assert readers == {"analysis/instances.py": 1, "runner.py": 2}
    text = (source / "analysis" / "instances.py").read_text(encoding="utf-8")
    assert "if len(texts) == 1 and name not in written" in text
