"""Module flags a guarded import sets: ``try: import X`` / ``HAS_X = True`` / ``except ImportError:
HAS_X = False``. A test of the flag says whether X is installed; the graph settles it where the
project declares X as a dependency (``Config.declared_packages``): there the branch for a missing X
never runs (split 17's longmemeval_context, split 19's tau2_bench_context_separated: an ``exec``
fallback for a missing RestrictedPython that their pyprojects require)."""

from __future__ import annotations

import ast
import re
from collections import Counter

from asynclint.analysis.index.guards import IMPORT_ERRORS
from asynclint.analysis.index.helpers import none_test

#: How the guard text (``CallSite.guards``) names "package X is installed": the flag's test with the
#: flag replaced by this prefix and X's top-level module name, normalised (:func:`installed_name`).
INSTALLED = "__installed__"
#: How it names a flag imported from another module (:func:`flagged_name`).
FLAGGED = "__flag__"
#: How a module constant is named (PEP 8): the names imported from another module read as flags.
CONSTANT = re.compile(r"_?[A-Z][A-Z0-9_]*")


def installed_name(package: str) -> str:
    """The guard's name for "``package`` (a distribution or a top-level module) is installed":
    PEP 503's normalisation, with ``_`` for the separators an identifier cannot hold."""
    return INSTALLED + re.sub(r"[-_.]+", "_", package).lower()


def flagged_name(dotted: str) -> str:
    """The guard's name for the flag ``dotted`` (``pkg.compat.HAS_X``) another module imports: the
    graph binds it where the flag's own module says its package is installed (``ModuleSummary.flags``)."""
    return FLAGGED + re.sub(r"\W", "_", dotted)


def import_flags(tree: ast.Module) -> dict[str, str]:
    """Module-level flag -> the top-level module its guarded import imports, for the ``try``
    statements whose body (or ``else``) imports one package and sets the flag ``True`` and whose
    ``ImportError`` handler sets it ``False``, and for ``HAS_X = importlib.util.find_spec("x") is not
    None``. A flag set anywhere else at module level is not one."""
    flags: dict[str, str] = {}
    assigned = Counter(
        target.id
        for stmt in tree.body
        if isinstance(stmt, ast.Assign)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    )
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(name := stmt.targets[0], ast.Name):
            found = _found_spec(stmt.value)
            if found and assigned[name.id] == 1:
                flags[name.id] = found
        if not isinstance(stmt, ast.Try):  # an ``except*`` catches groups: no import's ``except``
            continue
        tops = {
            (stmt_import.module or "").split(".")[0]
            if isinstance(stmt_import, ast.ImportFrom)
            else alias.name.split(".")[0]
            for stmt_import in stmt.body
            if isinstance(stmt_import, (ast.Import, ast.ImportFrom)) and not getattr(stmt_import, "level", 0)
            for alias in stmt_import.names
        }
        if len(tops) != 1:
            continue
        handlers = [handler for handler in stmt.handlers if _catches_import_error(handler)]
        for name_set in _set_to(stmt.body, True) | _set_to(stmt.orelse, True):
            if not assigned[name_set] and any(name_set in _set_to(handler.body, False) for handler in handlers):
                flags[name_set] = next(iter(tops))
    return flags


def flag_guards(tree: ast.Module, package: str, own: dict[str, str]) -> dict[str, str]:
    """Name -> the guard text a test of it means: the module's own flags (``own``, from
    :func:`import_flags`), as "X is installed"; and the constants it imports from another module
    (``from .compat import HAS_X``), as that module's flag (:func:`flagged_name`), which the graph
    settles if it is one."""
    guards = {name: installed_name(top) for name, top in own.items()}
    for stmt in tree.body:
        if not isinstance(stmt, ast.ImportFrom) or (not stmt.module and not stmt.level):
            continue
        if stmt.level:  # ``from . import X``, ``from ..compat import X``: from this package or a parent
            parts = package.split(".")[: len(package.split(".")) - (stmt.level - 1)] if package else []
            base = ".".join([*parts, *([stmt.module] if stmt.module else [])])
        else:
            base = stmt.module or ""
        for alias in stmt.names:
            local = alias.asname or alias.name
            if CONSTANT.fullmatch(alias.name) and local not in guards:
                guards[local] = flagged_name(f"{base}.{alias.name}")
    return guards


def _found_spec(value: ast.expr) -> str | None:
    """``importlib.util.find_spec("x") is not None`` (or ``bool(find_spec("x"))``) -> ``x``."""
    tested = none_test(value)
    if tested is not None:
        if tested[1]:
            return None
        value = tested[0]
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "bool" and value.args:
        value = value.args[0]
    else:
        return None
    match value:
        case ast.Call(
            func=ast.Attribute(attr="find_spec") | ast.Name(id="find_spec"), args=[ast.Constant(str(module))]
        ):
            return module.split(".")[0]
    return None


def flag_test(test: ast.expr, flags: dict[str, str]) -> str | None:
    """The guard text of ``test`` when it tests a flag of ``flags`` (:func:`flag_guards`; ``HAS_X``,
    ``not HAS_X``)."""
    if isinstance(test, ast.Name) and test.id in flags:
        return flags[test.id]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = flag_test(test.operand, flags)
        return f"not ({inner})" if inner else None
    return None


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type else []
    return any(isinstance(kind, ast.Name) and kind.id in IMPORT_ERRORS for kind in caught)


def _set_to(body: list[ast.stmt], value: bool) -> set[str]:
    """The names ``body`` (a statement list, not nested) assigns the constant ``value``."""
    return {
        target.id
        for stmt in body
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and stmt.value.value is value
        for target in stmt.targets
        if isinstance(target, ast.Name)
    }
