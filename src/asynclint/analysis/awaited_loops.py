"""Which loops around a call raise what the called function runs: not a loop that awaits a coroutine,
nor one over the items of the reply a per-turn hook answers."""

from __future__ import annotations

import ast

from asynclint.analysis.index.callshapes import key_read
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite
from asynclint.knowledge.frameworks import ONE_REPLY_ITEMS


def raises_callee(site: CallSite, callee_is_async: bool) -> bool:
    """Does the loop around ``site`` (if any) raise the grade of what its callee runs on the loop?

    A loop that awaits a project coroutine (``await check(x)``, or gathers one per item:
    ``gather(*(check(x) for x in xs))``) hands the event loop back between its iterations: each
    stall is one call's, and the repetition is the loop's own cost, reported at its header
    (ASL120). A sync call in a loop holds the loop for all its iterations at once."""
    return site.in_loop and not (callee_is_async and (site.awaited or site.consumer is not None))


def over_one_reply(loop: WorkLoop, frequency: str) -> bool:
    """``loop``, of a function run at the root ``frequency``, goes through the items of the one reply
    such a root answers (a per-turn hook's ``for call in tool_calls``, :data:`ONE_REPLY_ITEMS`), and
    no loop around it repeats it: each iteration is one event of a frequency the root already counts.
    Read from the loop's header as written; a header cut short for messages is not matched."""
    tokens = ONE_REPLY_ITEMS.get(frequency)
    if not tokens or loop.parent >= 0 or not loop.header.startswith("for "):
        return False
    try:
        statement = ast.parse(f"{loop.header}: pass").body[0]
    except SyntaxError:
        return False
    return isinstance(statement, ast.For) and _last_word(statement.iter).lower() in tokens


def _last_word(node: ast.expr) -> str:
    """The word that says what ``node`` holds: ``calls`` of ``calls``, ``message.calls``,
    ``message["calls"]``, ``message.get("calls", [])``, ``message.calls or []``."""
    if isinstance(node, ast.BoolOp):
        return _last_word(node.values[0])
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    if isinstance(node, ast.Call):
        return key_read(node) or ""
    return ""
