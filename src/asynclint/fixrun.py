"""The edge around the pure fixer: discover and read the files, read installed code in deep mode,
fix in memory (:mod:`asynclint.fixers.orchestrator`), write what changed. ``asynclint fix`` and
``asynclint check --fix`` both run it; the CLI only renders what it returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from asynclint.config import Config
from asynclint.deep import discovered_twins, follow_libraries, installed_beside
from asynclint.files import discover, display_path, real_files
from asynclint.fixers.orchestrator import FixOutcome, fix_sources
from asynclint.interrupts import Deferred, Interrupted, raise_on_stop
from asynclint.io import remove_stale_temps
from asynclint.model import FileError
from asynclint.pool import index
from asynclint.project import covers, touches
from asynclint.runner import pinned, read_sources
from asynclint.twin_discovery import with_discovered
from asynclint.writer import WriteError, replace_source

if TYPE_CHECKING:
    from asynclint.analysis.index.records import ModuleSummary


@dataclass
class Writes:
    """What a fix run has rewritten so far, kept by its caller from before the run: a stop signal
    that lands anywhere after the writing began (past the last write, before the caller's next
    line) is reported with the files it lists, which each write adds to while signals wait."""

    written: list[str] = field(default_factory=list)
    planned: int = 0  # the files the run set out to rewrite


@dataclass(frozen=True)
class FixRun:
    outcome: FixOutcome
    files: int  # files found under the paths
    read_errors: tuple[FileError, ...] = ()
    #: Files whose fixes could not be written (path as shown -> why); empty when nothing was written.
    write_errors: dict[str, str] = field(default_factory=dict)
    #: Symbolic links to files outside the paths, left alone: (link, where it points).
    skipped: tuple[tuple[Path, Path], ...] = ()
    #: The files rewritten (as shown), and the stop signal that ended the writing early, if one did.
    written: tuple[str, ...] = ()
    stopped: Interrupted | None = None

    @property
    def errors(self) -> tuple[FileError, ...]:
        """Files that could not be read or analysed."""
        return (*self.read_errors, *self.outcome.errors)


def run_fix(
    paths: Sequence[str],
    config: Config,
    *,
    unsafe: bool = False,
    wanted: frozenset[str] | None = None,
    write: bool = True,
    cache_directory: Path | None = None,
    writes: Writes | None = None,
) -> FixRun:
    """Fix the findings at or above ``config.min_severity`` under ``paths`` (only those touching
    the ``wanted`` files, when given) and, with ``write``, replace the changed files atomically.
    A file reached through a symbolic link is fixed at its real path, once, when that lies under
    ``paths``. Raises ``PathError`` for a missing path, and :class:`Interrupted` when a stop
    signal comes before anything is written; one that comes while writing lets the file being
    written finish and stops before the next (``FixRun.stopped``). ``writes``, the caller's record
    of what was rewritten, is filled as the files are."""
    with raise_on_stop():  # nothing is written yet: a stop signal ends the run at once
        files, skipped = real_files(discover(paths, config), paths)
        sources, read_errors = read_sources(files, config.root)
        # The project's pins, as check reads them: which hooks run on the loop, and whether a
        # root made `async def` is awaited by every release it admits (UNAWAITED_RESULTS).
        tops = {source.module.partition(".")[0] for source in sources}
        installed = installed_beside(None, tops) if config.follow_imports else None
        config = pinned(config, files, installed)
        libraries: list[ModuleSummary] = []
        twins = []
        if config.follow_imports:  # what check reads from installed packages: twins, then library code
            twins = discovered_twins(sources, config, cache_directory=cache_directory)
            catalogue = with_discovered(config.catalogue(), twins)
            summaries = [s for s in index(sources, catalogue, 1) if not isinstance(s, FileError)]
            libraries, _ = follow_libraries(
                summaries, config, catalogue=catalogue, cache_directory=cache_directory, installed=installed
            )
        only = None if wanted is None else (lambda finding: touches(finding, wanted))
        outcome = fix_sources(sources, config, unsafe=unsafe, libraries=libraries, twins=twins, only=only)
    if wanted is not None:  # a file elsewhere that cannot be read is not this change's problem
        read_errors = [e for e in read_errors if covers(wanted, e.path)]
        outcome = replace(outcome, errors=tuple(e for e in outcome.errors if covers(wanted, e.path)))
    write_errors: dict[str, str] = {}
    if not write:
        return FixRun(outcome, len(files), tuple(read_errors), write_errors, tuple(skipped))
    real = {display_path(file, config.root): file for file in files}
    writes = writes if writes is not None else Writes()
    writes.planned = len(outcome.changed)
    written = writes.written
    # A stop signal now is recorded, not raised: the file being written is finished (or, if its
    # write fails, left as it was) and the run stops before the next one. One raised after the
    # last write finds every rewritten file in ``writes``.
    with Deferred() as signals:
        for directory in sorted({file.parent for file in files}):
            remove_stale_temps(directory)  # what a killed run left next to the files it rewrote
        for shown, text in outcome.changed.items():
            if signals.stopped:
                break
            try:
                replace_source(real[shown], outcome.original[shown], text)
                written.append(shown)
            except WriteError as exc:
                write_errors[shown] = str(exc)
        return FixRun(
            outcome, len(files), tuple(read_errors), write_errors, tuple(skipped), tuple(written), signals.stopped
        )
