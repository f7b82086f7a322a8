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
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment, ExpressionContext, GlobalScope

from asynclint.fixers.base import Decline, Edit, Fix, FixerSpec
from asynclint.fixers.cst.bindings import binding
from asynclint.fixers.cst.build import LINE_LENGTH, awaited, offload_call
from asynclint.fixers.cst.parsed import ParsedFile, dotted
from asynclint.fixers.cst.references import asyncio_only, reference
from asynclint.fixers.project import FixProject, call_of
from asynclint.knowledge.copying import (
    CONSUMERS,
    CONTAINERS,
    COPY_HOOKS,
    FRESH_METHODS,
    PART_BUILDERS,
    PART_METHODS,
)
from asynclint.model import Finding

SPEC = FixerSpec(
    "deepcopy-memo",
    False,
    "share a deepcopy memo of the fields nothing changes after `__init__`, and deep-copy in a worker thread",
    "the copy shares the chosen fields with the original instead of copying them, which is only"
    " right while nothing changes them (code outside this file is not checked)",
    answers=("deepcopy-memo",),
)

_ATOMS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)
_DYNAMIC = frozenset({"getattr", "setattr", "delattr", "vars"})
MEMO = "_deepcopy_memo"


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    not_applicable = "not `copy.deepcopy(obj)` written in `async def`"
    site = project.direct_site(finding, not_applicable)
    if isinstance(site, Decline):
        return site
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
        fields, rejected = _shared_fields(file, cls, init, family)
        if not fields:
            why = "; ".join(f"`{name}` {reason}" for name, reason in rejected[:3])
            return Decline(f"no field of `{cls.name.value}` is left alone after `__init__` ({why})", applicable=False)
        receiver = _receiver(init)
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
    receiver = _receiver(function)
    if isinstance(argument, cst.Name) and argument.value == receiver and enclosing is not None:
        return enclosing
    if (
        isinstance(argument, cst.Attribute)
        and isinstance(argument.value, cst.Name)
        and argument.value.value == receiver
        and enclosing is not None
    ):
        init = _methods(enclosing).get("__init__")
        assigned = _init_assignments(init).get(argument.attr.value, []) if init is not None else []
        stores = [node for node in _attribute_nodes(file, argument.attr.value) if _stored(file, node)]
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


def _receiver(function: cst.FunctionDef) -> str | None:
    """The name of a method's instance parameter (``self``), if it has one."""
    decorators = {dotted(d.decorator) for d in function.decorators}
    if decorators & {"staticmethod", "classmethod"} or not function.params.params:
        return None
    return function.params.params[0].name.value


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
            receiver = _receiver(function)
            if receiver is None:
                continue
            for node in _nodes_in(file, function):
                if isinstance(node, cst.Attribute) and node.attr.value == "__dict__" and _is_name(node.value, receiver):
                    return f"`{receiver}.__dict__`"
                if (
                    isinstance(node, cst.Call)
                    and dotted(node.func) in _DYNAMIC
                    and node.args
                    and _is_name(node.args[0].value, receiver)
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


def _init_assignments(init: cst.FunctionDef) -> dict[str, list[cst.BaseExpression]]:
    """``self.X = value`` statements at the top level of ``__init__``: field -> values."""
    receiver = _receiver(init)
    assigned: dict[str, list[cst.BaseExpression]] = {}
    body = init.body.body if isinstance(init.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign | cst.AnnAssign):
            small = statement.body[0]
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for target in targets:
                if isinstance(target, cst.Attribute) and _is_name(target.value, receiver) and small.value is not None:
                    assigned.setdefault(target.attr.value, []).append(small.value)
    return assigned


def _existing_memo(init: cst.FunctionDef) -> tuple[str, list[str]] | None:
    """The memo an earlier fix built in ``__init__`` (``self.M = {id(self.a): self.a, ...}``):
    its attribute and fields, reused by every later fix of the class."""
    receiver = _receiver(init)
    body = init.body.body if isinstance(init.body, cst.IndentedBlock) else ()
    for statement in body:
        if not (isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign)):
            continue
        assign = statement.body[0]
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        if not (isinstance(target, cst.Attribute) and _is_name(target.value, receiver)):
            continue
        if not target.attr.value.startswith(MEMO) or not isinstance(assign.value, cst.Dict):
            continue
        if not assign.value.elements:
            continue
        fields = []
        for element in assign.value.elements:
            value = getattr(element, "value", None)
            if not (isinstance(value, cst.Attribute) and _is_name(value.value, receiver)):
                break
            fields.append(value.attr.value)
        else:
            return target.attr.value, fields
    return None


# --- which fields are left alone -------------------------------------------------------------------


def _shared_fields(
    file: ParsedFile, cls: cst.ClassDef, init: cst.FunctionDef, family: list[cst.ClassDef]
) -> tuple[list[str], list[tuple[str, str]]]:
    """The fields to share (sorted), and the others with why each is not."""
    chosen, rejected = [], []
    for name, values in sorted(_init_assignments(init).items()):
        if name.startswith(MEMO):
            continue
        if len(values) != 1:
            rejected.append((name, "is assigned twice in `__init__`"))
            continue
        value = values[0]
        if isinstance(value, _ATOMS) or (isinstance(value, cst.Name) and value.value in ("True", "False", "None")):
            continue  # deepcopy returns it as it is: nothing to save
        reason = _changed(file, name, value, init, family)
        if reason:
            rejected.append((name, reason))
        else:
            chosen.append(name)
    return chosen, rejected


def _changed(
    file: ParsedFile, field: str, value: cst.BaseExpression, init: cst.FunctionDef, family: list[cst.ClassDef]
) -> str:
    """How the field (or a part of it) may change or escape after ``__init__``, "" if it cannot."""
    walk = _Walk(file, init, _container(file, value))
    for node in _attribute_nodes(file, field):
        if _own_field_of_another_class(file, node, family):
            continue
        parent = file.parent(node)
        assignment = file.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
        if getattr(assignment, "value", None) is value:
            continue  # the one assignment in __init__
        if _in_memo(file, node, init):
            continue
        if _stored(file, node):
            return f"is assigned again or deleted{_where(file, node)}"
        reason = walk.uses(node)
        if reason:
            return reason
    if isinstance(value, cst.Name):  # `self.corpus = corpus`: what __init__ does with `corpus` counts too
        for read in _loads_of(file, value):
            if read is not value:
                reason = walk.uses(read)
                if reason:
                    return f"{reason} (through `{value.value}`)"
    return ""


def _own_field_of_another_class(file: ParsedFile, node: cst.Attribute, family: list[cst.ClassDef]) -> bool:
    """``self.field`` in a method of a class outside the family: that class's own field of the
    same name, not this one (any other receiver may be an instance of this class)."""
    if not isinstance(node.value, cst.Name):
        return False
    scope = file.scope(node)
    assignments = list(scope[node.value.value]) if scope is not None else []
    # A builtin's binding (``dict.fromkeys``) has no node: no parameter.
    if len(assignments) != 1 or not isinstance(assignment := assignments[0], Assignment):
        return False
    param = assignment.node
    if not isinstance(param, cst.Param):
        return False
    method = file.parent(file.parent(param))
    if not isinstance(method, cst.FunctionDef):
        return False
    cls = file.parent(file.parent(method))
    return (
        isinstance(cls, cst.ClassDef)
        and all(cls is not member for member in family)
        and _receiver(method) == param.name.value
    )


def _in_memo(file: ParsedFile, node: cst.CSTNode, init: cst.FunctionDef) -> bool:
    """Inside the memo statement an earlier round added (its reads are the memo itself)."""
    for ancestor in file.ancestors(node):
        if isinstance(ancestor, cst.Assign):
            target = ancestor.targets[0].target if ancestor.targets else None
            return isinstance(target, cst.Attribute) and target.attr.value.startswith(MEMO)
        if ancestor is init:
            return False
    return False


@dataclass
class _Walk:
    """Follows a value up the expressions that use it, and through the local names it is bound
    to, until each use is known harmless -- or finds the first that is not."""

    file: ParsedFile
    init: cst.FunctionDef
    container: bool  # the field is known to be a container, not an iterator

    def __post_init__(self) -> None:
        self.followed: set[tuple[int, str, bool]] = set()

    def uses(self, start: cst.CSTNode, whole: bool = True) -> str:
        """Why the value at ``start`` may change or escape ("" if it cannot); ``whole``: the
        value is the field itself, not a part of it."""
        file = self.file
        child = start
        while True:
            parent = file.parent(child)
            where = _where(file, child)
            whole = whole and child is start
            if parent is None:
                return ""
            after_init = file.enclosing_function(child) is not self.init  # (before any copy, iterating is harmless)
            if whole and not self.container and after_init and _iterates(file, parent, child):
                return f"is iterated{where}, and may be an iterator (copies would share its position)"
            if isinstance(parent, cst.Attribute) and parent.value is child:
                if file.context(parent) in (ExpressionContext.STORE, ExpressionContext.DEL):
                    return f"has `.{parent.attr.value}` assigned{where}"
                call = file.parent(parent)
                if isinstance(call, cst.Call) and call.func is parent:
                    method = parent.attr.value
                    if method in FRESH_METHODS:
                        return ""
                    if method not in PART_METHODS:
                        return f"has `.{method}()` called on it{where}"
                    child = call
                    continue
                child = parent
                continue
            if isinstance(parent, cst.Subscript):
                if parent.value is not child:
                    return ""
                if file.context(parent) in (ExpressionContext.STORE, ExpressionContext.DEL):
                    return f"has an item assigned or deleted{where}"
                child = parent
                continue
            if isinstance(parent, cst.Index | cst.Slice | cst.Comparison | cst.ComparisonTarget):
                return ""  # a key, a bound, a comparison: nothing of it is kept
            if isinstance(parent, cst.FormattedStringExpression | cst.Expr | cst.CompIf | cst.Assert):
                return ""
            if isinstance(parent, cst.If | cst.While) and parent.test is child:
                return ""
            if isinstance(parent, cst.IfExp) and parent.test is child:
                return ""
            if isinstance(parent, cst.UnaryOperation):
                if isinstance(parent.operator, cst.Not):
                    return ""
                child = parent
                continue
            if isinstance(
                parent,
                cst.BooleanOperation
                | cst.BinaryOperation
                | cst.IfExp
                | cst.Element
                | cst.DictElement
                | cst.StarredElement
                | cst.StarredDictElement
                | cst.List
                | cst.Tuple
                | cst.Set
                | cst.Dict
                | cst.ListComp
                | cst.SetComp
                | cst.GeneratorExp
                | cst.DictComp,
            ):
                child = parent  # the result holds it (or parts of it)
                continue
            if isinstance(parent, cst.Arg):
                call = file.parent(parent)
                callee = _callee(file, call) if isinstance(call, cst.Call) else None
                if callee in CONSUMERS and not parent.star:
                    return ""
                if isinstance(call, cst.Call) and callee in PART_BUILDERS:
                    child = call
                    continue
                shown = (callee or "").removeprefix("builtins.")
                shown = shown or (dotted(call.func) or "" if isinstance(call, cst.Call) else "")
                return f"is handed to {f'`{shown}`' if shown else 'a function'}{where}"
            if isinstance(parent, cst.Call) and parent.func is child:
                return f"is called{where}"
            if isinstance(parent, cst.For | cst.CompFor) and parent.iter is child:
                return self._bound(parent.target, where, whole=False)
            if isinstance(parent, cst.Assign) and parent.value is child:
                for target in parent.targets:
                    reason = self._bound(target.target, where, whole)
                    if reason:
                        return reason
                return ""
            if isinstance(parent, cst.AnnAssign) and parent.value is child:
                return self._bound(parent.target, where, whole)
            if isinstance(parent, cst.NamedExpr) and parent.value is child:
                return self._bound(parent.target, where, whole)
            if isinstance(parent, cst.AugAssign):
                return f"is changed in place (`{file.code(parent.operator).strip()}`){where}"
            if isinstance(parent, cst.Return):
                return f"is returned{where}"
            if isinstance(parent, cst.Yield):
                return f"is yielded{where}"
            return f"is used in a `{type(parent).__name__}`{where}"

    def _bound(self, target: cst.BaseExpression, where: str, whole: bool) -> str:
        """The value is bound to ``target``: every use of a local name bound so is followed."""
        if isinstance(target, cst.Tuple | cst.List):
            for element in target.elements:
                reason = self._bound(element.value, where, whole=False)
                if reason:
                    return reason
            return ""
        if isinstance(target, cst.StarredElement):
            return self._bound(target.value, where, whole=False)
        if not isinstance(target, cst.Name):
            return f"is stored in `{self.file.code(target)}`{where}"
        scope = self.file.scope(target)
        if scope is None or isinstance(scope, GlobalScope) or target.value in getattr(scope, "_global_names", ()):
            return f"is stored in the global `{target.value}`{where}"
        key = (id(scope), target.value, whole)
        if key in self.followed:
            return ""
        self.followed.add(key)
        for node in _loads_of(self.file, target):
            reason = self.uses(node, whole)
            if reason:
                return f"{reason} (through `{target.value}`)"
        return ""


def _iterates(file: ParsedFile, parent: cst.CSTNode, child: cst.CSTNode) -> bool:
    """``child`` is iterated over here: a ``for`` or comprehension, or a builtin that walks it."""
    if isinstance(parent, cst.For | cst.CompFor):
        return parent.iter is child
    call = file.parent(parent) if isinstance(parent, cst.Arg) else None
    return isinstance(call, cst.Call) and _callee(file, call) in PART_BUILDERS | {"builtins.any", "builtins.all"}


def _container(file: ParsedFile, value: cst.BaseExpression) -> bool:
    """``value`` builds a container: a display, a comprehension, or ``list(...)`` and friends."""
    if isinstance(value, cst.List | cst.Dict | cst.Set | cst.Tuple | cst.ListComp | cst.SetComp | cst.DictComp):
        return True
    return isinstance(value, cst.Call) and _callee(file, value) in CONTAINERS


def _loads_of(file: ParsedFile, name: cst.Name) -> list[cst.Name]:
    """Every read of the variable ``name`` binds (or reads) where it is, nested functions included."""
    scope = file.scope(name)
    if scope is None:
        return []
    owners = {id(a.scope) for a in scope[name.value] if isinstance(a, Assignment)}
    found = []
    for node in file.positions:
        if isinstance(node, cst.Name) and node.value == name.value and file.context(node) is ExpressionContext.LOAD:
            parent = file.parent(node)
            if isinstance(parent, cst.Attribute) and parent.attr is node:
                continue  # `x.name` is not the variable
            at = file.scope(node)
            if at is not None and any(id(a.scope) in owners for a in at[name.value] if isinstance(a, Assignment)):
                found.append(node)
    return found


def _callee(file: ParsedFile, call: cst.Call) -> str | None:
    """The qualified name of what ``call`` calls: an import, or a builtin nothing shadows."""
    name = dotted(call.func)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    bound = binding(file, head, call)
    if bound.target is not None:
        return f"{bound.target}.{rest}" if rest else bound.target
    if bound.what == "a builtin" and not rest:
        return f"builtins.{head}"
    return None


def _where(file: ParsedFile, node: cst.CSTNode) -> str:
    function = file.enclosing_function(node)
    return f" in `{function.name.value}`" if isinstance(function, cst.FunctionDef) else ""


def _attribute_nodes(file: ParsedFile, field: str) -> list[cst.Attribute]:
    """Every ``<anything>.field`` in the file: another object with a field of that name counts
    too (it may be this class's instance under another name)."""
    return [node for node in file.positions if isinstance(node, cst.Attribute) and node.attr.value == field]


def _stored(file: ParsedFile, node: cst.Attribute) -> bool:
    return file.context(node) in (ExpressionContext.STORE, ExpressionContext.DEL)


def _nodes_in(file: ParsedFile, root: cst.CSTNode) -> list[cst.CSTNode]:
    start, end = file.span(root)
    return [node for node in file.positions if start <= file.span(node)[0] and file.span(node)[1] <= end]


def _is_name(node: cst.BaseExpression, name: str | None) -> bool:
    return name is not None and isinstance(node, cst.Name) and node.value == name


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
