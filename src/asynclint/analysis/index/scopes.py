"""Positions and scopes: the frames of the walk, what a name is bound to and binding it; and the
state every part of the walk shares (:class:`IndexerState`)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar

from asynclint.analysis.index.argfacts import Known
from asynclint.analysis.index.bodies import Bodies
from asynclint.analysis.index.diskcache import DiskCaches
from asynclint.analysis.index.helpers import BUILTIN_NAMES, CONFLICT, FUNCTION_DEFS, NEWLINE
from asynclint.analysis.index.loops import LoopNest, WorkLoop
from asynclint.analysis.index.loopwalk import function_loops
from asynclint.analysis.index.records import CallFacts, CallSite, Function, FunctionRef, Handoff
from asynclint.analysis.index.rowtests import RowTests
from asynclint.analysis.index.values import ITEM_SUFFIX, CallPart, Inst, Marker, Rooted, SelfPath, SelfRef, Sym, Value
from asynclint.analysis.index.work import ModuleLoops
from asynclint.knowledge.api import BlockingApi
from asynclint.knowledge.blocking import BUILT, BUILT_FIRST
from asynclint.knowledge.catalogue import Catalogue

Comprehension = ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
_Placed = TypeVar("_Placed", LoopNest, WorkLoop)


def _placed(records: list[_Placed], places: dict[tuple[int, int], tuple[tuple[str, ...], bool]]) -> list[_Placed]:
    """``records`` with the tests around each one's loop (see :attr:`Frame.places`)."""
    found = []
    for record in records:
        guards, once = places.get((record.line, record.col), ((), False))
        found.append(replace(record, guards=guards, once=once) if guards or once else record)
    return found


@dataclass(frozen=True)
class CallContext:
    """The call an argument is passed to, and where in it."""

    target: str | None
    method: str | None
    self_ref: SelfPath | None
    slot: str
    handed: tuple[int, ...] = ()  # hand-overs made by the call or to the object it is made on
    #: The call's keywords that change how the framework runs what it is handed (FunctionRef.settings).
    settings: tuple[tuple[str, str], ...] = ()

    def hands(
        self, caller: int, target: str | None, self_ref: SelfPath | None, line: int, offloaded: bool
    ) -> FunctionRef:
        """The callable ``target`` (or the one at ``self_ref``), written in function ``caller`` at
        ``line``, handed to this call."""
        return FunctionRef(
            caller,
            target,
            line,
            offloaded,
            self.target,
            self_ref,
            self.slot,
            self.method,
            self.self_ref,
            handed=self.handed,
            settings=self.settings,
        )


@dataclass
class Frame:
    kind: str  # module | class | function
    func: int  # index of the enclosing Function (class frames keep their parent's)
    qualprefix: str  # prefix for definitions made in this frame
    bindings: dict[str, Value] = field(default_factory=dict)
    cls: str | None = None  # global qualname of the class this frame defines / method belongs to
    loop_depth: int = 0
    #: The loops around the current statement, innermost last: how much each adds to
    #: ``loop_depth``, its body's statements that leave it (helpers.loop_exits), and what it goes
    #: over, all of it, as payload evidence (``argfacts.loop_source``; a ``while`` loop's unknown).
    loops: list[tuple[int, dict[int, bool], tuple[str, str]]] = field(default_factory=list)
    returns: list[Value] = field(default_factory=list)  # the values it returns
    #: Per ``return``, the values of a tuple it returns (``return model, processor``), else what it returns.
    elements: list[tuple[Value, ...] | ast.expr] = field(default_factory=list)
    #: The payloads its ``return`` statements give (see ModuleSummary.returned).
    returned: list[tuple[str, str]] = field(default_factory=list)
    globals: set[str] = field(default_factory=set)  # names declared ``global`` here
    conditional: int = 0  # depth of ``if`` statements around the current statement
    once: int = 0  # depth of lazy initialisations around it (see _lazy_guard)
    instance_once: int = 0  # of those, the ones of an attribute of ``self`` (see guards.instance_guard)
    cache_miss: int = 0  # of those, the miss paths of caches on disk (see diskcache.cache_miss)
    first_turn: int = 0  # depth of per-rollout initialisations around it (see _first_turn_guard)
    last_turn: int = 0  # depth of tests that the rollout has ended around it (see terminal_guard)
    failing: int = 0  # depth of ``raise`` statements and raising ``except`` handlers around it
    fallback: int = 0  # depth of code that runs only when an attempt before it raised (see visit_body)
    requires: str = ""  # past ``if self.<attr> is None: raise`` (see CallFacts.requires)
    own: tuple[ast.stmt, ...] = ()  # the function's own statements (not those of a block in it)
    #: What a name holds, as payload evidence (``argfacts.payload_of``): a loop variable's items,
    #: or the value it was bound to when that decides its size (``text = reply.content``,
    #: ``response = {"ok": False, "grid": grid}``, ``history = state["completion"]``) or is a
    #: parameter passed on (``s = arg.strip()``); and the line of that binding.
    payloads: dict[str, tuple[str, str]] = field(default_factory=dict)
    bound_at: dict[str, int] = field(default_factory=dict)
    #: Parameters annotated as a collection of scalars (``systems: list[str]``): each item a
    #: loop takes from one is a few bytes (``annotations.scalar_items``).
    scalar_items: frozenset[str] = frozenset()
    #: Locals bound to a dict display: each string key -> what it was given, typed (``snapshot =
    #: {"world": World.model_validate(w)}``: ``snapshot["world"]`` is a ``World``), until the name
    #: is bound again or an item of it is set.
    fields: dict[str, dict[str, Value]] = field(default_factory=dict)
    #: Those locals -> the display itself (a row's ``"info": info`` puts its fields in the row).
    displays: dict[str, ast.Dict] = field(default_factory=dict)
    #: Locals unpacked into a class's construction (``world = WorldState(**data)``) -> that class:
    #: the mapping holds its fields (CallFacts.unpacked), until the name is bound again.
    unpacked: dict[str, str] = field(default_factory=dict)
    #: Names bound to a string constant (an SQL statement written once, run later by name).
    constants: dict[str, str] = field(default_factory=dict)
    #: Names bound to a lookup in a dict (``result = self._cache.get(key)``): a later ``if result
    #: is None:`` tests whether that dict holds the key (see Conditions._lazy_guard).
    lookups: dict[str, tuple[ast.expr, ast.expr]] = field(default_factory=dict)
    state_ready: list[str] = field(default_factory=list)  # see CallFacts.state_ready
    #: The statement the last ``execute`` here ran (``None``: built at run time): the rows a
    #: ``fetchall`` reads are that statement's, evaluated while they are fetched.
    statement: str | None = None
    #: The objects a ``select`` here waited for, as written (``self.process.stdout``) -> the name
    #: its result's first list is bound to (``ready, _, _ = select.select(...)``; "" when none):
    #: past a test that this list is not empty, a line read from one is already in the pipe
    #: (CallFacts.ready). ``waiting``: the last such ``select`` call and what it waited for, until
    #: its assignment binds the result; ``known_nonempty``: the names known to be non-empty here.
    selected: dict[str, str] = field(default_factory=dict)
    waiting: tuple[int, tuple[str, ...]] = (0, ())
    known_nonempty: set[str] = field(default_factory=set)
    #: Names bound to a path in an installed tree -> what locates it (Recording.installed_root): a
    #: walk rooted there goes over thousands of files.
    installed: dict[str, str] = field(default_factory=dict)
    #: Names bound by a ``with`` item to an exit stack (``knowledge.blocking.EXIT_STACKS``): what
    #: is entered on one is undone where that block ends.
    stacks: set[str] = field(default_factory=set)
    #: The flag tests of the ``if``s around the current statement (see CallSite.guards), and
    #: the flags they may read: parameters with a constant default never bound again.
    guards: list[str] = field(default_factory=list)
    flags: frozenset[str] = frozenset()
    #: The parameters an ``if`` test may read for the graph to judge per caller (CallSite.guards):
    #: the flags, and every other parameter never bound again but ``self``/``cls`` -- one call
    #: chain may pass a constant (``use_clip=False``) where another passes another.
    testable: frozenset[str] = frozenset()
    #: Names the function binds to ``None`` somewhere (flags.none_bound): see CallFacts.nullable.
    nullable: frozenset[str] = frozenset()
    #: Parameters of nothing more informative than ``Any`` that still hold what the caller passed.
    untyped: set[str] = field(default_factory=set)
    #: Loop variables over one of those parameters (``for rule in pipeline``) -> the parameter: a
    #: call of one runs an item of what the callers hand (``CallSite.param`` ``(pipeline, <item>)``).
    param_items: dict[str, str] = field(default_factory=dict)
    #: Parameters annotated with a type worth a lookup (``validator: ValidatorClient | None``) -> that
    #: type: a fallback read the graph may not resolve (``validator = state.get("validator")``) is
    #: what the annotation declares, as for an annotated assignment.
    declared: dict[str, Value] = field(default_factory=dict)
    #: Parameters never bound again in the body: they hold what the caller passed.
    params: frozenset[str] = frozenset()
    #: Parameters not bound again so far in the walk (``outputs = json.loads(outputs)`` still reads
    #: what the caller passed): a payload that is one of them is sized by what the callers hand it.
    unbound: set[str] = field(default_factory=set)
    #: Names bound to what a call written here built (``client = OpenAI()``) -> that call's
    #: (line, column): where an object handed over later was constructed.
    built: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: A loop was entered inside another (or over ``itertools.permutations``...): the function may
    #: hold a loop nest, which :func:`asynclint.analysis.index.loopwalk.function_loops` then looks for.
    nested: bool = False
    #: It has a loop of its own (``for``, ``while``, a comprehension): its trip counts are read
    #: (:func:`asynclint.analysis.index.loopwalk.function_loops`).
    looped: bool = False
    #: Its loops' positions (line, 1-based character column) -> the flag tests around each and
    #: whether it sits in a lazy initialisation (``WorkLoop.guards``/``once``, ``LoopNest``'s too).
    places: dict[tuple[int, int], tuple[tuple[str, ...], bool]] = field(default_factory=dict)

    @property
    def instance_once_only(self) -> bool:
        """Inside lazy initialisations that all test an attribute of ``self``
        (``CallSite.instance_once``)."""
        return self.once > 0 and self.instance_once == self.once


class IndexerState:
    """What every part of the :class:`~asynclint.analysis.index.walker.Indexer` may use of the
    others: the state its ``__init__`` sets up, and the methods one part calls on another.

    Annotations only, for the type checker: nothing here exists at run time (the attributes are
    set by ``Indexer.__init__``, where their meanings are written; the methods are those of the
    parts named beside them), so the parts inherit no behaviour from it. A part that changes one
    of these methods' signatures changes the stub too, or mypy reports the override."""

    source: str
    path: str
    module: str
    package: str
    catalogue: Catalogue
    imports: dict[str, str]
    functions: list[Function]
    calls: list[CallSite]
    refs: list[FunctionRef]
    handoffs: list[Handoff]
    nests: list[LoopNest]
    #: Every function's loops with their trip counts, and what bounds them at module level
    #: (:mod:`asynclint.analysis.index.work`).
    work_loops: list[WorkLoop]
    work_sizes: dict[str, tuple[str, ...]]
    products: dict[str, int]
    work_copies: list[tuple[int, int, int, bool]]
    _built: dict[int, tuple[int, ...]]
    _handed_values: dict[int, Value]
    _kept_value: ast.expr | None
    _entered: ast.expr | None
    _consumed: dict[int, tuple[str, str | Rooted]]
    loaded: set[str]
    values: list[tuple[str, str | Rooted]]
    class_attrs: dict[str, dict[str, Value]]
    declared_attrs: dict[tuple[str, str], Value]
    attr_assigned: dict[tuple[str, str], list[Value]]
    class_methods: dict[str, list[str]]
    class_bases: dict[str, tuple[str, ...]]
    class_type_args: dict[str, tuple[str, ...]]
    class_field_flags: dict[str, tuple[tuple[str, str, int], ...]]  # per dataclass: datafields.field_flags
    class_fields: dict[str, list[tuple[str, str]]]
    class_built: dict[str, dict[str, tuple[int, int] | None]]
    state_values: dict[str, str]
    declared: list[str]
    injected: dict[str, str | Rooted]
    injected_payloads: list[tuple[str, str, str]]
    _tuple_returns: dict[str, list[ast.expr]]
    _runners: dict[str, int]
    _importers: dict[str, int]
    _disk_caches: DiskCaches
    _import_flags: dict[str, str]
    _module_params: dict[str, dict[str, str]]
    _mappings: dict[str, ast.Dict | ast.Call]  # see sizes.module_mappings
    _literals: frozenset[str]  # see literals.module_literals
    _project_roots: frozenset[str]
    _postponed: bool
    class_lines: dict[str, int]
    shared_attrs: dict[str, frozenset[str]]  # per class: guards.shared_containers
    callables: list[tuple[str, tuple[str | Rooted, ...]]]
    returns: list[tuple[str, tuple[str | Rooted, ...]]]
    returned: list[tuple[int, tuple[tuple[str, str], ...]]]
    row_fields: list[tuple[str, str, str, int]]
    _row_tests: RowTests
    _bodies: Bodies
    state_fields: list[tuple[str, str]]
    state_stores: list[tuple[int, str]]
    state_payloads: list[tuple[str, str, str]]
    returned_fields: list[tuple[int, int, str, str, str]]
    class_properties: dict[str, set[str]]
    pending: list[int]
    _method_returns: dict[str, str | Rooted]
    _chains: dict[str, list[str]]
    stars: list[str]
    imported: set[str]
    top_imports: set[str]  # the slow-import entries (Catalogue.match_import) of the module's own imports
    _reads: dict[tuple, ast.Attribute]
    _lambdas: list[tuple[int, int]]
    _ascii: bool
    _lines: list[bytes] | None
    frames: list[Frame]
    _global_fills: dict[str, set[str]]
    attr_sources: dict[tuple[str, str], set[str]]
    attr_setters: dict[tuple[str, str], set[tuple[str, str]]]

    if TYPE_CHECKING:
        # Scopes
        @property
        def frame(self) -> Frame: ...
        def lookup(self, name: str) -> Value: ...
        def _counted(self, node: ast.expr) -> int | None: ...
        def bind(self, target: ast.expr, value: Value) -> None: ...
        def _col(self, line: int, byte_col: int) -> int: ...
        def _note_loop(self, node: ast.For | ast.AsyncFor | ast.While | Comprehension) -> None: ...
        def _record_loops(self, node: ast.FunctionDef | ast.AsyncFunctionDef, index: int, frame: Frame) -> None: ...
        def _built_as(self, node: ast.Call, constructor: str) -> str | None: ...
        def _built_by_name(self, node: ast.Call, method: str) -> tuple[str, ...]: ...
        def _built_at(self, node: ast.expr) -> tuple[int, int] | None: ...
        def _note_built(self, target: ast.expr, node: ast.expr | None, value: Value) -> None: ...
        def _own_attribute(self, node: ast.expr) -> tuple[str, str] | None: ...
        def _set_class_attr(self, cls: str, attr: str, value: Value) -> None: ...

        # Inference
        def infer(self, node: ast.expr) -> Value: ...
        def mode_meant(self, node: ast.expr) -> str | None: ...
        def annotation_type(self, node: ast.expr | None) -> Value: ...
        def union_members(self, node: ast.expr | None) -> list[Value]: ...
        def narrowed(self, test: ast.expr) -> AbstractContextManager[None]: ...
        def _unpacked(self, value: ast.expr, count: int) -> list[Value] | None: ...
        def _export_returns(
            self, key: str, returned: list[Value], declared: Value = None, members: Iterable[Value] = ()
        ) -> None: ...
        def _export_callables(self, name: str, values: Iterable[Value]) -> None: ...

        def _may_be_callable(self, value: Inst) -> bool: ...

        # Conditions
        def _attribute_test(self, test: ast.expr, modes: bool = False) -> str | None: ...
        def _note_attribute_source(self, target: ast.expr, value: ast.expr | None) -> None: ...
        def _field_kind(self, annotation: ast.expr) -> str: ...
        def _lazy_guard(self, test: ast.expr, body: list[ast.stmt]) -> bool: ...
        def _ending_branch(self, body: list[ast.stmt]) -> bool: ...
        def _ready_return(self, stmt: ast.If, rest: list[ast.stmt]) -> bool: ...
        def memo_miss(self, handler: ast.ExceptHandler, attempt: list[ast.stmt]) -> AbstractContextManager[None]: ...
        def _visit_ready(self, stmt: ast.If, rest: list[ast.stmt], cache_miss: bool = False) -> None: ...
        def _required_attribute(self, stmt: ast.If) -> str: ...

        # Statements
        def visit_body(self, body: list[ast.stmt]) -> None: ...
        def _bind_names(self, target: ast.expr, value: Value) -> None: ...
        def _item_type(self, iterable: ast.expr) -> Value: ...

        # Definitions
        def visit_import(self, node: ast.Import | ast.ImportFrom) -> None: ...
        def visit_class(self, node: ast.ClassDef) -> None: ...
        def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None: ...
        def _item_annotation(self, annotation: ast.expr) -> Value: ...
        def _declared(self, annotation: ast.expr | None) -> Value: ...

        # Expressions
        def visit_expr(self, node: ast.expr, awaited: bool = False, receiver: bool = False) -> None: ...
        def visit_lambda(
            self,
            node: ast.Lambda,
            offloaded: bool = False,
            name: str | None = None,
            handed: CallContext | None = None,
        ) -> None: ...
        def _grow(self, receiver: ast.Name, added: Value) -> None: ...
        def _fill_key(self, name: str, value: ast.expr, lineno: int) -> None: ...

        # Recording
        def record_call(self, node: ast.Call, awaited: bool, func_value: Value) -> str | None: ...
        def record_protocol(self, entered: ast.expr, awaited: bool, exiting: bool) -> None: ...
        def installed_root(self, node: ast.expr) -> str: ...
        def record_ref(self, node: ast.expr, offloaded: bool, call: CallContext) -> None: ...
        def record_property_read(self, node: ast.Attribute, named: bool) -> None: ...
        def record_import(self, node: ast.Import | ast.ImportFrom, module: str, api: BlockingApi) -> None: ...
        def _argument(self, node: ast.expr) -> str | Rooted: ...
        def _note_read(self, node: ast.Attribute, owner: ast.Name) -> None: ...

        # RegisteredLists
        def register_stored(self, target: ast.expr, stored: ast.expr, value: Value) -> None: ...
        def register_appended(self, node: ast.Call) -> None: ...

        # PayloadsHeld
        def _bind_loop_item(self, target: ast.expr, iterable: ast.expr) -> None: ...
        def _one_item_each(self, source: tuple[str, str]) -> AbstractContextManager[None]: ...
        def _bind_payload(
            self, target: ast.expr, value: ast.expr, held: tuple[str, str], line: int, before: Known
        ) -> None: ...
        def _hold(self, name: str, payload: tuple[str, str], line: int) -> None: ...
        def _note_returned(self, value: ast.expr) -> None: ...
        def _payload_of(self, value: ast.expr, known: Known | None = None) -> tuple[str, str]: ...
        def _returned(self, node: ast.expr) -> str | None: ...
        def _still_passed(self, target: ast.expr, value: ast.expr, held: tuple[str, str]) -> bool: ...

        # Indexer
        def _denoted(self, expr: ast.expr) -> str | None: ...


class Scopes(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    # -- positions ------------------------------------------------------------------------

    def _col(self, line: int, byte_col: int) -> int:
        """``ast`` columns count UTF-8 bytes; reports count characters."""
        if self._ascii:
            return byte_col + 1
        if self._lines is None:
            self._lines = [ln.encode("utf-8") for ln in NEWLINE.split(self.source)]
        if line > len(self._lines):
            return byte_col + 1
        return len(self._lines[line - 1][:byte_col].decode("utf-8", "replace")) + 1

    # -- loops ----------------------------------------------------------------------------

    def _note_loop(self, node: ast.For | ast.AsyncFor | ast.While | Comprehension) -> None:
        """The walk enters a loop: its trip counts are read at the function's end, and the tests
        around it now are the ones its records carry (it is judged by the chains that take them)."""
        frame = self.frame
        frame.looped = True
        at = (node.lineno, self._col(node.lineno, node.col_offset))
        frame.places[at] = (tuple(frame.guards), frame.once > 0)

    def _record_loops(self, node: ast.FunctionDef | ast.AsyncFunctionDef, index: int, frame: Frame) -> None:
        """The loop nests and the bounded loops of function ``node`` (index ``index``), walked."""
        if frame.looped:  # (a function with a nest has a loop)
            where = ModuleLoops(self.module, self.work_sizes, self._denoted, self._col)
            cls = self.functions[index].class_qualname
            owner = f"{self.module}.{cls}" if cls else ""
            first = len(self.work_loops)
            loops, spans, itemwise, nests = function_loops(
                self._bodies(node), node, index, first, where, owner, frame.nested, self.products
            )
            self.nests.extend(_placed(nests, frame.places))
            self.work_loops.extend(_placed(loops, frame.places))
            left = {*spans, *itemwise}
            for number in range(len(self.calls) - 1, -1, -1) if left else ():
                site = self.calls[number]
                if site.caller == index and (at := (site.line, site.col)) in left:
                    left.discard(at)
                    rare = site.rare or CallFacts()
                    rare = replace(rare, spans=spans.get(at, rare.spans), itemwise=itemwise.get(at, rare.itemwise))
                    self.calls[number] = replace(site, rare=rare)
                if not left:
                    break

    # -- scopes ---------------------------------------------------------------------------

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def lookup(self, name: str) -> Value:
        innermost = True
        for frame in reversed(self.frames):
            if frame.kind == "class" and not innermost:
                continue  # methods do not see class-body names
            innermost = False
            if name in frame.bindings:
                return frame.bindings[name]
        if name in BUILTIN_NAMES:
            return Sym(f"builtins.{name}")
        if self.stars:
            return self._starred(name)
        return None

    def _note_built(self, target: ast.expr, node: ast.expr | None, value: Value) -> None:
        """``client = OpenAI()`` or ``self.client = OpenAI()``: remember where the object
        ``target`` now names was built (for an attribute, only while every assignment of it
        builds it at one place)."""
        if not (isinstance(node, ast.Call) and isinstance(value, Inst)):
            return
        site = (node.lineno, self._col(node.lineno, node.col_offset))
        if isinstance(target, ast.Name):
            self.frame.built[target.id] = site
        elif (attr := self._own_attribute(target)) is not None:
            built = self.class_built.setdefault(attr[0], {})
            built[attr[1]] = site if built.get(attr[1], site) == site else None

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
        value of its argument (passed by keyword, or at its position)."""
        built = BUILT.get(constructor)
        if built is None:
            return None
        if constructor in BUILT_FIRST:  # a keyword that decides before BUILT's argument, when written
            deciding, decided = BUILT_FIRST[constructor]
            given = next((k.value for k in node.keywords if k.arg == deciding), None)
            if isinstance(given, ast.Constant) and repr(given.value) in decided:
                return decided[repr(given.value)] or None
        keyword, position, types = built
        value = next((k.value for k in node.keywords if k.arg == keyword), None)
        if value is None and position is not None and len(node.args) > position:
            value = node.args[position]
            if any(isinstance(arg, ast.Starred) for arg in node.args[: position + 1]):
                return None  # ``make(*args)``: which argument lands there is not written
        if value is None:
            # Not passed: the key "" names what the default builds (``**options`` may pass it).
            unwritten = any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args)
            return None if unwritten else types.get("")
        if isinstance(value, ast.Constant):
            written = repr(value.value)
            exact = types.get(written)
            return exact or next(
                (type_ for key, type_ in types.items() if key.endswith("*") and written.startswith(key[:-1])), None
            )
        inferred = self.infer(value) if value is not None else None
        # A qualified name as written, or the type of the object handed in (``OpenAIEmbeddingFunction(...)``).
        return types.get(inferred.name) if isinstance(inferred, (Sym, Inst)) else None

    def _built_by_name(self, node: ast.Call, method: str) -> tuple[str, ...]:
        """The path part (a ``built`` :class:`CallPart`) naming what every :data:`BUILT` callable called
        ``method`` builds from ``node``'s arguments, when they agree; else none."""
        built = {self._built_as(node, callee) for callee in BUILT if callee.rpartition(".")[2] == method}
        type_ = built.pop() if len(built) == 1 else None
        return (str(CallPart("built", (type_,))),) if type_ is not None else ()

    def _bind_filled_globals(self, body: list[ast.stmt]) -> dict[str, Inst]:
        """Module-level names that a module-level function fills under ``global`` (``global
        _model`` then ``_model = CLIPModel.from_pretrained(...)``) and that the module binds to
        nothing typed (``_model = None``): bound to a stand-in, ``<module>.<name>``, so that the
        functions reading them record their calls, for the graph to type from what the fills
        build (exported as the name's value in ``run``). -> name -> its stand-in."""
        module = self.frame.bindings
        filled: dict[str, Inst] = {}
        for stmt in body:
            if isinstance(stmt, FUNCTION_DEFS):
                for name in (n for s in stmt.body if isinstance(s, ast.Global) for n in s.names):
                    if module.get(name) is None:
                        filled[name] = module[name] = Inst(f"{self.module}.{name}", "module")
        return filled

    def bind(self, target: ast.expr, value: Value) -> None:
        if isinstance(target, ast.Name):
            if target.id in self.frame.globals and self.frame.kind == "function":
                self._global_fills.setdefault(target.id, set()).add(value.name if isinstance(value, Inst) else "")
            self.frame.payloads.pop(target.id, None)
            self.frame.fields.pop(target.id, None)
            self.frame.displays.pop(target.id, None)
            self.frame.unpacked.pop(target.id, None)
            self.frame.built.pop(target.id, None)
            self.frame.untyped.discard(target.id)
            self.frame.unbound.discard(target.id)
            self.frame.param_items.pop(target.id, None)
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
            if isinstance(owner, SelfRef) and not owner.path and owner.cls != Marker.STATE:
                return owner.cls, node.attr
        return None

    def _set_class_attr(self, cls: str, attr: str, value: Value) -> None:
        attrs = self.class_attrs.setdefault(cls, {})
        self.attr_assigned.setdefault((cls, attr), []).append(value)
        if value is None:
            attrs.setdefault(attr, None)
            return
        previous = attrs.get(attr)
        if previous is None or previous == value:
            attrs[attr] = value
        elif isinstance(previous, Inst) and isinstance(value, Inst) and previous.name == value.name:
            pass
        else:
            # Assignments of different types: the type the author declared for the attribute
            # (``self.collection: Collection | None = None``) is what it holds, else it is unknown --
            # or the one assignment that says more of it (``chromadb.Collection[remote-embedding]``).
            declared = self.declared_attrs.get((cls, attr))
            if _names(declared) == _names(previous) and _refines(value, declared):
                attrs[attr] = value
            elif not (_names(declared) == _names(value) and _refines(previous, declared)):
                attrs[attr] = declared or CONFLICT


def _names(value: Value) -> str | None:
    return value.name if isinstance(value, Inst) else None


def _refines(value: Value, declared: Value) -> bool:
    """Is ``value`` an instance of the class ``declared`` names, more precisely named (``X[...]``)?"""
    return isinstance(value, Inst) and isinstance(declared, Inst) and value.name.startswith(f"{declared.name}[")
