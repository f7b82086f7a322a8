"""``[tool.asynclint]`` in a pyproject.toml (or an ``asynclint.toml``), merged with command-line
flags; which file applies to which source is :mod:`asynclint.project`'s business."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from asynclint.model import Severity
from asynclint.registry import UnknownRule, expand, rule_code

# Values only: the knowledge and the rules are imported where a configuration names them (a
# blocking API, a registration) or asks for them, never to read one (a warm run needs neither).
if TYPE_CHECKING:
    from asynclint.knowledge.blocking import BlockingApi
    from asynclint.knowledge.catalogue import Catalogue
    from asynclint.knowledge.frameworks import Registration


class ConfigError(Exception):
    """Bad configuration or flags; the message is one line for the user."""


MAX_FOLLOW_DEPTH = 8

_KEYS = {
    "extend": "another configuration file (path relative to this one) whose settings this one starts from",
    "select": "rules to enable: codes, code prefixes, rule names or ALL",
    "ignore": "rules to disable (same forms as select)",
    "exclude": "gitignore-style patterns of paths to skip, replacing the defaults",
    "extend-exclude": "patterns to skip in addition to the defaults",
    "respect-gitignore": "skip files ignored by .gitignore files (default true)",
    "severity": "table of rule (code or name) -> severity, overriding the rule's grading",
    "blocking-apis": "extra blocking APIs: [[tool.asynclint.blocking-apis]] name, category, cost, severity, fix",
    "hot-roots": "qualified-name patterns of extra functions that run on the loop",
    "cold-roots": "qualified-name patterns of coroutine functions that never run per rollout",
    "offload-helpers": "functions that run a callable argument off the loop: 'pkg.run' or 'pkg.run:1' (index)",
    "registrations": (
        "callables handed to a framework: [[tool.asynclint.registrations]] call, arg or keyword, kind, frequency"
    ),
    "memoizing-decorators": "decorators whose function runs once per argument set, like functools.cache",
    "follow-imports": "also analyse the installed third-party code that hot code calls into, where it resolves on "
    "the interpreter's path (default true)",
    "follow-depth": f"how many installed packages deep to follow calls (1-{MAX_FOLLOW_DEPTH}, default 2)",
}
_API_KEYS = {"name", "category", "cost", "severity", "fix"}
_REGISTRATION_KEYS = {"call", "arg", "keyword", "kind", "frequency"}
_FREQUENCIES = ("rollout", "turn", "tool", "group", "call")

DEFAULT_EXCLUDES: tuple[str, ...] = (
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    ".eggs",
    "*.egg-info",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".asynclint_cache",
    ".pytype",
    ".ipynb_checkpoints",
    "__pypackages__",
    "_build",
    "build",
    "dist",
    "buck-out",
    "node_modules",
    "site-packages",
    ".direnv",
)


@dataclass(frozen=True)
class Scope:
    """The configuration that applies to the files below ``directory`` (the nearest one wins)."""

    directory: Path
    config: Config


@dataclass(frozen=True)
class Config:
    root: Path  # the directory patterns are relative to; for a project, its root (paths are shown from it)
    source: Path | None = None  # the configuration file read, if any
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    severity: dict[str, Severity] = field(default_factory=dict)  # rule code -> severity
    blocking_apis: tuple[BlockingApi, ...] = ()
    hot_roots: tuple[str, ...] = ()
    cold_roots: tuple[str, ...] = ()
    offload: dict[str, int] = field(default_factory=dict)  # offload helper -> callable's position
    registrations: tuple[Registration, ...] = ()
    memoizers: tuple[str, ...] = ()  # extra memoizing decorators (knowledge.functions.MEMOIZERS)
    min_severity: Severity = Severity.LOW
    #: The project's versions of the framework distributions whose behaviour changed between
    #: releases (knowledge.frameworks.SYNC_METHODS, OFFLOADED_HOOKS, RESCHEDULED_HOOKS), as
    #: (distribution, version) pairs: read by the runner from the project's pins and what is
    #: installed; none known, today's behaviour.
    framework_versions: tuple[tuple[str, str], ...] = ()
    #: The framework's evaluation defaults the project sets (``[tool.verifiers.eval]``), as
    #: (setting, integer) pairs: read by the runner, like the versions; ``rollouts_per_example``
    #: sizes a group.
    framework_settings: tuple[tuple[str, int], ...] = ()
    #: The distributions the project declares it depends on (``[project] dependencies``, a
    #: requirements file): read by the runner, like the versions; a guarded import's fallback for a
    #: missing one never runs (``analysis.index.importflags``).
    declared_packages: tuple[str, ...] = ()
    #: Deep mode (:mod:`asynclint.deep`): on unless switched off; it reads only what resolves on
    #: the search path, so a project whose imports are not installed is checked as without it.
    follow_imports: bool = True
    follow_depth: int = 2
    #: Per-directory configurations of a project (:mod:`asynclint.project`), innermost last
    #: among nested ones: which rules a file reports, at which severity, and what is excluded.
    #: The analysis (knowledge, roots, deep mode) is the project's, above.
    scopes: tuple[Scope, ...] = ()

    def enabled_codes(self) -> frozenset[str]:
        """The codes of the rules this configuration reports. Raises ``ConfigError``."""
        return frozenset(_expand(self.select, "select") - _expand(self.ignore, "ignore"))

    def codes_anywhere(self) -> frozenset[str]:
        """The codes of the rules some file of the project reports."""
        return frozenset(code for config in (self, *(s.config for s in self.scopes)) for code in config.enabled_codes())

    def for_path(self, path: Path) -> Config:
        """The configuration of the file or directory ``path`` (absolute): the scope nearest above it."""
        best: Scope | None = None
        for scope in self.scopes:
            if (scope.directory == path or scope.directory in path.parents) and (
                best is None or len(scope.directory.parts) > len(best.directory.parts)
            ):
                best = scope
        return self if best is None else best.config

    def for_shown(self, shown: str) -> Config:
        """:meth:`for_path` of a path as reports show it (relative to the project root, or absolute)."""
        if not self.scopes:
            return self
        path = Path(shown)
        return self.for_path(path if path.is_absolute() else self.root / path)

    def catalogue(self) -> Catalogue:
        from asynclint.knowledge.blocking import BUILTIN_APIS
        from asynclint.knowledge.catalogue import Catalogue

        return Catalogue((*BUILTIN_APIS, *self.blocking_apis), self.offload)

    def with_flags(
        self,
        *,
        select: Sequence[str] | None = None,
        ignore: Sequence[str] = (),
        exclude: Sequence[str] = (),
        min_severity: str | None = None,
        follow_imports: bool | None = None,
        follow_depth: int | None = None,
    ) -> Config:
        """Command-line flags: ``--select`` replaces, ``--ignore``/``--exclude`` extend, in every
        directory's configuration."""

        def flagged(config: Config) -> Config:
            return replace(
                config,
                select=tuple(select) if select else config.select,
                ignore=(*config.ignore, *ignore),
                extend_exclude=(*config.extend_exclude, *exclude),
            )

        updated = replace(
            flagged(self),
            min_severity=Severity.parse(min_severity) if min_severity else self.min_severity,
            follow_imports=self.follow_imports if follow_imports is None else follow_imports,
            follow_depth=self.follow_depth if follow_depth is None else follow_depth,
            scopes=tuple(Scope(s.directory, flagged(s.config)) for s in self.scopes),
        )
        updated.enabled_codes()  # validate selectors now, not halfway through a run
        return updated


def _expand(selectors: Iterable[str], where: str) -> set[str]:
    try:
        return expand(selectors)
    except UnknownRule as exc:
        raise ConfigError(f"{where}: unknown rule selector {str(exc)!r} (see `asynclint rules`)") from None


def _rule_code(key: str) -> str:
    code = rule_code(key)
    if code is None:
        raise ConfigError(f"severity: unknown rule {key!r} (see `asynclint rules`)")
    return code


#: The file that configures a directory: an ``asynclint.toml`` (the settings at its top level),
#: else a ``pyproject.toml`` with a ``[tool.asynclint]`` table.
CONFIG_FILES = ("asynclint.toml", "pyproject.toml")


def is_file_here(path: Path) -> bool:
    """``path.is_file()``, false where its directory cannot be searched (``/proc/1/fdinfo``): what a
    walk asks of every directory it enters (configuration files, ``.gitignore``)."""
    try:
        return path.is_file()
    except PermissionError:
        return False


def toml_reader() -> ModuleType:
    """``tomllib`` (``tomli`` before 3.11), imported when a file is read: a warm run that skips
    the walk of a project without configuration files reads none."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    return tomllib


def config_in(directory: Path) -> Path | None:
    """The configuration file of ``directory`` itself, if it has one."""
    candidate = directory / CONFIG_FILES[0]
    if is_file_here(candidate):
        return candidate
    candidate = directory / CONFIG_FILES[1]
    if is_file_here(candidate):
        tomllib = toml_reader()
        try:
            tool = tomllib.loads(candidate.read_text(encoding="utf-8")).get("tool", {})
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            return candidate  # report the problem when it is loaded
        if not isinstance(tool, dict) or "asynclint" in tool:
            return candidate  # a [tool] that is not a table: reported when loaded too
    return None


def find_config(start: Path) -> Path | None:
    """The nearest configuration file (:func:`config_in`), walking up from ``start``."""
    start = start.resolve()
    for directory in (start, *start.parents) if start.is_dir() else start.parents:
        found = config_in(directory)
        if found is not None:
            return found
    return None


def _where(file: Path) -> str:
    return f"{file}:" if file.name == CONFIG_FILES[0] else f"{file}: [tool.asynclint]"


def _read_table(file: Path) -> dict:
    tomllib = toml_reader()
    try:
        document = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{file}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{file}: not valid UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{file}: invalid TOML: arrays or tables nested too deeply") from None
    if file.name == CONFIG_FILES[0]:
        table = document
    else:
        tool = document.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(f"{file}: [tool] must be a table")
        table = tool.get("asynclint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{file}: [tool.asynclint] must be a table")
    return table


def _settings(file: Path, extending: tuple[Path, ...] = (), read: list[Path] | None = None) -> dict:
    """``file``'s settings over those of the file it ``extend``s (recursively): key by key, the
    extending file's win, as in ruff. ``read`` gets every file read or asked for."""
    if read is not None:
        read.append(file)
    table = dict(_read_table(file))
    if "extend" not in table:
        return table
    base = table.pop("extend")
    if not isinstance(base, str) or not base:
        raise ConfigError(f"{_where(file)} extend must be the path of another configuration file")
    target = (file.parent / base).resolve()
    if target in (file.resolve(), *extending):
        raise ConfigError(f"{_where(file)} extend: {base!r} extends itself through a cycle")
    if not target.is_file():
        if read is not None:
            read.append(target)
        raise ConfigError(f"{_where(file)} extend: {base!r}: no such configuration file")
    return {**_settings(target, (*extending, file.resolve()), read), **table}


def load(config_file: Path | None, default_root: Path, read: list[Path] | None = None) -> Config:
    """The settings of one configuration file (with what it extends); patterns are relative to
    its directory. ``read`` gets the files read (this one and those it extends)."""
    if config_file is None:
        return Config(root=default_root.resolve())
    table = _settings(config_file, read=read)
    try:
        return _from_table(table, config_file)
    except ConfigError as exc:
        raise ConfigError(f"{_where(config_file)} {exc}") from None


def _reject_unknown(table: dict, known: Iterable[str], where: str) -> None:
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise ConfigError(f"{where}unknown key {unknown[0]!r} (known keys: {', '.join(sorted(known))})")


def _strings(table: dict, key: str) -> tuple[str, ...]:
    value = table[key]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key} must be a list of strings")
    return tuple(value)


def _from_table(table: dict, pyproject: Path) -> Config:
    _reject_unknown(table, _KEYS, "")
    config = Config(root=pyproject.parent.resolve(), source=pyproject)
    changes: dict = {}
    for key, attr in (
        ("select", "select"),
        ("ignore", "ignore"),
        ("exclude", "exclude"),
        ("extend-exclude", "extend_exclude"),
        ("hot-roots", "hot_roots"),
        ("cold-roots", "cold_roots"),
        ("memoizing-decorators", "memoizers"),
    ):
        if key in table:
            changes[attr] = _strings(table, key)
    if "respect-gitignore" in table:
        if not isinstance(table["respect-gitignore"], bool):
            raise ConfigError("respect-gitignore must be true or false")
        changes["respect_gitignore"] = table["respect-gitignore"]
    if "follow-imports" in table:
        if not isinstance(table["follow-imports"], bool):
            raise ConfigError("follow-imports must be true or false")
        changes["follow_imports"] = table["follow-imports"]
    if "follow-depth" in table:
        depth = table["follow-depth"]
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_FOLLOW_DEPTH:
            raise ConfigError(f"follow-depth must be an integer from 1 to {MAX_FOLLOW_DEPTH}")
        changes["follow_depth"] = depth
    if "severity" in table:
        if not isinstance(table["severity"], dict):
            raise ConfigError("severity must be a table of rule = severity")
        overrides = {}
        for rule, level in table["severity"].items():
            if not isinstance(level, str):
                raise ConfigError(f"severity.{rule} must be a string")
            try:
                overrides[_rule_code(rule)] = Severity.parse(level)
            except ValueError as exc:
                raise ConfigError(f"severity.{rule}: {exc}") from None
        changes["severity"] = overrides
    if "blocking-apis" in table:
        changes["blocking_apis"] = tuple(_api(entry) for entry in _entries(table["blocking-apis"], "blocking-apis"))
    if "offload-helpers" in table:
        changes["offload"] = dict(_offload(text) for text in _strings(table, "offload-helpers"))
    if "registrations" in table:
        changes["registrations"] = tuple(
            _registration(entry) for entry in _entries(table["registrations"], "registrations")
        )
    config = replace(config, **changes)
    config.enabled_codes()
    return config


def _entries(value: object, key: str) -> list[dict]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ConfigError(f"{key} must be an array of tables ([[tool.asynclint.{key}]])")
    return value


def _offload(text: str) -> tuple[str, int]:
    name, _, position = text.partition(":")
    if not name or (position and not position.isdigit()):
        raise ConfigError(f"offload-helpers: {text!r} is not 'qualified.name' or 'qualified.name:INDEX'")
    return name, int(position or 0)


def _registration(entry: dict) -> Registration:
    from asynclint.knowledge.frameworks import Hook, Registration

    _reject_unknown(entry, _REGISTRATION_KEYS, "registrations: ")
    call = entry.get("call")
    if not isinstance(call, str) or not call:
        raise ConfigError("registrations: every entry needs a call (the qualified name the callable is passed to)")
    arg, keyword = entry.get("arg"), entry.get("keyword")
    if (
        (arg is None) == (keyword is None)
        or (keyword is None and (isinstance(arg, bool) or not isinstance(arg, int) or arg < 0))
        or (arg is None and (not isinstance(keyword, str) or not keyword))
    ):
        raise ConfigError(f"registrations {call!r}: give exactly one of arg (an index) or keyword (a name)")
    frequency = entry.get("frequency", "rollout")
    if frequency not in _FREQUENCIES:
        raise ConfigError(f"registrations {call!r}: frequency must be one of {', '.join(_FREQUENCIES)}")
    kind = entry.get("kind", f"callable registered with `{call}`")
    if not isinstance(kind, str):
        raise ConfigError(f"registrations {call!r}: kind must be a string")
    slot = str(arg) if keyword is None else keyword
    return Registration(Hook(kind, frequency), slot, callee=call)


def _api(entry: dict) -> BlockingApi:
    from asynclint.knowledge.blocking import CATEGORIES, RECIPES, BlockingApi
    from asynclint.knowledge.costs import CATEGORY_COSTS, COST_CLASSES, EVIDENCE_GRADES

    _reject_unknown(entry, _API_KEYS, "blocking-apis: ")
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError("blocking-apis: every entry needs a name (a qualified name like 'mylib.fetch')")
    category = entry.get("category")
    if not isinstance(category, str) or category not in CATEGORIES:
        raise ConfigError(f"blocking-apis {name!r}: category must be one of {', '.join(CATEGORIES)}")
    cost = entry.get("cost", CATEGORY_COSTS[category])
    if not isinstance(cost, str) or (cost not in COST_CLASSES and cost not in EVIDENCE_GRADES):
        choices = ", ".join(dict.fromkeys([*COST_CLASSES, *EVIDENCE_GRADES]))
        raise ConfigError(f"blocking-apis {name!r}: cost must be one of {choices}")
    level = entry.get("severity")
    try:
        severity = Severity.parse(level) if level is not None else None
    except (ValueError, AttributeError) as exc:
        raise ConfigError(f"blocking-apis {name!r}: {exc}") from None
    fix = entry.get("fix")
    if fix is not None and (not isinstance(fix, str) or fix not in RECIPES):
        raise ConfigError(f"blocking-apis {name!r}: fix must be one of {', '.join(RECIPES)}")
    return BlockingApi(name, category, cost, fix, severity=severity)


def describe_keys() -> dict[str, str]:
    return dict(_KEYS)
