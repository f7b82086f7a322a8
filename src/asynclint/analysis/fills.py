"""Fields whose declared type says nothing (``make_api: Callable``, ``api: Any``) read as what the
class's constructions pass there: a registry dataclass filled with project functions
(``Domain(prepare=prepare, make_api=make_api)``), called later as ``domain.make_api(...)``."""

from __future__ import annotations

from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.values import Marker, Rooted


class Fills(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _fills(self) -> dict[tuple[str, str], tuple[str, ...]]:
        """(class, field) -> the values the project's constructions pass the field by keyword, each
        once; a value nothing names (a parameter, the rollout's state) is left out. Read from the
        targets as written (canonical names, no resolving: asked while resolving)."""
        if self._filled is None:
            filled: dict[tuple[str, str], dict[str, None]] = {}
            for summary in self.summaries:
                for site in summary.calls:
                    if not site.keyword_arguments or not site.target:
                        continue
                    cls = self.canonical(site.target)
                    if cls not in self.classes or not self.classes[cls][1].fields:
                        continue
                    for name, value in site.keyword_arguments:
                        named = Rooted.read(value, Marker.NAMED)
                        if named is None and Rooted.read(value, Marker.PARAM) is not None:
                            continue
                        written = ".".join(named.path) if named is not None else str(value)
                        filled.setdefault((cls, name), {})[written] = None
            self._filled = {key: tuple(values) for key, values in filled.items()}
        return self._filled

    def filled(self, cls: str, field: str) -> str | None:
        """What field ``field`` of a ``cls`` holds, by the constructions: the one value they all pass;
        for several project functions, a table of them (named ``pkg.Domain().make_api``, in
        ``callables``), whose call runs each; None when nothing is passed, or several values that are
        not all functions."""
        values = self._fills().get((cls, field), ())
        if len(values) == 1:
            return self.resolve(values[0])
        functions = tuple(value for value in values if self.functions_for(value))
        if not functions or any(self.defined_here(value) for value in values if value not in functions):
            return None  # (a function of a module not checked, or a library's, runs none of the project's)
        table = f"{cls}().{field}"
        self.callables.setdefault(table, functions)
        self._field_tables.add(table)
        return table

    def filled_result(self, callee: str) -> str | None:
        """What calling a field's table of functions (:meth:`filled`) gives: the one project class an
        instance of which those of them that the project types return (``make_api`` of each domain
        returning its ``ActionAPI``); None when they return several, or none the project defines."""
        if callee not in self._field_tables:
            return None
        results = {self.resolve(f"{item}()") for item in self.callables.get(callee, ())}
        built = {result for result in results if result.endswith("()") and result[:-2] in self.classes}
        return built.pop() if len(built) == 1 else None

    def defined_here(self, name: str) -> bool:
        """``name`` denotes a class or a value one of the project's modules defines (asked of what is not
        a function: a name of a module the check does not read, or a library's, denotes nothing here)."""
        resolved = self.resolve(name)
        return resolved.removesuffix("()") in self.classes or resolved in self.values
