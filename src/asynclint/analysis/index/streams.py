"""Lazy streams iterated on the event loop: a library call whose result is a stream read as it
is iterated (:data:`asynclint.knowledge.streams.LAZY_STREAMS`), made off the loop
(``bits, _ = await loop.run_in_executor(None, lambda: c.get_archive(path))``), then iterated in
the ``async def`` itself (``for chunk in bits:``). The offloaded call sent the request; each pass
of the loop reads the reply's body from the socket on the loop. Each such loop gets a call site
of its own: the offloaded call's, written at the loop and not offloaded, with ``stream`` naming
the call, which the rules report only once the receiver resolves to a listed library call."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from asynclint.analysis.index.handed import FunctionRef
from asynclint.analysis.index.helpers import SCOPES
from asynclint.analysis.index.records import CallFacts, CallSite, Function
from asynclint.knowledge.streams import LAZY_STREAM_METHODS

#: ``ast`` column (bytes) -> the 1-based character column call sites record, on a line.
Column = Callable[[int, int], int]


def consumed_streams(
    nodes: Sequence[ast.FunctionDef | ast.AsyncFunctionDef],
    defined: Sequence[Function],
    calls: list[CallSite],
    refs: Sequence[FunctionRef],
    column: Column,
) -> None:
    """Append to ``calls`` one call site per loop of an ``async def`` of ``nodes`` over a lazy
    stream an offloaded call returned (``defined``: the functions' records; ``refs``: the
    callables handed to calls, ``asyncio.to_thread(c.export)``'s ``c.export``)."""
    indexes = {(function.line, function.name): index for index, function in enumerate(defined)}
    at = {(site.line, site.col): site for site in calls if site.method in LAZY_STREAM_METHODS}
    for ref in refs:
        method = (ref.target or "").rpartition(".")[2]
        if ref.col and method in LAZY_STREAM_METHODS:
            # Handed by reference: the call the worker makes, as written in a lambda.
            at[(ref.line, ref.col)] = CallSite.of(
                ref.caller, ref.target, method, ref.line, ref.col, ref.line, ref.end_col, self_ref=ref.self_ref
            )
    if not at:
        return
    for node in nodes:
        caller = indexes.get((node.lineno, node.name))
        if caller is None or not isinstance(node, ast.AsyncFunctionDef):
            continue
        held: dict[str, CallSite] = {}
        for statement, depth in _statements(node.body, 0):
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                for name in _stream_names(statement.targets[0], statement.value, at, column):
                    held[name[0]] = name[1]
            elif isinstance(statement, ast.For) and isinstance(statement.iter, ast.Name):
                inner = held.get(statement.iter.id)
                if inner is not None:
                    calls.append(_loop_site(inner, caller, statement.iter, depth > 0, column))


def _statements(body: list[ast.stmt], depth: int) -> Iterator[tuple[ast.stmt, int]]:
    """The statements of ``body`` and of its blocks in source order, without nested scopes, each
    with the number of loops around it."""
    for statement in body:
        if isinstance(statement, SCOPES):
            continue
        yield statement, depth
        inner = depth + isinstance(statement, (ast.For, ast.AsyncFor, ast.While))
        for field in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(statement, field, []), inner if field == "body" else depth)
        for handler in getattr(statement, "handlers", []):
            yield from _statements(handler.body, depth)


def _stream_names(
    target: ast.expr, value: ast.expr, at: dict[tuple[int, int], CallSite], column: Column
) -> Iterator[tuple[str, CallSite]]:
    """The name ``target = value`` binds to the stream of an offloaded lazy-stream call, with that
    call's site: ``bits, _ = await loop.run_in_executor(None, lambda: c.get_archive(p))``, or
    ``await asyncio.to_thread(c.export)``."""
    if not isinstance(value, ast.Await) or not isinstance(value.value, ast.Call):
        return
    for argument in value.value.args:
        inner = argument.body if isinstance(argument, ast.Lambda) else argument
        func = inner.func if isinstance(inner, ast.Call) else inner
        if not isinstance(func, ast.Attribute) or func.attr not in LAZY_STREAM_METHODS:
            continue
        site = at.get((inner.lineno, column(inner.lineno, inner.col_offset)))
        if site is None:
            continue
        part = LAZY_STREAM_METHODS[func.attr]
        if part == "" and isinstance(target, ast.Name):
            yield target.id, site
        elif part == "0" and isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
            yield target.elts[0].id, site


def _loop_site(inner: CallSite, caller: int, over: ast.Name, in_loop: bool, column: Column) -> CallSite:
    """``inner``'s call as the loop over its stream makes it: in ``caller``, at ``over``, inline."""
    line, end_line = over.lineno, over.end_lineno or over.lineno
    site = CallSite.of(
        caller,
        inner.target,
        inner.method,
        line,
        column(line, over.col_offset),
        end_line,
        column(end_line, over.end_col_offset or over.col_offset),
        in_loop=in_loop,
        self_ref=inner.self_ref,
        origin=inner.origin,
        param=inner.param,
    )
    return replace(site, rare=replace(site.rare or CallFacts(), stream=inner.method or ""))
