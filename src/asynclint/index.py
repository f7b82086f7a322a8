"""Per-file summary: one ``ast`` parse and one walk -> definitions, bindings and call sites.

Why the stdlib ``ast`` and not libcst here: detection needs names, scopes and positions, not
round-trippable formatting, and ``ast.parse`` is ~10x faster than ``libcst.parse_module``. The
fixers parse with libcst only the files they rewrite and locate nodes by the positions recorded
here. Everything in a :class:`ModuleSummary` is plain data, so summaries can be computed in
worker processes and cached by content hash.

Name resolution is deliberately simple and flow-ordered: a name means what its latest binding
in the enclosing function (then module, then builtins, then what a star import may bring) says
at the point of use. Values are tracked only as far as the knowledge base cares: which
module/function a name denotes (:class:`Sym`), which type of object an expression is
(:class:`Inst`), which attribute of ``self`` it reads (:class:`SelfRef`, settled once the whole
class has been seen), or which callables a list holds (:class:`Refs`).

Types are dotted names. A call's result is ``callee()`` unless the knowledge base names the
instance after its producer (``sqlite3.connect``, ``openai.OpenAI``): what a project function
returns is only known once every summary is read, so the project graph settles ``make()``,
``pkg.Judge()`` (an instance of a project class) and ``JUDGE.chat.completions.create()`` (a
response, never the client) from the summaries' exports.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from asynclint.argfacts import (
    ROW_READS,
    STATEMENT_RUNS,
    argument_facts,
    constant_defaults,
    first_turn_guard,
    fixed_iterable,
    given_arguments,
    guard_target,
    loop_item,
    param_test,
    payload_of_value,
    scalar_annotation,
    state_get,
    state_key,
    statement_text,
    stored_names,
    stores,
    tuple_return_annotations,
    waits_until,
)
from asynclint.knowledge.asyncio_apis import (
    CALLABLE_WRAPPERS,
    OFFLOAD_KEYWORDS,
    OFFLOAD_METHODS,
    consumer_name,
)
from asynclint.knowledge.blocking import BUILT, ENTER_RETURNS, ITEMS, RETURNS
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import (
    ARGUMENT_INJECTORS,
    HANDOFF_ATTRIBUTES,
    HANDOFF_SLOTS,
    PASSED_NAMES,
    PROGRAM_CALLEES,
    PROGRAM_KEYWORDS,
    PROGRAM_SLOTS,
    public_name,
)
from asynclint.knowledge.functions import PROPERTIES

_BUILTINS = frozenset(dir(builtins))
#: Roots of values no project function can be: what the standard library makes.
_STDLIB = frozenset(sys.stdlib_module_names) | {"builtins"}
#: ``x: T = field(...)`` declares a field of type ``T``; the call's own result says nothing.
_FIELD_SPECIFIERS = frozenset(
    {"dataclasses.field", "pydantic.Field", "pydantic.fields.Field", "attrs.field", "attr.ib", "attr.attrib"}
)
#: Annotations wrapping the type of the value: ``Optional[T]``, ``Union[A, B]``, ``Annotated[T, m]``.
_WRAPPING_ANNOTATIONS = frozenset(
    f"typing.{name}" for name in ("Optional", "Union", "Annotated", "ClassVar", "Final")
)
#: Roots of annotations too general to type a receiver: ``dict``, ``Any``, ``Iterator[T]``, ``Self``.
_VAGUE_ANNOTATIONS = frozenset({"builtins", "typing", "typing_extensions", "collections", "types", "abc"})
#: Containers whose last type argument is the type of the items ``x[key]`` reads.
_CONTAINER_ANNOTATIONS = frozenset(
    {
        *(f"builtins.{name}" for name in ("dict", "list")),
        *(f"typing.{name}" for name in ("Dict", "List", "Mapping", "MutableMapping", "Sequence", "MutableSequence")),
        *(f"collections.abc.{name}" for name in ("Mapping", "MutableMapping", "Sequence", "MutableSequence")),
        "collections.defaultdict", "collections.OrderedDict", "typing.DefaultDict", "typing.OrderedDict",
    }
)
#: Displays an argument may be written as -> the type of the value.
_DISPLAYS: dict[type, str] = {
    ast.Dict: "builtins.dict", ast.DictComp: "builtins.dict", ast.List: "builtins.list", ast.ListComp: "builtins.list",
    ast.Set: "builtins.set", ast.SetComp: "builtins.set", ast.Tuple: "builtins.tuple", ast.JoinedStr: "builtins.str",
}
#: ``type[T]``: the annotated value is a class, not an instance.
_CLASS_ANNOTATIONS = frozenset({"builtins.type", "typing.Type", "typing_extensions.Type"})
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"
_NEWLINE = re.compile(r"\r\n|\r|\n")


# --- values ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sym:
    """The expression *is* a named thing: a module, function or class (``requests.get``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Inst:
    """An object produced by ``name`` (a constructor, factory, or attribute path)."""

    name: str
    origin: str  # local | param | module | self | expr
    #: Built by a call that handed it objects (``JudgeRubric(judge_client=...)``): indexes of
    #: those hand-overs in the module's ``handoffs``, so its calls can be traced back to them.
    handed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SelfRef:
    """``self.<path>`` inside a method of ``cls`` (a global class qualname)."""

    cls: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Refs:
    """Callables: a list of them (``funcs = [correct, self.format_ok]``), or any one of them (the
    variable of ``for f in funcs``), to be handed to a framework. An item may itself stand for
    several: a list defined in another module, or what a call returns (``get_rewards()``)."""

    items: tuple[Sym | SelfRef | Inst, ...]


Value = Sym | Inst | SelfRef | Refs | None


#: First element of a :class:`SelfRef` path written through ``super()``.
SUPER = "super()"
#: In exported values: the instance a method was called on (``<self>._http``).
SELF = "<self>"
#: The rollout's state, as an owner of attributes: ``state["driver"]`` is
#: ``SelfRef(STATE, ("driver",))``, typed project-wide from what hooks store under that key.
STATE = "<rollout state>"
#: Suffix of an attribute standing for its items: ``self.envs[k]`` is ``SelfRef(cls, ("envs[]",))``,
#: typed by ``self.envs[k] = X()`` or ``self.envs: dict[str, X]``, else like ``self.envs``.
ITEM_SUFFIX = "[]"
#: A parameter of the calling function, as an argument's value: ``<param>.driver`` in
#: ``mark_page(driver)`` is whatever the caller's own parameter ``driver`` receives.
PARAM = "<param>"
#: What a framework hands a registered function by parameter name (``async def r(judge, ...)``):
#: ``judge(...)`` there is a call of ``<passed>.judge``, settled by what registered the function.
PASSED = "<passed>"


def split_super(path: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    """-> (how many classes of the MRO to skip, the attribute path): ``super().x`` starts
    looking for ``x`` after the class itself."""
    if path and path[0] == SUPER:
        return 1, path[1:]
    return 0, path


def linear_chain(
    cls: str,
    lookup: Callable[[str], tuple[str, tuple[str, ...]]],
    memo: dict[str, list[str]],
    known: Callable[[str], bool] = lambda name: True,
) -> list[str]:
    """``cls`` and its base classes breadth first, nearest first, kept in ``memo``.
    ``lookup(name)`` -> (the class's name, its bases); classes ``known`` rejects are left out.

    A class with one base extends its base's list, so a deep single-inheritance hierarchy costs
    one list per class instead of one walk of the whole hierarchy per class."""
    links: list[tuple[str, str]] = []  # (as asked, as named) from ``cls`` down the single bases
    current = cls
    while current not in memo:
        name, bases = lookup(current)
        if len(bases) != 1 or not known(name) or any(name == seen for _, seen in links):
            memo[current] = _breadth_first(current, lookup, known)
            break
        links.append((current, name))
        current = bases[0]
    tail = memo[current]
    for asked, name in reversed(links):
        tail = [name, *tail] if name not in tail else _breadth_first(asked, lookup, known)
        memo[asked] = tail
    return memo[cls]


def _breadth_first(cls: str, lookup: Callable[[str], tuple[str, tuple[str, ...]]], known: Callable[[str], bool]):
    order, seen, queue = [], set(), deque([cls])
    while queue:
        name, bases = lookup(queue.popleft())
        if name in seen or not known(name):
            continue
        seen.add(name)
        order.append(name)
        queue.extend(bases)
    return order


def extend(name: str, parts: tuple[str, ...] | list[str]) -> str:
    """Append attribute names (``"create()"`` for a call's result) to a dotted name, renaming
    through :data:`RETURNS` at each step."""
    for part in parts:
        name = f"{name}.{part}"
        name = RETURNS.get(name, name)
    return name


# --- summary records ---------------------------------------------------------------------


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


@dataclass(frozen=True, slots=True)
class ClassInfo:
    qualname: str
    line: int
    bases: tuple[str, ...]  # resolved dotted names
    methods: tuple[str, ...]
    attrs: tuple[tuple[str, str], ...]  # attribute -> dotted type name, where known
    properties: tuple[str, ...] = ()  # methods read as attributes (``@property``, ``@cached_property``)
    #: Resolved names of the type arguments of its generic bases: ``Toolset[SharedToolsetConfig]``.
    type_args: tuple[str, ...] = ()
    #: Annotated class-level fields (a dataclass's, a pydantic model's): (name, ``scalar`` or
    #: ``container``), which say how much a dump or a copy of an instance costs.
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CallSite:
    caller: int  # index into ModuleSummary.functions
    target: str | None  # resolved dotted name of what is called
    method: str | None  # last attribute name, for receivers of unknown type
    line: int
    col: int  # 1-based, in characters
    end_line: int
    end_col: int
    awaited: bool = False
    in_loop: bool = False
    self_ref: tuple[str, tuple[str, ...]] | None = None  # left for project-wide resolution
    api: str | None = None  # pattern of the matched knowledge entry
    origin: str | None = None  # where the receiver came from
    kept: bool = False  # stored on ``self`` or in a global under a condition: built lazily, once
    literals: tuple[str | None, ...] = ()  # per positional argument: see _literal
    kwargs: tuple[tuple[str, str], ...] = ()  # constant keyword arguments, repr'd
    #: (shape, word) of the payload a serializer or copier is given: see :func:`asynclint.argfacts.payload_of`.
    payload: tuple[str, str] = ("", "")
    #: The payload is (every item of) a parameter of the enclosing function still holding what
    #: the caller passed: its name says what it is only if the callers' values say so too.
    payload_param: bool = False
    #: Arguments that are the caller's own parameters passed on as they are: (slot, parameter),
    #: slot a position ("0") or a keyword; traces a framework's value into the helpers it reaches.
    passed_params: tuple[tuple[str, str], ...] = ()
    #: The coroutine consumer this call is an argument of (``asyncio.gather``, ``.create_task``):
    #: see :func:`asynclint.knowledge.asyncio_apis.consumer_name`.
    consumer: str | None = None
    #: Not a call: a read of ``self.<attr>``, which runs a getter when the attribute is a property.
    read: bool = False
    #: Not a call: a read of a library object's attribute that the knowledge base lists as a
    #: property whose getter blocks (``driver.title``; its name is ``method``). Typed like a call's
    #: receiver: ``target`` when known here, else ``self_ref`` or ``param`` (whose last element
    #: is the attribute), and matched with :meth:`Catalogue.match_read`.
    property_read: bool = False
    #: Lambdas the call is written in that may also run on their own (handed to a call, so
    #: possibly registered with a framework): (function index, inside a loop of the lambda's own?).
    lambdas: tuple[tuple[int, bool], ...] = ()
    #: Inside a lazy initialisation (``if self._index is None: ...``): runs on the first call only.
    once: bool = False
    #: Inside ``if not state.get("initialized"): ... state["initialized"] = True``: once per rollout,
    #: on its first turn, however often the hook around it runs.
    first_turn: bool = False
    #: Made on an object built by a call that handed it objects: those hand-overs (see Inst.handed).
    handed: tuple[int, ...] = ()
    #: The names of the keyword arguments written (``**spread`` ones are not known).
    keywords: tuple[str, ...] = ()
    #: The type of the first positional argument, for a method whose entry asks (``blocks_on``).
    argument: str = ""
    #: Made on an untyped parameter of the enclosing function: (the parameter, the attributes read
    #: on it up to the method), for the project graph to type from what a framework passes there.
    param: tuple[str, ...] | None = None
    #: What a call of a function the knowledge base does not know is handed, for typing that
    #: function's untyped parameters: per positional argument, and (name, value) per keyword
    #: argument: a type, a path (see :func:`_argument`), or "" when unknown. Empty when nothing is known.
    arguments: tuple[str, ...] = ()
    keyword_arguments: tuple[tuple[str, str], ...] = ()
    #: Tests of the enclosing ``if``s that read the function's flags (parameters with a constant
    #: default), as source, each one that must hold for the call to run (``not (...)`` in an
    #: ``else``): the project graph evaluates them with the constants every caller passes (see
    #: :func:`asynclint.argfacts.guard_holds`).
    guards: tuple[str, ...] = ()
    #: What a call of a project function passes: (slot, ``repr`` of a constant or ``""``), slot
    #: the position or the keyword; ``("*", "")`` for a ``*args``/``**kwargs`` spread.
    given: tuple[tuple[str, str], ...] = ()
    #: The SQL a DB-API ``execute`` runs, or a ``fetch*`` reads the rows of (the one last run in
    #: the function), when the code says it: see :func:`asynclint.argfacts.statement_text`.
    statement: str | None = None


@dataclass(frozen=True, slots=True)
class FunctionRef:
    """A callable passed as an argument rather than called where it is written."""

    caller: int
    target: str | None
    line: int
    offloaded: bool
    passed_to: str | None  # resolved target of the call it is passed to
    self_ref: tuple[str, tuple[str, ...]] | None = None
    slot: str = ""  # keyword name, or positional index as a string
    passed_to_method: str | None = None  # method name of that call (``add_reward_func``)
    passed_to_self: tuple[str, tuple[str, ...]] | None = None  # that call's unresolved self target
    function: int | None = None  # a lambda written as the argument: its index in the functions
    #: Registered on an object built with hand-overs, or in the call making them: those hand-overs.
    handed: tuple[int, ...] = ()
    #: Named by a string reference and shipped elsewhere to run (``ProgramConfig(fn="m:f",
    #: sandbox=True)``): where it runs instead of this process.
    away: str | None = None


@dataclass(frozen=True, slots=True)
class Handoff:
    """An object passed by keyword: ``JudgeRubric(judge_client=OpenAI())``."""

    caller: int
    passed_to: str | None
    slot: str
    value: str  # dotted type of the object, or (``named``) the name of a value defined elsewhere
    line: int
    col: int
    end_line: int
    end_col: int
    named: bool = False  # ``judge_client=JUDGE`` imported: an instance only if JUDGE is a value
    self_ref: tuple[str, tuple[str, ...]] | None = None  # ``judge_client=self.client``, left for the graph
    passed_to_self: tuple[str, tuple[str, ...]] | None = None  # ``super().__init__(judge_client=...)``
    #: (line, column) of the call that built the object, when this module shows it: written as the
    #: argument (``judge_client=OpenAI()``) or bound to the name passed (``client = OpenAI()``).
    built: tuple[int, int] | None = None


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
    #: (``make_client()``, ``Env.client()``; ``<self>._http`` for an attribute of the receiver).
    values: tuple[tuple[str, str], ...] = ()
    #: Names that hold callables, keyed likewise: module-level lists (``REWARDS = [a, b]``) and
    #: functions returning functions or lists of them (``get_format_reward_func()``).
    callables: tuple[tuple[str, tuple[str, ...]], ...] = ()
    stars: tuple[str, ...] = ()  # modules star-imported at module level, in order
    public: tuple[str, ...] | None = None  # ``__all__``, when it is a literal list of names
    #: Set for an installed third-party module read in deep mode (``slowlib 1.2.0``): its code
    #: is hot only where the project's hot code calls into it, and it is never reported itself.
    library: str | None = None
    #: Keys of the rollout's state this module stores a value of known type under
    #: (``state["driver"] = webdriver.Chrome()``): key -> dotted type.
    state_values: tuple[tuple[str, str], ...] = ()
    #: What this module's ``update_tool_args`` passes registered tools, by parameter name:
    #: key -> dotted type or path (``<rollout state>.emulator_env`` for a value read from the state).
    injected: tuple[tuple[str, str], ...] = ()
    #: Module-level values of known type (``JUDGE = OpenAI()``) -> (line, column) of the call that
    #: built them, for a hand-over of the value in another module.
    built: tuple[tuple[str, int, int], ...] = ()


class IndexError_(Exception):
    """The file could not be parsed; the message is one line for the user."""


# --- the walk ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _CallContext:
    """The call an argument is passed to, and where in it."""

    target: str | None
    method: str | None
    self_ref: tuple[str, tuple[str, ...]] | None
    slot: str
    handed: tuple[int, ...] = ()  # hand-overs made by the call or to the object it is made on


@dataclass
class _Frame:
    kind: str  # module | class | function
    func: int  # index of the enclosing Function (class frames keep their parent's)
    qualprefix: str  # prefix for definitions made in this frame
    bindings: dict[str, Value] = field(default_factory=dict)
    cls: str | None = None  # global qualname of the class this frame defines / method belongs to
    loop_depth: int = 0
    returns: list[Value] = field(default_factory=list)  # the values it returns
    globals: set[str] = field(default_factory=set)  # names declared ``global`` here
    conditional: int = 0  # depth of ``if`` statements around the current statement
    once: int = 0  # depth of lazy initialisations around it (see _lazy_guard)
    first_turn: int = 0  # depth of per-rollout initialisations around it (see _first_turn_guard)
    #: Loop variables -> the payload of what they iterate over (see asynclint.argfacts.payload_of).
    #: What a name holds, as payload evidence (``argfacts.payload_of``): a loop variable's items,
    #: or a dict display it was just bound to (``response = {"ok": False, "grid": grid}``).
    payloads: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: Names bound to a string constant (an SQL statement written once, run later by name).
    constants: dict[str, str] = field(default_factory=dict)
    #: The statement the last ``execute`` here ran (``None``: built at run time): the rows a
    #: ``fetchall`` reads are that statement's, evaluated while they are fetched.
    statement: str | None = None
    #: The flag tests of the ``if``s around the current statement (see CallSite.guards), and
    #: the flags they may read: parameters with a constant default never bound again.
    guards: list[str] = field(default_factory=list)
    flags: frozenset[str] = frozenset()
    #: Parameters of nothing more informative than ``Any`` that still hold what the caller passed.
    untyped: set[str] = field(default_factory=set)
    #: Parameters never bound again in the body: they hold what the caller passed.
    params: frozenset[str] = frozenset()
    #: Names bound to what a call written here built (``client = OpenAI()``) -> that call's
    #: (line, column): where an object handed over later was constructed.
    built: dict[str, tuple[int, int]] = field(default_factory=dict)


class _Indexer:
    def __init__(
        self, source: str, path: str, module: str, package: str, catalogue: Catalogue,
        imports: tuple[tuple[str, str], ...] = (),
    ):
        self.source = source
        self.path = path
        self.module = module
        self.package = package
        self.catalogue = catalogue
        self.imports = dict(imports)  # top-level name -> the project module it means here
        self.functions: list[Function] = [Function("<module>", "<module>", 1, False, "module")]
        self.calls: list[CallSite] = []
        self.refs: list[FunctionRef] = []
        self.handoffs: list[Handoff] = []
        self._built: dict[int, tuple[int, ...]] = {}  # id of a call node -> the hand-overs it makes
        self._handed_values: dict[int, Value] = {}  # hand-over index -> what was handed
        self._kept_value: ast.expr | None = None  # the value of an assignment to self.x / a global
        self._consumed: dict[int, str] = {}  # id of a call node -> the coroutine consumer it is passed to
        self.values: list[tuple[str, str]] = []
        self.class_attrs: dict[str, dict[str, Value]] = {}
        self.class_methods: dict[str, list[str]] = {}
        self.class_bases: dict[str, tuple[str, ...]] = {}
        self.class_type_args: dict[str, tuple[str, ...]] = {}
        self.class_fields: dict[str, list[tuple[str, str]]] = {}
        self.state_values: dict[str, str] = {}  # see ModuleSummary.state_values
        self.injected: dict[str, str] = {}  # see ModuleSummary.injected
        self._tuple_returns: dict[str, list[ast.expr]] = {}  # see _tuple_return_annotations
        self.class_lines: dict[str, int] = {}
        self.callables: list[tuple[str, tuple[str, ...]]] = []
        self.class_properties: dict[str, set[str]] = {}
        self.pending: list[int] = []  # indexes of calls with a SelfRef target
        self._method_returns: dict[str, str] = {}  # "mod.Cls.method()" -> type; known once all is read
        self._chains: dict[str, list[str]] = {}
        self.stars: list[str] = []
        #: ``self.<attr>`` reads: (caller, class, attribute, in a loop?, lambdas) -> the first one
        self._reads: dict[tuple, ast.Attribute] = {}
        #: Lambdas handed to a call whose body is being walked: (function index, loop depth at the lambda).
        self._lambdas: list[tuple[int, int]] = []
        self._ascii = source.isascii()
        self._lines: list[bytes] | None = None
        self.frames: list[_Frame] = []

    # -- positions ------------------------------------------------------------------------

    def _col(self, line: int, byte_col: int) -> int:
        """``ast`` columns count UTF-8 bytes; reports count characters."""
        if self._ascii:
            return byte_col + 1
        if self._lines is None:
            self._lines = [ln.encode("utf-8") for ln in _NEWLINE.split(self.source)]
        if line > len(self._lines):
            return byte_col + 1
        return len(self._lines[line - 1][:byte_col].decode("utf-8", "replace")) + 1

    # -- scopes ---------------------------------------------------------------------------

    @property
    def frame(self) -> _Frame:
        return self.frames[-1]

    def lookup(self, name: str) -> Value:
        innermost = True
        for frame in reversed(self.frames):
            if frame.kind == "class" and not innermost:
                continue  # methods do not see class-body names
            innermost = False
            if name in frame.bindings:
                return frame.bindings[name]
        if name in _BUILTINS:
            return Sym(f"builtins.{name}")
        if self.stars:
            return self._starred(name)
        return None

    def _note_built(self, target: ast.expr, node: ast.expr | None, value: Value) -> None:
        """``client = OpenAI()``: remember where the object ``target`` now names was built."""
        if isinstance(target, ast.Name) and isinstance(node, ast.Call) and isinstance(value, Inst):
            self.frame.built[target.id] = (node.lineno, self._col(node.lineno, node.col_offset))

    def _built_at(self, node: ast.expr) -> tuple[int, int] | None:
        """Where the object ``node`` evaluates to was built, when that is in this module: the call
        itself, or the one last bound to the name (looked up as :meth:`lookup` does)."""
        if isinstance(node, ast.Call):
            return node.lineno, self._col(node.lineno, node.col_offset)
        if not isinstance(node, ast.Name):
            return None
        innermost = True
        for frame in reversed(self.frames):
            if frame.kind == "class" and not innermost:
                continue
            innermost = False
            if node.id in frame.bindings:
                return frame.built.get(node.id)
        return None

    def _starred(self, name: str) -> Sym:
        """A name bound nowhere in a module with ``from m import *``: a star-imported module the
        knowledge base knows to define it (``from time import *``), else this module's global,
        which the project graph looks up in the star-imported project modules."""
        for module in reversed(self.stars):
            if self.catalogue.covers(f"{module}.{name}"):
                return Sym(f"{module}.{name}")
        return Sym(f"{self.module}.{name}")

    def _built_as(self, node: ast.Call, constructor: str) -> str | None:
        """The type :data:`BUILT` gives what ``node`` (a call of ``constructor``) builds, by the
        value of its keyword argument."""
        built = BUILT.get(constructor)
        if built is None:
            return None
        keyword, types = built
        value = next((k.value for k in node.keywords if k.arg == keyword), None)
        if isinstance(value, ast.Constant):
            return types.get(repr(value.value))
        written = self.infer(value) if value is not None else None
        return types.get(written.name) if isinstance(written, Sym) else None

    def bind(self, target: ast.expr, value: Value) -> None:
        if isinstance(target, ast.Name):
            self.frame.payloads.pop(target.id, None)
            self.frame.built.pop(target.id, None)
            self.frame.untyped.discard(target.id)
            if isinstance(value, Inst) and self.frame.kind == "function" and value.origin == "expr":
                value = replace(value, origin="local")
            elif isinstance(value, Inst) and self.frame.kind == "module" and value.origin == "expr":
                value = replace(value, origin="module")
            self.frame.bindings[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.bind(elt.value if isinstance(elt, ast.Starred) else elt, None)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            owner = self.lookup(target.value.id)
            if isinstance(owner, SelfRef) and not owner.path:
                self._set_class_attr(owner.cls, target.attr, value)
        elif isinstance(target, ast.Subscript) and (attr := self._own_attribute(target.value)) is not None:
            # ``self.envs[run_id] = DockerEnvironment(...)``: what ``self.envs[key]`` holds.
            self._set_class_attr(attr[0], f"{attr[1]}{ITEM_SUFFIX}", value)

    def _own_attribute(self, node: ast.expr) -> tuple[str, str] | None:
        """``self.<attr>`` written in a method -> (its class, the attribute)."""
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = self.lookup(node.value.id)
            if isinstance(owner, SelfRef) and not owner.path and owner.cls != STATE:
                return owner.cls, node.attr
        return None

    def _set_class_attr(self, cls: str, attr: str, value: Value) -> None:
        attrs = self.class_attrs.setdefault(cls, {})
        if value is None:
            attrs.setdefault(attr, None)
            return
        previous = attrs.get(attr)
        if previous is None or previous == value:
            attrs[attr] = value
        elif isinstance(previous, Inst) and isinstance(value, Inst) and previous.name == value.name:
            pass
        else:
            attrs[attr] = _CONFLICT

    # -- inference (pure: records nothing) --------------------------------------------------

    def infer(self, node: ast.expr) -> Value:
        if isinstance(node, ast.Name):
            return self.lookup(node.id)
        if isinstance(node, ast.Attribute):
            base = self.infer(node.value)
            if isinstance(base, Sym):
                return Sym(extend(base.name, (node.attr,)))
            if isinstance(base, Inst):
                kept = self._kept_handed(base, node.attr)
                return kept if kept is not None else Inst(extend(base.name, (node.attr,)), base.origin, base.handed)
            if isinstance(base, SelfRef):
                return SelfRef(base.cls, (*base.path, node.attr))
            return None
        if isinstance(node, ast.Call):
            key = state_get(node)
            if key is not None:
                return SelfRef(STATE, (key,))
            func = self.infer(node.func)
            if isinstance(func, Sym) and func.name in _THREAD_RESULTS and _runs_in_thread(node):
                # ``await asyncio.to_thread(f, *args)`` is what ``f(*args)`` returns: an object
                # made in a worker thread (as a fix writes it) is still of its type on the loop.
                return self.infer(_called_in_thread(node))
            if isinstance(func, Sym) and func.name in CALLABLE_WRAPPERS and node.args:
                wrapped = self.infer(node.args[0])  # calling the partial calls what it wraps
                return wrapped if isinstance(wrapped, (Sym, SelfRef, Inst)) else None
            if func == Sym("builtins.super") and self.frame.cls is not None and self.frame.kind == "function":
                # ``super().method()``: looked up from the first base on (and ``super().__init__
                # (tools=[...])`` shows the framework base what is passed).
                return SelfRef(self.frame.cls, (SUPER,))
            if isinstance(func, Sym):
                # A constructor, a factory, or a method of something imported: see Catalogue.result_of.
                name = self._built_as(node, func.name) or self.catalogue.result_of(func.name)
                return Inst(name, "expr", self._built.get(id(node), ()))
            if isinstance(func, Inst):
                # What a method returns is not its receiver: ``create(...)`` of a client gives a
                # response. "()" marks that, so ``Type.**`` patterns stop matching past it.
                result = f"{func.name}()"
                return Inst(RETURNS.get(result, result), func.origin)
            if isinstance(func, SelfRef) and func.path and func.path[-1] != SUPER:
                return SelfRef(func.cls, (*func.path[:-1], f"{func.path[-1]}()"))
            return None
        if isinstance(node, ast.Await):
            return self.infer(node.value)  # what a coroutine function returns, as its summary says
        if isinstance(node, ast.Subscript):
            key = state_key(node)
            if key is not None:
                return SelfRef(STATE, (key,))
            base = self.infer(node.value)
            if isinstance(base, SelfRef) and base.cls != STATE and len(base.path) == 1 and base.path[0].isidentifier():
                # ``self.envs[run_id]``: an item, typed by what is stored in ``self.envs[...]``
                # (else, as before, by ``self.envs`` itself).
                return SelfRef(base.cls, (f"{base.path[0]}{ITEM_SUFFIX}",))
            return base if isinstance(base, (Inst, SelfRef)) else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            # ``a / b`` calls ``a.__truediv__(b)``: RETURNS says ``Path / str`` is a ``Path``.
            left = self.infer(node.left)
            if isinstance(left, Inst):
                return Inst(extend(left.name, ("__truediv__()",)), left.origin)
            if isinstance(left, SelfRef) and left.path:
                return SelfRef(left.cls, (*left.path, "__truediv__()"))
            return None
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return _refs(map(self.infer, node.elts))
        if isinstance(node, ast.Starred):
            return self.infer(node.value)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self._infer_comprehension(node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.infer(node.left), self.infer(node.right)
            if isinstance(left, Refs) or isinstance(right, Refs):
                return Refs(tuple(v for side in (left, right) if isinstance(side, Refs) for v in side.items))
            return None
        if isinstance(node, ast.BoolOp):
            for value in node.values:
                inferred = self.infer(value)
                if inferred is not None:
                    return inferred
            return None
        if isinstance(node, ast.IfExp):
            # Known only when both branches agree (``None`` on one side says nothing new).
            body, orelse = self.infer(node.body), self.infer(node.orelse)
            if body == orelse or _is_none(node.orelse):
                return body
            if _is_none(node.body):
                return orelse
            return _refs((body, orelse)) if isinstance(body, Refs) and isinstance(orelse, Refs) else None
        if isinstance(node, ast.NamedExpr):
            return self.infer(node.value)
        return None

    def _kept_handed(self, holder: Inst, attr: str) -> Value:
        """``rubric.judge_client`` on an object built with ``judge_client=X``: X, marked with
        the hand-over (the framework keeps what it is handed under that attribute)."""
        for index in holder.handed:
            if HANDOFF_ATTRIBUTES.get(self.handoffs[index].slot) != attr:
                continue
            value = self._handed_values.get(index)
            if isinstance(value, Inst):
                return replace(value, handed=(index,))
            if isinstance(value, Sym):
                return Inst(value.name, "module", (index,))  # a value defined elsewhere: resolved by the graph
            return value
        return None

    def _infer_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> Value:
        """``[make(x) for x in names]``: what the element is, with the loop variables bound to
        the items of what they iterate over (``[f for f in FUNCS]`` holds the callables of FUNCS)."""
        saved = dict(self.frame.bindings)
        try:
            for generator in node.generators:
                self._bind_names(generator.target, self._item_type(generator.iter))
            return _refs((self.infer(node.elt),))
        finally:
            self.frame.bindings = saved

    def _unpacked(self, value: ast.expr) -> list[Value] | None:
        """``driver, workdir = self._create_driver(site)`` where the function is annotated
        ``-> tuple[webdriver.Chrome, str]`` (in this module): the type of each element (also
        run in a worker thread: ``await asyncio.to_thread(self._create_driver, site)``)."""
        if isinstance(value, ast.Await):
            value = value.value
        if not isinstance(value, ast.Call):
            return None
        func = self.infer(value.func)
        if isinstance(func, Sym) and func.name in _THREAD_RESULTS and _runs_in_thread(value):
            value = _called_in_thread(value)
            func = self.infer(value.func)
        if isinstance(func, SelfRef) and len(func.path) == 1:
            name = f"{func.cls}.{func.path[0]}"
        elif isinstance(func, Sym):
            name = func.name
        else:
            return None
        elements = self._tuple_returns.get(name)
        return [self.annotation_type(element) for element in elements] if elements is not None else None

    def annotation_type(self, node: ast.expr | None) -> Value:
        """``p: Path``, ``c: OpenAI | None``, ``Optional[Session]`` -> an instance of it."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.annotation_type(node.left) or self.annotation_type(node.right)
        if isinstance(node, ast.Subscript):
            outer = self.infer(node.value)
            if isinstance(outer, Sym) and outer.name in _CLASS_ANNOTATIONS:
                # ``task_class: type[TaskEval]`` is the class itself: calling it builds an instance.
                cls = self.annotation_type(node.slice)
                return Sym(cls.name.removesuffix("()")) if isinstance(cls, Inst) else None
            if isinstance(outer, Sym) and outer.name in _WRAPPING_ANNOTATIONS:
                args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                if outer.name != "typing.Union":
                    args = args[:1]  # Annotated[T, meta], ClassVar[T]: only T is the type
                return next(filter(None, map(self.annotation_type, args)), None)
            return self.annotation_type(node.value)  # a generic: ``IO[str]`` is an ``IO``
        value = self.infer(node)
        if isinstance(value, Sym):
            # An instance of the class: named as calling it would name it.
            return Inst(value.name if value.name in self.catalogue.producers else f"{value.name}()", "param")
        return None

    # -- recording --------------------------------------------------------------------------

    def record_call(self, node: ast.Call, awaited: bool, func_value: Value) -> str | None:
        """Record the call whose callee ``node.func`` infers to ``func_value``; -> its target."""
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        target: str | None = None
        origin: str | None = None
        self_ref = None
        handed: tuple[int, ...] = ()
        if isinstance(func_value, Sym):
            target = func_value.name
        elif isinstance(func_value, Inst):
            target, origin, handed = func_value.name, func_value.origin, func_value.handed
        elif isinstance(func_value, SelfRef) and func_value.path:
            self_ref = (func_value.cls, func_value.path)
        if target is None and self_ref is None and method is None:
            return None
        consumer = self._consumed.pop(id(node), None)
        awaited = awaited or consumer is not None  # a coroutine handed over, not a blocking call
        keywords = tuple(keyword.arg for keyword in node.keywords if keyword.arg)
        argument = ""
        if method in self.catalogue.argument_methods and node.args:
            first = self.infer(node.args[0])
            argument = first.name if isinstance(first, Inst) else ""
        api = self.catalogue.match(target, method)
        if api is not None and not api.blocks(awaited, keywords, argument):
            api = None
        site = CallSite(
            caller=self.frame.func,
            target=target,
            method=method,
            line=node.lineno,
            col=self._col(node.lineno, node.col_offset),
            end_line=node.end_lineno or node.lineno,
            end_col=self._col(node.end_lineno or node.lineno, node.end_col_offset or 0),
            awaited=awaited,
            in_loop=self.frame.loop_depth > 0,
            once=self.frame.once > 0,
            first_turn=self.frame.first_turn > 0,
            kept=node is self._kept_value,
            self_ref=self_ref,
            api=api.pattern if api else None,
            origin=origin,
            consumer=consumer,
            lambdas=self._inside_lambdas(),
            handed=handed,
            keywords=keywords,
            argument=argument,
            param=self._param_path(node.func) if api is None and self_ref is None else None,
            **(self._arguments(node) if api is None and (self_ref or _may_be_project(target)) else {}),
            **(self._argument_facts(node) if (api or self_ref) else {}),
            passed_params=self._passed_params(node) if api is None else (),
            # Asked of every ``execute``: the receiver's type may be settled only project-wide.
            statement=self._statement(node, method),
            guards=tuple(self.frame.guards),
            given=given_arguments(node) if api is None else (),
        )
        if self_ref is not None:
            self.pending.append(len(self.calls))
        self.calls.append(site)
        return target

    def _argument_facts(self, node: ast.Call) -> dict:
        facts = argument_facts(node, self._data_receiver(node), self.frame.payloads)
        shape, word = facts["payload"]
        facts["payload_param"] = shape in ("name", "each") and word in self.frame.params
        return facts

    def _passed_params(self, node: ast.Call) -> tuple[tuple[str, str], ...]:
        """CallSite.passed_params of a call."""
        params = self.frame.params
        slots = [(str(position), arg) for position, arg in enumerate(node.args)]
        slots += [(keyword.arg, keyword.value) for keyword in node.keywords if keyword.arg is not None]
        return tuple((slot, arg.id) for slot, arg in slots if isinstance(arg, ast.Name) and arg.id in params)

    def _arguments(self, node: ast.Call) -> dict[str, tuple]:
        """CallSite.arguments / keyword_arguments of a call, or nothing when no argument is known."""
        if not node.args and not node.keywords:
            return {}
        positional = tuple(
            "" if isinstance(arg, ast.Starred) else self._argument(arg) for arg in node.args
        )
        keywords = tuple(
            (keyword.arg, typed) for keyword in node.keywords
            if keyword.arg is not None and (typed := self._argument(keyword.value))
        )
        if not keywords and not any(positional):
            return {}
        return {"arguments": positional if any(positional) else (), "keyword_arguments": keywords}

    def _argument(self, node: ast.expr) -> str:
        """An argument's value for the project graph: a type, a path from an instance of a class
        (``pkg.Env().driver``, ``pkg.Env()`` for ``self``), from the rollout's state
        (``<rollout state>.driver``) or from a parameter of the caller (``<param>.driver``)."""
        if isinstance(node, ast.Name) and node.id in self.frame.untyped:
            return f"{PARAM}.{node.id}"
        if isinstance(node, ast.Constant):  # a literal's type, so a helper handed one is not typed by its other calls
            return f"builtins.{type(node.value).__name__}"
        if type(node) in _DISPLAYS:
            return _DISPLAYS[type(node)]
        if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
            return ""  # what a nested call returns is rarely a helper's receiver: not worth inferring
        value = self.infer(node)
        if isinstance(value, Inst) and not value.name.startswith((PASSED, PARAM)):
            return value.name
        if isinstance(value, SelfRef) and SUPER not in value.path:
            if value.cls == STATE:
                return ".".join((STATE, *value.path)) if value.path else ""
            return ".".join((f"{value.cls}()", *value.path))
        return ""

    def _param_path(self, func: ast.expr) -> tuple[str, ...] | None:
        """``env.execute_action`` on a parameter ``env`` of no informative type -> ("env",
        "execute_action"); ``None`` when the receiver is anything else."""
        if not self.frame.untyped or not isinstance(func, ast.Attribute):
            return None
        attrs: list[str] = []
        while isinstance(func, ast.Attribute):
            attrs.append(func.attr)
            func = func.value
        if not isinstance(func, ast.Name) or func.id not in self.frame.untyped:
            return None
        return (func.id, *reversed(attrs))

    def _note_read(self, node: ast.Attribute, owner: ast.Name) -> None:
        """``self.<attr>`` read in a method: a call of the getter if it is a property, which may
        be defined in a base class in another module (settled at the end, or by the graph)."""
        receiver = self.lookup(owner.id)
        if not isinstance(receiver, SelfRef) or receiver.path or self.frame.kind != "function":
            return
        key = (self.frame.func, receiver.cls, node.attr, self.frame.loop_depth > 0, self._inside_lambdas())
        self._reads.setdefault(key, node)  # the first read in a function is the one a chain shows

    def record_property_read(self, node: ast.Attribute) -> None:
        """``driver.title`` (a name some blocking property has): recorded when its receiver is
        typed, here or by the project graph, the same ways a method call's receiver is. A store,
        a ``del`` and a method call's own attribute never come here; a bound method read for a
        later call (``f = driver.get``) names no property."""
        receiver = self.infer(node.value)
        target = self_ref = param = None
        api = None
        origin, handed = None, ()
        if isinstance(receiver, Inst):
            target = f"{receiver.name}.{node.attr}"  # the property itself, not what reading it gives
            api = self.catalogue.match_read(target)
            if api is None and not self._graph_may_type(receiver.name):
                return  # an object whose type is known here, without such a property
            origin, handed = receiver.origin, receiver.handed
        elif isinstance(receiver, Sym):  # a value defined in another module (``DRIVER``): typed by the graph
            if not self._graph_may_type(receiver.name):
                return
            target = f"{receiver.name}.{node.attr}"
        elif isinstance(receiver, SelfRef) and receiver.path and SUPER not in receiver.path:
            self_ref = (receiver.cls, (*receiver.path, node.attr))
        else:
            param = self._param_path(node)
            if param is None:
                return
        site = CallSite(
            caller=self.frame.func,
            target=target,
            method=node.attr,
            line=node.lineno,
            col=self._col(node.lineno, node.col_offset),
            end_line=node.end_lineno or node.lineno,
            end_col=self._col(node.end_lineno or node.lineno, node.end_col_offset or 0),
            in_loop=self.frame.loop_depth > 0,
            once=self.frame.once > 0,
            first_turn=self.frame.first_turn > 0,
            self_ref=self_ref,
            api=api.pattern if api else None,
            origin=origin,
            lambdas=self._inside_lambdas(),
            handed=handed,
            param=param,
            property_read=True,
        )
        if self_ref is not None:
            self.pending.append(len(self.calls))
        self.calls.append(site)

    def _graph_may_type(self, name: str) -> bool:
        """``name`` may turn out, project-wide, to be an object of another type (``make()``, an
        imported ``DRIVER``): not the standard library's, nor one the knowledge base describes."""
        return _may_be_project(name) and not self.catalogue.covers(name)

    def _inside_lambdas(self) -> tuple[tuple[int, bool], ...]:
        return tuple((index, self.frame.loop_depth > depth) for index, depth in self._lambdas) if self._lambdas else ()

    def _statement(self, node: ast.Call, method: str | None) -> str | None:
        if method in STATEMENT_RUNS:
            # A name bound here, else a module-level constant (``EMAIL_SQL = "SELECT ..."``).
            constants = {**self.frames[0].constants, **self.frame.constants}
            self.frame.statement = statement_text(node, constants)
            return self.frame.statement
        return self.frame.statement if method in ROW_READS else None

    def _data_receiver(self, node: ast.Call) -> ast.expr | None:
        """The object a method is called on, unless it is a module or class (``json.dumps``,
        ``Model.model_validate``): those say nothing about the payload."""
        if not isinstance(node.func, ast.Attribute) or isinstance(self.infer(node.func.value), Sym):
            return None
        return node.func.value

    def record_ref(self, node: ast.expr, offloaded: bool, call: _CallContext) -> None:
        value = self.infer(node)
        items = value.items if isinstance(value, Refs) else (value,)
        for item in items:
            if isinstance(item, Inst) and not self._may_be_callable(item):
                continue
            if isinstance(item, (Sym, Inst)):
                target, self_ref = item.name, None  # an instance's bound method, or a call's result
            elif isinstance(item, SelfRef) and item.path:
                target, self_ref = None, (item.cls, item.path)
            else:
                continue
            self.refs.append(
                FunctionRef(
                    self.frame.func, target, node.lineno, offloaded, call.target, self_ref,
                    call.slot, call.method, call.self_ref, handed=call.handed,
                )
            )

    # -- statements -------------------------------------------------------------------------

    def run(self, tree: ast.Module) -> ModuleSummary:
        module_frame = _Frame("module", 0, "")
        self.frames.append(module_frame)
        self._tuple_returns = tuple_return_annotations(tree, self.module)
        self._prebind(tree.body)
        self.visit_body(tree.body)
        exports = tuple(
            (name, value.name) for name, value in module_frame.bindings.items() if isinstance(value, Sym)
        )
        for name, value in module_frame.bindings.items():
            if isinstance(value, Inst):
                self.values.append((name, value.name))
            elif isinstance(value, Refs):
                self._export_callables(name, (value,))
        self._method_returns = {f"{self.module}.{name}": type_ for name, type_ in self.values if name.endswith("()")}
        self._settle_self_refs()
        self._settle_reads()
        classes = tuple(
            ClassInfo(
                qualname=qn[len(self.module) + 1 :],
                line=self.class_lines[qn],
                bases=self.class_bases.get(qn, ()),
                methods=tuple(self.class_methods.get(qn, ())),
                attrs=tuple(
                    (attr, exported)
                    for attr, value in self.class_attrs.get(qn, {}).items()
                    if isinstance(value, (Inst, Sym, SelfRef)) and (exported := _export(value))
                ),
                properties=tuple(sorted(self.class_properties.get(qn, ()))),
                type_args=self.class_type_args.get(qn, ()),
                fields=tuple(self.class_fields.get(qn, ())),
            )
            for qn in self.class_lines
        )
        return ModuleSummary(
            self.path, self.module, tuple(self.functions), classes, tuple(self.calls), tuple(self.refs),
            tuple(self.handoffs), exports, tuple(self.values), tuple(self.callables), tuple(self.stars),
            _public_names(tree.body), state_values=tuple(sorted(self.state_values.items())),
            injected=tuple(sorted(self.injected.items())),
            built=tuple(sorted(
                (name, *site) for name, site in module_frame.built.items() if isinstance(module_frame.bindings.get(name), Inst)
            )),
        )

    def _export_callables(self, name: str, values: Iterable[Value]) -> None:
        refs = _refs(v for v in values if isinstance(v, (Sym, Refs)))
        items = tuple(
            exported
            for item in (refs.items if refs else ())
            if (not isinstance(item, Inst) or self._may_be_callable(item)) and (exported := _export(item))
        )
        if items:
            self.callables.append((name, items))

    def _may_be_callable(self, value: Inst) -> bool:
        """Could this object be (or hold) a project function? Not if the standard library made
        it, nor if it is an instance of a type the knowledge base describes."""
        return value.name.partition(".")[0] not in _STDLIB and value.name not in self.catalogue.producers

    def _prebind(self, body: list[ast.stmt]) -> None:
        """Module-level names first, so functions see definitions and imports made below them."""
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.visit_import(stmt)
            elif isinstance(stmt, (*_FUNCS, ast.ClassDef)):
                self.frame.bindings[stmt.name] = Sym(f"{self.module}.{stmt.name}")
            elif isinstance(stmt, ast.Assign) and (name := _lambda_name(stmt)) is not None:
                self.frame.bindings[name] = Sym(f"{self.module}.{name}")
            elif isinstance(stmt, ast.Assign):
                value = self.infer(stmt.value)
                for target in stmt.targets:
                    self.bind(target, value)
                    self._note_built(target, stmt.value, value)
            elif isinstance(stmt, ast.If):
                self._prebind(stmt.body)
                self._prebind(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                self._prebind(stmt.body)
                for handler in stmt.handlers:
                    self._prebind(handler.body)
                self._prebind(stmt.orelse)
                self._prebind(stmt.finalbody)

    def visit_body(self, body: list[ast.stmt]) -> None:
        for position, stmt in enumerate(body):
            self.visit_stmt(stmt)
            rest = body[position + 1:]
            if rest and isinstance(stmt, ast.If) and self._ready_return(stmt, rest):
                # ``if self._index is not None: return self._index`` -- the rest builds it once.
                self.frame.once += 1
                self.visit_body(rest)
                self.frame.once -= 1
                return

    def _bind_loop_item(self, target: ast.expr, iterable: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.frame.payloads[target.id] = loop_item(iterable)
        elif isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name):
            # ``for i, m in enumerate(messages)``: the second name is the item.
            self.frame.payloads[target.elts[1].id] = loop_item(iterable)

    def _lazy_guard(self, test: ast.expr, body: list[ast.stmt]) -> bool:
        """``if self._x is None:`` / ``if not _CACHE:`` / ``if key not in self._memo:`` /
        ``if not path.exists():`` around code that fills what it tests, where that outlives the
        call (an attribute, a module-level name): the block runs on the first call only."""
        if self.frame.kind != "function":
            return False
        guarded = guard_target(test, ready=False)
        if guarded is None or not self._fixed_key(test):
            return False
        if guarded == "<exists>":
            return True  # creates the file it looked for (a download, a cache on disk)
        return self._persistent(guarded) and stores(body, guarded)

    def _ready_return(self, stmt: ast.If, rest: list[ast.stmt]) -> bool:
        if self.frame.kind != "function" or stmt.orelse or not isinstance(stmt.body[-1], ast.Return):
            return False
        guarded = guard_target(stmt.test, ready=True)
        if guarded == "<exists>":
            return True  # ``if path.exists(): return path`` -- the rest makes the file, once
        if waits_until(stmt.test, rest):
            return True  # ``if server_up(): return`` -- the rest starts it and waits until it is up
        return (
            guarded is not None and self._fixed_key(stmt.test) and self._persistent(guarded) and stores(rest, guarded)
        )

    def _fixed_key(self, test: ast.expr) -> bool:
        """A cache looked up by a key made of the call's own arguments or locals (``if query in
        _cache``) fills once per distinct input -- per rollout, as far as anyone can tell. A
        constant key, or one made of module-level names and ``self``, fills once."""
        inner = test.operand if isinstance(test, ast.UnaryOp) else test
        if not (isinstance(inner, ast.Compare) and isinstance(inner.ops[0], (ast.In, ast.NotIn))):
            return True
        for name in (n for n in ast.walk(inner.left) if isinstance(n, ast.Name)):
            if name.id in self.frame.bindings and not isinstance(self.frame.bindings[name.id], SelfRef):
                return False
        return True

    def _persistent(self, guarded: ast.expr) -> bool:
        """Outlives the call: ``self.x``, ``cls.x``, ``Class.x``, or a name not local to it (an
        attribute of a local object, ``conn.ready``, lives as long as the object)."""
        while isinstance(guarded, ast.Attribute):
            guarded = guarded.value
        if not isinstance(guarded, ast.Name):
            return False
        local = self.frame.bindings.get(guarded.id, _UNBOUND) if guarded.id not in self.frame.globals else _UNBOUND
        return local is _UNBOUND or isinstance(local, SelfRef)

    def _module_alias(self, target: ast.expr) -> str | None:
        """``sys.modules["pkg.name"] = other`` (or ``sys.modules[__name__ + ".name"]``) at the
        top of package ``pkg``: a public alias module, ``pkg.name`` answering for ``other``."""
        if self.frame.kind != "module" or not isinstance(target, ast.Subscript):
            return None
        if not (isinstance(owner := self.infer(target.value), Sym) and owner.name == "sys.modules"):
            return None
        key = target.slice
        if isinstance(key, ast.BinOp) and isinstance(key.op, ast.Add) and isinstance(key.left, ast.Name) \
                and key.left.id == "__name__" and isinstance(key.right, ast.Constant):
            key = ast.Constant(f"{self.module}{key.right.value}")
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            return None
        package, _, name = key.value.rpartition(".")
        return name if package == self.module and name.isidentifier() else None

    def visit_stmt(self, node: ast.stmt) -> None:
        if isinstance(node, _FUNCS):
            self.visit_function(node)
        elif isinstance(node, ast.ClassDef):
            self.visit_class(node)
        elif isinstance(node, ast.Assign) and (name := _lambda_name(node)) and self.frame.kind != "class":
            self.visit_lambda(node.value, name=name)
        elif isinstance(node, ast.Assign):
            if self.frame.conditional and any(self._keeps(target) for target in node.targets):
                self._kept_value = node.value
            self.visit_expr(node.value)
            self._kept_value = None
            value = self.infer(node.value)
            elements = self._unpacked(node.value)
            for target in node.targets:
                self.visit_target(target)
                self.bind(target, value)
                self._note_built(target, node.value, value)
                if isinstance(target, ast.Name) and _filled_dict(node.value):
                    self.frame.payloads[target.id] = payload_of_value(node.value)
                if isinstance(target, ast.Name):
                    if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                        self.frame.constants[target.id] = node.value.value
                    else:
                        self.frame.constants.pop(target.id, None)
                if isinstance(value, Sym) and (alias := self._module_alias(target)) is not None:
                    self.frame.bindings[alias] = value  # read as ``from x import y as alias``
                if elements is not None and isinstance(target, ast.Tuple) and len(target.elts) == len(elements):
                    for element, typed in zip(target.elts, elements, strict=True):
                        if typed is not None:
                            self.bind(element, typed)
                if isinstance(target, ast.Subscript) and self._injecting():
                    self._inject(target.slice, value)
                key = state_key(target)
                exported = _stored(value) if key is not None else None
                if exported:
                    # Two different types stored under one key: typed as neither.
                    known = self.state_values.setdefault(key, exported)
                    if known != exported:
                        self.state_values[key] = ""
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.visit_expr(node.value)
            value = self.infer(node.value) if node.value is not None else None
            if value is None or (isinstance(value, Inst) and value.name.removesuffix("()") in _FIELD_SPECIFIERS):
                value = self.annotation_type(node.annotation)
            elif isinstance(value, SelfRef):
                # ``env: AsyncEnv = state.get("env")``: the annotation says what a value read from
                # an attribute or the rollout's state is, where the graph may not find out.
                value = self.annotation_type(node.annotation) or value
            elif not _called(node.value):
                # ``task_class: type[TaskEval] = registry[name]``: what the author declares beats
                # what an item or attribute read guesses; a call written there says what it built.
                value = self._declared(node.annotation) or value
            self.visit_target(node.target)
            if node.value is not None or self.frame.kind == "class" or isinstance(node.target, ast.Attribute):
                self.bind(node.target, value)
                self._note_built(node.target, node.value, value)
            item = self._item_annotation(node.annotation)
            if item is not None:  # ``self.envs: dict[str, DockerEnvironment] = {}``
                owner = self._own_attribute(node.target) or (
                    (self.frame.cls, node.target.id)
                    if self.frame.kind == "class" and self.frame.cls and isinstance(node.target, ast.Name) else None
                )
                if owner is not None:
                    self._set_class_attr(owner[0], f"{owner[1]}{ITEM_SUFFIX}", item)
            if self.frame.kind == "class" and self.frame.cls and isinstance(node.target, ast.Name):
                kind = "scalar" if scalar_annotation(node.annotation) else "container"
                self.class_fields.setdefault(self.frame.cls, []).append((node.target.id, kind))
        elif isinstance(node, ast.AugAssign):
            self.visit_expr(node.value)
            self.visit_target(node.target)
            if isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name):
                self._grow(node.target, self.infer(node.value))  # rewards += [extra]
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.visit_expr(node.iter)
            self.bind(node.target, self._item_type(node.iter))
            self._bind_loop_item(node.target, node.iter)
            repeats = not fixed_iterable(node.iter)  # three literal items are not a loop that adds up
            self.frame.loop_depth += repeats
            self.visit_body(node.body)
            self.frame.loop_depth -= repeats
            self.visit_body(node.orelse)
        elif isinstance(node, ast.While):
            self.frame.loop_depth += 1
            self.visit_expr(node.test)
            self.visit_body(node.body)
            self.frame.loop_depth -= 1
            self.visit_body(node.orelse)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self.visit_expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, self._enter_type(item.context_expr))
            self.visit_body(node.body)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if self.frame.kind != "module":
                self.visit_import(node)
        elif isinstance(node, ast.Return) and node.value is not None:
            self.visit_expr(node.value)
            self.frame.returns.append(self.infer(node.value))
            if isinstance(node.value, ast.Dict) and self._injecting():  # ``return {**tool_args, "env": env}``
                for key, value in zip(node.value.keys, node.value.values, strict=True):
                    if key is not None:
                        self._inject(key, self.infer(value))
        elif isinstance(node, ast.If):
            self.visit_expr(node.test)
            self.frame.conditional += 1
            lazy = self._lazy_guard(node.test, node.body)
            first_turn = not lazy and first_turn_guard(node.test, node.body)
            self.frame.once += lazy
            self.frame.first_turn += first_turn
            tested = param_test(node.test, self.frame.flags)
            guards = self.frame.guards
            guards += [tested] if tested else []
            self.visit_body(node.body)
            self.frame.once -= lazy
            self.frame.first_turn -= first_turn
            if tested:
                guards[-1] = f"not ({tested})"
            self.visit_body(node.orelse)
            del guards[len(guards) - bool(tested):]
            self.frame.conditional -= 1
        elif isinstance(node, ast.Global):
            self.frame.globals.update(node.names)
            for name in node.names:
                self.frame.bindings.pop(name, None)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    self.visit_stmt(child)
                elif isinstance(child, ast.expr):
                    self.visit_expr(child)
                elif isinstance(child, ast.ExceptHandler):
                    if child.type is not None:
                        self.visit_expr(child.type)
                    if child.name:
                        self.frame.bindings[child.name] = None
                        self.frame.untyped.discard(child.name)
                    self.visit_body(child.body)
                elif isinstance(child, ast.match_case):
                    self.visit_body(child.body)

    def _injecting(self) -> bool:
        """Is this the body of a method whose dict the framework calls tools with?"""
        function = self.functions[self.frame.func]
        return (
            self.frame.kind == "function" and function.class_qualname is not None
            and function.name in ARGUMENT_INJECTORS
        )

    def _inject(self, key: ast.expr, value: Value) -> None:
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return
        if isinstance(value, SelfRef) and value.cls == STATE and value.path:
            stored = ".".join((STATE, *value.path))
        else:
            stored = _stored(value)
        if stored:  # two different values under one key: typed as neither
            known = self.injected.setdefault(key.value, stored)
            if known != stored:
                self.injected[key.value] = ""

    def _keeps(self, target: ast.expr) -> bool:
        """Does assigning to ``target`` keep the value beyond this call?"""
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            owner = self.lookup(target.value.id)
            return isinstance(owner, SelfRef) and not owner.path
        return isinstance(target, ast.Name) and self.frame.kind == "function" and target.id in self.frame.globals

    def visit_target(self, target: ast.expr) -> None:
        """Calls inside assignment targets (``x[f()] = ...``) still run."""
        if isinstance(target, (ast.Tuple, ast.List, ast.Starred)):
            for child in ast.iter_child_nodes(target):
                if isinstance(child, ast.expr):
                    self.visit_target(child)
        elif isinstance(target, ast.Subscript):
            if isinstance(target.value, ast.Name):
                self.frame.payloads.pop(target.value.id, None)  # ``response["log"] = ...``: no longer the display
            self.visit_expr(target)
        elif isinstance(target, ast.Attribute):
            self.visit_expr(target.value)  # assigned, not read

    def _item_type(self, iterable: ast.expr) -> Value:
        value = self.infer(iterable)
        if isinstance(value, Inst) and value.name in ITEMS:
            return Inst(ITEMS[value.name], "local")
        if isinstance(value, Refs):
            return value  # any one of the callables
        if isinstance(value, Sym) or (isinstance(value, Inst) and value.name.endswith("()")):
            return _refs((value,))  # a list defined elsewhere, or returned by a call: any of its items
        return None

    def _bind_names(self, target: ast.expr, value: Value) -> None:
        """``bind`` for loop variables: names only, nothing recorded."""
        if isinstance(target, ast.Name):
            self.frame.bindings[target.id] = value
            self.frame.untyped.discard(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._bind_names(elt.value if isinstance(elt, ast.Starred) else elt, None)

    def _enter_type(self, expr: ast.expr) -> Value:
        value = self.infer(expr)
        if isinstance(value, Inst) and value.name in ENTER_RETURNS:
            entered = ENTER_RETURNS[value.name]
            return Inst(entered, "local") if entered else None
        return value

    def visit_import(self, node: ast.Import | ast.ImportFrom) -> None:
        bindings = self.frame.bindings
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bindings[alias.asname] = Sym(self._absolute(alias.name))
                else:
                    top = alias.name.split(".", 1)[0]
                    bindings[top] = Sym(self._absolute(top))
            return
        base = self._absolute(node.module or "")
        if node.level:
            parts = self.package.split(".") if self.package else []
            if node.level > 1:
                parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        for alias in node.names:
            if alias.name == "*":
                if self.frame.kind == "module" and base not in self.stars:
                    self.stars.append(base)  # looked up for names bound nowhere (see lookup)
                continue
            name = f"{base}.{alias.name}" if base else alias.name
            bindings[alias.asname or alias.name] = Sym(RETURNS.get(name, name))  # StrictRedis is Redis

    def _absolute(self, name: str) -> str:
        """An absolute import's module as the project names it (see ``files.module_names``)."""
        top, dot, rest = name.partition(".")
        return self.imports[top] + dot + rest if top in self.imports else name

    def visit_class(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.visit_expr(decorator)
        for base in node.bases:
            self.visit_expr(base)
        qualname = f"{self.frame.qualprefix}{node.name}"
        global_qn = f"{self.module}.{qualname}"
        bases, type_args = [], []
        for base in node.bases:
            if isinstance(base, ast.Subscript):  # ``vf.Toolset[vf.SharedToolsetConfig]``
                arguments = base.slice.elts if isinstance(base.slice, ast.Tuple) else [base.slice]
                type_args.extend(value.name for value in map(self.infer, arguments) if isinstance(value, Sym))
                base = base.value
            value = self.infer(base)
            if isinstance(value, Sym):
                bases.append(value.name)
        self.class_bases[global_qn] = tuple(bases)
        self.class_type_args[global_qn] = tuple(type_args)
        self.class_lines[global_qn] = node.lineno
        self.class_methods.setdefault(global_qn, [])
        self.frame.bindings[node.name] = Sym(global_qn)
        self.frames.append(_Frame("class", self.frame.func, f"{qualname}.", cls=global_qn))
        self.visit_body(node.body)
        for name, value in self.frame.bindings.items():
            if name not in self.class_methods[global_qn] and value is not None:
                self._set_class_attr(global_qn, name, value)
        self.frames.pop()

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        decorators = []
        for decorator in node.decorator_list:
            self.visit_expr(decorator)
            value = self.infer(decorator.func if isinstance(decorator, ast.Call) else decorator)
            decorators.append(value.name if isinstance(value, (Sym, Inst)) else ast.unparse(decorator))
        for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            self.visit_expr(default)
        outer = self.frame
        qualname = f"{outer.qualprefix}{node.name}"
        global_qn = f"{self.module}.{qualname}"
        cls = outer.cls if outer.kind == "class" else None
        index = len(self.functions)
        self.functions.append(
            Function(
                qualname=qualname,
                name=node.name,
                line=node.lineno,
                is_async=isinstance(node, ast.AsyncFunctionDef),
                kind="function",
                class_qualname=cls[len(self.module) + 1 :] if cls else None,
                decorators=tuple(decorators),
                col=self._col(node.lineno, node.col_offset),
                params=tuple(arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)),
                defaults=constant_defaults(node.args),
            )
        )
        if cls is not None:
            self.class_methods[cls].append(node.name)
            outer.bindings.pop(node.name, None)
            if not PROPERTIES.isdisjoint(decorators):
                self.class_properties.setdefault(cls, set()).add(node.name)
        else:
            outer.bindings[node.name] = Sym(global_qn)
        # Flags are parameters with a constant default, never bound again in the body (a loop
        # may bind one after the test): their tests are the ones the callers settle.
        flags = frozenset(name for name, _ in self.functions[index].defaults) - stored_names(node.body)
        frame = _Frame("function", index, f"{qualname}.<locals>.", cls=cls, flags=flags)
        params = [*node.args.posonlyargs, *node.args.args]
        frame.params = frozenset(arg.arg for arg in [*params, *node.args.kwonlyargs]) - stored_names(node.body)
        static = "builtins.staticmethod" in decorators
        for position, arg in enumerate([*params, *node.args.kwonlyargs]):
            if position == 0 and cls is not None and not static:
                frame.bindings[arg.arg] = SelfRef(cls, ())
            elif arg.annotation is None and arg.arg in PASSED_NAMES:
                frame.bindings[arg.arg] = Inst(f"{PASSED}.{arg.arg}", "param")  # what a framework hands a reward
            else:
                frame.bindings[arg.arg] = self.annotation_type(arg.annotation)
                if _vague(frame.bindings[arg.arg]):
                    frame.untyped.add(arg.arg)
        for arg in (node.args.vararg, node.args.kwarg):
            if arg is not None:
                frame.bindings[arg.arg] = None
        # Nested functions first, so a closure sees a sibling defined below it (``def ready():
        # init()`` before ``def init(): ...``): it runs after both are defined.
        for stmt in node.body:
            if isinstance(stmt, _FUNCS):
                frame.bindings.setdefault(stmt.name, Sym(f"{self.module}.{qualname}.<locals>.{stmt.name}"))
        declared = self._declared(node.returns)  # names in annotations mean what they mean outside
        self.frames.append(frame)
        self.visit_body(node.body)
        self.frames.pop()
        self._export_returns(f"{qualname}()", frame.returns, declared)

    def _export_returns(self, key: str, returned: list[Value], declared: Value = None) -> None:
        """What a function returns, for other modules, keyed by its call (``make()``,
        ``Env.client()``): the one object every ``return`` builds; else the type its signature
        declares (``-> EmulatorInstance`` over ``return await self.queue.get()``); else the one
        attribute of the receiver every ``return`` gives (``return self._http``). And the
        functions it may return (``return format_reward``, ``return [a, b]``)."""
        named = {
            value.name if isinstance(value, Inst) else _export(value) if isinstance(value, SelfRef) else None
            for value in returned
        }
        built = len(named) == 1 and None not in named and all(isinstance(value, Inst) for value in returned)
        if not built and isinstance(declared, (Inst, Sym)):
            self.values.append((key, declared.name))
        elif len(named) == 1 and None not in named:
            self.values.append((key, named.pop()))
        self._export_callables(key, returned)

    def _item_annotation(self, annotation: ast.expr) -> Value:
        """``dict[str, X]``, ``list[X]``, ``Mapping[str, X]`` -> an instance of ``X``, the items' type."""
        if not isinstance(annotation, ast.Subscript):
            return None
        outer = self.infer(annotation.value)
        if not (isinstance(outer, Sym) and outer.name in _CONTAINER_ANNOTATIONS):
            return None
        arguments = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        return self._declared(arguments[-1])

    def _declared(self, annotation: ast.expr | None) -> Value:
        """The type an annotation declares, when it says more than a builtin or ``typing`` does
        (``-> dict``, ``-> Any``, ``-> Iterator[str]`` name no receiver worth a lookup)."""
        value = self.annotation_type(annotation)
        if isinstance(value, (Inst, Sym)) and value.name.partition(".")[0] not in _VAGUE_ANNOTATIONS:
            return value
        return None

    # -- expressions ------------------------------------------------------------------------

    def visit_expr(self, node: ast.expr, awaited: bool = False) -> None:
        if isinstance(node, ast.Call):
            self.visit_call(node, awaited)
        elif isinstance(node, ast.Await):
            self.visit_expr(node.value, awaited=True)
        elif isinstance(node, ast.Lambda):
            self.visit_lambda(node)
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            self.visit_comprehension(node)
        elif isinstance(node, ast.NamedExpr):
            self.visit_expr(node.value)
            self.bind(node.target, self.infer(node.value))
        elif isinstance(node, (ast.Name, ast.Constant)):
            return
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Load):
                if isinstance(node.value, ast.Name):
                    self._note_read(node, node.value)
                if node.attr in self.catalogue.read_names:
                    self.record_property_read(node)
            self.visit_expr(node.value)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.visit_expr(child)
                elif isinstance(child, ast.comprehension):  # pragma: no cover - handled above
                    self.visit_expr(child.iter)

    def visit_call(self, node: ast.Call, awaited: bool) -> None:
        self.visit_expr(node.func.value if isinstance(node.func, ast.Attribute) else node.func)
        func_value = self.infer(node.func)
        target = self.record_call(node, awaited, func_value)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        self_target = (func_value.cls, func_value.path) if isinstance(func_value, SelfRef) and func_value.path else None
        offload_functions = self.catalogue.offload
        offload_at = offload_functions.get(target) if target else None
        if offload_at is None and method in OFFLOAD_METHODS and target not in offload_functions:
            offload_at = OFFLOAD_METHODS[method]
        consumer = consumer_name(target, method)
        consumes = consumer is not None
        if consumes:
            self._mark_consumed(node, consumer)
        # Hand-overs first: a reward registered in the same call (``funcs=[...]``) is tied to them.
        for keyword in node.keywords:
            if keyword.arg in HANDOFF_SLOTS:
                self._record_handoff(node, keyword, _CallContext(target, method, self_target, keyword.arg))
        handed = self._built.get(id(node), ()) + (func_value.handed if isinstance(func_value, Inst) else ())
        for position, arg in enumerate(node.args):
            inner = arg.value if isinstance(arg, ast.Starred) else arg
            context = _CallContext(target, method, self_target, str(position), handed)
            self._visit_argument(inner, offloaded=position == offload_at, call=context, awaited=consumes)
        for keyword in node.keywords:
            offloaded = keyword.arg in OFFLOAD_KEYWORDS and offload_at is not None
            context = _CallContext(target, method, self_target, keyword.arg or "**", handed)
            self._visit_argument(keyword.value, offloaded=offloaded, call=context, awaited=consumes)
        # Looked up only for calls passing a program keyword: public_name walks the name's prefixes.
        if target is not None and any(keyword.arg in PROGRAM_KEYWORDS for keyword in node.keywords):
            callee = public_name(target)
            if callee in PROGRAM_CALLEES:
                self._record_program(node, callee, method, self_target)
        if method in _MUTATORS and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            self.frame.payloads.pop(node.func.value.id, None)
        if method in _GROWING and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            arg = node.args[-1] if node.args else None
            added = self.infer(arg) if arg is not None else None
            if added is not None:
                self._grow(node.func.value, added)

    def _mark_consumed(self, node: ast.Call, consumer: str) -> None:
        """Remember which calls among ``node``'s arguments make the coroutines it consumes,
        also one per item: ``gather(*(fetch(u) for u in urls))``."""
        for arg in (*node.args, *(keyword.value for keyword in node.keywords)):
            inner = arg.value if isinstance(arg, ast.Starred) else arg
            if isinstance(inner, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
                inner = inner.elt
            if isinstance(inner, ast.Call):
                self._consumed[id(inner)] = consumer

    def _record_handoff(self, call_node: ast.Call, keyword: ast.keyword, call: _CallContext) -> None:
        """``JudgeRubric(judge_client=X)``: X built here, a value imported from elsewhere
        (``JUDGE``, ``clients.JUDGE``), a factory's result, or an attribute of ``self``. The
        object the call builds keeps X (``rubric.judge_client``); so does ``self`` in a subclass
        handing X to ``super().__init__``."""
        value = self.infer(keyword.value)
        if isinstance(value, SelfRef) and value.path and SUPER not in value.path:
            name, self_ref = "", (value.cls, value.path)
        elif isinstance(value, (Inst, Sym)):
            name, self_ref = value.name, None
        else:
            return
        if call.self_ref is not None and call.self_ref[1] == (SUPER, "__init__") and isinstance(value, (Inst, Sym, SelfRef)):
            self._set_class_attr(call.self_ref[0], HANDOFF_ATTRIBUTES[keyword.arg or ""], value)
        index = len(self.handoffs)
        self._built[id(call_node)] = (*self._built.get(id(call_node), ()), index)
        self._handed_values[index] = value
        node = keyword.value
        self.handoffs.append(
            Handoff(
                self.frame.func, call.target, call.slot, name, node.lineno,
                self._col(node.lineno, node.col_offset), node.end_lineno or node.lineno,
                self._col(node.end_lineno or node.lineno, node.end_col_offset or 0),
                named=isinstance(value, Sym), self_ref=self_ref, passed_to_self=call.self_ref,
                built=self._built_at(node),
            )
        )

    def _record_program(
        self, node: ast.Call, target: str, method: str | None, self_target: tuple[str, tuple[str, ...]] | None
    ) -> None:
        """``ProgramConfig(fn="pkg.module:run", sandbox=True)``: the function the string names,
        looked up like the framework does (a bare name in this module)."""
        keywords = {keyword.arg: keyword.value for keyword in node.keywords if keyword.arg}
        for (callee, slot_name), slot in PROGRAM_SLOTS.items():
            value = keywords.get(slot_name)
            if callee != target or not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                continue
            module, colon, attribute = value.value.partition(":")
            name = f"{module}.{attribute}" if colon else f"{self.module}.{value.value}"
            away = keywords.get(slot.away)
            moved = away is not None and not (isinstance(away, ast.Constant) and away.value in (None, False))
            self.refs.append(
                FunctionRef(
                    self.frame.func, name, value.lineno, False, target, None, slot_name, method, self_target,
                    away=slot.context if moved else None,
                )
            )

    def _grow(self, receiver: ast.Name, added: Value) -> None:
        """``funcs.append(f)``, ``funcs.extend(more)``, ``funcs += [f]`` on a list of callables
        (``more`` may be a list defined elsewhere: it stands for its items)."""
        current = self.lookup(receiver.id)
        if isinstance(current, (Refs, type(None))) and (grown := _refs((current, added))) is not None:
            self.frame.bindings[receiver.id] = grown

    def _visit_argument(self, arg: ast.expr, offloaded: bool, call: _CallContext, awaited: bool) -> None:
        if isinstance(arg, (ast.List, ast.Tuple)):
            self.record_ref(arg, offloaded, call)
            for element in arg.elts:
                element = element.value if isinstance(element, ast.Starred) else element
                if isinstance(element, ast.Lambda):
                    self.visit_lambda(element, offloaded=offloaded, handed=call)
                else:
                    self.visit_expr(element)
        elif isinstance(arg, (ast.Name, ast.Attribute, ast.ListComp, ast.GeneratorExp)):
            self.record_ref(arg, offloaded, call)
            self.visit_expr(arg)
        elif offloaded and isinstance(arg, ast.Call) and arg.args:
            wrapper = self.infer(arg.func)
            if isinstance(wrapper, Sym) and wrapper.name in CALLABLE_WRAPPERS:
                # functools.partial(fn, ...) handed to an executor: fn runs off the loop.
                self.record_call(arg, awaited=False, func_value=wrapper)
                self._visit_argument(arg.args[0], offloaded=True, call=call, awaited=False)
                for rest in (*arg.args[1:], *(k.value for k in arg.keywords)):
                    self.visit_expr(rest)
                return
            self.visit_expr(arg, awaited=awaited)
        elif isinstance(arg, ast.Lambda):
            self.visit_lambda(arg, offloaded=offloaded, handed=call)
        else:
            if isinstance(arg, ast.Call):  # ``partial(reward, mode="b")``, ``parser.get_format_reward_func()``
                self.record_ref(arg, offloaded, call)
            self.visit_expr(arg, awaited=awaited)

    def visit_lambda(
        self, node: ast.Lambda, offloaded: bool = False, name: str | None = None, handed: _CallContext | None = None
    ) -> None:
        for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            self.visit_expr(default)
        outer = self.frame
        qualname = f"{outer.qualprefix}<lambda>"
        index, loop_depth = outer.func, outer.loop_depth
        col = self._col(node.lineno, node.col_offset)
        handed_over = False
        if name is not None:  # ``f = lambda: ...`` is ``def f(): ...``: hot only where it is called
            qualname, index, loop_depth = f"{outer.qualprefix}{name}", len(self.functions), 0
            self.functions.append(Function(qualname, name, node.lineno, False, "function", col=col))
            outer.bindings[name] = Sym(f"{self.module}.{qualname}")
        elif offloaded:  # runs in a worker: a function of its own, which nothing makes hot
            index, loop_depth = len(self.functions), 0
            self.functions.append(Function(qualname, "<lambda>", node.lineno, False, "lambda", col=col))
        elif handed is not None:
            # Handed to a call: assumed to run inline there (a sort key), so its calls stay the
            # enclosing function's; it is also a function of its own, which the project graph
            # makes a root when the call registers it with a framework (``add_reward_func``).
            handed_over = True
            own = len(self.functions)
            self.functions.append(Function(qualname, "<lambda>", node.lineno, False, "function", col=col))
            self.refs.append(
                FunctionRef(
                    outer.func, None, node.lineno, False, handed.target, None, handed.slot, handed.method,
                    handed.self_ref, function=own, handed=handed.handed,
                )
            )
            self._lambdas.append((own, outer.loop_depth))
        # Any other lambda (a sort key, a callback) is assumed to run where it is written, on
        # the enclosing function's thread: its calls are that function's calls.
        frame = _Frame(
            "function", index, f"{qualname}.<locals>.", cls=outer.cls if outer.kind != "class" else None,
            loop_depth=loop_depth,
        )
        for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg):
            if arg is not None:
                frame.bindings[arg.arg] = None
        self.frames.append(frame)
        self.visit_expr(node.body)
        self.frames.pop()
        if handed_over:
            self._lambdas.pop()

    def visit_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        first, *rest = node.generators
        self.visit_expr(first.iter)  # evaluated once, in the enclosing scope
        saved, saved_items = dict(self.frame.bindings), dict(self.frame.payloads)
        self.frame.loop_depth += 1
        self.bind(first.target, self._item_type(first.iter))
        self._bind_loop_item(first.target, first.iter)
        for condition in first.ifs:
            self.visit_expr(condition)
        for generator in rest:
            self.visit_expr(generator.iter)
            self.bind(generator.target, self._item_type(generator.iter))
            self._bind_loop_item(generator.target, generator.iter)
            for condition in generator.ifs:
                self.visit_expr(condition)
        if isinstance(node, ast.DictComp):
            self.visit_expr(node.key)
            self.visit_expr(node.value)
        else:
            self.visit_expr(node.elt)
        self.frame.loop_depth -= 1
        self.frame.payloads = saved_items
        self.frame.bindings = saved  # comprehension variables do not leak

    # -- settling self.<attr> ---------------------------------------------------------------

    def _class_chain(self, cls: str) -> list[str]:
        """``cls`` and its bases defined in this module, nearest first (asked once the whole
        module has been read, so kept: a deep hierarchy asks for every class's chain)."""
        return linear_chain(cls, lambda name: (name, self.class_bases.get(name, ())), self._chains,
                            known=self.class_lines.__contains__)

    def resolve_self(self, cls: str, path: tuple[str, ...], depth: int = 0) -> tuple[str | None, bool]:
        """-> (dotted target, settled?). Unsettled refs wait for the project-wide resolver, as do
        results this module cannot name (``pkg.make()``)."""
        skip, path = split_super(path)
        if not path or depth > _MAX_SELF_HOPS:
            return None, True
        attr, rest = path[0], path[1:]
        chain = self._class_chain(cls)[skip:]
        if attr.endswith(ITEM_SUFFIX) and not any(attr in self.class_attrs.get(owner, {}) for owner in chain):
            attr = attr.removesuffix(ITEM_SUFFIX)  # nothing stored per key here: the container's own type
        name = attr.removesuffix("()")
        for owner in chain:
            attrs = self.class_attrs.get(owner, {})
            if name in self.class_methods.get(owner, ()):
                is_property = name in self.class_properties.get(owner, ())
                if attr == name and not is_property:
                    return (f"{owner}.{attr}" if not rest else None), True
                if attr != name and is_property:
                    return None, True  # calling what a property returns
                # ``self.make_client()``, or a property read: what the method returns
                returned = self._method_returns.get(f"{owner}.{name}()")
                if returned is None:
                    return extend(f"{owner}.{name}()", rest), True  # the graph may know more
                if returned.startswith(SELF):  # ``return self._http``
                    return self.resolve_self(cls, (*returned.split(".")[1:], *rest), depth + 1)
                return extend(returned, rest), True
            if attr in attrs:
                value = attrs[attr]
                if isinstance(value, (Inst, Sym)):
                    return extend(value.name, rest), True
                if isinstance(value, SelfRef) and value.path:  # ``self.pages = self.db.collection()``
                    return self.resolve_self(value.cls, (*value.path, *rest), depth + 1)
                return None, True
        return None, False

    def _settle_reads(self) -> None:
        """Property reads become calls of the getter; reads of plain attributes and methods are
        dropped; reads this module cannot settle (a base class elsewhere) are left to the graph."""
        for (caller, cls, attr, in_loop, lambdas), node in self._reads.items():
            target, self_ref = None, None
            for owner in self._class_chain(cls):
                if attr in self.class_properties.get(owner, ()):
                    target = f"{owner}.{attr}"
                    break
                if attr in self.class_attrs.get(owner, {}) or attr in self.class_methods.get(owner, ()):
                    break
            else:
                if self._closed(cls):
                    continue  # every base is known here: an attribute set some other way
                self_ref = (cls, (attr,))
            if target is None and self_ref is None:
                continue
            self.calls.append(
                CallSite(
                    caller, target, None, node.lineno, self._col(node.lineno, node.col_offset),
                    node.end_lineno or node.lineno, self._col(node.end_lineno or node.lineno, node.end_col_offset or 0),
                    in_loop=in_loop, self_ref=self_ref, read=True, lambdas=lambdas,
                )
            )

    def _closed(self, cls: str) -> bool:
        """Every class ``cls`` inherits from is defined in this module (or is ``object``)."""
        return all(
            base in self.class_lines or base == "builtins.object"
            for owner in self._class_chain(cls)
            for base in self.class_bases.get(owner, ())
        )

    def _settle_self_refs(self) -> None:
        for position in self.pending:
            site = self.calls[position]
            cls, path = site.self_ref
            if site.property_read:  # the receiver resolved; the property named as written, not as read
                receiver, settled = self.resolve_self(cls, path[:-1])
                target = f"{receiver}.{path[-1]}" if receiver else None
            else:
                target, settled = self.resolve_self(cls, path)
            if not settled:
                continue
            if site.property_read:
                api = self.catalogue.match_read(target)
            else:
                api = self.catalogue.match(target, site.method) if target or site.method else None
            if api is not None and not api.blocks(site.awaited, site.keywords, site.argument):
                api = None
            self.calls[position] = replace(
                site, target=target, self_ref=None, api=api.pattern if api else None, origin="self"
            )
        for position, ref in enumerate(self.refs):
            if ref.self_ref is not None:
                target, settled = self.resolve_self(*ref.self_ref)
                if settled:
                    self.refs[position] = replace(ref, target=target, self_ref=None)
        for position, handoff in enumerate(self.handoffs):
            if handoff.self_ref is not None:
                target, settled = self.resolve_self(*handoff.self_ref)
                if settled:
                    self.handoffs[position] = replace(handoff, value=target or "", self_ref=None)


_CONFLICT = Sym("<conflicting assignments>")
_UNBOUND = object()  # a name with no binding in the function: a global, a builtin
_MAX_SELF_HOPS = 8
#: List methods that add callables to a list: ``funcs.append(f)``.
_GROWING = frozenset({"append", "extend", "insert"})
#: Methods that change a mapping or list in place: what it was bound to no longer says its size.
_MUTATORS = frozenset({*_GROWING, "update", "setdefault", "__setitem__", "__ior__"})


#: Offload functions whose awaited result is what the function handed to them returns.
_THREAD_RESULTS = frozenset(
    {"asyncio.to_thread", "anyio.to_thread.run_sync", "trio.to_thread.run_sync",
     "starlette.concurrency.run_in_threadpool", "fastapi.concurrency.run_in_threadpool"}
)


def _runs_in_thread(node: ast.Call) -> bool:
    """A call of one of _THREAD_RESULTS that names the function it runs (not ``*args``)."""
    return bool(node.args) and not isinstance(node.args[0], ast.Starred)


def _called_in_thread(node: ast.Call) -> ast.Call:
    """``f(*args, **kwargs)`` for ``asyncio.to_thread(f, *args, **kwargs)`` (for inference only)."""
    return ast.copy_location(ast.Call(func=node.args[0], args=node.args[1:], keywords=node.keywords), node)


def _filled_dict(node: ast.expr) -> bool:
    """A dict display with keys of its own (``{}`` is filled later; ``{**other}`` is as large as other)."""
    return isinstance(node, ast.Dict) and bool(node.keys) and all(key is not None for key in node.keys)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _refs(values: Iterable[Value]) -> Refs | None:
    """The callables among ``values``, lists spliced in (``[*REWARDS, extra]``)."""
    items: list[Sym | SelfRef | Inst] = []
    for value in values:
        if isinstance(value, Refs):
            items.extend(value.items)  # flat: every Refs is built here
        elif value is not None:
            items.append(value)
    return Refs(tuple(dict.fromkeys(items))) if items else None


def _export(value: Sym | SelfRef | Inst) -> str | None:
    """An item of a :class:`Refs` as other modules read it: a dotted name (``<self>.x`` for a
    method's receiver), or ``None`` for ``super()`` paths, which name no value of their own."""
    if isinstance(value, SelfRef):
        return ".".join((SELF, *value.path)) if value.path and SUPER not in value.path else None
    return value.name


def _may_be_project(target: str | None) -> bool:
    """Could this call target be a project function (whose parameters its arguments type)?"""
    return target is not None and target.partition(".")[0] not in _STDLIB and not target.startswith((PASSED, PARAM))


def _vague(value: Value) -> bool:
    """A parameter's type says nothing a receiver could be looked up by: none, or ``Any``-like."""
    return value is None or (isinstance(value, Inst) and value.name.partition(".")[0] in _VAGUE_ANNOTATIONS)


def _called(node: ast.expr) -> bool:
    """A call, awaited or not: its value is what the callee builds or returns."""
    return isinstance(node.value if isinstance(node, ast.Await) else node, ast.Call)


def _stored(value: Value) -> str | None:
    """A value stored in the rollout's state, as the project graph reads it: a type, or a path
    from an instance of the storing method's class (``state["env"] = self.make_env()`` is
    ``pkg.Env().make_env()``, whatever ``make_env`` turns out to return)."""
    if isinstance(value, (Inst, Sym)):
        return value.name
    if isinstance(value, SelfRef) and value.path and value.cls != STATE and SUPER not in value.path:
        return ".".join((f"{value.cls}()", *value.path))
    return None


def _lambda_name(node: ast.Assign) -> str | None:
    """``name = lambda ...: ...``: the name, else ``None``."""
    if isinstance(node.value, ast.Lambda) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


def _public_names(body: list[ast.stmt]) -> tuple[str, ...] | None:
    """``__all__`` when it is built from literal lists of names (``=``, ``+=``, ``.extend``,
    ``.append``); ``None`` when there is none, or it is computed."""
    names: list[str] | None = None
    for stmt in body:
        value: ast.expr | None = None
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                names, value = [], stmt.value
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__":
            value = stmt.value
        elif (
            isinstance(stmt, ast.Expr)
            and isinstance(call := stmt.value, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "__all__"
            and call.func.attr in ("extend", "append")
            and len(call.args) == 1
        ):
            value = ast.List([call.args[0]], ast.Load()) if call.func.attr == "append" else call.args[0]
        else:
            continue
        if names is None:
            return None  # grown before it was set: not something to read statically
        if not isinstance(value, (ast.List, ast.Tuple)) or not all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
        ):
            return None
        names.extend(e.value for e in value.elts)
    return tuple(names) if names is not None else None



def index_source(
    source: str, path: str, module: str, package: str, catalogue: Catalogue, imports: tuple[tuple[str, str], ...] = ()
) -> ModuleSummary:
    """Summarise one file. Raises :class:`IndexError_` with a one-line message on bad input.
    ``imports`` maps top-level names to the project modules they mean from this file."""
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        if exc.lineno is None:  # not a grammar error: null bytes (other versions: ValueError)
            raise IndexError_(f"cannot parse: {exc.msg}") from None
        # The grammar is the running interpreter's: a file written for a newer Python (``type X =
        # ...``, 3.12) fails here, so the message says which one read it.
        raise IndexError_(f"syntax error at line {exc.lineno}: {exc.msg} (read as Python {_PYTHON})") from None
    except ValueError as exc:
        raise IndexError_(f"cannot parse: {exc}") from None
    except (MemoryError, RecursionError):  # the parser's own stack overflows on absurd nesting
        raise IndexError_("expression nesting too deep to parse") from None
    try:
        return _Indexer(source, path, module, package, catalogue, imports).run(tree)
    except RecursionError:
        raise IndexError_("expression nesting too deep to analyse") from None
