"""Which call, in the function the chain passes through, runs the chain's next function: the
call naming it (``helper(x)``, ``Env(...)`` for its ``__init__``), a local bound to it once, a
registry field holding it, or a call by a name the code does not write (``getattr(api, name)``).
The fixers offload that call; where it can run several functions, each must be a plain ``def``."""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from asynclint.analysis.api import CallGraph, FunctionId
from asynclint.analysis.index.records import CallSite
from asynclint.fixers.cst.parsed import ParsedFile, last_name
from asynclint.knowledge.programs import ANY_NAME


def runs_at(graph: CallGraph, caller: FunctionId, site: CallSite) -> tuple[FunctionId, ...]:
    """Every function the graph says ``caller``'s call ``site`` runs."""
    return tuple(key for key, at in graph.callees(caller) if (at.line, at.col) == (site.line, site.col))


def plain_defs_run(graph: CallGraph, caller: FunctionId, site: CallSite) -> tuple[FunctionId, ...]:
    """:func:`runs_at`, when each is a project ``def`` (no ``async def``, whose coroutine would come
    back from a worker thread unawaited; no installed function, which the fix cannot follow); ()
    otherwise."""
    ran = runs_at(graph, caller, site)
    return () if any(graph.function(key).is_async or graph.is_library(key) for key in ran) else ran


def calls_at(
    file: ParsedFile, sites: tuple[CallSite, ...], callee: str, *located: cst.Call | cst.Attribute
) -> list[cst.Call]:
    """The calls at the graph's ``sites`` (or the ``located`` ones) that name ``callee``'s last
    part, or for a constructor (``Env.__init__``) its class (``Env(...)``): a call the graph says
    runs it through something else (``map(f, xs)``) is not one to offload."""
    owner, _, short = callee.rpartition(".")
    names = {short, owner.rpartition(".")[2]} if short == "__init__" and owner else {short}
    nodes = [*located, *(file.call_at(site.line, site.col, site.end_line, site.end_col) for site in sites)]
    return [node for node in nodes if isinstance(node, cst.Call) and last_name(node.func) in names]


def aliased_calls(
    file: ParsedFile, function: cst.FunctionDef, sites: tuple[CallSite, ...], graph: CallGraph, caller: FunctionId
) -> list[cst.Call]:
    """The graph's one call site when its call names a local the function assigns once
    (``run = strict if mode == "strict" else loose`` then ``run(x)``) and every project function
    the graph says runs there is a plain ``def``: offloading the local's call offloads whichever
    it holds. Anything else (a parameter, a name bound twice, an ``async def`` among them) is
    left to decline."""
    if len(sites) != 1:
        return []
    site = sites[0]
    node = file.call_at(site.line, site.col, site.end_line, site.end_col)
    if node is None or not isinstance(node.func, cst.Name):
        return []
    name = node.func.value
    bindings = [
        target
        for statement in m.findall(
            function.body, m.Assign() | m.AnnAssign() | m.AugAssign() | m.NamedExpr() | m.For() | m.AsName()
        )
        for target in bound_names(statement)
        if target == name
    ]
    parameters = {param.name.value for param in m.findall(function.params, m.Param()) if isinstance(param, cst.Param)}
    if (
        name in parameters
        or len(bindings) != 1
        or not m.findall(function.body, m.Assign(targets=[m.AssignTarget(target=m.Name(name))]))
    ):
        return []
    return [node] if plain_defs_run(graph, caller, site) else []


def held_call(
    file: ParsedFile, sites: tuple[CallSite, ...], graph: CallGraph, caller: FunctionId
) -> tuple[cst.Call, tuple[FunctionId, ...]] | None:
    """The graph's one call site when it calls what an attribute holds under another name (a
    registry's field filled at construction: ``LEDGER.prepare(path)`` runs ``seed``), with every
    project function the graph says runs there, when each is a plain ``def``: offloading the
    attribute's call offloads whichever it holds. ``None`` otherwise (left to decline)."""
    if len(sites) != 1:
        return None
    site = sites[0]
    node = file.call_at(site.line, site.col, site.end_line, site.end_col)
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)):
        return None
    ran = plain_defs_run(graph, caller, site)
    return (node, ran) if ran else None


def called_by_name(
    file: ParsedFile, sites: tuple[CallSite, ...], graph: CallGraph, caller: FunctionId
) -> tuple[cst.Call, tuple[FunctionId, ...]] | str:
    """The graph's one call site when it calls a method looked up by a name the code does not write
    out (``getattr(api, name)(**kwargs)``), with every project function the graph says runs there,
    when each is a plain ``def``: offloading that call offloads whichever method the name picks.
    Otherwise why not: an ``async def`` among them (its coroutine would come back from the thread
    unawaited), an installed function, or no such call where the graph says."""
    if len(sites) != 1 or sites[0].method != ANY_NAME:
        return "not one call by name"
    site = sites[0]
    node = file.call_at(site.line, site.col, site.end_line, site.end_col)
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Call) and last_name(node.func.func) == "getattr"):
        return "no `getattr(...)(...)` call there (the file changed since it was checked?)"
    ran = runs_at(graph, caller, site)
    if any(graph.function(key).is_async for key in ran):
        return "an `async def` is among the others, whose coroutine would come back from a thread unawaited"
    if not ran or any(graph.is_library(key) for key in ran):
        return "it can also pick an installed function, which the fix cannot follow"
    return node, ran


def bound_names(statement: cst.CSTNode) -> list[str]:
    targets: list[cst.CSTNode] = []
    if isinstance(statement, cst.Assign):
        targets = [t.target for t in statement.targets]
    elif isinstance(statement, cst.AnnAssign | cst.AugAssign | cst.NamedExpr | cst.For):
        targets = [statement.target]
    elif isinstance(statement, cst.AsName):
        targets = [statement.name]
    return [n.value for target in targets for n in m.findall(target, m.Name()) if isinstance(n, cst.Name)]
