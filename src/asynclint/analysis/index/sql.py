"""The SQL or script a call runs, read from the syntax alone: DB-API ``execute`` and the row reads
that follow it, and Selenium's ``execute_script``. :mod:`asynclint.analysis.index.recording` records
it per call site; the cost model grades it (``knowledge.costs.STATEMENT_GRADES``)."""

from __future__ import annotations

import ast
import re

#: DB-API (PEP 249) methods that run a statement, and those that read the rows of the one last run.
STATEMENT_RUNS = frozenset({"execute", "executemany", "executescript"})
ROW_READS = frozenset({"fetchone", "fetchall", "fetchmany"})
#: The head of an f-string or a concatenation whose kind of statement its text fixes, whatever is put
#: in: a pragma named in its text, up to its argument or value (``f"PRAGMA table_info({table})"``),
#: or a table created from a column list (``'CREATE TABLE "' + kind + '" (' + columns + ")"``).
FIXED_HEAD = re.compile(
    r"\s*(?:PRAGMA\s+(?:\w+\s*\.\s*)?\w+\s*[(=]|CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TABLE\b)", re.IGNORECASE
)
#: Methods that run a script given as their first argument (Selenium's ``execute_script``),
#: graded by its text like a statement (``knowledge.costs.SCRIPT_GRADES``).
SCRIPT_RUNS = frozenset({"execute_script"})


def statement_text(node: ast.Call, constants: dict[str, str]) -> str | None:
    """The SQL an ``execute`` runs (or the script an ``execute_script`` runs), when the code says
    it: a string constant, or a name bound to one in the function, or an f-string or a concatenation
    whose head fixes its kind (:data:`FIXED_HEAD`; what is put in read as ``?``); ``None`` when it is
    built or passed in at run time."""
    found = literal_head(node, constants)
    if found is None:
        return None
    text, whole = found
    if whole:
        return text
    if not FIXED_HEAD.match(text):
        return None
    return "".join(str(part.value) if isinstance(part, ast.Constant) else "?" for part in _parts(node.args[0]))


def leading_keyword(node: ast.Call, constants: dict[str, str]) -> str | None:
    """The first word of the statement an ``execute`` runs, upper case, when the code writes it
    (:func:`literal_head`: ``f"ATTACH DATABASE '{path}' AS x"`` starts with ``ATTACH``); ``None`` for
    a statement passed in."""
    found = literal_head(node, constants)
    word = re.match(r"\s*(\w+)", found[0]) if found is not None else None
    return word.group(1).upper() if word is not None else None


def literal_head(node: ast.Call, constants: dict[str, str]) -> tuple[str, bool] | None:
    """The literal text the statement a call runs (its first argument) starts with, and whether that
    text is all of it: a string constant or a name bound to one (all of it), the literal head of an
    f-string or a ``+`` concatenation (not); ``None`` for a statement built or passed in otherwise."""
    arg = node.args[0] if node.args else None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value, True
    if isinstance(arg, ast.Name):
        text = constants.get(arg.id)
        return None if text is None else (text, True)
    parts = _parts(arg) if arg is not None else []
    if parts and isinstance(head := parts[0], ast.Constant) and isinstance(head.value, str):
        return head.value, False
    return None


def _parts(node: ast.expr) -> list[ast.expr]:
    """The pieces of an f-string or of a ``+`` concatenation, in order; ``[]`` for anything else."""
    if isinstance(node, ast.JoinedStr):
        return list(node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return (_parts(node.left) or [node.left]) + (_parts(node.right) or [node.right])
    return []
