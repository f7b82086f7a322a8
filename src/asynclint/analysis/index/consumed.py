"""The calls among a coroutine consumer's arguments that make the coroutines it consumes."""

from __future__ import annotations

import ast

from asynclint.knowledge.asyncio_apis import FIRST_ARGUMENT_CONSUMERS


def consumed_arguments(node: ast.Call, consumer: str | None) -> list[ast.expr]:
    """The arguments of ``node`` that ``consumer`` (its ``consumer_name``; ``None``: no consumer)
    runs as coroutines. A consumer that takes one awaitable first consumes only that one: the
    rest (``name=``, a timeout, or any argument of a project's method called ``create_task``) run
    where they are written."""
    if consumer is None:
        return []
    if consumer in FIRST_ARGUMENT_CONSUMERS:
        return node.args[:1]
    return [*node.args, *(keyword.value for keyword in node.keywords)]


def consumed_calls(node: ast.Call, consumer: str) -> list[ast.Call]:
    """The calls written as ``node``'s consumed arguments that make the coroutines ``consumer``
    runs, one per item too (``gather(*(fetch(u) for u in urls))``)."""
    calls: list[ast.Call] = []
    for arg in consumed_arguments(node, consumer):
        inner = arg.value if isinstance(arg, ast.Starred) else arg
        if isinstance(inner, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            inner = inner.elt
        if isinstance(inner, ast.Call):
            calls.append(inner)
    return calls
