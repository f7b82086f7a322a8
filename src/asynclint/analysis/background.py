"""What runs only where other functions run: the project functions reached from nothing but a
set of functions (the coroutines the project hands a loop of its own), part of the hot set's roots;
and the loops recorded by code that runs only there, which are that loop too."""

from __future__ import annotations

from array import array

from asynclint.analysis.callrefs import NO_CALLS, CallRefs, add_ref, call_ref, frozen_refs, ref_index
from asynclint.analysis.graph_records import FunctionId
from asynclint.analysis.index.records import FunctionRef
from asynclint.knowledge.asyncio_apis import LOOP_GETTERS, LOOP_SUBMITTERS


class Background(CallRefs):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _only_reached_from(self, seeds: set[FunctionId], asked: dict[FunctionId, FunctionId]) -> set[FunctionId]:
        """Those of ``asked`` (each with one function known to call it) that run only where ``seeds``
        run: a seed, or a project function that nothing but seeds (and functions so found) calls,
        awaits, starts or takes as a value."""
        reached = self._reached_from(seeds)
        if not any(key in seeds or (key in reached and by in reached) for key, by in asked.items()):
            # Only what the seeds reach can run only where they run, and only if all its callers
            # do (the one known is enough to tell): the scan of every project call
            # (:meth:`_project_callers`) is a quarter of a large project's graph.
            return set()
        # Who calls what the seeds reach (nothing else can run only where they run), from anywhere.
        calls, values, handing = self._project_callers()
        callers: dict[FunctionId, set[FunctionId]] = {
            key: {caller for caller, _ in self.call_pairs(calls.get(key, NO_CALLS))} | values.get(key, set())
            for key in reached
        }
        for ref in handing:
            caller, site = next(self.call_pairs((ref,)))
            if self.on_own_loop(site):
                continue  # the seeds themselves
            for callee in self._targets(caller, site, ref_index(ref)):
                if callee in callers:
                    callers[callee].add(caller)
        found = set(seeds)
        changed = True
        while changed:
            changed = False
            for callee, by in callers.items():
                if by and callee not in found and by <= found:
                    found.add(callee)
                    changed = True
        return found.intersection(asked)

    def _project_callers(self) -> tuple[dict[FunctionId, array[int]], dict[FunctionId, set[FunctionId]], list[int]]:
        """Every project call by the project function it runs (:meth:`call_pairs` refs), but those
        that hand a coroutine to a loop (``run_coroutine_threadsafe(coro, loop)``); the project
        functions taking each as a value; those calls handing one to a loop, resolved when asked:
        whether the loop is the project's own may be settling (:meth:`recorded_own_loop`) when
        this is made. One scan per graph: the hot set's roots ask :meth:`_only_reached_from`
        twice, and each resolved every project call again (half a graph of a project handing
        coroutines to a loop of its own)."""
        if self._callers_of_all is None:
            calls: dict[FunctionId, array[int]] = {}
            values: dict[FunctionId, set[FunctionId]] = {}
            handing: list[int] = []
            for position, summary in enumerate(self.summaries):
                if summary.library is not None:
                    continue
                for index, site in enumerate(summary.calls):
                    ref = call_ref(position, index, site.caller)
                    if site.loop and site.consumer in LOOP_SUBMITTERS:
                        handing.append(ref)
                        continue
                    for callee in self._targets(FunctionId((position, site.caller)), site, index):
                        add_ref(calls, callee, ref)
                for value in summary.refs:
                    target = value.target if value.self_ref is None else self.resolve_self_ref(value.self_ref)
                    for callee in self.functions_for(target):
                        values.setdefault(callee, set()).add(self._ids[position][value.caller])
            self._callers_of_all = (frozen_refs(calls), values, handing)
        return self._callers_of_all

    def _reached_from(self, seeds: set[FunctionId]) -> set[FunctionId]:
        """``seeds`` and what they call, await, start or take as a value, and so on: the calls and
        references :meth:`_only_reached_from` reads, of these functions only."""
        found = set(seeds)
        todo = list(seeds)
        # Per summary: each function's calls (by index) and references, grouped once.
        written: dict[int, tuple[dict[int, list[int]], dict[int, list[FunctionRef]]]] = {}
        while todo:
            key = todo.pop()
            position, function = key
            summary = self.summaries[position]
            if summary.library is not None:
                continue
            rows = written.get(position)
            if rows is None:
                rows = written[position] = ({}, {})
                for index, site in enumerate(summary.calls):
                    rows[0].setdefault(site.caller, []).append(index)
                for ref in summary.refs:
                    rows[1].setdefault(ref.caller, []).append(ref)
            reached: list[FunctionId] = []
            for index in rows[0].get(function, ()):
                site = summary.calls[index]
                if not self.on_own_loop(site):
                    reached.extend(self._targets(key, site, index))
            for ref in rows[1].get(function, ()):
                reached.extend(
                    self.functions_for(ref.target if ref.self_ref is None else self.resolve_self_ref(ref.self_ref))
                )
            for callee in reached:
                if callee not in found:
                    found.add(callee)
                    todo.append(callee)
        return found

    def recorded_own_loop(self, loop: str) -> bool:
        """Is ``loop`` (``pkg.Conn().loop``: what a call hands a coroutine to, an attribute bound to
        ``asyncio.get_running_loop()``) a loop of the project's own? So when every method of its class
        that asks for the running loop runs only where coroutines handed to a loop the project made
        run (``connect`` awaited from ``_connect_servers``, itself handed to ``self._bg_loop =
        asyncio.new_event_loop()``): the loop it recorded is that one, not the rollouts'."""
        owner, dot, _ = loop.rpartition("().")
        cls = self.canonical(owner) if dot else ""
        if cls not in self.classes:
            return False
        found = self._recorded_loops.get(cls)
        if found is None:
            self._recorded_loops[cls] = False  # asked again while settling it: not known to be one
            askers = self._loop_askers(cls)
            seeds = self._own_loop_coroutines() if askers else set()
            found = bool(seeds) and askers <= self._only_reached_from(seeds, {key: key for key in askers})
            self._recorded_loops[cls] = found
        return found

    def _loop_askers(self, cls: str) -> set[FunctionId]:
        """The methods of class ``cls`` that ask for the running loop."""
        position = self.classes[cls][0]
        summary = self.summaries[position]
        local = cls.removeprefix(f"{summary.module}.")
        return {
            FunctionId((position, site.caller))
            for site in summary.calls
            if site.target in LOOP_GETTERS and summary.functions[site.caller].class_qualname == local
        }

    def _own_loop_coroutines(self) -> set[FunctionId]:
        """The project's coroutines handed to a loop it made itself (``asyncio.new_event_loop()``)."""
        found: set[FunctionId] = set()
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue
            for index, site in enumerate(summary.calls):
                if self.on_own_loop(site, recorded=False):
                    caller = FunctionId((position, site.caller))
                    found.update(callee for callee in self._targets(caller, site, index) if callee != caller)
        return found
