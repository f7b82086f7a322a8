"""The work a project function does per call, estimated from its loops' trip counts times the work
per iteration: the copies and calls inside them, and the estimates of the project functions it calls
(summaries compose, across modules and the cache, since they are built from the summaries' loops and
call sites).

Units are microseconds of CPython (:data:`asynclint.knowledge.costs.WORK_MICROS`): every iteration
is a step, every call not answered by a project function a call, a container copy (``dict(x)``,
``copy.copy``, a ``.copy()`` no project method answers) a copy, ``copy.deepcopy`` a deep copy, a
regex run over a text (``re.search``, a compiled pattern's ``finditer``) a pass over one reply, a
call into an array library (``numpy.argsort``) an array call, and a call of a project function that
function's estimate. A loop whose count the code does not bound
(:mod:`asynclint.analysis.index.work`) runs once: the estimate is a lower bound. Recursion counts
the recursive call once, as a call. A conditional count (``range(1 if cw else 4)``) takes the
larger branch, and the estimate says it is "up to" (:attr:`Estimate.upper`).
"""

from __future__ import annotations

from dataclasses import replace
from math import prod

from asynclint.analysis.graph_records import Estimate, FunctionId
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite
from asynclint.analysis.index.work import OWNER, SETTING, SPAN, UP_TO
from asynclint.knowledge.costs import ARRAY_LIBRARIES, COPIERS, COPY_METHODS, DEEP_COPIERS, REGEX_PASSES, WORK_MICROS

#: How many module constants deep a size is followed (``LEGAL = tuple(... FACES ...)``).
_DEPTH = 4
#: How many calls deep an estimate follows callees (deeper ones count as a call): keeps the
#: recursion within Python's stack on long call chains.
_CHAIN = 64


def total(parts: list[Estimate]) -> Estimate:
    """The sum of ``parts``, saying the factors of the heaviest."""
    if not parts:
        return Estimate()
    heaviest = max(parts, key=lambda part: part.micros)
    upper = any(part.upper for part in parts)
    scans, arrays = sum(p.scans for p in parts), sum(p.arrays for p in parts)
    return Estimate(sum(p.micros for p in parts), sum(p.copies for p in parts), heaviest.factors, upper, scans, arrays)


_CALL = Estimate(WORK_MICROS["call"])
_COPY = Estimate(WORK_MICROS["copy"], 1.0)
_DEEP_COPY = Estimate(WORK_MICROS["deepcopy"], 1.0)
_REGEX = Estimate(WORK_MICROS["regex"], scans=1.0)
_ARRAY = Estimate(WORK_MICROS["array"], arrays=1.0)


class Work(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def trips(self, key: FunctionId, loop: WorkLoop) -> int | None:
        """The trip count of ``loop`` (of function ``key``), its module constants looked up; ``None``
        where the code does not bound it."""
        return self._product(loop.trips, 0, key) if loop.trips else None

    def _product(self, factors: tuple[str, ...], depth: int, key: FunctionId | None = None) -> int | None:
        """The product of what ``factors`` (of function ``key``) count; ``None`` when any is unknown."""
        counts = [self._factor(factor, depth, key) for factor in factors]
        return prod(c for c in counts if c is not None) if None not in counts else None

    def _factor(self, factor: str, depth: int, key: FunctionId | None = None) -> int | None:
        if factor.isdigit():
            return int(factor)
        if factor.startswith(UP_TO):
            return int(factor.removeprefix(UP_TO))
        if factor.startswith(SETTING):
            settings = self._project_settings()
            name, _, owner = factor.removeprefix(SETTING).partition(OWNER)
            owned = settings.get(f"{self.canonical(owner)}{OWNER}{name}") if owner else None
            return owned if owned is not None else settings.get(name)
        if factor.startswith(SPAN):
            start, _, end = factor.removeprefix(SPAN).partition(":")
            return self._distance(key, start, end, depth) if key is not None else None
        if self._sizes is None:
            self._sizes = {
                f"{summary.module}.{name}": factors
                for summary in self.summaries
                if summary.library is None
                for name, factors in summary.sizes
            }
        factors = self._sizes.get(factor) or self._sizes.get(self.canonical(factor))
        if factors is None or depth >= _DEPTH:
            return None
        return self._product(factors, depth + 1)

    def _distance(self, key: FunctionId, start: str, end: str, depth: int) -> int | None:
        """How far apart every call of ``key`` puts its parameters ``start`` and ``end`` (a call
        passing ``end`` as ``start`` plus a count: ``CallSite.spans``), the largest; ``None`` when
        one call does not say, or someone else may call it (a root, a function handed over)."""
        calls, escaped, unresolved = self._calls_of_functions()
        refs = calls.get(key)
        if not refs or key in self._root_keys or key in escaped or self.function(key).name in unresolved:
            return None
        slots = self._slots(key)
        found = 0
        for site in self.call_sites(refs):
            counts = [
                self._product(factors, depth + 1)
                for at, base, factors in site.spans
                if slots.get(at) == end and slots.get(base) == start
            ]
            if not counts or counts[0] is None:
                return None
            found = max(found, counts[0])
        return found

    def _copies_of(self, key: FunctionId) -> dict[tuple[int, int], bool]:
        """The container copies ``key`` makes: (line, column) -> deep? (a fresh dict: callers pop)."""
        if self._copies is None:
            self._copies = {}
            for position, summary in enumerate(self.summaries):
                for function, line, col, deep in summary.copies:
                    self._copies.setdefault(FunctionId((position, function)), {})[(line, col)] = deep
        return dict(self._copies.get(key, {}))

    def _project_settings(self) -> dict[str, int]:
        """Names the project gives a literal non-negative integer -> the largest: config keys and
        class fields (``ModuleSummary.settings``), parameter defaults, constant keyword arguments.
        Also per class, keyed ``pkg.mod.Class@name``: its own fields, its ``__init__``'s defaults
        and the keyword arguments of calls that construct it (a setting read from ``self`` is
        that class's before it is the project's)."""
        if self._settings is None:
            found: dict[str, int] = {}
            for summary in self.summaries:
                if summary.library is not None:
                    continue
                pairs = [
                    *((name, str(value)) for name, value in summary.settings if "." not in name),
                    *(pair for function in summary.functions for pair in function.defaults),
                    *(pair for site in summary.calls if site.rare is not None for pair in site.rare.kwargs),
                ]
                owned = [
                    *((f"{summary.module}.{name}".rpartition("."), str(value)) for name, value in summary.settings),
                    *(
                        ((f"{summary.module}.{function.class_qualname}", "", name), text)
                        for function in summary.functions
                        if function.class_qualname and function.name == "__init__"
                        for name, text in function.defaults
                    ),
                    *(
                        ((self.canonical(site.target), "", name), text)
                        for site in summary.calls
                        if site.target and site.rare is not None
                        for name, text in site.rare.kwargs
                    ),
                ]
                pairs += [
                    (f"{owner}{OWNER}{name}", text) for (owner, _, name), text in owned if owner != summary.module
                ]
                for name, text in pairs:
                    if text.isdigit():
                        found[name] = max(int(text), found.get(name, 0))
            self._settings = found
        return self._settings

    def loops_of(self, key: FunctionId) -> list[tuple[int, WorkLoop]]:
        """The loops of ``key``: (index into its summary's ``work_loops``, the loop), in written order."""
        if self._loops_by_function is None:
            self._loops_by_function = {}
            for position, summary in enumerate(self.summaries):
                for index, loop in enumerate(summary.work_loops):
                    self._loops_by_function.setdefault(self._ids[position][loop.function], []).append((index, loop))
        return self._loops_by_function.get(key, [])

    def loop_around(self, key: FunctionId, site: CallSite) -> int:
        """The innermost loop of ``key`` that runs the call ``site`` on every iteration: its index
        into the summary's ``work_loops`` (-1: none)."""
        return _innermost(self.loops_of(key), (site.line, site.col))

    def awaits_in(self, key: FunctionId, loop: WorkLoop) -> bool:
        """An ``await`` of ``key``'s own is written inside ``loop``: the loop hands the event loop back
        on its iterations, so what holds it is one iteration's work, not the loop's."""
        return any(
            site.awaited
            and site.caller == key[1]
            and (loop.line, loop.col) <= (site.line, site.col) < (loop.end_line, loop.end_col)
            for site in self.calls_run_by(key)
        )

    def work(self, key: FunctionId) -> Estimate:
        """The estimated work of one call of ``key``."""
        found = self._work.get(key)
        if found is not None:
            return found
        if self.is_library(key) or self._work_depth >= _CHAIN:
            return _CALL  # an installed library's code is the catalogue's to grade
        self._work[key] = _CALL  # a recursive call meets itself: counted as one call
        self._work_depth += 1
        try:
            parts, loops = self._parts(key)
        finally:
            self._work_depth -= 1
        top = [loops[index] for index, loop in self.loops_of(key) if loop.parent == -1]
        found = self._work[key] = total([*parts.get(-1, []), *top])
        return found

    def loop_work(self, key: FunctionId) -> list[tuple[int, WorkLoop, Estimate]]:
        """Each loop of ``key`` (its index into the summary's ``work_loops``, the loop) with the
        estimated work of running it once, all its iterations; outer loops before inner ones."""
        self.work(key)  # the callees' estimates first, with the recursion guard
        _, loops = self._parts(key, reported=True)
        return [(index, loop, loops[index]) for index, loop in self.loops_of(key)]

    def _parts(self, key: FunctionId, reported: bool = False) -> tuple[dict[int, list[Estimate]], dict[int, Estimate]]:
        """The work of ``key``'s calls by the loop they run in (-1: none), and each loop's total.
        ``reported``: for the loops' own findings, where a call the knowledge base names written in
        the loop counts as a call -- its rule reports it there, raised by the loop around it."""
        own = self.loops_of(key)
        parts: dict[int, list[Estimate]] = {}
        # By the call's ref: ``f(x).g()`` makes two calls that start at the same position.
        callees: dict[int, list[FunctionId]] = {}
        for callee, ref in self.edge_calls(key):
            callees.setdefault(ref, []).append(callee)
        copies = self._copies_of(key)
        for ref in self.run_refs(key):
            site = self.call_site(ref)
            if site.caller != key[1]:
                continue  # run by a lambda written in the call: the lambda's own work
            at = (site.line, site.col)
            copy = copies.pop(at) if at in copies and _copier(site) else None
            if reported and site.api is not None:
                parts.setdefault(_innermost(own, at), []).append(_CALL)
                continue
            if site.property_read and site.api is None and ref not in callees:
                continue  # an attribute read that runs no getter the project or the knowledge base has
            parts.setdefault(_innermost(own, at), []).append(self._call_work(callees.get(ref), copy, site))
        for at, deep in copies.items():  # copies by builtins the index keeps no call site for (``list(x)``)
            parts.setdefault(_innermost(own, at), []).append(_DEEP_COPY if deep else _COPY)
        loops: dict[int, Estimate] = {}
        for index, loop in reversed(own):  # inner loops come after their parent
            steps = Estimate(WORK_MICROS["step"] * loop.statements)
            body = total([steps, *parts.get(index, []), *(loops[i] for i, inner in own if inner.parent == index)])
            count = self.trips(key, loop)
            if count is None:
                loops[index] = body
            elif any(factor.startswith(UP_TO) for factor in loop.trips):
                loops[index] = replace(body.times(count, f"`{loop.bound}` (up to {count})"), upper=True)
            else:
                loops[index] = body.times(count, f"`{loop.bound}` ({count})")
        return parts, loops

    def _call_work(self, callees: list[FunctionId] | None, copy: bool | None, site: CallSite) -> Estimate:
        if _array_call(site):
            return _ARRAY  # its library's code, followed or not, is C behind a few checks
        if callees:
            heaviest = max((self.work(callee) for callee in callees), key=lambda estimate: estimate.micros)
            return total([_CALL, heaviest])
        if copy is None:
            return _REGEX if _regex_pass(site) else _CALL
        return _DEEP_COPY if copy else _COPY


def _regex_pass(site: CallSite) -> bool:
    """``site`` runs a regex over a text that is not a constant (one written in the call is short)."""
    slot = REGEX_PASSES.get(site.target or "")
    return slot is not None and not any(at == str(slot) and value for at, value in site.given)


def _array_call(site: CallSite) -> bool:
    """``site`` calls a function of an array library (``numpy.argsort``): C code, but each call
    pays for checking and allocating arrays, dozens of Python calls' worth."""
    return site.target is not None and site.target.startswith(ARRAY_LIBRARIES)


def _copier(site: CallSite) -> bool:
    """``site`` may be a copy the index recorded at its position (not a call chained on one)."""
    return site.method in COPY_METHODS or site.target in COPIERS or site.target in DEEP_COPIERS


def _innermost(loops: list[tuple[int, WorkLoop]], at: tuple[int, int]) -> int:
    """The innermost of ``loops`` that runs the call at ``at`` (line, column) on every iteration (-1:
    none): the call is inside it and not in what it goes over (evaluated once, by the loop around it)."""
    found = -1
    for index, loop in loops:
        if (loop.line, loop.col) <= at < (loop.end_line, loop.end_col):
            outside = loop.outside
            if outside[0] and (outside[0], outside[1]) <= at < (outside[2], outside[3]):
                continue
            found = index  # written order: a loop inside another comes after it
    return found
