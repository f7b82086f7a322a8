"""Which loops around a call raise what the called function runs: not a loop that awaits a coroutine."""

from __future__ import annotations

from asynclint.analysis.index.records import CallSite


def raises_callee(site: CallSite, callee_is_async: bool) -> bool:
    """Does the loop around ``site`` (if any) raise the grade of what its callee runs on the loop?

    A loop that awaits a project coroutine (``await check(x)``, or gathers one per item:
    ``gather(*(check(x) for x in xs))``) hands the event loop back between its iterations: each
    stall is one call's, and the repetition is the loop's own cost, reported at its header
    (ASL120). A sync call in a loop holds the loop for all its iterations at once."""
    return site.in_loop and not (callee_is_async and (site.awaited or site.consumer is not None))
