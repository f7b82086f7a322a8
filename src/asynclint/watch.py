"""``check --watch``: check again whenever a checked file or a configuration changes.

Polling, not file-system events: it needs nothing installed, works the same on every platform
and file system (network mounts, containers), and a few ``stat`` calls a second cost nothing
next to a check. Each round runs the whole ``check`` again; the summary cache makes that cost
about the changed files' indexing plus the project graph.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from asynclint.config import Config
from asynclint.files import PathError, discover

#: Seconds between two looks at the files.
INTERVAL = 0.5
#: Files beside the checked ones whose change changes the result.
CONFIGURATION_FILES = ("pyproject.toml", "asynclint.toml", ".gitignore")

Snapshot = frozenset[tuple[str, int, int]]


def snapshot(paths: Sequence[str], config: Config) -> Snapshot:
    """(file, modification time, size) of every file a check of ``paths`` reads, and of the
    configuration files of the project and its directories: a file added, removed or edited
    changes it."""
    try:
        files: Iterable[Path] = discover(paths, config)
    except PathError:  # a path named on the command line went away: that is a change too
        files = []
    directories = {config.root, *(scope.directory for scope in config.scopes)}
    if config.source is not None:
        directories.add(config.source.parent)
    candidates = [*files, *(directory / name for directory in directories for name in CONFIGURATION_FILES)]
    found = set()
    for file in candidates:
        try:
            status = file.stat()
        except OSError:
            continue
        found.add((str(file), status.st_mtime_ns, status.st_size))
    return frozenset(found)


def watch(check: Callable[[], None], look: Callable[[], Snapshot], *, interval: float = INTERVAL) -> None:
    """Run ``check``, then again each time ``look`` sees a change, until interrupted
    (``KeyboardInterrupt`` goes to the caller). The files are looked at before each check, so an
    edit made while it runs starts the next one."""
    while True:
        before = look()
        check()
        while look() == before:
            time.sleep(interval)
