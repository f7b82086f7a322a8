"""Recipe ``deepcopy-memo``: ``copy.deepcopy(self)`` in a hot method -> the shared-memo pattern::

    def __init__(self, ...):
        ...
        # Assigned once here and never mutated: every deepcopy of self shares them.
        self._deepcopy_memo = {id(self.corpus): self.corpus}

    async def fork(self):
        clone = await asyncio.to_thread(copy.deepcopy, self, self._deepcopy_memo.copy())

``deepcopy`` returns whatever its memo already maps an object's id to, so the large fields named
in the memo are shared instead of walked and copied on every call; ``memo.copy()`` keeps each
call's own bookkeeping apart. The fields chosen are those ``__init__`` assigns exactly once and
that no method of the class reassigns, mutates in place (``append``, ``update``, item or attribute
assignment, ``+=``, ``del``) or passes to anything but a known read-only builtin; plain literals
(numbers, strings) are left out, since copying them costs nothing. The report names them.

Unsafe: the copy and the original now share those fields, which is right only while nothing --
including code outside the class, which this cannot see -- mutates them. Declines quietly (so the
plain ``to-thread`` fix is used) when the argument is not ``self``, there is no ``__init__``, the
class customises copying, or no field qualifies.
"""

from __future__ import annotations

import libcst as cst

from asynclint.fixers.analysis import FixProject, ParsedFile, awaited, dotted, offload_call
from asynclint.fixers.base import Decline, Edit, Fix, Import
from asynclint.model import Finding

MUTATORS = frozenset(
    "append extend insert pop popitem remove clear update setdefault add discard sort reverse "
    "__setitem__ __delitem__ write".split()
)
#: Builtins that only read their argument; passing a field to anything else may mutate it.
READ_ONLY = frozenset(
    "len iter sorted list dict tuple set frozenset str repr isinstance id enumerate zip any all min max sum "
    "print bool hash reversed".split()
)
_COPY_HOOKS = frozenset({"__deepcopy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__"})
_ATOMS = (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString)


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    site = project.site(finding)
    if isinstance(site, Decline):
        return site
    file, call = site.file, site.call
    if site.placement != "direct" or len(call.args) != 1 or call.args[0].keyword or call.args[0].star:
        return Decline("not `copy.deepcopy(obj)` written in `async def`", applicable=False)
    if not (isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "self"):
        return Decline("the shared memo needs `deepcopy(self)`", applicable=False)
    cls = file.enclosing_class(site.function)
    methods = _methods(cls) if cls else {}
    init = methods.get("__init__")
    if cls is None or init is None:
        return Decline("the class has no `__init__` to build the memo in", applicable=False)
    if _COPY_HOOKS & methods.keys():
        return Decline(f"`{cls.name.value}` customises copying", applicable=False)
    fields = _immutable_fields(file, cls, init)
    if not fields:
        return Decline(
            f"no field of `{cls.name.value}` is assigned once in `__init__` and never mutated", applicable=False
        )
    if _returns_early(init):
        return Decline("`__init__` returns early, so the memo might never be built", applicable=False)
    memo = _fresh_attribute(file, cls, "_deepcopy_memo")
    entries = ", ".join(f"id(self.{name}): self.{name}" for name in fields)
    build = cst.parse_statement(f"self.{memo} = {{{entries}}}\n").with_changes(
        leading_lines=[
            cst.EmptyLine(
                comment=cst.Comment("# Assigned once here and never mutated: every deepcopy of self shares them.")
            ),
        ]
    )
    body = init.body
    new_init = init.with_changes(body=body.with_changes(body=[*body.body, build]))
    memo_copy = cst.parse_expression(f"self.{memo}.copy()")
    offloaded = offload_call(
        call.with_changes(args=[]), "asyncio.to_thread", (call.func, call.args[0].value, memo_copy)
    )
    chosen = ", ".join(f"`{name}`" for name in fields)
    return Fix(
        path=file.path,
        edits=(Edit(init, new_init), Edit(call, awaited(file, call, offloaded))),
        recipe="deepcopy-memo",
        safe=False,
        title=f"deep-copied `self` in a worker thread with a memo built once in `__init__`, sharing {chosen}",
        imports=(Import("asyncio"),),
        claims=(finding,),
        note=f"copies now share {chosen} with the original (assigned once in `__init__`, never mutated in the class)",
    )


def _methods(cls: cst.ClassDef) -> dict[str, cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return {node.name.value: node for node in body if isinstance(node, cst.FunctionDef)}


def _self_field(node: cst.CSTNode) -> str | None:
    """``X`` for ``self.X``."""
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self":
        return node.attr.value
    return None


def _root_field(node: cst.CSTNode) -> str | None:
    """``X`` for ``self.X``, ``self.X[i]``, ``self.X.y.z``."""
    while True:
        name = _self_field(node)
        if name is not None:
            return name
        if isinstance(node, cst.Attribute | cst.Subscript):
            node = node.value
        else:
            return None


def _immutable_fields(file: ParsedFile, cls: cst.ClassDef, init: cst.FunctionDef) -> list[str]:
    assigned: dict[str, list[cst.CSTNode]] = {}
    body = init.body.body if isinstance(init.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign | cst.AnnAssign):
            small = statement.body[0]
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            for target in targets:
                name = _self_field(target)
                if name is not None and small.value is not None:
                    assigned.setdefault(name, []).append(small.value)
    candidates = {
        name
        for name, values in assigned.items()
        if len(values) == 1
        and not isinstance(values[0], _ATOMS)
        and not (isinstance(values[0], cst.Name) and values[0].value in ("True", "False", "None"))
    }
    changed = _changed_fields(file, cls)
    return sorted(name for name in candidates if changed.get(name, 0) <= 1)  # the one assignment in __init__


def _changed_fields(file: ParsedFile, cls: cst.ClassDef) -> dict[str, int]:
    """Field -> how many places may change it (assignments count; any mutation counts twice)."""
    counts: dict[str, int] = {}

    def bump(name: str | None, by: int = 1) -> None:
        if name is not None:
            counts[name] = counts.get(name, 0) + by

    for node in file.positions:
        if not any(ancestor is cls for ancestor in file.ancestors(node)):
            continue
        if isinstance(node, cst.AssignTarget | cst.AnnAssign):
            target = node.target
            bump(_self_field(target))
            if _self_field(target) is None:
                bump(_root_field(target), 2)  # self.X[i] = ... / self.X.y = ...
        elif isinstance(node, cst.AugAssign | cst.Del):
            bump(_root_field(node.target), 2)
        elif isinstance(node, cst.Call):
            if isinstance(node.func, cst.Attribute) and node.func.attr.value in MUTATORS:
                bump(_root_field(node.func.value), 2)
            callee = dotted(node.func)
            if callee not in READ_ONLY:
                for arg in node.args:
                    bump(_self_field(arg.value), 2)  # handed to code that may mutate it
        elif isinstance(node, cst.For | cst.CompFor) and _self_field(node.target):
            bump(_self_field(node.target))
    return counts


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


def _fresh_attribute(file: ParsedFile, cls: cst.ClassDef, base: str) -> str:
    used = {node.attr.value for node in file.positions if isinstance(node, cst.Attribute)}
    name, number = base, 2
    while name in used:
        name, number = f"{base}_{number}", number + 1
    return name
