"""Dataset columns a build casts to a large Arrow type (:data:`asynclint.knowledge.costs.LARGE_DTYPES`,
:data:`~asynclint.knowledge.costs.LARGE_FEATURES`): ``features["info"] = Value("large_string")``,
``Features({"info": Value("large_string")})``, ``ds.cast_column("info", LargeList(...))``. Its author
says the column's values are big; :mod:`asynclint.analysis.index.definitions` records the cast with
the row fields the build writes (ModuleSummary.row_fields)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from asynclint.analysis.index.values import Sym, Value
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.costs import ARROW_VALUES, LARGE_DTYPES, LARGE_FEATURES


def large_columns(body: Iterable[ast.stmt], infer: Callable[[ast.expr], Value]) -> set[str]:
    """The columns ``body`` casts to a large type; ``infer`` names what a call calls."""
    found: set[str] = set()
    for stmt in body:
        for node in walk(stmt):
            if isinstance(node, ast.Assign):
                found.update(
                    key
                    for target in node.targets
                    if isinstance(target, ast.Subscript)
                    and (key := _text(target.slice)) is not None
                    and _large(node.value, infer)
                )
            elif isinstance(node, ast.Dict):
                found.update(
                    key
                    for written, value in zip(node.keys, node.values, strict=True)
                    if (key := _text(written)) is not None and _large(value, infer)
                )
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "cast_column"
                and len(node.args) >= 2
                and (key := _text(node.args[0])) is not None
                and _large(node.args[1], infer)
            ):
                found.add(key)
    return found


def _large(value: ast.expr, infer: Callable[[ast.expr], Value]) -> bool:
    if not isinstance(value, ast.Call):
        return False
    feature = infer(value.func)
    name = feature.name if isinstance(feature, Sym) else ""
    return name in LARGE_FEATURES or name in ARROW_VALUES and bool(value.args) and _text(value.args[0]) in LARGE_DTYPES


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
