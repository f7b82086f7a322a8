"""Recipes ``process-pool`` and ``pure-process-pool``: CPU-heavy ``f(a, k=v)`` in ``async def``
-> ``await loop.run_in_executor(_PROCESS_POOL, functools.partial(f, a, k=v))`` with
``loop = asyncio.get_running_loop()`` and one module-level ``ProcessPoolExecutor``.

A worker thread would free the loop but not the GIL, which is the whole cost of CPU work; a
process does. In general that is unsafe: the function runs in another process, so its arguments
and result are pickled, and whatever it changes in its arguments or in module globals stays over
there. ``pure-process-pool`` is the knowledge base saying the callee is a library function whose
only effect is its result and whose inputs and result pickle to equal values (``sympy.sympify``,
``math_verify.verify``): safe, unless an argument may not pickle (a ``lambda``, a namespace
``dict``), which makes that one rewrite unsafe.
Both decline unless ``f`` is a picklable reference to a top-level function (a module-level ``def``
in this file or a function reached through an import, or a local bound once to one of them or to a
conditional choice between them), and for the callees the knowledge base says a worker process
cannot run (:data:`~asynclint.knowledge.blocking.NOT_PORTABLE`). A helper reached on the loop by
several routes goes to the pool from every one, in one fix (as to-thread offloads them all), or not
at all.

The pool is made with the ``spawn`` start method: the default on Linux before Python 3.14 is
``fork``, and forking a process that already runs threads (``asyncio.to_thread`` workers, client
libraries' threads) can deadlock the child (Python 3.12+ warns). Creating the pool lazily would
not avoid that: by the first call those threads exist. ``spawn`` is what macOS and Windows use
anyway (and Python 3.14 moves Linux to ``forkserver``, which starts workers the same way). The
cost: each worker imports the callee's module afresh (a forked one inherited it) and re-runs the
main script unless it is guarded by ``if __name__ == "__main__"``, as the launchers environments
run under (``vf-eval``, trainers, pytest) are.
"""

from __future__ import annotations

import builtins

import libcst as cst
from libcst.metadata import Assignment

from asynclint.fixers.base import ON_THE_CHAIN, Decline, Edit, Fix, FixerSpec, Import, ModuleStatement
from asynclint.fixers.cst.bindings import binding
from asynclint.fixers.cst.build import Replacing, awaited, offload_call, site_edit
from asynclint.fixers.cst.names import names_bound_in
from asynclint.fixers.cst.parsed import ParsedFile, dotted
from asynclint.fixers.cst.references import Reference, asyncio_only, reference
from asynclint.fixers.project import FixProject, Site, call_of
from asynclint.knowledge.asyncio_apis import LOOP_GETTERS
from asynclint.knowledge.blocking import NAMESPACE_KEYWORDS, NOT_PORTABLE
from asynclint.model import Finding

SPEC = (
    FixerSpec(
        "process-pool",
        False,
        "run it in a module-level `ProcessPoolExecutor` with `await loop.run_in_executor(...)`",
        "arguments and result cross a process boundary (they must pickle; changes the function makes"
        " to its arguments or to globals are not seen by the caller)",
        answers=("process-pool",),
        placements=ON_THE_CHAIN,
    ),
    FixerSpec(
        "pure-process-pool",
        True,
        "run the pure function in a module-level `ProcessPoolExecutor` with `await loop.run_in_executor(...)`",
        answers=("pure-process-pool",),
        placements=ON_THE_CHAIN,
        function="fix_pure",
    ),
)

POOL = "_PROCESS_POOL"


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    return _offload(finding, project, pure=False)


def fix_pure(finding: Finding, project: FixProject) -> Fix | Decline:
    return _offload(finding, project, pure=True)


def _offload(finding: Finding, project: FixProject, pure: bool) -> Fix | Decline:
    site = project.site(finding)
    if isinstance(site, Decline):
        return site
    file = site.file
    call = call_of(site)
    if isinstance(call, Decline):
        return call
    callee = dotted(call.func)
    qualified = _top_level(file, callee, call) if callee else None
    held = [qualified] if qualified is not None else _held_top_level(file, call.func)
    if not held:
        shown = file.code(call.func)
        return Decline(f"`{shown}` is not a picklable top-level function (a method, a local or an expression)")
    if barred := next((name for name in held if name in NOT_PORTABLE), None):
        return Decline(f"`{callee if qualified else barred}` {NOT_PORTABLE[barred]}")
    if site.placement != "direct":
        # A helper reached on the loop by other routes too (called by two rewards): every call of
        # it on the loop goes to the pool, or the finding stays (as to-thread does).
        routes = project.sites(finding)
        if isinstance(routes, Decline):
            return routes
        distinct = list({id(route.call): route for route in routes}.values())  # one call, two helpers
        if len(distinct) > 1:
            return _offload_routes(finding, site, distinct, pure)
    if file.in_generator_expression(call, site.function):
        return Decline("the call is inside a generator expression")
    made = _asyncio_and_pool(file, (call,))
    if isinstance(made, Decline):
        return made
    asyncio, (pool, statements, imports) = made
    loop_name, setup = _loop(file, site, asyncio.code)
    pooled = _pooled(file, call, pool, loop_name)
    if isinstance(pooled, Decline):
        return pooled
    offloaded, partial_imports = pooled
    imports = [*asyncio.imports, *imports, *partial_imports]
    edit = site_edit(site, awaited(file, call, offloaded), prelude=(setup,) if setup is not None else ())
    if pure and site.placement != "helper":
        doubt = _may_not_pickle(call)
    else:  # the project's own function (a helper up the chain, too): its effects are unknown
        doubt = "its arguments and result are pickled to and from a worker process"
    return Fix(
        path=file.path,
        edits=(edit,),
        recipe="pure-process-pool" if pure else "process-pool",
        safe=doubt is None,
        title=site.did(f"ran `{callee}` in the module-level process pool `{pool}`", " with `loop.run_in_executor`"),
        imports=tuple(imports),
        statements=statements,
        claims=(finding,),
        note=doubt or "",
        reserve=(site.function,) if setup is not None else (),  # one new `loop = ...` per function and round
    )


def _offload_routes(finding: Finding, site: Site, routes: list[Site], pure: bool) -> Fix | Decline:
    """Every call running the helper on the loop, each route's, to the one pool of the file: in
    an ``async def``, with a ``loop = asyncio.get_running_loop()`` of its own (one per function);
    a sync root made ``async def`` with all its calls at once; a ``lambda`` root returning the
    pool's future."""
    file, helper = site.file, site.helper or finding.facts.function
    if elsewhere := next((route for route in routes if route.file is not file), None):
        return Decline(
            f"`{helper}` runs on the loop by {len(routes)} routes, one in {elsewhere.file.path}:"
            " the process pool takes the calls off it in one file"
        )
    calls: list[cst.Call] = []
    for route in routes:
        call = call_of(route)
        if isinstance(call, Decline):
            return call
        callee = dotted(call.func)
        if (_top_level(file, callee, call) if callee else None) is None and not _held_top_level(file, call.func):
            return Decline(f"`{file.code(call.func)}` in `{route.name}` is not a picklable top-level function")
        if file.in_generator_expression(call, route.function):
            return Decline(
                f"`{helper}` is also called inside a generator expression in `{route.name}` (an `await` there"
                " would make it async): the call stays on the loop by that route"
            )
        calls.append(call)
    if any(_inside(file, inner, outer) for inner in calls for outer in calls if inner is not outer):
        return Decline(f"one call of `{helper}` is handed another's value")
    made = _asyncio_and_pool(file, tuple(calls))
    if isinstance(made, Decline):
        return made
    asyncio, (pool, statements, imports) = made
    imports = [*asyncio.imports, *imports]
    by_function: dict[int, list[tuple[Site, cst.Call]]] = {}
    for route, call in zip(routes, calls, strict=True):
        by_function.setdefault(id(route.function), []).append((route, call))
    edits: list[Edit] = []
    reserve: list[cst.CSTNode] = []
    for group in by_function.values():
        first, inline = group[0][0], f"{asyncio.code}.get_running_loop()"
        loop_name, setup = _loop(file, first, asyncio.code) if len(group) == 1 else (inline, None)
        replaced: dict[int, cst.BaseExpression] = {}
        for _, call in group:
            pooled = _pooled(file, call, pool, loop_name)
            if isinstance(pooled, Decline):
                return pooled
            imports += pooled[1]
            replaced[id(call)] = awaited(file, call, pooled[0])
        if first.placement == "root" and isinstance(first.function, cst.FunctionDef):
            updated = first.function.visit(Replacing(replaced))
            assert isinstance(updated, cst.FunctionDef)  # only calls inside it are replaced
            edits.append(Edit(first.function, updated.with_changes(asynchronous=cst.Asynchronous())))
            continue
        prelude = (setup,) if setup is not None else ()
        edits += [site_edit(route, replaced[id(call)], prelude, hoist=len(group) == 1) for route, call in group]
        reserve += [first.function] if setup is not None else []
    names = ", ".join(dict.fromkeys(f"`{route.name}`" for route in routes))
    made_async = sorted({r.name for r in routes if r.placement == "root" and not r.returns})
    title = f"ran {len(routes)} calls of `{helper}` in {names} in the module-level process pool `{pool}`"
    if made_async:
        title += f" (made {', '.join(f'`{name}`' for name in made_async)} `async def`)"
    return Fix(
        path=file.path,
        edits=tuple(edits),
        recipe="pure-process-pool" if pure else "process-pool",
        safe=False,  # the project's own helper: its effects are unknown
        title=title,
        imports=tuple(imports),
        statements=statements,
        claims=(finding,),
        note="its arguments and result are pickled to and from a worker process",
        reserve=tuple(reserve),
    )


def _inside(file: ParsedFile, inner: cst.CSTNode, outer: cst.CSTNode) -> bool:
    return any(ancestor is outer for ancestor in file.ancestors(inner))


def _asyncio_and_pool(
    file: ParsedFile, at: tuple[cst.CSTNode, ...]
) -> tuple[Reference, tuple[str, tuple[ModuleStatement, ...], list[Import]]] | Decline:
    """What every offload to the pool writes: ``asyncio`` as it is named at the calls ``at``, and
    the file's pool (:func:`_pool`); the decline where the file cannot have them."""
    if refused := asyncio_only(file, "process-pool"):
        return refused
    asyncio = reference(file, "asyncio", at=at)
    if isinstance(asyncio, Decline):
        return asyncio
    made = _pool(file)
    return made if isinstance(made, Decline) else (asyncio, made)


def _pool(file: ParsedFile) -> tuple[str, tuple[ModuleStatement, ...], list[Import]] | Decline:
    """The file's module-level process pool: its name, and the statement and imports making it
    when it has none yet."""
    existing = _existing_pool(file)
    if existing is not None:
        return existing, (), []
    pool = file.fresh_name(POOL)
    executor = reference(file, "concurrent.futures", "ProcessPoolExecutor")
    if isinstance(executor, Decline):
        return executor
    multiprocessing = reference(file, "multiprocessing")
    if isinstance(multiprocessing, Decline):
        return multiprocessing
    statement = ModuleStatement(
        pool,
        f'{pool} = {executor.code}(mp_context={multiprocessing.code}.get_context("spawn"))',
        "CPU-heavy calls run in worker processes; `spawn`, since forking a threaded process can deadlock.",
    )
    return pool, (statement,), [*executor.imports, *multiprocessing.imports]


def _pooled(file: ParsedFile, call: cst.Call, pool: str, loop: str) -> tuple[cst.Call, list[Import]] | Decline:
    """``call`` as ``loop.run_in_executor(pool, f, *args)`` (keyword arguments through
    ``functools.partial``), and the imports that needs."""
    if any(arg.keyword is not None or arg.star == "**" for arg in call.args):
        functools = reference(file, "functools", at=(call,))
        if isinstance(functools, Decline):
            return functools
        partial = offload_call(call, f"{functools.code}.partial", (call.func,))
        offloaded = offload_call(call.with_changes(args=[]), "loop.run_in_executor", (cst.Name(pool), partial))
        imports = list(functools.imports)
    else:
        offloaded, imports = offload_call(call, "loop.run_in_executor", (cst.Name(pool), call.func)), []
    if loop != "loop":
        offloaded = offloaded.with_changes(func=cst.parse_expression(f"{loop}.run_in_executor"))
    return offloaded, imports


def _may_not_pickle(call: cst.Call) -> str | None:
    """Why an argument of a pure function's call may not reach the worker process, if it may."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in NAMESPACE_KEYWORDS:
            return f"`{arg.keyword.value}=` may hold values that do not pickle"
        if isinstance(arg.value, cst.Lambda):
            return "a `lambda` argument does not pickle"
    return None


def _top_level(file: ParsedFile, callee: str, call: cst.CSTNode) -> str | None:
    """The qualified name ``callee`` refers to where ``call`` is, when that is a module-level
    function: something imported (at module level or in the function), a ``def`` of this file,
    or a builtin."""
    head, _, rest = callee.partition(".")
    bound = binding(file, head, call)
    if bound.target is not None:
        return f"{bound.target}.{rest}" if rest else bound.target
    if rest or bound.local:
        return None
    for statement in file.module.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == head:
            return head if statement.asynchronous is None else None
    if head in file.module_level_names():
        return None  # a module-level value, not a def: cannot tell what it is
    return f"builtins.{head}" if hasattr(builtins, head) and callable(getattr(builtins, head)) else None


def _held_top_level(file: ParsedFile, func: cst.BaseExpression) -> list[str]:
    """For a local bound once, by an assignment of a top-level function or a conditional choice
    between them (``run = strict if mode == "strict" else loose``): the qualified names of the
    functions it may hold, each read as :func:`_top_level` reads it where the value is evaluated.
    Whichever it holds pickles by reference. Empty for anything else (a parameter, a name bound
    twice, a method, a call's result)."""
    scope = file.scope(func) if isinstance(func, cst.Name) else None
    assignments = list(scope[func.value]) if scope is not None and isinstance(func, cst.Name) else []
    if len(assignments) != 1 or not isinstance(assignments[0], Assignment):
        return []
    target = file.parent(assignments[0].node)
    assign = file.parent(target)
    if not isinstance(target, cst.AssignTarget) or not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
        return []
    held = [_top_level(file, choice.value, choice) for choice in _choices(assign.value)]
    return [name for name in held if name is not None] if held and None not in held else []


def _choices(value: cst.BaseExpression) -> list[cst.Name]:
    """The names ``value`` evaluates to: itself, or each branch of a conditional expression ([] when
    a branch is anything but a name)."""
    if isinstance(value, cst.Name):
        return [value]
    if isinstance(value, cst.IfExp):
        body, orelse = _choices(value.body), _choices(value.orelse)
        return [*body, *orelse] if body and orelse else []
    return []


def _existing_pool(file: ParsedFile) -> str | None:
    for statement in file.module.body:
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign):
            assign = statement.body[0]
            value = assign.value
            if (
                isinstance(value, cst.Call)
                and (dotted(value.func) or "").endswith("ProcessPoolExecutor")
                and len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
            ):
                return assign.targets[0].target.value
    return None


def _loop(file: ParsedFile, site: Site, asyncio: str) -> tuple[str, cst.BaseStatement | None]:
    """The name of the running loop in the site's function, and the statement binding it
    (``None`` when an earlier statement already binds it, or when nothing can go before the call)."""
    bindings = [
        node
        for node in file.nodes_of(cst.Assign)
        if isinstance(node, cst.Assign)
        and any(dotted(t.target) == "loop" for t in node.targets)
        and file.enclosing_function(node) is site.function
    ]
    above = set(file.ancestors(site.call))
    for node in bindings:
        statement = file.statement_of(node)
        if (
            _is_get_loop(file, node.value)
            and file.positions[node].start.line < file.positions[site.call].start.line
            # bound in a block the call is inside too, so it always ran first (not in a branch)
            and statement is not None
            and file.parent(statement) in above
        ):
            return "loop", None
    get_loop = f"{asyncio}.get_running_loop()"
    rebinds_other = any(not _is_get_loop(file, node.value) for node in bindings)
    if site.placement == "root" or rebinds_other or file.statement_of(site.call) is None:
        return get_loop, None
    if isinstance(site.function, cst.FunctionDef) and "loop" in names_bound_in(file, site.function) and not bindings:
        return get_loop, None  # a parameter or loop variable named `loop`
    return "loop", cst.parse_statement(f"loop = {get_loop}\n")


def _is_get_loop(file: ParsedFile, value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.Call) or (called := dotted(value.func)) is None:
        return False
    head, _, rest = called.partition(".")
    target = binding(file, head, value).target
    return target is not None and f"{target}.{rest}" in LOOP_GETTERS
