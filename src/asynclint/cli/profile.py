"""``asynclint profile``: run a target under concurrent load and report where the loop was held."""

from __future__ import annotations

import contextlib
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from asynclint.cli.common import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INTERRUPTED, emit, fail, use_color, write_report
from asynclint.io import check_output

if TYPE_CHECKING:  # imported where used: the warm path loads no project walk
    pass


class FiniteFloat(click.FloatRange):
    """A float range that also refuses nan and inf (which every comparison lets through)."""

    name = "finite float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


FINITE_POSITIVE = FiniteFloat(min=0, min_open=True)
FINITE_NON_NEGATIVE = FiniteFloat(min=0)


@click.command("profile")
@click.argument("target", required=False)
@click.option(
    "--rollouts",
    type=click.IntRange(min=1),
    default=None,
    help="Rollouts to run (default: 256 for a function, 24 for a verifiers environment).",
)
@click.option(
    "--concurrency", type=click.IntRange(min=1), default=64, show_default=True, help="Rollouts in flight at once."
)
@click.option(
    "--duration",
    type=FINITE_POSITIVE,
    default=None,
    metavar="S",
    help="Keep starting rollouts for S seconds (with --rollouts: whichever ends first).",
)
@click.option(
    "--timeout",
    type=FINITE_POSITIVE,
    default=None,
    metavar="S",
    help="Cancel rollouts still running S seconds after measuring began, counted as timed out "
    "(default: --duration + 10 s with --duration, else none).",
)
@click.option(
    "--warmup",
    type=click.IntRange(min=0),
    default=8,
    show_default=True,
    help="Unmeasured rollouts first (imports, client set-up, caches happen once per process).",
)
@click.option(
    "--latency",
    type=FINITE_NON_NEGATIVE,
    default=50.0,
    show_default=True,
    metavar="MS",
    help="Fake model server: milliseconds per chat completion.",
)
@click.option(
    "--tokens",
    type=click.IntRange(min=0),
    default=24,
    show_default=True,
    help="Fake model server: words of reasoning per reply.",
)
@click.option(
    "--tool-turns",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="Fake model server: tool calls before the final answer.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Fake model server: reply seed.")
@click.option(
    "--env-args",
    default=None,
    metavar="JSON",
    help="verifiers v0: keyword arguments for load_environment(); v1: the env config (taskset, agent, ...).",
)
@click.option(
    "--threshold",
    type=FINITE_POSITIVE,
    default=5.0,
    show_default=True,
    metavar="MS",
    help="A heartbeat this late is a stall and gets attributed.",
)
@click.option(
    "--interval", type=FiniteFloat(min=0.1), default=2.0, show_default=True, metavar="MS", help="Heartbeat period."
)
@click.option(
    "--method",
    type=click.Choice(["auto", "signal", "thread", "callbacks"]),
    default="auto",
    show_default=True,
    help="How stalls are attributed (see docs/profiler.md).",
)
@click.option(
    "--loop",
    "loop_kind",
    type=click.Choice(["asyncio", "uvloop"]),
    default="asyncio",
    show_default=True,
    help="The event loop the target runs on (uvloop: when installed).",
)
@click.option("--format", "fmt", type=click.Choice(["rich", "json"]), default="rich", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, help="Write the report to FILE.")
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the HTML report to FILE: lag over time, histogram, stall sites with their findings, "
    "the worst stalls' call trees; with --compare, both runs on one page.",
)
@click.option("--no-check", is_flag=True, help="Do not match stall sites with `asynclint check` findings.")
@click.option("--no-color", is_flag=True, help="Disable colours (also: NO_COLOR=1).")
@click.option(
    "--compare",
    nargs=2,
    type=click.Path(dir_okay=False),
    default=None,
    metavar="BEFORE AFTER",
    help="Compare two JSON profile reports instead of profiling.",
)
def profile_command(
    target: str | None,
    rollouts: int | None,
    concurrency: int,
    duration: float | None,
    timeout: float | None,
    warmup: int,
    latency: float,
    tokens: int,
    tool_turns: int,
    seed: int,
    env_args: str | None,
    threshold: float,
    interval: float,
    method: str,
    loop_kind: str,
    fmt: str,
    output: str | None,
    html_file: str | None,
    no_check: bool,
    no_color: bool,
    compare: tuple[str, str] | None,
) -> None:
    """Run TARGET under concurrent load and report where the event loop was held.

    TARGET is a verifiers environment (module file, package directory or installed id; v0 with
    load_environment(), or v1 exporting a Taskset), driven offline against a fake model server,
    or an async function `module:function` / `path/to/file.py:function` called with each rollout
    index.

    Exit status: 0 done; 1 some rollouts raised or timed out (profile) or the outputs differ
    (--compare); 2 bad command line, target or report file; 130 interrupted (Ctrl-C): the report
    so far is still written, marked as interrupted.
    """
    from asynclint.profiler import cli_support

    if target and compare:
        fail("--compare takes two reports and no TARGET")
    if not target and not compare:
        fail("missing TARGET (a verifiers environment, or module:function)")
    for name in (output, html_file):  # found out now, not after a long run
        if name:
            try:
                check_output(Path(name))
            except OSError as exc:
                fail(f"{name}: cannot write report: {exc.strerror or exc}")
    if compare:
        try:
            text, outputs_identical, page = cli_support.compare_reports(
                *compare, fmt=fmt, color=use_color(no_color, output), html=bool(html_file)
            )
        except cli_support.ProfileError as exc:
            fail(str(exc))
        emit(text, output)
        if html_file and page is not None:
            write_report(Path(html_file), page)
        sys.exit(EXIT_CLEAN if outputs_identical else EXIT_FINDINGS)
    # The fake model server, if any, lives until the report is written (then the stack stops it):
    # after a first Ctrl-C, the rollouts being cancelled may still be talking to it.
    with contextlib.ExitStack() as keep_alive:
        try:
            # The report goes to stdout: what the target prints goes to stderr meanwhile.
            assert target is not None  # refused above without --compare
            with cli_support.stdout_to_stderr(enabled=not output):
                run = cli_support.profile_target(
                    target,
                    rollouts=rollouts,
                    concurrency=concurrency,
                    duration=duration,
                    timeout=timeout,
                    latency_ms=latency,
                    seed=seed,
                    tokens=tokens,
                    tool_turns=tool_turns,
                    env_args=env_args,
                    threshold_ms=threshold,
                    interval_ms=interval,
                    method=method,
                    check=not no_check,
                    warmup=warmup,
                    keep_alive=keep_alive,
                    loop=loop_kind,
                )
        except cli_support.ProfileError as exc:
            fail(str(exc))
        except (cli_support.ProfileInterrupted, KeyboardInterrupt) as exc:
            click.echo(f"asynclint: {str(exc) or 'interrupted: no report'}", err=True)
            keep_alive.close()
            _exit_at_once(EXIT_INTERRUPTED)
        emit(cli_support.render(run, fmt, color=use_color(no_color, output)), output)
        if html_file:
            write_report(Path(html_file), cli_support.html(run))
    facts = run.report.facts
    if facts.interrupted:
        _exit_at_once(EXIT_INTERRUPTED)
    _exit_at_once(EXIT_FINDINGS if run.report.outputs.errors or facts.timed_out else EXIT_CLEAN)


def _exit_at_once(status: int) -> None:
    """End ``profile`` once its report is out, without the interpreter's teardown: a profiled
    environment imports thousands of modules (the bundled example: ~6,500), and freeing them took
    1.5 s after the report was written, which made a Ctrl-C take that much longer to give the
    prompt back. Everything before the teardown still happens, in the interpreter's order: threads
    are joined and executors shut down (``threading._shutdown``: a process pool's workers are told
    to exit, which the exit handler of ``multiprocessing`` then waits for), then the exit handlers
    run (the target's, logging's), and the output is flushed. Run in-process (click's test runner:
    no file descriptor behind stdout), it exits as usual."""
    try:
        sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        sys.exit(status)
    import atexit
    import threading

    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
