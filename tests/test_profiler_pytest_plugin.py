"""The pytest plugin, run on small test files through pytester: the marker fails a test whose
loop stalled over budget and names the line; clean and unmarked tests are left alone."""

from __future__ import annotations

import textwrap

import pytest

pytest_plugins = ["pytester"]


# Every inner run is a fresh interpreter: in-process, the inner tests share this worker's heap,
# and a collection of it (600 ms seen on CI) lands inside whichever budget is open -- a real
# stall, truly reported, but not the inner test's.


@pytest.fixture(autouse=True)
def _quiet_pytest_asyncio(pytester: pytest.Pytester) -> None:
    # pytest-asyncio (a dev dependency) warns in every run that does not choose this.
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")


TESTS = """
    import asyncio
    import time

    import pytest


    def slow_helper():
        time.sleep(0.08)  # held here


    @pytest.mark.loop_budget(30)
    async def test_over_budget():
        await asyncio.sleep(0.001)
        slow_helper()
        await asyncio.sleep(0.001)


    @pytest.mark.loop_budget(ms=200)
    async def test_within_budget(tmp_path):
        await asyncio.sleep(0.01)
        assert tmp_path.exists()  # fixtures still work

"""


def line_of(path, marker: str) -> int:
    return next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.endswith(marker))


def test_marker_fails_over_budget_and_names_the_line(pytester: pytest.Pytester):
    path = pytester.makepyfile(test_loop=textwrap.dedent(TESTS))
    result = pytester.runpytest_subprocess("-rA")
    outcomes = result.parseoutcomes()
    assert (outcomes.get("failed"), outcomes.get("passed")) == (1, 1), result.stdout.str()
    text = result.stdout.str()
    assert "event loop held for" in text and "(budget 30 ms)" in text
    assert f"test_loop.py:{line_of(path, '# held here')} in slow_helper" in text
    assert "← test_over_budget" in text


def test_fixture_works_inside_any_running_loop(pytester: pytest.Pytester):
    path = pytester.makepyfile(
        test_fixture=textwrap.dedent("""
        import asyncio
        import time


        def test_inside_asyncio_run(loop_budget):
            async def main():
                with loop_budget(30):
                    await asyncio.sleep(0.001)
                    time.sleep(0.06)  # fixture stall
            asyncio.run(main())


        def test_fixture_clean(loop_budget):
            async def main():
                with loop_budget(200) as clean:
                    await asyncio.sleep(0.01)
                with loop_budget(500) as held:
                    time.sleep(0.1)
                    await asyncio.sleep(0)
                return clean, held
            clean, held = asyncio.run(main())
            # The fixture yields its own block's report; an ordering, as a busy host stretches both.
            assert clean.max_stall_ms < held.max_stall_ms
    """)
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1, passed=1)
    line = line_of(path, "# fixture stall")
    assert f"test_fixture.py:{line} in test_inside_asyncio_run.<locals>.main" in result.stdout.str()


def test_bad_marker_arguments_are_usage_errors(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_bad=textwrap.dedent("""
        import pytest

        @pytest.mark.loop_budget("fast")
        async def test_x():
            pass

        @pytest.mark.loop_budget(10)
        def test_sync():
            pass
    """)
    )
    result = pytester.runpytest_subprocess()
    text = result.stdout.str()
    assert "the budget must be a positive number of milliseconds, got 'fast'" in text
    assert "loop_budget applies to `async def` tests" in text


def test_unrelated_suites_are_untouched(pytester: pytest.Pytester):
    # A fresh interpreter: the plugin is loaded from its entry point, and loading it imports no
    # profiler machinery until a marked test runs.
    pytester.makepyfile(
        test_plain=textwrap.dedent("""
        import sys

        def test_plugin_loaded_but_idle(pytestconfig):
            assert pytestconfig.pluginmanager.has_plugin("asynclint")
            assert "asynclint.profiler.live" not in sys.modules
            assert "asynclint.profiler.monitor" not in sys.modules
    """)
    )
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)


RUNNER_TESTS = """
    import asyncio
    import time

    import pytest
    {imports}


    def slow_helper():
        time.sleep(0.08)  # held here


    {fixtures}

    {mark}
    @pytest.mark.loop_budget(30)
    async def test_over_budget():
        await asyncio.sleep(0.001)
        slow_helper()
        await asyncio.sleep(0.001)


    {mark}
    @pytest.mark.loop_budget(30)
    async def test_within_budget({fixture_arg}):
        await asyncio.sleep(0.001)
"""

ASYNC_FIXTURE = "async def value():\n    await asyncio.sleep(0)\n    return 3"
RUNNERS = {
    # No runner plugin at all: asynclint runs the coroutine with asyncio.run.
    "plain": ("", "", "", "tmp_path", ("-p", "no:asyncio", "-p", "no:anyio")),
    "pytest-asyncio strict": (
        "import pytest_asyncio",
        "@pytest_asyncio.fixture\n" + ASYNC_FIXTURE,
        "@pytest.mark.asyncio",
        "value",
        ("-o", "asyncio_mode=strict"),
    ),
    # Auto mode claims every async test, marked or not, and every async fixture.
    "pytest-asyncio auto": ("", "@pytest.fixture\n" + ASYNC_FIXTURE, "", "value", ("-o", "asyncio_mode=auto")),
    "anyio": (
        "",
        "@pytest.fixture\ndef anyio_backend():\n    return 'asyncio'",
        "@pytest.mark.anyio",
        "anyio_backend",
        (),
    ),
}


@pytest.mark.parametrize("runner", list(RUNNERS))
def test_the_marker_works_under_every_runner(pytester: pytest.Pytester, runner: str):
    imports, fixtures, mark, fixture_arg, options = RUNNERS[runner]
    source = textwrap.dedent(RUNNER_TESTS).format(
        imports=imports, fixtures=fixtures, mark=mark, fixture_arg=fixture_arg
    )
    path = pytester.makepyfile(test_runner=source)
    result = pytester.runpytest_subprocess(*options)
    result.assert_outcomes(failed=1, passed=1)
    text = result.stdout.str()
    assert "(budget 30 ms)" in text and f"test_runner.py:{line_of(path, '# held here')} in slow_helper" in text
    assert "another plugin" not in text


def test_the_fixture_works_under_pytest_asyncio(pytester: pytest.Pytester):
    pytester.makepyfile(
        test_fixture_pa=textwrap.dedent("""
        import asyncio
        import time

        import pytest


        @pytest.mark.asyncio
        async def test_fixture_api(loop_budget):
            with loop_budget(30):
                await asyncio.sleep(0.001)
                time.sleep(0.08)
    """)
    )
    result = pytester.runpytest_subprocess("-o", "asyncio_mode=strict")
    result.assert_outcomes(failed=1)
    assert "(budget 30 ms)" in result.stdout.str()


@pytest.mark.timing
def test_nested_budgets_share_the_running_monitor(pytester: pytest.Pytester):
    # A budget inside another judges only its own block, each against its own limit; neither
    # raises for the other's monitor.
    pytester.makepyfile(
        test_nested=textwrap.dedent("""
        import asyncio
        import time

        import pytest


        @pytest.mark.loop_budget(200)
        async def test_inner_budget_fails_inside_a_generous_marker(loop_budget):
            with loop_budget(30):
                await asyncio.sleep(0.001)
                time.sleep(0.06)  # inner stall


        @pytest.mark.loop_budget(30)
        async def test_stall_outside_the_inner_block_fails_only_the_marker(loop_budget):
            with loop_budget(200) as inner:
                await asyncio.sleep(0.005)
            time.sleep(0.06)  # outer stall
            assert inner.max_stall_ms < 60  # it never saw the outer stall (on a busy host, a wait can exceed 30)


        def test_fixture_inside_fixture(loop_budget):
            async def main():
                with loop_budget(500) as outer:
                    with loop_budget(500) as inner:
                        time.sleep(0.02)
                        await asyncio.sleep(0.005)
                    time.sleep(0.04)
                    await asyncio.sleep(0.005)
                return outer, inner
            outer, inner = asyncio.run(main())
            # Orderings within the run, not absolute bounds: a busy host stretches every stall.
            # A stall counts from when the heartbeat was due: a sleep, less one interval, at least.
            assert outer.analysis.lag.stalls >= 2 and inner.analysis.lag.stalls >= 1
            assert 38 <= outer.max_stall_ms and 18 <= inner.max_stall_ms < outer.max_stall_ms
    """)
    )
    result = pytester.runpytest_subprocess("-p", "no:asyncio", "-p", "no:anyio")
    result.assert_outcomes(failed=2, passed=1)
    text = result.stdout.str()
    assert "(budget 30 ms)" in text and "inner stall" not in text  # the message names lines, not comments
    assert "MonitorError" not in text


def test_a_budget_judges_the_time_code_held_the_loop_not_the_wait_for_a_cpu():
    # A 100 ms stall: the loop thread computed for the first 50 ms at `work`, then was ready to run
    # but the machine kept it waiting for a CPU (its run-queue clock grew by 50 ms).
    from types import SimpleNamespace

    from asynclint.profiler.attribution import analyze
    from asynclint.profiler.pytest_plugin import verdict
    from asynclint.profiler.records import Clocks, Recording, Sample, Stall

    namespace: dict = {}
    exec(compile("def work():\n    pass\n", "/srv/project/app.py", "exec"), namespace)
    stack = ((namespace["work"].__code__, 2),)
    computed, waited = Clocks(1.05, 0.05, 0.05, 0.0), Clocks(1.1, 0.05, 0.05, 0.05)
    stall = Stall(
        due=1.0,
        duration=0.1,
        samples=(Sample(1.05, stack, computed), Sample(1.1, stack, waited)),
        gc_time=0.0,
        before=Clocks(1.0, 0.0, 0.0, 0.0),
        after=waited,
    )
    report = SimpleNamespace(
        analysis=analyze(
            Recording(
                lags=(0.1,), stalls=(stall,), started=0.0, wall=1.2, interval=0.002, threshold=0.005, method="signal"
            )
        )
    )
    assert report.analysis.lag.max_ms == pytest.approx(100.0)
    assert verdict(report, 60) is None  # over budget only with the machine's part counted
    message = verdict(report, 30)
    assert message is not None and message.startswith(
        "event loop held for 50.0 ms at once (and waited 50.0 ms for a CPU) (budget 30 ms)"
    ), message
    assert "/srv/project/app.py:2 in work (user): 50.0 ms" in message
