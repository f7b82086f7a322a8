"""Recipe ``with-block``: a blocking ``with`` block in ``async def`` becomes a small sync helper
defined just above it and run with ``await asyncio.to_thread(helper)``::

    with open(path) as f:                    def _read_data():
        data = json.load(f)          ->          with open(path) as f:
                                                     data = json.load(f)
                                                 return data

                                             data = await asyncio.to_thread(_read_data)

Safe: the helper is a closure, so it reads the same variables at the same moment; the names
the block assigns that the function uses afterwards are returned and rebound; exceptions come
back through the ``await``; names the function rebinds elsewhere get ``nonlocal`` in the helper,
names it declares ``global``/``nonlocal`` keep that declaration. When an exception from the block
can be caught in the function (a ``try`` or ``with`` around it), the names it assigns are assigned
in place (``nonlocal``), so a handler sees what was assigned before the exception. Unsafe when
the block changes state other rollouts see (attributes, module containers, ``global`` or
enclosing-function names), as for an offloaded helper. Declines when the block cannot move into
another function as it is: ``await``/``return``/``yield``/``break``, ``super()``, the event loop
(asyncio, anyio or trio under any name, or a loop obtained from them), or a later-used name it
assigns only on some paths.
"""

from __future__ import annotations

import libcst as cst

from asynclint.fixers.base import Decline, Edit, Fix, FixerSpec
from asynclint.fixers.cst.bindings import event_loop_use
from asynclint.fixers.cst.build import opens_for_writing
from asynclint.fixers.cst.names import block_names, names_bound, names_read
from asynclint.fixers.cst.parsed import ParsedFile, is_async, last_name
from asynclint.fixers.cst.references import thread_runner
from asynclint.fixers.project import FixProject
from asynclint.fixers.to_thread import shared_writes
from asynclint.knowledge.blocking import TEMP_FILE_MAKERS
from asynclint.knowledge.clients import CLIENT_WORDS
from asynclint.model import Finding

SPEC = FixerSpec(
    "with-block",
    True,
    "move the `with` block into a small sync helper run with `await asyncio.to_thread(...)`",
    answers=("to-thread", "async-subprocess", "async-client", "hoist-client"),
    priority=20,
)


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    located = project.locate(finding)
    if isinstance(located, Decline):
        return located
    file, call = located
    item = file.parent(call)
    statement = file.parent(item) if isinstance(item, cst.WithItem) and item.item is call else None
    if not isinstance(statement, cst.With):
        return Decline("not a `with` item", applicable=False)
    if statement.asynchronous is not None:
        return Decline("an `async with` block", applicable=False)
    function = file.enclosing_function(statement)
    if not isinstance(function, cst.FunctionDef) or not is_async(function):
        return Decline("the `with` block is not written in `async def`", applicable=False)
    names = block_names(file, [statement])
    if names.problems:
        return Decline(f"the `with` block {names.problems[0]}")
    if uses_loop := event_loop_use(file, statement):
        return Decline(f"the `with` block uses {uses_loop}, which works only on the event loop's thread")
    # A name the function declares `global` or `nonlocal` keeps that declaration in the helper;
    # it is neither returned nor rebound.
    declared = _declared(function, cst.Global), _declared(function, cst.Nonlocal)
    declared_global, declared_nonlocal = names.bound & declared[0], names.bound & declared[1]
    outer = declared_global | declared_nonlocal
    outside = _parameters(function) | _bound_outside(file, function, statement) | outer
    targets = _with_targets(statement)
    read_after = {
        name
        for name in names.bound
        if name
        in names_read(
            file, [function.body], skip=statement, also_skip=_other_withs_binding(file, function, name, statement)
        )
    }
    # Names the function already binds elsewhere are rebound in place (`nonlocal`); names only
    # the block binds and the function reads later come back as the helper's return value.
    shared = (read_after | (names.bound & names.read)) & outside - outer
    used_later = read_after - outside
    if _catchable(file, statement, function):
        # An exception from the block can be caught inside the function (a `try` or a `with`
        # around it), after which the names it assigned before raising are still read. Returned
        # values are lost with the exception, so those names are assigned in place (`nonlocal`);
        # the ones nothing else binds are also returned, which makes them the function's own.
        shared |= read_after - outer
    top_level = list(statement.body.body) if isinstance(statement.body, cst.IndentedBlock) else []
    unconditional = block_names(file, top_level).unconditional | targets
    partial = sorted(name for name in used_later if name not in unconditional)
    if partial:
        return Decline(f"the `with` block assigns `{partial[0]}` only on some paths")
    in_place, returned = sorted(shared), sorted(used_later)
    helper = file.fresh_name(_helper_name(file, statement, returned or in_place))
    # `state["doc"] = json.load(f)` ending the block: the helper returns the value and the store
    # happens on the loop, where other code sees it (only closing the resource ran after it).
    store = None if returned else _trailing_store(statement, names.bound)
    moved = statement if store is None else _returning(statement, store)
    body: list[cst.BaseStatement] = [moved.with_changes(leading_lines=[])]
    if in_place or declared_nonlocal:
        body.insert(0, cst.parse_statement(f"nonlocal {', '.join(sorted({*in_place, *declared_nonlocal}))}\n"))
    if declared_global:
        body.insert(0, cst.parse_statement(f"global {', '.join(sorted(declared_global))}\n"))
    if returned:
        body.append(cst.parse_statement(f"return {', '.join(returned)}\n"))
    leading = list(statement.leading_lines)
    container = file.parent(statement)
    first = isinstance(container, cst.IndentedBlock) and container.body and container.body[0] is statement
    if not first and not leading:
        leading.insert(0, cst.EmptyLine(indent=False))  # set the helper apart (a comment above does already)
    definition = cst.FunctionDef(
        name=cst.Name(helper),
        params=cst.Parameters(),
        body=cst.IndentedBlock(body=body),
        leading_lines=leading,
    )
    stored = file.code(store.targets[0].target) if store is not None else ""
    target = f"{', '.join(returned)} = " if returned else f"{stored} = " if stored else ""
    runner = thread_runner(file, (statement,))  # `trio.to_thread.run_sync` in a module running under trio
    if isinstance(runner, Decline):
        return runner
    run = cst.parse_statement(f"{target}await {runner.code}({helper})\n").with_changes(
        leading_lines=[cst.EmptyLine(indent=False)]
    )
    opened = file.code(call.func if isinstance(call, cst.Call) else call)
    kept = f", returning `{', '.join(returned)}`" if returned else ""
    kept = kept or (f", returning the value of `{stored}`" if stored else "")
    # On the loop the block's steps never interleaved with another rollout's; in a worker thread
    # they do: changing what other rollouts see is unsafe, as for an offloaded helper.
    changed = next(
        (f"`{name}`, declared `{'global' if name in declared_global else 'nonlocal'}`" for name in sorted(outer)),
        "",
    )
    if not changed and (written := shared_writes(file, moved.body, files=False)):
        changed = f"`{written}`"
    note = (
        f"the block changes shared state ({changed}): in a worker thread it runs concurrently with other rollouts"
        if changed
        else ""
    )
    return Fix(
        path=file.path,
        edits=(Edit(statement, cst.FlattenSentinel([definition, run])),),
        recipe="with-block",
        safe=not changed,
        note=note,
        title=f"moved the `with {opened}(...)` block into the helper `{helper}`, run in a worker thread{kept}",
        imports=runner.imports,
        claims=(finding,),
        claims_inside=True,
    )


def _trailing_store(statement: cst.With, bound: frozenset[str]) -> cst.Assign | None:
    """The block's last statement when it stores one value into an attribute or item
    (``state["doc"] = ...``) whose object and key the block neither binds nor computes with a
    call, so the store may run on the loop right after the block instead of inside it."""
    body = statement.body
    last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else None
    if not isinstance(last, cst.SimpleStatementLine) or len(last.body) != 1:
        return None
    assign = last.body[0]
    if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    if not isinstance(target, cst.Attribute | cst.Subscript):
        return None

    class Plain(cst.CSTVisitor):
        ok = True

        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Call | cst.Await | cst.NamedExpr | cst.Yield) or (
                isinstance(node, cst.Name) and node.value in bound
            ):
                self.ok = False
            return self.ok

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)  # an attribute's name is not a variable
            return False

    plain = Plain()
    target.visit(plain)
    return assign if plain.ok else None


def _returning(statement: cst.With, store: cst.Assign) -> cst.With:
    """``statement`` with its trailing store made ``return <value>``."""
    body = statement.body
    last = body.body[-1]
    returned = last.with_changes(body=[cst.Return(value=store.value)])
    return statement.with_changes(body=body.with_changes(body=[*body.body[:-1], returned]))


def _parameters(function: cst.FunctionDef) -> set[str]:
    params = function.params
    names = {p.name.value for p in (*params.params, *params.posonly_params, *params.kwonly_params)}
    names |= {star.name.value for star in (params.star_arg, params.star_kwarg) if isinstance(star, cst.Param)}
    return names


def _other_withs_binding(file: ParsedFile, function: cst.FunctionDef, name: str, statement: cst.With) -> list[cst.With]:
    """Other ``with ... as name`` blocks: reads of ``name`` in them see their own binding."""
    return [
        node
        for node in file.nodes_of(cst.With)
        if isinstance(node, cst.With)
        and node is not statement
        and name in _with_targets(node)
        and file.enclosing_function(node) is function
    ]


def _with_targets(statement: cst.With) -> set[str]:
    return {
        item.asname.name.value
        for item in statement.items
        if item.asname is not None and isinstance(item.asname.name, cst.Name)
    }


def _bound_outside(file: ParsedFile, function: cst.FunctionDef, statement: cst.With) -> set[str]:
    """Names the function binds outside the block (in an ``except`` around it too)."""
    return names_bound(file, [function.body], skip=statement)


def _declared(function: cst.FunctionDef, kind: type[cst.Global] | type[cst.Nonlocal]) -> set[str]:
    """Names ``function`` itself declares ``global`` / ``nonlocal`` (not its nested functions or classes)."""
    found: set[str] = set()

    class Declarations(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, kind):
                found.update(item.name.value for item in node.names)
            return super().on_visit(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

    function.body.visit(Declarations())
    return found


def _catchable(file: ParsedFile, statement: cst.With, function: cst.FunctionDef) -> bool:
    """Whether an exception from ``statement`` can be caught before it leaves ``function``: a
    ``try`` around it, or a ``with`` (its context manager may suppress the exception)."""
    for ancestor in file.ancestors(statement):
        if ancestor is function:
            return False
        if isinstance(ancestor, cst.Try | cst.TryStar | cst.With):
            return True
    return False


def _helper_name(file: ParsedFile, statement: cst.With, results: list[str]) -> str:
    """``_<verb>_<object>``: the verb from the context manager (read/write a file, fetch with a
    client), the object from what the block produces (a returned name, a ``state["key"]`` or
    ``self.attr`` it assigns)."""
    callee = statement.items[0].item
    name = last_name(callee.func) if isinstance(callee, cst.Call) else None
    verb, default = "run", "block"
    if isinstance(callee, cst.Call) and name == "open":  # open, io.open, gzip.open, Path.open, ...
        verb, default = ("write" if opens_for_writing(file, callee) else "read"), "file"
    elif name in TEMP_FILE_MAKERS:
        verb, default = "use", "temp"
    elif name == "Popen":
        default = "process"
    elif name == "connect":
        verb, default = "query", "db"
    elif name and any(word in name.lower() for word in CLIENT_WORDS):
        verb = "fetch"
    subject = results[0] if results else _assigned_key(statement) or default
    return f"_{verb}_{subject.strip('_')}"


def _assigned_key(statement: cst.With) -> str | None:
    body = statement.body
    for line in body.body if isinstance(body, cst.IndentedBlock) else ():
        if isinstance(line, cst.SimpleStatementLine) and isinstance(line.body[0], cst.Assign):
            target = line.body[0].targets[0].target
            if isinstance(target, cst.Subscript) and len(target.slice) == 1:
                index = target.slice[0].slice
                if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                    key = index.value.evaluated_value
                    if isinstance(key, str) and key.isidentifier():
                        return key
            if isinstance(target, cst.Attribute):
                return target.attr.value
            if isinstance(target, cst.Name):
                return target.value
    return None
