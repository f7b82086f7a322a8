"""The records of a :class:`ModuleSummary`: plain data (cached as JSON, see ``asynclint.cache``),
read by the project graph, the rules and the fixers."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Protocol

from asynclint.analysis.index.callfacts import NO_FACTS, CallFacts, changed, rare_fact
from asynclint.analysis.index.handed import FunctionRef, Handoff
from asynclint.analysis.index.loops import LoopNest, WorkLoop
from asynclint.analysis.index.row_records import RowShape
from asynclint.analysis.index.values import Rooted, SelfPath

#: The kind of a field annotated with a class alone (``meta: WorldMeta``): this prefix + the class.
FIELD_CLASS = "class:"
#: The kind of a field annotated with a container of scalars (``timing: dict[str, float]``).
FIELD_SCALARS = "scalars"
#: Bits of :attr:`CallSite.span` per column (a 4 GB line is no source file).
_COLUMN_BITS = 32
_COLUMN = (1 << _COLUMN_BITS) - 1
#: What :attr:`CallSite.origin` may be (``Inst.origin``'s words, or none), by the code
#: :attr:`CallSite.span`'s low :data:`_ORIGIN_BITS` hold.
_ORIGINS: tuple[str | None, ...] = (None, "local", "param", "module", "self", "expr")
_ORIGIN_CODES = {origin: code for code, origin in enumerate(_ORIGINS)}
_ORIGIN_BITS = 3


@dataclass(frozen=True, slots=True)
class Function:
    qualname: str  # module-relative, Python's __qualname__ style; "<module>" for top level
    name: str
    line: int
    is_async: bool
    kind: str  # module | function | lambda
    class_qualname: str | None = None  # module-relative qualname of the class of a method
    decorators: tuple[str, ...] = ()
    col: int = 1  # 1-based column of ``def`` / ``async def``
    params: tuple[str, ...] = ()  # positional then keyword-only parameter names, ``self`` included
    #: Parameters whose default is a constant: (name, ``repr`` of the default).
    defaults: tuple[tuple[str, str], ...] = ()
    #: Annotated to return a list (``-> list[float]``, ``-> List[float]``) as Python evaluates it at
    #: the definition: not quoted, not under ``from __future__ import annotations`` (verifiers'
    #: ``Rubric._is_group_func`` reads the evaluated annotation).
    returns_list: bool = False
    #: Parameters annotated with a union of several classes (``judge: LocalJudge | OpenAI``), which
    #: the walk leaves untyped for the callers to settle: (name, the classes' instances).
    param_unions: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def enclosing_class(self) -> str | None:
        """The module-relative qualname of the class this function is a method of, or is made
        inside a method of (a closure ``C.m.<locals>.wrapper``: ``C``); ``None`` for a module-level
        function and what it defines."""
        if self.class_qualname is not None:
            return self.class_qualname
        return self.qualname.partition(".<locals>.")[0].rpartition(".")[0] or None

    @property
    def nested(self) -> bool:
        """Defined inside a function's body: a new function object per call of that function."""
        return ".<locals>." in self.qualname

    @property
    def receiver_shift(self) -> int:
        """1 for a method called through an instance or as a class (the first parameter, ``self`` or
        ``cls``, is the receiver, not an argument written at the call); 0 for a function or a
        static method."""
        return int(self.class_qualname is not None and "builtins.staticmethod" not in self.decorators)

    def argument_position(self, name: str) -> int:
        """Where a call's positional arguments pass parameter ``name`` (one of :attr:`params`)."""
        return self.params.index(name) - self.receiver_shift

    def slots(self, name: str) -> tuple[str, str]:
        """The slots a call of this function may pass parameter ``name`` in, as call facts key them:
        its keyword and its position."""
        return name, str(self.argument_position(name))

    def argument_slot(self, site: CallSite, name: str) -> str:
        """The slot ``site``, a call of this function, passes parameter ``name`` in: the keyword
        where it is written so, else its position."""
        return name if name in dict(site.keyword_arguments) else str(self.argument_position(name))

    def argument(self, site: CallSite, name: str) -> str | Rooted:
        """What ``site``, a call of this function, passes parameter ``name``: its keyword argument,
        else its positional one ("" where neither is known)."""
        position = self.argument_position(name)
        keyword = dict(site.keyword_arguments).get(name)
        return keyword or (site.arguments[position] if 0 <= position < len(site.arguments) else "")


@dataclass(frozen=True, slots=True)
class ClassInfo:
    qualname: str
    line: int
    bases: tuple[str, ...]  # resolved dotted names
    methods: tuple[str, ...]
    #: Attributes set in its methods -> dotted type name, "" where nothing types the value, or a
    #: path from the instance (``self.pages = self.db.collection()``) or from a constructor's
    #: parameter (``self._query_fn = query_fn``).
    attrs: tuple[tuple[str, str | Rooted], ...]
    properties: tuple[str, ...] = ()  # methods read as attributes (``@property``, ``@cached_property``)
    #: Resolved names of the type arguments of its generic bases: ``Toolset[SharedToolsetConfig]``.
    type_args: tuple[str, ...] = ()
    #: A base the index could not name (``sdk.Container`` with ``sdk`` bound by a call): it may be a
    #: library's class, whose code may call any method of this one.
    unnamed_bases: bool = False
    #: Annotated class-level fields (a dataclass's, a pydantic model's): (name, ``scalar``,
    #: :data:`FIELD_SCALARS`, ``container``, or :data:`FIELD_CLASS` + the class a field is annotated
    #: with alone), which say how much a dump or a copy of an instance costs.
    fields: tuple[tuple[str, str], ...] = ()
    #: Attributes every method leaves alone but ``__init__``, which sets them from one of its
    #: parameters never bound again (``self.log = log``): (attribute, parameter). A test of one is
    #: settled by the parameter's constant default unless a project call passes another; one
    #: without a default, by the default of the parameter every construction passes on.
    flag_attrs: tuple[tuple[str, str], ...] = ()
    #: A dataclass writing no ``__init__``: its fields whose constant default switches a feature off
    #: and that no method sets, as flag parameters of the ``__init__`` the decorator writes: (field,
    #: ``repr`` of the default, position among those parameters or -1 when not known).
    field_flags: tuple[tuple[str, str, int], ...] = ()
    #: Attributes set in its methods from one constructor or factory call (``self.client =
    #: OpenAI()``) -> (line, column) of that call, for a hand-over of ``self.client``.
    built: tuple[tuple[str, int, int], ...] = ()
    #: Attributes ``__init__`` sets to a constant that switches something off (``None``, ``False``,
    #: 0, ``""``) -> that constant's ``repr`` and the other methods that set them to something else
    #: (``self._pool = Pool(n)`` in ``__enter__``): until one of those runs, the attribute keeps it.
    set_later: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: Attributes holding an instance of one of several classes (``self.client = requests.Session()
    #: if pooled else httpx.Client()``, or an ``if``'s branches): (attribute, the classes' instances).
    unions: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Attributes annotated as a generic container (``self._idle: asyncio.Queue[Baker]``) -> the
    #: calls giving one of its items (``get``, ``get_nowait``), the item being the per-item attribute:
    #: a subclass in another module reads them (``Resolution.resolve_self``).
    generics: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class CallSite:
    """A call (or a read that may run code) written in a function of the module. Make one with
    :meth:`of`, which keeps the rare facts apart (:class:`CallFacts`); read them as attributes."""

    caller: int  # index into ModuleSummary.functions
    target: str | None  # resolved dotted name of what is called
    method: str | None  # last attribute name, for receivers of unknown type
    line: int
    #: The rest of the call's extent in one number, and where its receiver came from: its lines
    #: after ``line``, then ``end_col``, then ``col`` (:data:`_COLUMN_BITS` each), then the
    #: receiver's origin (:data:`_ORIGIN_BITS`); read as :attr:`col`, :attr:`end_line`,
    #: :attr:`end_col` and :attr:`origin`. One slot for four: a site of 13 slots took 144 bytes
    #: (the allocator's 16-byte steps), of 12, 128 -- 11 % of every call site of a project (and a
    #: decoded cache shares each equal number: a few thousand over a large project's calls).
    span: int
    self_ref: SelfPath | None = None  # left for project-wide resolution
    literals: tuple[str | None, ...] = ()  # per positional argument: see _literal
    #: (shape, word) of the payload a serializer or copier is given:
    #: see :func:`asynclint.analysis.index.argfacts.payload_of`.
    payload: tuple[str, str] = ("", "")
    #: Arguments proven one small item where the call is written (``helper(call.arguments)``,
    #: ``helper(text)`` after ``text = reply.content``): their slots.
    small_args: tuple[str, ...] = ()
    #: What a call of a function the knowledge base does not know is handed, for typing that
    #: function's untyped parameters: per positional argument, and (name, value) per keyword
    #: argument: a type, a :class:`Rooted` path (see ``Recording._argument``), or "" when unknown.
    #: Empty when nothing is known.
    arguments: tuple[str | Rooted, ...] = ()
    #: What a call of a project function passes: (slot, ``repr`` of a constant or ``""``), slot
    #: the position or the keyword; ``("*", "")`` for a ``*args``/``**kwargs`` spread.
    given: tuple[tuple[str, str], ...] = ()
    #: The rare facts, ``None`` when every one is at its default (see :class:`CallFacts`).
    rare: CallFacts | None = None

    @classmethod
    def of(
        cls,
        caller: int,
        target: str | None,
        method: str | None,
        line: int,
        col: int,
        end_line: int,
        end_col: int,
        *,
        awaited: bool = False,
        in_loop: bool = False,
        self_ref: SelfPath | None = None,
        api: str | None = None,
        origin: str | None = None,
        literals: tuple[str | None, ...] = (),
        payload: tuple[str, str] = ("", ""),
        payload_at: int = 0,
        small_args: tuple[str, ...] = (),
        arguments: tuple[str | Rooted, ...] = (),
        given: tuple[tuple[str, str], ...] = (),
        lambdas: tuple[tuple[int, bool], ...] = (),
        kept: bool = False,
        kwargs: tuple[tuple[str, str], ...] = (),
        payload_param: bool = False,
        passed_params: tuple[tuple[str, str], ...] = (),
        consumer: str | None = None,
        loop: str | Rooted = "",
        read: bool = False,
        property_read: bool = False,
        once: bool = False,
        first_turn: bool = False,
        failing: bool = False,
        fallback: bool = False,
        handed: tuple[int, ...] = (),
        keywords: tuple[str, ...] = (),
        argument: str = "",
        param: tuple[str, ...] | None = None,
        keyword_arguments: tuple[tuple[str, str | Rooted], ...] = (),
        guards: tuple[str, ...] = (),
        statement: str | None = None,
        dispatch: tuple[str, ...] = (),
        last_turn: bool = False,
        spread: bool = False,
        entered: bool = False,
        instance_once: bool = False,
        memo_key: tuple[str, ...] = (),
        cache_miss: bool = False,
        fields: tuple[str, ...] = (),
        state_ready: str = "",
        keyed: str = "",
    ) -> CallSite:
        rare = CallFacts(
            kept,
            kwargs,
            payload_param,
            passed_params,
            consumer,
            loop,
            read,
            property_read,
            once,
            first_turn,
            failing,
            fallback,
            handed,
            keywords,
            argument,
            param,
            keyword_arguments,
            guards,
            statement,
            dispatch,
            last_turn,
            spread,
            entered=entered,
            instance_once=instance_once,
            memo_key=memo_key,
            cache_miss=cache_miss,
            state_ready=state_ready,
            keyed=keyed,
            awaited=awaited,
            api=api,
            lambdas=lambdas,
            fields=fields,
            in_loop=in_loop,
            payload_at=payload_at,
        )
        return cls(
            caller,
            target,
            method,
            line,
            ((end_line - line) << 2 * _COLUMN_BITS | end_col << _COLUMN_BITS | col) << _ORIGIN_BITS
            | _ORIGIN_CODES[origin],
            self_ref,
            literals,
            payload,
            small_args,
            arguments,
            given,
            None if rare == NO_FACTS else rare,
        )

    @property
    def col(self) -> int:
        """1-based, in characters."""
        return self.span >> _ORIGIN_BITS & _COLUMN

    @property
    def end_line(self) -> int:
        return self.line + (self.span >> 2 * _COLUMN_BITS + _ORIGIN_BITS)

    @property
    def end_col(self) -> int:
        return self.span >> _COLUMN_BITS + _ORIGIN_BITS & _COLUMN

    @property
    def origin(self) -> str | None:
        """Where the receiver came from: ``Inst.origin``'s word (local, param, module, self, expr)."""
        return _ORIGINS[self.span & (1 << _ORIGIN_BITS) - 1]

    def span_with(self, origin: str | None) -> int:
        """:attr:`span` with the receiver's origin ``origin`` (for ``replace``: no field holds it alone)."""
        return self.span >> _ORIGIN_BITS << _ORIGIN_BITS | _ORIGIN_CODES[origin]

    def with_facts(self, **changes: Any) -> CallSite:
        """This call with the rare facts ``changes`` names set (``in_loop=False``)."""
        return replace(self, rare=changed(self.rare, changes))

    # The rare facts, read as attributes: each a reader that looks in ``rare`` itself
    # (:func:`~asynclint.analysis.index.callfacts.rare_fact`, installed below), one call where
    # ``(self.rare or NO_FACTS).name`` made two -- the graph's passes read them tens of millions
    # of times a recheck. Declared here for the type checker.
    if TYPE_CHECKING:

        @property
        def in_loop(self) -> bool: ...
        @property
        def payload_at(self) -> int: ...
        @property
        def handed_out(self) -> tuple[str, ...]: ...
        @property
        def awaited(self) -> bool: ...
        @property
        def api(self) -> str | None: ...
        @property
        def lambdas(self) -> tuple[tuple[int, bool], ...]: ...
        @property
        def kept(self) -> bool: ...
        @property
        def kwargs(self) -> tuple[tuple[str, str], ...]: ...
        @property
        def payload_param(self) -> bool: ...
        @property
        def passed_params(self) -> tuple[tuple[str, str], ...]: ...
        @property
        def consumer(self) -> str | None: ...
        @property
        def loop(self) -> str | Rooted: ...
        @property
        def read(self) -> bool: ...
        @property
        def fields(self) -> tuple[str, ...]: ...
        @property
        def property_read(self) -> bool: ...
        @property
        def once(self) -> bool: ...
        @property
        def instance_once(self) -> bool: ...
        @property
        def memo_key(self) -> tuple[str, ...]: ...
        @property
        def cache_miss(self) -> bool: ...
        @property
        def stream(self) -> str: ...
        @property
        def first_turn(self) -> bool: ...
        @property
        def state_ready(self) -> str: ...
        @property
        def keyed(self) -> str: ...
        @property
        def failing(self) -> bool: ...
        @property
        def fallback(self) -> bool: ...
        @property
        def handed(self) -> tuple[int, ...]: ...
        @property
        def keywords(self) -> tuple[str, ...]: ...
        @property
        def spread(self) -> bool: ...
        @property
        def spans(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]: ...
        @property
        def entered(self) -> bool: ...
        @property
        def requires(self) -> str: ...
        @property
        def ready(self) -> bool: ...
        @property
        def installed(self) -> str: ...
        @property
        def itemwise(self) -> tuple[tuple[str, str], ...]: ...
        @property
        def applier(self) -> str: ...
        @property
        def unpacked(self) -> str: ...
        @property
        def argument(self) -> str: ...
        @property
        def param(self) -> tuple[str, ...] | None: ...
        @property
        def self_path(self) -> tuple[str, ...]: ...
        @property
        def keyword_arguments(self) -> tuple[tuple[str, str | Rooted], ...]: ...
        @property
        def guards(self) -> tuple[str, ...]: ...
        @property
        def statement(self) -> str | None: ...
        @property
        def dispatch(self) -> tuple[str, ...]: ...
        @property
        def last_turn(self) -> bool: ...


for _fact in fields(CallFacts):  # each rare fact reads as an attribute of its call (see above)
    setattr(CallSite, _fact.name, rare_fact(_fact.name))


class Place(Protocol):
    """A position in a function that the graph judges as it judges a call written there
    (:meth:`~asynclint.analysis.api.CallGraph.hot_at`, ``chain``, ``first_call_entry``): a
    :class:`CallSite`, a :class:`WorkLoop` or a :class:`LoopNest`."""

    @property
    def line(self) -> int: ...

    @property
    def col(self) -> int: ...

    @property
    def guards(self) -> tuple[str, ...]: ...

    @property
    def once(self) -> bool: ...

    @property
    def memo_key(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class ModuleSummary:
    path: str
    module: str
    functions: tuple[Function, ...]
    classes: tuple[ClassInfo, ...]
    calls: tuple[CallSite, ...]
    refs: tuple[FunctionRef, ...]
    handoffs: tuple[Handoff, ...] = ()
    exports: tuple[tuple[str, str], ...] = ()  # module-level imported name -> dotted target
    #: Names whose value has a known type, for other modules: module-level instances
    #: (``JUDGE = OpenAI()``), and what functions and methods return, keyed by their call
    #: (``make_client()``, ``Env.client()``; a :class:`Rooted` path for an attribute of the
    #: receiver, ``<self>._http``, or a value read from the rollout's state).
    values: tuple[tuple[str, str | Rooted], ...] = ()
    #: Names that hold callables, keyed likewise: module-level lists (``REWARDS = [a, b]``) and
    #: functions returning functions or lists of them (``get_format_reward_func()``).
    callables: tuple[tuple[str, tuple[str | Rooted, ...]], ...] = ()
    stars: tuple[str, ...] = ()  # modules star-imported at module level, in order
    public: tuple[str, ...] | None = None  # ``__all__``, when it is a literal list of names
    #: Set for an installed third-party module read in deep mode (``slowlib 1.2.0``): its code
    #: is hot only where the project's hot code calls into it, and it is never reported itself.
    library: str | None = None
    #: Keys of the rollout's state this module stores a value of known type under
    #: (``state["driver"] = webdriver.Chrome()``): key -> dotted type.
    state_values: tuple[tuple[str, str], ...] = ()
    #: What this module's ``update_tool_args`` passes registered tools, by parameter name:
    #: key -> dotted type, or a :class:`Rooted` path for a value read from the state
    #: (``<rollout state>.emulator_env``).
    injected: tuple[tuple[str, str | Rooted], ...] = ()
    #: The same keys -> what ``update_tool_args`` passes there as a payload (shape, word; see
    #: ``argfacts.payload_of``): a tool's injected parameter is as large as that value
    #: (``json.dumps(state.get("constraints"))`` is what the project stores under that key).
    injected_payloads: tuple[tuple[str, str, str], ...] = ()
    #: Functions and methods returning what calling one of their parameters returns (``return
    #: await asyncio.to_thread(func, *args)``): qualified name -> that parameter's position.
    runners: tuple[tuple[str, int], ...] = ()
    #: Functions and methods returning what a dotted path they are handed names (``return
    #: getattr(importlib.import_module(module_name), name)``, both cut from one parameter by
    #: ``rsplit``): qualified name -> that parameter's position (see ``helpers.path_importers``).
    importers: tuple[tuple[str, int], ...] = ()
    #: What it files under an id in a library's registry of environments (``gymnasium.register(id=
    #: "Grid-v0", entry_point="pkg.envs:GridEnv")``): (registry, id, the dotted name of the class or
    #: factory), for the graph to build where another module makes the id (see ``CallPart``'s ``made``).
    registered: tuple[tuple[str, str, str], ...] = ()
    #: The names it binds to a ``Callable[...]`` type (``RewardFn = Callable[..., float]``).
    callable_aliases: tuple[str, ...] = ()
    #: Where its signatures name such a name (its own or imported; see ``callable_aliases``):
    #: ``make_judge()`` (declared to return one) or ``Rubric.__init__(judge)`` (a parameter
    #: declared to hold one, that nothing else types) -> the name's global qualified name.
    alias_uses: tuple[tuple[str, str], ...] = ()
    #: Functions it assigns to another module's attribute (``_telecom_env.load_file = _load_utf8``):
    #: (the attribute, dotted; the function's dotted name), see :mod:`asynclint.analysis.index.patches`.
    patched: tuple[tuple[str, str], ...] = ()
    #: Its guarded imports' flags -> the top-level module each says is installed (importflags.import_flags).
    flags: tuple[tuple[str, str], ...] = ()
    #: Module-level values of known type (``JUDGE = OpenAI()``) -> (line, column) of the call that
    #: built them, for a hand-over of the value in another module.
    built: tuple[tuple[str, int, int], ...] = ()
    #: Identifiers the module reads, as a name or an attribute (``f``, ``utils.f``), calls aside
    #: (those are call sites): how a function defined elsewhere may be referred to.
    loaded: tuple[str, ...] = ()
    #: Functions whose ``return`` statements give values of different (or unknown) kinds, keyed
    #: like ``values``: each returned value as other modules read it (``<rollout state>.driver.
    #: find_element()``), for the graph to settle once the project's types are known.
    returns: tuple[tuple[str, tuple[str | Rooted, ...]], ...] = ()
    #: Calls, keyed like ``values``, whose type there is what the signature declares (``def
    #: make() -> Base``) rather than what a ``return`` builds: the result may be of any subclass.
    declared: tuple[str, ...] = ()
    #: What its functions return, as payload evidence: (index into ``functions``, the distinct
    #: payloads of its ``return`` statements, see :func:`asynclint.analysis.index.argfacts.payload_of`;
    #: ``("param", name)`` for a parameter returned as it is or in the same size). The graph settles
    #: a ``returned`` payload with them.
    returned: tuple[tuple[int, tuple[tuple[str, str], ...]], ...] = ()
    #: Modules the module imports anywhere (inside functions too), dotted as the project names
    #: them: ``import a.b`` lists ``a.b``; ``from a import b`` lists ``a`` and ``a.b`` (``b`` may
    #: be a module). What an environment's code can run (see ``Programs._elsewhere``).
    imported: tuple[str, ...] = ()
    #: The module has an ``if __name__ == "__main__":`` block at its top level: it is run as a
    #: program of its own (see ``Programs._elsewhere``).
    main_block: bool = False
    #: Loop nests of its functions whose counts multiply with the data (see :class:`LoopNest`).
    nests: tuple[LoopNest, ...] = ()
    #: What the module puts in a dataset row's ``info`` column, as payload evidence (see
    #: :func:`asynclint.analysis.index.argfacts.payload_of`): ``("info", shape, word)`` for each
    #: value written under the key ``"info"`` of a dict display, ``("info.<key>", shape, word)`` for
    #: each field of a display so written (``"info": json.dumps({"lang": lang})``), and last the
    #: index of the function writing the display (one the rollouts run writes a record, not a row).
    row_fields: tuple[tuple[str, str, str, int], ...] = ()
    #: What its functions store under keys of the rollout's state that the project fills (not
    #: the framework's own, ``FRAMEWORK_STATE_KEYS``), as payload evidence: (key, ``small`` / ``whole`` /
    #: ``unknown``) per write, an accumulator (``state[k] = [*state.get(k, []), name]``,
    #: ``state.setdefault(k, []).append(x)``) by what each call adds (see
    #: :mod:`asynclint.analysis.index.statefields`). A payload read back from the key is sized by them.
    state_fields: tuple[tuple[str, str], ...] = ()
    #: Keys of the rollout's state each function sets itself: (index into ``functions``, key).
    state_stores: tuple[tuple[int, str], ...] = ()
    #: What the project stores under a key of the rollout's state set outright, as a payload (key,
    #: shape, word; ``state["scenario"] = info.get("scenario")`` is the row's field ``info.scenario``):
    #: a field of what a tool is injected from that key is a field of that value.
    state_payloads: tuple[tuple[str, str, str], ...] = ()
    #: The fields of the dict displays functions return (function index, line of the ``return``, key,
    #: shape, word), and one row with an empty key per ``return``:
    #: ``return {"gmail_messages": gmail_messages, ...}`` sizes a caller's read of that field.
    returned_fields: tuple[tuple[int, int, str, str, str], ...] = ()
    #: What generators yield, apart from what functions return (function index, line of the ``yield``,
    #: "" for the item or ``[0]``, ``[1]``... for an element of a tuple yielded, shape, word): a loop over
    #: a project generator's call holds one yielded item at a time (``for name, args in tool_calls(c)``).
    yielded_fields: tuple[tuple[int, int, str, str, str], ...] = ()
    #: Every loop of its functions, with its trip count where the code bounds it (see :class:`WorkLoop`).
    work_loops: tuple[WorkLoop, ...] = ()
    #: Module-level constants that bound a loop: name -> factors, as ``WorkLoop.trips`` (a tuple
    #: literal's length, a comprehension's product, an integer's value).
    sizes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Names the module gives a literal non-negative integer (keywords, defaults, config keys, class
    #: fields): a loop bounded by ``self.config["max_ticks"]`` in another module reads them.
    settings: tuple[tuple[str, int], ...] = ()
    #: Calls in its functions that copy a container they are handed (``dict(state)``, ``x.copy()``,
    #: ``copy.copy(x)``): (function index, line, column, deep?) -- ``copy.deepcopy`` is deep.
    copies: tuple[tuple[int, int, int, bool], ...] = ()
    #: The rows its functions return and its dataset builds are handed (see :class:`RowShape`).
    row_shapes: tuple[RowShape, ...] = ()
    #: Class-level fields annotated ``bool`` whose constant default switches a feature off:
    #: (field, ``repr`` of the default); a test of ``<anything>.<field>`` reads them by name
    #: (:func:`asynclint.analysis.index.switches.switches`).
    switch_fields: tuple[tuple[str, str], ...] = ()
    #: The names the module writes a value under (an attribute, a keyword, a parameter's default, a
    #: dict key) that may turn a switch field on: not a constant that switches a feature off, nor a
    #: value that reads the same name (:func:`asynclint.analysis.index.switches.switches`).
    field_writes: tuple[str, ...] = ()
    #: Classes and functions handed on as values, not called where they are named: (the literal key
    #: a dict display files one under, or ""; its dotted name), see :mod:`.factories`.
    factories: tuple[tuple[str, str], ...] = ()
    #: Objects stored into an attribute of another object than ``self`` (``bus.listener =
    #: Listener()``): (the receiver's type or ``pkg.Env().server`` path, the object as
    #: ``CallFacts.handed_out`` records one). A library's object may call any method of theirs.
    stored_out: tuple[tuple[str, str], ...] = ()
    #: Its top-level functions whose result its docstrings' examples register as a reward with the
    #: framework (``vf.Rubric(funcs=[env_reward_fn(make_env)])``): see :mod:`.docexamples`.
    documented: tuple[str, ...] = ()


class IndexError_(Exception):
    """The file could not be parsed; the message is one line for the user."""
