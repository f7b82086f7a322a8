"""The switches a dataclass declares as fields: a field whose constant default switches a feature
off (``cache: ResultCache | None = None``) is a parameter of the ``__init__`` the decorator writes,
so the graph settles it by what every construction passes, as it does a flag parameter of a
written ``__init__`` (ClassInfo.flag_attrs, ClassInfo.field_flags)."""

from __future__ import annotations

import ast

from asynclint.analysis.index.flags import constant_text, constant_value
from asynclint.analysis.index.helpers import last_name
from asynclint.knowledge.costs import switched_off

#: The decorators that write a class's ``__init__`` from its annotated fields, in their order.
DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "pydantic.dataclasses.dataclass"})


def field_flags(node: ast.ClassDef) -> tuple[tuple[str, str, int], ...]:
    """(field, ``repr`` of its default, its position among the ``__init__`` parameters the class's
    own fields make) for the fields of dataclass ``node`` whose constant default switches a feature
    off. A ``ClassVar`` is no parameter; a ``KW_ONLY`` marker, or a field made by ``field(...)``
    (``init=False``, ``kw_only=True``), leaves the positions after it unknown: none is given then."""
    found: list[tuple[str, str, int]] = []
    position: int | None = 0
    for stmt in node.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        annotation = stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript) else stmt.annotation
        if last_name(annotation) == "ClassVar":
            continue
        if last_name(annotation) == "KW_ONLY" or isinstance(stmt.value, ast.Call):
            position = None
            continue
        text = constant_text(stmt.value)
        if text is not None and switched_off(constant_value(text)):
            found.append((stmt.target.id, text, -1 if position is None else position))
        if position is not None:
            position += 1
    return tuple(found)
