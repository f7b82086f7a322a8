"""Disk caches read from the syntax alone: a module's functions that return nothing when a file is
missing and what it holds otherwise (a cache's readers), the ones that write files, and the
ready-return on a reader's result after which a body computes and writes the entry: that rest
runs on a cache miss, once per key per machine (the walk, :mod:`asynclint.analysis.index.statements`)."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from asynclint.analysis.index.guards import guard_holder, guard_target, presence_stripped
from asynclint.analysis.index.helpers import last_name
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.blocking import FILE_DELETE_METHODS, FILE_DELETES, FILE_WRITES

#: Letters of an ``open`` mode that write.
WRITE_MODES = frozenset("wax")


@dataclass(frozen=True)
class DiskCaches:
    """A module's cache readers (by the names its top level defines them under) and file writers:
    its functions, and its classes' methods as ``self.<name>`` (by name, whatever the class); and how
    it spells the calls that delete a file (:func:`delete_spellings`)."""

    readers: frozenset[str] = frozenset()
    writers: frozenset[str] = frozenset()
    deletes: frozenset[str] = frozenset()


def disk_caches(tree: ast.Module) -> DiskCaches:
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    defined = [node for node in tree.body if isinstance(node, functions)]
    methods = [
        ("self." + node.name, node)
        for cls in tree.body
        if isinstance(cls, ast.ClassDef)
        for node in cls.body
        if isinstance(node, functions)
    ]
    readers = frozenset(node.name for node in defined if _reads_cache(node))
    writers: set[str] = set()
    grown = True
    while grown:  # ``ensure`` calls ``write_json``, which opens a temporary file: both write
        grown = False
        for name, node in [*((node.name, node) for node in defined), *methods]:
            if name not in writers and writes_file(node.body, frozenset(writers)):
                writers.add(name)
                grown = True
    return DiskCaches(readers, frozenset(writers), delete_spellings(tree))


def delete_spellings(tree: ast.Module) -> frozenset[str]:
    """The dotted names this module calls :data:`~asynclint.knowledge.blocking.FILE_DELETES` by, after
    its imports: ``os.remove`` (``import os``), ``sh.rmtree`` (``import shutil as sh``), ``rmtree``
    (``from shutil import rmtree``), ``Path.unlink`` (``from pathlib import Path``)."""
    spelled: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Import):
            bound = [(alias.asname or alias.name, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            bound = [(alias.asname or alias.name, f"{node.module}.{alias.name}") for alias in node.names]
        else:
            continue
        for local, qualified in bound:
            spelled.update(
                local + name[len(qualified) :]
                for name in FILE_DELETES
                if name == qualified or name.startswith(f"{qualified}.")
            )
    return frozenset(spelled)


def cache_miss(caches: DiskCaches, body: list[ast.stmt], position: int) -> bool:
    """``body[position]`` returns a cache reader's result when it found one (``cached =
    load_profile(...)``, ``if cached is not None: return cached``, maybe inside ``if not force:``)
    and the rest of ``body`` writes a file and deletes none: the rest computes on a miss and fills
    the cache. A rest that writes nothing (the guard on a file something else makes) or deletes
    what it made (a scratch directory) is no cache."""
    return _cache_return(caches, body[:position], body[position]) and fills_file(caches, body[position + 1 :])


def fills_file(caches: DiskCaches, body: list[ast.stmt], after: list[ast.stmt] | None = None) -> bool:
    """``body`` (what runs on a miss) writes a file, and neither it nor ``after`` (what runs after it
    on the way out of the call, :func:`statements_after`) deletes one."""
    return writes_file(body, caches.writers) and not _deletes_file([*body, *(after or ())], caches.deletes)


def statements_after(block: list[ast.stmt], statements: Sequence[ast.stmt]) -> list[ast.stmt]:
    """What runs after the statement that holds ``block`` (an ``if``'s body) on the way out of
    ``statements`` (a function's own): the rest of its block, then of each block around it."""
    return _after(block, statements) or []


def _after(block: list[ast.stmt], statements: Sequence[ast.stmt]) -> list[ast.stmt] | None:
    """:func:`statements_after`, ``None`` when no statement of ``statements`` holds ``block``."""
    for position, stmt in enumerate(statements):
        rest = list(statements[position + 1 :])
        for inner in _blocks(stmt):
            deeper = [] if inner is block else _after(block, inner)
            if deeper is not None:
                return [*deeper, *rest]
    return None


def _blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The blocks of a compound statement that run in the function's own frame (none of a ``def``)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    blocks = [
        getattr(stmt, name) for name in ("body", "orelse", "finalbody") if isinstance(getattr(stmt, name, None), list)
    ]
    return blocks + [handler.body for handler in getattr(stmt, "handlers", ())]


def looks_for_file(test: ast.expr, ready: bool) -> bool:
    """``if path.exists(): return path`` (``ready``) or ``if not path.exists():`` around what makes
    the file: a file on disk is the cache (a download, a build's output), filled on a miss."""
    return guard_holder(guard_target(presence_stripped(test), ready)) == "<exists>"


def writes_file(body: list[ast.stmt], writers: frozenset[str]) -> bool:
    return any(_writes(node, writers) for stmt in body for node in walk(stmt) if isinstance(node, ast.Call))


def _cache_return(caches: DiskCaches, before: list[ast.stmt], stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.If) or stmt.orelse:
        return False
    last = stmt.body[-1]
    if not isinstance(last, ast.Return):  # ``if not force: cached = load(...); if cached: return cached``
        return _cache_return(caches, stmt.body[:-1], last)
    tested = guard_target(stmt.test, ready=True)
    return isinstance(tested, ast.Name) and any(_binds_read(earlier, tested.id, caches.readers) for earlier in before)


def _binds_read(stmt: ast.stmt, name: str, readers: frozenset[str]) -> bool:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target, value = stmt.targets[0], stmt.value
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        target, value = stmt.target, stmt.value
    else:
        return False
    return (
        isinstance(target, ast.Name)
        and target.id == name
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in readers
    )


def _reads_cache(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Returns ``None`` when a file is missing (``if not path.exists(): return None``) and a value
    otherwise, or returns what the file holds when it exists and ``None`` otherwise."""
    returns = [node for node in walk(function) if isinstance(node, ast.Return)]
    if not any(_none(node) for node in returns) or all(_none(node) for node in returns):
        return False
    for node in walk(function):
        if not (isinstance(node, ast.If) and isinstance(node.body[-1], ast.Return)):
            continue
        if guard_target(node.test, ready=False) == "<exists>" and _none(node.body[-1]):
            return True
        if guard_target(node.test, ready=True) == "<exists>" and not _none(node.body[-1]):
            return True
    return False


def _none(node: ast.Return) -> bool:
    return node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None)


def _writes(call: ast.Call, writers: frozenset[str]) -> bool:
    func = call.func
    name = last_name(func)
    if name == "open":
        mode = next((kw.value for kw in call.keywords if kw.arg == "mode"), None)
        if mode is None:
            position = 1 if isinstance(func, ast.Name) else 0  # ``open(p, "w")``, ``path.open("w")``
            mode = call.args[position] if len(call.args) > position else None
        return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and bool(WRITE_MODES & set(mode.value))
    if name in FILE_WRITES:
        return True
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return "self." + name in writers  # ``self._download(...)``
    return isinstance(func, ast.Name) and name in writers  # ``write_json(...)``


def _deletes_file(body: list[ast.stmt], deletes: frozenset[str]) -> bool:
    """A delete (``deletes``: how the module spells one) on the way out of every call; one in an
    ``except`` handler (removing a half-written temporary file) keeps the cache."""
    for stmt in body:
        if isinstance(stmt, ast.Try):
            if any(_deletes_file(part, deletes) for part in (stmt.body, stmt.orelse, stmt.finalbody)):
                return True
            continue
        for node in walk(stmt):
            if isinstance(node, ast.Call) and _deletes(node.func, deletes):
                return True
    return False


def _deletes(func: ast.expr, deletes: frozenset[str]) -> bool:
    if isinstance(func, ast.Attribute) and func.attr in FILE_DELETE_METHODS:
        return True  # ``work.unlink()``: a path's method, whatever the walk knows of the receiver
    return _dotted(func) in deletes


def _dotted(func: ast.expr) -> str:
    """``os.remove`` for ``os.remove``, ``rmtree`` for ``rmtree``; "" for anything else."""
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and (owner := _dotted(func.value)):
        return f"{owner}.{func.attr}"
    return ""
