"""Decorators applied by a call: a statement ``mcp.tool(name="search")(search)`` registers
``search`` as ``@mcp.tool(name="search")`` on its ``def`` would, and discards what the decorator
returns, so the only effect is the registration. The function's record gets the decorator its
``def`` would carry, and every reader of decorators (framework hooks, a served toolset's tools)
sees it. A result that is kept (``cached = lru_cache(maxsize=8)(load)``) is another callable: the
function named stays undecorated."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import replace

from asynclint.analysis.index.handed import FunctionRef
from asynclint.analysis.index.records import Function
from asynclint.analysis.index.walks import walk

#: ``ast`` column (bytes) -> the 1-based character column refs record, on a line.
Column = Callable[[int, int], int]


def applied_decorators(
    tree: ast.Module, module: str, functions: list[Function], refs: Sequence[FunctionRef], column: Column
) -> None:
    """Add to ``functions`` (the module's records, in place) the decorator factories a statement of
    ``tree`` applies to one of them by a call (``refs``: the callables handed to calls)."""
    handed = {(ref.line, ref.col): ref for ref in refs if ref.slot == "0" and ref.target}
    if not handed:
        return
    indexes = {f"{module}.{function.qualname}": index for index, function in enumerate(functions)}
    for node in walk(tree):
        if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
            continue
        call = node.value
        if not isinstance(call.func, ast.Call) or len(call.args) != 1 or call.keywords:
            continue
        argument = call.args[0]
        ref = handed.get((argument.lineno, column(argument.lineno, argument.col_offset)))
        index = indexes.get(ref.target or "") if ref is not None else None
        if ref is None or index is None:
            continue
        # Named as the walk names the decorator of a ``def``: the factory as resolved (the
        # call's result is ``<factory>()``), else as written, without the factory's arguments.
        passed_to = ref.passed_to or ""
        decorator = passed_to[:-2] if passed_to.endswith("()") else f"{ast.unparse(call.func.func)}()"
        function = functions[index]
        functions[index] = replace(function, decorators=(*function.decorators, decorator))
