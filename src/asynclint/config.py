"""``[tool.asynclint]`` in the nearest pyproject.toml, merged with command-line flags."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from asynclint.knowledge.blocking import BUILTIN_APIS, CATEGORIES, RECIPES, BlockingApi
from asynclint.knowledge.costs import CATEGORY_COSTS, COST_CLASSES, PAYLOAD_GRADES
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import Hook, Registration
from asynclint.model import Severity
from asynclint.rules import ALL_RULES, BY_CODE, BY_NAME, Rule


class ConfigError(Exception):
    """Bad configuration or flags; the message is one line for the user."""


MAX_FOLLOW_DEPTH = 8

_KEYS = {
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
    "registrations": "callables handed to a framework: [[tool.asynclint.registrations]] call, arg or keyword, kind, frequency",
    "memoizing-decorators": "decorators whose function runs once per argument set, like functools.cache",
    "follow-imports": "also analyse the installed third-party code that hot code calls into, where it resolves on "
                      "the interpreter's path (default true)",
    "follow-depth": f"how many calls deep to follow into installed packages (1-{MAX_FOLLOW_DEPTH}, default 2)",
}
_API_KEYS = {"name", "category", "cost", "severity", "fix"}
_REGISTRATION_KEYS = {"call", "arg", "keyword", "kind", "frequency"}
_FREQUENCIES = ("rollout", "turn", "tool", "group", "call")

DEFAULT_EXCLUDES: tuple[str, ...] = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".eggs", "*.egg-info",
    "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".asynclint_cache",
    ".pytype", ".ipynb_checkpoints", "__pypackages__", "_build", "build", "dist",
    "buck-out", "node_modules", "site-packages", ".direnv",
)


@dataclass(frozen=True)
class Config:
    root: Path  # the directory patterns are relative to
    source: Path | None = None  # the pyproject.toml read, if any
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
    #: Deep mode (:mod:`asynclint.runner`): on unless switched off; it reads only what resolves on
    #: the search path, so a project whose imports are not installed is checked as without it.
    follow_imports: bool = True
    follow_depth: int = 2

    def enabled_rules(self) -> tuple[type[Rule], ...]:
        selected = _expand(self.select, "select")
        ignored = _expand(self.ignore, "ignore")
        return tuple(rule for rule in ALL_RULES if rule.code in selected and rule.code not in ignored)

    def catalogue(self) -> Catalogue:
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
        """Command-line flags: ``--select`` replaces, ``--ignore``/``--exclude`` extend."""
        updated = replace(
            self,
            select=tuple(select) if select else self.select,
            ignore=(*self.ignore, *ignore),
            extend_exclude=(*self.extend_exclude, *exclude),
            min_severity=Severity.parse(min_severity) if min_severity else self.min_severity,
            follow_imports=self.follow_imports if follow_imports is None else follow_imports,
            follow_depth=self.follow_depth if follow_depth is None else follow_depth,
        )
        updated.enabled_rules()  # validate selectors now, not halfway through a run
        return updated


def _expand(selectors: Iterable[str], where: str) -> set[str]:
    codes: set[str] = set()
    for selector in selectors:
        text = selector.strip()
        if text.upper() == "ALL":
            codes.update(BY_CODE)
            continue
        if text in BY_NAME:
            codes.add(BY_NAME[text].code)
            continue
        matched = {code for code in BY_CODE if code.startswith(text.upper())} if text else set()
        if not matched:
            raise ConfigError(f"{where}: unknown rule selector {selector!r} (see `asynclint rules`)")
        codes.update(matched)
    return codes


def _rule_code(key: str) -> str:
    if key in BY_NAME:
        return BY_NAME[key].code
    if key.upper() in BY_CODE:
        return key.upper()
    raise ConfigError(f"severity: unknown rule {key!r} (see `asynclint rules`)")


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a ``[tool.asynclint]`` table, walking up from ``start``."""
    start = start.resolve()
    for directory in (start, *start.parents) if start.is_dir() else start.parents:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                if "asynclint" in tomllib.loads(candidate.read_text(encoding="utf-8")).get("tool", {}):
                    return candidate
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                return candidate  # report the problem when it is loaded
    return None


def load(pyproject: Path | None, default_root: Path) -> Config:
    if pyproject is None:
        return Config(root=default_root.resolve())
    try:
        document = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{pyproject}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{pyproject}: not valid UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{pyproject}: invalid TOML: {exc}") from None
    table = document.get("tool", {}).get("asynclint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.asynclint] must be a table")
    try:
        return _from_table(table, pyproject)
    except ConfigError as exc:
        raise ConfigError(f"{pyproject}: [tool.asynclint] {exc}") from None


def _reject_unknown(table: dict, known, where: str) -> None:
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
        ("select", "select"), ("ignore", "ignore"), ("exclude", "exclude"),
        ("extend-exclude", "extend_exclude"), ("hot-roots", "hot_roots"), ("cold-roots", "cold_roots"),
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
    config.enabled_rules()
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
    _reject_unknown(entry, _REGISTRATION_KEYS, "registrations: ")
    call = entry.get("call")
    if not isinstance(call, str) or not call:
        raise ConfigError("registrations: every entry needs a call (the qualified name the callable is passed to)")
    arg, keyword = entry.get("arg"), entry.get("keyword")
    if (arg is None) == (keyword is None) or not isinstance(arg if keyword is None else keyword, int if keyword is None else str):
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
    _reject_unknown(entry, _API_KEYS, "blocking-apis: ")
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError("blocking-apis: every entry needs a name (a qualified name like 'mylib.fetch')")
    category = entry.get("category")
    if category not in CATEGORIES:
        raise ConfigError(f"blocking-apis {name!r}: category must be one of {', '.join(CATEGORIES)}")
    cost = entry.get("cost", CATEGORY_COSTS[category])
    if not isinstance(cost, str) or (cost not in COST_CLASSES and cost not in PAYLOAD_GRADES):
        choices = ", ".join([*COST_CLASSES, *PAYLOAD_GRADES])
        raise ConfigError(f"blocking-apis {name!r}: cost must be one of {choices}")
    level = entry.get("severity")
    try:
        severity = Severity.parse(level) if level is not None else None
    except (ValueError, AttributeError) as exc:
        raise ConfigError(f"blocking-apis {name!r}: {exc}") from None
    fix = entry.get("fix")
    if fix is not None and fix not in RECIPES:
        raise ConfigError(f"blocking-apis {name!r}: fix must be one of {', '.join(RECIPES)}")
    return BlockingApi(name, category, cost, fix, severity=severity)


def describe_keys() -> dict[str, str]:
    return dict(_KEYS)
