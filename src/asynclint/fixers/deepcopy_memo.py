"""Recipe ``deepcopy-memo``: ``copy.deepcopy(obj)`` in a hot method -> the shared-memo pattern::

    def __init__(self, ...):
        ...
        # Never changed after __init__: every deepcopy of this object shares them.
        self._deepcopy_memo = {id(self.corpus): self.corpus}

    async def fork(self):
        clone = await asyncio.to_thread(copy.deepcopy, self, self._deepcopy_memo.copy())

``deepcopy`` returns whatever its memo already maps an object's id to, so the large fields named
in the memo are shared instead of walked and copied on every call; ``memo.copy()`` keeps each
call's own bookkeeping apart.

The copied object is ``self``, ``self.attr`` (``__init__`` assigns it once, from a class of this
file), or a local or parameter whose class is plain (``x = Game(...)``, ``x: Game``); the memo is
built in that class's ``__init__``. Anything else gets the plain ``to-thread`` fix.

Which fields are shared: sharing is only right while nothing changes a shared field, or any part
of it, through either object. So a field qualifies when ``__init__`` assigns it exactly once, at
its top level, and every other use of it -- in the class, its bases and subclasses in this file,
and any ``.name`` access elsewhere in the file -- is a read that can neither change it nor let a
part of it escape: a comparison, a truth test, ``len``/``isinstance``/``json.dumps``/``deepcopy``
of it, a read-only method of the builtin types (``get``, ``keys``, ``startswith``, ...), iteration
or indexing whose results are used the same way. A method call not known to be read-only
(``self.rng.random()``, ``self.index.add(...)``), an alias (``h = self.history``) used that way, a
store, ``del`` or ``+=`` into it, handing it (or a part of it) to a function, returning or storing
it: any of these keeps the field out. Values ``deepcopy`` returns as they are (numbers, strings)
are left out too, since copying them costs nothing. The report names the fields chosen.

Unsafe: code this cannot see (other modules, base classes from libraries, ``getattr``) could
still change a shared field. Declines when the class customises copying, reaches its attributes
dynamically, has ``__slots__`` without room for the memo, or has no ``__init__`` of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import libcst as cst
from libcst.metadata import Assignment

from asynclint.fixers.base import Decline, Edit, Fix, FixerSpec
from asynclint.fixers.cst.build import LINE_LENGTH, awaited, offload_call
from asynclint.fixers.cst.parsed import ParsedFile, dotted
from asynclint.fixers.cst.references import asyncio_only, reference
from asynclint.fixers.project import FixProject, call_of
from asynclint.fixers.shared_fields import (
    MEMO,
    attribute_nodes,
    init_assignments,
    instance_name,
    is_name,
    is_stored,
    shared_fields,
)
from asynclint.knowledge.copying import COPY_HOOKS, DYNAMIC_ACCESS
from asynclint.model import Finding

SPEC = FixerSpec(
    "deepcopy-memo",
    False,
    "share a deepcopy memo of the fields nothing changes after `__init__`, and deep-copy in a worker thread",
    "the copy shares the chosen fields with the original instead of copying them, which is only"
    " right while nothing changes them (code outside this file is not checked)",
    answers=("deepcopy-memo",),
)


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    not_applicable = "not `copy.deepcopy(obj)` written in `async def`"
    site = project.direct_site(finding, not_applicable)
    if isinstance(site, Decline):
        return site
    assert isinstance(site.function, cst.FunctionDef)  # a direct site is in `async def`
    file = site.file
    call = call_of(site)
    if isinstance(call, Decline):
        return call
    if len(call.args) != 1 or call.args[0].keyword or call.args[0].star:
        return Decline(not_applicable, applicable=False)
    if file.in_generator_expression(call, site.function):
        return Decline("the call is inside a generator expression", applicable=False)
    argument = call.args[0].value
    cls = _copied_class(file, site.function, argument)
    if isinstance(cls, Decline):
        return cls
    methods = _methods(cls)
    init = methods.get("__init__")
    if init is None:
        return Decline(f"`{cls.name.value}` has no `__init__` of its own to build the memo in", applicable=False)
    family = _family(file, cls)
    hooks = sorted(COPY_HOOKS & {name for member in family for name in _methods(member)})
    if hooks:
        return Decline(f"`{cls.name.value}` customises copying (`{hooks[0]}`)", applicable=False)
    dynamic = _dynamic_access(file, family)
    if dynamic:
        return Decline(f"`{cls.name.value}` reaches its attributes dynamically ({dynamic})", applicable=False)
    if _returns_early(init):
        return Decline("`__init__` returns early, so the memo might never be built", applicable=False)
    existing = _existing_memo(init)
    memo = existing[0] if existing else _fresh_attribute(file, MEMO)
    slots = _slots(file, family)
    if slots is not None and memo not in slots:
        return Decline(
            f"`{cls.name.value}` has `__slots__` without room for the memo: add `{memo!r}` to them and fix again",
            applicable=False,
        )
    edits: list[Edit] = []
    if existing:
        fields = existing[1]
    else:
        fields, rejected = shared_fields(file, cls, init, family)
        if not fields:
            why = "; ".join(f"`{name}` {reason}" for name, reason in rejected[:3])
            return Decline(f"no field of `{cls.name.value}` is left alone after `__init__` ({why})", applicable=False)
        receiver = instance_name(init)
        entries = [f"id({receiver}.{name}): {receiver}.{name}" for name in fields]
        code = f"{receiver}.{memo} = {{{', '.join(entries)}}}"
        indent = file.span(init)[0][1] + 2 * len(file.module.default_indent)
        if indent + len(code) > LINE_LENGTH:  # one entry per line, as black would
            step = file.module.default_indent
            code = f"{receiver}.{memo} = {{\n" + "".join(f"{step}{entry},\n" for entry in entries) + "}"
        build = cst.parse_statement(code + "\n").with_changes(
            leading_lines=[cst.EmptyLine(comment=cst.Comment(f"# {_MEMO_COMMENT}"))]
        )
        body = init.body
        edits.append(Edit(init, init.with_changes(body=body.with_changes(body=[*body.body, build]))))
    if refused := asyncio_only(file, "deepcopy-memo"):
        return refused
    asyncio = reference(file, "asyncio", at=(call,))
    if isinstance(asyncio, Decline):
        return asyncio
    memo_copy = cst.parse_expression(f"{file.code(argument)}.{memo}.copy()")
    offloaded = offload_call(call.with_changes(args=[]), f"{asyncio.code}.to_thread", (call.func, argument, memo_copy))
    edits.append(Edit(call, awaited(file, call, offloaded)))
    chosen = ", ".join(f"`{name}`" for name in fields)
    shown = file.code(argument)
    return Fix(
        path=file.path,
        edits=tuple(edits),
        recipe="deepcopy-memo",
        safe=False,
        title=f"deep-copied `{shown}` in a worker thread with a memo built once in `{cls.name.value}.__init__`,"
        f" sharing {chosen}",
        imports=asyncio.imports,
        claims=(finding,),
        note=f"copies of `{shown}` share {chosen} with it (left alone after `__init__` by the code in this file)",
    )


_MEMO_COMMENT = "Never changed after __init__: every deepcopy of this object shares them."


# --- which class is copied ------------------------------------------------------------------------


def _copied_class(file: ParsedFile, function: cst.FunctionDef, argument: cst.BaseExpression) -> cst.ClassDef | Decline:
    """The class of this file that ``argument`` is an instance of, where that is plain."""
    shown = file.code(argument)
    unknown = Decline(f"the class of `{shown}` is not known in this file", applicable=False)
    enclosing = file.enclosing_class(function)
    receiver = instance_name(function)
    if isinstance(argument, cst.Name) and argument.value == receiver and enclosing is not None:
        return enclosing
    if (
        isinstance(argument, cst.Attribute)
        and isinstance(argument.value, cst.Name)
        and argument.value.value == receiver
        and enclosing is not None
    ):
        init = _methods(enclosing).get("__init__")
        assigned = init_assignments(init).get(argument.attr.value, []) if init is not None else []
        stores = [node for node in attribute_nodes(file, argument.attr.value) if is_stored(file, node)]
        if len(assigned) != 1 or len(stores) != 1:
            return unknown  # assigned elsewhere too: its class may change
        return _class_built_by(file, assigned[0]) or unknown
    if isinstance(argument, cst.Name):
        scope = file.scope(argument)
        assignments = list(scope[argument.value]) if scope is not None else []
        if len(assignments) != 1 or not isinstance(assignments[0], Assignment):
            return unknown
        node = assignments[0].node
        if isinstance(node, cst.Param) and node.annotation is not None:
            return _module_class(file, node.annotation.annotation, node) or unknown
        parent = file.parent(file.parent(node)) if node in file.positions else None
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            return _class_built_by(file, parent.value) or unknown
    return unknown


def _class_built_by(file: ParsedFile, value: cst.BaseExpression) -> cst.ClassDef | None:
    if isinstance(value, cst.Call):
        return _module_class(file, value.func, value)
    return None


def _module_class(file: ParsedFile, name: cst.BaseExpression, at: cst.CSTNode) -> cst.ClassDef | None:
    """The module-level class ``name`` means where ``at`` is (bound by that class only)."""
    if not isinstance(name, cst.Name):
        return None
    scope = file.scope(at)
    assignments = list(scope[name.value]) if scope is not None else []
    # A builtin's binding (``dict``) has no node: no class of this file.
    if len(assignments) == 1 and isinstance(assignment := assignments[0], Assignment):
        found = assignment.node
        if isinstance(found, cst.ClassDef):
            return found if isinstance(file.parent(found), cst.Module) else None
    return None


# --- the class, its relatives, and what they do with their attributes --------------------------------


def _methods(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {node.name.value: node for node in body if isinstance(node, cst.FunctionDef)}


def _family(file: ParsedFile, cls: cst.ClassDef) -> list[cst.ClassDef]:
    """``cls`` with its bases and subclasses among this file's classes (by name, transitively):
    their methods reach the same attributes through ``self``."""
    classes = {node.name.value: node for node in file.positions if isinstance(node, cst.ClassDef)}
    bases = {
        name: {base for written in node.bases if (base := dotted(written.value)) is not None and base in classes}
        for name, node in classes.items()
    }

    def closure(start: str, step: Callable[[str], Iterable[str]]) -> set[str]:
        found, todo = {start}, [start]
        while todo:
            for other in step(todo.pop()):
                if other not in found:
                    found.add(other)
                    todo.append(other)
        return found

    ancestors = closure(cls.name.value, lambda name: bases.get(name, ()))
    descendants = closure(cls.name.value, lambda name: [other for other, of in bases.items() if name in of])
    return [classes[name] for name in sorted(ancestors | descendants)]


def _dynamic_access(file: ParsedFile, family: list[cst.ClassDef]) -> str:
    """``getattr(self, ...)``, ``vars(self)``, ``self.__dict__`` in the family: the fields used
    cannot be told from the code."""
    for cls in family:
        for function in _methods(cls).values():
            receiver = instance_name(function)
            if receiver is None:
                continue
            for node in _nodes_in(file, function):
                if isinstance(node, cst.Attribute) and node.attr.value == "__dict__" and is_name(node.value, receiver):
                    return f"`{receiver}.__dict__`"
                if (
                    isinstance(node, cst.Call)
                    and dotted(node.func) in DYNAMIC_ACCESS
                    and node.args
                    and is_name(node.args[0].value, receiver)
                ):
                    return f"`{dotted(node.func)}({receiver}, ...)`"
    return ""


def _slots(file: ParsedFile, family: list[cst.ClassDef]) -> set[str] | None:
    """The attribute names ``__slots__`` allow, when a class of the family declares them."""
    found: set[str] | None = None
    for cls in family:
        body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
        for statement in body:
            if not (isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign)):
                continue
            assign = statement.body[0]
            if any(dotted(t.target) == "__slots__" for t in assign.targets):
                found = found or set()
                for node in _nodes_in(file, assign.value):
                    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
                        found.add(node.evaluated_value)
    return found


def _existing_memo(init: cst.FunctionDef) -> tuple[str, list[str]] | None:
    """The memo an earlier fix built in ``__init__`` (``self.M = {id(self.a): self.a, ...}``):
    its attribute and fields, reused by every later fix of the class."""
    receiver = instance_name(init)
    body = init.body.body if isinstance(init.body, cst.IndentedBlock) else ()
    for statement in body:
        if not (isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign)):
            continue
        assign = statement.body[0]
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        if not (isinstance(target, cst.Attribute) and is_name(target.value, receiver)):
            continue
        if not target.attr.value.startswith(MEMO) or not isinstance(assign.value, cst.Dict):
            continue
        if not assign.value.elements:
            continue
        fields = []
        for element in assign.value.elements:
            value = getattr(element, "value", None)
            if not (isinstance(value, cst.Attribute) and is_name(value.value, receiver)):
                break
            fields.append(value.attr.value)
        else:
            return target.attr.value, fields
    return None


# --- small helpers ---------------------------------------------------------------------------------


def _nodes_in(file: ParsedFile, root: cst.CSTNode) -> list[cst.CSTNode]:
    start, end = file.span(root)
    return [node for node in file.positions if start <= file.span(node)[0] and file.span(node)[1] <= end]


def _returns_early(init: cst.FunctionDef) -> bool:
    class Finder(cst.CSTVisitor):
        found = False

        def visit_Return(self, node: cst.Return) -> None:
            self.found = True

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is init

    finder = Finder()
    init.visit(finder)
    return finder.found


def _fresh_attribute(file: ParsedFile, base: str) -> str:
    used: set[str | bytes] = {node.attr.value for node in file.positions if isinstance(node, cst.Attribute)}
    used |= {node.evaluated_value for node in file.positions if isinstance(node, cst.SimpleString)} - {base}
    name, number = base, 2
    while name in used:
        name, number = f"{base}_{number}", number + 1
    return name
