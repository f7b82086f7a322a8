"""The fixer registry: which fixers can answer a knowledge-base recipe, how safe each is, and
what ``asynclint check`` says about a finding's fix.

This module is imported by the engine on every ``check``, so it stays light: the fixer modules
(which import libcst) load only when ``asynclint fix`` asks for them.

Two steps make a fix. *Where*: the offending call itself when it is written in ``async def``;
otherwise every call that runs the sync function it is in on the loop: each call, in an
``async def``, of a sync function on a route to it, and each sync callable the framework awaits
(a v0 reward or tool, ``@vf.stop``, ...) at the top of a route, made ``async``. *How*: the
recipe rewrites the call found there. A recipe that does
not apply declines and the next candidate is tried, so every finding gets the best fix its
code allows, and ``--unsafe-fixes`` only ever adds candidates in front of the safe ones.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import replace

from asynclint.fixers.base import FixerSpec
from asynclint.fixers.specs import DECLARED
from asynclint.knowledge.blocking import LOSES_ON_CANCEL, NOT_PORTABLE, RECIPES
from asynclint.knowledge.threads import DEFERRED
from asynclint.model import Finding, FixInfo, FixRequest


def declared_specs() -> tuple[FixerSpec, ...]:
    """Every recipe the package's modules declare in ``SPEC`` (a spec or a tuple of them), in
    module order, then as each declares them, with its module filled in.

    This imports the recipe modules, and so libcst: it regenerates :mod:`asynclint.fixers.specs`
    (``tests/test_fix_registry.py``), which is what ``check`` reads."""
    found: list[FixerSpec] = []
    for info in pkgutil.iter_modules(__path__):
        declared = None if info.ispkg else getattr(importlib.import_module(f"{__name__}.{info.name}"), "SPEC", None)
        for spec in () if declared is None else declared if isinstance(declared, tuple) else (declared,):
            found.append(replace(spec, module=info.name))
    return tuple(found)


#: The line length ``ruff format`` keeps to (pyproject.toml's ``[tool.ruff]``).
LINE_LENGTH = 120


def specs_source(specs: tuple[FixerSpec, ...]) -> str:
    """The text of :mod:`asynclint.fixers.specs` holding ``specs`` (fields left at their default omitted)."""
    defaults = FixerSpec("", False, "")
    entries = []
    for spec in specs:
        fields = [
            _field(name, value)
            for name, value in vars(spec).items()
            if name in ("recipe", "safe", "title") or value != getattr(defaults, name)
        ]
        entries.append(f"    FixerSpec(\n{''.join(fields)}    ),\n")
    return (
        '"""The recipes the fixer modules declare in ``SPEC``, for ``check``, which imports no recipe module\n'
        "(they import libcst). Generated from the modules by tests/test_fix_registry.py; do not edit:\n"
        '``ASYNCLINT_REGENERATE=1 python -m pytest tests/test_fix_registry.py``."""\n\n'
        "from asynclint.fixers.base import FixerSpec\n\n"
        f"DECLARED: tuple[FixerSpec, ...] = (\n{''.join(entries)})\n"
    )


def _field(name: str, value: object) -> str:
    """One ``name=value,`` line of a generated entry; a tuple too long for a line, one item a line."""
    line = f"        {name}={_literal(value)},\n"
    if len(line) - 1 <= LINE_LENGTH or not isinstance(value, tuple):
        return line
    items = "".join(f"            {_literal(item)},\n" for item in value)
    return f"        {name}=(\n{items}        ),\n"


def _literal(value: object) -> str:
    """``repr`` as ``ruff format`` writes it, so that the generated module is already formatted:
    strings in double quotes unless that needs more escapes, a one-item tuple with its comma."""
    if isinstance(value, str):
        written = repr(value)
        if written.startswith("'") and '"' not in value:
            return '"' + written[1:-1].replace("\\'", "'") + '"'
        return written
    if isinstance(value, tuple):
        return f"({', '.join(map(_literal, value))}{',' if len(value) == 1 else ''})"
    return repr(value)


SPECS: dict[str, FixerSpec] = {spec.recipe: spec for spec in DECLARED}


def _tried_for(recipe: str) -> tuple[str, ...]:
    answering = [spec for spec in SPECS.values() if recipe in spec.answers and not spec.with_twin]
    return tuple(spec.recipe for spec in sorted(answering, key=lambda spec: (spec.priority, spec.recipe)))


#: Knowledge-base recipe -> fixers to try, in order (in the knowledge base's order of recipes,
#: then the recipes only fixers name). ``with-block`` comes before the generic fixers wherever a
#: blocking call can open a ``with`` block (``open``, clients, temp files): moving the whole block
#: off the loop is one readable edit instead of one per call inside it.
CANDIDATES: dict[str, tuple[str, ...]] = {
    recipe: _tried_for(recipe)
    for recipe in dict.fromkeys(
        [*RECIPES, *sorted({answer for spec in SPECS.values() for answer in spec.answers} - RECIPES.keys())]
    )
    if _tried_for(recipe)
}

#: Tried in front of a call recipe's safe fixers when the knowledge names an async twin for the
#: call (the curated table, a pack, or a twin discovered in installed source).
TWIN_CANDIDATES: dict[str, tuple[str, ...]] = {
    recipe: tuple(spec.recipe for spec in SPECS.values() if spec.with_twin and recipe in spec.answers)
    for recipe in CANDIDATES
}
TWIN_CANDIDATE = next(spec.recipe for spec in SPECS.values() if spec.with_twin)

#: Definition rules (how a hook is written, not a call) -> their recipe.
DEFINITION_RECIPES: dict[str, str] = {code: spec.recipe for spec in SPECS.values() for code in spec.definitions}


def candidates(recipe: str | None, unsafe: bool, twin: bool = False) -> tuple[str, ...]:
    """The fixers to try for a finding's recipe (a knowledge-base recipe, or a definition
    rule's own), unsafe ones only when allowed; ``twin``: the call has a known async twin."""
    names = CANDIDATES.get(recipe or "", (recipe,) if recipe in SPECS else ())
    twins = TWIN_CANDIDATES.get(recipe or "", ()) if twin else ()
    if twins:
        first_safe = next((at for at, name in enumerate(names) if SPECS[name].safe), len(names))
        names = (*names[:first_safe], *twins, *names[first_safe:])
    return tuple(name for name in names if unsafe or SPECS[name].safe)


def plan(recipe: str | None, target: str, placement: str | None, root_awaited: bool) -> FixInfo | None:
    """What ``check`` reports as the fix of a finding: the first safe candidate that can apply
    where the call is, else the first unsafe one. ``placement`` is ``direct`` (in ``async def``),
    ``helper`` (an ``async def`` up the chain calls the sync function) or ``root`` (the chain
    starts at a sync callable the framework awaits); ``None`` when no ``async def`` is near."""
    usable = [name for name in CANDIDATES.get(recipe or "", ()) if (placement or "unplaced") in SPECS[name].placements]
    usable = [name for name in usable if name != "with-block"]  # depends on the code's shape
    if target in DEFERRED:  # the to-thread recipe declines a call that only builds a stream
        usable = [name for name in usable if SPECS[name].module != "to_thread"]
    if target in NOT_PORTABLE:  # the process-pool recipes always decline these
        usable = [name for name in usable if SPECS[name].module != "process_pool"]
    if not usable:
        return None
    chosen = next((name for name in usable if SPECS[name].safe), usable[0])
    spec = SPECS[chosen]
    title = spec.title
    if "unplaced" in spec.placements:
        if "with-block" in CANDIDATES.get(recipe or "", ()):
            # check cannot see whether the call opens a `with` block; fix then moves the block (safe)
            title += "; a `with` block is moved off the loop instead (safe)"
    elif placement == "helper":
        title = f"offload the call of the sync helper: {title}"
    elif placement == "root":
        title = f"make the framework callable `async def`, then {title}"
    safe = spec.safe and not (spec.module == "to_thread" and target in LOSES_ON_CANCEL)  # as the fixer says
    return FixInfo(safe, title[0].upper() + title[1:], recipe=recipe or "", target=target, root_awaited=root_awaited)


def plan_of(request: FixRequest | None, code: str) -> FixInfo | None:
    """The fix ``check`` advertises for a finding, from what checking recorded."""
    if request is None:
        return None
    if request.kind == "definition":
        return definition_plan(code)
    if request.kind == "handoff":
        return handoff_plan(request.target)
    if request.applier and request.placement != "helper":
        return None  # no call of it is written to offload: see FixProject.locate
    if request.unawaited and request.placement == "root":
        return None  # a release the project admits would not await the root made async: FixProject._root_site
    return plan(request.recipe or None, request.target, request.placement, request.root_awaited)


def attach(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    """``findings`` with the fix each one's request leads to (checking plans no fixes)."""
    return tuple(replace(f, fix=plan_of(f.fix_request, f.code)) if f.fix_request else f for f in findings)


def handoff_plan(client_type: str) -> FixInfo:
    spec = SPECS["handoff-client"]
    return FixInfo(spec.safe, spec.title[0].upper() + spec.title[1:], recipe="handoff-client", target=client_type)


def definition_plan(code: str) -> FixInfo | None:
    recipe = DEFINITION_RECIPES.get(code)
    if recipe is None:
        return None
    spec = SPECS[recipe]
    return FixInfo(spec.safe, spec.title[0].upper() + spec.title[1:], recipe=recipe)


def fix_available(code: str, recipes: frozenset[str]) -> bool:
    """For the rules table: whether any fixer answers some recipe of the rule's category."""
    return code in DEFINITION_RECIPES or any(CANDIDATES.get(recipe) for recipe in recipes)


def load(name: str) -> Callable:
    """The fixer function for a recipe (imports libcst on first use)."""
    spec = SPECS[name]
    return getattr(importlib.import_module(f"{__name__}.{spec.module}"), spec.function)
