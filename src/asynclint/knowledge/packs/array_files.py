"""numpy's text and array files: a path is read or written on disk, lines or a buffer already in memory are parsed.

``numpy.loadtxt`` and ``numpy.genfromtxt`` open their first argument only when it is a ``str`` or
an ``os.PathLike`` (through ``numpy.lib._datasource.open``, which would also fetch a URL);
any other iterable (``reply.splitlines()``, an ``io.StringIO``) is read line by line in memory,
a parse as large as what it is handed. ``numpy.load`` opens a path but reads a file-like object it
is given. Graded here, deep mode does not follow them into ``DataSource``, whose ``urlopen``
branch only a URL takes. The writers (``save``, ``savez``, ``savetxt``, ``ndarray.tofile``) and
``fromfile`` write or read the file's contents.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_NPYIO = (
    "source: pkg numpy 2.4.6 numpy/lib/_npyio_impl.py (_read and genfromtxt: _datasource.open only for a str or "
    "os.PathLike fname, else the lines iterated; load: open(os.fspath(file)) unless it has read; save, savez, "
    "savetxt open a path)"
)
#: The first arguments with which the readers open a file: a path (a ``str`` is one to numpy).
_PATHS = frozenset({"builtins.str", "pathlib.Path", "pathlib.PurePath"})
#: What the readers do when handed lines or a buffer already in memory.
_LINES = "numpy.loadtxt[in memory]"
_BUFFER = "numpy.load[in memory]"

APIS: tuple[BlockingApi, ...] = (
    *(
        entry(f"numpy.{name}", "fs", "disk-content", "to-thread", source=_NPYIO, blocks_on=_PATHS, otherwise=_LINES)
        for name in ("loadtxt", "genfromtxt")
    ),
    entry(_LINES, "serialization", "payload", "to-thread", source=_NPYIO),
    entry("numpy.load", "fs", "disk-content", "to-thread", source=_NPYIO, blocks_on=_PATHS, otherwise=_BUFFER),
    entry(_BUFFER, "serialization", "payload", "to-thread", source=_NPYIO),
    *many("fs", "disk-content", "to-thread", "save savez savez_compressed savetxt fromfile", "numpy.", source=_NPYIO),
    entry("numpy.ndarray.tofile", "fs", "disk-content", "to-thread", source=_NPYIO),
)
