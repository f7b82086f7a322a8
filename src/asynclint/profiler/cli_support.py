"""What the ``profile`` command needs besides option parsing: argument checks turned into
``ProfileError`` one-liners, the run, and rendering. It returns text; cli.py prints and exits."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from asynclint.profiler.compare import CompareError, compare, comparison_to_dict, load_report, render_comparison
from asynclint.profiler.fakeserver import FakeServerError
from asynclint.profiler.records import MonitorError
from asynclint.profiler.report import Settings, render_json, render_rich, to_dict
from asynclint.profiler.session import Interrupted, ProfileRun, html_call_tree, profile
from asynclint.profiler.target_base import TargetError


class ProfileError(Exception):
    """Bad command line, target or report: one line for stderr, exit status 2."""


class ProfileInterrupted(Exception):
    """Interrupted before anything was measured: one line for stderr, no report."""


@contextmanager
def stdout_to_stderr(enabled: bool = True) -> Iterator[None]:
    """While profiling with the report bound for stdout, send everything written to stdout (the
    target's prints, its subprocesses' output) to stderr, so that ``--format json`` stays JSON.
    Done on file descriptor 1, which Python's ``sys.stdout`` and child processes both write to."""
    if not enabled:
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def _env_args(text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileError(f"--env-args: not valid JSON ({exc.msg})") from None
    if not isinstance(value, dict):
        raise ProfileError("--env-args: expected a JSON object, e.g. '{\"num_examples\": 5}'")
    return value


def profile_target(
    target: str,
    *,
    rollouts: int | None,
    concurrency: int,
    duration: float | None,
    latency_ms: float,
    seed: int,
    tokens: int,
    tool_turns: int,
    env_args: str | None,
    threshold_ms: float,
    interval_ms: float,
    method: str,
    check: bool,
    warmup: int,
    timeout: float | None = None,
    keep_alive: ExitStack | None = None,
    loop: str = "asyncio",
) -> ProfileRun:
    if interval_ms >= threshold_ms:
        raise ProfileError(f"--interval ({interval_ms:g} ms) must be shorter than --threshold ({threshold_ms:g} ms)")
    if loop == "uvloop":
        try:
            import uvloop  # noqa: F401
        except ImportError:
            raise ProfileError("--loop uvloop: uvloop is not installed (pip install uvloop)") from None
        if method == "callbacks":
            # It times asyncio's Handle._run, which uvloop never calls: it would see nothing.
            raise ProfileError("--method callbacks times asyncio's own callbacks: it cannot run with --loop uvloop")
    settings = Settings(
        rollouts, concurrency, duration, latency_ms, seed, threshold_ms, interval_ms, method, warmup, timeout, loop
    )
    try:
        return profile(
            target,
            settings,
            tokens=tokens,
            tool_turns=tool_turns,
            env_args=_env_args(env_args),
            check=check,
            keep_alive=keep_alive,
        )
    except (TargetError, MonitorError, FakeServerError) as exc:
        raise ProfileError(str(exc)) from None
    except Interrupted as exc:
        raise ProfileInterrupted(str(exc)) from None


def render(run: ProfileRun, fmt: str, *, color: bool) -> str:
    return render_json(run.report) if fmt == "json" else render_rich(run.report, color=color)


def html(run: ProfileRun) -> str:
    """The HTML report: the JSON report's content drawn, with pyinstrument's call tree embedded."""
    from asynclint.profiler.html import render_html

    tree = html_call_tree(run.recording, title=f"asynclint profile {run.report.target}")
    return render_html(to_dict(run.report), tree)


def compare_reports(
    before: str, after: str, *, fmt: str, color: bool, html: bool = False
) -> tuple[str, bool, str | None]:
    """(rendered comparison, outputs identical?, the HTML page when ``html``)."""
    try:
        first, second = load_report(before), load_report(after)
        result = compare(first, second, before, after)
    except CompareError as exc:
        raise ProfileError(str(exc)) from None
    page = None
    if html:
        from asynclint.profiler.html import render_compare_html

        page = render_compare_html(first, second, result)
    if fmt == "json":
        return json.dumps(comparison_to_dict(result), indent=2) + "\n", result.outputs_identical, page
    return render_comparison(result, color=color), result.outputs_identical, page
