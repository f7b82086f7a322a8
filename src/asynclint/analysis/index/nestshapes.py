"""The syntax a loop nest's reading (:mod:`.nests`) asks about, node by node: an index that is a
constant offset of a name, an expression rooted at ``self``, the names a target binds, a 2-D table
being built, a call of the function it sits in; and, per module, the attributes a class's
constructor fills per item of what it is handed (:func:`built_collections`)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from asynclint.knowledge.costs import ARRAY_MAKERS
from asynclint.knowledge.frameworks import FRAMEWORK_ROLE_WORDS


def calls_itself(call: ast.Call, name: str, method: bool) -> bool:
    """``f(...)`` in ``def f``, ``self.f(...)`` in a method ``f``: the function recurses."""
    func = call.func
    if method:
        return (
            isinstance(func, ast.Attribute)
            and func.attr == name
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
        )
    return isinstance(func, ast.Name) and func.id == name


def offsets(node: ast.expr) -> set[str]:
    """The names ``node`` is a constant offset of: ``i`` for ``i``, ``i + 3``, ``max(0, i - 2)``."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        if isinstance(node.right, ast.Constant):
            return offsets(node.left)
        if isinstance(node.left, ast.Constant):
            return offsets(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
        return set().union(*(offsets(arg) for arg in node.args)) if node.args else set()
    return set()


def is_self(node: ast.expr) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def names_in(target: ast.expr) -> Iterator[str]:
    for node in ast.walk(target):
        if isinstance(node, ast.Name):
            yield node.id


def is_table(value: ast.expr) -> bool:
    """A list of lists (``[[0] * (n + 1) for _ in range(m + 1)]``) or a 2-D array."""
    if isinstance(value, ast.ListComp):
        elt = value.elt
        return isinstance(elt, (ast.List, ast.ListComp)) or (
            isinstance(elt, ast.BinOp)
            and isinstance(elt.op, ast.Mult)
            and isinstance(elt.left, ast.List)
            or isinstance(elt, ast.BinOp)
            and isinstance(elt.right, ast.List)
        )
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult):
        return isinstance(value.left, ast.List) and any(isinstance(e, (ast.List, ast.BinOp)) for e in value.left.elts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ARRAY_MAKERS:
        shape = value.args[0] if value.args else None
        return isinstance(shape, (ast.Tuple, ast.List)) and len(shape.elts) == 2
    return False


#: Constructors copying a comprehension's items: ``list(x for x in docs)`` is the comprehension.
_COPIES = ("list", "dict", "set")


def built_collections(tree: ast.Module) -> dict[str, frozenset[str]]:
    """Class qualname -> the attributes its ``__init__`` fills with one item per item of a parameter
    other than ``self`` (``self._tokenized = [tokenize(d) for d in docs]``, ``for d in docs:
    self.index.append(...)``): an index of whatever the object was built over (a corpus, every
    tool), which a method's loop then goes over whole on every call. An attribute merely storing
    the parameter (``self.tools = tools``) is not one: a store says nothing of what it indexes; nor
    is a framework object's (an environment's, a rubric's): what those are handed is their few tools
    or reward functions."""
    found: dict[str, frozenset[str]] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                qualname = f"{prefix}{node.name}"
                init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
                framework = any(role in ast.unparse(base) for base in node.bases for role in FRAMEWORK_ROLE_WORDS)
                attrs = _filled_per_item(init) if init is not None and not framework else frozenset()
                if attrs:
                    found[qualname] = attrs
                visit(node.body, f"{qualname}.")

    visit(tree.body, "")
    return found


def _filled_per_item(init: ast.FunctionDef) -> frozenset[str]:
    args = init.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}
    filled: set[str] = set()
    for node in ast.walk(init):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _COPIES:
                value = value.args[0] if len(value.args) == 1 else None
            if isinstance(value, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                source = value.generators[0].iter
                if isinstance(source, ast.Name) and source.id in params:
                    filled.update(_self_attr(t) for t in targets if _self_attr(t))
        elif isinstance(node, ast.For) and isinstance(node.iter, ast.Name) and node.iter.id in params:
            for inner in ast.walk(node):
                fills = (
                    inner.func.value
                    if isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Attribute)
                    and inner.func.attr in ("append", "add")
                    else inner.value
                    if isinstance(inner, ast.Subscript) and isinstance(inner.ctx, ast.Store)
                    else None
                )
                if fills is not None and _self_attr(fills):
                    filled.add(_self_attr(fills))
    return frozenset(filled)


def _self_attr(node: ast.expr) -> str:
    """``x`` of ``self.x``, else ""."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return ""
