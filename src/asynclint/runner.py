"""The edge around the pure engine: read files, consult the cache, index in parallel, check."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
import re
import signal
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from asynclint import __version__
from asynclint.config import Config
from asynclint.engine import SourceFile, project_graph, summarize
from asynclint.files import ROOT_MARK, decode, discover, display_path, module_names
from asynclint.index import IndexError_, ModuleSummary, index_source
from asynclint.io import CacheDir, UnsafeCache
from asynclint.libraries import Installed, LibraryFile, nearest_pyproject, project_versions
from asynclint.knowledge.blocking import BlockingApi
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import VERSIONED_DISTRIBUTIONS
from asynclint.model import FileError, Result, Severity
from asynclint.pipeline import check_project
from asynclint.twin_discovery import DiscoveredTwin, TwinCache, imported_packages, twins_for, with_discovered

#: Below this many files to index, worker start-up costs more than it saves.
PARALLEL_THRESHOLD = 48
CACHE_DIR = ".asynclint_cache"


def read_sources(files: Sequence[Path], root: Path) -> tuple[list[SourceFile], list[FileError]]:
    """The files' text, each named by its path from the project ``root``."""
    sources, errors = [], []
    names = module_names(files)
    for file in files:
        shown = display_path(file, root)
        try:
            data = file.read_bytes()
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
        name = names[file]
        sources.append(SourceFile(shown, text, name.module, name.package, name.imports))
    return sources, errors


def _analysis_fingerprint() -> str:
    """A digest of the code that shapes summaries, so an upgraded or edited indexer never
    reads summaries an older one wrote (the version number alone does not change in between)."""
    package = Path(__file__).parent
    digest = hashlib.sha256(__version__.encode())
    for source in sorted([package / "index.py", *(package / "knowledge").rglob("*.py")]):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def open_cache(root: Path, *parts: str, create: bool, refusals: list[str] | None = None) -> CacheDir | None:
    """``root/.asynclint_cache/parts...``, or None: missing (without ``create``), unwritable, or
    refused (a symbolic link or another user's: a checkout may bring one, see
    :class:`asynclint.io.CacheDir`), the reason then added to ``refusals``."""
    try:
        return CacheDir.open(root, CACHE_DIR, *parts, create=create)
    except UnsafeCache as exc:
        if refusals is not None and str(exc) not in refusals:
            refusals.append(str(exc))
        return None
    except OSError:
        return None  # missing, or a read-only checkout: a cold start, and nothing saved


class SummaryCache:
    """Summaries keyed by file content, the indexer's code and the knowledge base; one pickle
    per project."""

    def __init__(self, root: Path, catalogue: Catalogue):
        self.root = root
        self.name = f"summaries-{_analysis_fingerprint()}-{catalogue.fingerprint}.pickle"
        self.entries: dict[str, ModuleSummary] = {}
        self.dirty = False
        self.refusals: list[str] = []
        directory = open_cache(root, create=False, refusals=self.refusals)
        if directory is None:
            return
        with directory:
            try:
                loaded = _read_pickle(directory, self.name)
                if isinstance(loaded, dict):
                    self.entries = loaded
            except Exception:  # a missing, stale or corrupt cache is just a cold start
                self.entries = {}

    @staticmethod
    def key(source: SourceFile) -> str:
        digest = hashlib.sha256(source.text.encode("utf-8", "surrogatepass"))
        digest.update(f"\0{source.path}\0{source.module}\0{source.package}\0{source.imports}".encode())
        return digest.hexdigest()

    def get(self, source: SourceFile) -> ModuleSummary | None:
        return self.entries.get(self.key(source))

    def put(self, source: SourceFile, summary: ModuleSummary) -> None:
        self.entries[self.key(source)] = summary
        self.dirty = True

    def save(self, keep: set[str]) -> None:
        if not self.dirty or self.refusals:
            return
        self.entries = {k: v for k, v in self.entries.items() if k in keep}
        directory = open_cache(self.root, create=True, refusals=self.refusals)
        if directory is None:
            return
        with directory:
            try:
                directory.remove_stale_temps()
                try:
                    ignored = directory.read(".gitignore") == b"*\n"
                except OSError:
                    ignored = False
                if not ignored:
                    directory.write(".gitignore", "*\n")
                _write_pickle(directory, self.name, self.entries)
                for stale in directory.names():
                    if stale.startswith("summaries-") and stale.endswith(".pickle") and stale != self.name:
                        directory.remove(stale)  # written by another version or configuration
            except OSError:
                pass  # a read-only checkout still gets its findings


def _signing_key() -> bytes | None:
    """This user's secret for signing cache files, kept outside every project (created once).

    Unpickling runs code, and a cache directory can come with a checkout (a committed
    ``.asynclint_cache``, a pull request checked in CI): only files this user's asynclint wrote,
    i.e. signed with this key, are ever unpickled. ``None`` (no cache) when it cannot be kept."""
    home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key_file = Path(home) / "asynclint" / "cache-key"
    try:
        return key_file.read_bytes()
    except OSError:
        pass
    try:
        key_file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(32))
        return key_file.read_bytes()
    except FileExistsError:  # another process made it first
        return key_file.read_bytes()
    except OSError:
        return None


def _read_pickle(directory: CacheDir, name: str) -> object:
    """The value in a cache file this user's asynclint signed; raises on anything else."""
    key = _signing_key()
    data = directory.read(name)
    digest, payload = data[:32], data[32:]
    if key is None or not hmac.compare_digest(digest, hmac.new(key, payload, hashlib.sha256).digest()):
        raise ValueError(f"{directory.path / name}: not a cache file this user wrote")
    return pickle.loads(payload)


def _write_pickle(directory: CacheDir, name: str, value: object) -> None:
    key = _signing_key()
    if key is None:
        return  # nowhere to keep the key: no cache rather than an unverifiable one
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    directory.write(name, hmac.new(key, payload, hashlib.sha256).digest() + payload, mode=0o600)


class LibraryCache:
    """Summaries of installed modules, one pickle per distribution and version, each summary
    kept with its file's size and modification time: an editable install, or a file edited in
    place, changes under the same version number."""

    def __init__(self, root: Path, catalogue: Catalogue):
        self.root = root
        self.fingerprint = f"{_analysis_fingerprint()}-{catalogue.fingerprint}"
        self.packages: dict[str, dict[str, tuple[tuple[int, int], ModuleSummary]]] = {}
        self.dirty: set[str] = set()
        self.refusals: list[str] = []
        self.directory = open_cache(root, "libraries", create=False, refusals=self.refusals)

    def _file(self, name: str) -> str:
        return f"{name}-{self.fingerprint}.pickle"

    @staticmethod
    def _name(library: LibraryFile) -> str | None:
        if library.dist is None or library.version is None:
            return None  # not installed from a distribution: no version to key it by
        return f"{_safe(library.dist)}-{_safe(library.version)}"

    @staticmethod
    def _stamp(library: LibraryFile) -> tuple[int, int] | None:
        try:
            status = library.path.stat()
        except OSError:
            return None
        return status.st_size, status.st_mtime_ns

    def _package(self, name: str) -> dict[str, tuple[tuple[int, int], ModuleSummary]]:
        if name not in self.packages:
            self.packages[name] = {}
            if self.directory is not None:
                try:
                    loaded = _read_pickle(self.directory, self._file(name))
                    self.packages[name] = loaded if isinstance(loaded, dict) else {}
                except Exception:  # missing, stale or corrupt: analyse again
                    pass
        return self.packages[name]

    def get(self, library: LibraryFile) -> ModuleSummary | None:
        name = self._name(library)
        entry = self._package(name).get(library.module) if name else None
        if entry is None or not isinstance(entry, tuple) or entry[0] != self._stamp(library):
            return None  # not analysed yet, or the file changed since
        return entry[1]

    def put(self, library: LibraryFile, summary: ModuleSummary) -> None:
        name, stamp = self._name(library), self._stamp(library)
        if name and stamp:
            self._package(name)[library.module] = (stamp, summary)
            self.dirty.add(name)

    def _plan_file(self) -> str:
        return f"plan-{self.fingerprint}.json"

    def plan(self, key: str) -> list[str] | None:
        """The installed modules the last run read, if it had the same inputs (``key``)."""
        if self.directory is None:
            return None
        try:
            stored = json.loads(self.directory.read(self._plan_file()).decode("utf-8"))
        except (OSError, ValueError, RecursionError):
            return None
        modules = stored.get("modules") if isinstance(stored, dict) and stored.get("key") == key else None
        return modules if isinstance(modules, list) and all(isinstance(m, str) for m in modules) else None

    def save_plan(self, key: str, modules: Sequence[str]) -> None:
        directory = None if self.refusals else open_cache(self.root, "libraries", create=True, refusals=self.refusals)
        if directory is None:
            return
        with directory:
            try:
                directory.write(self._plan_file(), json.dumps({"key": key, "modules": list(modules)}))
                for stale in directory.names():
                    if stale.startswith("plan-") and stale.endswith(".json") and stale != self._plan_file():
                        directory.remove(stale)
            except OSError:
                pass  # a read-only checkout still gets its findings

    def save(self) -> None:
        if self.directory is not None:
            self.directory.close()
        directory = None if self.refusals or not self.dirty else open_cache(
            self.root, "libraries", create=True, refusals=self.refusals)
        if directory is None:
            return
        with directory:
            directory.remove_stale_temps()
            for name in sorted(self.dirty):
                try:
                    _write_pickle(directory, self._file(name), self.packages[name])
                    # Older analyses of this version are dead; other versions stay, as two
                    # environments with different versions may share the project directory.
                    for stale in directory.names():
                        if stale.startswith(f"{name}-") and stale.endswith(".pickle") and stale != self._file(name):
                            directory.remove(stale)
                except OSError:
                    pass  # a read-only checkout still gets its findings
        self.dirty.clear()


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.]+", "_", text)


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
            # The graph `check` builds (summaries in path order, so lookups never depend on discovery order).
            graph = project_graph([*project, *self.library.values()], config, self.catalogue)
            targets = graph.external_calls(self.catalogue) - looked
            looked |= targets
            before = len(self.library)
            for target in sorted(targets):
                self.resolve(target)
            if len(self.library) == before:
                break
        return [self.library[module] for module in sorted(self.library)]

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
            head, _, rest = name[len(found.module) + 1:].partition(".")
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
    global _worker_catalogue
    # Ctrl-C reaches the whole process group: the parent stops the run and reports it; a
    # worker's own KeyboardInterrupt would only print a traceback per worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker_catalogue = Catalogue(apis, offload)


def _summarize_in_worker(source: SourceFile) -> ModuleSummary | FileError:
    assert _worker_catalogue is not None
    return summarize(source, _worker_catalogue)


def index(sources: Sequence[SourceFile], catalogue: Catalogue, jobs: int) -> list[ModuleSummary | FileError]:
    if jobs <= 1 or len(sources) < PARALLEL_THRESHOLD:
        return [summarize(source, catalogue) for source in sources]
    apis = tuple(catalogue.apis.values())
    initargs = (apis, catalogue.offload)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=initargs)
    try:
        return list(pool.map(_summarize_in_worker, sources, chunksize=max(1, len(sources) // (jobs * 4))))
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
    notes: list[str] | None = None,
    installed: Installed | None = None,
    project_key: str | None = None,
) -> list[ModuleSummary]:
    """Deep mode: summaries of the installed modules the project's hot code calls into, looked
    for in ``installed`` (default: on ``search_path``, by default this interpreter's ``sys.path``).
    Why a cache directory was refused is added to ``notes``.

    ``project_key`` names the project's sources (:meth:`SummaryCache.key` of each): a run with the
    same sources, configuration and installed packages as the last one reads the same modules,
    so the cache replays that run's list instead of finding it again call level by call level
    (a whole-project graph per level)."""
    catalogue = catalogue or config.catalogue()
    installed = installed or _installed(search_path, (summary.module for summary in summaries))
    library_cache = LibraryCache(config.root, catalogue) if use_cache else None
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
        library_cache.save()  # also closes the cache directory
        if plan_key is not None and not replayed:
            library_cache.save_plan(plan_key, [summary.module for summary in libraries])
        if notes is not None:
            notes.extend(refusal for refusal in library_cache.refusals if refusal not in notes)
    return libraries


def discovered_twins(
    sources: Sequence[SourceFile],
    config: Config,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    installed: Installed | None = None,
) -> list[DiscoveredTwin]:
    """Deep mode also trusts the sync/async twins discovered in the installed packages the
    project imports (cached per distribution and version): see :mod:`asynclint.twin_discovery`."""
    installed = installed or _installed(search_path, (source.module for source in sources))
    cache = TwinCache(config.root, CACHE_DIR, "libraries") if use_cache else None
    packages = imported_packages((source.text for source in sources), installed)
    return twins_for(packages, installed, cache)


def run_check(
    paths: Sequence[str],
    config: Config,
    *,
    jobs: int | None = None,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
) -> Result:
    """Discover, read, index (cached, parallel) and check. Raises ``PathError`` for missing paths.

    With ``config.follow_imports``, installed modules are looked for on ``search_path``
    (default: this interpreter's ``sys.path``)."""
    files = discover(paths, config)
    sources, errors = read_sources(files, config.root)
    catalogue = config.catalogue()
    installed = None
    if config.follow_imports:
        # One look at what is installed, for the twins and for the calls followed.
        installed = _installed(search_path, (source.module for source in sources))
        catalogue = with_discovered(catalogue, discovered_twins(sources, config, use_cache, installed=installed))
    if not config.framework_versions:
        # What the framework's methods do depends on its release (knowledge.frameworks.SYNC_METHODS).
        # Pinned by the pyproject.toml nearest above what is checked (an environment's own, in a
        # repository of them), up to the project's root.
        checked = Path(os.path.commonpath([str(file) for file in files])) if files else config.root
        pyproject = nearest_pyproject(checked if checked.is_dir() else checked.parent, config.root)
        config = replace(config, framework_versions=project_versions(pyproject, VERSIONED_DISTRIBUTIONS, installed))
    cache = SummaryCache(config.root, catalogue) if use_cache else None
    summaries: list[ModuleSummary] = []
    missing: list[SourceFile] = []
    for source in sources:
        cached = cache.get(source) if cache else None
        if cached is not None:
            summaries.append(cached)
        else:
            missing.append(source)
    for source, outcome in zip(missing, index(missing, catalogue, jobs or default_jobs()), strict=True):
        if isinstance(outcome, FileError):
            errors.append(outcome)
        else:
            summaries.append(outcome)
            if cache:
                cache.put(source, outcome)
    notes: list[str] = []
    keys = {SummaryCache.key(s) for s in sources}
    if cache:
        cache.save(keys)
        notes.extend(cache.refusals)
    if config.follow_imports:
        project_key = hashlib.sha256("\0".join(sorted(keys)).encode()).hexdigest()
        summaries.extend(follow_libraries(
            summaries, config, use_cache=use_cache, catalogue=catalogue, notes=notes, installed=installed,
            project_key=project_key,
        ))
    texts = {source.path: source.text for source in sources}
    return replace(
        check_project(summaries, texts, config, catalogue, errors), root=config.root.as_posix(), notes=tuple(notes)
    )
