"""Per-file summary: one ``ast`` parse and one walk -> definitions, bindings and call sites.

Why the stdlib ``ast`` and not libcst here: detection needs names, scopes and positions, not
round-trippable formatting, and ``ast.parse`` is ~10x faster than ``libcst.parse_module``. The
fixers parse with libcst only the files they rewrite and locate nodes by the positions recorded
here. Everything in a :class:`ModuleSummary` is plain data, so summaries can be computed in
worker processes and cached by content hash.

Name resolution is deliberately simple and flow-ordered: a name means what its latest binding
in the enclosing function (then module, then builtins) says at the point of use. Values are
tracked only as far as the knowledge base cares: which module/function a name denotes
(:class:`Sym`), which type of object an expression is (:class:`Inst`), or which attribute of
``self`` it reads (:class:`SelfRef`, settled once the whole class has been seen).
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field, replace

from asynclint.knowledge.asyncio_apis import (
    CALLABLE_WRAPPERS,
    COROUTINE_CONSUMER_METHODS,
    COROUTINE_CONSUMERS,
    OFFLOAD_KEYWORDS,
    OFFLOAD_METHODS,
)
from asynclint.knowledge.blocking import ENTER_RETURNS, ITEMS, RETURNS
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import HANDOFF_SLOTS

_BUILTINS = frozenset(dir(builtins))
#: ``x: T = field(...)`` declares a field of type ``T``; the call's own result says nothing.
_FIELD_SPECIFIERS = frozenset(
    {"dataclasses.field", "pydantic.Field", "pydantic.fields.Field", "attrs.field", "attr.ib", "attr.attrib"}
)
#: Annotations wrapping the type of the value: ``Optional[T]``, ``Union[A, B]``, ``Annotated[T, m]``.
_WRAPPING_ANNOTATIONS = frozenset(
    f"typing.{name}" for name in ("Optional", "Union", "Annotated", "ClassVar", "Final")
)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
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


@dataclass(frozen=True, slots=True)
class SelfRef:
    """``self.<path>`` inside a method of ``cls`` (a global class qualname)."""

    cls: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Refs:
    """A list of callables (``funcs = [correct, self.format_ok]``), to be handed to a framework."""

    items: tuple[Sym | SelfRef, ...]


Value = Sym | Inst | SelfRef | Refs | None


#: First element of a :class:`SelfRef` path written through ``super()``.
SUPER = "super()"


def split_super(path: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    """-> (how many classes of the MRO to skip, the attribute path): ``super().x`` starts
    looking for ``x`` after the class itself."""
    if path and path[0] == SUPER:
        return 1, path[1:]
    return 0, path


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


@dataclass(frozen=True, slots=True)
class ClassInfo:
    qualname: str
    line: int
    bases: tuple[str, ...]  # resolved dotted names
    methods: tuple[str, ...]
    attrs: tuple[tuple[str, str], ...]  # attribute -> dotted type name, where known


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
    words: tuple[str, ...] = ()  # see _arg_words
    displays: tuple[bool, ...] = ()  # per positional argument: see _small_display


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


@dataclass(frozen=True, slots=True)
class Handoff:
    """An object passed by keyword: ``JudgeRubric(judge_client=OpenAI())``."""

    caller: int
    passed_to: str | None
    slot: str
    value: str  # dotted type name of the object
    line: int
    col: int
    end_line: int
    end_col: int


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
    #: (``JUDGE = OpenAI()``) and functions that return one (``def make_client(): return OpenAI()``).
    values: tuple[tuple[str, str], ...] = ()
    #: Set for an installed third-party module read in deep mode (``slowlib 1.2.0``): its code
    #: is hot only where the project's hot code calls into it, and it is never reported itself.
    library: str | None = None


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


@dataclass
class _Frame:
    kind: str  # module | class | function
    func: int  # index of the enclosing Function (class frames keep their parent's)
    qualprefix: str  # prefix for definitions made in this frame
    bindings: dict[str, Value] = field(default_factory=dict)
    cls: str | None = None  # global qualname of the class this frame defines / method belongs to
    loop_depth: int = 0
    returns: set[str] = field(default_factory=set)  # types of the values it returns
    globals: set[str] = field(default_factory=set)  # names declared ``global`` here
    conditional: int = 0  # depth of ``if`` statements around the current statement


class _Indexer:
    def __init__(self, source: str, path: str, module: str, package: str, catalogue: Catalogue):
        self.source = source
        self.path = path
        self.module = module
        self.package = package
        self.catalogue = catalogue
        self.functions: list[Function] = [Function("<module>", "<module>", 1, False, "module")]
        self.calls: list[CallSite] = []
        self.refs: list[FunctionRef] = []
        self.handoffs: list[Handoff] = []
        self._kept_value: ast.expr | None = None  # the value of an assignment to self.x / a global
        self.values: list[tuple[str, str]] = []
        self.class_attrs: dict[str, dict[str, Value]] = {}
        self.class_methods: dict[str, list[str]] = {}
        self.class_bases: dict[str, tuple[str, ...]] = {}
        self.class_lines: dict[str, int] = {}
        self.pending: list[int] = []  # indexes of calls with a SelfRef target
        self._method_returns: dict[str, str] = {}  # "mod.Cls.method()" -> type; known once all is read
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
        return None

    def bind(self, target: ast.expr, value: Value) -> None:
        if isinstance(target, ast.Name):
            if isinstance(value, Inst) and self.frame.kind == "function" and value.origin == "expr":
                value = Inst(value.name, "local")
            elif isinstance(value, Inst) and self.frame.kind == "module" and value.origin == "expr":
                value = Inst(value.name, "module")
            self.frame.bindings[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.bind(elt.value if isinstance(elt, ast.Starred) else elt, None)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            owner = self.lookup(target.value.id)
            if isinstance(owner, SelfRef) and not owner.path:
                self._set_class_attr(owner.cls, target.attr, value)

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
                return Inst(extend(base.name, (node.attr,)), base.origin)
            if isinstance(base, SelfRef):
                return SelfRef(base.cls, (*base.path, node.attr))
            return None
        if isinstance(node, ast.Call):
            func = self.infer(node.func)
            if func == Sym("functools.partial") and node.args:
                wrapped = self.infer(node.args[0])  # calling the partial calls what it wraps
                return wrapped if isinstance(wrapped, Sym) else None
            if func == Sym("builtins.super") and self.frame.cls is not None and self.frame.kind == "function":
                # ``super().method()``: looked up from the first base on (and ``super().__init__
                # (tools=[...])`` shows the framework base what is passed).
                return SelfRef(self.frame.cls, (SUPER,))
            if isinstance(func, Sym):
                # A constructor or factory: the instance is named after it (``sqlite3.connect``).
                return Inst(RETURNS.get(f"{func.name}()", func.name), "expr")
            if isinstance(func, Inst):
                # What a method returns is not its receiver: ``create(...)`` of a client gives a
                # response. "()" marks that, so ``Type.**`` patterns stop matching past it.
                result = f"{func.name}()"
                return Inst(RETURNS.get(result, result), func.origin)
            if isinstance(func, SelfRef) and func.path and func.path[-1] != SUPER:
                return SelfRef(func.cls, (*func.path[:-1], f"{func.path[-1]}()"))
            return None
        if isinstance(node, ast.Subscript):
            base = self.infer(node.value)
            return base if isinstance(base, (Inst, SelfRef)) else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            # ``a / b`` calls ``a.__truediv__(b)``: RETURNS says ``Path / str`` is a ``Path``.
            left = self.infer(node.left)
            if isinstance(left, Inst):
                return Inst(extend(left.name, ("__truediv__()",)), left.origin)
            if isinstance(left, SelfRef) and left.path:
                return SelfRef(left.cls, (*left.path, "__truediv__()"))
            return None
        if isinstance(node, (ast.List, ast.Tuple)):
            items = tuple(v for v in map(self.infer, node.elts) if isinstance(v, (Sym, SelfRef)))
            return Refs(items) if items else None
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
            return self.infer(node.body)
        if isinstance(node, ast.NamedExpr):
            return self.infer(node.value)
        return None

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
            if isinstance(outer, Sym) and outer.name in _WRAPPING_ANNOTATIONS:
                args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                if outer.name != "typing.Union":
                    args = args[:1]  # Annotated[T, meta], ClassVar[T]: only T is the type
                return next(filter(None, map(self.annotation_type, args)), None)
            return self.annotation_type(node.value)  # a generic: ``IO[str]`` is an ``IO``
        value = self.infer(node)
        if isinstance(value, Sym):
            return Inst(value.name, "param")
        return None

    # -- recording --------------------------------------------------------------------------

    def record_call(self, node: ast.Call, awaited: bool, func_value: Value) -> str | None:
        """Record the call whose callee ``node.func`` infers to ``func_value``; -> its target."""
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        target: str | None = None
        origin: str | None = None
        self_ref = None
        if isinstance(func_value, Sym):
            target = func_value.name
        elif isinstance(func_value, Inst):
            target, origin = func_value.name, func_value.origin
        elif isinstance(func_value, SelfRef) and func_value.path:
            self_ref = (func_value.cls, func_value.path)
        if target is None and self_ref is None and method is None:
            return None
        api = self.catalogue.match(target, method) if not awaited else None
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
            kept=node is self._kept_value,
            self_ref=self_ref,
            api=api.pattern if api else None,
            origin=origin,
            **(_argument_facts(node, self._data_receiver(node)) if (api or self_ref) else {}),
        )
        if self_ref is not None:
            self.pending.append(len(self.calls))
        self.calls.append(site)
        return target

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
            if isinstance(item, Sym):
                target, self_ref = item.name, None
            elif isinstance(item, SelfRef) and item.path:
                target, self_ref = None, (item.cls, item.path)
            else:
                continue
            self.refs.append(
                FunctionRef(
                    self.frame.func, target, node.lineno, offloaded, call.target, self_ref,
                    call.slot, call.method, call.self_ref,
                )
            )

    # -- statements -------------------------------------------------------------------------

    def run(self, tree: ast.Module) -> ModuleSummary:
        module_frame = _Frame("module", 0, "")
        self.frames.append(module_frame)
        self._prebind(tree.body)
        self.visit_body(tree.body)
        exports = tuple(
            (name, value.name) for name, value in module_frame.bindings.items() if isinstance(value, Sym)
        )
        self.values.extend(
            (name, value.name) for name, value in module_frame.bindings.items() if isinstance(value, Inst)
        )
        self._method_returns = {f"{self.module}.{name}": type_ for name, type_ in self.values if name.endswith("()")}
        self._settle_self_refs()
        classes = tuple(
            ClassInfo(
                qualname=qn[len(self.module) + 1 :],
                line=self.class_lines[qn],
                bases=self.class_bases.get(qn, ()),
                methods=tuple(self.class_methods.get(qn, ())),
                attrs=tuple(
                    (attr, v.name)
                    for attr, v in self.class_attrs.get(qn, {}).items()
                    if isinstance(v, (Inst, Sym))
                ),
            )
            for qn in self.class_lines
        )
        return ModuleSummary(
            self.path, self.module, tuple(self.functions), classes, tuple(self.calls), tuple(self.refs),
            tuple(self.handoffs), exports, tuple(self.values),
        )

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
        for stmt in body:
            self.visit_stmt(stmt)

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
            for target in node.targets:
                self.visit_target(target)
                self.bind(target, value)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.visit_expr(node.value)
            value = self.infer(node.value) if node.value is not None else None
            if value is None or (isinstance(value, Inst) and value.name in _FIELD_SPECIFIERS):
                value = self.annotation_type(node.annotation)
            self.visit_target(node.target)
            if node.value is not None or self.frame.kind == "class" or isinstance(node.target, ast.Attribute):
                self.bind(node.target, value)
        elif isinstance(node, ast.AugAssign):
            self.visit_expr(node.value)
            self.visit_target(node.target)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.visit_expr(node.iter)
            self.bind(node.target, self._item_type(node.iter))
            self.frame.loop_depth += 1
            self.visit_body(node.body)
            self.frame.loop_depth -= 1
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
            value = self.infer(node.value)
            self.frame.returns.add(value.name if isinstance(value, Inst) else "")
        elif isinstance(node, ast.If):
            self.visit_expr(node.test)
            self.frame.conditional += 1
            self.visit_body(node.body)
            self.visit_body(node.orelse)
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
                    self.visit_body(child.body)
                elif isinstance(child, ast.match_case):
                    self.visit_body(child.body)

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
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            self.visit_expr(target)

    def _item_type(self, iterable: ast.expr) -> Value:
        value = self.infer(iterable)
        if isinstance(value, Inst) and value.name in ITEMS:
            return Inst(ITEMS[value.name], "local")
        return None

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
                    bindings[alias.asname] = Sym(alias.name)
                else:
                    top = alias.name.split(".", 1)[0]
                    bindings[top] = Sym(top)
            return
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            if node.level > 1:
                parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        for alias in node.names:
            if alias.name == "*":
                continue
            name = f"{base}.{alias.name}" if base else alias.name
            bindings[alias.asname or alias.name] = Sym(RETURNS.get(name, name))  # StrictRedis is Redis

    def visit_class(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.visit_expr(decorator)
        for base in node.bases:
            self.visit_expr(base)
        qualname = f"{self.frame.qualprefix}{node.name}"
        global_qn = f"{self.module}.{qualname}"
        bases = []
        for base in node.bases:
            value = self.infer(base)
            if isinstance(value, Sym):
                bases.append(value.name)
        self.class_bases[global_qn] = tuple(bases)
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
            )
        )
        if cls is not None:
            self.class_methods[cls].append(node.name)
            outer.bindings.pop(node.name, None)
        else:
            outer.bindings[node.name] = Sym(global_qn)
        frame = _Frame("function", index, f"{qualname}.<locals>.", cls=cls)
        params = [*node.args.posonlyargs, *node.args.args]
        static = "builtins.staticmethod" in decorators
        for position, arg in enumerate([*params, *node.args.kwonlyargs]):
            if position == 0 and cls is not None and not static:
                frame.bindings[arg.arg] = SelfRef(cls, ())
            else:
                frame.bindings[arg.arg] = self.annotation_type(arg.annotation)
        for arg in (node.args.vararg, node.args.kwarg):
            if arg is not None:
                frame.bindings[arg.arg] = None
        self.frames.append(frame)
        self.visit_body(node.body)
        self.frames.pop()
        if len(frame.returns) == 1 and "" not in frame.returns:
            # A function's value is named after it (``make`` -> what ``make()`` returns); a
            # method's after its call (``Env.client()``), as ``SelfRef`` paths spell it.
            self.values.append((qualname if cls is None else f"{qualname}()", frame.returns.pop()))

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
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.visit_expr(child)
                elif isinstance(child, ast.comprehension):  # pragma: no cover - handled above
                    self.visit_expr(child.iter)

    def visit_call(self, node: ast.Call, awaited: bool) -> None:
        self.visit_expr(node.func)
        func_value = self.infer(node.func)
        target = self.record_call(node, awaited, func_value)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        self_target = (func_value.cls, func_value.path) if isinstance(func_value, SelfRef) and func_value.path else None
        offload_functions = self.catalogue.offload
        offload_at = offload_functions.get(target) if target else None
        if offload_at is None and method in OFFLOAD_METHODS and target not in offload_functions:
            offload_at = OFFLOAD_METHODS[method]
        consumes = (target in COROUTINE_CONSUMERS) or (method in COROUTINE_CONSUMER_METHODS)
        for position, arg in enumerate(node.args):
            inner = arg.value if isinstance(arg, ast.Starred) else arg
            context = _CallContext(target, method, self_target, str(position))
            self._visit_argument(inner, offloaded=position == offload_at, call=context, awaited=consumes)
        for keyword in node.keywords:
            offloaded = keyword.arg in OFFLOAD_KEYWORDS and offload_at is not None
            context = _CallContext(target, method, self_target, keyword.arg or "**")
            self._visit_argument(keyword.value, offloaded=offloaded, call=context, awaited=consumes)
            if keyword.arg in HANDOFF_SLOTS:
                self._record_handoff(keyword, context)
        if method in ("append", "extend") and isinstance(node.func, ast.Attribute) and node.args:
            self._grow_refs(node.func.value, node.args[0], method)

    def _record_handoff(self, keyword: ast.keyword, call: _CallContext) -> None:
        value = self.infer(keyword.value)
        if isinstance(value, Inst):
            node = keyword.value
            self.handoffs.append(
                Handoff(
                    self.frame.func, call.target, call.slot, value.name, node.lineno,
                    self._col(node.lineno, node.col_offset), node.end_lineno or node.lineno,
                    self._col(node.end_lineno or node.lineno, node.end_col_offset or 0),
                )
            )

    def _grow_refs(self, receiver: ast.expr, arg: ast.expr, method: str) -> None:
        """``funcs.append(f)`` / ``funcs.extend([...])`` on a list of callables."""
        if not isinstance(receiver, ast.Name):
            return
        current = self.lookup(receiver.id)
        added = self.infer(arg)
        if method == "append" and isinstance(added, (Sym, SelfRef)):
            added = Refs((added,))
        if isinstance(added, Refs) and isinstance(current, (Refs, type(None))):
            items = current.items if isinstance(current, Refs) else ()
            self.frame.bindings[receiver.id] = Refs(items + added.items)

    def _visit_argument(self, arg: ast.expr, offloaded: bool, call: _CallContext, awaited: bool) -> None:
        if isinstance(arg, (ast.Name, ast.Attribute, ast.List, ast.Tuple)):
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
            self.visit_lambda(arg, offloaded=offloaded)
        else:
            self.visit_expr(arg, awaited=awaited)

    def visit_lambda(self, node: ast.Lambda, offloaded: bool = False, name: str | None = None) -> None:
        for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            self.visit_expr(default)
        outer = self.frame
        qualname = f"{outer.qualprefix}<lambda>"
        index, loop_depth = outer.func, outer.loop_depth
        if name is not None:  # ``f = lambda: ...`` is ``def f(): ...``: hot only where it is called
            qualname, index, loop_depth = f"{outer.qualprefix}{name}", len(self.functions), 0
            self.functions.append(Function(qualname, name, node.lineno, False, "function"))
            outer.bindings[name] = Sym(f"{self.module}.{qualname}")
        elif offloaded:  # runs in a worker: a function of its own, which nothing makes hot
            index, loop_depth = len(self.functions), 0
            self.functions.append(Function(qualname, "<lambda>", node.lineno, False, "lambda"))
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

    def visit_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        first, *rest = node.generators
        self.visit_expr(first.iter)  # evaluated once, in the enclosing scope
        saved = dict(self.frame.bindings)
        self.frame.loop_depth += 1
        self.bind(first.target, self._item_type(first.iter))
        for condition in first.ifs:
            self.visit_expr(condition)
        for generator in rest:
            self.visit_expr(generator.iter)
            self.bind(generator.target, self._item_type(generator.iter))
            for condition in generator.ifs:
                self.visit_expr(condition)
        if isinstance(node, ast.DictComp):
            self.visit_expr(node.key)
            self.visit_expr(node.value)
        else:
            self.visit_expr(node.elt)
        self.frame.loop_depth -= 1
        self.frame.bindings = saved  # comprehension variables do not leak

    # -- settling self.<attr> ---------------------------------------------------------------

    def _class_chain(self, cls: str) -> list[str]:
        chain, queue = [], [cls]
        while queue:
            current = queue.pop(0)
            if current in chain or current not in self.class_lines:
                continue
            chain.append(current)
            queue.extend(self.class_bases.get(current, ()))
        return chain

    def resolve_self(self, cls: str, path: tuple[str, ...]) -> tuple[str | None, bool]:
        """-> (dotted target, settled?). Unsettled refs wait for the project-wide resolver."""
        skip, path = split_super(path)
        if not path:
            return None, True
        attr, rest = path[0], path[1:]
        for owner in self._class_chain(cls)[skip:]:
            attrs = self.class_attrs.get(owner, {})
            if attr.endswith("()") and attr[:-2] in self.class_methods.get(owner, ()):
                returned = self._method_returns.get(f"{owner}.{attr}")  # ``self.make_client()``
                return (extend(returned, rest) if returned else None), True
            if attr in attrs:
                value = attrs[attr]
                if isinstance(value, (Inst, Sym)):
                    return extend(value.name, rest), True
                return None, True
            if attr in self.class_methods.get(owner, ()):
                return (f"{owner}.{attr}" if not rest else None), True
        return None, False

    def _settle_self_refs(self) -> None:
        for position in self.pending:
            site = self.calls[position]
            cls, path = site.self_ref
            target, settled = self.resolve_self(cls, path)
            if not settled:
                continue
            api = self.catalogue.match(target, site.method) if (target or site.method) and not site.awaited else None
            self.calls[position] = replace(
                site, target=target, self_ref=None, api=api.pattern if api else None, origin="self"
            )
        for position, ref in enumerate(self.refs):
            if ref.self_ref is not None:
                target, settled = self.resolve_self(*ref.self_ref)
                if settled:
                    self.refs[position] = replace(ref, target=target, self_ref=None)


_CONFLICT = Sym("<conflicting assignments>")


def _lambda_name(node: ast.Assign) -> str | None:
    """``name = lambda ...: ...``: the name, else ``None``."""
    if isinstance(node.value, ast.Lambda) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    return None


_MAX_WORDS = 32


def _literal(arg: ast.expr) -> str | None:
    """``repr`` of a constant argument, ``"<small literal>"`` for a short literal container.

    A container is literal only when everything in it is: ``[state]`` or ``{"t": trajectory}``
    is as big as what it holds.
    """
    if isinstance(arg, ast.Constant):
        return repr(arg.value)
    if isinstance(arg, ast.JoinedStr):
        return "<small literal>"
    if isinstance(arg, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        children = arg.values if isinstance(arg, ast.Dict) else arg.elts
        if len(children) <= 16 and all(_literal(c) is not None for c in children):
            return "<small literal>"
    return None


def _small_display(arg: ast.expr) -> bool:
    """A short dict/list/tuple/set display whose leaves are constants or plain names
    (``{"ok": False, "error": msg}``): its size is that of the names' values, which rules judge
    by their names (:func:`_arg_words`). A subscript, attribute or call inside may be anything."""
    if isinstance(arg, ast.Dict):
        children = [*arg.keys, *arg.values]
    elif isinstance(arg, (ast.List, ast.Tuple, ast.Set)):
        children = list(arg.elts)
    else:
        return False
    return len(children) <= 16 and all(
        child is not None and (isinstance(child, (ast.Constant, ast.Name)) or _small_display(child))
        for child in children
    )


def _arg_words(node: ast.Call, receiver: ast.expr | None) -> tuple[str, ...]:
    """Names, attribute names and string subscript keys in the arguments (and the receiver,
    when it is data), lowercased.

    Rules read them as hints of payload size (``state["trajectory"]``, ``self.history``); for
    ``trajectory.model_dump_json()`` the receiver *is* the payload. The name of a container
    whose field is read says little about the field, so ``state["answer"]`` gives ``answer``
    only and ``self.history`` gives ``history`` only.
    """
    words: set[str] = set()
    receivers = (receiver,) if receiver is not None else ()
    stack: list[tuple[ast.AST, bool]] = [
        (arg, False) for arg in (*node.args, *(k.value for k in node.keywords), *receivers)
    ]
    while stack and len(words) < _MAX_WORDS:
        sub, is_container = stack.pop()
        if isinstance(sub, ast.Name):
            if not is_container:
                words.add(sub.id.lower())
        elif isinstance(sub, ast.Attribute):
            words.add(sub.attr.lower())
            stack.append((sub.value, True))
        elif isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Constant) and isinstance(sub.slice.value, str):
            words.add(sub.slice.value.lower())
            stack.append((sub.value, True))
        elif isinstance(sub, ast.Subscript):  # ``messages[-1]``: of the same kind as its container
            stack.extend(((sub.value, is_container), (sub.slice, False)))
        else:
            stack.extend((child, False) for child in ast.iter_child_nodes(sub))
    return tuple(sorted(words))


def _argument_facts(node: ast.Call, receiver: ast.expr | None) -> dict:
    return {
        "literals": tuple(_literal(a) for a in node.args[:4]),
        "kwargs": tuple(
            (k.arg, repr(k.value.value)) for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)
        ),
        "words": _arg_words(node, receiver),
        "displays": tuple(_small_display(a) for a in node.args[:4]),
    }


def index_source(source: str, path: str, module: str, package: str, catalogue: Catalogue) -> ModuleSummary:
    """Summarise one file. Raises :class:`IndexError_` with a one-line message on bad input."""
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        if exc.lineno is None:  # not a grammar error: null bytes (other versions: ValueError)
            raise IndexError_(f"cannot parse: {exc.msg}") from None
        raise IndexError_(f"syntax error at line {exc.lineno}: {exc.msg}") from None
    except ValueError as exc:
        raise IndexError_(f"cannot parse: {exc}") from None
    except (MemoryError, RecursionError):  # the parser's own stack overflows on absurd nesting
        raise IndexError_("expression nesting too deep to parse") from None
    try:
        return _Indexer(source, path, module, package, catalogue).run(tree)
    except RecursionError:
        raise IndexError_("expression nesting too deep to analyse") from None
