"""What runs only where other functions run: the project functions reached from nothing but a
set of functions (the coroutines the project hands a loop of its own), part of the hot set's roots."""

from __future__ import annotations

from asynclint.analysis.graph_records import FunctionId
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.records import FunctionRef


class Background(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _only_reached_from(self, seeds: set[FunctionId], asked: dict[FunctionId, FunctionId]) -> set[FunctionId]:
        """Those of ``asked`` (each with one function known to call it) that run only where ``seeds``
        run: a seed, or a project function that nothing but seeds (and functions so found) calls,
        awaits, starts or takes as a value."""
        reached = self._reached_from(seeds)
        if not any(key in seeds or (key in reached and by in reached) for key, by in asked.items()):
            # Only what the seeds reach can run only where they run, and only if all its callers
            # do (the one known is enough to tell): the scan below resolves every call of the
            # project once more (a quarter of a large project's graph).
            return set()
        # Who calls what the seeds reach (nothing else can run only where they run), from anywhere.
        callers: dict[FunctionId, set[FunctionId]] = {key: set() for key in reached}
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue
            for index, site in enumerate(summary.calls):
                caller = FunctionId((position, site.caller))
                if self.on_own_loop(site):
                    continue  # the seeds themselves
                for callee in self._targets(caller, site, index):
                    if callee in callers:
                        callers[callee].add(caller)
            for ref in summary.refs:
                target = ref.target if ref.self_ref is None else self.resolve_self_ref(ref.self_ref)
                for callee in self.functions_for(target):
                    if callee in callers:
                        callers[callee].add(self._ids[position][ref.caller])
        found = set(seeds)
        changed = True
        while changed:
            changed = False
            for callee, by in callers.items():
                if by and callee not in found and by <= found:
                    found.add(callee)
                    changed = True
        return found.intersection(asked)

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
