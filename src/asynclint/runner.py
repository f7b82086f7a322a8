"""The edge around the pure engine: read files, consult the cache, index in parallel, check."""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from asynclint import __version__
from asynclint.config import Config
from asynclint.engine import SourceFile, project_graph, summarize
from asynclint.files import ROOT_MARK, decode, discover, display_path, module_names
from asynclint.index import IndexError_, ModuleSummary, index_source
from asynclint.libraries import Installed, LibraryFile
from asynclint.knowledge.blocking import BlockingApi
from asynclint.knowledge.catalogue import Catalogue
from asynclint.model import FileError, Result
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


class SummaryCache:
    """Summaries keyed by file content, the indexer's code and the knowledge base; one pickle
    per project."""

    def __init__(self, root: Path, catalogue: Catalogue):
        self.file = root / CACHE_DIR / f"summaries-{_analysis_fingerprint()}-{catalogue.fingerprint}.pickle"
        self.entries: dict[str, ModuleSummary] = {}
        self.dirty = False
        try:
            loaded = _read_pickle(self.file)
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
        if not self.dirty:
            return
        self.entries = {k: v for k, v in self.entries.items() if k in keep}
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            (self.file.parent / ".gitignore").write_text("*\n")
            _write_pickle(self.file, self.entries)
            for stale in self.file.parent.glob("summaries-*.pickle"):
                if stale != self.file:  # written by another version or configuration
                    stale.unlink(missing_ok=True)
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


def _read_pickle(file: Path) -> object:
    """The value in a cache file this user's asynclint signed; raises on anything else."""
    key = _signing_key()
    data = file.read_bytes()
    digest, payload = data[:32], data[32:]
    if key is None or not hmac.compare_digest(digest, hmac.new(key, payload, hashlib.sha256).digest()):
        raise ValueError(f"{file}: not a cache file this user wrote")
    return pickle.loads(payload)


def _write_pickle(file: Path, value: object) -> None:
    key = _signing_key()
    if key is None:
        return  # nowhere to keep the key: no cache rather than an unverifiable one
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(hmac.new(key, payload, hashlib.sha256).digest() + payload)
        os.replace(temp, file)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


class LibraryCache:
    """Summaries of installed modules, one pickle per distribution and version, each summary
    kept with its file's size and modification time: an editable install, or a file edited in
    place, changes under the same version number."""

    def __init__(self, root: Path, catalogue: Catalogue):
        self.directory = root / CACHE_DIR / "libraries"
        self.fingerprint = f"{_analysis_fingerprint()}-{catalogue.fingerprint}"
        self.packages: dict[str, dict[str, tuple[tuple[int, int], ModuleSummary]]] = {}
        self.dirty: set[str] = set()

    def _file(self, name: str) -> Path:
        return self.directory / f"{name}-{self.fingerprint}.pickle"

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
            try:
                loaded = _read_pickle(self._file(name))
                self.packages[name] = loaded if isinstance(loaded, dict) else {}
            except Exception:  # missing, stale or corrupt: analyse again
                self.packages[name] = {}
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

    def save(self) -> None:
        for name in sorted(self.dirty):
            try:
                _write_pickle(self._file(name), self.packages[name])
                # Older analyses of this version are dead; other versions stay, as two
                # environments with different versions may share the project directory.
                for stale in self.directory.glob(f"{name}-*.pickle"):
                    if stale != self._file(name):
                        stale.unlink(missing_ok=True)
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
    _worker_catalogue = Catalogue(apis, offload)


def _summarize_in_worker(source: SourceFile) -> ModuleSummary | FileError:
    assert _worker_catalogue is not None
    return summarize(source, _worker_catalogue)


#: Told what a run is doing: (stage, items done, items in all or ``None`` when not counted).
Progress = Callable[[str, int, "int | None"], None]


def _quiet(stage: str, done: int, total: int | None) -> None:
    """The progress of a run nobody watches."""


def index(
    sources: Sequence[SourceFile], catalogue: Catalogue, jobs: int, progress: Progress = _quiet
) -> list[ModuleSummary | FileError]:
    if jobs <= 1 or len(sources) < PARALLEL_THRESHOLD:
        summaries = []
        for source in sources:
            summaries.append(summarize(source, catalogue))
            progress("indexing", len(summaries), len(sources))
        return summaries
    apis = tuple(catalogue.apis.values())
    initargs = (apis, catalogue.offload)
    with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=initargs) as pool:
        summaries = []
        for summary in pool.map(_summarize_in_worker, sources, chunksize=max(1, len(sources) // (jobs * 4))):
            summaries.append(summary)
            progress("indexing", len(summaries), len(sources))
        return summaries


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def follow_libraries(
    summaries: Sequence[ModuleSummary],
    config: Config,
    *,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    catalogue: Catalogue | None = None,
) -> list[ModuleSummary]:
    """Deep mode: summaries of the installed modules the project's hot code calls into, looked
    for on ``search_path`` (default: this interpreter's ``sys.path``)."""
    catalogue = catalogue or config.catalogue()
    installed = Installed(
        sys.path if search_path is None else search_path,
        {summary.module.partition(".")[0].partition(ROOT_MARK)[0] for summary in summaries},
    )
    library_cache = LibraryCache(config.root, catalogue) if use_cache else None
    libraries = _Follower(installed, catalogue, library_cache).follow(summaries, config)
    if library_cache:
        library_cache.save()
    return libraries


def discovered_twins(
    sources: Sequence[SourceFile], config: Config, use_cache: bool = True, search_path: Sequence[str] | None = None
) -> list[DiscoveredTwin]:
    """Deep mode also trusts the sync/async twins discovered in the installed packages the
    project imports (cached per distribution and version): see :mod:`asynclint.twin_discovery`."""
    own = {source.module.partition(".")[0].partition(ROOT_MARK)[0] for source in sources}
    installed = Installed(sys.path if search_path is None else search_path, own)
    cache = TwinCache(config.root / CACHE_DIR / "libraries") if use_cache else None
    packages = imported_packages((source.text for source in sources), installed)
    return twins_for(packages, installed, cache)


def run_check(
    paths: Sequence[str],
    config: Config,
    *,
    jobs: int | None = None,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    progress: Progress = _quiet,
) -> Result:
    """Discover, read, index (cached, parallel) and check. Raises ``PathError`` for missing paths.

    With ``config.follow_imports``, installed modules are looked for on ``search_path``
    (default: this interpreter's ``sys.path``). ``progress`` is told each stage as it goes."""
    progress("finding files", 0, None)
    files = discover(paths, config)
    progress("reading files", 0, len(files))
    sources, errors = read_sources(files, config.root)
    catalogue = config.catalogue()
    if config.follow_imports:
        catalogue = with_discovered(catalogue, discovered_twins(sources, config, use_cache, search_path))
    cache = SummaryCache(config.root, catalogue) if use_cache else None
    summaries: list[ModuleSummary] = []
    missing: list[SourceFile] = []
    for source in sources:
        cached = cache.get(source) if cache else None
        if cached is not None:
            summaries.append(cached)
        else:
            missing.append(source)
    indexed = index(missing, catalogue, jobs or default_jobs(), progress)
    for source, outcome in zip(missing, indexed, strict=True):
        if isinstance(outcome, FileError):
            errors.append(outcome)
        else:
            summaries.append(outcome)
            if cache:
                cache.put(source, outcome)
    if cache:
        cache.save({cache.key(s) for s in sources})
    if config.follow_imports:
        progress("reading installed packages", 0, None)
        summaries.extend(
            follow_libraries(summaries, config, use_cache=use_cache, search_path=search_path, catalogue=catalogue)
        )
    progress("analysing the project", 0, None)
    texts = {source.path: source.text for source in sources}
    return replace(check_project(summaries, texts, config, catalogue, errors), root=config.root.as_posix())
