"""What the project graph answers with: function keys, the hot set's entries
(:class:`HotInfo`), uses of a function, calls into installed libraries; and the hooks of the
roots it finds itself."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import NamedTuple, NewType, TypeVar, cast

from asynclint.analysis.index.records import CallSite
from asynclint.knowledge.frameworks import (
    FREQUENT,
    RARE_ROOT_FREQUENCIES,
    Hook,
    HookClass,
    Registration,
    cached_frequency,
)

#: A function of the project (or of an installed library read in deep mode): (summary position,
#: function position), as the graph numbers them. Only the graph makes one.
FunctionId = NewType("FunctionId", tuple[int, int])
#: A class, by the dotted name the project's summaries give it (``pkg.mod.Judge``,
#: ``openai.OpenAI``): what ``self`` or a value is an instance of, as the graph answers it.
TypeName = NewType("TypeName", str)
#: (parameter, ``repr`` of the constant) for the parameters a function's guards test that one call
#: chain passes a constant (``HotInfo.given``), in the order of the parameters.
Given = tuple[tuple[str, str], ...]


class HotState(NamedTuple):
    """One state of the hot set's walk (the key of ``ProjectGraph.states``): a function and what
    the chains reaching it in this state share."""

    function: FunctionId
    raised: bool  # reached more than once per rollout (``HotInfo.raised``)
    rare: bool  # only on a first or a failing call (``HotInfo.rare``)
    given: Given  # what its chain passes it (``HotInfo.given``)
    group: tuple[str, ...]  # which of its parameters hold a group reward's lists (``HotInfo.group``)


MAX_ALIAS_HOPS = 8
#: ``@overload`` stubs are never what a call runs: the undecorated definition after them is.
OVERLOAD = frozenset({"typing.overload", "typing_extensions.overload"})
COROUTINE = Hook("async def", "rollout")
CONFIGURED = Hook("configured hot root", "rollout")


@dataclass(frozen=True)
class Use:
    """A place project code uses a function: ``how`` is "called", "passed to `map`", "imported"."""

    path: str
    function: str | None  # the qualname of the function it is in; None at module level / an import
    how: str

    def __str__(self) -> str:
        return f"{self.how} in `{self.function}` ({self.path})" if self.function else f"{self.how} in {self.path}"


@dataclass(frozen=True)
class RegisteredElsewhere:
    """A callable the project hands the framework to run that is no function of the project: an
    installed library's, named ``target`` (``verifiers.utils.tools.python`` in ``ToolEnv(tools=[python])``),
    handed over at ``line``:``col``..``end_col`` of the file at ``path``, run as ``hook``; ``key``: the
    function, when deep mode read its library (a root then: its blocking code is reported here)."""

    path: str
    line: int
    col: int
    end_col: int
    target: str
    hook: Hook
    key: FunctionId | None = None

    @property
    def end_line(self) -> int:
        return self.line


@dataclass(frozen=True)
class LibraryEntry:
    """A hot project call into an installed library, on the way to a library function."""

    caller: FunctionId  # the project function
    site: CallSite  # its call into the library
    callee: FunctionId  # the library function it calls
    steps: tuple[FunctionId, ...]  # library functions from ``callee`` down to the one asked about


@dataclass(frozen=True)
class HotInfo:
    root: FunctionId
    root_hook: Hook  # what kind of entry point the root is, and how often it runs
    parent: HotState | None
    call_line: int  # line of the call in ``parent`` that reaches this function
    in_loop: bool  # some call on the chain runs inside a loop
    depth: int
    #: Some step of the chain runs on a first call only: a lazy initialisation, a memoized function.
    once: bool = False
    #: Some step of the chain runs only on the way to raising (``CallSite.failing``).
    failing: bool = False
    #: The constants the chain's last call passes the parameters this function's guards test
    #: (see :meth:`asynclint.analysis.given.GivenArgs.given_to`): states are ranked against each
    #: other only when these are the same.
    given: Given = ()
    #: The parameters of this function that hold the lists of a group reward's group on this chain
    #: (the root's ``states``, ``completions``...; a helper's that they are handed to): a loop over
    #: one runs the group's rollouts back to back (:mod:`asynclint.analysis.groups`).
    group: tuple[str, ...] = ()

    @property
    def rare(self) -> bool:
        """Not on every call: a first call only, a failing one, or one from a framework's recovery
        hook, run once per failure, or a root run once per process (the flag states are keyed by)."""
        return self.once or self.failing or self.root_hook.frequency in RARE_ROOT_FREQUENCIES

    @property
    def frequent(self) -> bool:
        """The root runs per turn, per tool call or per group."""
        return self.root_hook.frequency in FREQUENT

    @property
    def raised(self) -> bool:
        """Graded one level up: run more often than once per rollout."""
        return self.in_loop or self.frequent


#: (raised, rare) -> the states of the same function that make one with these flags redundant:
#: itself, and any reached as often or more often, on every call or on the same rare ones.
DOMINATING: dict[tuple[bool, bool], tuple[tuple[bool, bool], ...]] = {
    (raised, once): tuple((r, o) for r in (False, True) for o in (False, True) if r >= raised and o <= once)
    for raised in (False, True)
    for once in (False, True)
}


def task_hook(consumer: str, caller: str) -> Hook:
    """A coroutine started as a task of its own runs on the loop next to every other task."""
    started = consumer.removeprefix(".")
    return Hook("asyncio task", "rollout", note=f"started with `{started}(...)` in `{caller}`")


def turn_of(hook: Hook, site: CallSite) -> Hook:
    """How often ``site`` runs on a chain whose root runs at ``hook``: a call the code makes only on
    a rollout's first turn (set-up) or once it has ended runs once per rollout, not every turn; one inside
    a cache keyed by the rollout's state (``CallSite.keyed``) once per example or rollout."""
    if cached_frequency(hook.frequency, site.keyed) != hook.frequency:
        return replace(hook, frequency=cached_frequency(hook.frequency, site.keyed))
    if site.first_turn and hook.frequency in FREQUENT:
        return replace(hook, frequency="first-turn")
    if site.last_turn and hook.frequency in FREQUENT:
        return replace(hook, frequency="last-turn")
    return hook


@dataclass(frozen=True)
class Estimate:
    """Work per call: microseconds, container copies and regex passes among it, and the trip
    counts that multiply the heaviest part of it, outermost first, in words ("`LEGAL_MOVES` (24)")."""

    micros: float = 0.0
    copies: float = 0.0
    factors: tuple[str, ...] = ()
    #: Some count in it is the larger branch of a conditional: the figures are "up to".
    upper: bool = False
    #: Regex passes over a text among it (each taken as one model reply).
    scans: float = 0.0
    #: Calls into an array library among it (``numpy.sum``: each a few small arrays' worth).
    arrays: float = 0.0

    def times(self, count: int, factor: str) -> Estimate:
        factors = (factor, *self.factors) if factor else self.factors
        return Estimate(
            self.micros * count, self.copies * count, factors, self.upper, self.scans * count, self.arrays * count
        )


@dataclass(frozen=True)
class SlotRegistrations:
    """The registrations of one slot, in the order they are asked, and what any of them needs
    to match (most callables handed anywhere match none: a slot like ``0`` is every positional
    argument, and asking each registration in turn was a tenth of building a graph)."""

    entries: tuple[Registration, ...]
    callees: frozenset[str]
    methods: frozenset[str]
    owners: tuple[HookClass, ...]  # of the registrations naming an owner and no method
    any_verifiers_call: bool

    def may_match(self, written: str | None, method: str | None, table: HookClass | None, receiver: str | None) -> bool:
        """Could one of :attr:`entries` answer for a callable handed to ``receiver`` (``written``
        without its calls), to its ``method``, whose framework table is ``table``?"""
        return (
            written in self.callees
            or method in self.methods
            or (table is not None and any(table is owner for owner in self.owners))
            or (self.any_verifiers_call and (table is not None or (receiver or "").startswith("verifiers.")))
        )


def by_slot(registrations: Iterable[Registration]) -> dict[str, SlotRegistrations]:
    """``registrations`` grouped by slot, each group in their order."""
    grouped: dict[str, list[Registration]] = {}
    for registration in registrations:
        grouped.setdefault(registration.slot, []).append(registration)
    return {
        slot: SlotRegistrations(
            tuple(entries),
            frozenset(entry.callee for entry in entries if entry.callee is not None),
            frozenset(entry.method for entry in entries if entry.method is not None),
            tuple(entry.owner for entry in entries if entry.owner is not None and entry.method is None),
            any(entry.any_verifiers_call for entry in entries),
        )
        for slot, entries in grouped.items()
    }


#: What a call that runs no project function runs (``Resolution.called_at``).
NO_FUNCTIONS: tuple[FunctionId, ...] = ()
#: What a function that runs no project function on the loop runs (``HotSet._edge_items``).
NO_EDGES: tuple[()] = ()

_K = TypeVar("_K")
_V = TypeVar("_V")


def frozen(table: dict[_K, list[_V]]) -> dict[_K, tuple[_V, ...]]:
    """``table`` with each list replaced by a tuple of its items, in place, once it is complete: a
    list keeps a separate, over-allocated array of its items (tens of MB over the tables a large
    project's graph keeps one list per function in)."""
    for key, items in table.items():
        cast(dict[_K, object], table)[key] = tuple(items)
    return cast(dict[_K, tuple[_V, ...]], table)


@dataclass(frozen=True, slots=True)
class RunCalls:
    """A summary's calls by the function that runs them (``_calls_by_caller``): the indexes into
    ``ModuleSummary.calls`` of those function ``f`` runs are ``calls[starts[f]:starts[f + 1]]``,
    in the summary's order (its own, and for a lambda those written in it); ``callers`` are the
    functions running any, in the order their first call is written. Three arrays a summary
    (4 bytes a call), not an array of refs per function (a 64-byte head each)."""

    calls: array[int]
    starts: array[int]
    callers: array[int]
