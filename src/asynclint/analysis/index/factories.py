"""The classes and functions a module hands on as values instead of calling them where it names
them: a table's values, a list's or a tuple's items, a call's arguments (``{"factory":
PageviewsSource}``, ``register(FredSource)``, ``{"factory": lambda: WikipediaSource(mode="search")}``,
the lambda standing for the class its body builds). What the project may build without a call of
the class written (``ModuleSummary.factories``)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from asynclint.analysis.index.helpers import may_be_project
from asynclint.knowledge.typenames import TYPE_TESTS

Denote = Callable[[ast.expr], str | None]


def module_factories(tree: ast.Module, denoted: Denote) -> tuple[tuple[str, str], ...]:
    """(the literal key a dict display files it under, or ""; the dotted name) of each class or
    function written as a value where a table, a list or a call hands it on. ``denoted`` names what
    an expression denotes at the module's top (``Indexer._denoted`` once the walk is done), so a
    name a function binds for itself (``for _ in rows``) is left out."""
    found: set[tuple[str, str]] = set()
    for key, value, local in _handed_values(tree, denoted):
        name = _factory(value, local, denoted)
        if name is not None and may_be_project(name):
            found.add((key, name))
    return tuple(sorted(found))


def _handed_values(tree: ast.Module, denoted: Denote) -> Iterator[tuple[str, ast.expr, frozenset[str]]]:
    stack: list[tuple[ast.AST, frozenset[str]]] = [(tree, frozenset())]
    while stack:
        node, local = stack.pop()
        if isinstance(node, ast.Subscript):
            stack.append((node.value, local))  # ``dict[str, type[Source]]``, ``Union[A, B]``: types, never values
            continue
        if isinstance(node, ast.Call) and denoted(node.func) in TYPE_TESTS:
            continue  # ``isinstance(src, (FredSource, NoaaSource))``: classes tested, not built
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            local = local | _bound_in(node)
        skipped = _declared(node)
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                yield (key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else ""), value, local
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            yield from (("", element, local) for element in node.elts)
        elif isinstance(node, ast.Call):
            arguments = (*node.args, *(keyword.value for keyword in node.keywords))
            yield from (("", argument, local) for argument in arguments)
        stack.extend((child, local) for child in ast.iter_child_nodes(node) if child is not skipped)


def _bound_in(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """The names a function binds for itself: its parameters and whatever it assigns (nested
    functions' too: a name that means something else somewhere inside is not the module's)."""
    arguments = function.args
    params = (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg)
    return frozenset(
        (
            *(param.arg for param in params if param is not None),
            *(
                node.id
                for node in ast.walk(function)
                if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
            ),
        )
    )


def _declared(node: ast.AST) -> ast.AST | None:
    """The part of ``node`` that declares or tests types (an annotation, the classes an ``except``
    catches), whose names are never classes handed on to be built."""
    if isinstance(node, (ast.arg, ast.AnnAssign)):
        return node.annotation
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return node.returns
    if isinstance(node, ast.ExceptHandler):
        return node.type
    return None


def _factory(value: ast.expr, local: frozenset[str], denoted: Denote) -> str | None:
    """The dotted name a handed value builds or runs when called: a name or attribute naming a
    class or function, or a lambda whose body is a call of one."""
    if isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call):
        local = local | _bound_in(value)
        value = value.body.func
    root = value
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or root.id in local:
        return None
    return denoted(value)


def fetched_key(func: ast.expr) -> str | None:
    """The literal key a called value is fetched by from a mapping (``spec["factory"]()``,
    ``spec.get("factory")()``), when the call is of such an item."""
    if isinstance(func, ast.Subscript):
        key = func.slice
    elif isinstance(func, ast.Call) and isinstance(func.func, ast.Attribute) and func.func.attr == "get" and func.args:
        key = func.args[0]
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
