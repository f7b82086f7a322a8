"""Sync/async twins found in installed packages by reading their source (never importing it).

Three shapes, each checked against the code rather than trusted from names alone:

* **class pairs** -- the package exports ``X`` and ``AsyncX`` (``e2b.Sandbox`` /
  ``e2b.AsyncSandbox``, ``exa_py.Exa`` / ``exa_py.AsyncExa``), and at least half of ``X``'s public
  methods exist on ``AsyncX`` with at least one of them ``async def``;
* **``.aio`` families** -- an exported ``X = synchronize_api(_X, ...)`` (Modal's synchronicity):
  every ``async def`` method of ``_X`` is a blocking call on ``X`` with an ``.aio`` variant;
* **module pairs** -- ``pkg`` and ``pkg.asyncio`` (or ``pkg.aio``) both export a class ``X``
  (``redis.Redis`` / ``redis.asyncio.Redis``);
* **``a``-prefixed methods** -- an exported class defined in a module already parsed for the
  shapes above (the package's ``__init__`` at least) has, in its own body, methods ``m`` and
  ``async def am`` (LangChain's ``invoke``/``ainvoke``). Only those modules are looked in:
  following every export to its definition parses most of a package (measured: +0.8 to 7 s for
  ten packages), this costs a walk over trees already built.

Each twin becomes a catalogue entry (:func:`discovered_apis`) of lower trust than the curated
table and the knowledge packs: a pattern they state wins. The parameter lists of both sides are
compared as read, so that the unsafe ``twin-call`` fix (:func:`twin_calls`) rewrites a call only
where its twin takes the same arguments. Results are cached per distribution and version
(:class:`TwinCache`, JSON: nothing executable is ever loaded back).
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from asynclint.io import CacheDir, UnsafeCache
from asynclint.knowledge.api import BlockingApi, entry
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.twins import TwinCall
from asynclint.libraries import Installed, LibraryFile

#: Wrappers that turn an async class into a sync one with ``.aio`` variants.
_SYNCHRONIZERS = re.compile(r"synchroni[sz]e")
#: A class pair must share at least this fraction of the sync class's public methods.
_SHARED = 0.5
_ASYNC_SUBMODULES = ("asyncio", "aio")
#: Local helpers even when the async twin makes them coroutines (closing a client's pool).
_LOCAL = frozenset({"close", "__enter__", "__exit__"})
#: Decorators making a method an attribute read (the analysis sees calls, not reads).
_ATTRIBUTES = frozenset({"property", "cached_property", "setter", "live_method_gen"})


@dataclass(frozen=True)
class DiscoveredTwin:
    sync: str  # as the package exports it: ``e2b.Sandbox``
    twin: str  # ``e2b.AsyncSandbox``; for an ``.aio`` family, the sync name again
    kind: str  # class | aio | module | method
    #: Public methods of the sync API that wait (their twin is ``async def``).
    blocking: tuple[str, ...]
    #: Public methods that do not (their twin is a plain ``def``): exempt.
    local: tuple[str, ...]
    source: str  # ``discovered: e2b 2.63.0 e2b/__init__.py``
    #: Blocking methods whose twin takes the same parameters (names, kinds, defaults), and
    #: ``__init__`` when the twin class's constructor does too.
    same_signature: tuple[str, ...] = ()

    @property
    def phrase(self) -> str:
        if self.kind == "aio":
            return "the `.aio` variant and await it (`await obj.method.aio(...)`)"
        if self.kind == "method":
            return "the `a`-prefixed method and await it (`await obj.ainvoke(...)` for `invoke`)"
        return f"`{self.twin}` and await the call"


@dataclass(frozen=True)
class _Method:
    is_async: bool
    params: str  # the parameter list as compared: names, kinds and defaults, no annotations
    awaitable: bool  # ``async def`` without ``yield``: calling it gives something to await


class _Reader:
    """Modules of one installed package, parsed once each."""

    def __init__(self, installed: Installed):
        self.installed = installed
        self.trees: dict[str, ast.Module | None] = {}

    def tree(self, module: str) -> ast.Module | None:
        if module not in self.trees:
            found = self.installed.find(module)
            try:
                self.trees[module] = ast.parse(found.path.read_bytes()) if found else None
            except (OSError, SyntaxError, ValueError):
                self.trees[module] = None
        return self.trees[module]

    def package_of(self, module: str) -> str:
        found = self.installed.find(module)
        return found.package if found else module.rpartition(".")[0]

    def exports(self, module: str) -> dict[str, tuple[str, str]]:
        """Public top-level name -> (module defining or re-exporting it, its name there)."""
        tree = self.tree(module)
        if tree is None:
            return {}
        package = self.package_of(module)
        names: dict[str, tuple[str, str]] = {}
        for node in _statements(tree.body):
            if isinstance(node, ast.ImportFrom):
                base = _absolute(node, package)
                for alias in node.names:
                    if alias.name != "*":
                        names[alias.asname or alias.name] = (base, alias.name)
            elif isinstance(node, (ast.ClassDef, ast.Assign)):
                for name in _bound(node):
                    names[name] = (module, name)
        return {name: origin for name, origin in names.items() if not name.startswith("_")}

    def definition(self, module: str, name: str, depth: int = 0) -> tuple[str, ast.stmt] | None:
        """The class or assignment defining ``name`` in ``module``, through re-exports."""
        tree = self.tree(module)
        if tree is None or depth > 4:
            return None
        for node in _statements(tree.body):
            if isinstance(node, (ast.ClassDef, ast.Assign)) and name in _bound(node):
                return module, node
        for node in _statements(tree.body):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        return self.definition(_absolute(node, self.package_of(module)), alias.name, depth + 1)
        return None

    def methods(self, module: str, cls: ast.ClassDef, depth: int = 0, public: bool = True) -> dict[str, _Method]:
        """Public methods of ``cls`` and of its bases found in the package (own ones first);
        with ``public`` False, ``__init__`` too."""
        found: dict[str, _Method] = {}
        for node in cls.body:
            if (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and (not node.name.startswith("_") or (not public and node.name == "__init__"))
                and not any(_decorator_name(d) in _ATTRIBUTES for d in node.decorator_list)
            ):
                is_async = isinstance(node, ast.AsyncFunctionDef)
                found.setdefault(node.name, _Method(is_async, _params(node.args), is_async and not _yields(node)))
        if depth < 4:
            for base in cls.bases:
                name = _dotted(base)
                located = self.definition(module, name) if name and "." not in name else None
                if located and isinstance(located[1], ast.ClassDef):
                    for method, read in self.methods(located[0], located[1], depth + 1, public).items():
                        found.setdefault(method, read)
        return found


def discover(top: str, installed: Installed) -> list[DiscoveredTwin]:
    """The twins of the installed package ``top`` (empty when it is not installed as source)."""
    found = installed.find(top)
    if found is None:
        return []
    reader = _Reader(installed)
    label = found.label
    exports = reader.exports(top)
    twins: list[DiscoveredTwin] = []
    # Following every exported name to its definition parses most of a package: only worth it
    # where a synchronizer is used at all (a byte scan costs a fraction of a parse).
    synchronized = _uses_synchronizer(found)
    init = f"{found.path.parent.name}/{found.path.name}" if found.path.name == "__init__.py" else found.path.name

    for name in sorted(exports):
        twin_name = f"Async{name}"
        if twin_name in exports:
            pair = _class_pair(reader, top, name, twin_name)
            if pair is not None:
                blocking, local, same = pair
                twins.append(
                    DiscoveredTwin(
                        f"{top}.{name}",
                        f"{top}.{twin_name}",
                        "class",
                        blocking,
                        local,
                        f"discovered: {label} {init} ({name} / {twin_name})",
                        same,
                    )
                )
                continue
        located = reader.definition(top, name) if synchronized else None
        if located and isinstance(assigned := located[1], ast.Assign):
            family = _aio_family(reader, located[0], assigned)
            if family is not None:
                blocking, local, same = family
                where = located[0].replace(".", "/") + ".py"
                twins.append(
                    DiscoveredTwin(
                        f"{top}.{name}",
                        f"{top}.{name}",
                        "aio",
                        blocking,
                        local,
                        f"discovered: {label} {where} ({name} = synchronize_api(...))",
                        same,
                    )
                )

    for submodule in _ASYNC_SUBMODULES:
        async_module = f"{top}.{submodule}"
        async_exports = reader.exports(async_module) if installed.find(async_module) else {}
        for name in sorted(set(exports) & set(async_exports)):
            if f"{top}.{name}" in {t.sync for t in twins}:
                continue
            pair = _module_pair(reader, top, async_module, name)
            if pair is not None:
                blocking, local, same = pair
                twins.append(
                    DiscoveredTwin(
                        f"{top}.{name}",
                        f"{async_module}.{name}",
                        "module",
                        blocking,
                        local,
                        f"discovered: {label} {init} and {submodule}/ ({name})",
                        same,
                    )
                )

    paired = {twin.sync for twin in twins}
    classes: dict[str, dict[str, ast.ClassDef]] = {}  # per module parsed already: its top-level classes
    for name, (module, original) in sorted(exports.items()):
        tree = reader.trees.get(module)
        if f"{top}.{name}" in paired or tree is None:
            continue
        if module not in classes:
            classes[module] = {n.name: n for n in _statements(tree.body) if isinstance(n, ast.ClassDef)}
        cls = classes[module].get(original)
        prefixed = _prefixed_methods(cls) if cls is not None else None
        if prefixed is not None:
            blocking, same = prefixed
            where = init if module == top else module.replace(".", "/") + ".py"
            twins.append(
                DiscoveredTwin(
                    f"{top}.{name}",
                    f"{top}.{name}",
                    "method",
                    blocking,
                    (),
                    f"discovered: {label} {where} ({name}: a<method>)",
                    same,
                )
            )
    return twins


_Pair = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # blocking, local, same signature


def _class_pair(reader: _Reader, top: str, name: str, twin: str) -> _Pair | None:
    return _pair(reader, reader.definition(top, name), reader.definition(top, twin))


def _module_pair(reader: _Reader, top: str, async_module: str, name: str) -> _Pair | None:
    return _pair(reader, reader.definition(top, name), reader.definition(async_module, name))


def _pair(
    reader: _Reader, sync_def: tuple[str, ast.stmt] | None, async_def: tuple[str, ast.stmt] | None
) -> _Pair | None:
    if not (sync_def and async_def):
        return None
    (sync_module, sync_class), (async_module, async_class) = sync_def, async_def
    if not (isinstance(sync_class, ast.ClassDef) and isinstance(async_class, ast.ClassDef)):
        return None
    sync = reader.methods(sync_module, sync_class, public=False)
    twin = reader.methods(async_module, async_class, public=False)
    init = sync.pop("__init__", None), twin.pop("__init__", None)
    compared = _compare(sync, twin)
    if compared is None:
        return None
    blocking, local = compared
    same = tuple(m for m in blocking if sync[m].params == twin[m].params and twin[m].awaitable)
    # No ``__init__`` on either side (``object``'s) counts as the same constructor.
    same_init = (init[0].params if init[0] else "") == (init[1].params if init[1] else "")
    return blocking, local, (("__init__",) if same_init else ()) + same


def _compare(sync: dict[str, _Method], twin: dict[str, _Method]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    shared = [method for method in sync if method in twin]
    if not shared or len(shared) < _SHARED * len(sync):
        return None
    blocking = tuple(sorted(m for m in shared if twin[m].is_async and m not in _LOCAL))
    if not blocking:
        return None
    return blocking, tuple(sorted(m for m in sync if m not in blocking))


def _aio_family(reader: _Reader, module: str, node: ast.Assign) -> _Pair | None:
    """``X = synchronize_api(_X, ...)``: the ``async def`` methods of ``_X`` block on ``X``."""
    call = node.value
    if not (isinstance(call, ast.Call) and call.args and _SYNCHRONIZERS.search(_dotted(call.func) or "")):
        return None
    wrapped = _dotted(call.args[0]) or ""
    owner, _, cls_name = wrapped.rpartition(".")
    where = module
    if owner:  # ``synchronize_api(_sandbox._Sandbox)``: an imported module
        tree = reader.tree(module)
        modules = {
            alias.asname or alias.name: f"{_absolute(n, reader.package_of(module))}.{alias.name}"
            for n in _statements(tree.body if tree else [])
            if isinstance(n, ast.ImportFrom)
            for alias in n.names
        }
        where = modules.get(owner, f"{module}.{owner}")
    located = reader.definition(where, cls_name)
    if located is None or not isinstance(cls := located[1], ast.ClassDef):
        return None
    methods = reader.methods(located[0], cls)
    blocking = tuple(sorted(m for m, read in methods.items() if read.is_async and m not in _LOCAL))
    if not blocking:
        return None
    # ``X.m`` and ``X.m.aio`` wrap one function: the same parameters, awaitable unless a generator.
    same = tuple(m for m in blocking if methods[m].awaitable)
    return blocking, tuple(sorted(m for m in methods if m not in blocking)), same


def _prefixed_methods(cls: ast.ClassDef) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Public methods ``m`` of ``cls``'s own body with an ``async def am`` beside them (a sync
    generator is left out: calling it only builds the generator), and those of them whose twin
    takes the same parameters and is awaited (not an async generator)."""
    methods = {
        node.name: node
        for node in cls.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not node.name.startswith("_")
        and not any(_decorator_name(d) in _ATTRIBUTES for d in node.decorator_list)
    }
    pairs = {
        name: twin
        for name, node in methods.items()
        if isinstance(node, ast.FunctionDef)
        and not _yields(node)
        and isinstance(twin := methods.get(f"a{name}"), ast.AsyncFunctionDef)
    }
    if not pairs:
        return None
    same = tuple(
        sorted(m for m, twin in pairs.items() if _params(methods[m].args) == _params(twin.args) and not _yields(twin))
    )
    return tuple(sorted(pairs)), same


def discovered_apis(twins: Iterable[DiscoveredTwin]) -> tuple[BlockingApi, ...]:
    """Catalogue entries for discovered twins: every call through the sync API except its
    local methods waits on a remote service (for ``a``-prefixed method twins, the methods that
    have one). Put them *before* the curated entries."""
    return tuple(
        entry(pattern, "sdk", "network", "to-thread", frozenset(twin.local), twin.source, phrase)
        for twin in twins
        for pattern, phrase in (
            [(f"{twin.sync}.{m}", f"`await ….a{m}(...)`") for m in twin.blocking]
            if twin.kind == "method"
            else [(f"{twin.sync}.**", twin.phrase)]
        )
    )


class TwinCache:
    """Discovered twins per distribution and version, as JSON (safe to read back), keyed also by
    this module's code so that a changed discovery never reads an older one's results."""

    CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]

    def __init__(self, base: Path, *parts: str):
        """The cache directory ``base/parts...``: each of ``parts`` is refused when it is a link or
        another user's (see :class:`asynclint.io.CacheDir`)."""
        self.base, self.parts = base, parts

    def _file(self, dist: str, version: str) -> str:
        dist, version = (re.sub(r"[^A-Za-z0-9_.]+", "_", part) for part in (dist, version))
        return f"twins-{dist}-{version}-{self.CODE}.json"

    def get(self, dist: str, version: str) -> list[DiscoveredTwin] | None:
        try:
            with CacheDir.open(self.base, *self.parts, create=False) as directory:
                rows = json.loads(directory.read(self._file(dist, version)).decode("utf-8"))
            tuples = ("blocking", "local", "same_signature")
            return [DiscoveredTwin(**{**row, **{field: tuple(row[field]) for field in tuples}}) for row in rows]
        except (OSError, UnsafeCache, ValueError, TypeError, KeyError, RecursionError):
            return None

    def put(self, dist: str, version: str, twins: list[DiscoveredTwin]) -> None:
        try:
            with CacheDir.open(self.base, *self.parts, create=True) as directory:
                directory.write(self._file(dist, version), json.dumps([asdict(twin) for twin in twins]))
        except (OSError, UnsafeCache):
            pass  # a read-only checkout (or a refused cache) still gets its findings


def twins_for(tops: Iterable[str], installed: Installed, cache: TwinCache | None = None) -> list[DiscoveredTwin]:
    """Discovered twins of the installed packages among ``tops``, cached where a distribution
    and version name them."""
    found: list[DiscoveredTwin] = []
    for top in sorted(set(tops)):
        library = installed.find(top)
        if library is None:
            continue
        if cache is None or library.dist is None or library.version is None:
            found.extend(discover(top, installed))  # nothing names the results to cache them by
            continue
        twins = cache.get(library.dist, library.version)
        if twins is None:
            twins = discover(top, installed)
            cache.put(library.dist, library.version, twins)
        found.extend(twins)
    return found


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_][\w.]*)[ \t]+import|import[ \t]+([A-Za-z_][\w.]*))", re.MULTILINE)


def imported_modules(text: str) -> tuple[str, ...]:
    """The modules ``text`` imports (a line scan, no parse), each cut to the parts
    :func:`imported_packages` looks at."""
    return tuple(sorted({".".join((a or b).split(".")[:3]) for a, b in _IMPORT.findall(text)}))


def imported_packages(modules: Iterable[str], installed: Installed) -> set[str]:
    """The installed packages among the imported ``modules`` (:func:`imported_modules`): the
    top-level package, or, under a namespace package (``google``), the first importable module
    (``google.genai``)."""
    packages = set()
    for module in set(modules):
        parts = module.split(".")
        for end in range(1, min(len(parts), 3) + 1):
            if installed.find(".".join(parts[:end])) is not None:
                packages.add(".".join(parts[:end]))
                break
    return packages


class ImportRecord:
    """What each file of a project imports (:func:`imported_modules`), by the digest of its
    content, kept beside the twins (JSON). Which twins deep mode trusts depends on what every file
    imports: with this, a recheck reads only the files whose content it has not seen -- the others'
    stamps say their digest is unchanged -- instead of every file of the project."""

    def __init__(self, base: Path | None, *parts: str):
        """The cache directory ``base/parts...`` (``None``: nothing kept)."""
        self.base, self.parts = base, parts
        self.file = f"imports-{TwinCache.CODE}.json"
        self.modules: dict[str, tuple[str, ...]] = {}
        if base is None:
            return
        try:
            with CacheDir.open(base, *parts, create=False) as directory:
                document = json.loads(directory.read(self.file).decode("utf-8"))
        except (OSError, UnsafeCache, ValueError, RecursionError):
            return  # missing or damaged: every file is read
        if type(document) is dict:
            for digest, modules in document.items():
                if type(modules) is list and all(type(module) is str for module in modules):
                    self.modules[digest] = tuple(modules)

    def __contains__(self, digest: str) -> bool:
        return digest in self.modules

    def packages(self, unread: Iterable[str], read: Iterable[tuple[str | None, str]], installed: Installed) -> set[str]:
        """The installed packages imported by the files of the digests ``unread`` (each one held
        here) and by the texts ``read`` (each with its digest, ``None`` when not known). What those
        files import is kept, and no other file's."""
        held = {digest: self.modules[digest] for digest in unread}
        scanned = []
        for digest, text in read:
            modules = imported_modules(text)
            if digest is None:
                scanned.append(modules)
            else:
                held[digest] = modules
        if self.base is not None and held != self.modules:
            try:
                with CacheDir.open(self.base, *self.parts, create=True) as directory:
                    directory.write(self.file, json.dumps(dict(sorted(held.items())), separators=(",", ":")))
            except (OSError, UnsafeCache):
                pass  # a read-only checkout (or a refused cache) still gets its findings
        self.modules = held
        return imported_packages((module for modules in (*held.values(), *scanned) for module in modules), installed)


def twin_calls(twins: Iterable[DiscoveredTwin]) -> dict[str, TwinCall]:
    """The discovered twins as rewrites for the ``twin-call`` fix: only the methods (and, for a
    class, the constructor) whose twin was read to take the same parameters are rewritten."""
    return {
        twin.sync: TwinCall(
            twin.kind,
            twin.sync,
            twin.twin,
            True,
            frozenset(twin.same_signature),
            frozenset(twin.local),
            source=twin.source,
        )
        for twin in twins
    }


def with_discovered(catalogue: Catalogue, twins: Iterable[DiscoveredTwin]) -> Catalogue:
    """``catalogue`` extended with the discovered twins' entries, which yield to every entry
    it has for the same pattern (the curated table, the packs, configuration)."""
    discovered = discovered_apis(twins)
    if not discovered:
        return catalogue
    return Catalogue((*discovered, *catalogue.apis.values()), catalogue.offload)


# --- small helpers ------------------------------------------------------------------------


def _statements(body: list[ast.stmt]) -> Iterable[ast.stmt]:
    """Module-level statements, including those under ``if``/``try``/``with`` (guarded and
    optional imports), in order."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)) or node.__class__.__name__ == "TryStar":
            for field in ("body", "orelse", "finalbody"):
                yield from _statements(getattr(node, field, []))
            for handler in getattr(node, "handlers", []):
                yield from _statements(handler.body)


def _uses_synchronizer(found: LibraryFile) -> bool:
    """Whether the package may wrap classes with a synchronizer: its distribution requires one
    (``synchronicity`` for Modal), or, without metadata, its source says so."""
    if found.path.name != "__init__.py":
        return False
    if found.dist and found.version:
        metadata = found.path.parent.parent / f"{found.dist}-{found.version}.dist-info" / "METADATA"
        try:
            return b"synchroni" in metadata.read_bytes()
        except OSError:
            pass
    return _mentions(found.path.parent, b"synchroni")


def _mentions(directory: Path, needle: bytes) -> bool:
    try:
        return any(needle in path.read_bytes() for path in directory.rglob("*.py"))
    except OSError:
        return False


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def _bound(node: ast.ClassDef | ast.Assign) -> list[str]:
    if isinstance(node, ast.ClassDef):
        return [node.name]
    return [target.id for target in node.targets if isinstance(target, ast.Name)]


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value)
        return f"{owner}.{node.attr}" if owner else None
    return None


def _yields(function: ast.AsyncFunctionDef | ast.FunctionDef) -> bool:
    """The function's own body yields (nested functions and classes aside): a generator."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return False


def _params(args: ast.arguments) -> str:
    """A parameter list as two twins must share it: each parameter's kind, name and default
    (annotations differ between twins without changing what a call may pass)."""

    def default(node: ast.expr | None) -> str:
        return "" if node is None else "=" + ast.unparse(node)

    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    parts = [f"{arg.arg}{default(value)}" for arg, value in zip(positional, defaults, strict=True)]
    if args.posonlyargs:
        parts.insert(len(args.posonlyargs), "/")
    parts.append(f"*{args.vararg.arg}" if args.vararg else "*" if args.kwonlyargs else "")
    parts += [f"{arg.arg}{default(value)}" for arg, value in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    parts.append(f"**{args.kwarg.arg}" if args.kwarg else "")
    return ", ".join(part for part in parts if part)


def _decorator_name(node: ast.expr) -> str:
    name = _dotted(node.func if isinstance(node, ast.Call) else node) or ""
    return name.rpartition(".")[2]
