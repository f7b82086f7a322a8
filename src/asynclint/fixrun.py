"""The edge around the pure fixer: discover and read the files, read installed code in deep mode,
fix in memory (:mod:`asynclint.fixers.orchestrator`), write what changed. ``asynclint fix`` and
``asynclint check --fix`` both run it; the CLI only renders what it returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from asynclint.config import Config
from asynclint.fixers.orchestrator import FixOutcome, fix_sources
from asynclint.files import discover, display_path
from asynclint.model import FileError
from asynclint.project import covers, touches
from asynclint.runner import discovered_twins, follow_libraries, index, read_sources
from asynclint.twin_discovery import with_discovered
from asynclint.writer import WriteError, replace_source


@dataclass(frozen=True)
class FixRun:
    outcome: FixOutcome
    files: int  # files found under the paths
    read_errors: tuple[FileError, ...] = ()
    #: Files whose fixes could not be written (path as shown -> why); empty when nothing was written.
    write_errors: dict[str, str] = field(default_factory=dict)

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
) -> FixRun:
    """Fix the findings at or above ``config.min_severity`` under ``paths`` (only those touching
    the ``wanted`` files, when given) and, with ``write``, replace the changed files atomically.
    Raises ``PathError`` for a missing path."""
    files = discover(paths, config)
    sources, read_errors = read_sources(files, config.root)
    libraries, twins = [], []
    if config.follow_imports:  # what check reads from installed packages: twins, then library code
        twins = discovered_twins(sources, config)
        catalogue = with_discovered(config.catalogue(), twins)
        summaries = [s for s in index(sources, catalogue, 1) if not isinstance(s, FileError)]
        libraries = follow_libraries(summaries, config, catalogue=catalogue)
    only = None if wanted is None else (lambda finding: touches(finding, wanted))
    outcome = fix_sources(sources, config, unsafe=unsafe, libraries=libraries, twins=twins, only=only)
    if wanted is not None:  # a file elsewhere that cannot be read is not this change's problem
        read_errors = [e for e in read_errors if covers(wanted, e.path)]
        outcome = replace(outcome, errors=tuple(e for e in outcome.errors if covers(wanted, e.path)))
    write_errors: dict[str, str] = {}
    if write:
        real = {display_path(file, config.root): file for file in files}
        for shown, text in outcome.changed.items():
            try:
                replace_source(real[shown], outcome.original[shown], text)
            except WriteError as exc:
                write_errors[shown] = str(exc)
    return FixRun(outcome, len(files), tuple(read_errors), write_errors)
