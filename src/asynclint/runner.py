"""The edge around the pure engine: read files, consult the cache, index in parallel, check."""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

# CACHE_DIR is re-exported: benches and tests find the cache through it.
from asynclint.cache import (  # noqa: F401
    CACHE_DIR,
    LIBRARIES,
    LayoutCache,
    LibraryCache,
    ResultCache,
    Stamp,
    SummaryCache,
    cache_dir,
    decode as decode_record,
    encode,
    forget_shared,
    refusal,
    shown_path,
)
from asynclint.config import Config
from asynclint.files import (
    ROOT_MARK,
    ModuleName,
    decode,
    discover,
    display_path,
    module_names,
)
from asynclint.knowledge.frameworks import VERSIONED_DISTRIBUTIONS
from asynclint.libraries import Installed, LibraryFile, nearest_pyproject, project_versions
from asynclint.model import FileError, Result, Severity

if TYPE_CHECKING:  # imported where used: a run answered from the result cache needs none of them
    from asynclint.analysis.graph import ProjectGraph
    from asynclint.analysis.index.records import ModuleSummary
    from asynclint.engine import SourceFile
    from asynclint.knowledge.blocking import BlockingApi
    from asynclint.knowledge.catalogue import Catalogue
    from asynclint.twin_discovery import DiscoveredTwin, ImportRecord

#: Below this many files to index, worker start-up costs more than it saves.
PARALLEL_THRESHOLD = 48
#: Files a worker is sent at once. Each batch's summaries come back as one message, its bytes and
#: its strings alive together in the parent: a quarter of a worker's share of a 7,500-file project
#: was 900 files, tens of MB a message, and the heap they were made in stays the process's.
_MAX_CHUNK = 16


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
    from asynclint.suppressions import may_suppress

    sources, errors = [], []
    names = names if names is not None else module_names(files)
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
            stamps[shown] = replace(stamps[shown], suppressions=may_suppress(text))
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


def project_graph(summaries: Sequence[ModuleSummary], config: Config, catalogue: Catalogue) -> ProjectGraph:
    """:func:`asynclint.engine.project_graph`, imported when first asked for: a run answered
    from the result cache builds no graph, and needs neither the indexer nor the graph's code."""
    from asynclint.engine import project_graph as build

    return build(summaries, config, catalogue)


#: How many re-exports, star imports and base classes a name is followed through.
_MAX_RESOLVE_HOPS = 4096


class _Follower:
    """Deep mode: index the installed modules that hot code calls into, a call level at a time."""

    def __init__(self, installed: Installed, catalogue: Catalogue, cache: LibraryCache | None):
        self.installed, self.catalogue, self.cache = installed, catalogue, cache
        self.library: dict[str, ModuleSummary] = {}
        self.unreadable: set[str] = set()
        self.resolved: set[str] = set()

    def replay(self, modules: Sequence[str]) -> list[ModuleSummary] | None:
        """The summaries of ``modules`` (what a run with the same inputs read), all from the cache
        and unchanged since; ``None`` if any is not."""
        assert self.cache is not None
        summaries = []
        for module in modules:
            found = self.installed.find(module)
            summary = self.cache.get(found) if found is not None else None
            if summary is None:
                return None
            summaries.append(summary)
        return summaries

    def follow(self, project: Sequence[ModuleSummary], config: Config) -> list[ModuleSummary]:
        looked: set[str] = set()
        for _ in range(config.follow_depth):
            targets = self._external_calls(project, config) - looked
            looked |= targets
            before = len(self.library)
            for target in sorted(targets):
                self.resolve(target)
            if len(self.library) == before:
                break
        return [self.library[module] for module in sorted(self.library)]

    def _external_calls(self, project: Sequence[ModuleSummary], config: Config) -> set[str]:
        """What the project and the modules read so far call in installed code. The graph asked is
        the one `check` builds (summaries in path order, so lookups never depend on discovery
        order); it is dropped before the next level's is built, not kept alive beside it."""
        graph = project_graph([*project, *self.library.values()], config, self.catalogue)
        return graph.external_calls(self.catalogue)

    def resolve(self, name: str) -> None:
        """Index the module defining ``name``, through re-exports, and its class's bases. A work
        list, not recursion: star imports and base classes of real packages chain deeply (a
        recursive walk overflowed the stack on ``huggingface_hub``)."""
        pending = [(name, 0)]
        while pending:
            name, hops = pending.pop()
            if name in self.resolved or hops > _MAX_RESOLVE_HOPS:
                continue
            self.resolved.add(name)
            found = self.installed.locate(name)
            summary = self.load(found) if found else None
            if found is None or summary is None or name == found.module:
                continue
            head, _, rest = name[len(found.module) + 1 :].partition(".")
            exported = dict(summary.exports).get(head)
            if exported is not None and exported != f"{found.module}.{head}":
                pending.append((f"{exported}.{rest}" if rest else exported, hops + 1))
            elif exported is None and not self._defines(summary, head):
                # ``from ._impl import *``: the name may come from any of them.
                pending.extend(
                    (f"{source}.{head}.{rest}" if rest else f"{source}.{head}", hops + 1) for source in summary.stars
                )
            else:
                for info in summary.classes:
                    if info.qualname == head:  # inherited methods and __init__ live in the bases
                        pending.extend((base, hops + 1) for base in info.bases)

    @staticmethod
    def _defines(summary: ModuleSummary, name: str) -> bool:
        return (
            any(f.qualname == name for f in summary.functions)
            or any(c.qualname == name for c in summary.classes)
            or any(n == name for n, _ in summary.values)
        )

    def load(self, found: LibraryFile) -> ModuleSummary | None:
        if found.module in self.library:
            return self.library[found.module]
        if found.module in self.unreadable:
            return None
        summary = self.cache.get(found) if self.cache else None
        if summary is None:
            from asynclint.analysis.index.records import IndexError_
            from asynclint.analysis.index.walker import index_source

            try:
                text = decode(found.path.read_bytes())
                summary = index_source(text, found.path.as_posix(), found.module, found.package, self.catalogue)
            except (OSError, UnicodeDecodeError, SyntaxError, IndexError_):
                # Not the user's code: a library we cannot read is skipped, not reported.
                self.unreadable.add(found.module)
                return None
            summary = replace(summary, library=found.label)
            if self.cache:
                self.cache.put(found, summary)
        self.library[found.module] = summary
        return summary


_worker_catalogue: Catalogue | None = None


def _init_worker(apis: tuple[BlockingApi, ...], offload: dict[str, int]) -> None:
    from asynclint.knowledge.catalogue import Catalogue

    global _worker_catalogue
    _worker_catalogue = Catalogue(apis, offload)


def _summarize_in_worker(source: SourceFile) -> str | FileError:
    """The summary as the cache writes it: the parent decodes it with one copy of each string
    (pickled objects would arrive with a copy per file: half a large project's summaries)."""
    from asynclint.engine import summarize

    assert _worker_catalogue is not None
    outcome = summarize(source, _worker_catalogue)
    return outcome if isinstance(outcome, FileError) else encode(outcome)


def _received(outcome: str | FileError) -> ModuleSummary | FileError:
    from asynclint.analysis.index.records import ModuleSummary

    if isinstance(outcome, FileError):
        return outcome
    summary = decode_record(ModuleSummary, json.loads(outcome))
    assert isinstance(summary, ModuleSummary)  # what decode builds for the class it is given
    return summary


#: Told what a run is doing: (stage, items done, items in all or ``None`` when not counted).
Progress = Callable[[str, int, "int | None"], None]


def _quiet(stage: str, done: int, total: int | None) -> None:
    """The progress of a run nobody watches."""


def index(
    sources: Sequence[SourceFile], catalogue: Catalogue, jobs: int, progress: Progress = _quiet
) -> list[ModuleSummary | FileError]:
    from concurrent.futures import ProcessPoolExecutor

    from asynclint.engine import summarize

    if jobs <= 1 or len(sources) < PARALLEL_THRESHOLD:
        summaries = []
        for source in sources:
            summaries.append(summarize(source, catalogue))
            progress("indexing", len(summaries), len(sources))
        return summaries
    apis = tuple(catalogue.apis.values())
    initargs = (apis, catalogue.offload)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=initargs)
    try:
        chunk = max(1, min(_MAX_CHUNK, len(sources) // (jobs * 4)))
        # A forked worker shares the parent's memory until it writes to it, and the cyclic
        # collector writes to every container it walks: a worker's first full collection copied
        # the parent's heap (the files' names and texts) into each worker. What is frozen when the
        # workers are forked (the first task sent starts them all) is never walked.
        gc.freeze()
        try:
            outcomes = pool.map(_summarize_in_worker, sources, chunksize=chunk)
        finally:
            gc.unfreeze()
        summaries = []
        with _collector_paused():
            for outcome in outcomes:
                summaries.append(_received(outcome))
                progress("indexing", len(summaries), len(sources))
        return summaries
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)  # interrupted: the queued work is dropped
        raise
    finally:
        pool.shutdown(wait=True)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _installed(search_path: Sequence[str] | None, modules: Iterable[str]) -> Installed:
    """What is installed on ``search_path`` (default: this interpreter's ``sys.path``) beside
    the project whose modules are ``modules``."""
    own = {module.partition(".")[0].partition(ROOT_MARK)[0] for module in modules}
    return Installed(sys.path if search_path is None else search_path, own)


def follow_libraries(
    summaries: Sequence[ModuleSummary],
    config: Config,
    *,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    catalogue: Catalogue | None = None,
    cache_directory: Path | None = None,
    installed: Installed | None = None,
    project_key: str | None = None,
) -> list[ModuleSummary]:
    """Deep mode: summaries of the installed modules the project's hot code calls into, looked
    for in ``installed`` (default: on ``search_path``, by default this interpreter's ``sys.path``).

    ``project_key`` names the project's sources (the summary cache's key of each): a run with the
    same sources, configuration and installed packages as the last one reads the same modules,
    so the cache replays that run's list instead of finding it again call level by call level
    (a whole-project graph per level)."""
    catalogue = catalogue or config.catalogue()
    installed = installed or _installed(search_path, (summary.module for summary in summaries))
    directory = cache_directory or cache_dir(config.root)
    library_cache = LibraryCache(directory, catalogue.fingerprint) if use_cache else None
    follower = _Follower(installed, catalogue, library_cache)
    plan_key, libraries = None, None
    if library_cache is not None and project_key is not None:
        # Which rules run and what is shown does not change what is read.
        following = replace(config, select=("ALL",), ignore=(), severity={}, min_severity=Severity.LOW)
        plan_key = hashlib.sha256(f"{project_key}\0{following!r}\0{installed.fingerprint()}".encode()).hexdigest()
        planned = library_cache.plan(plan_key)
        libraries = follower.replay(planned) if planned is not None else None
    replayed = libraries is not None
    if libraries is None:
        libraries = follower.follow(summaries, config)
    if library_cache:
        library_cache.save()
        if plan_key is not None and not replayed:
            library_cache.save_plan(plan_key, [summary.module for summary in libraries])
    return libraries


def discovered_twins(
    sources: Sequence[SourceFile],
    config: Config,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    cache_directory: Path | None = None,
    installed: Installed | None = None,
    imports: ImportRecord | None = None,
    unread: Iterable[str] = (),
    stamps: Mapping[str, Stamp] | None = None,
) -> list[DiscoveredTwin]:
    """Deep mode also trusts the sync/async twins discovered in the installed packages the
    project imports (cached per distribution and version): see :mod:`asynclint.twin_discovery`.
    ``imports`` holds what the files of the digests ``unread`` import, the files not read."""
    from asynclint.twin_discovery import ImportRecord, TwinCache, twins_for

    installed = installed or _installed(search_path, (source.module for source in sources))
    directory = cache_directory or cache_dir(config.root)
    cache = TwinCache(directory.parent, directory.name, LIBRARIES) if use_cache else None
    imports = imports or ImportRecord(None)
    read = ((stamps[source.path].digest if stamps else None, source.text) for source in sources)
    return twins_for(imports.packages(unread, read, installed), installed, cache)


@contextlib.contextmanager
def _collector_paused(freeze: bool = False) -> Iterator[None]:
    """Decoding cached summaries makes millions of containers and no cycles: the cyclic
    collector, triggered by allocations, would walk the growing heap over and over (it took
    most of the time of reading a large project's cache). ``freeze``: what was made lives to
    the end of the run, so it is frozen before the collector runs again (whose first collection
    would walk all of it); the caller unfreezes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if enabled:
            gc.enable()


def run_check(
    paths: Sequence[str],
    config: Config,
    *,
    jobs: int | None = None,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    cache_directory: Path | None = None,
    progress: Progress = _quiet,
    files: Sequence[Path] | None = None,
) -> Result:
    """Discover, read, index (cached, parallel) and check. Raises ``PathError`` for missing paths.
    ``files``: what ``discover(paths, config)`` finds, when the caller found it already (a
    project's walk: :func:`asynclint.project.load_project`).

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
    installed = None
    if config.follow_imports:
        # One look at what is installed, for the result's key, the twins and the calls followed:
        # which top-level names are the project's own, the last run's when the files are its.
        layout = LayoutCache(directory, config.root, paths) if use_cache else None
        tops = layout.lookup(files) if layout is not None else None
        if tops is None:
            probed: dict[Path, bool] = {}
            names = module_names(files, probed)
            tops = sorted({name.module.partition(".")[0] for name in names.values()})
            if layout is not None:
                layout.store(files, probed, tops)
        installed = _installed(search_path, tops)
    if not config.framework_versions:
        # What the framework's methods do depends on its release (knowledge.frameworks.SYNC_METHODS,
        # OFFLOADED_HOOKS).
        # Pinned by the pyproject.toml nearest above what is checked (an environment's own, in a
        # repository of them), up to the project's root; part of the result cache's key.
        # The paths shared by all the files are those the first and the last in text order share
        # (every path between two that begin with "d/" begins with it): two paths split, not all.
        as_text = [str(file) for file in files]
        checked = Path(os.path.commonpath([min(as_text), max(as_text)])) if files else config.root
        pyproject = nearest_pyproject(checked if checked.is_dir() else checked.parent, config.root)
        config = replace(config, framework_versions=project_versions(pyproject, VERSIONED_DISTRIBUTIONS, installed))
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
        names = module_names(files)
    stamps: dict[str, Stamp] = {}
    library_files: list[Path] = []
    known = results.known if results is not None else {}
    imports = None
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
    cache = SummaryCache(directory, catalogue.fingerprint) if use_cache else None
    summaries: list[ModuleSummary] = []
    missing: list[SourceFile] = []
    keys: dict[str, str] = {}  # shown path -> summary key
    on_disk: dict[str, Path] = {}  # files not read, by shown path
    # The summaries live until the end and hold no cycles: frozen, no collection walks them again
    # (a pause alone only put that off: the first collection after it walked every object made
    # meanwhile, and each full one while the graphs were built walked them all again -- a fifth of
    # a recheck's time on a large project). Unfrozen at the end, whatever happens.
    try:
        with _collector_paused(freeze=True):
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
        quiet = {path: "" for path in on_disk if path in stamps and not stamps[path].suppressions}
        texts = _Texts(quiet, {path: file for path, file in on_disk.items() if path not in quiet})
        del sources, missing, cache, indexed
        if config.follow_imports:
            progress("reading installed packages", 0, None)
            project_key = hashlib.sha256("\0".join(sorted(keys.values())).encode()).hexdigest()
            libraries = follow_libraries(
                summaries,
                config,
                use_cache=use_cache,
                catalogue=catalogue,
                cache_directory=directory,
                installed=installed,
                project_key=project_key,
            )
            summaries.extend(libraries)
            library_files = [Path(summary.path) for summary in libraries]
        forget_shared()  # everything is decoded: the tables of shared values go before the graph comes
        progress("analysing the project", 0, None)
        gc.freeze()  # and what deep mode added
        result = check_project(summaries, texts, config, catalogue, errors)
    finally:
        gc.unfreeze()
    if results is not None and len(stamps) == len(files):  # a file that could not be read: ask again
        results.store(result, stamps, library_files)
    return replace(result, root=config.root.as_posix(), notes=tuple(notes))
