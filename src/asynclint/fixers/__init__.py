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
from collections.abc import Callable
from dataclasses import replace

from asynclint.fixers.base import FixerSpec
from asynclint.knowledge.blocking import LOSES_ON_CANCEL, NOT_PORTABLE
from asynclint.model import Finding, FixInfo, FixRequest

SPECS: dict[str, FixerSpec] = {
    spec.recipe: spec
    for spec in (
        FixerSpec("asyncio-sleep", "asyncio_sleep", True, "replace with `await asyncio.sleep(...)`"),
        FixerSpec(
            "with-block",
            "with_block",
            True,
            "move the `with` block into a small sync helper run with `await asyncio.to_thread(...)`",
        ),
        FixerSpec("to-thread", "to_thread", True, "run it in a worker thread with `await asyncio.to_thread(...)`"),
        FixerSpec(
            "process-pool",
            "process_pool",
            False,
            "run it in a module-level `ProcessPoolExecutor` with `await loop.run_in_executor(...)`",
            "arguments and result cross a process boundary (they must pickle; changes the function makes"
            " to its arguments or to globals are not seen by the caller)",
        ),
        FixerSpec(
            "pure-process-pool",
            "process_pool",
            True,
            "run the pure function in a module-level `ProcessPoolExecutor` with `await loop.run_in_executor(...)`",
        ),
        FixerSpec(
            "deepcopy-memo",
            "deepcopy_memo",
            False,
            "share a deepcopy memo of the fields nothing changes after `__init__`, and deep-copy in a worker thread",
            "the copy shares the chosen fields with the original instead of copying them, which is only"
            " right while nothing changes them (code outside this file is not checked)",
        ),
        FixerSpec(
            "async-client",
            "async_client",
            False,
            "switch to the library's async client and await its calls",
            "every use of the client changes; code outside the class that uses it is not updated",
        ),
        FixerSpec(
            "twin-call",
            "twin_call",
            False,
            "call the library's async twin with the same arguments and await it (`.aio`, `a`-prefixed, async class)",
            "the twin is another implementation of the API (its errors, retries and defaults may differ); a class"
            " switched to its twin changes every use of the object, and uses outside the file are not updated",
        ),
        FixerSpec(
            "hoist-client",
            "hoist_client",
            False,
            "build the client once, on first use, in a module-level `functools.cache` function, and reuse it",
            "one client is shared by every call (its connection pool, headers and lifetime)",
        ),
        FixerSpec(
            "handoff-client",
            "async_client",
            False,
            "hand the framework the library's async client (it awaits the client's calls)",
            "the object handed over changes type; anything else holding it would get coroutines",
        ),
        FixerSpec("async-def", "redefine", True, "make it `async def` (the framework awaits it)"),
        FixerSpec("sync-def", "redefine", True, "make it a plain `def` (the framework calls it without awaiting)"),
    )
}

#: Knowledge-base recipe -> fixers to try, in order. ``with-block`` comes first wherever a
#: blocking call can open a ``with`` block (``open``, clients, temp files): moving the whole block
#: off the loop is one readable edit instead of one per call inside it. Subprocesses get
#: ``to_thread`` around the same call, not ``asyncio.create_subprocess_exec``: that rewrite changes
#: how input, output, timeouts and errors are handled, while a worker thread changes nothing.
CANDIDATES: dict[str, tuple[str, ...]] = {
    "asyncio-sleep": ("asyncio-sleep", "to-thread"),
    "to-thread": ("with-block", "to-thread"),
    "async-subprocess": ("with-block", "to-thread"),
    "async-client": ("async-client", "with-block", "to-thread"),
    "hoist-client": ("with-block", "hoist-client"),
    "deepcopy-memo": ("deepcopy-memo", "to-thread"),
    "process-pool": ("process-pool",),
    "pure-process-pool": ("pure-process-pool",),
    "handoff-client": ("handoff-client",),  # an object handed to the framework, not a call
}

#: Tried in front of a call recipe's safe fixers when the knowledge names an async twin for the
#: call (the curated table, a pack, or a twin discovered in installed source).
TWIN_CANDIDATE = "twin-call"

#: Definition rules (how a hook is written, not a call) -> their recipe.
DEFINITION_RECIPES: dict[str, str] = {"ASL201": "async-def", "ASL202": "sync-def"}

#: Recipes that rewrite a call wherever the chain says to (the call itself, the call of a sync
#: helper, or inside a root made async); the others only apply to a call written in ``async def``
#: -- except those in ANYWHERE, which do not need one (a client hoisted out of any function).
MOVABLE = frozenset({"to-thread", "process-pool", "pure-process-pool"})
ANYWHERE = frozenset({"hoist-client"})

def candidates(recipe: str | None, unsafe: bool, twin: bool = False) -> tuple[str, ...]:
    """The fixers to try for a finding's recipe (a knowledge-base recipe, or a definition
    rule's own), unsafe ones only when allowed; ``twin``: the call has a known async twin."""
    names = CANDIDATES.get(recipe or "", (recipe,) if recipe in SPECS else ())
    if twin and recipe in CANDIDATES and recipe != "handoff-client":
        first_safe = next((at for at, name in enumerate(names) if SPECS[name].safe), len(names))
        names = (*names[:first_safe], TWIN_CANDIDATE, *names[first_safe:])
    return tuple(name for name in names if unsafe or SPECS[name].safe)


def plan(recipe: str | None, target: str, placement: str | None, root_awaited: bool) -> FixInfo | None:
    """What ``check`` reports as the fix of a finding: the first safe candidate that can apply
    where the call is, else the first unsafe one. ``placement`` is ``direct`` (in ``async def``),
    ``helper`` (an ``async def`` up the chain calls the sync function) or ``root`` (the chain
    starts at a sync callable the framework awaits); ``None`` when no ``async def`` is near."""
    usable = [
        name
        for name in CANDIDATES.get(recipe or "", ())
        if name in ANYWHERE or placement == "direct" or (placement and name in MOVABLE)
    ]
    usable = [name for name in usable if name != "with-block"]  # depends on the code's shape
    if target in NOT_PORTABLE:  # the process-pool recipes always decline these
        usable = [name for name in usable if SPECS[name].module != "process_pool"]
    if not usable:
        return None
    chosen = next((name for name in usable if SPECS[name].safe), usable[0])
    spec = SPECS[chosen]
    title = spec.title
    if chosen in ANYWHERE:
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
    module = importlib.import_module(f"{__name__}.{SPECS[name].module}")
    return module.FIXERS[name] if hasattr(module, "FIXERS") else module.fix
