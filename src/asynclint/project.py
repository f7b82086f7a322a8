"""A project: its root (what every report's paths are relative to) and which configuration file
applies to which source.

Each file uses the nearest configuration above it (an ``asynclint.toml``, else a
``pyproject.toml`` with ``[tool.asynclint]``), as ruff does; ``extend`` inherits another file's
settings. What a configuration decides splits in two:

- **per file**, from the file's own configuration: which rules report (``select``/``ignore``),
  their severity overrides, and what is excluded below its directory;
- **per project**, from every configuration in effect together: the knowledge the analysis uses
  (``blocking-apis``, ``offload-helpers``, ``hot-roots``, ``cold-roots``, ``registrations``,
  ``memoizing-decorators``) and deep mode (on when any asks, at the deepest depth asked).

The call graph spans the whole project -- a chain from one environment's hook can run through a
shared helper configured elsewhere -- so it is built once, with all the knowledge: knowledge
describes code (a blocking API blocks whoever calls it), not the file that calls it. A finding is
then reported by the configuration of the file it is shown in. The configurations are those of
the whole project (every directory below its root that is not excluded), merged in path order:
a file's findings depend neither on the order of the paths on the command line nor on which
other paths a run names. A root that is only the current directory (no git work tree, no
configuration, not named) is not a project: the run reads the paths it names.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from asynclint.config import CONFIG_FILES, Config, ConfigError, Scope, config_in, load
from asynclint.files import Observed, discover, display_path
from asynclint.model import Finding


def project_root(paths: Sequence[Path], cwd: Path) -> Path:
    """The git work tree holding ``paths`` (code scanning and annotations resolve paths against
    it), else the outermost directory above them with a configuration file, else ``cwd`` when
    they are below it, else the directory they share."""
    existing = [path.resolve() for path in paths if path.exists()]
    if not existing:
        return cwd.resolve()
    common = Path(os.path.commonpath(existing))
    if common.is_file():
        common = common.parent
    for directory in (common, *common.parents):
        if (directory / ".git").exists():
            return directory
    configured = [directory for directory in (common, *common.parents) if config_in(directory) is not None]
    if configured:
        return configured[-1]
    return cwd.resolve() if cwd.resolve() in (common, *common.parents) else common


def is_marked(directory: Path) -> bool:
    """``directory`` is a project's root of its own: a git work tree or a configuration file."""
    return (directory / ".git").exists() or config_in(directory) is not None


class _Nearest:
    """The configuration in effect in a directory, loaded once per file and per directory;
    ``observed`` is told every configuration file asked about or read."""

    def __init__(self, root: Path, observed: Observed | None = None):
        self.default = Config(root=root)
        self.loaded: dict[Path, Config] = {}
        self.by_directory: dict[Path, Config] = {}
        self.observed = observed

    def __call__(self, directory: Path) -> Config:
        if directory not in self.by_directory:
            if self.observed is not None:
                for name in CONFIG_FILES:
                    self.observed.read(directory / name)
            file = config_in(directory)
            if file is not None:
                self.by_directory[directory] = self.load(file)
            elif directory.parent == directory:
                self.by_directory[directory] = self.default
            else:
                self.by_directory[directory] = self(directory.parent)
        return self.by_directory[directory]

    def load(self, file: Path) -> Config:
        if file not in self.loaded:
            read: list[Path] = []
            try:
                self.loaded[file] = load(file, file.parent, read)
            finally:
                if self.observed is not None:
                    for each in read:
                        self.observed.read(each)
        return self.loaded[file]


class Project(NamedTuple):
    """A project's configuration, and the files of its root when its walk found them."""

    config: Config
    #: Every file below the root (``discover([root], config)``), when the root is one of the paths
    #: (else ``None``): a run checking the root needs no second walk of the tree.
    files: list[Path] | None


def configure(paths: Sequence[str], explicit: Path | None = None, cwd: Path | None = None) -> Config:
    """The project's configuration for checking ``paths``: ``explicit`` (``--config``) for every
    file, or each file's nearest configuration file. Raises ``ConfigError``."""
    return load_project(paths, explicit, cwd).config


def load_project(
    paths: Sequence[str],
    explicit: Path | None = None,
    cwd: Path | None = None,
    *,
    use_cache: bool = False,
    cache_directory: Path | None = None,
) -> Project:
    """:func:`configure`, with the files its walk of the project found (see :class:`Project`).
    With ``use_cache``, a walk of the root alone is recorded in the cache (``cache_directory``,
    default: the project's), and skipped while what it depends on is unchanged
    (:class:`asynclint.cache_results.WalkCache`)."""
    cwd = cwd or Path.cwd()
    root = project_root([Path(p) for p in paths], cwd)
    if explicit is not None:
        only = load(explicit, root)
        return Project(replace(only, root=root, scopes=(Scope(Path(root.anchor), only),)), None)
    # A root is read whole when it is a project (a git work tree, a configuration file) or a path the
    # run names. Else it is only where the paths are shown from: the filesystem's root (``/tmp/a.py``
    # and ``/work/b.py``), or the home directory a run started in -- walking that would read every
    # directory below it and fail on an unrelated ``pyproject.toml``, which ruff never reads either.
    named = any(Path(p).resolve() == root for p in paths)
    whole = root != Path(root.anchor) and (named or is_marked(root))
    others = [p for p in paths if Path(p).resolve() != root or not whole]
    walks = None
    if use_cache and whole and not others:
        from asynclint.cache import cache_dir
        from asynclint.cache_results import WalkCache

        walks = WalkCache(cache_directory or cache_dir(root), root, paths)
        recorded = walks.lookup()
        if recorded is not None:
            nearest = _Nearest(root)
            configs, files = recorded
            return Project(_merged(root, tuple(Scope(c.root, c) for c in map(nearest.load, configs))), files)
    observed = Observed() if walks is not None else None
    started = time.time_ns()
    nearest = _Nearest(root, observed)
    walked: list[Config] = []  # what excluded what matters as much as what applies to a file

    def resolver(directory: Path) -> Config:
        walked.append(nearest(directory))
        return walked[-1]

    # The whole project's configurations, whichever paths are checked: the knowledge, and so the
    # findings of a file, must not depend on which other files a run names.
    # A path that is the root itself is walked once (a warm run's largest cost on a big tree).
    files = discover([str(root), *others] if whole else others, Config(root=root), resolver, observed)
    in_effect = sorted({id(c): c for c in (*walked, *(nearest(f.parent) for f in files))}.values(), key=_order)
    scopes = tuple(Scope(c.root, c) for c in in_effect if c is not nearest.default)
    if walks is not None and observed is not None:
        walks.store(observed, started, [s.config.source for s in scopes if s.config.source is not None], files)
    # Each directory was walked with its nearest configuration, the one the merged configuration's
    # ``for_path`` gives it: the walk is the one ``discover(paths, config)`` would make.
    return Project(_merged(root, scopes), files if len(others) < len(paths) else None)


def _order(config: Config) -> tuple:
    return (config.source is not None, config.root.parts)


def _merged(root: Path, scopes: tuple[Scope, ...]) -> Config:
    """The project's analysis settings: the knowledge of every configuration in effect."""
    apis: dict[str, tuple] = {}
    offload: dict[str, tuple[int, Path | None]] = {}
    hot: dict[str, None] = {}
    cold: dict[str, None] = {}
    memoizers: dict[str, None] = {}
    registrations: dict = {}
    deep = [scope.config.follow_depth for scope in scopes if scope.config.follow_imports]
    for scope in scopes:
        config = scope.config
        for api in config.blocking_apis:
            known = apis.setdefault(api.pattern, (api, config.source))
            if known[0] != api:
                raise ConfigError(
                    f"blocking API {api.pattern!r} is described differently in {known[1]} and {config.source}"
                )
        for name, position in config.offload.items():
            known_position = offload.setdefault(name, (position, config.source))
            if known_position[0] != position:
                raise ConfigError(
                    f"offload helper {name!r} takes the callable at different positions in "
                    f"{known_position[1]} and {config.source}"
                )
        hot.update(dict.fromkeys(config.hot_roots))
        cold.update(dict.fromkeys(config.cold_roots))
        memoizers.update(dict.fromkeys(config.memoizers))
        registrations.update(dict.fromkeys(config.registrations))
    return Config(
        root=root,
        blocking_apis=tuple(api for api, _ in apis.values()),
        hot_roots=tuple(hot),
        cold_roots=tuple(cold),
        memoizers=tuple(memoizers),
        offload={name: position for name, (position, _) in offload.items()},
        registrations=tuple(registrations),
        # Deep mode unless every configuration in effect switches it off (none: the default).
        follow_imports=bool(deep) if scopes else Config(root=root).follow_imports,
        follow_depth=max(deep, default=Config(root=root).follow_depth),
        scopes=scopes,
    )


def touched(paths: Sequence[str], root: Path) -> frozenset[str]:
    """``paths`` as findings show them (from the project ``root``); a directory as a prefix
    ending in ``/`` (the root itself: ``""``, everything)."""
    shown = set()
    for path in map(Path, paths):
        name = display_path(path, root)
        shown.add(name if not path.is_dir() else "" if name == "." else name + "/")
    return frozenset(shown)


def covers(wanted: frozenset[str], path: str) -> bool:
    """``path`` (as shown) is one of the ``wanted`` files (:func:`touched`) or below a wanted directory."""
    return path in wanted or any(w == "" or (w.endswith("/") and path.startswith(w)) for w in wanted)


def touches(finding: Finding, wanted: frozenset[str]) -> bool:
    """The finding is in one of the ``wanted`` files or its chain runs through one: a change
    there can make it appear (a helper that now sleeps, called from an unchanged hook)."""
    return covers(wanted, finding.path) or any(covers(wanted, link.path) for link in finding.chain)
