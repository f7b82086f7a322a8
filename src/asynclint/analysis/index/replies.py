"""What a request's own syntax says of the reply it asks for, read from the call and the dict displays the
function bound before it (``params = {"srlimit": "3", "srprop": ""}; session.get(url, params=params)``):
one small page of results, a document's whole body, or nothing said (:mod:`asynclint.knowledge.replies`
names the parameters, fields and endpoints)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping

from asynclint.analysis.index.walks import walk
from asynclint.knowledge.costs import RESPONSE_BODY, RESPONSE_DOCUMENT, RESPONSE_PAGE
from asynclint.knowledge.replies import (
    BODY_ENDPOINTS,
    BODY_FIELDS,
    FIELD_SELECTORS,
    FIELD_SEPARATORS,
    PAGE_COUNT,
    PAGE_LIMITS,
    REQUEST_PARAMETERS,
)

_FIELDS = re.compile(f"[{re.escape(FIELD_SEPARATORS)}]+")
#: Calls that give their argument's number in another spelling (``"srlimit": str(3)``).
_NUMBER_SPELLINGS = frozenset({"str", "int"})


def reply_size(request: ast.Call, displays: Mapping[str, ast.Dict], counts: Mapping[str, int]) -> str:
    """The word of the payload a body read of ``request``'s reply gives: :data:`RESPONSE_DOCUMENT` when the
    request asks for a document's body (a field selector naming a body field, a raw-content endpoint),
    :data:`RESPONSE_PAGE` when it caps the results at a small count or selects fields carrying no body,
    else :data:`RESPONSE_BODY`. ``displays`` are the dict displays the function bound to names,
    ``counts`` the attributes of ``self`` known to hold a small integer (``self.max_titles``)."""
    if any(endpoint in text for text in _url_texts(request) for endpoint in BODY_ENDPOINTS):
        return RESPONSE_DOCUMENT
    params = list(_parameters(request, displays))
    selected = [_fields(value) for key, value in params if key in FIELD_SELECTORS]
    if any(fields is not None and fields & BODY_FIELDS for fields in selected):
        return RESPONSE_DOCUMENT
    if any(fields is not None for fields in selected):
        return RESPONSE_PAGE  # every selector read, none asks for a body: ``srprop=""``, titles only
    if any(key in PAGE_LIMITS and _small_count(value, counts) for key, value in params):
        return RESPONSE_PAGE
    return RESPONSE_BODY


def _parameters(request: ast.Call, displays: Mapping[str, ast.Dict]) -> Iterator[tuple[str, ast.expr]]:
    """The request's parameters with a literal name: the keys of a display passed as ``params=`` (or a
    ``json=``/``data=`` body), written there or bound to a name before, and ``dict(key=...)``'s keywords."""
    for keyword in request.keywords:
        if keyword.arg not in REQUEST_PARAMETERS:
            continue
        value = keyword.value
        if isinstance(value, ast.Name):
            value = displays.get(value.id, value)
        if isinstance(value, ast.Dict):
            for key, held in zip(value.keys, value.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    yield key.value, held
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
            yield from ((k.arg, k.value) for k in value.keywords if k.arg is not None)


def _fields(value: ast.expr) -> frozenset[str] | None:
    """The fields a selector's constant value names (``"ids|timestamp|content"``), ``None`` when not constant."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return frozenset(field.lower() for field in _FIELDS.split(value.value) if field)
    if isinstance(value, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return frozenset(str(e.value).lower() for e in value.elts if isinstance(e, ast.Constant))  # ``["id", "title"]``
    return None


def _small_count(value: ast.expr, counts: Mapping[str, int]) -> bool:
    """Is ``value`` a count of at most :data:`PAGE_COUNT`: a constant (``10``, ``"10"``), ``str``/``int`` of one,
    or an attribute of ``self`` holding one (``str(self.max_titles)``)?"""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _NUMBER_SPELLINGS:
        return len(value.args) == 1 and _small_count(value.args[0], counts)
    if isinstance(value, ast.Constant) and type(value.value) in (int, str):
        text = str(value.value)
        return text.isdigit() and int(text) <= PAGE_COUNT
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
        return counts.get(value.attr, PAGE_COUNT + 1) <= PAGE_COUNT
    return False


def _url_texts(request: ast.Call) -> Iterator[str]:
    """The constant text of the request's URL: its first argument or ``url=``, written as a string or an f-string."""
    url = request.args[0] if request.args else next((k.value for k in request.keywords if k.arg == "url"), None)
    if isinstance(url, ast.Constant) and isinstance(url.value, str):
        yield url.value
    elif isinstance(url, ast.JoinedStr):
        yield from (part.value for part in url.values if isinstance(part, ast.Constant) and isinstance(part.value, str))


def instance_counts(node: ast.ClassDef) -> dict[str, int]:
    """Attributes a class gives a literal non-negative integer: a class-level field (``max_titles: int = 3``)
    or, in ``__init__``, ``self.max_titles = max_titles`` of a parameter whose default is one (or a literal
    itself). Several values: the largest; an attribute also set from anything else is left out."""
    found: dict[str, int] = {}
    dropped: set[str] = set()

    def note(name: str, value: int | None) -> None:
        if value is None or value < 0:
            dropped.add(name)
        else:
            found[name] = max(value, found.get(name, 0))

    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            note(stmt.target.id, _integer(stmt.value))
        if not (isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == "__init__"):
            continue
        positional = [*stmt.args.posonlyargs, *stmt.args.args]
        pairs = [
            *zip(positional[len(positional) - len(stmt.args.defaults) :], stmt.args.defaults, strict=True),
            *zip(stmt.args.kwonlyargs, stmt.args.kw_defaults, strict=True),
        ]
        defaults = {arg.arg: _integer(default) if default is not None else None for arg, default in pairs}
        for assign in walk(stmt):
            if isinstance(assign, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = assign.targets if isinstance(assign, ast.Assign) else [assign.target]
                for target in targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                    ):
                        value = assign.value
                        if isinstance(assign, ast.AugAssign) or value is None:
                            note(target.attr, None)
                        elif isinstance(value, ast.Name):
                            note(target.attr, defaults.get(value.id))
                        else:
                            note(target.attr, _integer(value))
    return {name: value for name, value in found.items() if name not in dropped}


def _integer(node: ast.expr) -> int | None:
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None
