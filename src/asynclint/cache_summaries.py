"""The summary caches: a project file's summary by its content and name, and an installed module's
by its distribution (deep mode), with the plan of what deep mode read; plain JSON (:mod:`asynclint.cache`)."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import typing
from collections.abc import Sequence
from pathlib import Path

if typing.TYPE_CHECKING:
    from asynclint.analysis.index.record_lines import LineSlots
    from asynclint.analysis.index.records import ModuleSummary
    from asynclint.engine import SourceFile
    from asynclint.libraries import LibraryFile

from asynclint.cache import (
    Malformed,
    _directory,
    _stale,
    code_fingerprint,
    decode,
    encode,
    read_lines,
    shapes,
    text_digest,
    write_cache_file,
)

# --- summaries of the project's files ---------------------------------------------------------


@functools.cache
def analysis_fingerprint() -> str:
    """What shapes a summary: the indexer, what it reads from the knowledge base, the records."""
    from asynclint.analysis.index.records import ModuleSummary

    return (
        code_fingerprint("cache*.py", "analysis/index/*.py", "knowledge/**/*.py")
        + text_digest(shapes(ModuleSummary))[:8]
    )


#: A record's field names, and where its lines are (:func:`moved_digest`), by record.
_LINE_FIELDS: dict[type, tuple[tuple[str, ...], tuple[tuple[int, LineSlots], ...]]] = {}


def moved_digest(summary: ModuleSummary) -> str:
    """A digest of ``summary`` that lines inserted or deleted in its file leave as it is, where
    they change nothing else: its encoding with every line of the file it holds
    (:data:`~asynclint.analysis.index.record_lines.LINES`) replaced by that line's rank among them (0,
    no line, stays 0). Two summaries with one digest are one summary up to an order-preserving
    renumbering of its lines: what reads lines only by equality and order, within one file, reads
    both alike (deep mode's plan: :func:`asynclint.deep.follow_libraries`)."""
    return moved_lines(summary)[0]


def moved_lines(summary: ModuleSummary) -> tuple[str, tuple[int, ...]]:
    """:func:`moved_digest`, and the lines it ranked, in order: of two summaries with one digest,
    the n-th line of one is where the n-th of the other moved (:mod:`asynclint.renumber`)."""
    from asynclint.analysis.index.record_lines import HANDED_AT, LINES

    lines: list[int] = []  # in the order the encoder meets them

    def without_lines(value: typing.Any, where: LineSlots) -> typing.Any:
        """``value`` (a field's) with 0 for each line ``where`` says it holds, put in ``lines``."""
        if where.each:
            return [without_lines(item, dataclasses.replace(where, each=False)) for item in value]
        if value is None:
            return None
        if where.slots:
            inner = dataclasses.replace(where, slots=())
            return [without_lines(item, inner) if at in where.slots else item for at, item in enumerate(value)]
        if not where.named:
            lines.append(value)
            return 0
        named = HANDED_AT.fullmatch(value) if isinstance(value, str) else None
        if named is None:
            return value
        lines.append(int(named[1]))
        return f"{value[: named.start(1)]}0{value[named.end(1) :]}"

    def plain(value: object) -> list[object]:
        shape = _LINE_FIELDS.get(type(value))
        if shape is None:
            if not dataclasses.is_dataclass(value) or isinstance(value, type):
                raise TypeError(f"cannot cache a {type(value).__name__}")
            fields = tuple(field.name for field in dataclasses.fields(value))
            listed = LINES.get(type(value), {})
            shape = _LINE_FIELDS[type(value)] = (fields, tuple((fields.index(n), s) for n, s in listed.items()))
        held = [getattr(value, name) for name in shape[0]]
        for at, slots in shape[1]:
            held[at] = without_lines(held[at], slots)
        return held

    text = json.dumps(summary, default=plain, separators=(",", ":"), check_circular=False)
    held = sorted(set(lines) - {0})
    ranks = {line: rank for rank, line in enumerate(held, 1)}
    return text_digest(f"{text}\0{[ranks.get(line, 0) for line in lines]}"), tuple(held)


class Decoded:
    """The summaries a long-lived process (``check --watch``) decoded or made in its last run, by
    summary cache file and key, for its next run: a key names a file's bytes and names, so its
    summary is the one the cache file holds under it, and an edit of one file leaves every other
    file's summary to be taken as it is instead of decoded again (a fifth of a recheck of 2,014
    files after a call was added). Only the last run's are kept: the summaries one project's
    check holds anyway."""

    def __init__(self) -> None:
        self._files: dict[str, dict[str, ModuleSummary]] = {}

    def of(self, file: str) -> dict[str, ModuleSummary]:
        """The summaries kept for the summary cache ``file``; those of any other file go (the
        analysis or the catalogue changed: none of them can be asked for again)."""
        kept = self._files.get(file, {})
        self._files = {file: kept}
        return kept


class SummaryCache:
    """Summaries keyed by file content and name (so portable across machines and checkouts),
    one line per file (``<key> <json>``), one file per project and analysis. One that does not
    decode is a miss, re-indexed and rewritten.

    Only where each line lies is kept: a line is read from the file and decoded when its summary
    is asked for, and copied from the file when it is written again. The file stays open, so its
    lines are the ones read even if another run replaces it meanwhile. (Every line held as text
    while the summaries were decoded, and to the end of indexing, was the file's size again: with
    a few files changed a run read from the cache held more than a cold run.)"""

    def __init__(self, directory: Path, catalogue_fingerprint: str, decoded: Decoded | None = None):
        self.file = directory / f"summaries-{analysis_fingerprint()}-{catalogue_fingerprint}.jsonl"
        self.lines: dict[str, tuple[int, int]] = {}  # key -> where its JSON starts, and its length
        self.fresh: dict[str, ModuleSummary] = {}
        self.decoded = decoded.of(self.file.name) if decoded is not None else None
        self.dirty = False
        self._handle: typing.BinaryIO | None = None
        try:
            with _directory(self.file.parent, create=False) as opened:
                self._handle = opened.open_file(self.file.name)
            offset = 0
            for line in self._handle:  # one line at a time: only the spans are kept
                if len(line) > 65 and line[64] == 32 and line[:64].isalnum():  # b" ", a key
                    value_end = len(line) - 1 if line.endswith(b"\n") else len(line)
                    self.lines[line[:64].decode("ascii")] = (offset + 65, value_end - 65)
                offset += len(line)
        except OSError:  # missing or unreadable: a cold start
            self.close()
            self.lines.clear()

    @staticmethod
    def key(source: SourceFile, digest: str) -> str:
        """The key of ``source``'s summary: its name and the digest of its bytes (a
        :class:`Stamp`'s), so that an unchanged file's summary is found without reading it."""
        return text_digest(f"{source.path}\0{source.module}\0{source.package}\0{source.imports}\0{digest}")

    def _line(self, key: str) -> bytes:
        """The JSON of ``key``'s summary as the file holds it; raises ``OSError``."""
        if self._handle is None:
            raise OSError("closed")
        start, length = self.lines[key]
        self._handle.seek(start)
        value = self._handle.read(length)
        if len(value) != length:
            raise OSError("cut short")
        return value

    def get(self, source: SourceFile, key: str) -> ModuleSummary | None:
        """The summary of ``source`` (only its name is read) under ``key``, if cached."""
        from asynclint.analysis.index.records import ModuleSummary

        if key in self.fresh:
            return self.fresh[key]
        if key not in self.lines:
            return None
        if self.decoded is not None and key in self.decoded:
            return self.decoded[key]
        try:
            summary = decode(ModuleSummary, json.loads(self._line(key)))
            if summary.path != source.path or summary.module != source.module or summary.library is not None:
                raise Malformed("another file's summary")
        except (OSError, ValueError, RecursionError):  # Malformed and JSON errors: analyse the file again
            del self.lines[key]
            self.dirty = True
            return None
        if self.decoded is not None:
            self.decoded[key] = summary
        return summary

    def put(self, key: str, summary: ModuleSummary) -> None:
        self.fresh[key] = summary
        self.dirty = True

    def save(self, keep: set[str]) -> None:
        """Write the summaries of ``keep`` (those made this run, and those read from the file,
        copied as they were) unless the file holds exactly those already; then close the file."""
        if self.decoded is not None:
            for key in self.decoded.keys() - keep:
                del self.decoded[key]
            self.decoded.update((key, self.fresh[key]) for key in keep & self.fresh.keys())
        try:
            if not self.dirty and set(self.lines) <= keep:
                return
            lines = (
                f"{key} {encode(self.fresh[key]) if key in self.fresh else self._line(key).decode('utf-8')}"
                for key in sorted(keep)
                if key in self.fresh or key in self.lines
            )
            write_cache_file(self.file, lines)
            _stale(self.file.parent, "summaries-*", self.file)
        except (OSError, ValueError):
            pass  # a read-only checkout still gets its findings
        finally:
            self.close()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


# --- summaries of installed modules (deep mode) -----------------------------------------------


@dataclasses.dataclass(frozen=True)
class Plan:
    """The installed modules a deep run read, and what it read them for: each of the project's
    summaries, by path, as its key in the summary cache and its :func:`moved_digest`."""

    modules: list[str]
    files: dict[str, tuple[str, str]]


class LibraryCache:
    """Summaries of installed modules, one file per distribution and version, each summary kept
    with its file's size and modification time: an editable install, or a file edited in place,
    changes under the same version number."""

    def __init__(self, directory: Path, catalogue_fingerprint: str):
        self.directory = directory / "libraries"
        self.fingerprint = f"{analysis_fingerprint()}-{catalogue_fingerprint}"
        self.packages: dict[str, dict[str, tuple[int, int, ModuleSummary]]] = {}
        self.dirty: set[str] = set()

    def _file(self, name: str) -> Path:
        return self.directory / f"{name}-{self.fingerprint}.jsonl"

    @staticmethod
    def _name(library: LibraryFile) -> str:
        if library.dist is None or library.version is None:
            # No distribution names it (a module of a namespace package, ``opentelemetry.trace``;
            # a path entry): kept under its top-level package, each entry checked against its
            # file's path, size and modification time (uncached, deep mode's plan was never
            # replayed for a project calling into one).
            return f"{_safe(library.module.partition('.')[0])}-unversioned"
        return f"{_safe(library.dist)}-{_safe(library.version)}"

    @staticmethod
    def _stamp(library: LibraryFile) -> tuple[int, int] | None:
        try:
            status = library.path.stat()
        except OSError:
            return None
        return status.st_size, status.st_mtime_ns

    def _package(self, name: str) -> dict[str, tuple[int, int, ModuleSummary]]:
        if name not in self.packages:
            self.packages[name] = self._load(name)
        return self.packages[name]

    def _load(self, name: str) -> dict[str, tuple[int, int, ModuleSummary]]:
        from asynclint.analysis.index.records import ModuleSummary

        entries = {}
        try:
            for line in read_lines(self._file(name)):
                module, size, mtime, summary = json.loads(line)
                if type(module) is not str or type(size) is not int or type(mtime) is not int:
                    raise Malformed("bad entry")
                entries[module] = (size, mtime, decode(ModuleSummary, summary))
        except (OSError, UnicodeDecodeError, ValueError, TypeError, RecursionError):
            return {}  # missing, stale or damaged: analyse again
        return entries

    def get(self, library: LibraryFile) -> ModuleSummary | None:
        entry = self._package(self._name(library)).get(library.module)
        if entry is None or entry[:2] != self._stamp(library) or entry[2].path != library.path.as_posix():
            return None  # not analysed yet, or the file changed since (or is another file)
        return entry[2]

    def put(self, library: LibraryFile, summary: ModuleSummary) -> None:
        name, stamp = self._name(library), self._stamp(library)
        if stamp:
            self._package(name)[library.module] = (*stamp, summary)
            self.dirty.add(name)

    def _plan_file(self) -> Path:
        return self.directory / f"plan-{self.fingerprint}.json"

    def plan(self, key: str) -> Plan | None:
        """What the last run read of the installed modules, if it had the same settings (``key``)."""
        try:
            stored = json.loads("\n".join(read_lines(self._plan_file())))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return None
        if not isinstance(stored, dict) or stored.get("key") != key:
            return None
        modules, files = stored.get("modules"), stored.get("files")
        if not (isinstance(modules, list) and all(type(m) is str for m in modules) and isinstance(files, dict)):
            return None
        if not all(type(v) is list and len(v) == 2 and all(type(s) is str for s in v) for v in files.values()):
            return None
        return Plan(modules, {path: (summary, moved) for path, (summary, moved) in files.items()})

    def save_plan(self, key: str, modules: Sequence[str], files: typing.Mapping[str, tuple[str, str]]) -> None:
        try:
            document = {"key": key, "modules": list(modules), "files": {path: list(v) for path, v in files.items()}}
            write_cache_file(self._plan_file(), [json.dumps(document)])
            _stale(self.directory, "plan-*.json", self._plan_file())
        except OSError:
            pass  # a read-only checkout still gets its findings

    def save(self) -> None:
        for name in sorted(self.dirty):
            entries = self.packages[name]
            try:
                write_cache_file(self._file(name), (encode([m, *entries[m]]) for m in sorted(entries)))
                # Older analyses of this version are dead; other versions stay, as two
                # environments with different versions may share the project directory.
                _stale(self.directory, f"{name}-*.jsonl", self._file(name))
                _stale(self.directory, f"{name}-*.pickle", self._file(name))
            except OSError:
                pass  # a read-only checkout still gets its findings
        self.dirty.clear()


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.]+", "_", text)
