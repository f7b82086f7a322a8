"""The profiler on a real loop under real load: stalls injected at known lines of
tests/data/profiler/workload.py must be reported at those lines, with plausible totals; a clean
workload must not be blamed. Ratios within one run and generous bounds only: the machine is shared
(see timing.py)."""

from __future__ import annotations

import asyncio
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from timing import code_ms, held_a_cpu, measure, profile_settings, timed_calls

from asynclint.profiler.attribution import USER, SiteStats
from asynclint.profiler.live import watch
from asynclint.profiler.monitor import LoopMonitor
from asynclint.profiler.records import MonitorError
from asynclint.profiler.report import Settings
from asynclint.profiler.session import profile

pytestmark = [pytest.mark.timing, pytest.mark.slow]

WORKLOADS = Path(__file__).parent / "data" / "profiler"
WORKLOAD = WORKLOADS / "workload.py"
ROLLOUTS, CONCURRENCY = 256, 128
KINDS = 8  # workload.stalls cycles through 8 kinds of rollout; 5 of them block


def marker_lines(path: Path = WORKLOAD) -> dict[str, int]:
    lines = {}
    for number, text in enumerate(path.read_text().splitlines(), 1):
        found = re.search(r"# stall: ([a-z]+)$", text)
        if found:
            lines[found.group(1)] = number
    return lines


def settings(**overrides) -> Settings:
    return profile_settings(**{"rollouts": ROLLOUTS, "concurrency": CONCURRENCY, **overrides})


def user_sites(report) -> dict[int, SiteStats]:
    return {
        s.frame.line: s
        for s in report.analysis.sites
        if s.cause == USER and s.frame.path.endswith("profiler/workload.py")
    }


def line_totals(report) -> dict[int, float]:
    """The milliseconds charged to each line of the workload, over every site at it: the helper's
    line is two sites (see ``_above_the_helper_line``), and either may hold most of its time."""
    totals: dict[int, float] = {}
    for s in report.analysis.sites:
        if s.cause == USER and s.frame.path.endswith("profiler/workload.py"):
            totals[s.frame.line] = totals.get(s.frame.line, 0.0) + s.total_ms
    return totals


@pytest.fixture(scope="module")
def workload_module():
    sys.path.insert(0, str(WORKLOADS))
    try:
        import workload

        yield workload
    finally:
        sys.path.remove(str(WORKLOADS))


@dataclass(frozen=True)
class Truth:
    """What the injected calls of one kind did in the profiled run itself, each timed around the
    call inside the target: the milliseconds they held the loop thread, less any wait for a CPU
    (which the profiler charges to the host, not to the line), and of those the milliseconds they
    computed (see ``timing.held_time_ms``). The run's own truth, not a calibration beside it: a
    6 MB file write swings several-fold with what else the shared machine has in its page cache."""

    held_ms: float
    cpu_ms: float
    wall_ms: float  # the held time and the waits for a CPU: all a line can be charged with
    calls: int

    @property
    def computes(self) -> bool:
        """On a CPU for most of its time, so its line can lose that time to <host>."""
        return self.cpu_ms >= self.held_ms / 2


def recorded_run(workload_module, run_settings: Settings) -> tuple:
    """The stalled workload's report, and each blocker's ``Truth`` in that run (the blockers
    wrapped for the run; the wrapper's frame is not the user's, so sites and chains are unchanged).
    The run is measured again while the host took so much of it that the lines that compute
    cannot be judged."""

    def one_run() -> tuple:
        blockers = {name: blocker.__name__ for name, blocker in workload_module.BLOCKERS.items()}
        with timed_calls(workload_module, blockers) as timings:
            report = profile(f"{WORKLOAD}:stalls", run_settings).report
        truth = {
            name: Truth(*(sum(column) for column in zip(*calls, strict=True)), len(calls))
            if calls
            else Truth(0.0, 0.0, 0.0, 0)
            for name, calls in timings.items()
        }
        return report, truth

    return measure(one_run, lambda result: held_a_cpu(result[0]))


@pytest.fixture(scope="module")
def recorded(workload_module) -> tuple:
    return recorded_run(workload_module, settings())


@pytest.fixture(scope="module")
def stalled(recorded):
    return recorded[0]


def judged_lines(report, truth: dict[str, Truth]) -> dict[str, int]:
    """The injected lines whose time ``report`` must show: all of them when the loop thread had a
    CPU, else those that do not compute (the host took what the others did, rightly charged to it)."""
    return {name: line for name, line in marker_lines().items() if held_a_cpu(report) or not truth[name].computes}


def test_every_injected_stall_is_reported_at_its_line(recorded):
    stalled, truth = recorded
    sites = line_totals(stalled)
    judged = judged_lines(stalled, truth)
    assert "sleep" in judged  # time.sleep keeps its time under any load: every run judges something
    for name, line in marker_lines().items():
        assert truth[name].calls == ROLLOUTS // KINDS, truth
        assert line in sites or name not in judged, f"{name} (line {line}) not reported; sites: {sorted(sites)}"
        total = sites.get(line, 0.0)
        # Samples split each stall among the code that shared it, so a total is an estimate. It is
        # judged against what the line's calls did in this run, timed around each: at least a third
        # of the time they held the thread, at most twice the time they took, waits for a CPU
        # included (which a sampling interval charges to the line when the wait was under half of it).
        floor = truth[name].held_ms / 3 if name in judged else 0.0
        assert floor <= total <= truth[name].wall_ms * 2, (name, total, truth[name], stalled.analysis.causes)


def test_injected_sites_dominate_the_blocked_time(stalled):
    injected = sum(ms for line, ms in line_totals(stalled).items() if line in marker_lines().values())
    # Of the time charged to code: the rest the loop thread waited for a CPU (<host>) or collected
    # garbage, which a busy host stretches alike (measured by the clock, not by the loop's CPU).
    assert injected >= 0.6 * code_ms(stalled), stalled.analysis.causes


def test_uvloop_reports_the_same_sites(workload_module):
    pytest.importorskip("uvloop")
    report, truth = recorded_run(workload_module, settings(loop="uvloop"))
    assert report.settings.loop == "uvloop" and report.outputs.errors == 0
    sites = line_totals(report)
    assert set(judged_lines(report, truth).values()) <= set(sites), (sorted(sites), report.analysis.causes)
    injected = sum(ms for line, ms in sites.items() if line in marker_lines().values())
    assert injected >= 0.6 * code_ms(report), report.analysis.causes
    # uvloop runs callbacks from C: the chain still reaches the rollout, and no further than the runner.
    helper = user_sites(report).get(marker_lines()["helper"])
    if helper is not None:
        chain = [frame.function for frame in helper.chain]
        assert _above_the_helper_line(chain)[:2] == ["score", "block_helper"] and "stalls" in chain, chain


def _above_the_helper_line(chain: list[str]) -> list[str]:
    """The helper's stall line runs a generator expression inside ``_tokenize``: samples land in the
    expression (a site whose chain starts at ``_tokenize``) or on ``_tokenize``'s own ``sum`` (a
    site at the same line whose chain starts at ``score``), and either may be the one kept for it."""
    return chain[1:] if chain[:1] == ["_tokenize"] else chain


def test_a_helper_two_calls_deep_carries_its_chain(stalled):
    site = user_sites(stalled)[marker_lines()["helper"]]
    functions = [frame.function for frame in site.chain]
    assert _above_the_helper_line(functions)[:2] == ["score", "block_helper"], functions
    assert "stalls" in functions


def test_static_findings_are_matched_and_blind_spots_called_out(stalled):
    sites, lines = user_sites(stalled), marker_lines()
    assert sites[lines["sleep"]].finding.code == "ASL101"
    assert sites[lines["json"]].finding.code == "ASL111"
    assert sites[lines["deepcopy"]].finding.code == "ASL110"
    assert sites[lines["write"]].finding.code == "ASL108"
    # Pure-Python CPU work in a generator has no rule: the linter's blind spot.
    assert sites[lines["helper"]].blind_spot


def test_lag_statistics_are_consistent(stalled):
    lag = stalled.analysis.lag
    assert lag.p50_ms <= lag.p90_ms <= lag.p99_ms <= lag.max_ms
    assert lag.stalls >= 1 and lag.blocked_ms >= lag.max_ms
    assert sum(count for _, count in lag.histogram) == lag.beats
    assert stalled.rollouts == ROLLOUTS and stalled.outputs.errors == 0
    assert sum(ms for _, ms in stalled.analysis.causes) == pytest.approx(lag.blocked_ms, rel=1e-6)


def test_a_clean_workload_is_not_blamed(recorded):
    stalled, truth = recorded
    clean = profile(f"{WORKLOAD}:clean", settings(threshold_ms=10.0)).report
    blamed = sum(s.total_ms for s in clean.analysis.sites if s.cause == USER)
    totals = line_totals(stalled)
    smallest_injected = min(totals[line] for line in judged_lines(stalled, truth).values())
    # Host noise can land a rare sample in user code; anything systematic would be far larger.
    assert blamed < smallest_injected / 5, [(s.frame, s.total_ms) for s in clean.analysis.sites]
    assert clean.outputs.count == ROLLOUTS


def test_outputs_digest_is_deterministic_and_in_rollout_order(stalled):
    again = profile(f"{WORKLOAD}:stalls", settings(rollouts=64, concurrency=64), check=False).report
    assert list(again.outputs.values) == [(i % 8) * 10 + i % 3 for i in range(64)]
    assert again.outputs.values == stalled.outputs.values[:64]


def test_the_thread_sampler_finds_stalls_that_release_the_gil():
    report = profile(f"{WORKLOAD}:stalls", settings(method="thread"), check=False).report
    assert report.analysis.method == "thread"
    assert marker_lines()["sleep"] in user_sites(report)


def test_callback_timing_names_the_next_await_not_the_blocking_line():
    report = profile(f"{WORKLOAD}:stalls", settings(method="callbacks"), check=False).report
    lines = set(user_sites(report))
    assert lines and not lines & set(marker_lines().values())


def test_watch_names_the_line_inside_a_running_loop():
    async def main():
        await asyncio.sleep(0)
        with watch(loop_threshold_ms=5) as report:
            for _ in range(3):
                await asyncio.sleep(0.005)
                time.sleep(0.03)  # the line under test
            await asyncio.sleep(0.005)
        return report

    report = asyncio.run(main())
    source = Path(__file__).read_text().splitlines()
    line = next(n for n, text in enumerate(source, 1) if text.endswith("# the line under test"))
    top = next(site for site in report.sites if site.cause == USER)  # <host> can be larger, under load
    assert (Path(top.frame.path).name, top.frame.line) == (Path(__file__).name, line)
    assert report.max_stall_ms >= 15 and report.analysis.lag.stalls >= 3
    assert "test_profiler_attribution.py" in report.summary()


def test_watch_needs_a_running_loop_and_only_one_monitor_at_a_time():
    with pytest.raises(MonitorError, match="no running event loop"):
        with watch():
            pass

    async def nested():
        with watch():
            with pytest.raises(MonitorError, match="already running"):
                LoopMonitor().start()

    asyncio.run(nested())
