"""The check pipeline's edge around the pure engine: find and read the files, consult the cache,
index (:mod:`asynclint.pool`), read installed code in deep mode (:mod:`asynclint.deep`), check."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

# CACHE_DIR is re-exported: benches and tests find the cache through it.
from asynclint.cache import (  # noqa: F401
    CACHE_DIR,
    LIBRARIES,
    cache_dir,
    encode,
    forget_shared,
    refusal,
)
from asynclint.cache_results import LayoutCache, ResultCache, Stamp, shown_path
from asynclint.cache_summaries import Decoded, SummaryCache, moved_lines
from asynclint.config import Config
from asynclint.deep import discovered_twins, follow_libraries, installed_beside
from asynclint.files import decode, discover, display_path
from asynclint.knowledge.frameworks import VERSIONED_DISTRIBUTIONS
from asynclint.libraries import Installed, declared_packages, eval_settings, nearest_pyproject, project_versions
from asynclint.model import FileError, Result
from asynclint.module_names import ModuleName, module_names
from asynclint.pool import Progress, collector_paused, default_jobs, index, quiet

if TYPE_CHECKING:  # imported where used: a run answered from the result cache needs none of them
    from asynclint.analysis.index.records import ModuleSummary
    from asynclint.engine import SourceFile
    from asynclint.knowledge.catalogue import Catalogue


def read_sources(
    files: Sequence[Path],
    root: Path,
    stamps: dict[str, Stamp] | None = None,
    names: Mapping[Path, ModuleName] | None = None,
) -> tuple[list[SourceFile], list[FileError]]:
    """The files' text, each named by its path from the project ``root``; ``stamps`` gets what
    each file read was (for the caches); ``names``: the module names of the project's files,
    when ``files`` are only some of them."""
    from asynclint.engine import SourceFile
    from asynclint.suppressions import fingerprint

    sources, errors = [], []
    names = names if names is not None else module_names(files, project_root=root)
    now = time.time_ns()
    for file in files:
        shown = display_path(file, root)
        try:
            with open(file, "rb") as handle:
                status = os.fstat(handle.fileno())  # taken first: a later edit is never missed
                data = handle.read()
            if stamps is not None:
                stamps[shown] = Stamp.of(status, data, now)
        except OSError as exc:
            errors.append(FileError(shown, f"cannot read: {exc.strerror or exc}"))
            continue
        try:
            text = decode(data)
        except UnicodeDecodeError as exc:
            errors.append(FileError(shown, f"cannot decode: not valid {exc.encoding} (byte offset {exc.start})"))
            continue
        except SyntaxError as exc:  # from the coding-cookie detection
            reason = "not valid utf-8 (no encoding declaration)" if "missing" in str(exc) else str(exc)
            errors.append(FileError(shown, f"cannot decode: {reason}"))
            continue
        if stamps is not None:
            stamps[shown] = replace(stamps[shown], suppressions=fingerprint(text))
        name = names[file]
        sources.append(SourceFile(shown, text, name.module, name.package, name.imports))
    return sources, errors


def _on_disk(shown: str, root: Path) -> Path:
    """The file a path as reports show it names (:func:`asynclint.files.display_path`)."""
    path = Path(shown)
    return path if path.is_absolute() else root / path


class _Texts(Mapping[str, str]):
    """The project's texts, read from the disk when asked: the rules read a file's text for the
    suppressions on its findings' lines (and keep those lines), and ASL901 each text once for its
    suppression comments. What is read from the disk is not kept: every text of the project at
    once, as ASL901's pass left them, was a tenth of a large project's peak."""

    def __init__(self, read: dict[str, str], on_disk: dict[str, Path]):
        self.read, self.on_disk = read, on_disk

    def __getitem__(self, path: str) -> str:
        if path in self.read:
            return self.read[path]
        if path not in self.on_disk:
            raise KeyError(path)
        try:
            return decode(self.on_disk[path].read_bytes())
        except (OSError, UnicodeDecodeError, SyntaxError):
            raise KeyError(path) from None  # changed since its summary was made: no suppressions

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self.read), **dict.fromkeys(self.on_disk)})

    def __len__(self) -> int:
        return len(self.read.keys() | self.on_disk.keys())


def run_check(
    paths: Sequence[str],
    config: Config,
    *,
    jobs: int | None = None,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    cache_directory: Path | None = None,
    progress: Progress = quiet,
    files: Sequence[Path] | None = None,
    decoded: Decoded | None = None,
) -> Result:
    """Discover, read, index (cached, parallel) and check. Raises ``PathError`` for missing paths.
    ``files``: what ``discover(paths, config)`` finds, when the caller found it already (a
    project's walk: :func:`asynclint.project.load_project`). ``decoded``: the summaries the
    caller's last run read from the cache or made (``check --watch``), taken as they are where
    their keys are this run's; this run's are kept there for the next.

    With ``config.follow_imports``, installed modules are looked for on ``search_path``
    (default: this interpreter's ``sys.path``). The cache lives in ``cache_directory`` (default:
    ``.asynclint_cache`` in the project root). ``progress`` is told each stage as it goes."""
    progress("finding files", 0, None)
    files = discover(paths, config) if files is None else list(files)
    directory = cache_directory or cache_dir(config.root)
    notes: list[str] = []
    refused = refusal(directory) if use_cache else None
    if refused is not None:  # a link or another user's: neither read nor written
        notes.append(refused)
        use_cache = False
    names: dict[Path, ModuleName] | None = None
    probed: dict[Path, bool] = {}  # the files the names depend on: the result is stale when one comes or goes
    installed = None
    if config.follow_imports:
        # One look at what is installed, for the result's key, the twins and the calls followed:
        # which top-level names are the project's own, the last run's when the files are its.
        layout = LayoutCache(directory, config.root, paths) if use_cache else None
        tops = layout.lookup(files) if layout is not None else None
        if tops is None:
            names = module_names(files, probed, config.root)
            tops = sorted({name.module.partition(".")[0] for name in names.values()})
            if layout is not None:
                layout.store(files, probed, tops)
        installed = installed_beside(search_path, tops)
    config = pinned(config, files, installed)
    # Deep mode's result also depends on what is installed: its key says so (a package
    # installed, upgraded or removed changes a directory on the search path).
    results = ResultCache(directory, config, paths, installed.fingerprint() if installed else "") if use_cache else None
    if results is not None:
        cached = results.lookup(files)
        forget_shared()
        if cached is not None:
            return replace(cached, root=config.root.as_posix())
    from asynclint.engine import SourceFile
    from asynclint.pipeline import check_project

    if names is None:
        names = module_names(files, probed, config.root)
    stamps: dict[str, Stamp] = {}
    library_files: list[Path] = []
    known = results.known if results is not None else {}
    imports = None
    graph = None  # deep mode's last graph, when it is the check's
    if installed is not None and use_cache:
        from asynclint.twin_discovery import ImportRecord

        # Which twins deep mode trusts depends on what every file imports: a file whose imports
        # are not recorded is read.
        imports = ImportRecord(directory.parent, directory.name, LIBRARIES)
        known = {path: stamp for path, stamp in known.items() if stamp.digest in imports}
    shown = {file: shown_path(file, config.root) for file in files} if known else {}
    # A file the last result saw unchanged keeps its summary's key (its recorded digest): it is
    # read only if that summary is not in the cache, or to show a finding's suppressions.
    unread = [file for file in files if shown.get(file) in known]

    progress("reading files", 0, len(files))
    sources, errors = read_sources(
        [f for f in files if shown.get(f) not in known], config.root, stamps if use_cache else None, names
    )
    catalogue = config.catalogue()
    if installed is not None:
        from asynclint.twin_discovery import with_discovered

        unread_digests = [known[shown[file]].digest for file in unread]
        twins = discovered_twins(
            sources, config, use_cache, search_path, directory, installed, imports, unread_digests, stamps
        )
        catalogue = with_discovered(catalogue, twins)
    cache = SummaryCache(directory, catalogue.fingerprint, decoded) if use_cache else None
    if results is not None and results.previous is not None and cache is not None and not errors:
        # Edited files whose summaries are what they were, and whose suppressions are too (what
        # the rules read of a text, the stamps' fingerprint): every input of the check is the last run's
        # -- the summaries, so the graph, its hot set and deep mode's reading; the texts as the
        # rules see them; the catalogue -- and the core is pure, so its result is the last one.
        # Files whose lines only moved (the same summary and suppressions but for where their
        # lines are) are read by the graph and the rules by equality and order of their lines: the
        # last result stands with those lines renumbered (asynclint.renumber).
        everything = {**{shown[file]: known[shown[file]] for file in unread}, **stamps}
        moved = _same_inputs(sources, results.previous.stamps, stamps, cache, catalogue, results.switches())
        if moved is not None:
            reused = results.reuse(everything, catalogue.fingerprint, moved)
            if reused is not None:
                progress(MOVED if moved else REUSED, 0, None)
                unread_sources = (SourceFile(shown[file], "", *_named(names[file])) for file in unread)
                cache.save(
                    {cache.key(source, everything[source.path].digest) for source in [*unread_sources, *sources]}
                )
                return replace(reused, root=config.root.as_posix(), notes=tuple(notes))
    summaries: list[ModuleSummary] = []
    missing: list[SourceFile] = []
    keys: dict[str, str] = {}  # shown path -> summary key
    on_disk: dict[str, Path] = {}  # files not read, by shown path
    # The summaries live until the end and hold no cycles: frozen, no collection walks them again
    # (a pause alone only put that off: the first collection after it walked every object made
    # meanwhile, and each full one while the graphs were built walked them all again -- a fifth of
    # a recheck's time on a large project). Unfrozen at the end, whatever happens.
    try:
        with collector_paused(freeze=True):
            if cache is not None and unread:
                late = []
                for file in unread:
                    path, name = shown[file], names[file]
                    source = SourceFile(path, "", name.module, name.package, name.imports)
                    key = cache.key(source, known[path].digest)
                    cached_summary = cache.get(source, key)
                    if cached_summary is None:
                        late.append(file)
                        continue
                    summaries.append(cached_summary)
                    keys[path], stamps[path], on_disk[path] = key, known[path], file
                more, more_errors = read_sources(late, config.root, stamps, names)
                sources.extend(more)
                errors.extend(more_errors)
                del more
            for source in sources:
                if cache is None:
                    missing.append(source)
                    continue
                key = keys[source.path] = cache.key(source, stamps[source.path].digest)
                cached_summary = cache.get(source, key)
                if cached_summary is not None:
                    summaries.append(cached_summary)
                else:
                    missing.append(source)
        indexed = index(missing, catalogue, jobs or default_jobs(), progress)
        for path, outcome in zip([source.path for source in missing], indexed, strict=True):
            if isinstance(outcome, FileError):
                errors.append(outcome)
            else:
                summaries.append(outcome)
                if cache:
                    cache.put(keys[path], outcome)
        gc.freeze()  # the summaries just made, likewise
        if cache:
            cache.save(set(keys.values()))
        # Neither the texts nor the cache's lines (the JSON of every summary, a third of a large
        # project's memory) are kept through deep mode and the graph: the rules read a file's text
        # only for the suppressions on its findings' lines (a few percent of files), from the disk
        # again. A file edited meanwhile is read as it is then: its suppressions, never its findings.
        # A file whose text holds no suppression comment (its stamp says) is never read for them:
        # to the rules (ASL901 goes through every file), its text is as good as empty.
        on_disk.update({source.path: _on_disk(source.path, config.root) for source in sources})
        quiet = {path: "" for path in on_disk if path in stamps and stamps[path].suppressions == ""}
        texts = _Texts(quiet, {path: file for path, file in on_disk.items() if path not in quiet})
        # Nor the files' names and paths (a module name's table of siblings per file, a path's
        # parts: 13 MB of a 7,552-file project): the rest of the run needs only how many there were.
        found_files = len(files)
        del sources, missing, cache, indexed, names, files, unread, shown, on_disk
        if config.follow_imports:
            progress("reading installed packages", 0, None)
            libraries, graph = follow_libraries(
                summaries,
                config,
                use_cache=use_cache,
                catalogue=catalogue,
                cache_directory=directory,
                installed=installed,
                summary_keys={summary.path: keys[summary.path] for summary in summaries} if keys else None,
            )
            summaries.extend(libraries)
            library_files = [Path(summary.path) for summary in libraries]
        # Everything is decoded: the tables of shared values go before the graph comes (or
        # before the check, when deep mode's last graph is the check's).
        forget_shared()
        progress("analysing the project", 0, None)
        # The graphs deep mode built and dropped (a level's, or the last when the check cannot reuse
        # it) may be cycles the collector has not reached yet: frozen, they stayed through the check.
        gc.collect()
        gc.freeze()  # and what deep mode added
        result = check_project(summaries, texts, config, catalogue, errors, graph)
    finally:
        gc.unfreeze()
    if results is not None and len(stamps) == found_files:  # a file that could not be read: ask again
        switches = {name for summary in summaries if summary.library is None for name, _ in summary.switch_fields}
        results.store(result, stamps, library_files, catalogue.fingerprint, probed, switches)
    return replace(result, root=config.root.as_posix(), notes=tuple(notes))


def _named(name: ModuleName) -> tuple[str, str, Sequence[tuple[str, str]]]:
    """What a :class:`~asynclint.engine.SourceFile` holds of its module name."""
    return name.module, name.package, name.imports


#: What a run answered from the last result says, when edits left every input of the check as it
#: was, and when they only moved lines.
REUSED = "edits leave every summary as it was: the last result stands"
MOVED = "edits only moved lines: the last result stands, renumbered"


def _same_inputs(
    sources: Sequence[SourceFile],
    previous: Mapping[str, Stamp],
    stamps: Mapping[str, Stamp],
    cache: SummaryCache,
    catalogue: Catalogue,
    switches: frozenset[str] | None = None,
) -> dict[str, dict[int, int]] | None:
    """Does every file read this run (the edited ones, and any unchanged one read again for its
    imports) give the check what it gave the last run, up to where its lines are: the same summary
    (the one cached for its last content, encoded alike, or alike but for an order-preserving
    renumbering of its lines: :func:`asynclint.cache_summaries.moved_lines`), and a text the rules
    read as they read the last one (the same suppressions on the same lines, or on the lines those
    moved to: :func:`asynclint.suppressions.fingerprint`, :func:`asynclint.renumber.line_map`)?
    Summaries are compared as the check reads them (:func:`as_read`; ``switches``: the last run's
    switch fields' names). ``None`` if not; else the files whose lines moved, each with where they
    moved. An edited file's new summary is put in ``cache`` either way (the check's if not)."""
    from asynclint.renumber import line_map

    moved = {}
    for source in sources:
        before, now = previous.get(source.path), stamps.get(source.path)
        if before is None or now is None:
            return None
        if before.digest == now.digest:
            continue  # the same bytes: the same summary
        if before.suppressions is None or now.suppressions is None:
            return None  # the text the last run checked was not read
        old = cache.get(source, cache.key(source, before.digest))
        if old is None:
            return None
        key = cache.key(source, now.digest)
        new = cache.get(source, key) or index([source], catalogue, 1)[0]
        if isinstance(new, FileError):
            return None
        cache.put(key, new)
        old, new = as_read(old, switches), as_read(new, switches)
        if before.suppressions == now.suppressions and encode(new) == encode(old):
            continue
        (was, lines_then), (is_now, lines_now) = moved_lines(old), moved_lines(new)
        if was != is_now:
            return None
        where = line_map(lines_then, lines_now, before.suppressions, now.suppressions)
        if where is None:
            return None  # the rules would read its suppressions otherwise than the last run did
        if any(line != to for line, to in where.items()):
            moved[source.path] = where
    return moved


def as_read(summary: ModuleSummary, switches: frozenset[str] | None) -> ModuleSummary:
    """``summary`` as the check reads it, given the names of the project's switch fields
    (``ModuleSummary.switch_fields``, every project file's; ``None``: not known): of the names its
    file writes (``ModuleSummary.field_writes``: a local, an attribute, a keyword), those only. Their
    one reader (``Instances.field_switches``) asks only whether a switch field's name is written
    anywhere in the project, so a written name that is no switch field's -- most edits' new local
    (``marker = 1`` in a body) -- changes no answer while the switch fields stay as they were (the
    rest of the summary, ``switch_fields`` included, is compared as it is). A test holds the readers
    to that one (test_incremental)."""
    if switches is None:
        return summary
    read = tuple(name for name in summary.field_writes if name in switches)
    return summary if len(read) == len(summary.field_writes) else replace(summary, field_writes=read)


def pinned(config: Config, files: Sequence[Path], installed: Installed | None) -> Config:
    """``config`` with what the project pins filled in where it says nothing: the frameworks'
    releases, the evaluation settings and the declared packages (``check`` and ``fix`` alike)."""
    if config.framework_versions and config.framework_settings and config.declared_packages:
        return config
    # What the framework's methods do depends on its release (knowledge.frameworks.SYNC_METHODS,
    # OFFLOADED_HOOKS, RESCHEDULED_HOOKS, UNAWAITED_RESULTS); how many rollouts a group holds, on its
    # evaluation defaults; whether a guarded import's fallback runs, on what the project depends on.
    # Pinned by the pyproject.toml nearest above what is checked (an environment's own, in a
    # repository of them), up to the project's root; part of the result cache's key.
    # The paths shared by all the files are those the first and the last in text order share
    # (every path between two that begin with "d/" begins with it): two paths split, not all.
    as_text = [str(file) for file in files]
    checked = Path(os.path.commonpath([min(as_text), max(as_text)])) if files else config.root
    pyproject = nearest_pyproject(checked if checked.is_dir() else checked.parent, config.root)
    return replace(
        config,
        framework_versions=config.framework_versions or project_versions(pyproject, VERSIONED_DISTRIBUTIONS, installed),
        framework_settings=config.framework_settings or eval_settings(pyproject),
        declared_packages=config.declared_packages or declared_packages(pyproject),
    )
