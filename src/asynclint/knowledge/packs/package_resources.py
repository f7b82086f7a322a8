"""Files shipped inside a package, read through ``importlib.resources`` (and its backport).

``files(package)`` gives a ``Traversable``: for a package installed on the file system a
``pathlib.Path`` (a ``MultiplexedPath`` of paths for a namespace package, a ``zipfile.Path``
inside a zip). ``joinpath``, ``/`` and ``iterdir()`` give Traversables again; ``read_text``,
``read_bytes`` and ``open`` read the file, as pathlib's do, and ``iterdir``/``is_file``/
``is_dir`` are a directory listing and a ``stat``. No async API: a worker thread is the fix. The
functional API (``read_text(package, resource)`` ...) opens and reads the same files.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_STDLIB = (
    "source: CPython 3.11.7 Lib/importlib/resources/abc.py (Traversable), _common.py (files), "
    "_legacy.py (read_text, read_binary, open_text, open_binary)"
)
_BACKPORT = "https://importlib-resources.readthedocs.io/en/latest/api.html (importlib_resources 6.x)"
_TRAVERSABLE = "importlib.resources.abc.Traversable"
_MODULES = ("importlib.resources", "importlib_resources")

APIS: tuple[BlockingApi, ...] = (
    *many("path", "disk-content", "to-thread", "read_text read_bytes open", f"{_TRAVERSABLE}.", source=_STDLIB),
    *many("path", "disk-metadata", "to-thread", "iterdir is_file is_dir", f"{_TRAVERSABLE}.", source=_STDLIB),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "read_text read_binary open_text open_binary",
        "importlib.resources.",
        source=_STDLIB,
    ),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "read_text read_binary open_text open_binary",
        "importlib_resources.",
        source=_BACKPORT,
    ),
)

RETURNS: dict[str, str] = {
    **{f"{module}.files()": _TRAVERSABLE for module in _MODULES},
    **{f"{module}.abc.Traversable": _TRAVERSABLE for module in _MODULES if module != "importlib.resources"},
    "importlib.abc.Traversable": _TRAVERSABLE,
    **{f"{_TRAVERSABLE}.{method}()": _TRAVERSABLE for method in ("joinpath", "__truediv__")},
}

ITEMS: dict[str, str] = {f"{_TRAVERSABLE}.iterdir()": _TRAVERSABLE}
