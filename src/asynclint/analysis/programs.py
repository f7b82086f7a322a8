"""Which of an environment's modules run elsewhere: modules no environment module imports (a
service started as a process of its own, an offline script, a trainer) and, among them, the
programs (a module that starts an event loop or an app server, or has a ``__main__`` block)."""

from __future__ import annotations

from asynclint.analysis.graph_records import FunctionId
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.helpers import may_be_project
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
        ``None`` when the project is not an environment. A test module's reads are not among them:
        a method only a test names (``env.helper()`` in ``test_env.py``) is not one the rollouts run."""
        project = [
            summary
            for position, summary in enumerate(self.summaries)
            if summary.library is None and not self._in_test_file(position)
        ]
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

    def handed_to_libraries(self) -> frozenset[str]:
        """The project's classes an object handed to a library is an instance of: handed to a
        call outside the project (``bus.add_handler(Handler())``, ``server.register(self)``; not the
        standard library's, whose calls read what they are handed through its dunder methods) or
        stored into a library object's attribute (``bus.listener = Listener()``), or handed as a
        class or a function that returns one (``app.add_handler(Handler)``, ``lib.run(factory=
        make_handler)``). The library may call any method of theirs by its name. A call of a
        project function (it runs what the project wrote) is no such call, nor a construction of
        (or a store into) a project class no library base reaches, nor anything a test module does."""
        if self._handed_out is None:
            found: set[str] = set()
            for position, summary in enumerate(self.summaries):
                if summary.library is not None or self._in_test_file(position):
                    continue
                for index, site in enumerate(summary.calls):
                    if site.handed_out and not self.called_at(position, index):
                        target = self.target_at(position, index)
                        if target is not None and may_be_project(target) and not self._project_holder(target):
                            found.update(filter(None, map(self._class_handed, site.handed_out)))
                for held, stored in summary.stored_out:
                    receiver = self.resolve(held)
                    if may_be_project(receiver) and not self._project_holder(receiver):
                        found.update(filter(None, [self._class_handed(stored)]))
            self._handed_out = frozenset(found)
        return self._handed_out

    def _project_holder(self, name: str) -> bool:
        """``name`` (a call's target, a receiver's type) is a project class no library base reaches,
        or an instance of one (``pkg.Config()``)."""
        cls = self.canonical(name.removesuffix("()"))
        return cls in self.classes and self.unreachable_by_libraries(cls)

    def _class_handed(self, value: str) -> str | None:
        """The project class ``value`` (``CallFacts.handed_out``) is an instance of, is, or a
        function it names returns an instance of; ``None`` for anything else."""
        # ``pkg.Handler()``: an instance, as the walk writes a call of what it cannot yet tell a class
        names = [value, self.resolve(value)]
        if self.functions_for(value):
            names.append(self.resolve(f"{value}()"))
        return next((cls for name in names if (cls := self.canonical(name.removesuffix("()"))) in self.classes), None)
