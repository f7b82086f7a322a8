"""The SQL or script a call runs, read from the syntax alone: DB-API ``execute`` and the row reads
that follow it, and Selenium's ``execute_script``. :mod:`asynclint.analysis.index.recording` records
it per call site; the cost model grades it (``knowledge.costs.STATEMENT_GRADES``)."""

from __future__ import annotations

import ast

#: DB-API (PEP 249) methods that run a statement, and those that read the rows of the one last run.
STATEMENT_RUNS = frozenset({"execute", "executemany", "executescript"})
ROW_READS = frozenset({"fetchone", "fetchall", "fetchmany"})
#: Methods that run a script given as their first argument (Selenium's ``execute_script``),
#: graded by its text like a statement (``knowledge.costs.SCRIPT_GRADES``).
SCRIPT_RUNS = frozenset({"execute_script"})


def statement_text(node: ast.Call, constants: dict[str, str]) -> str | None:
    """The SQL an ``execute`` runs (or the script an ``execute_script`` runs), when the code says
    it: a string constant, or a name bound to one in the function; ``None`` when it is built or
    passed in at run time."""
    arg = node.args[0] if node.args else None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.Name):
        return constants.get(arg.id)
    return None
