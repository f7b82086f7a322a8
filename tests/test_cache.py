"""The cache: plain JSON that any machine can read back, never code; a damaged file is a miss;
the last result is reused when no file changed, and only then."""

from __future__ import annotations

import dataclasses
import json
import os
import pickle
import shutil
import time
from pathlib import Path

import pytest
from conftest import EXAMPLES, findings, run, run_process, write

from asynclint import cache as cache_module, cache_summaries, runner
from asynclint.analysis.index.callfacts import NO_FACTS, CallFacts
from asynclint.analysis.index.records import CallSite, ModuleSummary
from asynclint.analysis.index.values import Marker, Rooted, SelfPath
from asynclint.cache import CACHE_DIR, Malformed, decode, encode, forget_shared
from asynclint.cache_summaries import moved_digest
from asynclint.config import DEFAULT_EXCLUDES, Config
from asynclint.engine import SourceFile, summarize
from asynclint.model import Finding
from asynclint.module_names import module_names as files_module_names
from asynclint.pipeline import check_project
from asynclint.renumber import line_map, renumbered
from asynclint.runner import run_check
from asynclint.suppressions import fingerprint

FIXTURES = Path(__file__).parent / "fixtures"


def _sources(root: Path) -> list[SourceFile]:
    files = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    sources, errors = runner.read_sources(files, root)
    assert not errors
    return sources


def test_summaries_and_findings_survive_json_unchanged():
    catalogue = Config(root=FIXTURES).catalogue()
    summaries = [summarize(source, catalogue) for source in _sources(FIXTURES)]
    assert len(summaries) > 50
    for summary in summaries:
        assert isinstance(summary, ModuleSummary), summary
        assert decode(ModuleSummary, json.loads(encode(summary))) == summary
    result = run_check([str(EXAMPLES)], Config(root=EXAMPLES), use_cache=False)
    assert result.findings
    for finding in result.findings:
        assert decode(Finding, json.loads(encode(finding))) == finding


def test_a_summary_whose_lines_moved_has_the_moved_digest_it_had_and_no_other_does():
    # Every line a summary holds is listed in records.LINES: a fixture with a line inserted at its
    # top (every line it records moves) keeps its digest. A field holding lines left out of the
    # table, or a name written after a line (``<handed@12:8>``) not read as one, fails here.
    catalogue = Config(root=FIXTURES).catalogue()
    moved = 0
    for source in _sources(FIXTURES):
        summary = summarize(source, catalogue)
        below = summarize(dataclasses.replace(source, text="\n" + source.text), catalogue)
        assert isinstance(summary, ModuleSummary) and isinstance(below, ModuleSummary), source.path
        assert moved_digest(below) == moved_digest(summary), source.path
        moved += encode(below) != encode(summary)
    assert moved > 50
    # Near misses: what the lines hold is not where they are.
    text = "import time\n\n\ndef wait():\n    time.sleep(1)\n\n\ndef run():\n    wait()\n    wait()\n"
    edits = [
        # Two calls of one line each, now on one line: one line fewer, two calls on it.
        text.replace("    wait()\n    wait()\n", "    wait(); wait()\n"),
        # The same functions, in the other order.
        text.replace(
            "def wait():\n    time.sleep(1)\n\n\ndef run():\n    wait()\n    wait()\n",
            "def run():\n    wait()\n    wait()\n\n\ndef wait():\n    time.sleep(1)\n",
        ),
        # A call's argument, a call more.
        text.replace("sleep(1)", "sleep(2)"),
        text.replace("    wait()\n    wait()\n", "    wait()\n    wait()\n    wait()\n"),
    ]
    first = moved_digest(summarize(SourceFile("m.py", text, "m", ""), catalogue))
    assert first == moved_digest(
        summarize(SourceFile("m.py", text.replace("\n\n\ndef run", "\n\n\n\ndef run"), "m", ""), catalogue)
    )
    for edited in edits:
        assert edited != text
        assert moved_digest(summarize(SourceFile("m.py", edited, "m", ""), catalogue)) != first, edited


def _commented_in_a_body(text: str) -> str:
    """``text`` with a comment line inserted above the first line of a body after its middle."""
    lines = text.splitlines(keepends=True)
    for at in range(len(lines) // 2, len(lines)):
        line, above = lines[at], lines[at - 1].rstrip()
        if line.startswith("    ") and line.strip() and not above.endswith(("\\", ",", "(", "[", "{")):
            indent = line[: len(line) - len(line.lstrip())]
            return "".join([*lines[:at], f"{indent}# moved here\n", *lines[at:]])
    return text


def test_the_last_result_renumbered_where_lines_moved_is_the_check_of_the_moved_text():
    # Every line a finding holds (or its words name) is listed in model.LINES: every fixture module
    # checked as one project, then again with lines moved in each -- a comment line on top, a comment
    # line in a body (where that keeps its summary's moved digest: not inside a string) -- and the
    # first result renumbered is the second, byte for byte. A field left out of the table fails here.
    config = Config(root=FIXTURES)
    catalogue = config.catalogue()
    sources = _sources(FIXTURES)
    summaries = [summarize(source, catalogue) for source in sources]
    assert all(isinstance(summary, ModuleSummary) for summary in summaries)
    first = check_project(summaries, {s.path: s.text for s in sources}, config, catalogue)  # type: ignore[arg-type]
    assert len(first.findings) > 1000
    for edit in (lambda text: "# moved\n\n" + text, _commented_in_a_body):
        moved, maps = [], {}
        for source, summary in zip(sources, summaries, strict=True):
            edited = dataclasses.replace(source, text=edit(source.text))
            after = summarize(edited, catalogue)
            assert isinstance(summary, ModuleSummary) and isinstance(after, ModuleSummary)
            (digest, lines), (moved_digest, moved_lines) = (
                cache_summaries.moved_lines(summary),
                cache_summaries.moved_lines(after),
            )
            where = line_map(lines, moved_lines, fingerprint(source.text), fingerprint(edited.text))
            if digest != moved_digest or where is None:
                moved.append((source, summary))  # the edit landed in a string: left as it was
                continue
            moved.append((edited, after))
            maps[source.path] = where
        assert len(maps) > len(sources) * 0.9
        second = check_project([s for _, s in moved], {s.path: s.text for s, _ in moved}, config, catalogue)
        renumbered_first = renumbered(first, maps)
        assert renumbered_first is not None
        assert encode(list(renumbered_first.findings)) == encode(list(second.findings))
        assert renumbered_first == second


def test_equal_rare_facts_decode_to_one_object():
    # A third of a project's call sites carry rare facts, most of them equal to another's: one
    # copy each (CallFacts.SHARED), until the run forgets its shared values.
    source = "def g(a, key=0):\n    pass\n\ndef f(x, y):\n    g(x, key=1)\n    g(y, key=1)\n    g(x, key=2)\n"
    summary = summarize(SourceFile("m.py", source, "m", ""), Config(root=FIXTURES).catalogue())
    assert isinstance(summary, ModuleSummary)
    first, other, same = decode(ModuleSummary, json.loads(encode(summary))).calls  # x, y, x passed on
    assert first.rare is not None and first.rare == same.rare != other.rare
    assert first.rare is same.rare
    forget_shared()
    assert decode(ModuleSummary, json.loads(encode(summary))).calls[0].rare is not first.rare


def test_a_call_reads_each_rare_fact_as_its_facts_hold_it():
    # CallSite's readers look in ``rare`` themselves (records.rare_fact): one fact set, several, none.
    sites = [
        CallSite.of(0, "m.g", None, 1, 1, 1, 9),
        CallSite.of(0, "m.g", None, 1, 1, 1, 9, consumer="asyncio.gather"),
        CallSite.of(0, "m.g", None, 1, 1, 1, 9, awaited=True, loop="m.L()", guards=("x",), param=("p", "g")),
    ]
    assert sites[0].rare is None and sites[1].rare is not None
    for site in sites:
        for fact in dataclasses.fields(CallFacts):
            assert getattr(site, fact.name) == getattr(site.rare or NO_FACTS, fact.name), fact.name
    assert (sites[2].awaited, sites[2].loop, sites[2].param, sites[2].consumer) == (True, "m.L()", ("p", "g"), None)


def test_equal_paths_and_the_tuples_holding_them_decode_to_one_object():
    # ``return self._http`` in two modules, a parameter handed on twice: the pairs and argument
    # tuples holding Rooted paths are shared as plain ones are (Rooted.SHARED), not one per record.
    source = (
        "import httpx\n\nclass Env:\n    def __init__(self):\n        self._http = httpx.Client()\n\n"
        "    def client(self):\n        return self._http\n\ndef h(a):\n    pass\n\n"
        "def f(x):\n    h(x)\n    h(x)\n"
    )
    summary = summarize(SourceFile("m.py", source, "m", ""), Config(root=FIXTURES).catalogue())
    assert isinstance(summary, ModuleSummary)
    one, other = (decode(ModuleSummary, json.loads(encode(summary))) for _ in range(2))
    assert one.values == other.values == (("Env.client()", Rooted(Marker.SELF, ("_http",))),)
    assert one.values[0] is other.values[0]
    first, second = (site for site in one.calls if site.target == "m.h")
    assert first.arguments == (Rooted(Marker.PARAM, ("x",)),)
    assert first.arguments is second.arguments


def test_a_fact_outside_its_enumerated_values_does_not_decode():
    # Facts.knowledge is a Literal: a cached finding naming a kind this version does not know is
    # damage (a cache written by another version is keyed apart), not a finding to report.
    (finding,) = run_check([str(EXAMPLES / "wiki_qa")], Config(root=EXAMPLES), use_cache=False).findings[:1]
    finding = dataclasses.replace(finding, facts=dataclasses.replace(finding.facts, knowledge="deep"))
    text = encode(finding)
    assert decode(Finding, json.loads(text)) == finding
    encoded = json.loads(text)  # (decoding reuses the lists it is handed)
    facts = next(part for part in encoded if isinstance(part, list) and "deep" in part)
    facts[facts.index("deep")] = "oracle"
    with pytest.raises(Malformed):
        decode(Finding, encoded)


def test_a_path_from_the_receiver_is_cached_as_one_and_its_marker_checked():
    # ``return self._http`` and ``self._query_fn = query_fn`` export no name: a path from the
    # receiver and a constructor's parameter, which the cache writes as records, not as text.
    source = (
        "import httpx\n\nclass Env:\n    def __init__(self, query_fn):\n        self._http = httpx.Client()\n"
        "        self._query_fn = query_fn\n\n    def client(self):\n        return self._http\n"
    )
    summary = summarize(SourceFile("env.py", source, module="env", package=""), Config(root=FIXTURES).catalogue())
    assert isinstance(summary, ModuleSummary), summary
    assert dict(summary.values)["Env.client()"] == Rooted(Marker.SELF, ("_http",))
    assert dict(summary.classes[0].attrs)["_query_fn"] == Rooted(Marker.PARAM, ("query_fn",))
    text = encode(summary)
    assert decode(ModuleSummary, json.loads(text)) == summary
    encoded = json.loads(text)  # (decoding reuses the lists it is handed)
    values = next(part for part in encoded if part == [["Env.client()", ["<self>", ["_http"]]]])  # the record
    values[0][1][0] = "<other>"  # a marker this version does not write
    with pytest.raises(Malformed):
        decode(ModuleSummary, encoded)


def test_a_receiver_path_left_for_the_graph_is_cached_as_one_and_its_root_checked():
    # ``state["driver"].get(...)`` and ``self.db.find()`` (a base class elsewhere): receivers only
    # the project settles, kept as paths whose root says which; the state's is written in full.
    source = (
        "import verifiers as vf\n\nclass Env(vf.MultiTurnEnv):\n"
        "    async def env_response(self, messages, state):\n"
        '        state["driver"].get("https://example.com")\n        self.db.find()\n'
    )
    summary = summarize(SourceFile("env.py", source, module="env", package=""), Config(root=FIXTURES).catalogue())
    assert isinstance(summary, ModuleSummary), summary
    state, on_self = (site.self_ref for site in summary.calls[:2])
    assert state == SelfPath("", ("driver", "get"), Marker.STATE)
    assert on_self == SelfPath("env.Env", ("db", "find"))
    text = encode(summary)
    decoded = decode(ModuleSummary, json.loads(text))
    assert decoded == summary
    assert decoded.calls[0].self_ref is not None and decoded.calls[0].self_ref.root is Marker.STATE
    written = text.replace('"<rollout state>"', '"<other>"')  # a root this version does not write
    with pytest.raises(Malformed):
        decode(ModuleSummary, json.loads(written))


def test_a_path_handed_to_a_call_or_injected_into_a_tool_is_cached_as_one():
    # ``helper(driver, page=driver)`` hands the caller's parameter on; ``update_tool_args`` injects
    # what the state holds: paths from a marker in the fields that also hold types, not their text.
    source = (
        "import verifiers as vf\nfrom pkg.tools import helper\n\nclass Env(vf.StatefulToolEnv):\n"
        "    def update_tool_args(self, tool_name, tool_args, messages, state, **kwargs):\n"
        '        tool_args["env"] = state.get("emulator_env")\n        return tool_args\n\n'
        "def step(driver):\n    helper(driver, page=driver)\n"
    )
    summary = summarize(SourceFile("env.py", source, module="env", package=""), Config(root=FIXTURES).catalogue())
    assert isinstance(summary, ModuleSummary), summary
    assert summary.injected == (("env", Rooted(Marker.STATE, ("emulator_env",))),)
    (call,) = (site for site in summary.calls if site.target == "pkg.tools.helper")
    assert call.arguments == (Rooted(Marker.PARAM, ("driver",)),)
    assert call.keyword_arguments == (("page", Rooted(Marker.PARAM, ("driver",))),)
    assert decode(ModuleSummary, json.loads(encode(summary))) == summary


@pytest.mark.parametrize(
    "damage",
    [
        lambda good: [1, *good[1:]],  # a number where the path is
        lambda good: good[:5],  # a field without a default missing
        lambda good: [*good[:2], [["f", "f", "1", True, "function", None, [], 1]], *good[3:]],  # a line as text
        lambda good: [*good[:2], [[None] * 8], *good[3:]],
        lambda good: {"path": good[0]},
        lambda good: [*good[:4], [[0, None, None, 1, 1, 1, 1, 1]], *good[5:]],  # an int where a bool is
        # A call site's fields the decoder answers inline: an optional name, a tuple of them, an
        # optional pair, an optional record, each given something else.
        lambda good: [*good[:4], [[0, 5, None, 1, 1, 1, 1]], *good[5:]],
        lambda good: [*good[:4], [[0, None, None, 1, 1, 1, 1, False, False, None, None, None, "x"]], *good[5:]],
        lambda good: [*good[:4], [[0, None, None, 1, 1, 1, 1, False, False, "self.x"]], *good[5:]],
        lambda good: [
            *good[:4],
            [[0, None, None, 1, 1, 1, 1, False, False, None, None, None, [], ["", ""], 0, [], [], [], [], 0]],
            *good[5:],
        ],
    ],
)
def test_a_value_of_the_wrong_shape_does_not_decode(damage):
    (source,) = _sources(EXAMPLES / "wiki_qa")[:1]
    summary = summarize(source, Config(root=EXAMPLES).catalogue())
    good = json.loads(encode(summary))
    with pytest.raises(Malformed):
        decode(ModuleSummary, damage(good))


def test_unchanged_files_reuse_the_last_result_without_reading_them(tmp_path: Path, monkeypatch):
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    # Without deep mode: with it, a change reads every file again (the twins it trusts depend on
    # what every file imports); nothing changed is answered the same way either way (below).
    config = Config(root=tmp_path, follow_imports=False)
    first = run_check(["examples"], config, jobs=1)
    assert first.findings and list((tmp_path / CACHE_DIR).glob("results-*.json"))

    def no_reading(*args, **kwargs):
        raise AssertionError("a warm run with nothing changed read the sources")

    with monkeypatch.context() as patched:
        patched.setattr(runner, "read_sources", no_reading)
        again = run_check(["examples"], config, jobs=1)
    assert again == first and again.paths == first.paths and again.rules == first.rules

    # One file changed: checked again, the others' summaries reused, the result right.
    env = tmp_path / "examples" / "wiki_qa" / "env.py"
    text = env.read_text()
    env.write_text(
        text.replace(
            "async def fetch_page(title: str) -> str:\n",
            "async def fetch_page(title: str) -> str:\n    time.sleep(0.1)\n",
        )
    )
    assert env.read_text() != text
    indexed, read = [], []
    real_index, real_read = runner.index, runner.read_sources
    monkeypatch.setattr(
        runner, "index", lambda sources, *a: indexed.extend(s.path for s in sources) or real_index(sources, *a)
    )
    monkeypatch.setattr(
        runner, "read_sources", lambda files, *a: read.extend(f.name for f in files) or real_read(files, *a)
    )
    changed = run_check(["examples"], config, jobs=1)
    assert indexed == ["examples/wiki_qa/env.py"]
    assert read == ["env.py"]  # the others' summaries found by their recorded digests
    assert changed == run_check(["examples"], config, jobs=1, use_cache=False) != first

    deep = Config(root=tmp_path)
    assert deep.follow_imports
    deep_first = run_check(["examples"], deep, jobs=1)
    with monkeypatch.context() as patched:
        patched.setattr(runner, "read_sources", no_reading)
        assert run_check(["examples"], deep, jobs=1) == deep_first


def test_suppressions_in_files_not_read_again_still_hold(tmp_path: Path, monkeypatch):
    write(
        tmp_path,
        {
            "proj/a.py": "import time\n\nasync def f():\n    time.sleep(1)\n",
            "proj/b.py": (
                "import time\n\nasync def g():\n    time.sleep(1)  # asynclint: ignore[ASL101]\n    time.sleep(2)\n"
            ),
        },
    )
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path)
    first = run_check(["proj"], config)
    assert [(f.path, f.line) for f in first.findings] == [("proj/a.py", 4), ("proj/b.py", 5)]
    (tmp_path / "proj" / "a.py").write_text("import time\n\nasync def f():\n    time.sleep(3)\n    time.sleep(4)\n")
    again = run_check(["proj"], config)
    assert [(f.path, f.line) for f in again.findings] == [("proj/a.py", 4), ("proj/a.py", 5), ("proj/b.py", 5)]
    assert again == run_check(["proj"], config, use_cache=False)


def test_a_same_size_edit_right_after_a_check_is_not_missed(tmp_path: Path, monkeypatch):
    """A file written moments before the check may change again within its timestamp's tick:
    its stamp is not trusted, and its content decides next time (git's racy-clean rule)."""
    write(tmp_path, {"proj/m.py": "import time\n\nasync def f():\n    time.sleep(1)\n"})
    module = tmp_path / "proj" / "m.py"
    monkeypatch.chdir(tmp_path)
    just_now = time.time_ns() + 60_000_000_000  # "just written" however slowly the check starts
    os.utime(module, ns=(just_now, just_now))
    config = Config(root=tmp_path)
    assert len(run_check(["proj"], config).findings) == 1
    module.write_text(module.read_text().replace("time.sleep(1)", "print(123456)"))
    os.utime(module, ns=(just_now, just_now))  # same size, same time: only the content tells
    assert run_check(["proj"], config).findings == ()


def _tamper_messages(cache: Path, text: str) -> None:
    (results,) = cache.glob("results-*.json")
    document = json.loads(results.read_text())
    for finding in document["findings"]:
        finding[8] = text  # Finding.message: still a well-formed result, visibly this one
    results.write_text(json.dumps(document))


def test_a_restored_cache_is_used_on_a_fresh_machine(tmp_path: Path):
    """CI restores ``.asynclint_cache`` into a fresh checkout: another directory, new
    modification times, another HOME. The cache holds no machine's key: it is used."""
    shutil.copytree(EXAMPLES, tmp_path / "first" / "examples")
    home_a = {"HOME": str(tmp_path / "home-a"), "XDG_CACHE_HOME": str(tmp_path / "home-a" / ".cache")}
    # "." as CI names the checkout: the root itself must key the same in any directory.
    cold = run("check", "--format", "json", ".", cwd=tmp_path / "first", env=home_a)
    assert cold.returncode == 1 and findings(cold)
    time.sleep(0.01)
    fresh = tmp_path / "second"
    shutil.copytree(EXAMPLES, fresh / "examples")  # a new checkout: every file newer
    shutil.copytree(tmp_path / "first" / CACHE_DIR, fresh / CACHE_DIR)  # the restored cache
    _tamper_messages(fresh / CACHE_DIR, "from the restored cache")
    home_b = {"HOME": str(tmp_path / "home-b"), "XDG_CACHE_HOME": str(tmp_path / "home-b" / ".cache")}
    warm = run("check", "--format", "json", ".", cwd=fresh, env=home_b)
    assert warm.returncode == 1
    assert {f["message"] for f in findings(warm)} == {"from the restored cache"}
    assert [(f["path"], f["line"]) for f in findings(warm)] == [(f["path"], f["line"]) for f in findings(cold)]
    assert not (tmp_path / "home-b").exists()  # nothing kept per user


def test_restored_summaries_are_used_on_a_fresh_machine(tmp_path: Path, monkeypatch):
    shutil.copytree(EXAMPLES, tmp_path / "first" / "examples")
    monkeypatch.chdir(tmp_path / "first")
    first = run_check(["examples"], Config(root=tmp_path / "first"), jobs=1)
    fresh = tmp_path / "second"
    shutil.copytree(EXAMPLES, fresh / "examples")
    shutil.copytree(tmp_path / "first" / CACHE_DIR, fresh / CACHE_DIR)
    for results in (fresh / CACHE_DIR).glob("results-*.json"):
        results.unlink()  # a result cache left out: the summaries alone must be used
    monkeypatch.chdir(fresh)
    monkeypatch.setattr(runner, "index", lambda sources, *a: [] if not sources else pytest.fail("re-indexed"))
    assert run_check(["examples"], Config(root=fresh), jobs=1).findings == first.findings


def test_parallel_and_cached_runs_agree(tmp_path: Path):
    files = {"proj/__init__.py": ""}
    for n in range(60):  # above the threshold where indexing goes parallel
        files[f"proj/m{n:02}.py"] = f"import time\nfrom proj import m{(n + 1) % 60:02}\n\n" + (
            f"def helper_{n}():\n    time.sleep({n})\n\n\nasync def entry_{n}():\n    helper_{n}()\n"
        )
    write(tmp_path, files)
    cold = run("check", "--format", "json", "-j", "1", "--no-cache", "proj", cwd=tmp_path)
    assert not (tmp_path / CACHE_DIR).exists()
    parallel = run("check", "--format", "json", "-j", "2", "proj", cwd=tmp_path)
    (written,) = (tmp_path / CACHE_DIR).glob("summaries-*.jsonl")
    stamp = written.stat().st_mtime_ns
    (tmp_path / "proj" / "m00.py").touch()  # not the last result: summaries come from the cache
    warm = run("check", "--format", "json", "-j", "2", "proj", cwd=tmp_path)
    # Every summary a hit: the same cache file, not rewritten (its name must not depend on
    # per-process string hashing).
    assert [p.name for p in (tmp_path / CACHE_DIR).glob("summaries-*.jsonl")] == [written.name]
    assert written.stat().st_mtime_ns == stamp
    assert cold.stdout == parallel.stdout == warm.stdout
    assert len(findings(cold)) == 60


class _Planted:
    """A pickle that runs code when loaded: what a hostile checkout could commit as a cache."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def test_a_damaged_or_hostile_cache_is_a_miss_never_code(tmp_path: Path):
    write(tmp_path, {"proj/m.py": "import time\n\nasync def f():\n    time.sleep(1)\n"})
    first = run("check", "--format", "json", "proj", cwd=tmp_path)
    cache = tmp_path / CACHE_DIR
    (summaries,) = cache.glob("summaries-*.jsonl")
    (results,) = cache.glob("results-*.json")
    good_summaries, good_results = summaries.read_bytes(), results.read_bytes()
    key = good_summaries.split(b" ", 1)[0]
    marker = tmp_path / "owned"
    planted = pickle.dumps(_Planted(str(marker)))
    damaged = [
        planted,
        b"\0" * 32 + planted,
        b"not json",
        b"\xff\xfe",
        b"",
        b"[]",
        b"{}",
        b'{"schema": 1}',
        key + b" " + planted,
        key + b' {"path": 1}',
        key + b" [" * 100000,
        key + b" " + json.dumps([1] * 17).encode(),
    ]
    for content in damaged:
        # The summaries damaged and no last result (which would spare reading them); then the
        # last result damaged. Either way: the findings of a cold run, and the file written anew.
        for file, other in ((summaries, results), (results, None)):
            if other is not None:
                other.unlink()
            file.write_bytes(content)
            again = run("check", "--format", "json", "proj", cwd=tmp_path)
            assert again.stdout == first.stdout and again.returncode == first.returncode, content[:40]
            assert not marker.exists()
            assert file.read_bytes() != content
        summaries.write_bytes(good_summaries)
        results.write_bytes(good_results)


def test_cache_dir_and_clean(tmp_path: Path):
    write(tmp_path, {"proj/m.py": "import time\n\nasync def f():\n    time.sleep(1)\n"})
    elsewhere = tmp_path / "ci-cache"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("not asynclint's")
    (elsewhere / ".gitignore").write_text("*.log\n")
    first = run("check", "--cache-dir", str(elsewhere), "proj", cwd=tmp_path)
    assert first.returncode == 1 and not (tmp_path / CACHE_DIR).exists()
    assert list(elsewhere.glob("results-*.json")) and list(elsewhere.glob("summaries-*.jsonl"))
    by_env = run("check", "proj", cwd=tmp_path, env={"ASYNCLINT_CACHE_DIR": str(elsewhere)})
    assert by_env.stdout == first.stdout and not (tmp_path / CACHE_DIR).exists()
    run("check", "--follow-imports", "--cache-dir", str(elsewhere), "proj", cwd=tmp_path)
    assert list(elsewhere.glob("layout-*.json"))  # deep mode's record of the project's own names

    cleaned = run_process("clean", "--cache-dir", str(elsewhere), cwd=tmp_path)  # the installed command
    assert cleaned.returncode == 0 and "removed" in cleaned.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == [".gitignore", "keep.txt"]  # nothing else is touched

    run("check", "proj", cwd=tmp_path)
    assert (tmp_path / CACHE_DIR).is_dir()
    assert run("clean", "proj", cwd=tmp_path).returncode == 0  # the cache `check proj` made
    assert not (tmp_path / CACHE_DIR).exists()
    assert run("clean", cwd=tmp_path).returncode == 0  # nothing to remove is fine


def test_a_changed_configuration_is_not_the_last_result(tmp_path: Path):
    write(tmp_path, {"proj/m.py": "import time\n\nasync def f():\n    time.sleep(1)\n"})
    assert run("check", "proj", cwd=tmp_path).returncode == 1
    write(tmp_path, {"pyproject.toml": '[tool.asynclint]\nignore = ["blocking-sleep"]\n'})
    assert run("check", "proj", cwd=tmp_path).returncode == 0
    write(tmp_path, {"pyproject.toml": '[tool.asynclint]\nseverity = { blocking-sleep = "low" }\n'})
    assert run("check", "proj", cwd=tmp_path).returncode == 1
    assert run("check", "--severity", "critical", "proj", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    "patterns",
    [
        list(DEFAULT_EXCLUDES),
        ["build", "/dist", "docs/_build/", "*.py[cod]", "**/generated/**", "a/**/b", "[Tt]emp*", "\\#x"],
        ["*.py", "!keep.py", "vendor/", "!vendor/ours/"],  # negations: pathspec decides
        [],
    ],
)
def test_patterns_match_as_pathspec_does(patterns):
    """A warm run's discovery tries all exclude patterns as one regex: the same answers."""
    import pathspec

    from asynclint.files import _Patterns

    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    ours = _Patterns(patterns)
    paths = [
        "build",
        "build/",
        "src/build/",
        "src/build/x.py",
        "dist/",
        "src/dist/",
        "docs/_build/",
        "docs/_build/x",
        "m.pyc",
        "pkg/m.pyo",
        "m.py",
        "keep.py",
        "pkg/keep.py",
        "vendor/",
        "vendor/ours/",
        "vendor/ours/a.py",
        "x/generated/y.py",
        "a/b",
        "a/x/y/b",
        "Temp1/",
        "temporary.py",
        "#x",
        ".git/",
        "pkg.egg-info/",
        "node_modules/",
        "deep/nested/.venv/",
        "site-packages/",
        "__pycache__/",
        "ok/fine.py",
    ]
    assert [ours.match_file(p) for p in paths] == [spec.match_file(p) for p in paths]


@pytest.mark.parametrize("deep", [False, True], ids=["shallow", "deep"])
def test_an_edit_in_one_file_changes_the_findings_of_files_left_alone(tmp_path: Path, monkeypatch, deep):
    # A result cache that re-derived only the edited file's findings would miss both of these.
    write(
        tmp_path,
        {
            "proj/hooks.py": "from helpers import load\n\n\nasync def rollout():\n    return load()\n",
            "proj/helpers.py": "def load():\n    return 1\n",
            "proj/worker.py": "import time\n\n\ndef work():\n    time.sleep(1)\n",
            "proj/tools.py": "async def tool():\n    return 1\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    config = Config(root=tmp_path, follow_imports=deep)

    def where(result):
        return {(f.path, f.line, tuple(link.path for link in f.chain)) for f in result.findings}

    assert run_check(["proj"], config).findings == ()
    # A helper made to sleep: the unchanged hook's chain now blocks.
    (tmp_path / "proj" / "helpers.py").write_text("import time\n\n\ndef load():\n    time.sleep(1)\n    return 1\n")
    helper = run_check(["proj"], config)
    assert {(path, line) for path, line, _ in where(helper)} == {("proj/helpers.py", 5)}
    assert all("proj/hooks.py" in chain for _, _, chain in where(helper))
    assert helper == run_check(["proj"], config, use_cache=False)
    # A tool made to call an unchanged sync function: its sleep is now on the loop.
    (tmp_path / "proj" / "tools.py").write_text("from worker import work\n\n\nasync def tool():\n    return work()\n")
    tool = run_check(["proj"], config)
    assert {(path, line) for path, line, _ in where(tool)} == {("proj/helpers.py", 5), ("proj/worker.py", 5)}
    assert tool == run_check(["proj"], config, use_cache=False)


def test_the_configurations_walk_is_the_checks_walk(tmp_path: Path, monkeypatch):
    # `check` hands run_check the files its configuration's walk found: the same as it would find.
    from asynclint.files import discover
    from asynclint.project import load_project

    write(
        tmp_path,
        {
            "pyproject.toml": "[tool.asynclint]\nextend-exclude = ['skipped']\n",
            "a/x.py": "x = 1\n",
            "a/skipped/y.py": "y = 1\n",
            "build/z.py": "z = 1\n",
            "b/pyproject.toml": "[tool.asynclint]\nexclude = ['w.py']\n",
            "b/w.py": "w = 1\n",
            "b/v.py": "v = 1\n",
            ".gitignore": "ignored/\n",
            "ignored/u.py": "u = 1\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    project = load_project(["."])
    assert project.files == discover(["."], project.config)
    assert [f.relative_to(tmp_path).as_posix() for f in project.files] == ["a/x.py", "b/v.py"]
    assert load_project(["a"]).files is None  # the root was not walked as asked: run_check walks "a"


def test_the_projects_own_names_are_the_last_runs_only_for_the_same_layout(tmp_path: Path, monkeypatch):
    # Deep mode's key depends on which top-level names are the project's own; a warm run takes them
    # from the last run while the files, and which directories hold an __init__.py, are the same.
    # (env/sub/ beside the top-level module env/tool.py is its namespace package: sub.helper.)
    write(tmp_path, {"env/tool.py": "x = 1\n", "env/sub/helper.py": "y = 1\n"})
    config = Config(root=tmp_path, extend_exclude=("__init__.py",))
    asked: list[list[str]] = []
    real = runner.installed_beside
    monkeypatch.setattr(runner, "installed_beside", lambda path, tops: asked.append(sorted(tops)) or real(path, tops))
    named = []
    monkeypatch.setattr(runner, "module_names", lambda *a: named.append(1) or files_module_names(*a))

    def check() -> list[str]:
        run_check([str(tmp_path)], config, jobs=1, search_path=[])
        return asked[-1]

    assert check() == ["sub", "tool"]
    assert check() == ["sub", "tool"] and len(named) == 1  # nothing changed: no module named again
    (tmp_path / "env" / "__init__.py").write_text("")  # excluded, so not one of the files: still a package
    assert check() == ["env"] and len(named) == 2
    (tmp_path / "env" / "more.py").write_text("z = 1\n")
    assert check() == ["env"] and len(named) == 3
    (tmp_path / "env" / "__init__.py").unlink()
    assert check() == ["more", "sub", "tool"] and len(named) == 4
    assert check() == ["more", "sub", "tool"] and len(named) == 4


def test_a_project_file_appearing_renames_the_modules_of_its_namespace_packages(tmp_path: Path, monkeypatch):
    # A pyproject.toml makes its directory the import base: pkg/ without __init__.py becomes the
    # namespace package ``pkg``. It is no file of the project, so the layout record notes it was asked.
    write(tmp_path, {"env/pkg/a.py": "x = 1\n", "env/pkg/b.py": "y = 1\n"})
    config = Config(root=tmp_path)
    asked: list[list[str]] = []
    real = runner.installed_beside
    monkeypatch.setattr(runner, "installed_beside", lambda path, tops: asked.append(sorted(tops)) or real(path, tops))

    def check() -> list[str]:
        run_check([str(tmp_path)], config, jobs=1, search_path=[])
        return asked[-1]

    assert check() == ["a", "b"]
    (tmp_path / "env" / "pyproject.toml").write_text("[project]\nname = 'env'\n")
    assert check() == ["pkg"]
    (tmp_path / "env" / "pyproject.toml").unlink()
    assert check() == ["a", "b"]


def test_a_project_file_appearing_makes_the_last_result_stale(tmp_path: Path):
    # No checked file changes, but the names do: pkg.b's blocking helper is reached only once
    # env/pyproject.toml makes pkg/ a namespace package (deep mode off: no layout record asked).
    # Before, ``pkg.b`` spells two top-level modules ``b`` (env/pkg/b.py and tools/pkg/b.py: the
    # directories above a module outside any package spell it too), so it names neither; after,
    # pkg.b is the package's module, never read as tools' b by that spelling.
    write(
        tmp_path,
        {
            "env/pkg/a.py": (
                "import verifiers as vf\nfrom pkg.b import is_file\n\n\n"
                "async def reward(completion, info, **kwargs) -> float:\n    return float(is_file(info['p']))\n\n\n"
                "def load_environment():\n    return vf.SingleTurnEnv(rubric=vf.Rubric(funcs=[reward]))\n"
            ),
            "env/pkg/b.py": "from pathlib import Path\n\n\ndef is_file(p):\n    return Path(p).read_text() != ''\n",
            "tools/pkg/b.py": "def is_file(p):\n    return bool(p)\n",
        },
    )
    config = dataclasses.replace(Config(root=tmp_path), follow_imports=False)

    def codes() -> list[str]:
        return [f.code for f in run_check([str(tmp_path)], config, jobs=1).findings]

    assert codes() == []
    (tmp_path / "env" / "pyproject.toml").write_text("[project]\nname = 'env'\n")
    assert codes() == ["ASL108"]
    assert codes() == ["ASL108"]  # answered from the cache now
    (tmp_path / "env" / "pyproject.toml").unlink()
    assert codes() == []


def test_a_damaged_layout_record_is_a_miss(tmp_path: Path):
    from asynclint.cache_results import LayoutCache

    write(tmp_path, {"a.py": "x = 1\n"})
    files = [tmp_path / "a.py"]
    layout = LayoutCache(tmp_path / CACHE_DIR, tmp_path, [str(tmp_path)])
    layout.store(files, {tmp_path: False}, ["a"])
    assert layout.lookup(files) == ["a"]
    assert layout.lookup([*files, tmp_path / "b.py"]) is None
    layout.file.write_text('{"schema": 1, "files": 3}')
    assert layout.lookup(files) is None


def test_a_bytecode_only_install_is_keyed_by_its_bytecode(tmp_path: Path, monkeypatch):
    # Modules installed as .pyc where the .py would be (compileall -b, sources removed): the key
    # follows their bytecode as it follows a checkout's sources; __pycache__ is never read.
    package = tmp_path / "asynclint"
    (package / "analysis" / "__pycache__").mkdir(parents=True)
    (package / "cache.py").write_text("x = 1\n")
    (package / "analysis" / "graph.pyc").write_bytes(b"old bytecode")
    monkeypatch.setattr(cache_module, "_PACKAGE", package)

    def key() -> str:
        return cache_module.code_fingerprint("*.py", "analysis/**/*.py")

    first = key()
    (package / "analysis" / "__pycache__" / "graph.cpython-311.pyc").write_bytes(b"recompiled")
    assert key() == first
    (package / "analysis" / "graph.pyc").write_bytes(b"new bytecode")
    rebuilt = key()
    assert rebuilt != first
    (package / "analysis" / "graph.py").write_text("y = 2\n")  # a source beside it: the source is what runs
    (package / "analysis" / "graph.pyc").write_bytes(b"stale bytecode")
    with_source = key()
    (package / "analysis" / "graph.pyc").write_bytes(b"other stale bytecode")
    assert key() == with_source != rebuilt
