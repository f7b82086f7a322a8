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
    if variable and _closes(file, function, variable):
        return Decline(f"`{variable}` is closed in `{function.name.value}`; a shared client must stay open")
    # `AsyncOpenAI` -> `_ASYNC_OPENAI`; `httpx.Client` -> `_HTTPX_CLIENT` (the module says which client)
    name = file.fresh_name("_" + _upper_snake(constructor))
    anchors = tuple(sorted(used & file.module_level_names()))
    return Fix(
        path=file.path,
        edits=(Edit(call, cst.Name(name, lpar=call.lpar, rpar=call.rpar)),),
        recipe="hoist-client",
        safe=False,
        title=f"built `{constructor}` once, as the module-level `{name}`, instead of on every call",
        statements=(ModuleStatement(name, f"{name} = {file.code(call.with_changes(lpar=[], rpar=[]))}",
                                    "One client for every call: building one costs a TLS setup.", after=anchors),),
        claims=(finding,),
        note="the client is now shared by every call and built at import",
    )


def _assigned_name(file, call: cst.Call) -> str | None:
    parent = file.parent(call)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        return parent.targets[0].target.value
    return None


def _closes(file, function: cst.FunctionDef, variable: str) -> bool:
    for node in file.positions:
        if (
            isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == variable
            and node.attr.value in _CLOSERS and file.enclosing_function(node) is function
        ):
            return True
        if isinstance(node, cst.WithItem) and isinstance(node.item, cst.Name) and node.item.value == variable:
            return file.enclosing_function(node) is function
    return False


def _upper_snake(name: str) -> str:
    """``AsyncOpenAI`` -> ``ASYNC_OPENAI``, ``httpx.Client`` -> ``HTTPX_CLIENT``."""
    name = name.replace("OpenAI", "Openai")  # one word, not OPEN_AI
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name.replace(".", "_"))
    return "_".join(word.upper() for word in words) or "CLIENT"
