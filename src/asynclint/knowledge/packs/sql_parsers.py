"""sqlglot: SQL parsed (and transpiled) in pure Python, on the loop.

``sqlglot.parse``, ``parse_one`` and ``transpile`` tokenize the statement and run sqlglot's
recursive-descent parser over it in Python (``transpile`` then generates the other dialect's text):
measured on this project's 2-core machine for a 150-character ``SELECT`` with a join, a ``GROUP BY``
and an ``ORDER BY``: 0.75 ms (``parse_one``), 1.2 ms (``parse``), 2.5 ms (``transpile``),
growing with the statement's length. A model's query checked per tool call is a stall of about a
millisecond between two model calls of seconds; it adds up where calls run back to back. sqlglot
has no async API; the parse holds the GIL.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_SOURCE = "source: pkg sqlglot 30.30.0 sqlglot/__init__.py (parse, parse_one, transpile: Dialect.parse, Parser)"

APIS: tuple[BlockingApi, ...] = (
    *many("cpu", "sql-parse", None, "parse parse_one transpile", "sqlglot.", source=_SOURCE),
)
