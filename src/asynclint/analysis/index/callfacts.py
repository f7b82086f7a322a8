"""The facts of a call site that few calls have (:class:`CallFacts`), kept apart from
:class:`~asynclint.analysis.index.records.CallSite`'s own slots, and only those that are set."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from asynclint.analysis.index.values import Rooted


@dataclass(frozen=True, init=False, eq=False)
class CallFacts:
    """The facts of a call site that few calls have (one in three, all of them together): kept
    apart, so that each of the others carries one empty slot for them instead of forty-four (a
    large project has hundreds of thousands of call sites). Read through ``CallSite``.

    A record of the facts set, not of every field: which fields differ from their defaults (a
    bit each, in field order) and their values (the value itself when it is one, most records'
    case; a tuple in field order when more). A record of every field was 384 bytes, as large
    as its call site, though most set one or two; this is 48 and, for more, a tuple. Each field
    reads as a property (installed below) and everything else about it is a frozen
    dataclass's: ``fields``, ``replace``, the cache's encoding and a construction by position
    or keyword, equality and hash by value."""

    __slots__ = ("_mask", "_values")

    #: Decoded as one object per distinct value (``asynclint.cache``): plain values nothing tells
    #: apart by identity, carried by a third of a project's call sites, two in three of them
    #: equal to another's (a read, a keyword name, a parameter passed on).
    SHARED: ClassVar[bool] = True

    kept: bool = False  # stored on ``self`` or in a global under a condition: built lazily, once
    kwargs: tuple[tuple[str, str], ...] = ()  # constant keyword arguments, repr'd
    #: The payload is (every item of) a parameter of the enclosing function still holding what
    #: the caller passed: its name says what it is only if the callers' values say so too.
    payload_param: bool = False
    #: Arguments that are the caller's own parameters passed on as they are: (slot, parameter),
    #: slot a position ("0") or a keyword; traces a framework's value into the helpers it reaches.
    passed_params: tuple[tuple[str, str], ...] = ()
    #: The coroutine consumer this call is an argument of (``asyncio.gather``, ``.create_task``):
    #: see :func:`asynclint.knowledge.asyncio_apis.consumer_name`.
    consumer: str | None = None
    #: For a coroutine handed to a consumer that names the loop to run it on
    #: (``run_coroutine_threadsafe(coro, loop)``): that loop, as ``CallSite.arguments`` records
    #: a value (a type, ``pkg.Env()._loop``, a :class:`Rooted` path); "" when not known.
    loop: str | Rooted = ""
    #: Not a call: a read of ``self.<attr>``, which runs a getter when the attribute is a property.
    read: bool = False
    #: Not a call: a read of a library object's attribute that the knowledge base lists as a
    #: property whose getter blocks (``driver.title``; its name is ``method``). Typed like a call's
    #: receiver: ``target`` when known here, else ``self_ref`` or ``param`` (whose last element
    #: is the attribute), and matched with :meth:`Catalogue.match_read`.
    property_read: bool = False
    #: Inside a lazy initialisation (``if self._index is None: ...``): runs on the first call only.
    once: bool = False
    #: Inside ``if not state.get("initialized"): ... state["initialized"] = True``: once per rollout,
    #: on its first turn, however often the hook around it runs.
    first_turn: bool = False
    #: Runs only on the way to raising: inside a ``raise`` statement (``raise diagnose(exc) from
    #: exc``) or an ``except`` handler whose last statement raises -- once per failing call; or
    #: after an attempt failed (a handler of timeouts only, ``except subprocess.TimeoutExpired:``, or
    #: of failures only after an attempt that parses nothing: ``except Exception:`` around a spawn).
    failing: bool = False
    #: Runs only when an attempt before it raised: in an ``except`` handler, or after a ``try``
    #: whose body returns (``try: return parse(a) except E: pass`` then ``return parse(b)``).
    fallback: bool = False
    #: Made on an object built by a call that handed it objects: those hand-overs (see Inst.handed).
    handed: tuple[int, ...] = ()
    #: The names of the keyword arguments written (``**spread`` ones are not known); an argument
    #: given a literal ``False`` or ``0`` also as ``slot=False``/``slot=0``, the slot its keyword or
    #: position (``BlockingApi.off_with``, callshapes.switch_literals); an argument given a named
    #: constant also as ``slot=NAME`` (``BlockingApi.heavier_with``, callshapes.constant_arguments).
    keywords: tuple[str, ...] = ()
    #: The type of the first positional argument, for a method whose entry asks (``blocks_on``).
    argument: str = ""
    #: Made on an untyped parameter of the enclosing function: (the parameter, the attributes read
    #: on it up to the method), for the project graph to type from what a framework passes there.
    param: tuple[str, ...] | None = None
    #: (name, value) per keyword argument, as ``CallSite.arguments`` records them.
    keyword_arguments: tuple[tuple[str, str | Rooted], ...] = ()
    #: Tests of the enclosing ``if``s that read the function's flags (parameters with a constant
    #: default), as source, each one that must hold for the call to run (``not (...)`` in an
    #: ``else``): the project graph evaluates them with the constants every caller passes (see
    #: :func:`asynclint.analysis.index.flags.guard_holds`).
    guards: tuple[str, ...] = ()
    #: The SQL a DB-API ``execute`` runs, or a ``fetch*`` reads the rows of (the one last run in
    #: the function), or the script an ``execute_script`` runs in a page, when the code says it:
    #: see :func:`asynclint.analysis.index.sql.statement_text`.
    statement: str | None = None
    #: A call of a value that is any one of these named callables (``CHECKS[name](text)``, ``fn =
    #: BACKENDS.get(kind); fn()``): the graph runs each of them, as a call graph over-approximates.
    dispatch: tuple[str, ...] = ()
    #: Behind a test that holds once the rollout has ended (``if state["terminated"]:``, see
    #: :func:`asynclint.analysis.index.guards.terminal_guard`): once per rollout, on its last turn.
    last_turn: bool = False
    #: Unpacks a mapping into keyword arguments (``Model(**data)``): it hands over whatever the
    #: mapping holds, not values the call names one by one.
    spread: bool = False
    #: Arguments that are another argument plus a count (``f(start, start + days)``, also through a
    #: name bound so): (its slot, the other's slot, the count as WorkLoop.trips factors); the
    #: callee's ``range(start, end)`` over those parameters runs that many times.
    spans: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: The context expression of a ``with`` item (``with tempfile.TemporaryDirectory() as d:``): its
    #: ``__exit__`` runs when the block ends, so what the object undoes at exit is charged here.
    entered: bool = False
    #: The attributes read through ``self`` to the callee (``judge_client``, ``chat``, ...), kept
    #: when this module settles the call and the first is where a hand-over slot's object is kept:
    #: which object a framework hook of a library class calls (CheckContext.framework_runs).
    self_path: tuple[str, ...] = ()
    #: A read of a pipe that a ``select`` earlier in the function waited for
    #: (``knowledge.blocking.READY_READS``): it takes what is already there.
    ready: bool = False
    #: A directory walk that descends into a tree the code roots in an installed one:
    #: ``values.INSTALLED_PREFIX`` for site-packages or the interpreter's prefix
    #: (``knowledge.blocking.INSTALLED_ROOTS``), else the module whose ``__file__``/``__path__`` it
    #: starts from -- installed unless the project's own.
    installed: str = ""
    #: Arguments holding one item per item of a parameter of the caller (the parameter itself, a
    #: comprehension over it, a list appended to once per pass of a loop over it): (slot, the
    #: parameter). A group reward's lists followed into the helpers that loop over the group.
    itemwise: tuple[tuple[str, str], ...] = ()
    #: Not written as a call: a callable handed to an applier that calls it once per item
    #: (``map(requests.get, urls)``, see ``asyncio_apis.INLINE_APPLIERS``): the applier's name.
    applier: str = ""
    #: The payload is a mapping the function unpacks into this class's construction (``Model(**data)``):
    #: it holds that class's fields, and the graph sizes it by them (``model_payload``).
    unpacked: str = ""
    #: The attribute of ``self`` that the first ``if self.<attr> is None: raise ...`` (or ``if not
    #: self.<attr>: raise ...``, no ``else``) written before it among its function's own statements
    #: (not in a block: a handler may catch the raise) tests: it runs only once something set that
    #: attribute, and the graph drops it where nothing does (ProjectGraph.never_set, from
    #: ClassInfo.set_later).
    requires: str = ""
    #: After a ready-return finding a key of the rollout's state filled (``if isinstance(state.get("ctx"),
    #: Ctx): return state["ctx"]``, :mod:`asynclint.analysis.index.stateready`): that key. It runs only
    #: while the state lacks the key: never, on a chain where a hook run earlier stores it.
    state_ready: str = ""
    #: Inside a cache keyed by a value read from the rollout's state (``tid = state["info"]["task_id"]``
    #: then ``if tid not in _SANDBOXES:``), how often it misses: ``example`` (keyed by the example's row:
    #: on the first rollout of each group) or ``rollout`` (keyed by what the rollout made) -- however
    #: often the hook around it runs (:func:`~asynclint.knowledge.frameworks.keyed_frequency`).
    keyed: str = ""
    #: Every lazy initialisation around it fills an attribute of ``self``: once per instance.
    instance_once: bool = False
    #: Every lazy fill around it is a cache keyed by these parameters of its function (``if sid not in
    #: _SANDBOXES:`` in ``_sandbox_dir(sid)``): the graph reads what the callers hand them, and a
    #: value of the rollout's makes the fill run per rollout (``Warming.keyed_frequency``).
    memo_key: tuple[str, ...] = ()
    #: The lazy initialisation around it is a cache on disk's miss path (analysis.index.diskcache):
    #: it runs when a reader finds no file for the key, once per key per machine.
    cache_miss: bool = False
    #: Reads or writes a file object opened in the same function (``json.load(f)`` in ``with open(p)
    #: as f:``): the (line, column) of its opener, whose finding carries this call's cost.
    opened_at: tuple[int, int] | None = None
    #: An opener's content calls on its file object in the function: (line, column, the callee as
    #: written: ``f.read``, ``json.load``) each.
    contents: tuple[tuple[int, int, str], ...] = ()
    #: An opener whose file object the function only hands to a child process as its stdin, stdout
    #: or stderr (``CHILD_STREAMS``), with no content calls of its own: the opening is metadata.
    streamed: bool = False
    #: Awaited where it is written (``await client.get(...)``): one call in seventy.
    awaited: bool = False
    #: The pattern of the knowledge entry the call matched where it is written: one in fifty.
    api: str | None = None
    #: Lambdas the call is written in that may also run on their own (handed to a call, so
    #: possibly registered with a framework): (function index, inside a loop of the lambda's own?).
    lambdas: tuple[tuple[int, bool], ...] = ()
    #: Arguments that are a field of a record (``info["board"]``, ``puzzle.true_board``,
    #: ``state["board"]``; :func:`asynclint.knowledge.costs.record_field`), not the rollout's history
    #: nor a whole value: their slots. A nest over such a parameter is sized by one task's data.
    fields: tuple[str, ...] = ()
    #: Not written as a call: a read in the function of the lazy stream this method returned
    #: (``for chunk in bits`` after ``bits, _ = await loop.run_in_executor(None, lambda:
    #: c.get_archive(p))``, ``r.iter_content()`` after ``r = await asyncio.to_thread(requests.get,
    #: url, stream=True)``; see :mod:`asynclint.analysis.index.streams`): the method's name.
    stream: str = ""
    #: With ``stream``: the (line, column) of the offloaded call that opened the stream.
    stream_from: tuple[int, int] | None = None
    #: Arguments of a project call that may be a whole payload where the call is written (not a
    #: parameter as it is: ``passed_params`` traces those): (slot, shape, word, local) of each payload
    #: whole by what the function's names hold, or a project function's result or a key of the
    #: rollout's state, which the graph sizes; ``local``: the name a project function's result was
    #: bound to, which says its size where the returns do not (``_count_tokens(full_history)``, see
    #: PayloadsHeld.named_results), else "". A helper's parameter is then as large as the largest of
    #: them (CheckContext.handed_whole). Read as ``(site.rare or NO_FACTS).large_args``.
    large_args: tuple[tuple[str, str, str, str], ...] = ()
    #: The payload is one slot of a parameter, written with a constant index (``state[1]``): the
    #: parameter and the index. A caller handing the parameter what a project function returns as a
    #: tuple sizes that slot by the element the ``return`` puts there (CheckContext.handed_whole).
    item_of: tuple[str, ...] = ()
    #: Arguments of a project call that are a part of a parameter of the function the call is written in
    #: (a field, an item, a slice, a loop's item of it: ``deep_merge(result[key], value)`` for each
    #: ``value`` of ``override``): (slot, that parameter) each. What the callee is handed there is no
    #: larger than what the caller's callers hand the parameter (CheckContext._passed).
    part_params: tuple[tuple[str, str], ...] = ()
    #: Slots of ``small_args`` small by a name alone (``self.config``, ``value``): the author's word for one
    #: small item. A parameter the callee walks whole by recursion is not one (CheckContext._passed).
    named_small: tuple[str, ...] = ()
    #: Slots of arguments that are a local name the function also binds to ``None``
    #: (``extending_node = None`` in one branch, a lookup's result in the other): what the call
    #: passes there may be ``None``, so a test of it in the callee is not settled by the call.
    nullable: tuple[str, ...] = ()
    #: Arguments of a call written in a closure that are a parameter of an enclosing function, never
    #: bound again (``_sandbox_dir(sid)`` in a tool that ``_make_tools(sid)`` defines): (slot, that
    #: parameter) each. The graph reads what the enclosing function's callers hand it
    #: (``Warming.keyed_frequency``).
    outer_params: tuple[tuple[str, str], ...] = ()
    #: Inside a loop of its function: one call in twelve.
    in_loop: bool = False
    #: The line of the binding in the enclosing function whose value the payload is
    #: (``text = reply.content`` before ``json.loads(text)``); 0 when the call's own text says:
    #: set on one call in ten.
    payload_at: int = 0
    #: What the call's arguments hand it (see ``HandedValues.note_arguments``): where the call is a
    #: library's, it may call any method of these by its name (``bus.add_handler(Handler())``).
    handed_out: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(_FIELDS):
            raise TypeError(f"CallFacts takes at most {len(_FIELDS)} positional arguments ({len(args)} given)")
        given: list[tuple[int, object]] = []
        for (bit, default), value in zip(_DEFAULTS, args, strict=False):  # the rest at their defaults
            if value != default:
                given.append((bit, value))
        for name, value in kwargs.items():
            field = _BY_NAME.get(name)
            if field is None or field[2] < len(args):
                raise TypeError(f"CallFacts got an unexpected or repeated keyword argument {name!r}")
            if value != field[1]:
                given.append((field[0], value))
        if len(given) > 1:
            given.sort(key=_bit)
        mask, values = _packed(given)
        object.__setattr__(self, "_mask", mask)
        object.__setattr__(self, "_values", values)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not CallFacts:
            return NotImplemented
        return self._mask == other._mask and self._values == other._values  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self._mask, self._values))  # type: ignore[attr-defined]

    def __reduce__(self) -> tuple[object, ...]:
        return (_restored, (self._mask, self._values))  # type: ignore[attr-defined]


def _bit(given: tuple[int, object]) -> int:
    return given[0]


def changed(facts: CallFacts | None, changes: dict[str, Any]) -> CallFacts | None:
    """``replace(facts or NO_FACTS, **changes)``, ``None`` for no fact set: from the facts set and the
    changes alone (``replace`` reads and hands over every field, forty-odd, for each change)."""
    given: dict[int, object] = {}
    if facts is not None:
        mask, values = facts._mask, facts._values  # type: ignore[attr-defined]
        bits = [bit for bit, _ in _DEFAULTS if mask & bit]
        given.update(zip(bits, [values] if len(bits) == 1 else values, strict=True))
    for name, value in changes.items():
        field = _BY_NAME.get(name)
        if field is None:
            raise TypeError(f"CallFacts got an unexpected keyword argument {name!r}")
        if value != field[1]:
            given[field[0]] = value
        else:
            given.pop(field[0], None)
    return _restored(*_packed(sorted(given.items()))) if given else None


def _packed(given: list[tuple[int, object]]) -> tuple[int, object]:
    """The mask and values of the facts ``given`` as (bit, value), sorted by bit: the one value
    itself where one fact is set, else their tuple in bit order."""
    mask = 0
    for bit, _ in given:
        mask |= bit
    # The masks of a project's facts are a few hundred distinct ints: one object each.
    return _MASKS.setdefault(mask, mask), given[0][1] if len(given) == 1 else tuple(value for _, value in given)


def _restored(mask: int, values: object) -> CallFacts:
    facts = object.__new__(CallFacts)
    object.__setattr__(facts, "_mask", mask)
    object.__setattr__(facts, "_values", values)
    return facts


def _reader(bit: int, default: object) -> property:
    below = bit - 1

    def read(self: CallFacts) -> object:
        mask = self._mask  # type: ignore[attr-defined]
        if not mask & bit:
            return default
        if not mask & (mask - 1):  # the one fact set: the value itself
            return self._values  # type: ignore[attr-defined]
        return self._values[(mask & below).bit_count()]  # type: ignore[attr-defined]

    return property(read)


def rare_fact(name: str) -> property:
    """A reader of fact ``name`` on a record keeping its rare facts in a slot ``rare`` (a
    :class:`CallFacts`, or ``None`` when every one is at its default: ``CallSite``): the field's
    own reader with the step to the facts inside it, one call where ``(site.rare or
    NO_FACTS).name`` made two (the graph's passes read a call's facts tens of millions of times
    in a recheck of a large project)."""
    bit, default, _ = _BY_NAME[name]
    below = bit - 1

    def read(self: Any) -> object:
        rare = self.rare
        if rare is None:
            return default
        mask = rare._mask
        if not mask & bit:
            return default
        if not mask & (mask - 1):
            return rare._values
        return rare._values[(mask & below).bit_count()]

    return property(read)


_FIELDS = fields(CallFacts)
_MASKS: dict[int, int] = {}
#: (bit, default) per field, in field order, and by name (bit, default, position).
_DEFAULTS: list[tuple[int, object]] = []
_BY_NAME: dict[str, tuple[int, object, int]] = {}
for _position, _field in enumerate(_FIELDS):
    if _field.default is MISSING:
        raise TypeError(f"CallFacts.{_field.name}: every rare fact has a default")
    _DEFAULTS.append((1 << _position, _field.default))
    _BY_NAME[_field.name] = (1 << _position, _field.default, _position)
    setattr(CallFacts, _field.name, _reader(1 << _position, _field.default))

NO_FACTS = CallFacts()
