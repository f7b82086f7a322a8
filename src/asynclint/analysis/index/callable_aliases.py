"""Module-level names for a callable type (``RewardFn = Callable[..., float]``) and where the
module's signatures name one: the functions declared to return one (``def make_judge(...) ->
RewardFn``), and the constructor parameters declared to hold one (``judge: Optional[RewardFn] =
None``). The graph answers a value of such a type with the callables those makers return."""

from __future__ import annotations

import ast

from asynclint.analysis.index.annotations import unquoted

#: How a module spells ``Callable`` (``typing``'s or ``collections.abc``'s, imported or dotted).
_CALLABLE = "Callable"
#: Wrappers an annotation may put around the alias and still declare a value of its type.
_OPTIONAL = frozenset({"Optional", "Union"})


def _is_callable(node: ast.expr | None) -> bool:
    if not isinstance(node, ast.Subscript):
        return False
    outer = node.value
    return (isinstance(outer, ast.Name) and outer.id == _CALLABLE) or (
        isinstance(outer, ast.Attribute) and outer.attr == _CALLABLE
    )


def callable_aliases(tree: ast.Module) -> frozenset[str]:
    """The names the module binds, at its top level, to a ``Callable[...]`` type: ``X =``,
    ``X: TypeAlias =`` and ``type X =``."""
    names: set[str] = set()
    for stmt in tree.body:
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            target, value = stmt.target, stmt.value
        elif isinstance(stmt, getattr(ast, "TypeAlias", ())):
            target, value = stmt.name, stmt.value  # type: ignore[attr-defined]
        if isinstance(target, ast.Name) and _is_callable(value):
            names.add(target.id)
    return frozenset(names)


def named_alias(annotation: ast.expr | None) -> ast.Name | None:
    """The one name an annotation declares a value of, ``None`` aside (``RewardFn``,
    ``Optional[RewardFn]``, ``RewardFn | None``, quoted or not); ``None`` for any other."""
    node = unquoted(annotation) if annotation is not None else None
    if isinstance(node, ast.Name):
        return node
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = [side for side in (node.left, node.right) if not _is_none(side)]
        return named_alias(sides[0]) if len(sides) == 1 else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in _OPTIONAL:
        args = [arg for arg in getattr(node.slice, "elts", [node.slice]) if not _is_none(arg)]
        return named_alias(args[0]) if len(args) == 1 else None
    return None


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
