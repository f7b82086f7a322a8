"""What the callers pass a function's tested parameters: the constants every caller passes
(:meth:`GivenArgs.fixed_params`), and the constants one call chain passes (``HotInfo.given``),
so that a branch is judged by the chains that take it -- ``use_clip=False`` from a per-turn hook
and ``True`` from a reward reach the same function as two states, and the code under ``if
use_clip:`` is graded by the reward's alone."""

from __future__ import annotations

import ast

from asynclint.analysis.graph_records import FunctionId, Given, HotInfo
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.flags import PASSED_OBJECT, ROW_ARGUMENT, ROW_KEYS, guard_holds
from asynclint.analysis.index.records import CallSite, Place

#: At most this many distinct ``given`` tuples per function: a function called with many
#: different constants falls back to one state judged by the constants every caller passes.
MAX_GIVEN = 4


def _switch(text: str) -> bool:
    """``text`` (a constant's ``repr``) is one a chain carries: a bool, ``None`` or a string -- a
    switch or a mode, not a count every call may pass differently."""
    return text in ("True", "False", "None") or text[:1] in ("'", '"') or text.startswith(_ROW_PREFIX)


#: How a ``given`` text handing over the rollout's row starts (``repr((ROW_ARGUMENT, column))``).
_ROW_PREFIX = f"({ROW_ARGUMENT!r},"


class GivenArgs(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def runs(self, key: FunctionId, site: CallSite) -> bool:
        """False when ``site`` sits behind a test of a parameter of ``key`` that every call of
        ``key`` in the project leaves at (or sets to) one constant, and that is false with it:
        ``if write_to_log:`` where nothing passes ``write_to_log=True``."""
        return not site.guards or guard_holds(site.guards, self._with_rows(self.fixed_params(key), site.guards))

    def _with_rows(self, env: dict[str, object], guards: tuple[str, ...]) -> dict[str, object]:
        """``env`` with :data:`ROW_KEYS` bound to the keys every dataset row carries, when one of
        ``guards`` tests a key of the rollout's row (``row.get("repo_root") or find_root()``)."""
        if not any(ROW_KEYS in guard for guard in guards):
            return env
        return {**env, ROW_KEYS: self.row_keys()}

    def fixed_params(self, key: FunctionId) -> dict[str, object]:
        """Parameters of ``key`` every call passes the same constant (or leaves at its constant
        default) -> that constant. Nothing for a root, a function handed over as a value, a
        method a call of unknown receiver may mean, or a function nothing in the project calls:
        someone else calls those, with anything."""
        found = self._fixed.get(key)
        if found is not None:
            return found
        found = self._fixed[key] = {}
        calls, escaped, unresolved = self._calls_of_functions()
        function = self.function(key)
        sites = calls.get(key)
        if not sites or key in self._root_keys or key in escaped or function.name in unresolved:
            return found
        defaults = dict(function.defaults)
        for position, name in enumerate(self._own_params(key)):
            values = set()
            for site in sites:
                given = dict(site.given)
                values.add("" if "*" in given else given.get(name, given.get(str(position), defaults.get(name, ""))))
            if len(values) == 1 and (value := values.pop()):
                found[name] = self._given_value(value)
        return found

    def _own_params(self, key: FunctionId) -> tuple[str, ...]:
        """The parameters of ``key`` a call's arguments fill (a method's without its receiver)."""
        function = self.function(key)
        shift = function.class_qualname is not None and "builtins.staticmethod" not in function.decorators
        return function.params[shift:]

    def state_env(self, key: FunctionId, info: HotInfo) -> dict[str, object]:
        """What ``key``'s parameters hold on the chain of ``info``: the constants every caller
        passes, and those the chain's own call passes."""
        fixed = self.fixed_params(key)
        if not info.given:
            return fixed
        return {**fixed, **{name: self._given_value(text) for name, text in info.given}}

    def _given_value(self, text: str) -> object:
        """The value a ``given`` text stands for: a constant, or the rollout's row (or a dict
        column of it) as the keys every row carries there."""
        value = ast.literal_eval(text)
        if not (isinstance(value, tuple) and len(value) == 2 and value[0] == ROW_ARGUMENT):
            return value
        column = value[1]
        keys = self.row_keys()
        return (
            frozenset(key.removeprefix(f"{column}.") for key in keys if key.startswith(f"{column}."))
            if column
            else keys
        )

    def _tested(self, key: FunctionId) -> frozenset[str]:
        """Parameters of ``key`` that a guard of one of its calls tests, or that it passes on as
        they are to a function that tests them (``_score_from_blocks(..., use_clip)``)."""
        found = self._tested_params.get(key)
        if found is not None:
            return found
        self._tested_params[key] = frozenset()  # recursion ends at a function being asked about
        params = set(self._own_params(key))
        names: set[str] = set()
        for site in self._calls_by_caller.get(key, ()):
            for guard in site.guards:
                names.update(node.id for node in ast.walk(ast.parse(guard, mode="eval")) if isinstance(node, ast.Name))
        for callee, site in self._edges_of(key) if params else ():
            if site.passed_params and (wanted := self._tested(callee)):
                slots = self._slots(callee)
                names.update(param for slot, param in site.passed_params if slots.get(slot) in wanted)
        found = self._tested_params[key] = frozenset(names & params)
        return found

    def _slots(self, key: FunctionId) -> dict[str, str]:
        """Argument slot (a position, "0", or a keyword) -> the parameter of ``key`` it fills."""
        own = self._own_params(key)
        return {**{str(position): name for position, name in enumerate(own)}, **{name: name for name in own}}

    def given_to(self, caller: FunctionId, info: HotInfo, site: CallSite, callee: FunctionId) -> Given:
        """The constants ``site`` (in ``caller``, on the chain of ``info``) passes the parameters
        of ``callee`` that its guards test: a constant written in the call, the caller's own
        parameter passed on with what the chain knows of it, the callee's constant default when
        nothing is passed, or :data:`PASSED_OBJECT` for another value (an object the caller
        holds: ``shared=self._shared``); bools, ``None`` and strings only. Capped per callee
        (:data:`MAX_GIVEN`)."""
        tested = self._tested(callee)
        passed_in = dict(site.given)
        if not tested or "*" in passed_in:
            return ()
        function = self.function(callee)
        defaults, forwarded = dict(function.defaults), dict(site.passed_params)
        values = []
        for position, name in enumerate(self._own_params(callee)):
            if name not in tested:
                continue
            slot = name if name in passed_in else str(position)
            if slot not in passed_in:
                text = defaults.get(name, "")
            elif passed_in[slot]:
                text = passed_in[slot]
            elif slot in forwarded:
                text = dict(info.given).get(forwarded[slot], "")
                fixed = self.fixed_params(caller)
                text = text or (repr(fixed[forwarded[slot]]) if forwarded[slot] in fixed else "")
            else:
                text = PASSED_OBJECT
            if text == PASSED_OBJECT or _switch(text):
                values.append((name, text))
        given = tuple(values)
        seen = self._givens.setdefault(callee, set())
        if given not in seen:
            if len(seen) >= MAX_GIVEN:
                return ()
            seen.add(given)
        return given

    def hot_at(self, key: FunctionId, site: Place) -> HotInfo | None:
        """How ``site`` (a call, or a loop: any place the index records the tests around) in hot
        function ``key`` runs: the most frequent chain to ``key`` under which its guards may hold
        (on every call before on first or failing ones, then more than once per rollout before
        once). ``None`` when no chain takes it."""
        best = self.hot.get(key)
        if best is None or not site.guards:
            return best
        candidates = self._hot_states.get(key, (best,))
        taking = [
            info
            for info in candidates
            if guard_holds(site.guards, self._with_rows(self.state_env(key, info), site.guards))
        ]
        return min(taking, key=lambda info: (info.rare, not info.raised), default=None)
