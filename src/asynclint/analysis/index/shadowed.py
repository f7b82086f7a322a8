"""A module's statements without the ``def``\\ s that a later binding of their name shadows unread.

A module defined twice over (a file pasted after its own first version: split 21's
``vf_llm_tool_exec``) binds each name to its last definition before any other module imports
it, so the first copy's functions never run: nothing can call them, and their calls are not on
any path. A ``def`` is dropped only when both bindings sit directly in the module's body (one
under ``if``/``try`` may not run), the ``def`` is not decorated (a decorator may register it:
``@app.route``), and nothing reads the name from the ``def`` to the later binding (an alias, a
list of tools, a call at import, the later binding's own value: ``f = cached(f)``). A function
defined on the way that reads it reads it only when called: a read of that function's name
counts.
"""

from __future__ import annotations

import ast

from asynclint.analysis.index.helpers import FUNCTION_DEFS


def live_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` without the undecorated top-level ``def``\\ s whose name is bound again below
    before anything reads it. Only a name bound again is looked for reads: walking the rest of the
    module for every ``def`` made a module of many functions quadratic (reasoning_gym's)."""
    last: dict[str, int] = {}  # name -> the last top-level statement binding it outright
    for position, stmt in enumerate(body):
        for name in {stmt.name} if isinstance(stmt, FUNCTION_DEFS) else _bound(stmt):
            last[name] = position
    dead = {
        position
        for position, stmt in enumerate(body)
        if isinstance(stmt, FUNCTION_DEFS)
        and not stmt.decorator_list
        and last[stmt.name] > position
        and _shadowed(stmt.name, body[position + 1 :])
    }
    return [stmt for position, stmt in enumerate(body) if position not in dead] if dead else body


def _shadowed(name: str, rest: list[ast.stmt]) -> bool:
    readers = {name}  # the name, and functions defined on the way whose bodies read it
    for stmt in rest:
        if isinstance(stmt, FUNCTION_DEFS):
            # Its decorators and defaults run at the binding, its body only when called.
            if any(_reads(readers, node) for node in (*stmt.decorator_list, *_defaults(stmt))):
                return False
            if stmt.name == name:
                return True
            if _reads(readers, stmt):
                readers.add(stmt.name)
            continue
        if _reads(readers, stmt):
            return False
        if name in _bound(stmt):
            return True
    return False


def _defaults(stmt: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    return [*stmt.args.defaults, *(default for default in stmt.args.kw_defaults if default is not None)]


def _bound(stmt: ast.stmt) -> set[str]:
    """The names ``stmt`` binds outright at the module's top (not under ``if``/``try``/a loop)."""
    if isinstance(stmt, ast.ClassDef):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).partition(".")[0] for alias in stmt.names if alias.name != "*"}
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    return {target.id for target in targets if isinstance(target, ast.Name)}


def _reads(names: set[str], node: ast.AST) -> bool:
    """Anything in ``node`` reads one of ``names`` (a function defined there that reads one may be
    run by what follows it: counted as a read)."""
    return any(
        isinstance(inner, ast.Name) and inner.id in names and not isinstance(inner.ctx, ast.Store)
        for inner in ast.walk(node)
    )
