"""The on-disk cache: summaries per file, library summaries per distribution, and the last result
of a project -- all plain JSON, validated when read back.

Why JSON and not pickle: a cache directory travels (CI restores it on a fresh runner, a checkout
can commit one), and unpickling runs code. Plain data needs no per-user signing key, so a cache
written on one machine is used on another, and reading a hostile or damaged file can at worst
be a miss: every value is checked against the record's field types before a record is built.

Records are encoded as lists of their field values in declaration order (no field names: the
files stay small and decoding is positional). What shapes them -- the field lists, the indexer,
the knowledge base, the rules -- is part of every file's key, so a changed asynclint never reads
what another version wrote.
"""

from __future__ import annotations

import dataclasses
import enum
import fnmatch
import functools
import hashlib
import json
import os
import re
import sys
import time
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from sys import intern

from asynclint import __version__
from asynclint.io import TEMP_SUFFIX, CacheDir, UnsafeCache

if typing.TYPE_CHECKING:
    from asynclint.analysis.index.record_lines import LineSlots
    from asynclint.analysis.index.records import ModuleSummary
    from asynclint.config import Config
    from asynclint.engine import SourceFile
    from asynclint.files import Observed
    from asynclint.libraries import LibraryFile
    from asynclint.model import Result

#: Bumped when the encoding itself changes (not needed when a record gains a field: the field
#: lists are part of :func:`code_fingerprint`). 2: a ``str | record`` field holds either.
SCHEMA = 2
CACHE_DIR = ".asynclint_cache"
_PACKAGE = Path(__file__).parent


class Malformed(ValueError):
    """A cached value that does not have the shape of the record it claims to be."""


# --- plain data <-> records -----------------------------------------------------------------

Decoder = Callable[[object], object]
T = typing.TypeVar("T")


def _fail(value: object) -> typing.NoReturn:
    raise Malformed(f"unexpected {type(value).__name__}")


#: One copy of each equal integer, and of each equal tuple of plain values, that decoding builds:
#: a large project's call sites repeat a few thousand argument shapes, payloads and receivers, and
#: a few thousand line numbers, hundreds of thousands of times (a fresh tuple or integer each, a
#: third of its summaries' memory). Tuples are kept per annotation, so that equal values are of
#: the same types (``(1, True) == (1, 1)`` never meet); likewise records whose class says ``SHARED``
#: (keyed by the class; frozen ones only), and tuples holding only such records. Emptied by
#: :func:`forget_shared`.
_SHARED_INTS: dict[int, int] = {}
_SHARED_TUPLES: dict[object, dict[tuple, tuple]] = {}


def forget_shared() -> None:
    """Drop the tables of shared values (what was decoded keeps its copies): the end of a run."""
    _SHARED_INTS.clear()
    for table in _SHARED_TUPLES.values():
        table.clear()


def _shared_tuples(annotation: object) -> dict[tuple, tuple] | None:
    """The table of shared values of a tuple ``annotation``; ``None`` for one holding records that
    are not shared themselves (a record's hash reads all its fields, and two equal call sites are
    two calls): a tuple of plain values and ``SHARED`` records (``Rooted`` paths) is plain data."""
    if not all(getattr(record, "SHARED", False) for record in _records_in(annotation)):
        return None
    return _SHARED_TUPLES.setdefault(annotation, {})


def _named_or(annotation: object) -> object | None:
    """The record class of a ``str | record`` annotation (a name, or a record standing for what no
    name says: ``str | Rooted``), else ``None``."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 2 and str in args:
        other = next(a for a in args if a is not str)
        return other if dataclasses.is_dataclass(other) else None
    return None


# An annotation the type checker reads as a class (``int``, ``tuple[str, ...]``, a record) gets a
# decoder typed as building one of it; a union (``int | None``) one building an ``object``.
@typing.overload
def _decoder(annotation: type[T], owner: type) -> Callable[[object], T]: ...


@typing.overload
def _decoder(annotation: object, owner: type) -> Decoder: ...


def _decoder(annotation: object, owner: type) -> Decoder:
    """A function checking that a JSON value fits ``annotation`` and building it."""
    if annotation is str:
        return typing.cast(Decoder, intern)  # which refuses anything but a str: a TypeError, Malformed to decode()
    if annotation is int:
        ints = _SHARED_INTS

        def number(value: object) -> object:  # a bool is not an int here
            return ints.setdefault(value, value) if type(value) is int else _fail(value)

        return number
    if annotation is bool:

        def flag(value: object) -> object:  # nor an int a bool
            return value if type(value) is bool else _fail(value)

        return flag
    if annotation is type(None):
        return lambda value: value if value is None else _fail(value)
    if isinstance(annotation, type) and issubclass(annotation, enum.IntEnum):
        members = {member.value: member for member in annotation}

        def member(value: object) -> object:
            if type(value) is int and value in members:
                return members[value]
            _fail(value)

        return member
    if dataclasses.is_dataclass(annotation):
        return _record_decoder(typing.cast(type, annotation))
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal and all(type(arg) is str for arg in args):
        allowed = {arg: arg for arg in args}  # the annotation's own strings: one copy of each

        def one_of(value: object) -> object:
            return allowed[value] if type(value) is str and value in allowed else _fail(value)

        return one_of
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        inner = _decoder(next(a for a in args if a is not type(None)), owner)
        return lambda value: None if value is None else inner(value)
    if (named_or := _named_or(annotation)) is not None:
        # A name or a record standing for what no name says (``str | Rooted``): a JSON string is
        # the name, a list the record.
        record = _decoder(named_or, owner)
        return lambda value: intern(value) if type(value) is str else record(value)
    if isinstance(annotation, type) and issubclass(annotation, str) and annotation is not str:
        # A str whose only instances are its class's own members (``Marker.SELF``): the member.
        marks: dict[str, str] = {
            member: member for member in vars(annotation).values() if isinstance(member, annotation)
        }
        return lambda value: marks[value] if type(value) is str and value in marks else _fail(value)
    # Tuples are most of a summary's values, and most of them are empty: each shape gets its own
    # function, the empty one answered first (a summary has hundreds of thousands of them).
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        shared = _shared_tuples(annotation)
        if item is str and shared is not None:

            def strings(value: object) -> object:
                if type(value) is not list:
                    _fail(value)
                if not value:
                    return ()
                decoded = tuple(map(intern, value))  # intern refuses a non-str
                return shared.setdefault(decoded, decoded)

            return strings
        if (named_or := _named_or(item)) is not None and shared is not None:
            record = _decoder(named_or, owner)

            def names(value: object) -> object:  # as ``strings``, a record where a list is
                if type(value) is not list:
                    _fail(value)
                if not value:
                    return ()
                decoded = tuple([intern(x) if type(x) is str else record(x) for x in value])
                return shared.setdefault(decoded, decoded)

            return names
        if item in (int, bool) and shared is not None:

            def scalars(value: object) -> object:
                if type(value) is not list:
                    _fail(value)
                if not value:
                    return ()
                for x in value:
                    if type(x) is not item:  # bool is not an int here, nor an int a bool
                        _fail(x)
                decoded = tuple(value)
                return shared.setdefault(decoded, decoded)

            return scalars
        each = _decoder(item, owner)

        def variadic(value: object) -> object:
            if type(value) is not list:
                _fail(value)
            if not value:
                return ()
            decoded = tuple([each(x) for x in value])
            return decoded if shared is None else shared.setdefault(decoded, decoded)

        return variadic
    if origin is tuple and args:
        return _fixed_decoder(args, owner, _shared_tuples(annotation))
    raise TypeError(f"{owner.__name__}: cannot cache a field of type {annotation!r}")


def _fixed_decoder(args: tuple[object, ...], owner: type, shared: dict[tuple, tuple] | None) -> Decoder:
    """A fixed-length tuple's decoder, written out as one function (strings interned and scalars
    checked inline, other parts through their decoders), from asynclint's annotations only; each
    value it builds is one copy of its equals in ``shared`` (see :data:`_SHARED_TUPLES`)."""
    namespace: dict[str, object] = {"_fail": _fail, "intern": intern, "list": list, "shared": shared}
    lines = ["def fixed(v):", f"    if type(v) is not list or len(v) != {len(args)}:", "        _fail(v)"]
    items = []
    for i, arg in enumerate(args):
        if arg is str:
            items.append(f"intern(v[{i}])")  # refuses a non-str
        elif arg is int or arg is bool:
            namespace[f"k{i}"] = arg
            lines += [f"    if type(v[{i}]) is not k{i}:", f"        _fail(v[{i}])"]
            items.append(f"v[{i}]")
        elif (named_or := _named_or(arg)) is not None:  # the name inline, as a ``str`` part
            namespace[f"d{i}"] = _decoder(named_or, owner)
            items.append(f"(intern(v[{i}]) if type(v[{i}]) is str else d{i}(v[{i}]))")
        else:
            namespace[f"d{i}"] = _decoder(arg, owner)
            items.append(f"d{i}(v[{i}])")
    lines.append(f"    decoded = ({', '.join(items)},)")
    lines.append("    return decoded if shared is None else shared.setdefault(decoded, decoded)")
    exec("\n".join(lines), namespace)  # noqa: S102 - see _record_decoder
    return typing.cast(Decoder, namespace["fixed"])


_RECORDS: dict[type, Decoder] = {}


def _scalar(annotation: object) -> tuple[type, bool] | None:
    """(type, may be None) of a field checked inline: ``str``, ``int``, ``bool``, or one of them or None."""
    if annotation in (str, int, bool):
        return annotation, False
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        inner = next(a for a in args if a is not type(None))
        if inner in (str, int, bool):
            return inner, True
    return None


def _optional(annotation: object) -> tuple[object, bool]:
    """(what ``annotation`` holds when not ``None``, may it be ``None``)."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        return next(a for a in args if a is not type(None)), True
    return annotation, False


def _record_decoder(cls: type) -> Callable[[object], typing.Any]:
    """A record's decoder, written out from its field types as one function (as ``dataclasses``
    writes ``__init__``): a summary has tens of thousands of fields, and a call per field made
    reading a large project's cache slower than indexing part of it. The generated code comes
    from asynclint's own annotations only, never from what a cache file holds."""
    if cls in _RECORDS:
        return _RECORDS[cls]
    fields = dataclasses.fields(cls)
    hints = typing.get_type_hints(cls)
    required = len(_defaults(cls)[0])
    namespace: dict[str, typing.Any] = {
        "cls": cls,
        "_fail": _fail,
        "list": list,
        "intern": intern,
        "ints": _SHARED_INTS,
    }
    _RECORDS[cls] = lambda value: namespace["record"](value)  # a record may hold records of its kind
    lines = [
        "def record(v):",
        f"    if type(v) is not list or not {required} <= len(v) <= {len(fields)}:",
        "        _fail(v)",
        "    n = len(v)",
    ]
    for i, field in enumerate(fields):
        indent = "    "
        if i >= required:  # trailing fields left at their defaults are not written
            lines.append(f"    if n > {i}:")
            indent = "        "
        scalar = _scalar(hints[field.name])
        if scalar is not None:
            namespace[f"k{i}"], optional = scalar
            guard = f"if v[{i}] is not None: " if optional else ""
            if scalar[0] is str:  # one copy of each name: half a large project's summaries are strings
                lines.append(f"{indent}{guard}v[{i}] = intern(v[{i}])")  # which refuses a non-str
                continue
            check = f"type(v[{i}]) is not k{i}"
            lines.append(f"{indent}if {f'v[{i}] is not None and ' if optional else ''}{check}:")
            lines.append(f"{indent}    _fail(v[{i}])")
            if scalar[0] is int:  # and of each line number (see _SHARED_INTS; CPython shares those below 256)
                lines.append(f"{indent}{guard}v[{i}] = v[{i}] if v[{i}] < 256 else ints.setdefault(v[{i}], v[{i}])")
        else:
            # ``None`` and the empty list (most of a call site's optional and tuple fields) are
            # answered here, not by a call of the field's decoder.
            inner, optional = _optional(hints[field.name])
            namespace[f"d{i}"] = _decoder(inner, cls)
            decoded = f"d{i}(v[{i}])"
            if typing.get_origin(inner) is tuple and typing.get_args(inner)[1:] == (Ellipsis,):
                decoded = f"() if v[{i}] == [] else {decoded}"
            lines.append(f"{indent}{f'if v[{i}] is not None: ' if optional else ''}v[{i}] = {decoded}")
    if (
        all(type(cls.__dict__.get(field.name)) is types.MemberDescriptorType for field in fields)
        and not hasattr(cls, "__post_init__")
        and all(field.default_factory is dataclasses.MISSING for field in fields)
    ):
        # A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` by name
        # (a sixth of decoding a large project's call sites): set the slots directly (each field a
        # slot of its own: not ``CallFacts``, whose fields are read from two), the
        # trailing fields not written to their defaults (plain values: no factory's to share).
        namespace["new"], namespace["tail"] = object.__new__, _defaults(cls)[1]
        if required < len(fields):
            lines.append(f"    if n < {len(fields)}:")
            lines.append(f"        v += tail[n - {required}:]")
        lines.append("    o = new(cls)")
        for i, field in enumerate(fields):
            namespace[f"s{i}"] = getattr(cls, field.name).__set__
            lines.append(f"    s{i}(o, v[{i}])")
    else:
        lines.append("    o = cls(*v)")
    if getattr(cls, "SHARED", False):  # one copy of each equal record, as of each equal tuple
        if not typing.cast(typing.Any, cls).__dataclass_params__.frozen:
            raise TypeError(f"{cls.__name__}: a shared record must be frozen (one copy stands for each equal)")
        namespace["shared"] = _SHARED_TUPLES.setdefault(cls, {})
        lines.append("    return shared.setdefault(o, o)")
    else:
        lines.append("    return o")
    exec("\n".join(lines), namespace)  # noqa: S102 - see the docstring
    _RECORDS[cls] = namespace["record"]
    return _RECORDS[cls]


_DEFAULTS: dict[type, tuple[tuple[str, ...], tuple[object, ...]]] = {}


def _defaults(cls: type) -> tuple[tuple[str, ...], tuple[object, ...]]:
    """(names of the fields without a default, the defaults of the others, in order)."""
    if cls not in _DEFAULTS:
        required, defaults = [], []
        for field in dataclasses.fields(cls):
            if field.default is not dataclasses.MISSING:
                defaults.append(field.default)
            elif field.default_factory is not dataclasses.MISSING:
                defaults.append(field.default_factory())
            elif defaults:
                raise TypeError(f"{cls.__name__}.{field.name}: a field without a default after one with")
            else:
                required.append(field.name)
        _DEFAULTS[cls] = tuple(required), tuple(defaults)
    return _DEFAULTS[cls]


def decode(cls: type[T], value: object) -> T:
    """``value`` (from :func:`encode`, through JSON) as a ``cls``; raises :class:`Malformed`."""
    try:
        return _record_decoder(cls)(value)
    except (TypeError, ValueError, KeyError) as exc:  # also a record's own checks failing
        raise Malformed(str(exc)) from None


def _plain(value: object) -> object:
    """``json.dumps``' ``default``: a record is the list of its field values (tuples and
    enums it encodes itself, as lists and numbers), without the trailing ones left at their
    defaults (most of a call site's)."""
    shape = _FIELD_NAMES.get(type(value))
    if shape is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            raise TypeError(f"cannot cache a {type(value).__name__}")
        without_default, defaults = _defaults(type(value))
        shape = _FIELD_NAMES[type(value)] = (
            tuple(field.name for field in dataclasses.fields(value)),
            len(without_default),
            (*[object()] * len(without_default), *defaults),
        )
    names, required, defaults = shape
    values = [getattr(value, name) for name in names]
    while len(values) > required and values[-1] == defaults[len(values) - 1]:
        values.pop()
    return values


_FIELD_NAMES: dict[type, tuple[tuple[str, ...], int, tuple[object, ...]]] = {}


def encode(value: object) -> str:
    """One line of JSON (no newline inside: JSON escapes them in strings)."""
    # ASCII: a string the source held may carry a lone surrogate, which UTF-8 cannot write.
    return json.dumps(value, default=_plain, separators=(",", ":"), check_circular=False)


def shapes(*classes: type) -> str:
    """The field lists and types of ``classes`` and the records they hold, as text to hash."""
    seen: dict[type, str] = {}
    pending = list(classes)
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        hints = typing.get_type_hints(cls)
        seen[cls] = (
            f"{cls.__module__}.{cls.__qualname__}("
            + ",".join(f"{field.name}:{hints[field.name]!r}" for field in dataclasses.fields(cls))
            + ")"
        )
        for hint in hints.values():
            pending.extend(_records_in(hint))
    return ";".join(sorted(seen.values()))


def _records_in(annotation: object) -> Iterator[type]:
    if dataclasses.is_dataclass(annotation):
        yield typing.cast(type, annotation)
    for arg in typing.get_args(annotation):
        yield from _records_in(arg)


def code_fingerprint(*sources: str) -> str:
    """A digest of asynclint's version, the Python version (which names the standard library)
    and the source files ``sources`` (globs under the package): an edited checkout never
    reads what its previous state wrote, an installed copy on any machine reads its own.

    A module installed as bytecode only (its ``.pyc`` where the ``.py`` would be, as
    ``compileall -b`` leaves it once the sources are removed) is hashed as that ``.pyc``: with
    the sources alone, such an install was keyed by its version, and a rebuilt copy of the same
    version read what the old code wrote. ``__pycache__``'s files are never read: they are
    rewritten beside the sources whenever the timestamps change, and the sources say it all."""
    digest = hashlib.sha256(f"{SCHEMA}\0{__version__}\0{sys.version_info[:2]}".encode())
    for pattern in sources:
        sourceless = [
            file
            for file in _PACKAGE.glob(f"{pattern}c")
            if "__pycache__" not in file.relative_to(_PACKAGE).parts and not file.with_suffix(".py").exists()
        ]
        for file in sorted([*_PACKAGE.glob(pattern), *sourceless]):
            digest.update(file.relative_to(_PACKAGE).as_posix().encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


# --- files ------------------------------------------------------------------------------------


def cache_dir(root: Path, override: str | os.PathLike | None = None) -> Path:
    """Where a project's cache lives: ``override`` (``--cache-dir``), else in its root."""
    return Path(override).resolve() if override is not None else root / CACHE_DIR


#: The subdirectory of deep mode's caches (installed modules' summaries, twins, plans).
LIBRARIES = "libraries"


def _directory(directory: Path, create: bool) -> CacheDir:
    """``directory`` -- a cache directory, or its ``libraries`` -- opened so that no link in it
    or swapped in for it is ever followed; the cache directory and ``libraries`` are each refused
    when a link or another user's (a checkout may bring one: :class:`asynclint.io.CacheDir`).
    Every failure is an ``OSError``: to the caches, a refused directory is no cache."""
    try:
        if directory.name == LIBRARIES:
            return CacheDir.open(directory.parent.parent, directory.parent.name, LIBRARIES, create=create)
        return CacheDir.open(directory.parent, directory.name, create=create)
    except UnsafeCache as exc:
        raise OSError(str(exc)) from None


def refusal(directory: Path) -> str | None:
    """Why the cache ``directory`` may not be used, if it may not (a link, another user's)."""
    for place in (directory, directory / LIBRARIES):
        try:
            CacheDir.open(place.parent, place.name, create=False).close()
        except UnsafeCache as exc:
            return str(exc)
        except OSError:
            return None  # missing: made, safely, when first written
    return None


def write_cache_file(file: Path, lines: Sequence[str] | Iterator[str]) -> None:
    """Write a cache file atomically (temporary file + rename in the opened directory), one line
    per item: every cache write goes through here. Raises ``OSError``; callers treat that as
    "no cache"."""
    with _directory(file.parent, create=True) as directory:
        directory.remove_stale_temps()
        if file.parent.name == CACHE_DIR and ".gitignore" not in directory.names():
            directory.write(".gitignore", "*\n")  # never committed by accident
        directory.write_lines(file.name, lines)


def read_lines(file: Path) -> list[str]:
    """The lines of a cache file; raises ``OSError`` or ``UnicodeDecodeError``."""
    with _directory(file.parent, create=False) as directory:
        return directory.read(file.name).decode("utf-8").splitlines()


#: What ``asynclint clean`` removes from a cache directory: only names asynclint writes there,
#: so that ``--cache-dir`` pointing somewhere shared never loses anything else.
_OURS = ("summaries-*", "results-*", "layout-*", "walk-*", ".tmp-*", f"*{TEMP_SUFFIX}")
_OURS_IN_LIBRARIES = ("*.json", "*.jsonl", "*.pickle", ".tmp-*", f"*{TEMP_SUFFIX}")


def clean(directory: Path) -> int:
    """Remove asynclint's files from ``directory`` (and the directory, once empty); -> how many.
    A directory refused as a cache (a link, another user's) is left alone."""
    removed = 0
    try:
        top = _directory(directory, create=False)
    except OSError:
        return 0
    with top:
        for name, patterns in ((None, _OURS), (LIBRARIES, _OURS_IN_LIBRARIES)):
            try:
                place = top if name is None else _directory(directory / name, create=False)
            except OSError:
                continue
            for entry in place.names():
                if any(fnmatch.fnmatchcase(entry, pattern) for pattern in patterns):
                    place.remove(entry)
                    removed += 1
            if place is not top:
                place.close()
        if directory.name == CACHE_DIR:
            try:
                if top.read(".gitignore") == b"*\n":
                    top.remove(".gitignore")  # the one write_cache_file made
                    removed += 1
            except OSError:
                pass
    for emptied in (directory / LIBRARIES, directory):
        try:
            emptied.rmdir()  # only when empty (and never through a link): anything else someone keeps stays
        except OSError:
            pass
    return removed


def _stale(directory: Path, pattern: str, current: Path) -> None:
    """Remove what other versions or configurations wrote under ``pattern`` (never ``current``)."""
    with _directory(directory, create=False) as opened:
        for name in opened.names():
            if name != current.name and fnmatch.fnmatchcase(name, pattern):
                opened.remove(name)


# --- summaries of the project's files ---------------------------------------------------------


@functools.cache
def analysis_fingerprint() -> str:
    """What shapes a summary: the indexer, what it reads from the knowledge base, the records."""
    from asynclint.analysis.index.records import ModuleSummary

    return code_fingerprint("cache.py", "analysis/index/*.py", "knowledge/**/*.py") + _digest(shapes(ModuleSummary))[:8]


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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
    return _digest(f"{text}\0{[ranks.get(line, 0) for line in lines]}"), tuple(held)


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
        return _digest(f"{source.path}\0{source.module}\0{source.package}\0{source.imports}\0{digest}")

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
        + _digest(shapes(Finding, FileError, RuleMeta))[:8]
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
        self.file = directory / f"results-{_digest(key)[:24]}.json"
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
        )

    def store(
        self,
        result: Result,
        stamps: dict[str, Stamp],
        libraries: Sequence[Path] = (),
        catalogue: str = "",
        layout: dict[Path, bool] | None = None,
    ) -> None:
        """``libraries``: the installed files deep mode read, whose edits in place (an editable
        install, a patched file: the version does not change) make the result stale too;
        ``catalogue``: the fingerprint of the catalogue the check used (see :meth:`reuse`);
        ``layout``: the files the module names depend on, whether each was there
        (:func:`asynclint.module_names.module_names`' ``probed``): a ``pyproject.toml`` that appears renames
        the modules of a namespace package without any checked file changing."""
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
        self._write(stamps, findings, errors, rules, result, read, catalogue, _layout(layout or {}, self.root))

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
        self.file = directory / f"layout-{_digest(key)[:24]}.json"
        self.root = root

    def _files(self, files: Sequence[Path]) -> str:
        return _digest("\0".join(shown_path(file, self.root) for file in files))

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
                code_fingerprint("cache.py", "config.py", "files.py", "project.py"),
                root.as_posix(),
                sorted(shown_path(Path(p).resolve(), root) for p in paths),
                environment,
            ]
        )
        self.file = directory / f"walk-{_digest(key)[:24]}.json"

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
