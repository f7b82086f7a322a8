"""Recipe ``hoist-client``: a client built on every call -> one module-level client, built once::

    async def judge(...):                      _ASYNC_OPENAI = AsyncOpenAI(timeout=30.0)
        client = AsyncOpenAI(timeout=30.0)  ->
        ...                                    async def judge(...):
                                                   client = _ASYNC_OPENAI

Unsafe: every call now shares one client (its connection pool, headers, lifetime), and the
constructor's arguments are evaluated once, at import. Declines when they depend on anything
but module-level names (parameters, locals), when the function closes the client (the shared one
would be closed for everyone), and for ``with``/``async with`` items (the block closes it).
"""

from __future__ import annotations

import builtins
import re

import libcst as cst

from asynclint.fixers.analysis import FixProject, dotted, names_bound_in, names_read
from asynclint.fixers.base import Decline, Edit, Fix, ModuleStatement
from asynclint.model import Finding

_CLOSERS = frozenset({"close", "aclose", "__exit__", "__aexit__"})


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    located = project.locate(finding)
    if isinstance(located, Decline):
        return located
    file, call = located
    parent = file.parent(call)
    if isinstance(parent, cst.WithItem):
        return Decline("the client is a `with` item: its block closes it, so it cannot be shared")
    function = file.enclosing_function(call)
    if not isinstance(function, cst.FunctionDef):
        return Decline("the client is not built inside a function")
    constructor = dotted(call.func)
    if constructor is None:
        return Decline(f"`{file.code(call.func)}` is not a plain constructor name")
    local = names_bound_in(file, function)
    used = names_read(file, [call])
    module_level = file.module_level_names() | set(dir(builtins))
    depends = sorted(used & local) or sorted(used - module_level)
    if depends:
        return Decline(f"the client is built from `{depends[0]}`, which is not a module-level name")
    variable = _assigned_name(file, call)
    if variable is None:
        return Decline(
            "the client is not kept in a local variable (returned, stored or dropped): "
            "callers may rely on getting a new one"
        )
    escape = _escapes(file, function, variable)
    if escape:
        return Decline(f"`{variable}` {escape} in `{function.name.value}`; a shared client must not be")
    code = file.code(call.with_changes(lpar=[], rpar=[]))
    name = _existing(file, code) or file.fresh_name("_" + _upper_snake(_name_part(constructor)))
    anchors = tuple(sorted(used & file.module_level_names()))
    return Fix(
        path=file.path,
        edits=(Edit(call, cst.Name(name, lpar=call.lpar, rpar=call.rpar)),),
        recipe="hoist-client",
        safe=False,
        title=f"built `{constructor}` once, as the module-level `{name}`, instead of on every call",
        statements=(
            ModuleStatement(
                name, f"{name} = {code}", "One client for every call: building one costs a TLS setup.", after=anchors
            ),
        ),
        claims=(finding,),
        note="the client is now shared by every call and built at import",
    )


def _assigned_name(file, call: cst.Call) -> str | None:
    parent = file.parent(call)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        return parent.targets[0].target.value
    return None


def _escapes(file, function: cst.FunctionDef, variable: str) -> str | None:
    """How the local client leaves the function or is changed, if it does: only calls of its
    methods (``client.chat.create(...)``) and reads of its attributes are allowed."""
    for node in file.positions:
        if not (isinstance(node, cst.Name) and node.value == variable and file.enclosing_function(node) is function):
            continue
        parent = file.parent(node)
        if isinstance(parent, cst.AssignTarget) or isinstance(parent, cst.Assign):
            continue  # the assignment being hoisted
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value in _CLOSERS:
                return "is closed"
            grand = file.parent(parent)
            if isinstance(grand, cst.AssignTarget | cst.AugAssign) or (isinstance(grand, cst.Del)):
                return "is changed"
            continue
        if isinstance(parent, cst.WithItem):
            return "is closed by a `with` block"
        return "is handed on (returned, stored or passed)"
    return None


def _existing(file, code: str) -> str | None:
    """A module-level name already bound to exactly this constructor call (a previous round's)."""
    for statement in file.module.body:
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign):
            assign = statement.body[0]
            if (
                len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
                and file.code(assign.value) == code
            ):
                return assign.targets[0].target.value
    return None


def _name_part(constructor: str) -> str:
    """``AsyncOpenAI`` for ``openai.AsyncOpenAI``; ``httpx.Client`` keeps its module (``Client``
    alone does not say which)."""
    head, _, last = constructor.rpartition(".")
    generic = last.lower() in ("client", "session", "resource", "connect", "create_default_context")
    return constructor if generic and head else last


def _upper_snake(name: str) -> str:
    """``AsyncOpenAI`` -> ``ASYNC_OPENAI``, ``httpx.Client`` -> ``HTTPX_CLIENT``."""
    name = name.replace("OpenAI", "Openai")  # one word, not OPEN_AI
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name.replace(".", "_"))
    return "_".join(word.upper() for word in words) or "CLIENT"
