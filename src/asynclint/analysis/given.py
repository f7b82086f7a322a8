"""What the callers pass a function's tested parameters: the constants every caller passes
(:meth:`GivenArgs.fixed_params`), and the constants one call chain passes (``HotInfo.given``),
so that a branch is judged by the chains that take it -- ``use_clip=False`` from a per-turn hook
and ``True`` from a reward reach the same function as two states, and the code under ``if
use_clip:`` is graded by the reward's alone. The callables a chain hands a parameter the function
calls ride the same states (:meth:`GivenArgs.handed_edges`): ``_apply(check, text)`` runs on each
chain what that chain's caller handed ``check``."""

from __future__ import annotations

import ast
from functools import partial

from asynclint.analysis.graph_records import FunctionId, Given, HotInfo
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.callfacts import NO_FACTS
from asynclint.analysis.index.flags import (
    PASSED_OBJECT,
    ROW_ARGUMENT,
    ROW_KEYS,
    InstanceOf,
    constant_value,
    guard_holds,
    guard_names,
)
from asynclint.analysis.index.records import CallSite, FunctionRef, Place
from asynclint.analysis.index.values import Marker, Rooted
from asynclint.knowledge.adapters import BUILTIN_KINDS, PARSED_REWARD_ARGUMENTS, REWARD_ARGUMENTS
from asynclint.knowledge.costs import FEW
from asynclint.knowledge.frameworks import SCORING_HOOKS
from asynclint.knowledge.typenames import VAGUE_ANNOTATIONS

#: At most this many distinct ``given`` tuples per function: a function called with many
#: different constants falls back to one state judged by the constants every caller passes.
MAX_GIVEN = 4
#: At most this many distinct ``given`` tuples per function when they hand it callables: a helper
#: handed a different callable by each of a few callers runs each on its caller's chain.
MAX_HANDED = FEW

#: How a ``given`` text naming the class of the object a chain hands a parameter starts
#: (``"<instance of>openai.AsyncOpenAI"``): its ``isinstance`` tests are settled by the classes.
INSTANCE_OF = "<instance of>"

#: Suffix of a ``HotInfo.given`` key naming what calling a parameter runs on the chain:
#: ``("check()", "pkg.mod.slow_check")`` -- the callable the chain's call handed ``check``.
CALLED = "()"


def _switch(text: str) -> bool:
    """``text`` (a constant's ``repr``) is one a chain carries: a bool, ``None`` or a string -- a
    switch or a mode, not a count every call may pass differently."""
    return text in ("True", "False", "None") or text[:1] in ("'", '"') or text.startswith(_ROW_PREFIX)


#: How a ``given`` text handing over the rollout's row starts (``repr((ROW_ARGUMENT, column))``).
_ROW_PREFIX = f"({ROW_ARGUMENT!r},"


def builtin_instance(kind: str, tested: str) -> bool | None:
    """Is a value of builtin type ``kind`` (``dict``) an instance of ``tested`` (a test's class text,
    ``str`` or ``(str, bytes)``)? True when one of them names it (:data:`BUILTIN_KINDS`), False when
    every one is another builtin type, else None."""
    try:
        node = ast.parse(tested, mode="eval").body
    except SyntaxError:
        return None
    names = [ast.unparse(part) for part in (node.elts if isinstance(node, ast.Tuple) else [node])]
    if any(name in BUILTIN_KINDS.get(kind, {kind}) for name in names):
        return True
    return False if all(name in _BUILTIN_TYPES for name in names) else None


#: Builtin types a value of another builtin type is never an instance of.
_BUILTIN_TYPES = frozenset("str bytes bytearray int float bool list tuple set frozenset dict".split())


def known_constant(text: str) -> bool:
    """``text`` (a ``CallSite.given`` value) is a constant the call writes: not another value
    (``""``), not the rollout's row."""
    return bool(text) and not text.startswith(_ROW_PREFIX)


class GivenArgs(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def runs(self, key: FunctionId, site: CallSite) -> bool:
        """False when ``site`` sits behind a test of a parameter of ``key`` that every call of
        ``key`` in the project leaves at (or sets to) one constant, and that is false with it:
        ``if write_to_log:`` where nothing passes ``write_to_log=True``; or after a test that raises
        unless an attribute is set that nothing sets (:meth:`never_set`)."""
        if site.requires and self.never_set(key, site.requires):
            return False  # past ``if self._pool is None: raise``, with nothing setting ``_pool``
        if not site.guards:
            return True
        env = {**self._installed, **self.fixed_params(key)} if self._installed else self.fixed_params(key)
        if key in self._root_keys:
            env = {**env, **self.parsed_arguments(key)}
        return guard_holds(site.guards, self._with_rows(env, site.guards))

    def parsed_arguments(self, key: FunctionId) -> dict[str, object]:
        """The parameters of root ``key`` that the framework hands a reward already parsed, when every
        parameter it names is one a reward is handed (``async def _score(info, state, **_kw)``): an
        ``isinstance`` test of one is answered by the builtin type it always is
        (:data:`~asynclint.knowledge.adapters.PARSED_REWARD_ARGUMENTS`). A tool's parameter of the
        same name is the model's, and never a reward's alone."""
        named = [param for param in self.function(key).params if param not in ("self", "cls")]
        if not (named and REWARD_ARGUMENTS.issuperset(named)):
            return {}
        return {
            param: InstanceOf(partial(builtin_instance, PARSED_REWARD_ARGUMENTS[param]))
            for param in named
            if param in PARSED_REWARD_ARGUMENTS
        }

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
        refs = calls.get(key)
        if not refs or key in self._root_keys or key in escaped or function.name in unresolved:
            return found
        defaults, sites = dict(function.defaults), tuple(self.call_sites(refs))
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
        return function.params[function.receiver_shift :]

    def state_env(self, key: FunctionId, info: HotInfo) -> dict[str, object]:
        """What ``key``'s parameters hold on the chain of ``info``: the constants every caller
        passes, and those the chain's own call passes."""
        fixed = self.fixed_params(key)
        if not info.given:
            return fixed
        passed = {
            name: self._instance(key, text) if text.startswith(INSTANCE_OF) else self._given_value(text)
            for name, text in info.given
            if not name.endswith(CALLED)
        }
        return {**fixed, **passed}

    def _instance(self, key: FunctionId, text: str) -> InstanceOf:
        """The object an :data:`INSTANCE_OF` text names, its tests read in ``key``'s module."""
        return InstanceOf(partial(self.is_instance, text.removeprefix(INSTANCE_OF), self.summaries[key[0]].module))

    def is_instance(self, cls: str, module: str, tested: str) -> bool | None:
        """Is an object of class ``cls`` an instance of ``tested`` (a test's class text, ``ClientConfig``
        or ``(A, B)``, written in ``module``)? True when one of them is among ``cls``'s ancestors; False
        when every one is a class the summaries define and none is, and no ancestor of ``cls`` the
        summaries cannot read comes from their packages (one that could derive from them); else None."""
        try:
            node = ast.parse(tested, mode="eval").body
        except SyntaxError:
            return None
        parts = node.elts if isinstance(node, ast.Tuple) else [node]
        if not all(isinstance(part, (ast.Name, ast.Attribute)) for part in parts):
            return None
        classes = {self.canonical(self.resolve(f"{module}.{ast.unparse(part)}")) for part in parts}
        ancestors = [self.canonical(name) for name in self.ancestors(cls)]
        if classes.intersection(ancestors):
            return True
        if not classes.issubset(self.classes):
            return None
        packages = {name.partition(".")[0] for name in classes}
        unread = [name for name in ancestors if name not in self.classes and name not in ("object", "builtins.object")]
        return None if any(name.partition(".")[0] in packages for name in unread) else False

    def _passed_class(self, caller: FunctionId, site: CallSite, slot: str) -> str:
        """An :data:`INSTANCE_OF` text for the object ``site`` (in ``caller``) passes in ``slot`` (a
        position or a keyword), when it is one of a class the summaries define or of a library's class
        (``AsyncOpenAI(...)``, a local bound to one, a parameter every caller hands one); else ""."""
        if slot.isdigit():
            value = site.arguments[int(slot)] if int(slot) < len(site.arguments) else ""
        else:
            value = dict(site.keyword_arguments).get(slot, "")
        if not value:
            return ""
        param = Rooted.read(value, Marker.PARAM)
        if param is not None:
            typed = self.param_type(caller, param.path[0]) if len(param.path) == 1 else None
        else:
            typed = self.resolve(value)
        typed = typed.removesuffix("()") if typed else None  # an instance built by its class
        return f"{INSTANCE_OF}{typed}" if typed and self._a_class(typed) else ""

    def _a_class(self, name: str) -> bool:
        """``name`` is a class: one the summaries define, or a library's (a module the summaries do
        not hold, a capitalised last name: ``openai.AsyncOpenAI``); not a builtin's or ``typing``'s
        (``Any``, ``Mapping``: they say nothing of what the object is)."""
        canonical = self.canonical(name)
        if canonical in self.classes:
            return True
        module, _, last = canonical.rpartition(".")
        return (
            bool(module)
            and last[:1].isupper()
            and last.isidentifier()
            and module not in self.modules
            and module.partition(".")[0] not in VAGUE_ANNOTATIONS
        )

    def _given_value(self, text: str) -> object:
        """The value a ``given`` text stands for: a constant, or the rollout's row (or a dict
        column of it) as the keys every row carries there."""
        value = constant_value(text)
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
        for site in self.calls_run_by(key):
            for guard in site.guards:
                names.update(guard_names(guard))
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
        holds: ``shared=self._shared``); bools, ``None`` and strings only; then the callables it
        hands parameters ``callee`` calls (:meth:`_handed`). Capped per callee (:data:`MAX_GIVEN`,
        :data:`MAX_HANDED` when callables are handed)."""
        passed_in = dict(site.given)
        if "*" in passed_in:
            return ()
        tested = self._tested(callee)
        values = self._constants(caller, info, site, callee, tested) if tested else []
        handed = self._handed(caller, info, site, callee)
        given = (*values, *handed)
        if not given:
            return ()
        seen = self._givens.setdefault(callee, set())
        if given not in seen:
            if len(seen) >= (MAX_HANDED if handed else MAX_GIVEN):
                return ()
            seen.add(given)
        return given

    def _constants(
        self, caller: FunctionId, info: HotInfo, site: CallSite, callee: FunctionId, tested: frozenset[str]
    ) -> list[tuple[str, str]]:
        passed_in = dict(site.given)
        function = self.function(callee)
        defaults, forwarded = dict(function.defaults), dict(site.passed_params)
        nullable = (site.rare or NO_FACTS).nullable
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
                text = text or self._passed_class(caller, site, slot)
            elif slot in nullable:
                continue  # a name bound to ``None`` on some path: whether it is, the call does not settle
            else:
                text = self._passed_class(caller, site, slot) or PASSED_OBJECT
            if text == PASSED_OBJECT or _switch(text) or text.startswith(INSTANCE_OF):
                values.append((name, text))
        return values

    # -- callables handed to a parameter the callee calls ---------------------------------------

    def _handed(self, caller: FunctionId, info: HotInfo, site: CallSite, callee: FunctionId) -> Given:
        """What ``site`` hands the parameters of ``callee`` that ``callee`` calls (or passes on to
        a call of them): a project function or method written as the argument
        (``_apply(slow_check, text)``), or the caller's own parameter holding one on this chain
        (``_apply(check, text)`` in a relay). As ``("check()", "pkg.mod.slow_check")``."""
        called = self._called_params(callee)
        if not called:
            return ()
        slots = self._slots(callee)
        found: dict[str, str] = {}
        for ref in self._refs_at(caller, site.line):
            param = slots.get(ref.slot)
            if param not in called or not _hands_to(ref, site):
                continue
            target = ref.target or (self.resolve_self_ref(ref.self_ref) if ref.self_ref else None)
            if target:
                found[param] = target
        chain = dict(info.given)
        for slot, own in site.passed_params:
            param = slots.get(slot)
            if param in called and f"{own}{CALLED}" in chain:
                found.setdefault(param, chain[f"{own}{CALLED}"])
        return tuple((f"{name}{CALLED}", found[name]) for name in self._own_params(callee) if name in found)

    def _called_params(self, key: FunctionId) -> frozenset[str]:
        """Parameters of ``key`` that it calls (``check(text)``) or passes on as they are to a
        function that calls them."""
        found = self._called_names.get(key)
        if found is not None:
            return found
        self._called_names[key] = frozenset()  # recursion ends at a function being asked about
        params = set(self._own_params(key))
        names = {site.param[0] for site in self.calls_run_by(key) if site.param is not None and len(site.param) == 1}
        for callee, site in self._edges_of(key) if params else ():
            if site.passed_params and (wanted := self._called_params(callee)):
                slots = self._slots(callee)
                names.update(param for slot, param in site.passed_params if slots.get(slot) in wanted)
        found = self._called_names[key] = frozenset(names & params)
        return found

    def _refs_at(self, caller: FunctionId, line: int) -> tuple[FunctionRef, ...]:
        """Callables handed to calls on ``line`` of function ``caller``. Indexed per module when
        first asked about (few modules hold a call that hands a callable to a hot function
        calling it): a table of every module's, a pair of pairs and a list per line, was the
        graph's largest of its own on a large project."""
        position, index = caller
        found = self._handed_refs.get(position)
        if found is None:
            found = self._handed_refs[position] = {}
            for ref in self.summaries[position].refs:
                if ref.passed_to is not None or ref.passed_to_method is not None:
                    key = ref.caller << 32 | ref.line  # no file has 2**32 lines
                    found[key] = (*found.get(key, ()), ref)
        return found.get(index << 32 | line, ())

    def handed_fields(self, key: FunctionId, info: HotInfo) -> frozenset[str]:
        """The parameters of ``key`` that the calls of ``info``'s chain hand a field of a record
        (``CallSite.fields``: ``pairs(info["board"])``, ``legal_pours(puzzle.true_board)``): one task's
        data, sized by the dataset. The last call hands it, or passes on a parameter of its caller
        (``CallSite.passed_params``: as it is, or in the same size) that the chain's calls before it
        handed one: ``reward(info) -> count(info["grid"]) -> pairs(grid)``. Empty for a root, which the
        framework hands its values."""
        if info.parent is None:
            return frozenset()
        caller, slots = info.parent.function, self._slots(key)
        sites = [site for at, site in self.hot_callers(key) if at == caller and site.line == info.call_line]
        above: frozenset[str] | None = None  # the caller's own, asked only when a call passes one on
        handed = []
        for site in sites:
            fields = {slots[slot] for slot in site.fields if slot in slots}
            passed = [(slots[slot], param) for slot, param in site.passed_params if slot in slots]
            if any(name not in fields for name, _ in passed):
                above = self.handed_fields(caller, self.states[info.parent]) if above is None else above
                fields.update(name for name, param in passed if param in above)
            handed.append(frozenset(fields))
        return frozenset.intersection(*handed) if handed else frozenset()

    def handed_edges(self, key: FunctionId, info: HotInfo) -> list[tuple[FunctionId, CallSite]]:
        """The calls of ``key``'s parameters that run, on the chain of ``info``, the callables
        that chain handed them (:meth:`_handed`): ``check(text)`` in ``_apply`` runs
        ``slow_check`` on the chain whose call handed it, and only there."""
        handed = {name.removesuffix(CALLED): text for name, text in info.given if name.endswith(CALLED)}
        if not handed:
            return []
        found = []
        for site in self.calls_run_by(key):
            if site.param is None or len(site.param) != 1 or site.param[0] not in handed or not self.runs(key, site):
                continue
            for callee in self.functions_denoted(handed[site.param[0]]):
                if callee != key and (self.function(callee).is_async or not site.awaited):
                    found.append((callee, site))
        return found

    def hot_at(self, key: FunctionId, site: Place) -> HotInfo | None:
        """How ``site`` (a call, or a loop: any place the index records the tests around) in hot
        function ``key`` runs: the most frequent chain to ``key`` under which its guards may hold
        (on every call before on first or failing ones, then more than once per rollout before
        once). ``None`` when no chain takes it."""
        best = self.hot.get(key)
        if best is None:
            return None
        candidates = [best, *self._hot_states.get(key, ())]
        taking = [
            self.grouped(key, site, info)
            for info in candidates
            if not site.guards or guard_holds(site.guards, self._with_rows(self.state_env(key, info), site.guards))
            if not self.filled_before(site, info)
        ]
        return min(taking, key=lambda info: (info.rare, not info.raised), default=None)

    def filled_before(self, site: Place, info: HotInfo) -> bool:
        """Does ``site`` never run on ``info``'s chain: it comes after a test finding a key of the
        rollout's state filled (``CallSite.state_ready``) that a hook run before the rollout is scored
        stores, and the chain is the scoring's (``knowledge.frameworks.FILLED_BEFORE_SCORING``)?"""
        return isinstance(site, CallSite) and site.state_ready in self._filled_keys and info.root_hook in SCORING_HOOKS


def _hands_to(ref: FunctionRef, site: CallSite) -> bool:
    """``ref`` is an argument of the call ``site`` (another call on the same line names another callee)."""
    if ref.passed_to is not None:
        return ref.passed_to == site.target
    return ref.passed_to_method == site.method
