"""What a name means at a place: the imports behind it, and whether it is the running event loop."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import (
    Assignment,
    BaseAssignment,
    BuiltinAssignment,
    ExpressionContext,
    GlobalScope,
    ImportAssignment,
)

from asynclint.fixers.cst.parsed import ParsedFile, alias_name, dotted
from asynclint.knowledge.asyncio_apis import (
    EVENT_LOOP_LIBRARIES,
    LOOP_ATTRIBUTES,
    LOOP_NAMES,
    LOOP_PROBES,
    LOOP_RUNNERS,
)


@dataclass(frozen=True)
class Binding:
    """What ``name`` means at one place, by Python's scoping rules (libcst's scope analysis)."""

    name: str
    #: The dotted name every binding visible there imports (``import time`` -> ``time``,
    #: ``from time import sleep`` -> ``time.sleep``, ``import a.b`` -> ``a``, ``import a.b as c``
    #: -> ``a.b``); ``None`` when something else binds it too (a parameter, an assignment, a def).
    target: str | None
    local: bool = False  # bound in the scope of a function (or class) rather than the module's
    unconditional: bool = False  # one of those imports always runs first: a top-level statement of its scope
    free: bool = True  # nothing binds it there, not even a builtin
    what: str = ""  # what else binds it, in words, for a decline reason


def binding(file: ParsedFile, name: str, at: cst.CSTNode) -> Binding:
    """What ``name`` means where ``at`` (a node of the parsed module) is evaluated."""
    scope = file.scope(at)
    assignments = list(scope[name]) if scope is not None else []
    if not assignments:
        return Binding(name, None)
    if all(isinstance(a, BuiltinAssignment) for a in assignments):
        return Binding(name, None, free=False, what="a builtin")
    targets, unconditional = set(), False
    local = not any(isinstance(a.scope, GlobalScope) for a in assignments)
    for assignment in assignments:
        if not isinstance(assignment, ImportAssignment):
            return Binding(name, None, local, free=False, what=_what_binds(file, assignment))
        targets.add(_import_target(file, assignment.node, name))
        unconditional = unconditional or _runs_first(file, assignment.node, at, local)
    if len(targets) != 1:
        return Binding(name, None, local, free=False, what="imported from different places")
    return Binding(name, targets.pop(), local, unconditional, free=False)


def resolved_name(file: ParsedFile, node: cst.BaseExpression) -> str:
    """The qualified name a name or attribute chain written at ``node`` means through the imports
    binding its first name (``aio.run`` after ``import asyncio as aio`` -> ``asyncio.run``); ""
    when something else binds it or it is no such chain."""
    name = dotted(node)
    if name is None:
        return ""
    head, _, rest = name.partition(".")
    target = binding(file, head, node).target
    return ".".join(filter(None, (target, rest))) if target is not None else ""


def _import_target(file: ParsedFile, statement: cst.CSTNode, name: str) -> str:
    """Where the import ``statement`` (an ``ImportAssignment``'s node) takes ``name`` from."""
    assert isinstance(statement, cst.Import | cst.ImportFrom)
    if isinstance(statement, cst.Import):
        for alias in statement.names:
            if alias_name(alias, dotted_first=True) == name:
                spelled = file.code(alias.name)
                return spelled if alias.asname else spelled.split(".")[0]
    elif not isinstance(statement.names, cst.ImportStar):
        dots = "." * len(statement.relative)  # relative imports never match an absolute name
        source = f"{file.code(statement.module)}." if statement.module is not None else ""
        for alias in statement.names:
            if alias_name(alias) == name:
                return f"{dots}{source}{file.code(alias.name)}"
    return f"<{name}>"


def _runs_first(file: ParsedFile, statement: cst.CSTNode, at: cst.CSTNode, local: bool) -> bool:
    """The import is a top-level statement of its scope (not under ``if``/``try``/``with``), and,
    inside a function, written above ``at``."""
    line = file.parent(statement)
    block = file.parent(line) if line is not None else None
    if isinstance(block, cst.Module):
        return True
    if not local or not isinstance(block, cst.IndentedBlock) or not isinstance(file.parent(block), cst.FunctionDef):
        return False
    return file.positions[statement].start.line < file.positions[at].start.line


def _what_binds(file: ParsedFile, assignment: BaseAssignment) -> str:
    if not isinstance(assignment, Assignment):
        return "a builtin"
    node = assignment.node
    where = f" (line {file.positions[node].start.line})" if node in file.positions else ""
    if isinstance(node, cst.Param):
        return f"a parameter{where}"
    if isinstance(node, cst.FunctionDef | cst.ClassDef):
        return f"a {'class' if isinstance(node, cst.ClassDef) else 'function'}{where}"
    return f"{'a module-level' if isinstance(assignment.scope, GlobalScope) else 'a local'} variable{where}"


def modules_behind(file: ParsedFile, name: str, at: cst.CSTNode) -> frozenset[str]:
    """The top-level modules ``name`` comes from where ``at`` is evaluated: the module an import
    binding it imports from (``import asyncio as aio`` -> ``asyncio``), and for a variable, the
    modules of the names read by the values assigned to it, followed through other variables
    (``loop = aio.get_running_loop()``; ``runner = loop``). An awaited value is what the coroutine
    returned, not the module's object (``results = await asyncio.gather(...)`` is data): names
    inside an ``await`` are not followed. Empty for what no assignment tells (a parameter, a
    ``def``, a builtin, a name nothing binds)."""
    return frozenset(_modules_behind(file, name, at, set()))


def event_loop_use(file: ParsedFile, node: cst.CSTNode) -> str:
    """What in ``node`` (code about to move to a worker thread) ties it to the event loop, in words
    ("" when nothing does): the first name bound to asyncio, anyio or trio (under any alias, or a
    name imported from them) or to a value obtained from them (``loop = aio.get_running_loop()``),
    else a name or attribute spelled as the loop where nothing in the file says what it is (a
    parameter ``loop``, ``self._loop``). Two uses tie nothing: a loop runner (``asyncio.run``
    starts a loop of its own, which a worker thread can, and the loop's thread cannot) and a
    probe for a running loop whose ``RuntimeError`` is caught (a worker thread answers "none",
    and the code takes the way it takes off any loop)."""
    found: list[str] = []

    class Uses(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            return not found and super().on_visit(node)

        def visit_Call(self, node: cst.Call) -> bool:
            return not _probe(file, node)

        def visit_Name(self, node: cst.Name) -> None:
            if file.context(node) is ExpressionContext.LOAD and (use := _loop_name(file, node)):
                if not _runner(file, node):  # `from asyncio import run`
                    found.append(use)

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)  # a keyword's name is not a variable
            return False

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if _runner(file, node):
                return False
            node.value.visit(self)  # nor is an attribute's
            if not found and node.attr.value in LOOP_ATTRIBUTES:
                found.append(f"`{file.code(node)}`")
            elif not found and isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
                cls = file.enclosing_class(node)
                bound = loop_bound_attributes(file, cls) if cls is not None else {}
                if node.attr.value in bound:
                    found.append(f"`{file.code(node)}` ({bound[node.attr.value]})")
            return False

    node.visit(Uses())
    return found[0] if found else ""


_RUNNER_NAMES = frozenset(runner.rpartition(".")[2] for runner in LOOP_RUNNERS)


def _runner(file: ParsedFile, node: cst.Name | cst.Attribute) -> bool:
    """Does ``node`` name a loop runner (``asyncio.run``, ``from asyncio import run``)?"""
    last = node.value if isinstance(node, cst.Name) else node.attr.value
    return last in _RUNNER_NAMES and resolved_name(file, node) in LOOP_RUNNERS


def _probe(file: ParsedFile, call: cst.Call) -> bool:
    """Is ``call`` a probe for a running loop (``LOOP_PROBES``) whose value is discarded (a
    statement of its own, or bound to ``_``), in the body of a ``try`` of the same function with
    a handler that catches ``RuntimeError``?"""
    if resolved_name(file, call.func) not in LOOP_PROBES:
        return False
    statement = file.parent(call)
    discarded = isinstance(statement, cst.Expr) or (
        isinstance(statement, cst.Assign)
        and all(isinstance(t.target, cst.Name) and t.target.value == "_" for t in statement.targets)
    )
    if not discarded:
        return False
    inner: cst.CSTNode = call
    for ancestor in file.ancestors(call):
        if isinstance(ancestor, cst.FunctionDef | cst.Lambda | cst.ClassDef):
            return False
        if isinstance(ancestor, cst.Try) and inner is ancestor.body:
            return any(_catches_runtime_error(file, handler) for handler in ancestor.handlers)
        inner = ancestor
    return False


def _catches_runtime_error(file: ParsedFile, handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    names = {file.code(kind.value if isinstance(kind, cst.Element) else kind) for kind in kinds}
    return bool(names & {"RuntimeError", "Exception", "BaseException"})


def loop_bound_attributes(file: ParsedFile, cls: cst.ClassDef) -> dict[str, str]:
    """Attributes of ``cls``'s instances (or the class) holding objects of the event loop, each
    with where it comes from in words: assigned (in any method, or in the class body) a value
    built from asyncio, anyio or trio or obtained from the loop (``self._done = asyncio.Event()``,
    ``self.fut = loop.create_future()``, ``done: asyncio.Event = field(...)``), also an item of
    a container kept on ``self`` (``self.events[k] = asyncio.Event()``). Code that sets such an
    event or puts into such a queue must stay on the loop's thread."""
    bound: dict[str, str] = {}

    def attribute_of_self(target: cst.BaseExpression) -> str | None:
        while isinstance(target, cst.Subscript):
            target = target.value
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            if target.value.value in ("self", "cls"):
                return target.attr.value
        return None

    class Stores(cst.CSTVisitor):
        def _store(self, target: cst.BaseExpression, *values: cst.BaseExpression | None) -> None:
            name = attribute_of_self(target)
            if name is None and isinstance(target, cst.Name):
                statement = file.statement_of(target)  # a class attribute, written in the class body
                block = file.parent(statement) if statement is not None else None
                if block is not None and file.parent(block) is cls:
                    name = target.value
            if name is None or name in bound:
                return
            for value in values:
                if value is not None and (origin := _loop_origin(file, value)):
                    bound[name] = origin
                    return

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                self._store(target.target, node.value)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._store(node.target, node.value, node.annotation.annotation)

    cls.body.visit(Stores())
    return bound


def _loop_origin(file: ParsedFile, value: cst.BaseExpression) -> str:
    """Where ``value`` (outside any ``await``) gets an object of the event loop from, in words ("" if
    nowhere): a name bound to asyncio/anyio/trio or to a value obtained from them, or the loop."""
    for read in _names_read_in(file, value):
        libraries = sorted(_modules_behind(file, read.value, read, set()) & EVENT_LOOP_LIBRARIES)
        if libraries:
            return f"built from `{libraries[0]}`"
        if read.value in LOOP_NAMES and binding(file, read.value, read).target is None:
            return "obtained from the event loop"

    class LoopAttribute(cst.CSTVisitor):
        found = False

        def visit_Await(self, node: cst.Await) -> bool:
            return False

        def visit_Attribute(self, node: cst.Attribute) -> None:
            self.found = self.found or node.attr.value in LOOP_ATTRIBUTES

    finder = LoopAttribute()
    value.visit(finder)
    return "obtained from the event loop" if finder.found else ""


def _loop_name(file: ParsedFile, name: cst.Name) -> str:
    libraries = sorted(modules_behind(file, name.value, name) & EVENT_LOOP_LIBRARIES)
    bound = binding(file, name.value, name)
    if libraries and bound.target is not None:
        return f"`{name.value}`" if name.value == libraries[0] else f"`{name.value}` (from `{libraries[0]}`)"
    if libraries:
        return f"`{name.value}`, obtained from `{libraries[0]}`"
    return f"`{name.value}`" if name.value in LOOP_NAMES and bound.target is None else ""


def _modules_behind(file: ParsedFile, name: str, at: cst.CSTNode, seen: set[int]) -> set[str]:
    scope = file.scope(at)
    found: set[str] = set()
    for assignment in scope[name] if scope is not None else ():
        if id(assignment) in seen or isinstance(assignment, BuiltinAssignment):
            continue
        seen.add(id(assignment))
        if isinstance(assignment, ImportAssignment):
            target = _import_target(file, assignment.node, name)
            if not target.startswith((".", "<")):  # a relative import is the project's own
                found.add(target.split(".")[0])
            continue
        assert isinstance(assignment, Assignment)  # neither a builtin nor an import: written in the code
        value = _assigned_value(file, assignment.node)
        for read in _names_read_in(file, value) if value is not None else ():
            found |= _modules_behind(file, read.value, read, seen)
    return found


def _assigned_value(file: ParsedFile, target: cst.CSTNode) -> cst.BaseExpression | None:
    """The expression whose value (or an element of it) the name ``target`` is bound to: an
    assignment's value, a ``with`` item's context manager, a ``for`` loop's iterable."""
    if not isinstance(target, cst.Name):
        return None  # a def, a class, a parameter
    for ancestor in file.ancestors(target):
        if isinstance(ancestor, cst.Assign | cst.AnnAssign | cst.AugAssign | cst.NamedExpr):
            return ancestor.value
        if isinstance(ancestor, cst.WithItem):
            return ancestor.item
        if isinstance(ancestor, cst.For | cst.CompFor):
            return ancestor.iter
        if isinstance(ancestor, cst.BaseSuite | cst.BaseStatement | cst.ExceptHandler | cst.Lambda | cst.Param):
            return None
    return None


def _names_read_in(file: ParsedFile, expression: cst.BaseExpression) -> list[cst.Name]:
    """The variables ``expression`` reads (not attribute or keyword names), outside ``await``; a
    loop runner is not one (``asyncio.run(...)`` returns what the coroutine did, on a loop of its own)."""
    found: list[cst.Name] = []

    class Reads(cst.CSTVisitor):
        def visit_Await(self, node: cst.Await) -> bool:
            return False

        def visit_Name(self, node: cst.Name) -> None:
            if file.context(node) is ExpressionContext.LOAD and not _runner(file, node):
                found.append(node)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            if not _runner(file, node):
                node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

    expression.visit(Reads())
    return found
