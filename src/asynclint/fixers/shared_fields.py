"""Which fields of a class its deep copies may share (the ``deepcopy-memo`` recipe's question):
those ``__init__`` assigns once and every other use in the file only reads, without letting a
part escape (see :mod:`asynclint.fixers.deepcopy_memo` for the rules, and what keeps a field out)."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment, ExpressionContext, GlobalScope

from asynclint.fixers.cst.bindings import binding
from asynclint.fixers.cst.parsed import ParsedFile, dotted
from asynclint.knowledge.copying import CONSUMERS, CONTAINERS, FRESH_METHODS, PART_BUILDERS, PART_METHODS

#: The attribute the memo is kept in (a field of its own, never shared).
MEMO = "_deepcopy_memo"
#: Values ``deepcopy`` returns as they are: nothing to save by sharing them.
_ATOMS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)


def shared_fields(
    file: ParsedFile, cls: cst.ClassDef, init: cst.FunctionDef, family: list[cst.ClassDef]
) -> tuple[list[str], list[tuple[str, str]]]:
    """The fields to share (sorted), and the others with why each is not."""
    chosen, rejected = [], []
    for name, values in sorted(init_assignments(init).items()):
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
    for node in attribute_nodes(file, field):
        if _own_field_of_another_class(file, node, family):
            continue
        parent = file.parent(node)
        assignment = file.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
        if getattr(assignment, "value", None) is value:
            continue  # the one assignment in __init__
        if _in_memo(file, node, init):
            continue
        if is_stored(file, node):
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
        and instance_name(method) == param.name.value
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


def init_assignments(init: cst.FunctionDef) -> dict[str, list[cst.BaseExpression]]:
    """``self.X = value`` statements at the top level of ``__init__``: field -> values."""
    receiver = instance_name(init)
    assigned: dict[str, list[cst.BaseExpression]] = {}
    body = init.body.body if isinstance(init.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign | cst.AnnAssign):
            small = statement.body[0]
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for target in targets:
                if isinstance(target, cst.Attribute) and is_name(target.value, receiver) and small.value is not None:
                    assigned.setdefault(target.attr.value, []).append(small.value)
    return assigned


def instance_name(function: cst.FunctionDef) -> str | None:
    """The name of a method's instance parameter (``self``), if it has one."""
    decorators = {dotted(d.decorator) for d in function.decorators}
    if decorators & {"staticmethod", "classmethod"} or not function.params.params:
        return None
    return function.params.params[0].name.value


def attribute_nodes(file: ParsedFile, field: str) -> list[cst.Attribute]:
    """Every ``<anything>.field`` in the file: another object with a field of that name counts
    too (it may be this class's instance under another name)."""
    return [node for node in file.positions if isinstance(node, cst.Attribute) and node.attr.value == field]


def is_stored(file: ParsedFile, node: cst.Attribute) -> bool:
    return file.context(node) in (ExpressionContext.STORE, ExpressionContext.DEL)


def is_name(node: cst.BaseExpression, name: str | None) -> bool:
    return name is not None and isinstance(node, cst.Name) and node.value == name
