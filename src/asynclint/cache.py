"""The on-disk cache: summaries per file, library summaries per distribution
(:mod:`asynclint.cache_summaries`), and the last result of a project (:mod:`asynclint.cache_results`)
-- all plain JSON, validated when read back. Here: records to plain data and back, and the files.

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
import hashlib
import json
import os
import sys
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from sys import intern

from asynclint import __version__
from asynclint.io import TEMP_SUFFIX, CacheDir, UnsafeCache

if typing.TYPE_CHECKING:
    pass

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


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


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
