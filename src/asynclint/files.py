"""File discovery (excludes, .gitignore and git's other excludes), decoding, module names."""

from __future__ import annotations

import functools
import io
import os
import re
import stat
import sys
import tokenize
import typing
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from asynclint.config import Config, ConfigError, is_file_here

if TYPE_CHECKING:  # imported where patterns are made: a warm run that skips the walk matches none
    import pathspec


class PathError(Exception):
    """A path named on the command line does not exist."""


@dataclass(frozen=True)
class Discovered:
    path: Path
    explicit: bool  # named on the command line: analysed even when excluded


#: How pathspec's regexes for a pattern without a slash begin: at the top, or below any directories.
_ANYWHERE = "^(?:.+/)?"


def _regex(pattern: pathspec.pattern.RegexPattern) -> re.Pattern[str]:
    """The regex of a pattern that includes or excludes (only a blank or comment line has none)."""
    assert pattern.regex is not None
    return pattern.regex


class _Patterns:
    """Gitignore-style patterns, asked once per directory entry of a walk: the hot spot of a
    warm run on a large tree. Without negations (``!keep``), a path matches when any pattern
    does, so all are tried as one regular expression instead of one after another."""

    def __init__(self, lines: Iterable[str]):
        import pathspec

        self.spec = pathspec.GitIgnoreSpec.from_lines(list(lines))
        self.combined: re.Pattern[str] | None = None
        active = [pattern for pattern in self.spec.patterns if pattern.include is not None]
        if all(pattern.include for pattern in active):
            # pathspec's regexes name a group for the trailing "/" (its own bookkeeping for
            # negations); one alternation cannot repeat a name, and nothing here reads it.
            sources = [_regex(pattern).pattern.replace("(?P<ps_d>", "(?:") for pattern in active]
            if not any("(?P<" in source for source in sources):
                # Most patterns are a name at any depth: one shared "any directories" prefix
                # instead of one per pattern keeps the search from backtracking per pattern.
                anywhere = [s[len(_ANYWHERE) :] for s in sources if s.startswith(_ANYWHERE)]
                others = [s for s in sources if not s.startswith(_ANYWHERE)]
                if anywhere:
                    others.append(_ANYWHERE + "(?:" + "|".join(f"(?:{s})" for s in anywhere) + ")")
                self.combined = re.compile("|".join(f"(?:{source})" for source in others) or "(?!)")

    def match_file(self, path: str) -> bool:
        if self.combined is not None:
            return self.combined.search(path) is not None
        return self.spec.match_file(path)


def _spec(patterns: Iterable[str]) -> _Patterns:
    """Patterns from the configuration or the command line: an invalid one is an error."""
    patterns = list(patterns)
    try:
        return _Patterns(patterns)
    except ValueError:
        bad = next(p for p in patterns if not _valid(p))
        raise ConfigError(f"exclude: invalid gitignore-style pattern {bad!r}") from None


def _valid(pattern: str) -> bool:
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([pattern])
    except ValueError:
        return False
    return True


def display_path(path: Path, root: Path) -> str:
    """Relative to the project root when below it, else absolute; with forward slashes."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


#: The configuration in effect for a directory (absolute): see :meth:`Config.for_path`.
Resolver = Callable[[Path], Config]


def file_stamp(path: str | Path) -> tuple[int, int] | None:
    """(size, modification time) of a regular file, ``None`` when there is none at ``path``."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return None
    return (status.st_size, status.st_mtime_ns) if stat.S_ISREG(status.st_mode) else None


class Observed:
    """What a walk's outcome depends on, noted as it is found: the directories it listed, each
    with its status change time (which changes when an entry is added, removed or renamed, or
    the directory's permissions change; not when a file inside is edited); the files it read or
    asked about -- configuration files, ``.gitignore`` files, git's excludes and configuration --
    each with its :func:`file_stamp` (``None``: none there); and the ``.py`` entries that are
    symbolic links, with whether each led to a file (a link's target can come and go without its
    directory changing). While all of it is the same, the walk would find the same files
    (:class:`asynclint.cache.WalkCache`)."""

    def __init__(self) -> None:
        self.directories: dict[str, int] = {}
        self.files: dict[str, tuple[int, int] | None] = {}
        self.links: dict[str, bool] = {}

    def listed(self, directory: str) -> None:
        """Noted before the directory is read: an entry added meanwhile changes it again, later."""
        try:
            self.directories[directory] = os.stat(directory).st_ctime_ns
        except OSError:
            self.directories[directory] = -1  # unreadable: a directory there later differs

    def read(self, file: str | Path) -> None:
        if str(file) not in self.files:
            self.files[str(file)] = file_stamp(file)


def discover(
    paths: Iterable[str], config: Config, resolver: Resolver | None = None, observed: Observed | None = None
) -> list[Path]:
    """Python files under ``paths``, sorted, without duplicates. Each directory's entries are
    excluded by the configuration in effect there (``resolver``, default ``config.for_path``).
    ``observed`` is told what the outcome depends on (see :class:`Observed`)."""
    resolver = resolver or config.for_path
    specs: dict[int, _Patterns] = {}

    def settings(directory: Path) -> tuple[Config, _Patterns]:
        scope = resolver(directory)
        if id(scope) not in specs:
            specs[id(scope)] = _spec((*scope.exclude, *scope.extend_exclude))
        return scope, specs[id(scope)]

    found: dict[Path, None] = {}
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise PathError(f"{raw}: no such file or directory")
        if path.is_file():
            if not is_python(path):
                raise PathError(
                    f"{raw}: not a Python file (asynclint reads .py files and scripts with a "
                    "python shebang; a directory is searched for .py files)"
                )
            found[path.resolve()] = None  # named explicitly: checked whatever the excludes say
            continue
        for file in _walk(path.resolve(), config.root, settings, observed):
            found[file] = None
    return sorted(found)


def real_files(files: Sequence[Path], paths: Iterable[str]) -> tuple[list[Path], list[tuple[Path, Path]]]:
    """The files ``fix`` may rewrite, each at its real path and once: a file reached through a
    symbolic link is edited where the link points when that lies under one of ``paths`` (once,
    however many links lead to it); a link that leads outside them is left alone ->
    (files, skipped as (link, target))."""
    roots = [Path(raw).resolve() for raw in paths]
    real: dict[Path, None] = {}
    skipped = []
    for file in files:
        target = file.resolve()
        if target == file or any(root == target or root in target.parents for root in roots):
            real[target] = None
        else:
            skipped.append((file, target))
    return sorted(real), skipped


#: What a file named on the command line may be called to be read as Python.
PYTHON_SUFFIXES = (".py", ".pyw")


def is_python(path: Path) -> bool:
    """A ``.py``/``.pyw`` file, or a script without a suffix whose ``#!`` line runs python."""
    if path.suffix in PYTHON_SUFFIXES:
        return True
    if path.suffix:
        return False
    try:
        with path.open("rb") as handle:
            first = handle.readline(256)
    except OSError:
        return True  # unreadable: reading it reports why
    return first.startswith(b"#!") and b"python" in first


def _relative(path: Path | str, root: Path) -> str | None:
    """``path.relative_to(root).as_posix()``, or ``None`` when not below it, on the strings: a
    walk asks it for every entry, and pathlib's version costs more than the match itself."""
    text, base = str(path), str(root)
    if text == base:
        return "."
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not text.startswith(prefix):
        return None
    relative = text[len(prefix) :]
    return relative if os.sep == "/" else relative.replace(os.sep, "/")


def _is_excluded(path: Path | str, is_dir: bool, config: Config, excluded: _Patterns) -> bool:
    name = os.path.basename(path) + ("/" if is_dir else "")
    if excluded.match_file(name):
        return True
    relative = _relative(path, config.root)
    return relative is not None and excluded.match_file(relative + ("/" if is_dir else ""))


def _walk(
    top: Path, root: Path, settings: Callable[[Path], tuple[Config, _Patterns]], observed: Observed | None
) -> Iterator[Path]:
    ignores: list[tuple[Path, _Patterns]] = []
    if settings(top)[0].respect_gitignore:
        if top == root or root in top.parents:
            ignores.extend((root, spec) for spec in repository_excludes(root))
            if observed is not None:
                for source in repository_sources(root):
                    observed.read(source)
        # .gitignore files between the project root and ``top`` apply too, as they do in git.
        above = [p for p in top.parents if p == root or root in p.parents]
        for parent in reversed([top, *above]):
            spec = _gitignore(parent, observed)
            if spec is not None:
                ignores.append((parent, spec))
    yield from _walk_dir(top, settings, ignores, observed)


@functools.cache
def repository_excludes(root: Path) -> tuple[_Patterns, ...]:
    """What git ignores besides the ``.gitignore`` files, when ``root`` is a git work tree: the
    repository's ``info/exclude`` and the user's global excludes file (``core.excludesFile``,
    else ``$XDG_CONFIG_HOME/git/ignore``); both match from the work tree's top."""
    specs = []
    for file in _excludes_files(root):
        try:
            specs.append(_lenient(file.read_text(encoding="utf-8", errors="replace").splitlines()))
        except OSError:
            continue  # none there: nothing excluded by it
    return tuple(specs)


@functools.cache
def _excludes_files(root: Path) -> tuple[Path, ...]:
    """The files :func:`repository_excludes` reads (whether or not they exist)."""
    if not (root / ".git").exists():
        return ()
    info = _git(root, "rev-parse", "--git-path", "info/exclude")
    files = [root / info if info else root / ".git" / "info" / "exclude"]  # absolute stays absolute
    configured = _git(root, "config", "--path", "--get", "core.excludesFile")
    if configured:
        files.append(Path(configured).expanduser())
    else:
        files.append(_config_home() / "git" / "ignore")
    return tuple(files)


def _config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config"))


def repository_sources(root: Path) -> tuple[Path, ...]:
    """Every file what git excludes in ``root`` depends on: ``.git`` itself (a file in a linked
    work tree), the excludes files, and each configuration file that could name another
    excludes file -- the standard places, and every file git reads settings from now (includes
    too). Asked when a walk is recorded, not when a record is checked."""
    files = [root / ".git"]
    if (root / ".git").exists():
        files.extend(_excludes_files(root))
        common = _git(root, "rev-parse", "--git-common-dir")
        git_dir = _git(root, "rev-parse", "--git-dir")
        if common:
            files.append(root / common / "config")  # relative to the work tree, or absolute
        if git_dir:
            files.append(root / git_dir / "config.worktree")
        files.extend(
            [Path("/etc/gitconfig"), Path(os.path.expanduser("~/.gitconfig")), _config_home() / "git" / "config"]
        )
        for line in _git(root, "config", "--list", "--show-origin", "--name-only").splitlines():
            origin, _, _ = line.partition("\t")
            if origin.startswith("file:"):
                files.append(root / origin[len("file:") :])
    return tuple(dict.fromkeys(files))


def _git(root: Path, *args: str) -> str:
    """git's answer in ``root``, stripped; ``""`` without git or an answer."""
    import subprocess  # here: a tree outside git (and a warm run's import time) does without it

    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _gitignore(directory: Path, observed: Observed | None = None) -> _Patterns | None:
    file = directory / ".gitignore"
    if observed is not None:
        observed.read(file)
    if not is_file_here(file):
        return None
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return _lenient(lines)


def _lenient(lines: list[str]) -> _Patterns:
    """An ignore file's patterns: git skips a pattern it cannot use (a lone "!") and keeps the others."""
    try:
        return _Patterns(lines)
    except ValueError:
        return _Patterns([line for line in lines if _valid(line)])


def _git_ignored(path: Path | str, is_dir: bool, ignores: list[tuple[Path, _Patterns]]) -> bool:
    for base, spec in ignores:
        relative = _relative(path, base)
        if relative is not None and spec.match_file(relative + ("/" if is_dir else "")):
            return True
    return False


def _walk_dir(
    directory: Path,
    settings: Callable[[Path], tuple[Config, _Patterns]],
    ignores: list[tuple[Path, _Patterns]],
    observed: Observed | None,
) -> Iterator[Path]:
    config, excluded = settings(directory)
    if config.respect_gitignore and directory != Path(directory.anchor):
        spec = _gitignore(directory, observed)
        if spec is not None and all(base != directory for base, _ in ignores):
            ignores = [*ignores, (directory, spec)]
    if observed is not None:
        observed.listed(str(directory))
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        is_dir = entry.is_dir(follow_symlinks=False)
        if not is_dir and not entry.name.endswith(".py"):
            continue  # never yielded, excluded or not: no pattern need be asked
        if _is_excluded(entry.path, is_dir, config, excluded) or (
            config.respect_gitignore and _git_ignored(entry.path, is_dir, ignores)
        ):
            continue
        path = Path(entry.path)
        if is_dir:
            yield from _walk_dir(path, settings, ignores, observed)
            continue
        if observed is not None and entry.is_symlink():
            observed.links[entry.path] = entry.is_file()
        if entry.is_file():
            yield path


def decode(data: bytes) -> str:
    """Source bytes -> text, honouring a PEP 263 coding cookie. Raises ``UnicodeDecodeError``
    or ``SyntaxError`` (bad cookie) on bad input."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


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
