"""Where an ``await`` may go: names holding what only an explicit release gives back, and the
window a cancellation at a new ``await`` would leave open."""

from __future__ import annotations

import libcst as cst

from asynclint.fixers.cst.bindings import resolved_name
from asynclint.fixers.cst.names import names_read
from asynclint.fixers.cst.parsed import ParsedFile
from asynclint.knowledge.asyncio_apis import ACQUIRES


def acquired_names(file: ParsedFile, statement: cst.CSTNode) -> tuple[set[str], str]:
    """The names ``statement`` binds to something only an explicit release gives back (see
    :data:`~asynclint.knowledge.asyncio_apis.ACQUIRES`), and the call that acquires it."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return set(), ""
    small = statement.body[0]
    if not isinstance(small, cst.Assign | cst.AnnAssign) or small.value is None:
        return set(), ""
    acquired = _acquired_by(file, small.value)
    if not acquired:
        return set(), ""
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
    names: set[str] = set()
    for target in targets:  # `fd, path = tempfile.mkstemp()`
        parts = [element.value for element in target.elements] if isinstance(target, cst.Tuple | cst.List) else [target]
        names.update(part.value for part in parts if isinstance(part, cst.Name))
    return names, acquired


def _acquired_by(file: ParsedFile, value: cst.BaseExpression) -> str:
    """The acquiring callee ``value`` calls, directly or handed to a thread runner
    (``await asyncio.to_thread(tempfile.mkdtemp)``), "" if none."""
    if isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return ""
    if found := _acquires(file, value):
        return found
    first = value.args[0].value if value.args else None
    if first is None:
        return ""
    if isinstance(first, cst.Call):  # `functools.partial(tempfile.NamedTemporaryFile, delete=False)`
        return _acquired_by(file, first)
    handed = value.with_changes(func=first, args=value.args[1:])  # `to_thread(NamedTemporaryFile, delete=False)`
    return _acquires(file, handed)


def _acquires(file: ParsedFile, call: cst.Call) -> str:
    name = resolved_name(file, call.func)
    if name not in ACQUIRES:
        return ""
    condition = ACQUIRES[name]
    if not condition:
        return name
    keyword, _, literal = condition.partition("=")
    given = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == keyword), None)
    return name if given is not None and file.code(given) == literal else ""


def cancellation_window(file: ParsedFile, node: cst.CSTNode) -> str:
    """Why an ``await`` added at ``node`` would leak a resource if the task were cancelled there
    ("" when it would not): ``node``'s statement acquires it, or comes after the statement that
    does, in the same block (or an enclosing one), before the ``try`` whose ``finally`` or
    handler releases it. Until that ``try`` is entered nothing releases it, and an ``await`` is
    where a cancellation is delivered."""
    child: cst.CSTNode | None = node if isinstance(node, cst.BaseStatement) else file.statement_of(node)
    while child is not None:
        block = file.parent(child)
        if not isinstance(block, cst.IndentedBlock | cst.Module):
            return ""
        body = list(block.body)
        index = next((i for i, statement in enumerate(body) if statement is child), None)
        if index is None:
            return ""
        for before in range(index, -1, -1):
            names, acquired = acquired_names(file, body[before])
            if not names:
                continue
            for later in body[index + 1 :]:
                if isinstance(later, cst.Try) and _releases(file, later, names):
                    name = min(names)
                    return (
                        f"an `await` there would come between `{acquired}` (line"
                        f" {file.span(body[before])[0][0]}) and the `try` that releases `{name}`"
                        f" (line {file.span(later)[0][0]}): a cancellation there would leak it"
                    )
        owner = file.parent(block)
        if owner is None or isinstance(owner, cst.FunctionDef | cst.ClassDef | cst.Module):
            return ""
        child = file.statement_of(owner)  # the `if`, `with`, loop or `try` holding this block
    return ""


def _releases(file: ParsedFile, statement: cst.Try, names: set[str]) -> bool:
    """The ``try``'s ``finally`` or a handler reads one of ``names``."""
    parts: list[cst.CSTNode] = [*statement.handlers]
    if statement.finalbody is not None:
        parts.append(statement.finalbody)
    return bool(names_read(file, parts) & names)
