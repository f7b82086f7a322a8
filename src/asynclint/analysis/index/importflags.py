"""Module flags a guarded import sets: ``try: import X`` / ``HAS_X = True`` / ``except ImportError:
HAS_X = False``. A test of the flag says whether X is installed; the graph settles it where the
project declares X as a dependency (``Config.declared_packages``): there the branch for a missing X
never runs (split 17's longmemeval_context, split 19's tau2_bench_context_separated: an ``exec``
fallback for a missing RestrictedPython that their pyprojects require)."""

from __future__ import annotations

import ast
import re

from asynclint.analysis.index.guards import IMPORT_ERRORS

#: How the guard text (``CallSite.guards``) names "package X is installed": the flag's test with the
#: flag replaced by this prefix and X's top-level module name, normalised (:func:`installed_name`).
INSTALLED = "__installed__"


def installed_name(package: str) -> str:
    """The guard's name for "``package`` (a distribution or a top-level module) is installed":
    PEP 503's normalisation, with ``_`` for the separators an identifier cannot hold."""
    return INSTALLED + re.sub(r"[-_.]+", "_", package).lower()


def import_flags(tree: ast.Module) -> dict[str, str]:
    """Module-level flag -> the top-level module its guarded import imports, for the ``try``
    statements whose body imports one package and sets the flag ``True`` and whose ``ImportError``
    handler sets it ``False``. A flag set anywhere else at module level is not one."""
    flags: dict[str, str] = {}
    for stmt in tree.body:
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
        for name in _set_to(stmt.body, True):
            if any(name in _set_to(handler.body, False) for handler in handlers):
                flags[name] = next(iter(tops))
    assigned = [
        target.id
        for stmt in tree.body
        if isinstance(stmt, ast.Assign)
        for target in stmt.targets
        if isinstance(target, ast.Name)
    ]
    return {name: top for name, top in flags.items() if name not in assigned}


def flag_test(test: ast.expr, flags: dict[str, str]) -> str | None:
    """The guard text of ``test`` when it tests an import flag of ``flags`` (``HAS_X``, ``not
    HAS_X``): the flag as "X is installed"."""
    if isinstance(test, ast.Name) and test.id in flags:
        return installed_name(flags[test.id])
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
