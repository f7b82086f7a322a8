"""What annotations say of a value's size, read from the syntax alone: scalar fields (``int``,
``str | None``), collections and mappings of scalars (``list[str]``, ``dict[str, float]``), and tuple
return annotations."""

from __future__ import annotations

import ast
import re

from asynclint.analysis.index.helpers import last_name, module_functions
from asynclint.analysis.index.walks import walk

#: Annotations of fields whose values are a few bytes each.
_SCALARS = frozenset({"int", "float", "str", "bool", "bytes", "complex", "None", "Literal", "Optional", "ClassVar"})


def scalar_annotation(annotation: ast.expr) -> bool:
    """``int``, ``str | None``, ``Optional[float]``, ``Literal["a", "b"]``: a scalar field."""
    if isinstance(annotation, ast.Constant):
        return annotation.value is None or isinstance(annotation.value, str) and annotation.value in _SCALARS
    if isinstance(annotation, ast.Name):
        return annotation.id in _SCALARS
    if isinstance(annotation, ast.Attribute):
        return annotation.attr in _SCALARS
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return scalar_annotation(annotation.left) and scalar_annotation(annotation.right)
    if isinstance(annotation, ast.Subscript):
        head = annotation.value
        name = last_name(head)
        if name == "Literal":
            return True
        if name in ("Optional", "ClassVar"):
            return scalar_annotation(annotation.slice)
    return False


#: Annotations of a collection whose items are all of its one element type (``list[str]``).
_COLLECTIONS = frozenset(
    "list List set Set frozenset FrozenSet Sequence MutableSequence Iterable Iterator Collection AbstractSet".split()
)


def scalar_items(annotation: ast.expr | None) -> bool:
    """``list[str]``, ``Sequence[int] | None``, ``tuple[str, ...]``, ``Optional[set[str]]``: a
    collection whose every item is a scalar (a name, an id, a number), however many there are."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [side for side in (annotation.left, annotation.right) if not none_annotation(side)]
        return len(sides) == 1 and scalar_items(sides[0])
    if not isinstance(annotation, ast.Subscript):
        return False
    name, inner = last_name(annotation.value), annotation.slice
    if name == "Optional":
        return scalar_items(inner)
    if name in ("tuple", "Tuple") and isinstance(inner, ast.Tuple):
        elements = [e for e in inner.elts if not (isinstance(e, ast.Constant) and e.value is Ellipsis)]
        return bool(elements) and all(scalar_annotation(e) for e in elements)
    return name in _COLLECTIONS and scalar_annotation(inner)


#: Annotations of a mapping whose keys and values are of its two type arguments (``dict[str, float]``).
_MAPPINGS = frozenset("dict Dict Mapping MutableMapping DefaultDict defaultdict OrderedDict".split())


def scalar_container(annotation: ast.expr) -> bool:
    """A container of scalars as a model's field declares one: ``list[float]``, ``dict[str, float]``,
    ``tuple[str, float, float, float]``, a collection of such fixed tuples (``list[tuple[str, float]]``),
    or any of those ``| None``. Its dump is one small value per item; how many items there are the
    field's name says (``messages: list[str]`` grows with the rollout: the graph asks the name)."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [side for side in (annotation.left, annotation.right) if not none_annotation(side)]
        return len(sides) == 1 and scalar_container(sides[0])
    if scalar_items(annotation):
        return True
    if not isinstance(annotation, ast.Subscript):
        return False
    name, inner = last_name(annotation.value), annotation.slice
    if name == "Optional":
        return scalar_container(inner)
    if name in _MAPPINGS and isinstance(inner, ast.Tuple) and len(inner.elts) == 2:
        return all(scalar_annotation(part) for part in inner.elts)
    return name in _COLLECTIONS and bool(tuple_annotation(inner)) and scalar_items(inner)


def none_annotation(node: ast.expr) -> bool:
    """``None`` as an annotation writes it: the constant or the name."""
    return isinstance(node, ast.Constant) and node.value is None or isinstance(node, ast.Name) and node.id == "None"


def unquoted(annotation: ast.expr) -> ast.expr | None:
    """The annotation a string annotation (``"Path | None"``, a forward reference) writes; any other
    annotation as it is; ``None`` for a string that is not an expression."""
    if not (isinstance(annotation, ast.Constant) and isinstance(annotation.value, str)):
        return annotation
    try:
        return ast.parse(annotation.value, mode="eval").body
    except SyntaxError:
        return None


def tuple_annotation(annotation: ast.expr | None) -> list[ast.expr]:
    """``tuple[A, B]`` / ``Tuple[A, B]`` (or the same as a string) -> [A, B]; else []."""
    annotation = unquoted(annotation) if annotation is not None else None
    if isinstance(annotation, ast.Subscript) and last_name(annotation.value) in ("tuple", "Tuple"):
        if isinstance(annotation.slice, ast.Tuple):
            return list(annotation.slice.elts)
    return []


def tuple_return_annotations(tree: ast.Module, module: str) -> dict[str, list[ast.expr]]:
    """Functions and methods of the module annotated ``-> tuple[A, B]``: qualified name -> [A, B]."""
    return {
        qualname: elements
        for qualname, node, _ in module_functions(tree, module)
        if (elements := tuple_annotation(node.returns))
    }


#: ``import a.b`` / ``import a as b`` at the start of a line: the names such a statement binds.
_IMPORTED = re.compile(r"^[ \t]*import[ \t]+([\w.]+)(?:[ \t]+as[ \t]+(\w+))?", re.MULTILINE)


def module_parameters(tree: ast.Module, source: str) -> dict[str, dict[str, str]]:
    """Module-level functions whose parameter every call in the module hands one imported module
    (``_build_env(config, vf)`` after ``import verifiers as vf``): function name -> parameter -> the
    module's dotted name. A helper written against a module it is handed (``class
    Env(vf.StatefulToolEnv)`` in its body) then reads it as that module; a parameter handed anything
    else at any call, or a module bound to two names' worth of imports, is left alone."""
    functions = {
        node.name: [arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    # Walked only when a parameter shares a name with a module import (the source says which).
    bound = {alias or name.partition(".")[0] for name, alias in _IMPORTED.findall(source)}
    if not any(param in bound for params in functions.values() for param in params):
        return {}
    imports: dict[str, set[str]] = {}
    calls: list[tuple[str, ast.Call]] = []
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                imports.setdefault(alias.asname or alias.name.partition(".")[0], set()).add(
                    alias.name if alias.asname else alias.name.partition(".")[0]
                )
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
            calls.append((node.func.id, node))
    modules = {name: next(iter(found)) for name, found in imports.items() if len(found) == 1}
    if not modules:
        return {}
    handed: dict[tuple[str, str], set[str]] = {}
    for name, call in calls:
        params = functions[name]
        passed = [
            *zip(params, call.args, strict=False),
            *((keyword.arg, keyword.value) for keyword in call.keywords if keyword.arg in params),
        ]
        for param, value in passed:
            if isinstance(value, ast.Starred):
                break
            module = modules.get(value.id, "") if isinstance(value, ast.Name) else ""
            handed.setdefault((name, str(param)), set()).add(module)
    found: dict[str, dict[str, str]] = {}
    for (function, param), values in handed.items():
        if len(values) == 1 and (module := next(iter(values))):
            found.setdefault(function, {})[param] = module
    return found
