"""What runs only where other functions run: the project functions reached from nothing but a
set of functions (the coroutines the project hands a loop of its own), part of the hot set's roots."""

from __future__ import annotations

from asynclint.analysis.graph_records import FunctionId
from asynclint.analysis.graph_state import GraphState


class Background(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _only_reached_from(self, seeds: set[FunctionId]) -> set[FunctionId]:
        """``seeds`` and the project functions that nothing but them (and functions so found) calls,
        awaits, starts or takes as a value: what runs only where the seeds run."""
        callers: dict[FunctionId, set[FunctionId]] = {}
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue
            for index, site in enumerate(summary.calls):
                caller = FunctionId((position, site.caller))
                if self.on_own_loop(site):
                    continue  # the seeds themselves
                for callee in self._targets(caller, site, index):
                    callers.setdefault(callee, set()).add(caller)
            for ref in summary.refs:
                target = ref.target if ref.self_ref is None else self.resolve_self_ref(ref.self_ref)
                for callee in self.functions_for(target):
                    callers.setdefault(callee, set()).add(self._ids[position][ref.caller])
        found = set(seeds)
        changed = True
        while changed:
            changed = False
            for callee, by in callers.items():
                if callee not in found and by <= found:
                    found.add(callee)
                    changed = True
        return found
