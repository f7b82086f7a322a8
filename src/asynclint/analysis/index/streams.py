"""Lazy streams read on the event loop: a library call whose result is a stream read as it is
consumed (:data:`asynclint.knowledge.streams.LAZY_STREAMS`), made off the loop
(``bits, _ = await loop.run_in_executor(None, lambda: c.get_archive(path))``,
``r = await asyncio.to_thread(requests.get, url, stream=True)``, or handed to the executor as
``functools.partial(requests.get, url, stream=True)``), then read in the ``async def``
itself (``for chunk in bits:``, ``r.iter_content()``, ``r.content``, ``b"".join(bits)``). The
offloaded call sent the request; the read takes the reply's body from the socket on the loop.
The first read of each stream gets a call site of its own: the offloaded call's, written at the
read and not offloaded, with ``stream`` naming the call, which the rules report only once the
receiver resolves to a listed library call."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TypeGuard

from asynclint.analysis.index.handed import FunctionRef
from asynclint.analysis.index.helpers import SCOPES, WRAPPER_NAMES, last_name
from asynclint.analysis.index.records import CallFacts, CallSite, Function
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.asyncio_apis import OFFLOAD_FUNCTIONS, OFFLOAD_METHODS
from asynclint.knowledge.streams import LAZY_STREAM_METHODS, STREAM_READERS, LazyStream

#: ``ast`` column (bytes) -> the 1-based character column call sites record, on a line.
Column = Callable[[int, int], int]
#: A stream a name holds: the offloaded call's site, and what the stream is.
Held = tuple[CallSite, LazyStream]
_BODIES = ("body", "orelse", "finalbody", "handlers")
#: The last names of the calls that hand a callable to a worker.
OFFLOAD_NAMES = frozenset({*OFFLOAD_METHODS, *(name.rpartition(".")[2] for name in OFFLOAD_FUNCTIONS)})


def consumed_streams(
    nodes: Sequence[ast.FunctionDef | ast.AsyncFunctionDef],
    defined: Sequence[Function],
    calls: list[CallSite],
    refs: Sequence[FunctionRef],
    column: Column,
) -> None:
    """Append to ``calls`` one call site per first read, in an ``async def`` of ``nodes``, of a lazy
    stream an offloaded call returned (``defined``: the functions' records; ``refs``: the callables
    handed to calls, ``asyncio.to_thread(c.export)``'s ``c.export``)."""
    indexes = {(function.line, function.name): index for index, function in enumerate(defined)}
    at = {(site.line, site.col): site for site in calls if _may_stream(site.method, site.keywords)}
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
        held: dict[str, Held] = {}
        for statement, depth in _statements(node.body, 0):
            for name, read in _reads(statement, held):
                inner = held.pop(name)[0]  # the first read starts the body: what follows reads on
                calls.append(_read_site(inner, caller, read, depth > 0, column))
            if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                for target in targets:
                    for bound in walk(target):
                        if isinstance(bound, ast.Name):
                            held.pop(bound.id, None)  # bound again: no longer the stream
                if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and statement.value:
                    held.update(_stream_names(statement.targets[0], statement.value, at, column))


def _may_stream(method: str | None, keywords: tuple[str, ...]) -> bool:
    """A call of ``method`` given ``keywords`` may return a lazy stream."""
    stream = LAZY_STREAM_METHODS.get(method or "")
    return stream is not None and (not stream.keyword or stream.keyword in keywords)


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


def _own_expressions(statement: ast.stmt) -> Iterator[ast.AST]:
    """The expressions ``statement`` evaluates itself (not its blocks' statements), and theirs,
    without the bodies of lambdas and of other scopes (a lambda handed to a worker reads there)."""
    stack: list[ast.AST] = [
        value
        for field, value in ast.iter_fields(statement)
        if field not in _BODIES
        for value in (value if isinstance(value, list) else [value])
        if isinstance(value, ast.AST)
    ]
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPES):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _reads(statement: ast.stmt, held: dict[str, Held]) -> Iterator[tuple[str, ast.AST]]:
    """The names of ``held`` that ``statement`` reads the stream of, each once, with the node that
    reads it: a loop over the name, a reader handed it (``list(bits)``), a reply's body read
    (``r.iter_content()``, ``r.content``)."""
    if not held:
        return
    seen: set[str] = set()
    found: list[tuple[int, int, str, ast.AST]] = []
    nodes = list(_own_expressions(statement))
    handed = {id(argument) for node in nodes if _offloads(node) for argument in node.args}
    for node in nodes:
        if id(node) in handed:
            continue  # ``await asyncio.to_thread(out.read)``: the worker reads
        name, read = _read_of(node, held)
        if name is not None and read is not None and name not in seen:
            seen.add(name)
            found.append((getattr(read, "lineno", 0), getattr(read, "col_offset", 0), name, read))
    if isinstance(statement, (ast.For, ast.AsyncFor)) and isinstance(statement.iter, ast.Name):
        name = statement.iter.id
        if name in held and _iterated(held[name][1]) and name not in seen:
            found.append((statement.iter.lineno, statement.iter.col_offset, name, statement.iter))
    for _line, _col, name, read in sorted(found, key=lambda item: item[:2]):
        yield name, read


def _offloads(node: ast.AST) -> TypeGuard[ast.Call]:
    """``node`` hands a callable to a worker (``asyncio.to_thread(f)``, ``loop.run_in_executor(None, f)``),
    by the name it is called by."""
    return isinstance(node, ast.Call) and last_name(node.func) in OFFLOAD_NAMES


def _wraps(node: ast.expr) -> TypeGuard[ast.Call]:
    """``node`` wraps a callable with arguments (``functools.partial(f, ...)``), by the name it is called by."""
    return isinstance(node, ast.Call) and last_name(node.func) in WRAPPER_NAMES


def _iterated(stream: LazyStream) -> bool:
    """Iterating ``stream`` reads it: a generator, or a reply whose ``__iter__`` reads its body."""
    return not stream.reads or "__iter__" in stream.reads


def _read_of(node: ast.AST, held: dict[str, Held]) -> tuple[str | None, ast.AST | None]:
    """The held name ``node`` reads the stream of, and the node that reads it."""
    if isinstance(node, ast.comprehension) and isinstance(node.iter, ast.Name) and node.iter.id in held:
        if _iterated(held[node.iter.id][1]):
            return node.iter.id, node.iter
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
        if last_name(node.func) in STREAM_READERS and node.args[0].id in held and _iterated(held[node.args[0].id][1]):
            return node.args[0].id, node
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        kept = held.get(node.value.id)
        if kept is not None and node.attr in kept[1].reads:
            return node.value.id, node
    return None, None


def _stream_names(
    target: ast.expr, value: ast.expr, at: dict[tuple[int, int], CallSite], column: Column
) -> Iterator[tuple[str, Held]]:
    """The name ``target = value`` binds to the stream of an offloaded lazy-stream call, with that
    call's site: ``bits, _ = await loop.run_in_executor(None, lambda: c.get_archive(p))``,
    ``await asyncio.to_thread(c.export)``, ``await asyncio.to_thread(requests.get, url, stream=True)``."""
    if not isinstance(value, ast.Await) or not isinstance(value.value, ast.Call):
        return
    for argument in value.value.args:
        inner = argument.body if isinstance(argument, ast.Lambda) else argument
        # The keyword is the call's when written in a lambda, the worker's call's when handed by
        # reference, the wrapper's for ``functools.partial(requests.get, url, stream=True)``.
        keywords = inner.keywords if isinstance(inner, ast.Call) else value.value.keywords
        if _wraps(inner) and inner.args:
            inner = inner.args[0]
        func = inner.func if isinstance(inner, ast.Call) else inner
        if not isinstance(func, ast.Attribute) or func.attr not in LAZY_STREAM_METHODS:
            continue
        site = at.get((inner.lineno, column(inner.lineno, inner.col_offset)))
        if site is None:
            continue
        stream = LAZY_STREAM_METHODS[func.attr]
        if stream.keyword and not any(_true(keyword, stream.keyword) for keyword in keywords):
            continue
        if stream.part == "" and isinstance(target, ast.Name):
            yield target.id, (site, stream)
        elif stream.part and isinstance(target, ast.Tuple) and len(target.elts) > int(stream.part):
            item = target.elts[int(stream.part)]
            if isinstance(item, ast.Name):
                yield item.id, (site, stream)


def _true(keyword: ast.keyword, name: str) -> bool:
    """``keyword`` is ``name=True``."""
    return keyword.arg == name and isinstance(keyword.value, ast.Constant) and keyword.value.value is True


def _read_site(inner: CallSite, caller: int, read: ast.AST, in_loop: bool, column: Column) -> CallSite:
    """``inner``'s call as the read of its stream makes it: in ``caller``, at ``read``, inline."""
    line = getattr(read, "lineno", inner.line)
    end_line = getattr(read, "end_lineno", None) or line
    start = getattr(read, "col_offset", 0)
    site = CallSite.of(
        caller,
        inner.target,
        inner.method,
        line,
        column(line, start),
        end_line,
        column(end_line, getattr(read, "end_col_offset", None) or start),
        in_loop=in_loop,
        self_ref=inner.self_ref,
        origin=inner.origin,
        param=inner.param,
    )
    facts = replace(site.rare or CallFacts(), stream=inner.method or "", stream_from=(inner.line, inner.col))
    return replace(site, rare=facts)
