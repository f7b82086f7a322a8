"""Deep mode's edge: find the source of installed third-party modules, and what they belong to.

Nothing here imports or runs the code it finds: modules are located with
:class:`importlib.machinery.PathFinder` over an explicit search path (the interpreter's
``sys.path`` by default), and distributions are read from their ``.dist-info`` directories.
"""

from __future__ import annotations

import importlib.machinery
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path

from asynclint.knowledge.versions import admitted, release

#: Never followed: the catalogue already knows what in the standard library blocks, and
#: asyncio's internals would only add noise.
_STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


@dataclass(frozen=True)
class LibraryFile:
    module: str  # dotted module name
    package: str  # what relative imports in it resolve against
    path: Path
    dist: str | None  # the distribution that installed it, when its metadata says so
    version: str | None

    @property
    def label(self) -> str:
        """How messages name where the code comes from: ``slowlib 1.2.0``."""
        if self.dist is None:
            return self.module.partition(".")[0]
        return f"{self.dist} {self.version}" if self.version else self.dist


class Installed:
    """Modules importable from ``search_path`` that are neither the project's nor the standard
    library's."""

    def __init__(self, search_path: Sequence[str], project_packages: Iterable[str]):
        cwd = Path.cwd()
        self._search = [
            entry
            for entry in dict.fromkeys(search_path)
            # "" is the working directory: the project, not an installed package.
            if entry and Path(entry).is_dir() and Path(entry).resolve() != cwd.resolve()
        ]
        self._skip = _STDLIB | frozenset(project_packages)
        self._specs: dict[str, ModuleSpec | None] = {}
        self._owners: dict[Path, dict[str, tuple[str | None, str | None]]] = {}
        self._scanned: dict[Path, dict[str, tuple[str, str | None]]] = {}
        self._infos: dict[Path, list[Path]] = {}

    def fingerprint(self) -> str:
        """The search path and when each directory on it last changed: installing, upgrading or
        removing a package adds or removes entries in one of them."""
        stamps = []
        for entry in self._search:
            try:
                stamps.append(f"{entry}:{Path(entry).stat().st_mtime_ns}")
            except OSError:
                stamps.append(f"{entry}:-")
        return "\n".join(stamps)

    def _spec(self, module: str) -> ModuleSpec | None:
        if module in self._specs:
            return self._specs[module]
        parent, _, _ = module.rpartition(".")
        if parent:
            parent_spec = self._spec(parent)
            locations = list(parent_spec.submodule_search_locations or ()) if parent_spec else []
        else:
            locations = self._search
        spec = None
        if locations:
            try:
                spec = importlib.machinery.PathFinder.find_spec(module, locations)
            except KeyError:
                # A namespace package (no ``__init__.py``) inside a package: PathFinder looks
                # its parent up in ``sys.modules``, and nothing here is imported.
                spec = _namespace_spec(module, locations)
            except (ImportError, ValueError, OSError):
                spec = None
        self._specs[module] = spec
        return spec

    def find(self, module: str) -> LibraryFile | None:
        """The source file of ``module``, if it is an installed pure-Python module."""
        top = module.partition(".")[0]
        if not top.isidentifier() or top in self._skip:
            return None
        spec = self._spec(module)
        origin = spec.origin if spec is not None else None
        if origin is None or not origin.endswith(".py"):
            return None  # namespace package, extension module, or not installed
        path = Path(origin)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        dist, version = self._owner(top)
        return LibraryFile(module, package, path, dist, version)

    def locate(self, dotted: str) -> LibraryFile | None:
        """The module holding the longest importable prefix of ``dotted``
        (``slowlib.Client.query`` -> ``slowlib``). Only a package has submodules, so the prefixes
        tried end at the first that is not one: a long attribute chain costs the depth of its
        packages. (Each prefix joined anew, from the longest down, made names of a thousand
        parts -- call chains in the standard library's tests -- most of a recheck's time.)"""
        parts = dotted.split(".")
        if not parts[0].isidentifier() or parts[0] in self._skip:
            return None
        importable: list[str] = []
        for part in parts:
            module = f"{importable[-1]}.{part}" if importable else part
            spec = self._spec(module)
            if spec is None:
                break
            importable.append(module)
            if not spec.submodule_search_locations:
                break
        for module in reversed(importable):
            found = self.find(module)
            if found is not None:
                return found
        return None

    def _owner(self, top: str) -> tuple[str | None, str | None]:
        spec = self._spec(top)
        if spec is None or spec.origin is None:
            return None, None
        origin = Path(spec.origin)
        directory = origin.parent.parent if origin.name == "__init__.py" else origin.parent
        owners = self._owners.setdefault(directory, {})
        if top not in owners:
            # Most distributions are named after their package: read that one's metadata only,
            # and every distribution's (hundreds of files in a big environment) only for the rest.
            named = _named_after(self._dist_infos(directory), top)
            owners[top] = named if named is not None else self._all_owners(directory).get(top, (None, None))
        return owners[top]

    def _dist_infos(self, directory: Path) -> list[Path]:
        if directory not in self._infos:
            try:
                self._infos[directory] = sorted(directory.glob("*.dist-info"))
            except OSError:
                self._infos[directory] = []
        return self._infos[directory]

    def _all_owners(self, directory: Path) -> dict[str, tuple[str, str | None]]:
        if directory not in self._scanned:
            self._scanned[directory] = _installed_here(self._dist_infos(directory))
        return self._scanned[directory]


def _namespace_spec(module: str, locations: Sequence[str]) -> ModuleSpec | None:
    name = module.rpartition(".")[2]
    found = [str(Path(location) / name) for location in locations if (Path(location) / name).is_dir()]
    if not found:
        return None
    spec = ModuleSpec(module, None, is_package=True)
    spec.submodule_search_locations = found
    return spec


def _named_after(infos: Sequence[Path], top: str) -> tuple[str, str | None] | None:
    """(distribution, version) of the wheel among ``infos`` (``.dist-info`` directories) whose
    name is ``top``'s (as normalized: ``prime-sandboxes`` for ``prime_sandboxes``) and which
    installed ``top``."""
    wanted = _normalized(top)
    for info in infos:
        name, _, version = info.name.removesuffix(".dist-info").partition("-")
        if _normalized(name) == wanted and top in _top_level(info):
            return name, version or None
    return None


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()  # PEP 503


def _installed_here(infos: Sequence[Path]) -> dict[str, tuple[str, str | None]]:
    """Top-level name -> (distribution, version) for the wheels whose ``.dist-info`` directories
    are ``infos``, read from their names and their ``top_level.txt`` or ``RECORD`` (parsing every
    METADATA file through importlib.metadata costs ~100x more)."""
    owners: dict[str, tuple[str, str | None]] = {}
    for info in infos:
        name, _, version = info.name.removesuffix(".dist-info").partition("-")
        for top in _top_level(info):
            owners.setdefault(top, (name, version or None))
    return owners


def _top_level(info: Path) -> set[str]:
    # Metadata written by any tool, in any state: what cannot be read just names no package.
    try:
        text = (info / "top_level.txt").read_text(encoding="utf-8", errors="replace")
        return {line.strip() for line in text.splitlines() if line.strip()}
    except OSError:
        pass
    try:
        record = (info / "RECORD").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    names = set()
    for line in record.splitlines():
        first = line.split(",", 1)[0].split("/", 1)
        if len(first) == 2 and first[0].isidentifier():
            names.add(first[0])  # a package directory
        elif first[0].endswith(".py") and first[0][:-3].isidentifier():
            names.add(first[0][:-3])  # a top-level module
    return names


#: A requirement's name, extras and version specifiers (PEP 508, the markers after ``;`` dropped).
_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*\(?([^;()]*)\)?")


def nearest_pyproject(start: Path, root: Path) -> Path | None:
    """The ``pyproject.toml`` nearest above ``start`` (a directory), up to ``root``: in a
    repository of environments, the one of the environment checked."""
    for directory in (start, *start.parents):
        if (directory / "pyproject.toml").is_file():
            return directory / "pyproject.toml"
        if directory == root:
            break
    return None


def declared(requirements: Iterable[str]) -> dict[str, str]:
    """Distribution -> the version specifiers a requirement sets for it (``>=0.1.14,<0.2``,
    ``==0.1.2``), spaces dropped; a requirement with none declares nothing."""
    found: dict[str, str] = {}
    for requirement in requirements:
        match = _REQUIREMENT.match(requirement) if isinstance(requirement, str) else None
        if match is not None and (specifiers := "".join(match.group(2).split())):
            found[_normalized(match.group(1))] = specifiers
    return found


#: Lock files beside a pyproject.toml that record the one version of each package resolved, as
#: ``[[package]]`` tables of ``name`` and ``version`` (uv and Poetry write the same shape).
LOCK_FILES: tuple[str, ...] = ("uv.lock", "poetry.lock")
#: Requirement files beside a pyproject.toml (pip's format: a requirement a line).
REQUIREMENT_FILES: tuple[str, ...] = ("requirements.txt", "requirements.in")


def _locked(directory: Path) -> dict[str, str]:
    """Distribution -> the version a lock file in ``directory`` resolved."""
    for name in LOCK_FILES:
        packages = _document(directory / name).get("package")
        if isinstance(packages, list):
            return {
                _normalized(package["name"]): package["version"]
                for package in packages
                if isinstance(package, dict)
                and isinstance(package.get("name"), str)
                and isinstance(package.get("version"), str)
            }
    return {}


def _required(directory: Path) -> dict[str, str]:
    """Distribution -> specifiers, from the requirement files in ``directory``."""
    found: dict[str, str] = {}
    for name in REQUIREMENT_FILES:
        try:
            text = (directory / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
        found = {**declared(line for line in lines if line and not line.startswith("-")), **found}
    return found


def declared_packages(pyproject: Path | None) -> tuple[str, ...]:
    """The distributions the project declares it depends on, normalised: ``[project]
    dependencies`` in ``pyproject`` and the requirement files beside it, with or without version
    specifiers. Where the project is installed, they are."""
    project = _document(pyproject).get("project")
    dependencies = project.get("dependencies") if isinstance(project, dict) else None
    lines: list[str] = (
        [line for line in dependencies if isinstance(line, str)] if isinstance(dependencies, list) else []
    )
    for path in [pyproject.parent / name for name in REQUIREMENT_FILES] if pyproject is not None else []:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        lines += [line.split("#", 1)[0] for line in text.splitlines() if not line.lstrip().startswith("-")]
    return tuple(sorted({_normalized(match.group(1)) for line in lines if (match := _REQUIREMENT.match(line))}))


def project_versions(
    pyproject: Path | None, distributions: Iterable[str], installed: Installed | None
) -> tuple[tuple[str, str], ...]:
    """The project's versions of ``distributions``, each an exact version or the specifiers the
    project requires (``>=0.1.14``): the version a lock file beside ``pyproject`` resolved; else
    what ``[project] dependencies`` requires, else a requirements file beside it; an exact
    requirement is the version, and so is the installed one (``installed``, deep mode's search
    path) when the range admits it, else the range; nothing required, the installed version, else
    none. What the project pins wins: it is what the project runs with wherever it is checked. An
    unreadable file pins nothing (the configuration loader reports a pyproject.toml's errors)."""
    required: dict[str, str] = {}
    locked: dict[str, str] = {}
    document = _document(pyproject)
    project = document.get("project")
    dependencies = project.get("dependencies") if isinstance(project, dict) else None
    if pyproject is not None:
        locked = _locked(pyproject.parent)
        required = _required(pyproject.parent)
    if isinstance(dependencies, list):
        required = {**required, **declared(dependencies)}
    versions = []
    for distribution in sorted(distributions):
        name = _normalized(distribution)
        version = locked.get(name)
        admits = admitted(required[name]) if name in required and version is None else None
        if admits is not None and admits.pinned:
            version = admits.pinned
        if version is None and installed is not None:
            found = installed.find(distribution)
            if found is not None and found.dist is not None and _normalized(found.dist) == name:
                at = release(found.version) if found.version else None
                if admits is None or (at is not None and admits.admits(at)):
                    version = found.version
        if version is None and admits is not None:
            version = required[name]
        if version:
            versions.append((distribution, version))
    return tuple(versions)


def eval_settings(pyproject: Path | None) -> tuple[tuple[str, int], ...]:
    """The integers of ``[tool.verifiers.eval]`` in ``pyproject``: the evaluation defaults an
    environment sets (``rollouts_per_example``, ``num_examples``), which verifiers' ``vf-eval`` reads
    from the pyproject.toml beside the environment's module before its global defaults (pkg
    verifiers 0.1.11 and 0.1.14 scripts/eval.py, 0.3.1 legacy/scripts/eval.py,
    ``get_env_eval_defaults``). An unreadable file sets none."""
    from asynclint.knowledge.frameworks import EVAL_TABLE

    table: object = _document(pyproject)
    for name in EVAL_TABLE.split("."):
        table = table.get(name) if isinstance(table, dict) else None
    if not isinstance(table, dict):
        return ()
    return tuple(sorted((name, value) for name, value in table.items() if type(value) is int and value > 0))


def _document(pyproject: Path | None) -> dict:
    """``pyproject`` parsed; empty when there is none or it cannot be read (the configuration
    loader reports that)."""
    from asynclint.config import toml_reader

    if pyproject is None:
        return {}
    tomllib = toml_reader()
    try:
        return tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return {}
