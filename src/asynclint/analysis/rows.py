"""The keys every dataset row of the project carries: the rows handed to ``Dataset.from_list`` in
the modules the environment loads, followed through the functions that return them (a display, a
copy of a row with keys added, rows appended in a loop, a helper's rows) -- the keys a test of the
rollout's row (``row.get("repo_root") or find_root()``) finds set on every rollout."""

from __future__ import annotations

from asynclint.analysis.graph_records import FunctionId
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.row_records import RowShape

#: How deep the rows are followed through the helpers that build them.
_MAX_DEPTH = 8
#: A shape: (module position, index in its ModuleSummary.row_shapes).
_At = tuple[int, int]


class RowKeys(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def row_keys(self) -> frozenset[str]:
        """The keys every row of every dataset the environment builds carries (set to something
        other than a false constant). Empty when it builds none the tool can see: a dataset read
        from the hub or a file, rows from a library, no ``Dataset.from_list`` at all."""
        if self._row_keys is not None:
            return self._row_keys
        unloaded, _ = self._elsewhere()
        builds = [
            (position, index)
            for position, summary in enumerate(self.summaries)
            if summary.library is None and position not in unloaded
            for index, shape in enumerate(summary.row_shapes)
            if shape.dataset
        ]
        found: frozenset[str] | None = None
        for at in builds:
            keys = self._rows_of(at, True, {}, 0)
            found = keys if found is None else found & keys
        self._row_keys = found or frozenset()
        return self._row_keys

    def _rows_of(self, at: _At, items: bool, bound: dict[str, _At], depth: int) -> frozenset[str]:
        """The keys every row (``items``) or the one row the shape at ``at`` describes carries;
        ``bound``: the shapes of what the call being followed passes its parameters."""
        shape = self.summaries[at[0]].row_shapes[at[1]]
        concrete = shape.keys or shape.copies or shape.item_calls or shape.nested
        if depth > _MAX_DEPTH or (concrete and shape.items != items):
            return frozenset()
        found = set(shape.keys)
        for key, index in shape.nested:
            found.update(f"{key}.{inner}" for inner in self._rows_of((at[0], index), False, bound, depth + 1))
        for param in shape.copies:
            if param in bound:
                found |= self._rows_of(bound[param], shape.items, {}, depth + 1)
        for calls, each in ((shape.calls, items), (shape.item_calls, False)):
            for callee, args in calls:
                found |= self._returned_rows(at[0], callee, args, each, depth)
        return frozenset(found)

    def _returned_rows(
        self, position: int, callee: str, args: tuple[tuple[str, int], ...], items: bool, depth: int
    ) -> frozenset[str]:
        """The keys every row a call of ``callee`` (written in module ``position``) returns carries,
        on every definition and every ``return`` of it."""
        found: frozenset[str] | None = None
        for key in self.functions_for(callee):
            slots = self._slots(key)
            bound = {slots[slot]: (position, index) for slot, index in args if slot in slots}
            returns = self._returns_of(key)
            if not returns:
                return frozenset()
            for at in returns:
                keys = self._rows_of(at, items, bound, depth + 1)
                found = keys if found is None else found & keys
        return found or frozenset()

    def _returns_of(self, key: FunctionId) -> list[_At]:
        """The shapes of what ``key``'s ``return`` statements give (one per statement read)."""
        shapes: tuple[RowShape, ...] = self.summaries[key[0]].row_shapes
        return [(key[0], index) for index, shape in enumerate(shapes) if shape.function == key[1] and not shape.dataset]
