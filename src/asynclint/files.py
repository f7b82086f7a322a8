"""File discovery (excludes, .gitignore and git's other excludes) and decoding; module names are
module_names.py's."""

from __future__ import annotations

import functools
import io
import os
import re
import stat
import tokenize
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
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
    (:class:`asynclint.cache_results.WalkCache`)."""

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
