"""How a fix writes a module at the places it edits (as the file imports it, or with a new
import), and the runners, sleeps and cached getters built on that."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from asynclint.fixers.base import Decline, Import, ModuleStatement
from asynclint.fixers.cst.bindings import binding
from asynclint.fixers.cst.build import offload_call
from asynclint.fixers.cst.imports import alias_asname
from asynclint.fixers.cst.parsed import ParsedFile, alias_name, last_name
from asynclint.knowledge.asyncio_apis import EVENT_LOOP_LIBRARIES, SLEEPS, THREAD_RUNNERS


@dataclass(frozen=True)
class Reference:
    """How to write a module (or a name in it) at the places a fix edits, and the imports that needs."""

    code: str  # ``asyncio``, ``aio``, ``ProcessPoolExecutor``, ``concurrent.futures.ProcessPoolExecutor``
    imports: tuple[Import, ...] = ()


def reference(
    file: ParsedFile, module: str, name: str | None = None, at: tuple[cst.CSTNode, ...] = ()
) -> Reference | Decline:
    """An expression referring to ``module`` (or ``module.name``) wherever the nodes ``at`` are
    (the module itself when empty), for every fixer to write instead of a hard-coded name.

    An existing import is reused, under whatever name it binds (``import asyncio as aio`` ->
    ``aio``; ``import concurrent.futures`` -> ``concurrent.futures.ProcessPoolExecutor``), where
    nothing shadows it. Otherwise ``import module`` / ``from module import name`` is added,
    provided the name it binds is free in the module and at every place. When the name means
    something else there (a parameter called ``asyncio``, ``asyncio = None``), the fix declines
    rather than inventing an alias: like ruff's fixes, it does not rename around a clash, and the
    reason says how to make room (import it under a name of your choosing)."""
    wanted = f"{module}.{name}" if name else module
    places = tuple(at) or (file.module,)
    for local, code, target in _import_candidates(file, module, name):
        bindings = [binding(file, local, place) for place in places]
        if not all(b.target == target for b in bindings):
            continue
        if all(b.unconditional for b in bindings):
            return Reference(code)
        if not any(b.local for b in bindings) and local == (name or module.split(".")[0]) and code == (name or module):
            # only imported under a condition (`if TYPE_CHECKING:`): import it for real as well
            return Reference(code, (Import(module, name),))
    local = name or module.split(".")[0]
    for place in (file.module, *places):
        bound = binding(file, local, place)
        if not bound.free and not (name is None and bound.target == local and not bound.local):
            where = "in this module" if place is file.module else "where the fix would write it"
            instead = f"`import {module} as ...`" if name is None else f"`from {module} import {name} as ...`"
            return Decline(
                f"`{local}` is {bound.what} {where}, not `{wanted}`: import it under another name ({instead}) and"
                " fix again"
            )
    return Reference(name or module, (Import(module, name),))


def concurrency_library(file: ParsedFile) -> str | Decline:
    """The event-loop library the module's code runs under, from what it imports (any scope):
    asyncio when it imports asyncio (code using asyncio's own primitives runs on an asyncio loop,
    anyio's asyncio backend included), else trio, else anyio (whose runner works under either
    backend); a module importing none of them is taken to run under asyncio, as before.
    Declines when it imports both asyncio and trio: which loop runs a given function is unknown."""
    if file._library is not None:
        return file._library
    imported: set[str] = set()
    for node in file.nodes_of(cst.Import, cst.ImportFrom):
        if isinstance(node, cst.Import):
            imported.update(file.code(alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            imported.add(file.code(node.module).split(".")[0])
    libraries = imported & EVENT_LOOP_LIBRARIES
    if {"asyncio", "trio"} <= libraries:
        file._library = Decline("the module imports both asyncio and trio: cannot tell which event loop runs this code")
    else:
        file._library = next((library for library in ("asyncio", "trio", "anyio") if library in libraries), "asyncio")
    return file._library


def asyncio_only(file: ParsedFile, recipe: str) -> Decline | None:
    """A decline for a recipe written only for asyncio (an executor of the running loop, an
    asyncio client) in a module that runs under trio or anyio."""
    library = concurrency_library(file)
    if isinstance(library, Decline):
        return library
    if library != "asyncio":
        return Decline(f"the module runs under {library}; the {recipe} recipe is written for asyncio")
    return None


@dataclass(frozen=True)
class Runner:
    """How to run a sync call in a worker thread in one file: ``asyncio.to_thread``,
    ``trio.to_thread.run_sync`` or ``anyio.to_thread.run_sync``, written as the file imports it."""

    code: str
    imports: tuple[Import, ...]
    keywords: bool  # passes keyword arguments on (else they are bound with ``functools.partial``)
    file: ParsedFile

    def offload(self, call: cst.Call) -> tuple[cst.Call, tuple[Import, ...]] | Decline:
        """``runner(f, *args, **kwargs)`` for the call ``f(*args, **kwargs)``, with the imports it
        needs; for a runner that takes no keyword arguments, ``runner(functools.partial(f, *args,
        **kwargs))`` (the arguments are still evaluated on the loop, in the same order)."""
        if self.keywords or all(arg.keyword is None and arg.star != "**" for arg in call.args):
            return offload_call(call, self.code, (call.func,)), self.imports
        functools = reference(self.file, "functools", at=(call,))
        if isinstance(functools, Decline):
            return functools
        bound = offload_call(call, f"{functools.code}.partial", (call.func,))
        runner = cst.Call(func=cst.parse_expression(self.code), args=[cst.Arg(bound)])
        return runner, tuple(dict.fromkeys((*self.imports, *functools.imports)))

    def lambda_(self, body: cst.BaseExpression) -> cst.Call:
        """``runner(lambda: body)``: ``body`` evaluated whole in the thread."""
        return cst.Call(
            func=cst.parse_expression(self.code), args=[cst.Arg(cst.Lambda(params=cst.Parameters(), body=body))]
        )


def thread_runner(file: ParsedFile, at: tuple[cst.CSTNode, ...]) -> Runner | Decline:
    """The worker-thread runner of the module's event-loop library (see
    :func:`concurrency_library`), referable at the nodes ``at``."""
    library = concurrency_library(file)
    if isinstance(library, Decline):
        return library
    module, function, keywords = THREAD_RUNNERS[library]
    found = reference(file, module, at=at)
    if isinstance(found, Decline):
        return found
    return Runner(f"{found.code}.{function}", found.imports, keywords, file)


def sleep_reference(file: ParsedFile, at: tuple[cst.CSTNode, ...]) -> Reference | Decline:
    """``asyncio.sleep``, ``trio.sleep`` or ``anyio.sleep``, as the module's library has it."""
    library = concurrency_library(file)
    if isinstance(library, Decline):
        return library
    module, function = SLEEPS[library]
    found = reference(file, module, at=at)
    return found if isinstance(found, Decline) else Reference(f"{found.code}.{function}", found.imports)


def module_level_name_of(file: ParsedFile, code: str) -> str | None:
    """A module-level name bound to exactly the expression ``code`` (``HTTP = httpx.AsyncClient()``)."""
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


@dataclass(frozen=True)
class Getter:
    """A module-level function building one object on its first call, and what adding it takes."""

    name: str
    imports: tuple[Import, ...] = ()
    statements: tuple[ModuleStatement, ...] = ()  # empty when the file has it already


def cached_getter(file: ParsedFile, code: str, base: str, comment: str) -> Getter | Decline:
    """``@functools.cache def <name>(): return <code>``, for one object (a client) shared by every
    call and built on the first, not at import: its constructor may read what is not set yet when
    the module is imported (an API key), and builds it when the code it replaces did. The file's
    own getter returning exactly ``code`` (an earlier round's) is reused; else one named from
    ``base`` is added."""
    for statement in file.module.body:
        if (
            isinstance(statement, cst.FunctionDef)
            and not statement.params.params
            and statement.asynchronous is None
            and [last_name(d.decorator) for d in statement.decorators] == ["cache"]
            and isinstance(statement.body, cst.IndentedBlock)
            and len(statement.body.body) == 1
            and file.code(statement.body.body[0]).strip() == f"return {code}"
        ):
            return Getter(statement.name.value)
    functools = reference(file, "functools")
    if isinstance(functools, Decline):
        return functools
    name = file.fresh_name(base)
    made = ModuleStatement(name, f"@{functools.code}.cache\ndef {name}():\n    return {code}", comment)
    return Getter(name, functools.imports, (made,))


def _import_candidates(file: ParsedFile, module: str, name: str | None) -> list[tuple[str, str, str]]:
    """(name bound, code to write, what the name must be bound to) for the file's imports of
    ``module.name`` (first) and of ``module``, in any scope: :func:`reference` checks each where
    it would be used."""
    direct, via_module = [], []
    parent, _, leaf = module.rpartition(".")
    for node in file.nodes_of(cst.Import, cst.ImportFrom):
        if isinstance(node, cst.Import):
            for alias in node.names:
                spelled, asname = file.code(alias.name), alias_asname(alias)
                if spelled != module:
                    continue
                if asname:
                    via_module.append((asname, f"{asname}.{name}" if name else asname, module))
                else:
                    head = module.split(".")[0]
                    via_module.append((head, f"{module}.{name}" if name else module, head))
        elif isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            if isinstance(node.names, cst.ImportStar):
                continue
            source = file.code(node.module)
            for alias in node.names:
                imported, bound = file.code(alias.name), alias_name(alias)
                if name is not None and source == module and imported == name:
                    direct.append((bound, bound, f"{module}.{name}"))
                elif source == parent and imported == leaf:
                    via_module.append((bound, f"{bound}.{name}" if name else bound, module))
    return list(dict.fromkeys(direct + via_module))
