"""A module's and its classes' statements without the ``def``\\ s that a later binding of their name
shadows unread.

A module defined twice over (a file pasted after its own first version: split 21's
``vf_llm_tool_exec``) binds each name to its last definition before any other module imports
it, so the first copy's functions never run: nothing can call them, and their calls are not on
any path. A ``def`` is dropped only when both bindings sit directly in the module's body (one
under ``if``/``try`` may not run), the ``def`` is not decorated (a decorator may register it:
``@app.route``), and nothing reads the name from the ``def`` to the later binding (an alias, a
list of tools, a call at import, the later binding's own value: ``f = cached(f)``). A function
defined on the way that reads it reads it only when called: a read of that function's name
counts. A class body is read the same way: a method defined twice in one ``class`` statement is
the later one once the class exists (the earlier one's name is bound again before anything can
call it through the class), unless the body reads the name in between (``m = staticmethod(m)``).
"""

from __future__ import annotations

import ast
from collections import Counter

from asynclint.analysis.index.helpers import FUNCTION_DEFS
from asynclint.analysis.index.walks import walk


def prune_shadowed(tree: ast.Module) -> None:
    """Drop the shadowed ``def``\\ s of the module's body and of every class defined at its top or
    inside such a class (the statements that run when the module is imported)."""
    tree.body = live_statements(tree.body)
    classes = [stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)]
    while classes:
        cls = classes.pop()
        cls.body = live_statements(cls.body)
        classes.extend(stmt for stmt in cls.body if isinstance(stmt, ast.ClassDef))


def live_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` without the undecorated top-level ``def``\\ s whose name is bound again below
    before anything reads it. Only a name the body binds twice is looked for below its ``def``: a
    walk of the rest per ``def`` made this quadratic (litellm's ``utils.py``, 12 k lines and 400
    functions, took minutes)."""
    bindings = Counter(name for stmt in body for name in _binds(stmt))
    dead = {
        position
        for position, stmt in enumerate(body)
        if isinstance(stmt, FUNCTION_DEFS)
        and not stmt.decorator_list
        and bindings[stmt.name] > 1
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


def _binds(stmt: ast.stmt) -> set[str]:
    """The names ``stmt`` binds outright at the module's top, a ``def`` its own."""
    return {stmt.name} if isinstance(stmt, FUNCTION_DEFS) else _bound(stmt)


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
        for inner in walk(node)
    )
