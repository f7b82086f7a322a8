"""Module names: the import root each file belongs to and the dotted name it is imported by, as
Python would import it from the project's layout (packages, namespace portions, import bases)."""

from __future__ import annotations

import os
import sys
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path


def _layout(path: Path, packages: Callable[[Path], tuple[tuple[str, ...], Path]]) -> tuple[str, str, Path]:
    """(module, package, import root): the root is the directory above the top-level package,
    the one that must be on ``sys.path`` for the import to work. ``packages``: a directory's
    package parts and import root (:func:`_packages`)."""
    parts, directory = packages(path.parent)
    stem = path.stem
    if stem == "__init__":
        module = ".".join(parts) or directory.name
        return module, module, directory
    package = ".".join(parts)
    return (f"{package}.{stem}" if package else stem), package, directory


def _packages(
    exists: Callable[[str], bool], project_root: Path | None
) -> Callable[[Path], tuple[tuple[str, ...], Path]]:
    """A directory -> (the package names from its import root down to it, the import root),
    asked of the disk once per directory (every file of a directory has the same; a warm run
    asked it of each file, most of its system calls). A directory without ``__init__.py``
    inside a package is a namespace portion of it (``art_e/utils/`` of the package ``art_e``
    is ``art_e.utils``), as Python imports it. ``exists``: whether a file is there, asked of the
    disk once per file.

    Where the directories above a package (or a script's directory) hold no ``__init__.py``, the
    import root is the nearest import base above it, up to ``project_root``
    (:func:`_import_base`), and every directory between is a namespace package (PEP 420):
    ``env/pkg/a.py`` beside ``env/pyproject.toml`` is ``pkg.a``, as ``from pkg.a import f`` run
    from ``env`` (or the environment installed with ``packages = ["pkg"]``) imports it.
    Without a base, or through a directory whose name no import can spell (``my-env``), the
    directory is a root of its own, as a script's directory is ``sys.path[0]`` when it runs."""
    known: dict[Path, tuple[tuple[str, ...], Path]] = {}
    bases: dict[Path, Path | None] = {}

    def is_package(directory: Path) -> bool:
        return exists(os.path.join(directory, "__init__.py"))

    def packages(start: Path) -> tuple[tuple[str, ...], Path]:
        if start not in known:
            parts: list[str] = []
            directory = start
            while is_package(directory) or (directory.name.isidentifier() and is_package(directory.parent)):
                parts.insert(0, directory.name)
                if directory.parent == directory:
                    break
                directory = directory.parent
            base = _import_base(directory, project_root, exists, bases) if project_root is not None else None
            if base is not None and base != directory:
                between = directory.relative_to(base).parts
                if all(name.isidentifier() for name in between):
                    parts[:0] = between
                    directory = base
            known[start] = tuple(parts), directory
        return known[start]

    return packages


#: Files that make a directory a project's root, whose packages are imported from it: what
#: packaging tools build from and what a checkout runs from (mypy's ``explicit_package_bases``
#: takes the bases it is given; asynclint has only the layout to go by).
PROJECT_FILES: tuple[str, ...] = ("pyproject.toml", "setup.py", "setup.cfg")
#: A directory of this name at a project's root holds its packages (the src layout; ruff's
#: default ``src = [".", "src"]``).
SOURCE_DIRECTORY = "src"


def _import_base(
    directory: Path, project_root: Path, exists: Callable[[str], bool], bases: dict[Path, Path | None]
) -> Path | None:
    """The nearest directory at or above ``directory``, up to ``project_root``, that holds one of
    :data:`PROJECT_FILES`, or is the :data:`SOURCE_DIRECTORY` of one; ``None`` when there is
    none. ``bases``: the answers so far, by directory."""
    if directory in bases:
        return bases[directory]
    if any(exists(os.path.join(directory, name)) for name in PROJECT_FILES) or (
        directory.name == SOURCE_DIRECTORY
        and any(exists(os.path.join(directory.parent, name)) for name in PROJECT_FILES)
    ):
        found: Path | None = directory
    elif directory == project_root or directory.parent == directory or project_root not in directory.parents:
        found = None
    else:
        found = _import_base(directory.parent, project_root, exists, bases)
    bases[directory] = found
    return found


@dataclass(frozen=True)
class ModuleName:
    module: str
    package: str
    #: Top-level names that several import roots of the project define -> the module such an
    #: import means from this file (see :func:`module_names`).
    imports: Sequence[tuple[str, str]] = ()


#: Joins a top-level name defined in several import roots to the root it comes from: ``utils@env_a``
#: (never valid in an import, so never confused with a real module).
ROOT_MARK = "@"


def module_names(
    paths: Sequence[Path], probed: dict[Path, bool] | None = None, project_root: Path | None = None
) -> dict[Path, ModuleName]:
    """Module names for the files of one project, unique even where two import roots define the
    same top-level module.

    A directory without ``__init__.py`` that holds a top-level module is an import root of its
    own -- a script's directory is ``sys.path[0]`` when it runs -- so two environments side by
    side can each have a ``utils.py``, and each one's ``from utils import helper`` means its
    own. Such a name becomes ``utils@env_a`` / ``utils@env_b`` (after the shortest distinct
    paths of the roots), and every file is told what a bare ``utils`` means from where it is:
    the module in its own root first, else the one whose root is nearest above it, else the
    first in path order.

    A file inside a package may also import the modules of its package's directories by their
    bare names (:func:`_package_siblings`): ``from patching import apply`` in
    ``env/sv_env.py`` beside ``env/__init__.py`` and ``env/patching.py`` means ``env.patching``.

    Below ``project_root``, a directory without ``__init__.py`` between a file and the project's
    import base is a namespace package (:func:`_packages`); without it, every such directory is a
    root of its own.

    ``probed`` is filled with every file asked whether it is there (``__init__.py``, the files of
    :data:`PROJECT_FILES`), and the answer: with the paths, all on the disk the names depend on."""
    asked: dict[str, bool] = {}  # by the string: asked per file and directory, a Path per ask costs

    def exists(file: str) -> bool:
        found = asked.get(file)
        if found is None:
            found = asked[file] = os.path.isfile(file)
            if probed is not None:
                probed[Path(file)] = found
        return found

    packages = _packages(exists, project_root)
    layouts = {path: _layout(path, packages) for path in paths}
    beside = _beside_modules(layouts)
    for path, (_, package, root) in beside.items():
        layouts[path] = (f"{package}.{path.stem}", package, root)
    roots_of: dict[str, set[Path]] = {}
    for module, _, root in layouts.values():
        roots_of.setdefault(module.partition(".")[0], set()).add(root)
    shared = {top: sorted(roots) for top, roots in roots_of.items() if len(roots) > 1}
    labels = {top: _labels(roots) for top, roots in shared.items()}
    # What a bare name means depends only on the importer's root: between a file and its root
    # every directory is a package (it has an ``__init__.py``), so no other root lies between.
    meaning: dict[Path, tuple[tuple[str, str], ...]] = {}
    names = {}
    for path, (module, package, root) in layouts.items():
        top = module.partition(".")[0]
        if top in shared:
            unique = f"{top}{ROOT_MARK}{labels[top][root]}"
            module = unique + module[len(top) :]
            package = unique + package[len(top) :] if package.partition(".")[0] == top else package
        if root not in meaning:
            meaning[root] = tuple(
                (name, f"{name}{ROOT_MARK}{labels[name][_nearest(roots, root)]}")
                for name, roots in sorted(shared.items())
            )
        names[path] = ModuleName(module, package, meaning[root])
    # Run as a script, a file of such a directory imports its siblings by their bare names; never
    # itself: ``import bm25s`` in ``sources/bm25s.py`` means the library it wraps.
    for path, (directory, _, base) in beside.items():
        own = {name.partition(".")[0] for name, _, root in layouts.values() if root == base}
        siblings = tuple(
            (other.stem, names[other].module)
            for other in sorted(beside)
            if other.parent == directory
            and other != path
            and other.stem not in own
            and other.stem not in dict(names[path].imports)
        )
        names[path] = replace(names[path], imports=(*names[path].imports, *siblings))
    in_packages = {path: layout for path, layout in layouts.items() if layout[1] and path not in beside}
    if in_packages:
        _package_siblings(in_packages, names, roots_of, exists)
    return names


def _package_siblings(
    layouts: dict[Path, tuple[str, str, Path]],
    names: dict[Path, ModuleName],
    roots_of: dict[str, set[Path]],
    exists: Callable[[str], bool],
) -> None:
    """Tell each file inside a package what a bare import of a module of its package's
    directories means (``names`` is updated): its own directory's first, then each package
    directory above it up to the top-level package.

    Environment code imports its siblings as top-level modules (``from patching import
    apply``, ``from adapters.kube import lint``) because the environment runs, or is installed,
    with its own directory on ``sys.path`` -- as top-level modules, whatever ``__init__.py`` it
    also holds -- or because the file inserts its directory there. Where the interpreter would
    find the name elsewhere first, the sibling is not what the import means, so it is left out:

    - a top-level module of the file's own import root: that directory is on ``sys.path`` too,
      and the project names its modules so already;
    - a standard-library name: the standard library comes before the directories an
      installed or appended environment adds;
    - a directory without ``__init__.py``: a namespace portion loses to a module or regular
      package of the same name anywhere on ``sys.path``, and which are installed is not asked here.
    - a framework's top-level package (:data:`~asynclint.knowledge.frameworks.FRAMEWORK_PACKAGES`):
      a project's ``integrations/verifiers/`` package holds its adapter to verifiers, and the
      adapter's ``import verifiers`` means the framework, never the directory it sits in.

    An installed third-party name does not win over a sibling: a module the project ships is the
    evidence at hand, and the installed one may be this very environment. An ``__init__.py`` is
    told nothing: it runs only when its directory is imported as a package, never in the flat layout."""
    children: dict[Path, dict[str, str]] = {}
    for path, (_, _, root) in layouts.items():
        module = names[path].module  # a top-level name of several roots is marked with its own
        parts = module.split(".")
        directories = path.parent.relative_to(root).parts
        if path.stem != "__init__":
            children.setdefault(path.parent, {}).setdefault(path.stem, module)
        for depth in range(1, len(directories)):
            directory = root.joinpath(*directories[: depth + 1])
            if exists(os.path.join(directory, "__init__.py")):  # a regular package beats a module of its name beside it
                children.setdefault(directory.parent, {})[directory.name] = ".".join(parts[: depth + 1])
    own_tops: dict[Path, set[str]] = {}
    for top, roots in roots_of.items():
        for root in roots:
            own_tops.setdefault(root, set()).add(top)
    # Every file of a directory is told the same names but for its own: one table per directory
    # (a package of 600 modules beside each other told each of them 600 names: 43 MB of tuples
    # on a 7,500-file tree), each name with what it means to the file it would name itself.
    tables: dict[tuple[Path, Path], tuple[tuple[str, str, str | None], ...]] = {}
    kept_once: dict[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]] = {}
    for path, (_, _, root) in layouts.items():
        if path.stem == "__init__":
            continue
        table = tables.get((path.parent, root))
        if table is None:
            table = tables[path.parent, root] = _siblings_table(path.parent, root, children, own_tops.get(root, ()))
        module = names[path].module
        told = {name for name, meant, instead in table if meant != module or instead is not None}
        if not told:
            continue
        kept = tuple((name, meant) for name, meant in names[path].imports if name not in told)
        names[path] = replace(names[path], imports=Imports(kept_once.setdefault(kept, kept), table, module))


def _siblings_table(
    directory: Path, root: Path, children: dict[Path, dict[str, str]], own_tops: Iterable[str]
) -> tuple[tuple[str, str, str | None], ...]:
    """What a bare import means from a file of ``directory`` (under import ``root``), by name: the
    first module of that name in the directory or a package directory above it, and the next one
    of another name above that (what the name means to the file that is the first: a file never
    imports itself so); a name of the root's own top-level modules, of the standard library or of
    a framework's package is left out."""
    first: dict[str, str] = {}
    second: dict[str, str] = {}
    while directory != root and root in directory.parents:
        for name, sibling in children.get(directory, {}).items():
            if name not in first:
                first[name] = sibling
            elif name not in second and sibling != first[name]:
                second[name] = sibling
        directory = directory.parent
    # Imported here: the command's start-up (and a warm run, which never builds a table) loads
    # no knowledge.
    from asynclint.knowledge.frameworks import FRAMEWORK_PACKAGES

    skipped = {*own_tops, *FRAMEWORK_PACKAGES}
    return tuple(
        (name, meant, second.get(name))
        for name, meant in sorted(first.items())
        if name not in skipped and name not in sys.stdlib_module_names
    )


class Imports(Sequence[tuple[str, str]]):
    """A file's bare imports as (name, module) pairs (:class:`ModuleName`'s ``imports``): its own
    (``kept``) and its directory's table (shared by every file of the directory: see
    :func:`_package_siblings`), read as the file ``module`` would. Equal to the tuple of its pairs."""

    __slots__ = ("kept", "table", "module")

    def __init__(self, kept: tuple[tuple[str, str], ...], table: tuple[tuple[str, str, str | None], ...], module: str):
        self.kept, self.table, self.module = kept, table, module

    def __iter__(self) -> Iterator[tuple[str, str]]:
        yield from self.kept
        module = self.module
        for name, meant, instead in self.table:
            if meant != module:
                yield name, meant
            elif instead is not None:
                yield name, instead

    def _tuple(self) -> tuple[tuple[str, str], ...]:
        return tuple(self.__iter__())  # (``tuple(self)`` would ask ``len`` first)

    def __len__(self) -> int:
        return len(self._tuple())

    @typing.overload
    def __getitem__(self, index: int) -> tuple[str, str]: ...
    @typing.overload
    def __getitem__(self, index: slice) -> Sequence[tuple[str, str]]: ...
    def __getitem__(self, index: int | slice) -> tuple[str, str] | Sequence[tuple[str, str]]:
        return self._tuple()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Imports | tuple):
            return self._tuple() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._tuple())

    def __repr__(self) -> str:
        return repr(self._tuple())


def _beside_modules(layouts: dict[Path, tuple[str, str, Path]]) -> dict[Path, tuple[Path, str, Path]]:
    """Files of a directory without ``__init__.py`` below a directory holding a top-level module of
    the project -> (their directory, its package name, that import root): a namespace package of
    the module's root. ``web_voyager/utils/browser.py`` next to ``web_voyager/web_voyager.py`` is
    imported as ``utils.browser``; through directories that hold no module of their own (PEP 420
    portions, nothing but a path), ``ragent/data/sources/bm25s.py`` below ``ragent_env.py`` as
    ``ragent.data.sources.bm25s``, as the script's ``sys.path[0]`` finds it. A directory inside
    such a directory keeps its files' own names (it holds modules: a script directory of its own)."""
    holding = {path.parent for path, (_, package, _) in layouts.items() if not package and path.stem != "__init__"}
    chains: dict[Path, tuple[str, Path]] = {}
    for directory in holding:
        parts = [directory.name]
        above = directory.parent
        while above not in holding and above.name.isidentifier() and above.parent != above:
            parts.insert(0, above.name)
            above = above.parent
        if above in holding and all(part.isidentifier() for part in parts):
            chains[directory] = (".".join(parts), above)
    return {
        path: (path.parent, *chains[path.parent])
        for path, (_, package, _) in layouts.items()
        if not package and path.stem != "__init__" and path.parent in chains and chains[path.parent][1] not in chains
    }


def _nearest(roots: list[Path], own: Path) -> Path:
    if own in roots:
        return own
    above = [root for root in roots if root in own.parents]
    return max(above, key=lambda root: len(root.parts)) if above else roots[0]


def _labels(roots: list[Path]) -> dict[Path, str]:
    """Each root named by the fewest trailing path parts that tell it from the others."""
    for depth in range(1, max(len(root.parts) for root in roots) + 1):
        labels = {root: "/".join(root.parts[-depth:]).replace(".", "_") for root in roots}
        if len(set(labels.values())) == len(roots):
            return labels
    return {root: root.as_posix().replace(".", "_") for root in roots}
