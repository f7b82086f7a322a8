"""Recipe ``hoist-client``: a client built on every call -> one module-level client, built once,
on first use::

                                               @functools.cache
    async def judge(...):                      def _async_openai():
        client = AsyncOpenAI(timeout=30.0)  ->     return AsyncOpenAI(timeout=30.0)
        ...
                                               async def judge(...):
                                                   client = _async_openai()

Built on first use, not at import: constructors read what may not exist yet when the module is
imported (``os.environ["KEY"]`` in the arguments, ``OPENAI_API_KEY`` read by the SDK itself),
and the first call builds it when the original code did. A module-level name already bound to
the same constructor call is reused instead.

Unsafe: every call now shares one client (its connection pool, headers, lifetime), and the
constructor's arguments are evaluated once. Declines when they depend on anything but
module-level names (parameters, locals), when the function closes the client (the shared one
would be closed for everyone), and for ``with``/``async with`` items (the block closes it).
Waits a round when the same client is about to become async (``async-client``).
"""

from __future__ import annotations

import builtins
import re

import libcst as cst

from asynclint.fixers import async_client
from asynclint.fixers.base import ANYWHERE, Decline, Edit, Fix, FixerSpec, Import, ModuleStatement
from asynclint.fixers.cst.names import names_bound_in, names_read
from asynclint.fixers.cst.parsed import ParsedFile, dotted
from asynclint.fixers.cst.references import cached_getter, module_level_name_of
from asynclint.fixers.project import FixProject
from asynclint.knowledge.clients import CLOSERS, GENERIC_CONSTRUCTORS
from asynclint.model import Finding

SPEC = FixerSpec(
    "hoist-client",
    False,
    "build the client once, on first use, in a module-level `functools.cache` function, and reuse it",
    "one client is shared by every call (its connection pool, headers and lifetime)",
    answers=("hoist-client",),
    priority=30,
    placements=ANYWHERE,  # a client hoisted out of any function needs no `async def`
)


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    located = project.locate(finding)
    if isinstance(located, Decline):
        return located
    file, call = located
    if not isinstance(call, cst.Call):
        return Decline(f"`{file.code(call)}` is a property read, not a client built", applicable=False)
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
    waiting = _async_conversion_first(finding, project, call, variable)
    if waiting:
        return Decline(waiting, applicable=False)
    code = file.code(call.with_changes(lpar=[], rpar=[]))
    shared = module_level_name_of(file, code)  # a module-level client built eagerly, by hand
    if shared is not None:
        replacement: cst.BaseExpression = cst.Name(shared, lpar=call.lpar, rpar=call.rpar)
        how = f"reused the module-level `{shared}`"
        imports: tuple[Import, ...] = ()
        statements: tuple[ModuleStatement, ...] = ()
    else:
        base = "_" + _upper_snake(_name_part(constructor)).lower()
        comment = "One client for every call, built on first use: building one costs a TLS setup."
        getter = cached_getter(file, code, base, comment)
        if isinstance(getter, Decline):
            return getter
        replacement = cst.Call(cst.Name(getter.name), lpar=call.lpar, rpar=call.rpar)
        how = f"built `{constructor}` once, on first use, by the module-level `{getter.name}()`"
        imports, statements = getter.imports, getter.statements
    return Fix(
        path=file.path,
        edits=(Edit(call, replacement),),
        recipe="hoist-client",
        safe=False,
        title=f"{how} instead of on every call",
        imports=imports,
        statements=statements,
        claims=(finding,),
        note="one client is now shared by every call",
    )


def _async_conversion_first(finding: Finding, project: FixProject, call: cst.Call, variable: str) -> str:
    """When a call through this client is about to become async (the ``async-client`` recipe
    switches ``c = OpenAI()`` to ``AsyncOpenAI()`` in the same function), hoisting the sync client
    first would leave it sync: the conversion goes first, and the async client is hoisted next."""
    for other in project.findings:
        if other is finding or other.path != finding.path or other.fix is None or other.fix.recipe != "async-client":
            continue
        fixed = async_client.fix(other, project)
        if isinstance(fixed, Fix) and any(edit.node is call for edit in fixed.edits):
            return f"`{variable}` becomes the async client first (with --unsafe-fixes), then it is hoisted"
    return ""


def _assigned_name(file: ParsedFile, call: cst.Call) -> str | None:
    parent = file.parent(call)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
        return parent.targets[0].target.value
    return None


def _escapes(file: ParsedFile, function: cst.FunctionDef, variable: str) -> str | None:
    """How the local client leaves the function or is changed, if it does: only calls of its
    methods (``client.chat.create(...)``) and reads of its attributes are allowed."""
    for node in file.nodes_of(cst.Name):
        if not (isinstance(node, cst.Name) and node.value == variable and file.enclosing_function(node) is function):
            continue
        parent = file.parent(node)
        if isinstance(parent, cst.AssignTarget) or isinstance(parent, cst.Assign):
            continue  # the assignment being hoisted
        if isinstance(parent, cst.Attribute) and parent.value is node:
            if parent.attr.value in CLOSERS:
                return "is closed"
            grand = file.parent(parent)
            if isinstance(grand, cst.AssignTarget | cst.AugAssign) or (isinstance(grand, cst.Del)):
                return "is changed"
            continue
        if isinstance(parent, cst.WithItem):
            return "is closed by a `with` block"
        return "is handed on (returned, stored or passed)"
    return None


def _name_part(constructor: str) -> str:
    """``AsyncOpenAI`` for ``openai.AsyncOpenAI``; ``httpx.Client`` keeps its module (``Client``
    alone does not say which)."""
    head, _, last = constructor.rpartition(".")
    generic = last.lower() in GENERIC_CONSTRUCTORS
    return constructor if generic and head else last


def _upper_snake(name: str) -> str:
    """``AsyncOpenAI`` -> ``ASYNC_OPENAI``, ``httpx.Client`` -> ``HTTPX_CLIENT``."""
    name = name.replace("OpenAI", "Openai")  # one word, not OPEN_AI
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name.replace(".", "_"))
    return "_".join(word.upper() for word in words) or "CLIENT"
