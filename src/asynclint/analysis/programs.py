"""Which of an environment's modules run elsewhere: modules no environment module imports (a
service started as a process of its own, an offline script, a trainer) and, among them, the
programs (a module that starts an event loop or an app server, or has a ``__main__`` block)."""

from __future__ import annotations

from asynclint.analysis.graph_records import FunctionId
from asynclint.analysis.graph_state import GraphState
from asynclint.knowledge.asyncio_apis import LOOP_RUNNERS, runs_loop
from asynclint.knowledge.frameworks import COLD_FUNCTIONS
from asynclint.knowledge.programs import APP_SERVERS, INERT_BASES


class Programs(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _elsewhere(self) -> tuple[frozenset[int], frozenset[int]]:
        """(positions of the modules no environment module imports, those of them that are
        programs), both empty in a project that is not an environment.

        In a project defining ``load_environment``, the framework loads the modules defining it,
        and they import the rest: a module none of them imports, directly or through other
        modules (inside functions too, and the packages' ``__init__`` on the way), is never
        loaded into the process whose loop runs the rollouts. It runs in a process of its own: a
        render or scoring service the environment calls over HTTP, data generation, an
        evaluation run, a trainer. A program among them starts a loop (``asyncio.run``,
        ``anyio.run``, ``run_until_complete``), serves an app (``uvicorn.run``,
        ``aiohttp.web.run_app``), or is run as a script (``if __name__ == "__main__":``). In a
        project that is not an environment, every module may be what runs: nothing is elsewhere."""
        if self._elsewhere_found is not None:
            return self._elsewhere_found
        project = [(position, summary) for position, summary in enumerate(self.summaries) if summary.library is None]
        environments = [
            position
            for position, summary in project
            if any(
                entry.name in COLD_FUNCTIONS and entry.kind == "function" and "." not in entry.qualname
                for entry in summary.functions
            )
        ]
        if not environments:
            self._elsewhere_found = (frozenset(), frozenset())
            return self._elsewhere_found
        by_module = {summary.module: position for position, summary in project}
        reached: set[int] = set()
        # Importing a module runs its packages' ``__init__`` first, and what each of them imports.
        pending = [self.summaries[position].module for position in environments]
        while pending:
            parts = pending.pop().split(".")
            for depth in range(1, len(parts) + 1):
                position = by_module.get(".".join(parts[:depth]))
                if position is not None and position not in reached:
                    reached.add(position)
                    pending.extend(self.summaries[position].imported)
        unloaded = frozenset(position for position, _ in project if position not in reached)
        programs = frozenset(
            position
            for position in unloaded
            if (summary := self.summaries[position]).main_block
            or any(
                runs_loop(site.consumer) or self.target_at(position, index) in APP_SERVERS
                for index, site in enumerate(summary.calls)
            )
            or any(ref.passed_to in LOOP_RUNNERS and not ref.offloaded for ref in summary.refs)
        )
        self._elsewhere_found = (unloaded, programs)
        return self._elsewhere_found

    def runs_elsewhere(self, key: FunctionId) -> bool:
        """An uncalled coroutine ``key`` (no project code calls, awaits or starts it) never runs
        on the rollouts' loop: it is defined in a module no environment module imports, and
        either that module is a program (its coroutines run on the program's loop or server, in
        its process) or nothing outside the project can call it -- a function, or a method of a
        class deriving from project classes and :data:`~asynclint.knowledge.programs.INERT_BASES`
        only. A method of a class with another library base may be an override that library
        calls (a trainer's ``generate``): it stays a root, as it would in a library."""
        unloaded, programs = self._elsewhere()
        position = key[0]
        if position not in unloaded:
            return False
        if position in programs:
            return True
        owner = self.function(key).class_qualname
        if owner is None:
            return True
        return self.unreachable_by_libraries(f"{self.summaries[position].module}.{owner}")

    def unreachable_by_libraries(self, cls: str) -> bool:
        """No library's code calls a method of ``cls`` through a base: it derives from project
        classes and :data:`~asynclint.knowledge.programs.INERT_BASES` only, each base named."""
        return all(
            name in INERT_BASES or name in self.classes and not self.classes[name][1].unnamed_bases
            for name in map(self.canonical, self.ancestors(cls))
        )

    def _environment_names(self) -> frozenset[str] | None:
        """The names an environment's modules read or import (see :meth:`HotSet._unreferenced`);
        ``None`` when the project is not an environment."""
        project = [summary for summary in self.summaries if summary.library is None]
        if not any(
            entry.name in COLD_FUNCTIONS and entry.kind == "function" and "." not in entry.qualname
            for summary in project
            for entry in summary.functions
        ):
            return None
        return frozenset(
            name
            for summary in project
            for name in (
                *summary.loaded,
                # imported names (a module's exports also list what it defines itself)
                *(
                    target.rpartition(".")[2]
                    for name, target in summary.exports
                    if target != f"{summary.module}.{name}"
                ),
            )
        )
