"""Each function's own statements and nodes, read once per module for every pass that reads them:
its blocks (branches, loop bodies, handlers), its statements in source order, and every node
outside the scopes nested in it (the row analysis, :mod:`.rowtests` and :mod:`.rowkeys`, and the
trip counts of :mod:`.work` read these instead of walking the function each)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from asynclint.analysis.index.helpers import FUNCTION_DEFS, SCOPES, TRY_STATEMENTS
from asynclint.analysis.index.walks import stack_nodes

_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Statements that hold blocks of statements.
_COMPOUND = (
    *SCOPES,
    *TRY_STATEMENTS,
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Match,
)


class FunctionBody:
    """One function's own blocks, statements and nodes (not those of the functions, lambdas and
    classes nested in it); the statements and nodes are read on first use."""

    __slots__ = ("blocks", "_statements", "_nodes")

    def __init__(self, node: _Function) -> None:
        #: The function's body and every block inside it (see :func:`blocks`).
        self.blocks = blocks(node.body)
        self._statements: list[ast.stmt] | None = None
        self._nodes: list[ast.AST] | None = None

    @property
    def statements(self) -> list[ast.stmt]:
        """Every statement of its blocks, in source order."""
        if self._statements is None:
            self._statements = sorted(
                (stmt for block in self.blocks for stmt in block), key=lambda stmt: (stmt.lineno, stmt.col_offset)
            )
        return self._statements

    @property
    def nodes(self) -> list[ast.AST]:
        """Every node of its statements (expressions too), nested scopes left out."""
        if self._nodes is None:
            self._nodes = own_nodes(self.blocks[0])
        return self._nodes


class Bodies:
    """The bodies of one module's functions, each read once, on first use."""

    def __init__(self) -> None:
        self._known: dict[int, FunctionBody] = {}

    def __call__(self, node: _Function) -> FunctionBody:
        found = self._known.get(id(node))
        if found is None:
            found = self._known[id(node)] = FunctionBody(node)
        return found


def functions(body: list[ast.stmt]) -> Iterator[_Function]:
    """Every function defined in ``body``, nested ones and methods too (definitions are statements:
    no expression is walked)."""
    pending = [body]
    while pending:
        for stmt in pending.pop():
            if isinstance(stmt, FUNCTION_DEFS):
                yield stmt
            if isinstance(stmt, _COMPOUND):
                pending.extend(_inner_blocks(stmt))


def blocks(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """``body`` and every block inside it (branches, loop bodies, handlers), but not those of nested
    definitions."""
    found = [body]
    for block in found:  # grows as it goes
        for stmt in block:
            if isinstance(stmt, _COMPOUND) and not isinstance(stmt, SCOPES):
                found.extend(_inner_blocks(stmt))
    return found


def _inner_blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The blocks a compound statement holds."""
    found = [part for name in ("body", "orelse", "finalbody") if (part := getattr(stmt, name, None))]
    found.extend(handler.body for handler in getattr(stmt, "handlers", ()))
    found.extend(case.body for case in getattr(stmt, "cases", ()))
    return found


def own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """Every node of ``body`` outside the functions, lambdas and classes defined in it, in the order
    of a stack walk (:func:`.walks.stack_nodes`: the readers' lists of bindings keep that order)."""
    return stack_nodes(body, SCOPES)
