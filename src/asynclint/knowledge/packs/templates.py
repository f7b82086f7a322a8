"""Jinja2 templates built where they are rendered: ``Template(source)`` and ``from_string`` compile on every call.

``jinja2.Template(source, ...)`` finds its environment in a small cache (``get_spontaneous_environment``)
but then, like ``Environment.from_string``, compiles the source on every call: Jinja's lexer and
parser in pure Python, its code generator writing a Python module, and ``compile``/``exec`` of that
module (``Environment.compile``, ``Template.from_code``). Nothing caches a template built from a
string. Measured here: a 12-line tool-output template with ``if``/``set``/filters 3.1 ms at best
(15 ms median on a loaded 2-core machine), a one-line ``Hello {{ name }}`` 0.6 ms, against 20 µs to
render the compiled template. An environment that writes ``Template(TEMPLATE).render(**kwargs)`` in
a per-turn helper pays the compile every turn; build the ``Template`` once (module level or
``load_environment``) and only render per call. ``Environment.get_template`` keeps what it loads
per name (``Environment.cache``): the first call per name reads the file and compiles it, later
ones find it there (with ``auto_reload``, after a ``stat`` of the file).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_JINJA = (
    "source: pkg Jinja2 3.1.6 jinja2/environment.py (Template.__new__: get_spontaneous_environment then "
    "env.from_string; from_string: self.compile(source) every call, no cache; _load_template: self.cache per "
    "loader and name); measured here: Template of a 12-line template 3.1 ms min / 15 ms median, of a one-line "
    "template 0.6 ms, render 20 µs"
)

APIS: tuple[BlockingApi, ...] = (
    *many(
        "cpu",
        "cpu-heavy",
        None,
        "Template Environment.from_string",
        "jinja2.",
        source=_JINJA,
        what="compiles a template",
    ),
    *many(
        "cpu",
        "load-once",
        None,
        "get_template select_template get_or_select_template",
        "jinja2.Environment.",
        source=_JINJA,
        what="loads and compiles a template (the first call per name)",
    ),
)
