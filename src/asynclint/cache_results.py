"""The last result of a project (a warm run with nothing changed answers from it), and the file
layouts and walks a run finds its files and module names from again; plain JSON (:mod:`asynclint.cache`)."""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import os
import time
import typing
from collections.abc import Collection, Sequence
from pathlib import Path

if typing.TYPE_CHECKING:
    from asynclint.config import Config
    from asynclint.files import Observed
    from asynclint.model import Result

from asynclint.cache import (
    SCHEMA,
    Malformed,
    T,
    _decoder,
    code_fingerprint,
    decode,
    encode,
    read_lines,
    shapes,
    text_digest,
    write_cache_file,
)

# --- the last result of a project -------------------------------------------------------------

#: A file modified this close to when its stamp was taken may change again within the same
#: timestamp tick: its stamp is not trusted, its content is hashed next time (git's racy-clean rule).
_RACY_NS = 2_000_000_000


@functools.cache
def result_fingerprint() -> str:
    """Everything that shapes findings and the fixes they offer: the analysis, the rules, the
    knowledge, the fixers, the records."""
    from asynclint.model import FileError, Finding, RuleMeta

    return (
        code_fingerprint("*.py", "analysis/**/*.py", "knowledge/**/*.py", "rules/**/*.py", "fixers/**/*.py")
        + text_digest(shapes(Finding, FileError, RuleMeta))[:8]
    )


def canonical(value: object, root: Path) -> object:
    """``value`` (a configuration) as plain data with paths relative to ``root``: the same
    project configured the same way has the same key on any machine, in any checkout."""
    if isinstance(value, Path):
        try:
            return value.relative_to(root).as_posix()
        except ValueError:
            return value.as_posix()
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__qualname__, *(canonical(getattr(value, f.name), root) for f in dataclasses.fields(value))]
    if isinstance(value, dict):
        return sorted(([canonical(k, root), canonical(v, root)] for k, v in value.items()), key=repr)
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v, root) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [canonical(v, root) for v in value]
    return value


@dataclasses.dataclass(frozen=True)
class Stamp:
    """What a checked file was: size and modification time (``None`` when not trusted) to tell
    quickly that it did not change, the content's digest to tell for sure; and what the rules read
    of its text (:func:`asynclint.suppressions.fingerprint`: ``""`` when it holds no suppression,
    ``None`` when the text was not read), so that a run that does not read the file again reads it
    for its suppressions only when it may hold one, and an edit that leaves its suppressions as
    they were leaves the rules' view of it as it was."""

    size: int
    mtime_ns: int | None
    digest: str
    suppressions: str | None = None

    @staticmethod
    def of(status: os.stat_result, data: bytes, now_ns: int) -> Stamp:
        racy = status.st_mtime_ns >= now_ns - _RACY_NS
        return Stamp(status.st_size, None if racy else status.st_mtime_ns, hashlib.sha256(data).hexdigest())


_STAMPS = _decoder(tuple[tuple[str, int, int | None, str, str | None], ...], Stamp)


def shown_path(file: Path, root: Path) -> str:
    """A discovered (absolute, resolved) path as reports show it: :func:`asynclint.files.display_path`
    without resolving again, on the strings (asked for every file of a warm run)."""
    text, base = str(file), str(root)
    if text == base:
        return "."  # the root itself, named on the command line: the same key on any machine
    prefix = base if base.endswith(os.sep) else base + os.sep
    shown = text.removeprefix(prefix)
    return shown if os.sep == "/" else shown.replace(os.sep, "/")


class ResultCache:
    """The last result of checking the same paths with the same configuration and asynclint:
    when every file discovered is one it checked, unchanged, it is the result again -- no file
    read, no summary loaded, no graph built. Unchanged means the same size and modification
    time, or else (a fresh checkout, a restored CI cache) the same content."""

    KEEP = 8  # results of other path sets and configurations kept beside it

    def __init__(self, directory: Path, config: Config, paths: Sequence[str], installed: str = ""):
        """``installed``: what deep mode reads from, when it is on (the search path and when each of
        its directories last changed: installing, upgrading or removing a package changes it)."""
        root = config.root
        key = encode(
            [
                result_fingerprint(),
                canonical(config, root),
                sorted(shown_path(Path(p).resolve(), root) for p in paths),
                installed,
            ]
        )
        self.file = directory / f"results-{text_digest(key)[:24]}.json"
        self.root = root
        self.known: dict[str, Stamp] = {}
        self.previous: _Previous | None = None

    def lookup(self, files: Sequence[Path]) -> Result | None:
        """The cached :class:`~asynclint.model.Result` of exactly ``files``, or ``None``; then
        :attr:`known` holds the stamps of the files found unchanged (by their shown path), and
        :attr:`previous` the last result of the same files when only their contents changed."""
        self.known, self.previous = {}, None
        try:
            document = json.loads("\n".join(read_lines(self.file)))
            if type(document) is not dict or document.get("schema") != SCHEMA:
                return None
            stamps = {
                path: Stamp(size, mtime, digest, suppressions)
                for path, size, mtime, digest, suppressions in _STAMPS(document["files"])
            }
            # Every file is looked at, even after a change is found: the unchanged ones need not
            # be read again to find their summaries (``known``).
            changed = len(stamps) != len(files)
            restamped = False
            now = time.time_ns()
            for file in files:
                shown = shown_path(file, self.root)
                stamp = stamps.get(shown)
                if stamp is None:
                    changed = True
                    continue
                status = os.stat(file)
                if stamp.size == status.st_size and stamp.mtime_ns == status.st_mtime_ns:
                    self.known[shown] = stamp
                    continue
                data = file.read_bytes()
                if hashlib.sha256(data).hexdigest() != stamp.digest:
                    changed = True
                    continue
                stamps[shown] = self.known[shown] = dataclasses.replace(
                    Stamp.of(status, data, now),
                    suppressions=stamp.suppressions,  # the same text
                )
                restamped |= stamps[shown].mtime_ns is not None
            if not _unchanged(document.get("libraries", [])) or not _same_layout(document.get("layout", []), self.root):
                return None
            if changed:
                if stamps.keys() == {shown_path(file, self.root) for file in files}:
                    # The same files, some of them edited: ``reuse`` may still answer.
                    self.previous = _Previous(document, stamps)
                return None
            result = _result_of(document)
        except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, RecursionError):
            return None  # missing, damaged or another version's: check again
        if restamped:  # content unchanged, stamps new (a fresh checkout): stat-only next time
            self._restamp(document, stamps, result)
        return result

    def reuse(
        self, stamps: dict[str, Stamp], catalogue: str, moved: typing.Mapping[str, typing.Mapping[int, int]]
    ) -> Result | None:
        """The last result again, for files edited since in ways that leave every input of the
        check as it was, or as it was but for where the lines of the files ``moved`` names are
        (the runner decides: :func:`asynclint.runner.run_check`): those lines renumbered
        (:func:`asynclint.renumber.renumbered`), now stamped ``stamps``. ``None`` if :meth:`lookup`
        kept no last result of these files, that result was made with another catalogue than
        ``catalogue`` (a fingerprint: deep mode's twins), or holds a line of a moved file that its
        map does not know."""
        previous = self.previous
        if previous is None or previous.document.get("catalogue") != catalogue:
            return None
        document = previous.document
        try:
            result = _result_of(document)
        except (ValueError, TypeError, KeyError, RecursionError):
            return None
        if moved:
            from asynclint.renumber import renumbered

            lines_moved = renumbered(result, moved)
            if lines_moved is None:
                return None
            result = lines_moved
            document = {**document, "findings": json.loads(encode(list(result.findings)))}
        self._restamp(document, stamps, result)
        return result

    def switches(self) -> frozenset[str] | None:
        """The project's switch fields' names as the last result's check found them
        (``ModuleSummary.switch_fields``), when :meth:`lookup` kept that result and it says;
        ``None`` if not. Of the names a file writes (``ModuleSummary.field_writes``) the check
        reads only these: see :func:`asynclint.runner.as_read`."""
        if self.previous is None or "switches" not in self.previous.document:
            return None
        try:
            return frozenset(_decoder(tuple[str, ...], ResultCache)(self.previous.document["switches"]))
        except (ValueError, TypeError):
            return None

    def _restamp(self, document: dict, stamps: dict[str, Stamp], result: Result) -> None:
        """Writes ``document`` back (the stored one, or it with its findings renumbered), stamped ``stamps``."""
        self._write(
            stamps,
            document["findings"],
            document["errors"],
            document["rules"],
            result,
            document.get("libraries", []),
            document.get("catalogue", ""),
            document.get("layout", []),
            document.get("switches"),
        )

    def store(
        self,
        result: Result,
        stamps: dict[str, Stamp],
        libraries: Sequence[Path] = (),
        catalogue: str = "",
        layout: dict[Path, bool] | None = None,
        switches: Collection[str] | None = None,
    ) -> None:
        """``libraries``: the installed files deep mode read, whose edits in place (an editable
        install, a patched file: the version does not change) make the result stale too;
        ``catalogue``: the fingerprint of the catalogue the check used (see :meth:`reuse`);
        ``layout``: the files the module names depend on, whether each was there
        (:func:`asynclint.module_names.module_names`' ``probed``): a ``pyproject.toml`` that appears renames
        the modules of a namespace package without any checked file changing; ``switches``: the
        project's switch fields' names, what the check read of the names its files write
        (:meth:`switches`)."""
        findings = json.loads(encode(list(result.findings)))
        errors = json.loads(encode(list(result.errors)))
        rules = json.loads(encode(list(result.rules)))
        read = []
        for file in sorted(set(libraries)):
            try:
                status = os.stat(file)
            except OSError:
                return  # gone already: nothing to compare with next time
            read.append([str(file), status.st_size, status.st_mtime_ns])
        layout_now = _layout(layout or {}, self.root)
        self._write(stamps, findings, errors, rules, result, read, catalogue, layout_now, switches)

    def _write(
        self,
        stamps: dict[str, Stamp],
        findings: list,
        errors: list,
        rules: list,
        result: Result,
        libraries: list,
        catalogue: str,
        layout: list,
        switches: Collection[str] | None,
    ) -> None:
        document = {
            "schema": SCHEMA,
            "libraries": libraries,
            "catalogue": catalogue,
            "layout": layout,
            "files": [[path, s.size, s.mtime_ns, s.digest, s.suppressions] for path, s in sorted(stamps.items())],
            "findings": findings,
            "errors": errors,
            "rules": rules,
            "files_checked": result.files_checked,
            "paths": list(result.paths),
        }
        if switches is not None:
            document["switches"] = sorted(switches)
        _write_keeping_newest(self.file, document, "results-*.json", self.KEEP)


@dataclasses.dataclass(frozen=True)
class _Previous:
    """The last result's document and the stamps of the files it checked as :meth:`ResultCache.lookup`
    leaves them: a file found edited keeps the stamp the result was stored with (the digest of the
    content it was checked on), one found unchanged has its stamp of now."""

    document: dict
    stamps: dict[str, Stamp]


def _result_of(document: dict) -> Result:
    from asynclint.model import FileError, Finding, Result, RuleMeta

    return Result(
        findings=decode_all(Finding, document["findings"]),
        errors=decode_all(FileError, document["errors"]),
        files_checked=_decoder(int, Result)(document["files_checked"]),
        paths=_decoder(tuple[str, ...], Result)(document["paths"]),
        # What reports say about the rules, kept with the result: a run answered from
        # here imports neither the rules nor the fixers.
        rules=decode_all(RuleMeta, document["rules"]),
    )


def _unchanged(libraries: object) -> bool:
    """Every installed file a deep-mode result read has its recorded size and modification time."""
    if type(libraries) is not list:
        raise Malformed("libraries")
    for entry in libraries:
        if type(entry) is not list or len(entry) != 3:
            raise Malformed("libraries")
        path, size, mtime = entry
        try:
            status = os.stat(path)
        except OSError:
            return False
        if (status.st_size, status.st_mtime_ns) != (size, mtime):
            return False
    return True


def _layout(probed: dict[Path, bool], root: Path) -> list[list]:
    """The files the module names were asked of (:func:`asynclint.module_names.module_names`' ``probed``),
    relative to ``root``, each with whether it was there: as :func:`_same_layout` reads them."""
    return sorted([canonical(file, root), there] for file, there in probed.items())


def _same_layout(layout: object, root: Path) -> bool:
    """Every file the module names were asked of (relative to ``root``) is there, or not, as then."""
    for file, there in _decoder(tuple[tuple[str, bool], ...], ResultCache)(layout):
        if os.path.isfile(os.path.join(root, file)) != there:
            return False
    return True


def _mtime(file: Path) -> int:
    try:
        return file.stat().st_mtime_ns
    except OSError:
        return 0


def decode_all(cls: type[T], value: object) -> tuple[T, ...]:
    if type(value) is not list:
        raise Malformed("not a list")
    return tuple(decode(cls, item) for item in value)


class LayoutCache:
    """The top-level module names of the last file list of the same paths (what deep mode's key
    depends on: which imports are the project's own), with what they were derived from: the
    files, and which of the files the names depend on are there (each directory's ``__init__.py``,
    the project files that make an import base: :func:`asynclint.module_names.module_names`). A warm run
    with the same files asks the disk that of each again instead of naming every module (most of its time on a
    large tree, spent in paths' arithmetic); the full names are made only when something is
    checked again."""

    def __init__(self, directory: Path, root: Path, paths: Sequence[str]):
        key = encode(
            [result_fingerprint(), root.as_posix(), sorted(shown_path(Path(p).resolve(), root) for p in paths)]
        )
        self.file = directory / f"layout-{text_digest(key)[:24]}.json"
        self.root = root

    def _files(self, files: Sequence[Path]) -> str:
        return text_digest("\0".join(shown_path(file, self.root) for file in files))

    def lookup(self, files: Sequence[Path]) -> list[str] | None:
        """The top-level names recorded for exactly ``files``, if no file asked about (an
        ``__init__.py``, a ``pyproject.toml``) appeared or went since; else ``None``."""
        try:
            document = json.loads("\n".join(read_lines(self.file)))
            if (
                type(document) is not dict
                or document.get("schema") != SCHEMA
                or document.get("files") != self._files(files)
            ):
                return None
            if not _same_layout(document["asked"], self.root):
                return None
            return list(_decoder(tuple[str, ...], LayoutCache)(document["tops"]))
        except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, RecursionError):
            return None  # missing, damaged or another version's: name the modules again

    def store(self, files: Sequence[Path], probed: dict[Path, bool], tops: Sequence[str]) -> None:
        document = {
            "schema": SCHEMA,
            "files": self._files(files),
            "asked": _layout(probed, self.root),
            "tops": sorted(tops),
        }
        _write_keeping_newest(self.file, document, "layout-*.json", ResultCache.KEEP)


class WalkCache:
    """The last walk of a project from its root: the files it found and the configuration files
    in effect, with what the outcome depends on (:class:`asynclint.files.Observed`). While every
    directory listed has its status change time, every file asked about its size and modification
    time (or is still absent), and every linked ``.py`` file still leads to a file or not, the
    walk would find the same: a warm run on a large tree skips it (git's untracked cache). A
    directory or file modified within the racy window of the walk's start is not trusted: such a
    walk is not recorded, and the next run walks again."""

    def __init__(self, directory: Path, root: Path, paths: Sequence[str]):
        # What git reads its configuration and excludes from besides the files recorded.
        environment = sorted(
            (name, value)
            for name, value in os.environ.items()
            if name in ("HOME", "XDG_CONFIG_HOME") or name.startswith(("GIT_CONFIG", "GIT_DIR", "GIT_COMMON_DIR"))
        )
        key = encode(
            [
                code_fingerprint("cache*.py", "config.py", "files.py", "project.py"),
                root.as_posix(),
                sorted(shown_path(Path(p).resolve(), root) for p in paths),
                environment,
            ]
        )
        self.file = directory / f"walk-{text_digest(key)[:24]}.json"

    def lookup(self) -> tuple[list[Path], list[Path]] | None:
        """(the configuration files in effect, in scope order; the files found), if the walk would
        find the same; else ``None``."""
        from asynclint.files import file_stamp

        try:
            document = json.loads("\n".join(read_lines(self.file)))
            if type(document) is not dict or document.get("schema") != SCHEMA:
                return None
            for directory, changed in _decoder(tuple[tuple[str, int], ...], WalkCache)(document["directories"]):
                if os.stat(directory).st_ctime_ns != changed:
                    return None
            for file, stamp in _decoder(tuple[tuple[str, tuple[int, int] | None], ...], WalkCache)(document["files"]):
                if file_stamp(file) != stamp:
                    return None
            for link, leads_to_file in _decoder(tuple[tuple[str, bool], ...], WalkCache)(document["links"]):
                if os.path.isfile(link) != leads_to_file:
                    return None
            configs = _decoder(tuple[str, ...], WalkCache)(document["configs"])
            found = _decoder(tuple[str, ...], WalkCache)(document["found"])
        except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, RecursionError):
            return None  # missing, damaged, another version's, or a directory gone: walk again
        return [Path(config) for config in configs], [Path(file) for file in found]

    def store(self, observed: Observed, started_ns: int, configs: Sequence[Path], found: Sequence[Path]) -> None:
        """Record a walk that began at ``started_ns`` (unless something it saw is too recent to trust)."""
        racy = started_ns - _RACY_NS
        if any(changed >= racy for changed in observed.directories.values()) or any(
            stamp is not None and stamp[1] >= racy for stamp in observed.files.values()
        ):
            return
        listed = observed.directories
        document = {
            "schema": SCHEMA,
            "directories": sorted([directory, changed] for directory, changed in listed.items()),
            # A file absent from a listed directory would change the directory's time by appearing.
            "files": sorted(
                [file, stamp]
                for file, stamp in observed.files.items()
                if stamp is not None or os.path.dirname(file) not in listed
            ),
            "links": sorted([link, is_file] for link, is_file in observed.links.items()),
            "configs": [str(config) for config in configs],
            "found": [str(file) for file in found],
        }
        _write_keeping_newest(self.file, document, "walk-*.json", ResultCache.KEEP)


def _write_keeping_newest(file: Path, document: object, pattern: str, keep: int) -> None:
    """Write one JSON record and remove all but the ``keep`` newest of its kind (``pattern``)."""
    try:
        write_cache_file(file, [encode(document)])
        others = sorted(file.parent.glob(pattern), key=_mtime, reverse=True)
        for old in [o for o in others if o != file][keep:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # a read-only checkout still gets its findings
