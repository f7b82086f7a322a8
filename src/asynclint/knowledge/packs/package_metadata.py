"""Installed distributions' metadata, read through ``importlib.metadata`` (and its backport).

Nothing is cached but the directory listings: ``distribution(name)`` stats every ``sys.path``
entry (a ``FastPath`` re-lists a directory whose mtime changed) to find the ``.dist-info``
directory, and each use of what it finds reads a file again. ``version``, ``metadata`` and
``requires`` read and parse ``METADATA``; ``files`` reads and parses ``RECORD``;
``entry_points()`` and ``packages_distributions()`` read ``entry_points.txt``, ``top_level.txt``
(or ``RECORD``) and ``METADATA`` of every installed distribution. A ``Distribution``'s
``metadata``, ``version``, ``name``, ``requires``, ``files`` and ``entry_points`` are properties
that read their file on each access. No async API: a worker thread is the fix, or reading once
at start-up.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many, reads

_STDLIB = (
    "source: CPython 3.11.7 Lib/importlib/metadata/__init__.py (version, metadata, files, requires: "
    "Distribution.from_name then a read_text of METADATA or RECORD; packages_distributions and entry_points: "
    "a read_text per distribution of distributions(); FastPath.search stats each path entry)"
)
_BACKPORT = "https://importlib-metadata.readthedocs.io/en/latest/api.html (importlib_metadata 8.x: the same API)"
_MODULES = (("importlib.metadata", _STDLIB), ("importlib_metadata", _BACKPORT))
_ALL = "reads a metadata file of every installed distribution"

APIS: tuple[BlockingApi, ...] = tuple(
    api
    for module, source in _MODULES
    for api in (
        *many("fs", "disk-content", "to-thread", "version metadata files requires", f"{module}.", source=source),
        *many(
            "fs",
            "disk-content",
            "to-thread",
            "packages_distributions entry_points",
            f"{module}.",
            source=source,
            what=_ALL,
        ),
        *many("fs", "disk-metadata", "to-thread", "distribution", f"{module}.", source=source),
        *many("fs", "disk-metadata", "to-thread", "from_name", f"{module}.Distribution.", source=source),
        *reads(
            "fs",
            "disk-content",
            "to-thread",
            "metadata version name requires files entry_points",
            f"{module}.Distribution",
            source=source,
        ),
    )
)

RETURNS: dict[str, str] = {
    **{
        f"{module}.{factory}()": f"{module}.Distribution"
        for module, _ in _MODULES
        for factory in ("distribution", "Distribution.from_name")
    },
}
