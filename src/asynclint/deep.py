"""Deep mode: the installed modules the project's hot code calls into, indexed a call level at a
time (cached per library file, and the list of modules a run read replayed while nothing changed),
and the sync/async twins discovered in the installed packages the project imports."""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from asynclint.cache import LIBRARIES, cache_dir
from asynclint.cache_summaries import LibraryCache, moved_digest
from asynclint.config import Config
from asynclint.files import decode
from asynclint.libraries import Installed, LibraryFile
from asynclint.model import Severity
from asynclint.module_names import ROOT_MARK

if TYPE_CHECKING:  # imported where used: a run answered from the result cache needs none of them
    from asynclint.analysis.graph import ProjectGraph
    from asynclint.analysis.index.records import ModuleSummary
    from asynclint.cache_results import Stamp
    from asynclint.engine import SourceFile
    from asynclint.knowledge.catalogue import Catalogue
    from asynclint.twin_discovery import DiscoveredTwin, ImportRecord


def installed_beside(search_path: Sequence[str] | None, modules: Iterable[str]) -> Installed:
    """What is installed on ``search_path`` (default: this interpreter's ``sys.path``) beside
    the project whose modules are ``modules``."""
    own = {module.partition(".")[0].partition(ROOT_MARK)[0] for module in modules}
    return Installed(sys.path if search_path is None else search_path, own)


def project_graph(summaries: Sequence[ModuleSummary], config: Config, catalogue: Catalogue) -> ProjectGraph:
    """:func:`asynclint.engine.project_graph`, imported when first asked for: a run answered
    from the result cache builds no graph, and needs neither the indexer nor the graph's code."""
    from asynclint.engine import project_graph as build

    return build(summaries, config, catalogue)


#: ``from X import *`` written in a module's text (``X`` absolute or relative).
_STAR_IMPORT = re.compile(rb"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\*", re.MULTILINE)

#: How many re-exports, star imports and base classes a name is followed through.
_MAX_RESOLVE_HOPS = 4096
#: How many call levels are read at most, whatever the depth: a level builds a graph of the whole
#: project and every module read so far, and a library's calls into itself cost no depth.
_MAX_LEVELS = 32


class _Follower:
    """Deep mode: index the installed modules that hot code calls into, a call level at a time."""

    def __init__(self, installed: Installed, catalogue: Catalogue, cache: LibraryCache | None):
        self.installed, self.catalogue, self.cache = installed, catalogue, cache
        self.library: dict[str, ModuleSummary] = {}
        self.unreadable: set[str] = set()
        self.resolved: set[str] = set()
        self.graph: ProjectGraph | None = None
        #: Each library read (its label), how many libraries in from the project its nearest
        #: call is (``None``: the project itself); ``distance``: that of the call being resolved.
        self.entered: dict[str | None, int] = {None: 0}
        self.distance = 0

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
        """The installed modules read for ``project``, a call level at a time; :attr:`graph` is the
        last level's graph when that level read nothing new (its summaries are the project's and
        those modules). ``config.follow_depth`` bounds how many libraries in from the project a
        call is (the project calls slowlib, which calls otherlib: two), not how many calls: a
        library's calls into its own modules cost no depth. Selenium's ``driver.get`` reaches its
        HTTP request through four of its own calls, then urllib3's through six of urllib3's."""
        looked: set[str] = set()
        for _ in range(_MAX_LEVELS):
            calls = self._external_calls(project, config)
            before = len(self.library)
            for target in sorted(calls.keys() - looked):
                distance = self._distance(target, calls[target])
                if distance <= config.follow_depth:
                    looked.add(target)
                    self.distance = distance
                    self.resolve(target)
            if len(self.library) == before:
                break
            self.graph = None  # dropped before the next level's is built, not kept alive beside it
        return [self.library[module] for module in sorted(self.library)]

    def _distance(self, target: str, callers: frozenset[str | None]) -> int:
        """How many libraries in from the project ``target`` is, called from code in ``callers``
        (their libraries' labels; ``None``: the project): one more than a caller in another
        library, as many as a caller in its own. A call not installed anywhere costs nothing."""
        found = self.installed.locate(target)
        if found is None:
            return 0
        far = _MAX_LEVELS  # a caller in a library read only to resolve a name is as far as can be
        return min(self.entered.get(c, far) + (c != found.label) for c in callers)

    def _external_calls(self, project: Sequence[ModuleSummary], config: Config) -> Mapping[str, frozenset[str | None]]:
        """What the project and the modules read so far call in installed code. The graph asked is
        the one `check` builds (summaries in path order, so lookups never depend on discovery
        order), kept in :attr:`graph`."""
        self.graph = project_graph([*project, *self.library.values()], config, self.catalogue)
        return self.graph.external_calls(self.catalogue)

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
            if exported == f"{found.module}.{head}" and not self._defines(summary, head):
                # A class the knowledge base calls by its public name (``jericho.FrotzEnv`` for
                # ``jericho.jericho.FrotzEnv``): the index wrote the re-export so, not where it is defined.
                from asynclint.analysis.exports import renamed_to

                pending.extend((f"{alias}.{rest}" if rest else alias, hops + 1) for alias in renamed_to(exported))
            elif exported is not None and exported != f"{found.module}.{head}":
                pending.append((f"{exported}.{rest}" if rest else exported, hops + 1))
            elif exported is None and not self._defines(summary, head):
                # ``from ._impl import *``: the name may come from any of them.
                pending.extend(
                    (f"{source}.{head}.{rest}" if rest else f"{source}.{head}", hops + 1)
                    for source in summary.stars
                    if self._may_give(source, head)
                )
            else:
                for info in summary.classes:
                    if info.qualname == head:  # inherited methods and __init__ live in the bases
                        pending.extend((base, hops + 1) for base in info.bases)

    def _may_give(self, module: str, name: str) -> bool:
        """Whether star-imported ``module`` can be where ``name`` comes from: its text spells the
        name, or one of the modules it star-imports (and so on) can. The others are not read:
        litellm's ``__init__`` star-imports 22 modules (20 k lines), ``acompletion`` is spelled in
        3; transformers' ``models`` package star-imports every model's package, which star-imports
        that model's modules. A work list, as :meth:`resolve` is."""
        pending, seen = [module], set()
        while pending:
            module = pending.pop()
            if module in seen:
                continue
            seen.add(module)
            found = None if module in self.library else self.installed.find(module)
            if found is None:
                return True  # read already, or not a source file: resolve answers
            try:
                text = found.path.read_bytes()
            except OSError:
                return True
            if name.encode() in text:
                return True
            for star in _STAR_IMPORT.finditer(text):
                written = star.group(1).decode()
                dots = len(written) - len(written.lstrip("."))
                base = found.package.rsplit(".", dots - 1)[0] if dots > 1 else found.package
                pending.append((f"{base}.{written[dots:]}" if written[dots:] else base) if dots else written)
        return False

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
                summary = index_source(
                    text, found.path.as_posix(), found.module, found.package, self.catalogue, library=True
                )
            except (OSError, UnicodeDecodeError, SyntaxError, IndexError_):
                # Not the user's code: a library we cannot read is skipped, not reported.
                self.unreadable.add(found.module)
                return None
            # the switch fields are the project's (the graph reads no library's): not kept
            summary = replace(summary, library=found.label, switch_fields=(), field_writes=())
            if self.cache:
                self.cache.put(found, summary)
        self.library[found.module] = summary
        self.entered[found.label] = min(self.entered.get(found.label, self.distance), self.distance)
        return summary


class _PlannedFiles:
    """The project's summaries beside those deep mode's plan was made from (path -> the summary
    cache's key, :func:`asynclint.cache_summaries.moved_digest`): the digests of those whose key is not
    the plan's are made once, when first asked."""

    def __init__(
        self, summaries: Sequence[ModuleSummary], keys: Mapping[str, str], planned: Mapping[str, tuple[str, str]]
    ):
        self.summaries, self.keys, self.planned = summaries, keys, planned
        self._moved: dict[str, str] = {}

    def _digest(self, summary: ModuleSummary) -> str:
        planned = self.planned.get(summary.path)
        if planned is not None and planned[0] == self.keys[summary.path]:
            return planned[1]
        if summary.path not in self._moved:
            self._moved[summary.path] = moved_digest(summary)
        return self._moved[summary.path]

    def as_planned(self) -> bool:
        """Every summary is the plan's, but for where its lines are; no file came or went."""
        return len(self.summaries) == len(self.planned) and all(
            summary.path in self.planned and self._digest(summary) == self.planned[summary.path][1]
            for summary in self.summaries
        )

    def keys_as_planned(self) -> bool:
        """Every summary's key is the plan's: nothing to write again."""
        return {path: key for path, (key, _) in self.planned.items()} == dict(self.keys)

    def now(self) -> dict[str, tuple[str, str]]:
        """What the plan is made from this run."""
        return {summary.path: (self.keys[summary.path], self._digest(summary)) for summary in self.summaries}


def follow_libraries(
    summaries: Sequence[ModuleSummary],
    config: Config,
    *,
    use_cache: bool = True,
    search_path: Sequence[str] | None = None,
    catalogue: Catalogue | None = None,
    cache_directory: Path | None = None,
    installed: Installed | None = None,
    summary_keys: Mapping[str, str] | None = None,
) -> tuple[list[ModuleSummary], ProjectGraph | None]:
    """Deep mode: summaries of the installed modules the project's hot code calls into, looked
    for in ``installed`` (default: on ``search_path``, by default this interpreter's ``sys.path``),
    and the graph :func:`asynclint.engine.project_graph` makes of ``summaries`` and those modules
    when following them built it last (``None`` when not: build it).

    ``summary_keys``: the summary cache's key of each of ``summaries``, by path. A run whose
    summaries are the last one's, with the same configuration and installed packages, reads the
    same modules, so the cache replays that run's list instead of finding it again call level by
    call level (a whole-project graph per level). A summary counts as the last one's when its key
    is, or when it differs from it only by where its lines are (:func:`asynclint.cache_summaries.moved_digest`:
    lines inserted or deleted above code, a comment line added in a body): the graph reads a line
    only by equality and order, with the lines of its own file, so what it finds hot, and so
    calls into installed code, is the same."""
    catalogue = catalogue or config.catalogue()
    installed = installed or installed_beside(search_path, (summary.module for summary in summaries))
    directory = cache_directory or cache_dir(config.root)
    library_cache = LibraryCache(directory, catalogue.fingerprint) if use_cache else None
    follower = _Follower(installed, catalogue, library_cache)
    plan_key, libraries, planned = None, None, None
    if library_cache is not None and summary_keys is not None:
        # Which rules run and what is shown does not change what is read.
        following = replace(config, select=("ALL",), ignore=(), severity={}, min_severity=Severity.LOW)
        plan_key = hashlib.sha256(f"{following!r}\0{installed.fingerprint()}".encode()).hexdigest()
        planned = library_cache.plan(plan_key)
    files = _PlannedFiles(summaries, summary_keys or {}, planned.files if planned is not None else {})
    if planned is not None and files.as_planned():
        libraries = follower.replay(planned.modules)
    replayed = libraries is not None
    if libraries is None:
        libraries = follower.follow(summaries, config)
    if library_cache:
        library_cache.save()
        modules = [summary.module for summary in libraries]
        if plan_key is not None and not (replayed and files.keys_as_planned()):
            library_cache.save_plan(plan_key, modules, files.now())
    graph = follower.graph if not replayed else None
    # The check's graph is built on the same summaries in the same order (path order, the
    # project's first where two paths are equal): the same objects, one by one.
    every = sorted([*summaries, *libraries], key=lambda summary: summary.path)
    if graph is not None and not (
        len(graph.summaries) == len(every) and all(a is b for a, b in zip(graph.summaries, every, strict=True))
    ):
        graph = None
    return libraries, graph


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

    installed = installed or installed_beside(search_path, (source.module for source in sources))
    directory = cache_directory or cache_dir(config.root)
    cache = TwinCache(directory.parent, directory.name, LIBRARIES) if use_cache else None
    imports = imports or ImportRecord(None)
    read = ((stamps[source.path].digest if stamps else None, source.text) for source in sources)
    return twins_for(imports.packages(unread, read, installed), installed, cache)
