"""One-time code: the function whose first call runs a call and nothing after (a memoized
function, a lazy initialisation's holder), and whether start-up calls it first, so that the
rollouts find it done."""

from __future__ import annotations

from array import array
from collections.abc import Iterator

from asynclint.analysis.callrefs import NO_CALLS, CallRefs, add_ref, call_ref, frozen_refs
from asynclint.analysis.given import known_constant
from asynclint.analysis.graph_records import MAX_ALIAS_HOPS, FunctionId, HotInfo
from asynclint.analysis.index.callfacts import NO_FACTS
from asynclint.analysis.index.records import CallSite, Place
from asynclint.analysis.index.values import Marker, Rooted
from asynclint.knowledge.asyncio_apis import runs_loop
from asynclint.knowledge.frameworks import (
    EXAMPLE_FREQUENCY,
    ROLLOUT_FREQUENCY,
    RUN_BY_CLASS_DEFINITIONS,
    START_UP,
    keyed_frequency,
    widest_frequency,
)


class Warming(CallRefs):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def first_call_entry(self, key: FunctionId, site: Place, hot: HotInfo | None = None) -> FunctionId | None:
        """The function whose first call runs ``site`` (written in ``key``) and nothing after,
        nearest the root on the chain (``hot``'s, by default ``key``'s most frequent): a memoized
        function, or the function holding the lazy initialisation (``key`` itself when the call
        sits in one of its own). ``None``: every call."""
        info, entry, current = hot or self.hot[key], None, key
        while info.once:
            # Reached through a guarded call: the guard is in the caller, which warming must call.
            memoized = self._memoizer(current) is not None
            entry = current if memoized or info.parent is None else info.parent.function
            if info.parent is None:
                break
            current, info = info.parent.function, self.states[info.parent]
        return entry if entry is not None else key if site.once else None

    def keyed_frequency(self, key: FunctionId, site: Place, hot: HotInfo | None = None) -> str:
        """How often what the one-time steps on the chain to ``site`` guard runs (a call, a loop or a
        nest written in ``key``; ``hot``'s chain, by default ``key``'s most frequent) when every one is
        a cache keyed by a value of the rollout's: a lazy fill keyed by parameters (``memo_key``) or a
        memoized function, whose function some hot call hands a value of the rollout's
        (:meth:`_rollout_given`). ``example`` (``EXAMPLE_FREQUENCY``) when one is keyed by the example's
        row (``_load_problem(task)`` testing ``task.task_id``): it misses on the first rollout of each
        example, once per group; ``rollout`` when every one is keyed by what the rollout made or its
        id (``_sandbox_dir(state["trajectory_id"])``): it never hits across rollouts. "": the first
        call only (a key of the process's, or one this walk cannot trace)."""
        info, current = hot or self.hot[key], key
        kinds: list[str] = []
        if site.once:
            kinds.append(self._rollout_given(key, site.memo_key))
        keyed = site.once
        while info.once and all(kinds):
            memoized = self._memoizer(current) is not None
            if memoized:
                kinds.append(self._rollout_given(current, self.function(current).params))
            if info.parent is None:
                break
            caller, line = info.parent.function, info.call_line
            parent = self.states[info.parent]
            guarded = [call for call in self._links(current, caller, line) if call.once]
            kinds += [self._rollout_given(caller, call.memo_key) for call in guarded]
            if not (memoized or guarded or parent.once):
                return ""  # a one-time step this walk cannot name
            keyed = keyed or memoized or bool(guarded)
            current, info = caller, parent
        if not keyed or not all(kinds):
            return ""
        # The cache nearest the root bounds the rest: one keyed by the example hits for the group.
        return EXAMPLE_FREQUENCY if EXAMPLE_FREQUENCY in kinds else ROLLOUT_FREQUENCY

    def _rollout_given(self, key: FunctionId, params: tuple[str, ...], depth: int = 0) -> str:
        """How often the values some hot call of ``key`` hands ``params`` change: ``rollout`` when one
        is the rollout's own, ``example`` when one is the example's and none the rollout's own, ""
        when none is the rollout's (:func:`~asynclint.knowledge.frameworks.keyed_frequency`). A value of
        the rollout's is read from its state or handed by the framework to a registered function by
        that name (``Marker.STATE``, ``Marker.PASSED``; a key of ``ROLLOUT_VALUED_KEYS``), or is the
        caller's own parameter receiving one, or a parameter of a function enclosing the caller that
        receives one (:meth:`_closure_given`), or what a project function returns handed one
        (:meth:`_derived_given`: ``spec = parse_task(task)``); or ``key`` is a root the framework
        calls with such a value (a tool: the model's arguments, per rollout; a hook's parameter of
        one of those names, or the row a v1 handler is handed as ``task``)."""
        function = self.function(key)
        wanted = [name for name in params if name in function.params and name not in ("self", "cls")]
        if not wanted:
            return ""
        if key in self._root_keys:  # a tool's arguments are the model's; a hook's, the rollout's by name
            if key in self._tools:
                return ROLLOUT_FREQUENCY
            row = self.hot[key].root_hook.row_params if key in self.hot else frozenset()
            named = {EXAMPLE_FREQUENCY if name in row else keyed_frequency(name) for name in wanted}
            return widest_frequency(named)
        found: set[str] = set()
        for caller, call in self._warming_calls(key):
            if caller not in self.hot:
                continue
            for name in wanted:
                found.add(self._value_given(caller, call, function.argument(call, name), depth))
                if depth < MAX_ALIAS_HOPS:
                    slot = function.argument_slot(call, name)
                    found.add(self._closure_given(caller, call, slot, depth))
                    # the caller's parameter handed on as it is or a part of it (``task.task_id``,
                    # ``row["id"]``; typed or not): the payloads' provenance (CallFacts.passed_params)
                    facts = call.rare or NO_FACTS
                    held = dict(facts.passed_params).get(slot) or dict(facts.part_params).get(slot)
                    if held is not None:
                        found.add(self._rollout_given(caller, (held,), depth + 1))
        return widest_frequency(found)

    def _value_given(self, caller: FunctionId, call: CallSite, value: str | Rooted, depth: int) -> str:
        """How often ``value``, an argument ``call`` (written in hot ``caller``) passes, changes with the
        rollout (:meth:`_rollout_given`)."""
        rollout = Rooted.read(value, Marker.STATE) or Rooted.read(value, Marker.PASSED)
        if rollout is not None and rollout.path[:1] != ():
            return keyed_frequency(rollout.path[0])
        if depth >= MAX_ALIAS_HOPS:
            return ""
        passed = Rooted.read(value, Marker.PARAM)
        if passed is not None:
            return self._rollout_given(caller, passed.path[:1], depth + 1)
        return self._derived_given(caller, value, depth)

    def _derived_given(self, caller: FunctionId, value: str | Rooted, depth: int) -> str:
        """``value`` is what a project function returns (``spec = parse_task(task)``, handed on as
        ``parse_task()``), bound in ``caller``: how often what ``caller``'s calls of that function hand it
        changes with the rollout -- a value derived from the example's row is the example's."""
        if not isinstance(value, str) or not value.endswith("()") or value.count("()") != 1:
            return ""
        target, position = value[:-2], caller[0]
        found: set[str] = set()
        for index, site in enumerate(self.summaries[position].calls):
            if site.target != target or self._ids[position][site.caller] != caller:
                continue
            if not any(self.summaries[callee[0]].library is None for callee in self.called_at(position, index)):
                continue  # a library's function: what it returns is not followed
            found.update(self._value_given(caller, site, argument, depth + 1) for argument in site.arguments)
            found.update(self._value_given(caller, site, argument, depth + 1) for _, argument in site.keyword_arguments)
        return widest_frequency(found)

    def _closure_given(self, caller: FunctionId, call: CallSite, slot: str, depth: int) -> str:
        """``call``'s argument at ``slot`` is a parameter of a function enclosing ``caller``
        (``CallFacts.outer_params``: ``sid`` of ``_make_tools(sid)`` in a tool it defines), and some
        hot call of that function hands it a value of the rollout's (:meth:`_rollout_given`)."""
        outer = dict((call.rare or NO_FACTS).outer_params).get(slot)
        if outer is None:
            return ""
        function = self.function(caller)
        host = self.key_of(self.summaries[caller[0]].path, function.qualname.rpartition(".<locals>.")[0])
        return self._rollout_given(host, (outer,), depth + 1) if host is not None else ""

    def fills_on_miss(self, key: FunctionId, site: CallSite, hot: HotInfo | None, entry: FunctionId | None) -> bool:
        """The one-time step at ``entry`` (``first_call_entry``'s answer for ``site``, written in
        ``key``) is a cache on disk's miss path: ``site`` itself sits in it, or ``entry``'s call on
        the chain does (``CallSite.cache_miss``)."""
        if entry is None:
            return False
        if entry == key:
            return site.cache_miss
        info, current = hot or self.hot[key], key
        while info.parent is not None:
            caller, line = info.parent.function, info.call_line
            if caller == entry:
                return any(call.cache_miss for call in self._links(current, caller, line))
            current, info = caller, self.states[info.parent]
        return False

    def fresh_instance(self, key: FunctionId, site: CallSite, hot: HotInfo) -> str | None:
        """How often the one-time steps on ``hot``'s chain to ``site`` (written in ``key``) run when
        every one is a lazy initialisation of an attribute of ``self``, the steps linked by calls
        within one class: ``call`` when the caller that enters the class builds the instance it
        calls (``world = WorldManager(...)`` then ``world.configure()`` per rollout, ``configure``
        starting ``if self._configured: return``) -- the guards never find their work done;
        ``rollout`` when only rollout code builds the class's instances (``setup_state`` building a
        task's sandbox object, kept in the state) -- each rollout's guard runs once. ``None``: the
        first call only."""
        cls = self.function(key).class_qualname
        if cls is None or (site.once and not site.instance_once) or not (site.once or hot.once):
            return None
        info, current = hot, key
        while info.once:
            if info.parent is None:
                return None
            caller, line = info.parent.function, info.call_line
            if caller[0] != key[0] or self.function(caller).class_qualname != cls:
                return None  # a one-time step outside the class: it may outlive the instance
            if any(call.once and not call.instance_once for call in self._links(current, caller, line)):
                return None
            current, info = caller, self.states[info.parent]
        if self.built_by_caller(current, info):
            return "call"
        return "rollout" if self._built_per_rollout(key[0], cls) else None

    def _built_per_rollout(self, position: int, cls: str) -> bool:
        """Rollout code builds every instance of the class ``cls`` of module ``position`` and of its
        subclasses, outside any one-time step, and start-up code reaches none of those builders: an
        instance kept by the environment (built in ``__init__`` or ``load_environment``) may serve
        every rollout, one a rollout builds serves that rollout only."""
        name = f"{self.summaries[position].module}.{cls}"
        if name not in self._rollout_built:
            building = self._building()
            builders: list[FunctionId] = []
            sound = True
            for at, index in sorted(
                {call for built in (name, *self.subclasses(name)) for call in building.get(built, ())}
            ):
                site = self.summaries[at].calls[index]
                caller = self._ids[at][site.caller]
                info = self.hot.get(caller)
                if site.once or info is None or info.once:
                    sound = False
                builders.append(caller)
            self._rollout_built[name] = sound and bool(builders) and not self._reached_at_start_up(builders)
        return self._rollout_built[name]

    def _building(self) -> dict[str, list[tuple[int, int]]]:
        """Each project class -> the calls that build an instance of it (:meth:`builds_at`), as
        (module position, call index): every call of every module gone through once for all the
        classes asked about (a pass per class asked: 8% of the check of 2,014 files)."""
        if self._builders is None:
            self._builders = {}
            for at, summary in enumerate(self.summaries):
                for index, site in enumerate(summary.calls):
                    built = self.inits_at(at, index)
                    if site.target is not None:
                        built.add(self.canonical(site.target))
                    for cls in built & self.classes.keys():
                        self._builders.setdefault(cls, []).append((at, index))
        return self._builders

    def warmed(self, key: FunctionId, site: Place, hot: HotInfo | None = None) -> bool:
        """Start-up code runs one of the one-time steps on the chain to ``site`` (written in ``key``;
        ``hot``'s chain, by default ``key``'s most frequent) before any rollout: a memoized
        function, or a function holding a lazy initialisation the chain passes through. Then the
        rollouts find it done, however many other one-time steps the chain has."""
        return any(self._filled_at_start_up(step) for step in self._one_time_steps(key, site, hot))

    def _one_time_steps(self, key: FunctionId, site: Place, hot: HotInfo | None) -> list[FunctionId]:
        """The functions on the chain to ``site`` whose first call runs it and nothing after: each
        memoized one, and each one that calls the next behind a lazy initialisation's guard
        (``key`` when ``site`` sits behind one of its own), nearest the call first."""
        info, current = hot or self.hot[key], key
        steps = [key] if site.once else []
        while info.once:
            memoized = self._memoizer(current) is not None
            if memoized:
                steps.append(current)
            if info.parent is None:
                break
            caller, line = info.parent.function, info.call_line
            parent = self.states[info.parent]
            # A chain is once from its first one-time step on: this link is one when the caller's
            # chain was not, or its call is guarded itself.
            if (not memoized and not parent.once) or any(call.once for call in self._links(current, caller, line)):
                steps.append(caller)
            current, info = caller, parent
        return steps

    def _filled_at_start_up(self, entry: FunctionId) -> bool:
        """Start-up code calls ``entry`` before any rollout, directly or through other functions.
        Start-up is module level, the functions named in
        :data:`~asynclint.knowledge.frameworks.START_UP` and the framework classes' ``start_up``
        methods (a v1 ``Taskset.load``), when no rollout runs them. A memoized ``entry`` keeps a
        result per argument set: each of its hot calls must pass what some start-up call passes
        (the same constants, or nothing), or a rollout fills a result of its own."""
        if self._run_by_class_definitions(entry):
            return True
        calls = list(self._warming_calls(entry))
        # The argument sets the rollouts' calls pass (none found by name: reached through dispatch).
        wanted = {site.given for caller, site in calls if caller in self.hot} if self._memoizer(entry) else set()
        if any(not all(known_constant(text) for _, text in given) for given in wanted):
            return False  # a key the rollout picks (its data, a value start-up cannot know)
        if not wanted:
            return self._reached_at_start_up([caller for caller, _ in calls])
        return all(
            self._reached_at_start_up([caller for caller, site in calls if site.given == given]) for given in wanted
        )

    def _run_by_class_definitions(self, entry: FunctionId) -> bool:
        """``entry`` is a library function that defining a subclass of a base runs
        (:data:`~asynclint.knowledge.frameworks.RUN_BY_CLASS_DEFINITIONS`: pydantic's ``get_plugins``
        for every ``BaseModel``), and a class defined at a module's top derives from that base:
        importing its module ran ``entry``."""
        function = self.function(entry)
        base = RUN_BY_CLASS_DEFINITIONS.get(f"{self.summaries[entry[0]].module}.{function.qualname}")
        if base is None:
            return False
        return any("<locals>" not in sub for sub in {*self.subclasses(base), *self.subclasses(self.canonical(base))})

    def _reached_at_start_up(self, callers: list[FunctionId]) -> bool:
        """Start-up runs one of ``callers``, or a function calling one, at any depth."""
        seen, queue = set(callers), callers
        while queue:
            caller = queue.pop()
            if caller not in self.hot and self._starts_up(caller):
                return True
            for outer, _ in self._warming_calls(caller):
                # Through hot functions too: start-up calling a helper the rollouts also call
                # still runs it first.
                if outer not in seen:
                    seen.add(outer)
                    queue.append(outer)
        return False

    def _starts_up(self, key: FunctionId) -> bool:
        """``key`` runs before any rollout: module level, a start-up function by name, or a method
        the framework class it belongs to runs at start-up."""
        function = self.function(key)
        if function.kind == "module" or function.name in START_UP:
            return True
        if function.class_qualname is None:
            return False
        table = self.framework_table(f"{self.summaries[key[0]].module}.{function.class_qualname}")
        return table is not None and function.name in table.start_up

    def _links(self, callee: FunctionId, caller: FunctionId, line: int) -> Iterator[CallSite]:
        """The calls of ``callee`` written in ``caller`` at ``line``: the link of a hot chain
        (``HotInfo.call_line``), found by name as :meth:`_warming_calls` finds them."""
        return (call for at, call in self._warming_calls(callee) if at == caller and call.line == line)

    def _warming_calls(self, key: FunctionId) -> Iterator[tuple[FunctionId, CallSite]]:
        """(the function each call of ``key`` is written in, the call): by name only, without
        the overrides a call through ``self`` may reach."""
        if self._direct_callers is None:
            # Warming is done by naming the function, and this costs one pass over the calls
            # (``callers`` would resolve virtual dispatch for every call of the project). Each call
            # once, for the function it is written in and each lambda it is also run by (as
            # ``_calls_by_caller`` lists it); which callers come first does not change the answer.
            direct: dict[FunctionId, array[int]] = {}
            for position, summary in enumerate(self.summaries):
                for index, site in enumerate(summary.calls):
                    if runs_loop(site.consumer):
                        continue
                    callees = self.called_at(position, index)
                    if not callees:
                        continue
                    for caller in (site.caller, *(lambda_ for lambda_, _ in site.lambdas)):
                        ref = call_ref(position, index, caller)
                        for callee in callees:
                            add_ref(direct, callee, ref)
            self._direct_callers = frozen_refs(direct)
        return self.call_pairs(self._direct_callers.get(key, NO_CALLS))
