"""The pytest plugin, run on small test files through pytester: the marker fails a test whose
loop stalled over budget and names the line; clean and unmarked tests are left alone."""

from __future__ import annotations

import textwrap

import pytest

pytest_plugins = ["pytester"]

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
    result = pytester.runpytest("-rA")
    outcomes = result.parseoutcomes()
    assert (outcomes.get("failed"), outcomes.get("passed")) == (1, 1), result.stdout.str()
    text = result.stdout.str()
    assert "event loop held for" in text and "(budget 30 ms)" in text
    assert f"test_loop.py:{line_of(path, '# held here')} in slow_helper" in text
    assert "← test_over_budget" in text


def test_fixture_works_inside_any_running_loop(pytester: pytest.Pytester):
    path = pytester.makepyfile(test_fixture=textwrap.dedent("""
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
                with loop_budget(200) as report:
                    await asyncio.sleep(0.01)
                return report
            assert asyncio.run(main()).max_stall_ms < 200
    """))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1, passed=1)
    line = line_of(path, "# fixture stall")
    assert f"test_fixture.py:{line} in test_inside_asyncio_run.<locals>.main" in result.stdout.str()


def test_bad_marker_arguments_are_usage_errors(pytester: pytest.Pytester):
    pytester.makepyfile(test_bad=textwrap.dedent("""
        import pytest

        @pytest.mark.loop_budget("fast")
        async def test_x():
            pass

        @pytest.mark.loop_budget(10)
        def test_sync():
            pass
    """))
    result = pytester.runpytest()
    text = result.stdout.str()
    assert "the budget must be a positive number of milliseconds, got 'fast'" in text
    assert "loop_budget applies to `async def` tests" in text


def test_unrelated_suites_are_untouched(pytester: pytest.Pytester):
    # A fresh interpreter: the plugin is loaded from its entry point, and loading it imports no
    # profiler machinery until a marked test runs.
    pytester.makepyfile(test_plain=textwrap.dedent("""
        import sys

        def test_plugin_loaded_but_idle(pytestconfig):
            assert pytestconfig.pluginmanager.has_plugin("asynclint")
            assert "asynclint.profiler.live" not in sys.modules
            assert "asynclint.profiler.monitor" not in sys.modules
    """))
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(passed=1)
