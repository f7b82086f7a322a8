"""Pure parts of the profiler: frame classification, aggregation, finding matching, the compare
logic and report loading. No loop, no timing."""

from __future__ import annotations

import asyncio
import json
import sysconfig
from pathlib import Path

import pytest

from asynclint.model import Finding, Severity
from asynclint.profiler.attribution import (
    GC,
    LIBRARY,
    PROFILER,
    RUNTIME,
    THREAD,
    UNSEEN,
    USER,
    FindingIndex,
    Frame,
    analyze,
    classify,
    percentile,
)
from asynclint.profiler.compare import (
    CompareError,
    SiteChange,
    compare,
    load_report,
    pair_sites,
    render_comparison,
    site_change_verdict,
)
from asynclint.profiler.records import (
    BLOCKED,
    GIL_WAIT,
    HOST_WAIT,
    RAN,
    Clocks,
    Recording,
    Sample,
    Stall,
    interval_verdict,
)
from asynclint.profiler.report import OutputsDigest, ProfileReport, Settings, StaticSummary, render_json, render_rich


def code_at(path: str, name: str = "work", first_line: int = 1):
    namespace: dict = {}
    exec(compile("\n" * (first_line - 1) + f"def {name}():\n    pass\n", path, "exec"), namespace)
    return namespace[name].__code__


USER_FILE = str(Path("/srv/project/app.py"))
HELPER_FILE = str(Path("/srv/project/helpers.py"))
LIBRARY_FILE = str(Path(sysconfig.get_paths()["purelib"]) / "somepkg" / "client.py")
LOOP_RUN = asyncio.events.Handle._run.__code__
RUN_ONCE = asyncio.base_events.BaseEventLoop._run_once.__code__
DUMPS = json.dumps.__code__
PROFILER_CODE = analyze.__code__


def test_the_innermost_user_frame_is_the_site_and_the_loop_bounds_the_chain():
    stack = (
        (DUMPS, 231),
        (code_at(HELPER_FILE, "encode"), 12),
        (code_at(USER_FILE, "step"), 40),
        (LOOP_RUN, 80),
        (RUN_ONCE, 1922),
        (code_at(USER_FILE, "main"), 99),
    )
    cause, site, chain, inner = classify(stack)
    assert (cause, site.path.endswith("helpers.py"), site.line, site.function) == (USER, True, 12, "encode")
    assert [(f.function, f.line) for f in chain] == [("step", 40)]  # not main: it only started the loop
    assert inner is not None and inner.function == "dumps"


def test_without_user_frames_the_library_then_profiler_then_runtime_is_named():
    library = classify(((DUMPS, 1), (code_at(LIBRARY_FILE, "send"), 7), (LOOP_RUN, 80)))
    assert library[0] == LIBRARY and library[1].path == "somepkg/client.py"
    assert classify(((PROFILER_CODE, 5), (LOOP_RUN, 80)))[0] == PROFILER
    runtime = classify(((RUN_ONCE, 1906),))
    assert runtime[0] == RUNTIME and runtime[1].path == "asyncio/base_events.py"
    assert classify(()) is None


def test_stall_time_is_shared_among_samples_and_gc():
    user = (code_at(USER_FILE, "a"), 3), (LOOP_RUN, 80)
    other = (code_at(USER_FILE, "b"), 9), (LOOP_RUN, 80)
    stalls = (
        Stall(
            due=10.0,
            duration=0.030,
            samples=(Sample(10.01, user), Sample(10.02, user), Sample(10.03, other)),
            gc_time=0.006,
        ),
        Stall(due=11.0, duration=0.010, samples=(), gc_time=0.0),
    )
    recording = Recording(
        lags=(0.0001, 0.030, 0.010),
        stalls=stalls,
        started=9.0,
        wall=3.0,
        interval=0.002,
        threshold=0.005,
        method="signal",
    )
    result = analyze(recording)
    by_line = {s.frame.line: s for s in result.sites}
    assert by_line[3].total_ms == pytest.approx(16.0) and by_line[9].total_ms == pytest.approx(8.0)
    assert by_line[3].count == 1 and by_line[3].blind_spot
    causes = dict(result.causes)
    assert causes[GC] == pytest.approx(6.0) and causes[UNSEEN] == pytest.approx(10.0)
    assert sum(causes.values()) == pytest.approx(result.lag.blocked_ms) == pytest.approx(40.0)
    assert result.worst[0].duration_ms == pytest.approx(30.0) and result.worst[0].at_s == pytest.approx(1.0)


def test_percentile_is_nearest_rank():
    values = sorted(float(v) for v in range(1, 101))
    assert (percentile(values, 0.5), percentile(values, 0.99), percentile(values, 1.0)) == (50.0, 99.0, 100.0)
    assert percentile([], 0.5) == 0.0


def _finding(path: str, line: int, end_line: int, code: str = "ASL101") -> Finding:
    return Finding(path, line, 5, end_line, 20, code, "blocking-sleep", Severity.CRITICAL, "m")


def test_findings_match_a_line_inside_the_call_span_or_a_caller_frame(tmp_path: Path):
    app = tmp_path / "app.py"
    index = FindingIndex([_finding(str(app), 10, 12), _finding(str(app), 30, 30, "ASL111")])
    assert index.match(Frame(str(app), 11, "f"), ()).code == "ASL101"
    via = index.match(Frame(str(app), 50, "helper"), (Frame(str(app), 30, "caller"),))
    assert via.code == "ASL111" and via.via == Frame(str(app), 30, "caller")
    assert index.match(Frame(str(app), 13, "f"), ()) is None


def test_sites_pair_by_line_then_in_order_within_a_function():
    key = lambda line, function="f": ("user", "app.py", function, line)  # noqa: E731
    before = {key(10): {}, key(20): {}, key(5, "g"): {}, key(7, "gone"): {}}
    after = {key(10): {}, key(22): {}, key(6, "g"): {}, key(8, "g"): {}}
    pairs = pair_sites(before, after)
    assert (key(10), key(10)) in pairs and (key(20), key(22)) in pairs
    # Uneven counts in g: no guessing, each side stands alone.
    assert (key(5, "g"), None) in pairs and (None, key(6, "g")) in pairs and (None, key(8, "g")) in pairs
    assert (key(7, "gone"), None) in pairs


def _report(values: list, blocked: float = 100.0, sites: list | None = None) -> dict:
    return {
        "asynclint_profile": 1,
        "settings": {"rollouts": len(values), "concurrency": 8},
        "run": {"rollouts": len(values), "wall_s": 1.0, "throughput_per_s": float(len(values))},
        "lag": {"p50_ms": 1.0, "p90_ms": 2.0, "p99_ms": 50.0, "max_ms": 60.0, "stalls": 3, "blocked_ms": blocked},
        "sites": sites or [],
        "outputs": {"count": len(values), "sha256": str(hash(json.dumps(values))), "values": values},
    }


def test_compare_reports_ratios_outputs_and_sites_that_did_not_help():
    site = {
        "cause": "user",
        "path": "app.py",
        "function": "f",
        "line": 3,
        "total_ms": 80.0,
        "finding": {"code": "ASL111", "severity": "medium"},
    }
    before = _report([1, 2, 3], 100.0, [site])
    after = _report([1, 2, 3], 90.0, [{**site, "total_ms": 70.0}])
    result = compare(before, after)
    blocked = next(m for m in result.metrics if m.name.startswith("blocked"))
    assert blocked.ratio == pytest.approx(0.9) and blocked.improved is True
    assert result.outputs_identical
    assert result.sites[0].finding == "ASL111 medium" and not result.sites[0].helped
    changed = compare(before, _report([1, 5, 7]))
    assert not changed.outputs_identical
    assert changed.outputs_note == "2 of 3 outputs differ; first at rollout 1: 2 before, 5 after"
    assert compare(before, _report([1, 2])).outputs_note == "different number of outputs: 3 before, 2 after"


@pytest.mark.parametrize(
    ("cause", "before_ms", "after_ms", "text", "tone"),
    [
        ("user", 3184.9, 0.0, "none left", "good"),
        # The bundled example's citation_check after asynclint fix: its asyncio.to_thread call still
        # starts a worker thread on the loop. Nearly all of the time went; the words say how much.
        ("user", 3184.9, 31.6, "99% less", "good"),
        ("user", 1000.0, 0.001, "99% less", "good"),  # some left: never "100% less"
        ("user", 100.0, 50.0, "50% less", "good"),  # halved: the fix helped
        ("user", 100.0, 50.1, "50% less, not halved", "bad"),
        ("user", 100.0, 99.9, "1% less, not halved", "bad"),  # some went: never "0% less"
        ("user", 100.0, 100.0, "unchanged", "bad"),
        ("library", 100.0, 121.0, "21% more", "bad"),
        ("user", 0.0, 12.0, "new", "new"),
        ("host", 500.0, 100.0, "host", ""),  # no code to fix: the cause, no verdict
    ],
)
def test_a_site_s_verdict_says_how_its_stall_time_changed(cause, before_ms, after_ms, text, tone):
    change = SiteChange(cause, "app.py", "f", 3, before_ms, after_ms, None)
    verdict = site_change_verdict(change)
    assert (verdict.text, verdict.tone) == (text, tone)
    assert (tone == "good") == (change.judged and change.helped)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not valid JSON (line 1, column 2"),
        ("[]", "not an asynclint profile report"),
        ('{"asynclint_profile": 99}', "profile report version 99"),
        ('{"asynclint_profile": 1, "run": {}}', "section 'run' is incomplete"),
    ],
)
def test_load_report_rejects_bad_files_with_one_line(tmp_path: Path, content: str, message: str):
    path = tmp_path / "r.json"
    path.write_text(content)
    with pytest.raises(CompareError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_report(path)
    with pytest.raises(CompareError, match="no such file"):
        load_report(tmp_path / "missing.json")


def test_rich_site_table_keeps_numbers_and_verdicts_whole_when_paths_are_long():
    deep = str(Path("/srv", *(["a-rather-long-directory-name"] * 6), "app.py"))
    stack = (code_at(deep, "score_with_a_long_function_name", first_line=7), 7), (LOOP_RUN, 80)
    recording = Recording(
        lags=(0.0001, 0.3),
        stalls=(Stall(due=1.0, duration=12.3456, samples=(Sample(1.1, stack),), gc_time=0.0),),
        started=0.0,
        wall=13.0,
        interval=0.002,
        threshold=0.005,
        method="signal",
    )
    analysis = analyze(recording, [_finding(deep, 7, 7)])
    settings = Settings(
        rollouts=8,
        concurrency=8,
        duration_s=None,
        latency_ms=50,
        seed=0,
        threshold_ms=5,
        interval_ms=2,
        method="signal",
    )
    report = ProfileReport(
        "app.py:run", "callable", settings, 8, 13.0, analysis, OutputsDigest.of((), 0), StaticSummary(1, 1)
    )
    text = render_rich(report, color=False, width=128)
    row = next(line for line in text.splitlines() if "app.py:7" in line)
    assert "12.35 s" in row and "ASL101 critical" in row and row.lstrip().startswith("…")
    assert max(len(line) for line in text.splitlines()) <= 128
    before = json.loads(render_json(report))
    after = json.loads(json.dumps(before).replace('"total_ms": 12345.6', '"total_ms": 100.0'))
    compared = render_comparison(compare(before, after), color=False)
    row = next(line for line in compared.splitlines() if "app.py:7" in line)
    assert "ASL101 critical" in row and "12,345.6 ms" in row and row.rstrip().endswith("99% less")
    assert max(len(line) for line in compared.splitlines()) <= 128


def _clocks(wall: float, cpu: float, process: float, waiting: float = 0.0, delivery: float = 0.0) -> Clocks:
    return Clocks(wall, cpu, process, waiting, delivery)


def test_a_sample_stands_for_the_time_since_the_look_before_it():
    c_call = (code_at(USER_FILE, "c_call", 4), 4), (LOOP_RUN, 80)
    python = (code_at(USER_FILE, "py_loop", 9), 9), (LOOP_RUN, 80)
    # One sample lands when a 100 ms C call returns, then four while Python code runs 10 ms.
    samples = (Sample(1.100, c_call), *(Sample(1.1025 + 0.0025 * k, python) for k in range(4)))
    stall = Stall(due=1.0, duration=0.110, samples=samples, gc_time=0.0)
    result = analyze(
        Recording(
            lags=(0.110,), stalls=(stall,), started=0.0, wall=1.2, interval=0.002, threshold=0.005, method="signal"
        )
    )
    by_line = {s.frame.line: s.total_ms for s in result.sites}
    assert by_line[4] == pytest.approx(100.0) and by_line[9] == pytest.approx(10.0)


@pytest.mark.parametrize(
    ("after", "verdict"),
    [
        (_clocks(1.1, 0.09, 0.09), RAN),  # the loop thread computed
        (_clocks(1.1, 0.001, 0.001), BLOCKED),  # it slept or waited on I/O
        (_clocks(1.1, 0.001, 0.095), GIL_WAIT),  # it waited while another thread computed
        (_clocks(1.1, 0.001, 0.001, 0.08), HOST_WAIT),  # it was ready, but the machine was busy
        # Asleep in a call for 25 ms until the sampler's signal woke it, then 75 ms waiting for a CPU
        # to run the handler: the signal caused that wait, the host did not lengthen the call.
        (_clocks(1.1, 0.0005, 0.0005, 0.075, 0.075), BLOCKED),
        # Computing, or ready to, when the signal came: its wait for the handler is the host's.
        (_clocks(1.1, 0.025, 0.025, 0.075, 0.075), HOST_WAIT),
        (_clocks(1.1, 0.09, 0.09, 0.0, 0.08), RAN),  # in a C call holding the GIL: the handler ran after it
    ],
)
def test_the_loop_threads_clocks_say_what_it_did(after: Clocks, verdict: str):
    assert interval_verdict(_clocks(1.0, 0.0, 0.0), after) == verdict
    assert interval_verdict(None, after) == RAN  # nothing to compare with: trust the sample


def _gil_wait() -> Recording:
    """100 ms in which the loop thread (at ``innocent``) computed 1 ms while ``hog`` computed 99."""
    innocent = (code_at(USER_FILE, "innocent", 20), 20), (LOOP_RUN, 80)
    hog = ((code_at(HELPER_FILE, "hog", 6), 6),)
    stall = Stall(
        due=1.0,
        duration=0.1,
        samples=(Sample(1.1, innocent, _clocks(1.1, 0.001, 0.099), (hog,)),),
        gc_time=0.0,
        before=_clocks(1.0, 0.0, 0.0),
        after=_clocks(1.1, 0.001, 0.099),
    )
    return Recording(
        lags=(0.1,), stalls=(stall,), started=0.0, wall=1.2, interval=0.002, threshold=0.005, method="signal"
    )


def test_waiting_for_the_gil_is_charged_to_the_other_threads_code():
    (site,) = analyze(_gil_wait()).sites
    assert (site.cause, site.frame.function, site.frame.line) == (THREAD, "hog", 6)
    assert site.total_ms == pytest.approx(100.0) and not site.blind_spot


def test_the_targets_own_files_are_the_users_wherever_installed_and_suppressed_lines_are_no_blind_spot():
    installed = (code_at(LIBRARY_FILE, "reward", 30), 30), (LOOP_RUN, 80)
    stall = Stall(due=1.0, duration=0.05, samples=(Sample(1.05, installed),), gc_time=0.0)
    recording = Recording(
        lags=(0.05,), stalls=(stall,), started=0.0, wall=1.2, interval=0.002, threshold=0.005, method="signal"
    )
    assert analyze(recording).sites[0].cause == LIBRARY
    (site,) = analyze(recording, user_roots=[str(Path(LIBRARY_FILE).parent)]).sites
    assert site.cause == USER and site.blind_spot
    (quiet,) = analyze(recording, user_roots=[str(Path(LIBRARY_FILE).parent)], suppressed=[(LIBRARY_FILE, 30)]).sites
    assert quiet.suppressed and not quiet.blind_spot


def test_v0_load_is_whole_groups_and_the_concurrency_says_so():
    import types

    from asynclint.profiler.target_base import LoadPlan
    from asynclint.profiler.targets import VerifiersTarget

    target = VerifiersTarget("env", types.SimpleNamespace(), {})
    target.rows = [{"example_id": i} for i in range(6)]
    assert list(target.groups(8)) == [(0, 2), (1, 2), (2, 1), (3, 1), (4, 1), (5, 1)]
    assert list(target.groups(3)) == [(0, 1), (1, 1), (2, 1)]
    assert target.concurrency(LoadPlan(500, 64, None)) == (
        84,
        "verifiers runs each example's 84 rollouts together, as one group",
    )
    assert target.concurrency(LoadPlan(120, 64, None)) == (60, "whole groups of 20 rollouts (one example each)")
    assert target.concurrency(LoadPlan(30, 64, None)) == (30, "only 30 rollouts")
    assert target.concurrency(LoadPlan(None, 64, 1.0)) == (64, None)


def test_drive_cancels_at_the_timeout_and_on_stop_and_keeps_rollout_order():
    from asynclint.profiler.target_base import INTERRUPTED, TIMED_OUT, LoadPlan, drive

    async def rollout(index: int) -> int:
        if index in (1, 5):
            await asyncio.Event().wait()
        await asyncio.sleep(0)
        return index

    outcome = asyncio.run(drive(rollout, LoadPlan(8, 3, None, 0.2)))
    assert (outcome.ended, outcome.cut) == (TIMED_OUT, 2) and outcome.outputs[0] == 0
    assert [type(v).__name__ for v in outcome.outputs] == ["int", "dict", "int", "int", "int", "dict", "int", "int"]

    async def interrupted():
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(0.1, stop.set)
        return await drive(rollout, LoadPlan(None, 4, None), stop)

    outcome = asyncio.run(interrupted())
    assert outcome.ended == INTERRUPTED and outcome.errors == 0 and 2 <= outcome.cut <= 4
    cancelled = {"error": "interrupted: still running when the run was interrupted"}
    assert outcome.outputs[1] == outcome.outputs[5] == cancelled


def test_the_html_call_tree_charges_a_gil_wait_to_the_other_thread_as_the_report_does():
    from asynclint.profiler.session import html_call_tree

    html = html_call_tree(_gil_wait())
    assert "another thread, holding the GIL" in html and "hog" in html
    assert "innocent" not in html  # the loop thread only waited


@pytest.mark.parametrize("version", [1, 2])
def test_compare_reads_reports_of_either_version(tmp_path: Path, version: int):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**_report([1, 2, 3]), "asynclint_profile": version}))
    assert load_report(path)["outputs"]["count"] == 3
