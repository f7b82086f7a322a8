"""Switch fields, read by name across the project: a class-level field annotated ``bool`` whose
default switches a feature off (``record_video: bool = False`` in a dataclass), or ``int`` with
the default 0 (``max_rollouts_per_example: int = 0``: a limit or a count that nothing sets is
none, so what it enables is off; a counter the project updates is written, so never a switch), or
an optional field of a configuration class left at ``None`` (``log_dir: str | None = None`` on an
``EnvConfig``: what a user sets in a config turns a feature on; a data model's optional field is
filled by its data, so only a class named as a configuration counts), and
the names a module writes a value under that may turn one on (an attribute assigned, a keyword
passed, a parameter's default, a dict key, ``setattr``), for the graph to settle whether anything in
the project may turn the switch on (``ModuleSummary.switch_fields``, ``ModuleSummary.field_writes``)."""

from __future__ import annotations

import ast

from asynclint.analysis.index.annotations import none_annotation, unquoted
from asynclint.analysis.index.flags import constant_text, constant_value
from asynclint.analysis.index.helpers import last_name
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.costs import switched_off
from asynclint.knowledge.typenames import CONFIGURATION_SUFFIXES, FIELD_SPECIFIERS

#: The names a field specifier is called by (``Field``, ``field``, ``attr.ib``), as written.
SPECIFIER_NAMES = frozenset(name.rpartition(".")[2] for name in FIELD_SPECIFIERS)

#: What :func:`_written` says of a value that reads the field under its own name (``bool(record_video)``,
#: ``cfg.record_video``, ``getattr(cfg, "record_video", False)``): it is on only where the field is.
_SAME = "<same>"


def switches(tree: ast.Module) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """(ModuleSummary.switch_fields, ModuleSummary.field_writes), in one walk of the module.

    The switch fields: (field, ``repr`` of its default) for the class-level fields annotated
    ``bool`` (or optional ``bool``) whose constant default switches a feature off, those
    annotated ``int`` whose default is 0, and the optional fields of a configuration class
    (:func:`_configuration`) whose default is ``None``.

    The writes: the names the module writes a value under that may turn a switch on (a constant
    that does not switch a feature off, a value the walk cannot read, a binding by a loop or an
    unpacking), sorted. A constant that switches a feature off (``record_video=False``) leaves its
    switch as it was, and a value that reads the same name (``record_video=bool(record_video)``) is
    on only where the name is: neither is listed, so a summary holds only what the graph reads."""
    declared: set[tuple[str, str]] = set()
    found: set[tuple[str, str]] = set()
    handled: set[int] = set()
    stored: list[ast.Name | ast.Attribute] = []
    for node in walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)):
            if isinstance(node.ctx, ast.Store):
                stored.append(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (name := _written_name(target)) is not None:
                    handled.add(id(target))
                    value = _specified_default(node.value) if node.value is not None else None
                    found.add((name, _written(value, name) if value is not None else ""))
        elif isinstance(node, ast.Call):
            found.update((k.arg, _written(k.value, k.arg)) for k in node.keywords if k.arg is not None)
            field = node.args[1] if len(node.args) == 3 and last_name(node.func) == "setattr" else None
            if isinstance(field, ast.Constant) and isinstance(field.value, str):
                found.add((field.value, _written(node.args[2], field.value)))
        elif isinstance(node, ast.Dict):
            found.update(
                (key.value, _written(value, key.value))
                for key, value in zip(node.keys, node.values, strict=True)
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.isidentifier()
            )
        elif isinstance(node, ast.arguments):
            positional = [*node.posonlyargs, *node.args]
            defaults: list[ast.expr | None] = [None] * (len(positional) - len(node.defaults)) + list(node.defaults)
            pairs = [*zip(positional, defaults, strict=True), *zip(node.kwonlyargs, node.kw_defaults, strict=True)]
            found.update((arg.arg, _written(default, arg.arg) if default is not None else "") for arg, default in pairs)
        elif isinstance(node, ast.ClassDef):
            declared.update(
                (field.target.id, text)
                for field in node.body
                if isinstance(field, ast.AnnAssign)
                and isinstance(field.target, ast.Name)
                and (text := constant_text(_specified_default(field.value))) is not None
                and switched_off(constant_value(text))
                and (
                    _boolean(field.annotation)
                    or (text == "0" and last_name(field.annotation) == "int")
                    or (text == "None" and _optional(field.annotation) and _configuration(node))
                )
            )
    found.update((_written_name(node) or "", "") for node in stored if id(node) not in handled)
    return tuple(sorted(declared)), tuple(sorted({name for name, text in found if not text}))


def _specified_default(value: ast.expr | None) -> ast.expr | None:
    """The default a field specifier gives (``Field(default=None)``, ``Field(None)``, ``field(default=False)``),
    else ``value`` itself: a class-level field's value as its class reads it."""
    if not isinstance(value, ast.Call) or last_name(value.func) not in SPECIFIER_NAMES:
        return value
    given = [keyword.value for keyword in value.keywords if keyword.arg == "default"] or value.args[:1]
    return given[0] if given else None


def _written_name(target: ast.expr) -> str | None:
    """The name an assignment writes (``x.record_video = ...``, ``record_video = ...``)."""
    if isinstance(target, ast.Name):
        return target.id
    return target.attr if isinstance(target, ast.Attribute) else None


def _written(value: ast.expr, name: str) -> str:
    """What writing ``value`` under ``name`` writes: the ``repr`` of a constant that switches a
    feature off, :data:`_SAME` for a value false whenever ``name`` is (``bool(name)``, ``x.name``,
    ``getattr(x, "name", False)``, an ``and`` with such a part), else ""."""
    text = constant_text(value)
    if text is not None:
        return text if switched_off(constant_value(text)) else ""
    if isinstance(value, ast.Name) and value.id == name or isinstance(value, ast.Attribute) and value.attr == name:
        return _SAME
    if isinstance(value, ast.Call) and not value.keywords:
        called, args = last_name(value.func), value.args
        if called == "bool" and len(args) == 1:
            return _written(args[0], name)
        if called == "getattr" and len(args) == 3 and isinstance(args[1], ast.Constant) and args[1].value == name:
            return _SAME if _written(args[2], name) else ""
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.And):
        return _SAME if any(_written(part, name) for part in value.values) else ""
    return ""


def _boolean(annotation: ast.expr) -> bool:
    """``bool``, ``Optional[bool]``, ``bool | None`` (or the same as a string)."""
    parsed = unquoted(annotation)
    if parsed is None:
        return False
    annotation = parsed
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = (annotation.left, annotation.right)
        return any(_boolean(side) for side in sides) and all(_boolean(side) or none_annotation(side) for side in sides)
    if isinstance(annotation, ast.Subscript) and last_name(annotation.value) == "Optional":
        return _boolean(annotation.slice)
    return last_name(annotation) == "bool"


def _optional(annotation: ast.expr) -> bool:
    """``X | None``, ``Optional[X]`` (or the same as a string)."""
    parsed = unquoted(annotation)
    if isinstance(parsed, ast.BinOp) and isinstance(parsed.op, ast.BitOr):
        return none_annotation(parsed.left) or none_annotation(parsed.right)
    return isinstance(parsed, ast.Subscript) and last_name(parsed.value) == "Optional"


def _configuration(node: ast.ClassDef) -> bool:
    """A configuration class by its name or a base's (``RiichiHanchanEnvConfig(vf.EnvConfig)``)."""
    return any(name.endswith(CONFIGURATION_SUFFIXES) for name in (node.name, *map(last_name, node.bases)) if name)
