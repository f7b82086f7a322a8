"""The fixers' records: the edits or decline a fixer returns, and a recipe's spec.

A fixer is pure (convention 7): it reads one finding, the libcst module(s) it needs through a
:class:`~asynclint.fixers.project.FixProject`, and returns a :class:`Fix` (node replacements,
imports, module-level statements) or a :class:`Decline` with a reason the user reads. It never writes files and never
applies its own edits; :mod:`asynclint.fixers.orchestrator` does, then verifies the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from asynclint.knowledge.threads import DEFERRED
from asynclint.model import Finding

if TYPE_CHECKING:  # at run time the registry imports this module without libcst (check never loads it)
    import libcst as cst


@dataclass(frozen=True, eq=False)
class Edit:
    """Replace ``node`` (a node of the parsed module, compared by identity) with ``replacement``.

    A statement may be replaced by several (``cst.FlattenSentinel``)."""

    node: cst.CSTNode = field(repr=False)
    replacement: cst.CSTNode | cst.FlattenSentinel = field(repr=False)
    path: str | None = None  # the file ``node`` is in, when it is not the fix's own (a helper called elsewhere)
    #: Imports the replacement needs in that file, for a fix whose files need different ones (each
    #: file spells ``asyncio`` as it imports it); the fix's own ``imports`` go to its own file.
    imports: tuple[Import, ...] = ()


@dataclass(frozen=True)
class Import:
    """``import module`` (``name`` None) or ``from module import name``; added only if missing."""

    module: str
    name: str | None = None
    alias: str | None = None  # ``as`` name: only for imports to drop once unused


@dataclass(frozen=True)
class ModuleStatement:
    """A module-level statement placed after the imports, unless ``name`` is already bound there."""

    name: str
    code: str  # one line, e.g. "_PROCESS_POOL = ProcessPoolExecutor()"
    comment: str = ""  # a comment line written above it
    after: tuple[str, ...] = ()  # module-level names it uses: it goes below their bindings


@dataclass(frozen=True, eq=False)
class Fix:
    path: str  # the file the edits apply to (not always the finding's: see offloading a helper)
    edits: tuple[Edit, ...]
    recipe: str
    safe: bool
    title: str  # what was done, in words the report prints
    imports: tuple[Import, ...] = ()  # added to ``path`` (an edit elsewhere carries its file's own)
    #: Imports the edit may have left unused; each is removed only if nothing uses it any more.
    unused_imports: tuple[Import, ...] = ()
    statements: tuple[ModuleStatement, ...] = ()
    #: Findings this fix removes; the orchestrator checks each is gone after re-linting.
    claims: tuple[Finding, ...] = ()
    #: Also claim every finding inside the edited nodes (a block moved off the loop whole).
    claims_inside: bool = False
    note: str = ""  # a caveat or a choice the user should know about
    #: Nodes only one fix per round may claim besides its edits (the function a fix binds
    #: ``loop`` in), so two fixes never each add the same binding.
    reserve: tuple[cst.CSTNode, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class Decline:
    reason: str
    #: False when the recipe simply does not apply to this shape of code (the next candidate is
    #: tried and this reason is not shown unless nothing else applies either).
    applicable: bool = True


def builds_a_stream(target: str) -> str:
    """Why a call of ``target`` is not offloaded when it only builds a stream (see
    :data:`asynclint.knowledge.threads.DEFERRED`), in words; "" for every other callee."""
    if target not in DEFERRED:
        return ""
    return (
        f"`{target}` returns {DEFERRED[target]}: a worker thread given the call alone would take nothing off"
        " the loop; iterate the library's async stream with `async for`"
    )


#: Where a recipe can rewrite a call (see :class:`~asynclint.fixers.project.Site`): ``direct``,
#: the offending call written in ``async def``; ``helper``, the call of the sync function that
#: leads to it, in the nearest ``async def`` on the chain; ``root``, in a sync callable the
#: framework awaits, made ``async``; ``unplaced``, where no ``async def`` is near at all.
IN_ASYNC_DEF: tuple[str, ...] = ("direct",)
ON_THE_CHAIN: tuple[str, ...] = ("direct", "helper", "root")
ANYWHERE: tuple[str, ...] = (*ON_THE_CHAIN, "unplaced")


@dataclass(frozen=True)
class FixerSpec:
    """A recipe as its module declares it (``SPEC``) and the registry discovers it: how safe it
    is, what it does in words, which findings it answers and in what order it is tried.

    ``check`` imports no recipe module (they import libcst): it reads the specs from
    :mod:`asynclint.fixers.specs`, generated from the modules' ``SPEC``s and checked against
    them by a test, which works from an install that holds bytecode only."""

    recipe: str
    safe: bool
    title: str
    unsafe_because: str = ""  # why it can change behaviour, for the report and the docs
    #: Knowledge-base recipes (``api.fix``) whose findings it is tried for.
    answers: tuple[str, ...] = ()
    #: Definition rules (a hook written the wrong way, not a call) whose findings it fixes.
    definitions: tuple[str, ...] = ()
    #: Among the fixers answering one recipe, lower is tried first: an API's own rewrite (10),
    #: then moving a whole ``with`` block (20), then the generic ones (30).
    priority: int = 10
    placements: tuple[str, ...] = IN_ASYNC_DEF
    #: Tried only for a call whose knowledge names an async twin, in front of the safe fixers.
    with_twin: bool = False
    function: str = "fix"  # the module's function implementing it
    module: str = ""  # under asynclint.fixers, filled in by the registry; imported only when fixing
