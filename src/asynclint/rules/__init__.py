"""The rule registry: every ``Rule`` subclass defined in a module of this package with a code of its own (the
shared shapes -- ``BlockingCallRule``, ``OwnWorkRule``, ``DefinitionRule`` -- have none)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

from asynclint.rules.base import Candidate, Rule
from asynclint.rules.hook_definitions import DefinitionRule

if TYPE_CHECKING:
    from asynclint.config import Config


def _discover() -> tuple[type[Rule], ...]:
    found: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Rule)
                and value.__module__ == module.__name__
                and "code" in vars(value)
            ):
                if value.code in found:
                    raise RuntimeError(f"duplicate rule code {value.code}")
                found[value.code] = value
    return tuple(found[code] for code in sorted(found))


ALL_RULES: tuple[type[Rule], ...] = _discover()
BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in ALL_RULES}
BY_NAME: dict[str, type[Rule]] = {rule.name: rule for rule in ALL_RULES}
BY_CATEGORY: dict[str, type[Rule]] = {rule.category: rule for rule in ALL_RULES if rule.category}


def rules_anywhere(config: Config) -> tuple[type[Rule], ...]:
    """The rules some file of the project reports (the configuration holds codes only): every one
    runs once over the whole graph."""
    codes = config.codes_anywhere()
    return tuple(rule for rule in ALL_RULES if rule.code in codes)


__all__ = ["ALL_RULES", "BY_CATEGORY", "BY_CODE", "BY_NAME", "Candidate", "DefinitionRule", "Rule", "rules_anywhere"]
