"""File discovery (excludes, .gitignore and git's other excludes), decoding, module names."""

from __future__ import annotations

import functools
import io
import os
import subprocess
import tokenize
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pathspec

from asynclint.config import Config


class PathError(Exception):
    """A path named on the command line does not exist."""


@dataclass(frozen=True)
class Discovered:
    path: Path
    explicit: bool  # named on the command line: analysed even when excluded


def _spec(patterns: Iterable[str]) -> pathspec.PathSpec:
    return pathspec.GitIgnoreSpec.from_lines(list(patterns))


def display_path(path: Path, root: Path) -> str:
    """Relative to the project root when below it, else absolute; with forward slashes."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


#: The configuration in effect for a directory (absolute): see :meth:`Config.for_path`.
Resolver = Callable[[Path], Config]


def discover(paths: Iterable[str], config: Config, resolver: Resolver | None = None) -> list[Path]:
    """Python files under ``paths``, sorted, without duplicates. Each directory's entries are
    excluded by the configuration in effect there (``resolver``, default ``config.for_path``)."""
    resolver = resolver or config.for_path
    specs: dict[int, pathspec.PathSpec] = {}

    def settings(directory: Path) -> tuple[Config, pathspec.PathSpec]:
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
                raise PathError(f"{raw}: not a Python file (asynclint reads .py files and scripts with a "
                                "python shebang; a directory is searched for .py files)")
            found[path.resolve()] = None  # named explicitly: checked whatever the excludes say
            continue
        for file in _walk(path.resolve(), config.root, settings):
            found[file] = None
    return sorted(found)


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


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def _is_excluded(path: Path, is_dir: bool, config: Config, excluded: pathspec.PathSpec) -> bool:
    name = path.name + ("/" if is_dir else "")
    if excluded.match_file(name):
        return True
    relative = _relative(path, config.root)
    return relative is not None and excluded.match_file(relative + ("/" if is_dir else ""))


def _walk(top: Path, root: Path, settings) -> Iterator[Path]:
    ignores: list[tuple[Path, pathspec.PathSpec]] = []
    if settings(top)[0].respect_gitignore:
        if top == root or root in top.parents:
            ignores.extend((root, spec) for spec in repository_excludes(root))
        # .gitignore files between the project root and ``top`` apply too, as they do in git.
        above = [p for p in top.parents if p == root or root in p.parents]
        for parent in reversed([top, *above]):
            spec = _gitignore(parent)
            if spec is not None:
                ignores.append((parent, spec))
    yield from _walk_dir(top, settings, ignores)


@functools.cache
def repository_excludes(root: Path) -> tuple[pathspec.PathSpec, ...]:
    """What git ignores besides the ``.gitignore`` files, when ``root`` is a git work tree: the
    repository's ``info/exclude`` and the user's global excludes file (``core.excludesFile``,
    else ``$XDG_CONFIG_HOME/git/ignore``); both match from the work tree's top."""
    if not (root / ".git").exists():
        return ()
    info = _git(root, "rev-parse", "--git-path", "info/exclude")
    files = [root / info if info else root / ".git" / "info" / "exclude"]  # absolute stays absolute
    configured = _git(root, "config", "--path", "--get", "core.excludesFile")
    if configured:
        files.append(Path(configured).expanduser())
    else:
        config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
        files.append(Path(config_home) / "git" / "ignore")
    specs = []
    for file in files:
        try:
            specs.append(_spec(file.read_text(encoding="utf-8", errors="replace").splitlines()))
        except OSError:
            continue  # none there: nothing excluded by it
    return tuple(specs)


def _git(root: Path, *args: str) -> str:
    """One line of git's answer in ``root``; ``""`` without git or an answer."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _gitignore(directory: Path) -> pathspec.PathSpec | None:
    file = directory / ".gitignore"
    if not file.is_file():
        return None
    try:
        return _spec(file.read_text(encoding="utf-8", errors="replace").splitlines())
    except OSError:
        return None


def _git_ignored(path: Path, is_dir: bool, ignores: list[tuple[Path, pathspec.PathSpec]]) -> bool:
    for base, spec in ignores:
        relative = _relative(path, base)
        if relative is not None and spec.match_file(relative + ("/" if is_dir else "")):
            return True
    return False


def _walk_dir(directory: Path, settings, ignores) -> Iterator[Path]:
    config, excluded = settings(directory)
    if config.respect_gitignore and directory != Path(directory.anchor):
        spec = _gitignore(directory)
        if spec is not None and all(base != directory for base, _ in ignores):
            ignores = [*ignores, (directory, spec)]
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        path = Path(entry.path)
        is_dir = entry.is_dir(follow_symlinks=False)
        if _is_excluded(path, is_dir, config, excluded) or (
            config.respect_gitignore and _git_ignored(path, is_dir, ignores)
        ):
            continue
        if is_dir:
            yield from _walk_dir(path, settings, ignores)
        elif entry.name.endswith(".py") and entry.is_file():
            yield path


def decode(data: bytes) -> str:
    """Source bytes -> text, honouring a PEP 263 coding cookie. Raises ``UnicodeDecodeError``
    or ``SyntaxError`` (bad cookie) on bad input."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(encoding)
    return text[1:] if text.startswith("\ufeff") else text


def _layout(path: Path) -> tuple[str, str, Path]:
    """(module, package, import root): the root is the directory above the top-level package,
    the one that must be on ``sys.path`` for the import to work. A directory without
    ``__init__.py`` inside a package is a namespace portion of it (``art_e/utils/`` of the
    package ``art_e`` is ``art_e.utils``), as Python imports it."""
    parts: list[str] = []
    directory = path.parent
    while (directory / "__init__.py").is_file() or (
        directory.name.isidentifier() and (directory.parent / "__init__.py").is_file()
    ):
        parts.insert(0, directory.name)
        if directory.parent == directory:
            break
        directory = directory.parent
    stem = path.stem
    if stem == "__init__":
        module = ".".join(parts) or directory.name
        return module, module, directory
    package = ".".join(parts)
    return (f"{package}.{stem}" if package else stem), package, directory


@dataclass(frozen=True)
class ModuleName:
    module: str
    package: str
    #: Top-level names that several import roots of the project define -> the module such an
    #: import means from this file (see :func:`module_names`).
    imports: tuple[tuple[str, str], ...] = ()


#: Joins a top-level name defined in several import roots to the root it comes from: ``utils@env_a``
#: (never valid in an import, so never confused with a real module).
ROOT_MARK = "@"


def module_names(paths: Sequence[Path]) -> dict[Path, ModuleName]:
    """Module names for the files of one project, unique even where two import roots define the
    same top-level module.

    A directory without ``__init__.py`` that holds a top-level module is an import root of its
    own -- a script's directory is ``sys.path[0]`` when it runs -- so two environments side by
    side can each have a ``utils.py``, and each one's ``from utils import helper`` means its
    own. Such a name becomes ``utils@env_a`` / ``utils@env_b`` (after the shortest distinct
    paths of the roots), and every file is told what a bare ``utils`` means from where it is:
    the module in its own root first, else the one whose root is nearest above it, else the
    first in path order."""
    layouts = {path: _layout(path) for path in paths}
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
            module = unique + module[len(top):]
            package = unique + package[len(top):] if package.partition(".")[0] == top else package
        if root not in meaning:
            meaning[root] = tuple(
                (name, f"{name}{ROOT_MARK}{labels[name][_nearest(roots, root)]}")
                for name, roots in sorted(shared.items())
            )
        names[path] = ModuleName(module, package, meaning[root])
    return names


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
