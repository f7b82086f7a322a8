"""Recipe ``twin-call``: a call through a sync API becomes an awaited call of its async twin,
where the twin takes the same arguments::

    process = sb.exec("ls")                      ->  process = await sb.exec.aio("ls")
    reply = litellm.completion(model=m, ...)     ->  reply = await litellm.acompletion(model=m, ...)
    answer = llm.invoke(prompt)                  ->  answer = await llm.ainvoke(prompt)
    self.store = kvstore.Store(); self.store.get(k)  ->  kvstore.asyncio.Store(); await self.store.get(k)

The rewrites come from :data:`asynclint.knowledge.twins.TWIN_CALLS` (curated, each saying
whether the twin's parameters are the same) and from the twins discovered in installed packages
(:func:`asynclint.twin_discovery.twin_calls`, whose parameter lists were compared as read). A
class switched to its twin goes through the ``async-client`` machinery: the one construction in
the class (module, function) changes and every call through the object is awaited.

Unsafe: the twin is another implementation of the same API (its retries, errors and defaults
may differ), and a switched class changes every use of its object. Declines where a coroutine
would break the code around the call: outside ``async def``, in a generator expression, as a
``with`` item (the twin's needs ``async with``), iterated, or streaming (the twin's stream is
iterated with ``async for``); and wherever the twin's parameters are not known to match.
"""

from __future__ import annotations

import libcst as cst

from asynclint.fixers.async_client import switch_client
from asynclint.fixers.base import Decline, Edit, Fix, FixerSpec
from asynclint.fixers.cst.build import awaited
from asynclint.fixers.cst.imports import import_binding
from asynclint.fixers.cst.parsed import ParsedFile, dotted
from asynclint.fixers.cst.references import reference
from asynclint.fixers.project import FixProject, Site, call_of
from asynclint.knowledge.clients import ASYNC_CLIENTS
from asynclint.knowledge.twins import TwinCall, twin_call_of
from asynclint.model import Finding

SPEC = FixerSpec(
    "twin-call",
    False,
    "call the library's async twin with the same arguments and await it (`.aio`, `a`-prefixed, async class)",
    "the twin is another implementation of the API (its errors, retries and defaults may differ); a class"
    " switched to its twin changes every use of the object, and uses outside the file are not updated",
    # every recipe of a call (the twin of the curated table, a pack, or discovered in installed source)
    answers=(
        "asyncio-sleep",
        "to-thread",
        "async-subprocess",
        "async-client",
        "hoist-client",
        "deepcopy-memo",
        "process-pool",
        "pure-process-pool",
    ),
    with_twin=True,
)

RECIPE = "twin-call"


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    target = finding.fix.target if finding.fix else ""
    found = twin_call_of(target, project.twins)
    if found is None:
        return Decline(f"no rewrite to an async twin is known for `{target}`", applicable=False)
    twin, rest = found
    if twin.kind in ("class", "module") and twin.sync in ASYNC_CLIENTS:
        return Decline(f"`{twin.sync}` is switched by the async-client recipe", applicable=False)
    if not twin.same_signature:
        return Decline(f"`{twin.twin}` takes other arguments than `{twin.sync}`: {twin.differs}")
    if twin.kind in ("class", "module"):
        return switch_client(finding, project, twin.sync, twin.twin, RECIPE, lambda method: _unlike(twin, method))
    reason = _unlike(twin, rest)
    if reason:
        return Decline(reason)
    site = project.direct_site(finding, "the call is not written in `async def`, where its twin could be awaited")
    if isinstance(site, Decline):
        return site
    file = site.file
    call = call_of(site)
    if isinstance(call, Decline):
        return call
    reason = _breaks_a_coroutine(file, call, site)
    if reason:
        return Decline(reason)
    rewritten = _twin_func(file, call, twin, rest)
    if isinstance(rewritten, Decline):
        return rewritten
    func, imports, unused = rewritten
    new_call = call.with_changes(func=func)
    return Fix(
        path=file.path,
        edits=(Edit(call, awaited(file, call, new_call)),),
        recipe=RECIPE,
        safe=False,
        title=f"called the async twin `{file.code(func)}` and awaited it (was `{file.code(call.func)}`)",
        imports=imports,
        unused_imports=unused,
        claims=(finding,),
        note=f"the twin is a separate implementation of the same API ({twin.source})",
    )


def _unlike(twin: TwinCall, method: str) -> str:
    """Why the twin of ``method`` (a dotted path below the sync API, ``__init__`` for a class's
    constructor, "" for the function itself) may not take the same arguments ("" when it does)."""
    first = method.partition(".")[0]
    if first in twin.local:
        return f"`{first}` is not a coroutine on `{twin.twin}`: what it returns is used differently there"
    if twin.methods is None:
        return ""
    if "." in method:
        return f"`{method}` goes through an attribute of `{twin.sync}`: its twin was not read"
    if first in twin.methods:
        return ""
    source = twin.source.removeprefix("discovered: ")
    if twin.kind == "aio":  # one function both ways: only a generator is not awaited
        return f"`{twin.sync}.{method}.aio` is an async generator, iterated with `async for` (read in {source})"
    shown = twin.twin if method == "__init__" else f"{twin.twin}.{'a' if twin.kind == 'method' else ''}{method}"
    sync = twin.sync if method == "__init__" else f"{twin.sync}.{method}"
    return f"`{shown}` takes other arguments than `{sync}`, or is an async generator (read in {source})"


def _breaks_a_coroutine(file: ParsedFile, call: cst.Call, site: Site) -> str:
    """Why awaiting the twin where ``call`` stands would change what the code around it does."""
    parent = file.parent(call)
    if file.in_generator_expression(call, site.function):
        return "the call is inside a generator expression (an `await` there would make it async)"
    if isinstance(parent, cst.WithItem):
        return "the call's result is a context manager: the twin's is entered with `async with`"
    if isinstance(parent, cst.For | cst.CompFor) and parent.iter is call:
        return "the call's result is iterated: the twin's is iterated with `async for`"
    streaming = [arg for arg in call.args if arg.keyword and arg.keyword.value == "stream"]
    if any(not (isinstance(arg.value, cst.Name) and arg.value.value == "False") for arg in streaming):
        return "the call streams: the twin's stream is iterated with `async for`"
    return ""


def _twin_func(
    file: ParsedFile, call: cst.Call, twin: TwinCall, rest: str
) -> tuple[cst.BaseExpression, tuple, tuple] | Decline:
    """The callee of the twin, written where ``call`` is, with the imports that needs and the
    import the sync function may no longer need."""
    func = call.func
    if twin.kind == "prefix":  # a function: `litellm.completion` -> `litellm.acompletion`
        if rest:
            return Decline(f"the call goes through what `{twin.sync}` returns, not to it", applicable=False)
        module, name = twin.twin.rpartition(".")[::2]
        if isinstance(func, cst.Attribute):
            return func.with_changes(attr=cst.Name(name)), (), ()
        found = reference(file, module, name, at=(call,))
        if isinstance(found, Decline):
            return found
        return cst.parse_expression(found.code), found.imports, import_binding(file, dotted(func) or "")
    parts = rest.split(".") if rest else []
    written = _trailing(func, len(parts))
    if written is None or [attribute.attr.value for attribute in written] != parts:
        return Decline(f"`{file.code(func)}` does not end in `.{rest}` as written", applicable=False)
    if twin.kind == "method":  # `llm.invoke` -> `llm.ainvoke`
        if len(parts) != 1:
            return Decline(f"`{rest}` is not a method of `{twin.sync}`", applicable=False)
        return written[0].with_changes(attr=cst.Name(f"a{parts[0]}")), (), ()
    if twin.kind == "aio":  # `sb.exec` -> `sb.exec.aio`
        if not parts:
            return Decline(f"`{twin.sync}` itself is called, not one of its methods", applicable=False)
        return cst.Attribute(value=func, attr=cst.Name("aio")), (), ()
    if twin.kind == "client-aio":  # `client.models.generate` -> `client.aio.models.generate`
        if not parts:
            return Decline(f"`{twin.sync}` itself is called, not one of its services", applicable=False)
        rebuilt: cst.BaseExpression = cst.Attribute(value=written[0].value, attr=cst.Name("aio"))
        for attribute in written:
            rebuilt = attribute.with_changes(value=rebuilt)
        return rebuilt, (), ()
    return Decline(f"no rewrite for a twin of kind `{twin.kind}`", applicable=False)


def _trailing(func: cst.BaseExpression, count: int) -> list[cst.Attribute] | None:
    """The last ``count`` attribute accesses of ``func``, outermost last (``a.b.c``, 2 -> ``.b``, ``.c``)."""
    found: list[cst.Attribute] = []
    node = func
    for _ in range(count):
        if not isinstance(node, cst.Attribute):
            return None
        found.append(node)
        node = node.value
    return found[::-1]
