"""Positions and scopes: what a name is bound to in the frames of the walk
(:mod:`asynclint.analysis.index.frames`) and binding it; and the state every part of the walk shares
(:class:`IndexerState`)."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from asynclint.analysis.index.argfacts import Known
from asynclint.analysis.index.bodies import Bodies
from asynclint.analysis.index.corpora import MODULE, Built
from asynclint.analysis.index.diskcache import DiskCaches
from asynclint.analysis.index.frames import CallContext, Frame, Placing
from asynclint.analysis.index.helpers import BUILTIN_NAMES, CONFLICT, FUNCTION_DEFS, NEWLINE
from asynclint.analysis.index.loops import LoopNest, WorkLoop
from asynclint.analysis.index.loopwalk import function_loops
from asynclint.analysis.index.memokeys import KeyReads
from asynclint.analysis.index.records import CallFacts, CallSite, Function, FunctionRef, Handoff
from asynclint.analysis.index.rowtests import RowTests
from asynclint.analysis.index.values import ITEM_SUFFIX, CallPart, Inst, Marker, Rooted, SelfRef, Sym, Value
from asynclint.analysis.index.work import ModuleLoops
from asynclint.knowledge.api import BlockingApi
from asynclint.knowledge.asyncio_apis import DECLARED_LOOPS, OWN_LOOPS
from asynclint.knowledge.blocking import BUILT, BUILT_FIRST
from asynclint.knowledge.catalogue import Catalogue

Comprehension = ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
_Placed = TypeVar("_Placed", LoopNest, WorkLoop)


def _placed(records: list[_Placed], places: dict[tuple[int, int], Placing]) -> list[_Placed]:
    """``records`` with the tests around each one's loop (see :attr:`Frame.places`)."""
    found = []
    for record in records:
        guards, once, memo_key = places.get((record.line, record.col), ((), False, ()))
        found.append(replace(record, guards=guards, once=once, memo_key=memo_key) if guards or once else record)
    return found


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
    library: bool
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
    work_numbers: dict[str, float]
    products: dict[str, int]
    collections: dict[str, dict[str, Built]]
    walked: frozenset[str]
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
    outside_stores: list[tuple[str, str, Value]]
    class_methods: dict[str, list[str]]
    class_bases: dict[str, tuple[str, ...]]
    unnamed_bases: set[str]  # classes with a base the index could not name
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
    _element_runners: dict[str, tuple[int, int]]
    _importers: dict[str, int]
    _aliases: frozenset[str]
    alias_uses: list[tuple[str, str]]
    _disk_caches: DiskCaches
    _import_flags: dict[str, str]
    _module_params: dict[str, dict[str, str]]
    _mappings: dict[str, ast.Dict | ast.Call]  # see sizes.module_mappings
    _literals: frozenset[str]  # see literals.module_literals
    _project_roots: frozenset[str]
    _postponed: bool
    class_lines: dict[str, int]
    shared_attrs: dict[str, frozenset[str]]  # per class: guards.shared_containers
    stop_keys: dict[str, dict[str, frozenset[str]]]  # per class: stopkeys.class_stop_keys
    ending_keys: dict[str, frozenset[str]]  # per class whose checks answer from some: those and the framework's
    attr_counts: dict[str, dict[str, int]]  # per class: replies.instance_counts
    callables: list[tuple[str, tuple[str | Rooted, ...]]]
    returns: list[tuple[str, tuple[str | Rooted, ...]]]
    returned: list[tuple[int, tuple[tuple[str, str], ...]]]
    row_fields: list[tuple[str, str, str, int]]
    factories: set[tuple[str, str]]  # see ModuleSummary.factories
    stored_out: set[tuple[str, str]]  # see ModuleSummary.stored_out
    _row_tests: RowTests
    _bodies: Bodies
    state_fields: list[tuple[str, str]]
    state_stores: list[tuple[int, str]]
    state_payloads: list[tuple[str, str, str]]
    returned_fields: list[tuple[int, int, str, str, str]]
    yielded_fields: list[tuple[int, int, str, str, str]]
    class_properties: dict[str, set[str]]
    pending: list[int]
    _method_returns: dict[str, str | Rooted]
    _chains: dict[str, list[str]]
    stars: list[str]
    #: (how many stars, name) -> what :meth:`Scopes._starred` named it.
    star_names: dict[tuple[int, str], str]
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
    attr_generics: dict[str, dict[str, frozenset[str]]]  # per class: its generic containers' accessors

    if TYPE_CHECKING:
        # Scopes
        @property
        def frame(self) -> Frame: ...
        def lookup(self, name: str) -> Value: ...
        def _counted(self, node: ast.expr) -> int | None: ...
        def bind(self, target: ast.expr, value: Value) -> None: ...
        def _col(self, line: int, byte_col: int) -> int: ...
        def _note_loop(self, node: ast.For | ast.AsyncFor | ast.While | Comprehension | ast.Call) -> None: ...
        def _record_loops(self, node: ast.FunctionDef | ast.AsyncFunctionDef, index: int, frame: Frame) -> None: ...
        def _built_as(self, node: ast.Call, constructor: str) -> str | None: ...
        def _built_by_name(self, node: ast.Call, method: str) -> tuple[str, ...]: ...
        def _built_at(self, node: ast.expr) -> tuple[int, int] | None: ...
        def _note_built(self, target: ast.expr, node: ast.expr | None, value: Value) -> None: ...
        def _own_attribute(self, node: ast.expr) -> tuple[str, str] | None: ...
        def _set_class_attr(self, cls: str, attr: str, value: Value) -> None: ...
        def _rebuild_receiver(self, node: ast.Call) -> None: ...
        def fills_new_store(self, node: ast.Call) -> bool: ...
        def _visit_branches(self, node: ast.IfExp) -> None: ...

        # Inference
        def infer(self, node: ast.expr) -> Value: ...
        def table_value(self, value: ast.expr) -> Value: ...
        def note_table(self, node: ast.Dict) -> None: ...
        def note_items(self, node: ast.List | ast.Tuple | ast.Set) -> None: ...
        def note_arguments(self, node: ast.Call, target: str | None, recorded: bool) -> None: ...
        def note_store(self, target: ast.expr, value: ast.expr) -> None: ...
        def mode_meant(self, node: ast.expr) -> str | None: ...
        def annotation_type(self, node: ast.expr | None) -> Value: ...
        def note_generic(self, frame: Frame, name: str, annotation: ast.expr | None) -> None: ...
        def generic_item(self, receiver: ast.expr, accessor: str) -> Value: ...
        def note_generic_attr(self, owner: tuple[str, str], annotation: ast.expr) -> Value: ...
        def union_members(self, node: ast.expr | None) -> list[Value]: ...
        def narrowed(self, test: ast.expr) -> AbstractContextManager[None]: ...
        def _unpacked(self, value: ast.expr, count: int) -> list[Value] | None: ...
        def _export_returns(
            self, key: str, returned: list[Value], declared: Value = None, members: Iterable[Value] = ()
        ) -> None: ...
        def _export_callables(self, name: str, values: Iterable[Value]) -> None: ...

        def _may_be_callable(self, value: Inst) -> bool: ...

        # Conditions
        def _attribute_test(self, test: ast.expr, modes: bool = False, depth: int = 0) -> str | None: ...
        def _note_attribute_source(self, target: ast.expr, value: ast.expr | None) -> None: ...
        def _field_kind(self, annotation: ast.expr) -> str: ...
        def lazy_fill(self, test: ast.expr, body: list[ast.stmt]) -> tuple[bool, KeyReads | None]: ...
        def file_tested(self, test: ast.expr) -> ast.expr: ...
        def _ending_branch(self, body: list[ast.stmt]) -> bool: ...
        def _terminal_keys(self) -> frozenset[str]: ...
        def _ready_return(self, stmt: ast.If, rest: list[ast.stmt]) -> bool: ...
        def memo_miss(self, handler: ast.ExceptHandler, attempt: list[ast.stmt]) -> AbstractContextManager[None]: ...
        def _visit_ready(self, stmt: ast.If, rest: list[ast.stmt], cache_miss: bool = False) -> None: ...
        def _required_attribute(self, stmt: ast.If) -> str: ...

        # Statements
        def visit_body(self, body: list[ast.stmt]) -> None: ...
        def _bind_names(self, target: ast.expr, value: Value) -> None: ...
        def _item_type(self, iterable: ast.expr) -> Value: ...
        def _counted_item(self, target: ast.expr, iterable: ast.expr) -> tuple[ast.expr, ast.expr]: ...

        # Definitions
        def visit_import(self, node: ast.Import | ast.ImportFrom) -> None: ...
        def visit_class(self, node: ast.ClassDef) -> None: ...
        def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None: ...
        def _item_annotation(self, annotation: ast.expr) -> Value: ...
        def _declared(self, annotation: ast.expr | None) -> Value: ...

        # Expressions
        def visit_expr(self, node: ast.expr, awaited: bool = False, receiver: bool = False) -> None: ...
        def mark_submitted(self, target: ast.expr, value: ast.expr) -> None: ...
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
        def _note_yielded(self, value: ast.expr, line: int) -> None: ...
        def _payload_of(self, value: ast.expr, known: Known | None = None) -> tuple[str, str]: ...
        def _known(self) -> Known: ...
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

    def _note_loop(self, node: ast.For | ast.AsyncFor | ast.While | Comprehension | ast.Call) -> None:
        """The walk enters a loop (or a call running a ``key=`` per item, ``sorted(pieces, key=...)``): its
        trip counts are read at the function's end, and the tests around it now are the ones its records
        carry (it is judged by the chains that take them)."""
        frame = self.frame
        frame.looped = True
        at = (node.lineno, self._col(node.lineno, node.col_offset))
        frame.places[at] = (tuple(frame.guards), frame.once > 0, frame.memo_key)

    def _record_loops(self, node: ast.FunctionDef | ast.AsyncFunctionDef, index: int, frame: Frame) -> None:
        """The loop nests and the bounded loops of function ``node`` (index ``index``), walked."""
        if frame.looped:  # (a function with a nest has a loop)
            where = ModuleLoops(self.module, self.work_sizes, self._denoted, self._col, self.work_numbers)
            cls = self.functions[index].class_qualname
            owner = f"{self.module}.{cls}" if cls else ""
            first = len(self.work_loops)
            loops, spans, itemwise, nests = function_loops(
                self._bodies(node),
                node,
                index,
                first,
                where,
                owner,
                frame.nested,
                self.products,
                self.collections.get(cls or "", {}),
                _closed_over(self.collections, self.functions[index].qualname),
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
        key = (len(self.stars), name)  # the stars only grow: their count says which were read
        found = self.star_names.get(key)
        if found is None:
            found = self.star_names[key] = next(
                (f"{module}.{name}" for module in reversed(self.stars) if self.catalogue.describes(f"{module}.{name}")),
                f"{self.module}.{name}",
            )
        return Sym(found)

    def _built_as(self, node: ast.Call, constructor: str) -> str | None:
        """The type :data:`BUILT` gives what ``node`` (a call of ``constructor``) builds, by the
        value of its argument (passed by keyword, or at its position)."""
        built = BUILT.get(constructor)
        if built is None:
            return None
        for deciding, at, decided in BUILT_FIRST.get(constructor, ()):  # arguments that decide first, when written
            given = _argument(node, deciding, at)
            if isinstance(given, ast.Constant) and repr(given.value) in decided:
                return decided[repr(given.value)] or None
        keyword, position, types = built
        value = _argument(node, keyword, position)
        if value is None:
            # Not passed: the key "" names what the default builds (``**options`` may pass it).
            unwritten = any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args)
            return None if unwritten else types.get("")
        if isinstance(value, ast.Name):
            value = self._literal_default(value.id) or value  # ``def poll(self, method="GET")``, never rebound
        if isinstance(value, ast.Constant):
            written = repr(value.value)
            exact = types.get(written)
            return exact or next(
                (type_ for key, type_ in types.items() if key.endswith("*") and written.startswith(key[:-1])), None
            )
        inferred = self.infer(value) if value is not None else None
        # A qualified name as written, or the type of the object handed in (``OpenAIEmbeddingFunction(...)``).
        return types.get(inferred.name) if isinstance(inferred, (Sym, Inst)) else None

    def _literal_default(self, name: str) -> ast.Constant | None:
        """The literal default of the current function's parameter ``name``, when its body never binds it
        (a flag of the frame: :meth:`Definitions.visit_function` read the body once for all of them)."""
        if self.frame.kind != "function" or name not in self.frame.flags:
            return None
        text = dict(self.functions[self.frame.func].defaults).get(name)
        default = ast.parse(text, mode="eval").body if text is not None else None
        return default if isinstance(default, ast.Constant) else None

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
            self.frame.requests.pop(target.id, None)
            self.frame.unpacked.pop(target.id, None)
            self.frame.built.pop(target.id, None)
            self.frame.untyped.discard(target.id)
            self.frame.unbound.discard(target.id)
            self.frame.param_items.pop(target.id, None)
            self.frame.generics.pop(target.id, None)
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
            elif isinstance(owner, Inst) and owner.origin != "param":
                # ``env = Env(...)`` then ``env.persona = persona``: settled once the module's
                # classes (and the factories returning them) are known, :func:`.attr_evidence.stored_outside`.
                self.outside_stores.append((owner.name, target.attr, value))
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


def _closed_over(collections: dict[str, dict[str, Built]], qualname: str) -> dict[str, Built]:
    """The names a function reads from outside that hold a whole source (:mod:`.corpora`): the
    module's, and those of the functions it is defined in (a tool a ``load_environment`` defines
    over the corpus it loaded), the nearest binding first."""
    names = dict(collections.get(MODULE, {}))
    parts = qualname.split(".<locals>.")
    for depth in range(1, len(parts)):
        names.update(collections.get(".<locals>.".join(parts[:depth]), {}))
    return names


def _argument(node: ast.Call, keyword: str, position: int | None) -> ast.expr | None:
    """The argument ``node`` passes by ``keyword`` or at ``position``; ``None`` when it passes none, or
    when a ``*args`` before the position hides which argument lands there."""
    value = next((k.value for k in node.keywords if k.arg == keyword), None)
    if value is None and position is not None and len(node.args) > position:
        if not any(isinstance(arg, ast.Starred) for arg in node.args[: position + 1]):
            value = node.args[position]
    return value


def _names(value: Value) -> str | None:
    return value.name if isinstance(value, Inst) else None


def _refines(value: Value, declared: Value) -> bool:
    """Is ``value`` an instance of the class ``declared`` names, more precisely named (``X[...]``, or
    a loop the project makes, ``asyncio.new_event_loop()``, where an event loop is declared)?"""
    if not (isinstance(value, Inst) and isinstance(declared, Inst)):
        return False
    return value.name.startswith(f"{declared.name}[") or (value.name in OWN_LOOPS and declared.name in DECLARED_LOOPS)
