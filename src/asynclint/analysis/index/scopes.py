"""Positions and scopes: the frames of the walk, what a name is bound to and binding it."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace

from asynclint.analysis.index.helpers import BUILTIN_NAMES, CONFLICT, NEWLINE
from asynclint.analysis.index.values import ITEM_SUFFIX, STATE, Inst, SelfRef, Sym, Value
from asynclint.knowledge.blocking import BUILT


@dataclass(frozen=True)
class CallContext:
    """The call an argument is passed to, and where in it."""

    target: str | None
    method: str | None
    self_ref: tuple[str, tuple[str, ...]] | None
    slot: str
    handed: tuple[int, ...] = ()  # hand-overs made by the call or to the object it is made on


@dataclass
class Frame:
    kind: str  # module | class | function
    func: int  # index of the enclosing Function (class frames keep their parent's)
    qualprefix: str  # prefix for definitions made in this frame
    bindings: dict[str, Value] = field(default_factory=dict)
    cls: str | None = None  # global qualname of the class this frame defines / method belongs to
    loop_depth: int = 0
    #: The loops around the current statement, innermost last: how much each adds to
    #: ``loop_depth``, and its body's statements that leave it (helpers.loop_exits).
    loops: list[tuple[int, dict[int, bool]]] = field(default_factory=list)
    returns: list[Value] = field(default_factory=list)  # the values it returns
    #: The payloads its ``return`` statements give (see ModuleSummary.returned).
    returned: list[tuple[str, str]] = field(default_factory=list)
    globals: set[str] = field(default_factory=set)  # names declared ``global`` here
    conditional: int = 0  # depth of ``if`` statements around the current statement
    once: int = 0  # depth of lazy initialisations around it (see _lazy_guard)
    first_turn: int = 0  # depth of per-rollout initialisations around it (see _first_turn_guard)
    fallback: int = 0  # depth of code that runs only when an attempt before it raised (see visit_body)
    #: What a name holds, as payload evidence (``argfacts.payload_of``): a loop variable's items,
    #: or the value it was bound to when that decides its size (``text = reply.content``,
    #: ``response = {"ok": False, "grid": grid}``, ``history = state["completion"]``) or is a
    #: parameter passed on (``s = arg.strip()``); and the line of that binding.
    payloads: dict[str, tuple[str, str]] = field(default_factory=dict)
    bound_at: dict[str, int] = field(default_factory=dict)
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
    #: Parameters not bound again so far in the walk (``outputs = json.loads(outputs)`` still reads
    #: what the caller passed): a payload that is one of them is sized by what the callers hand it.
    unbound: set[str] = field(default_factory=set)
    #: Names bound to what a call written here built (``client = OpenAI()``) -> that call's
    #: (line, column): where an object handed over later was constructed.
    built: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: A loop was entered inside another (or over ``itertools.permutations``...): the function may
    #: hold a loop nest, which :func:`asynclint.analysis.index.nests.loop_nests` then looks for.
    nested: bool = False


class Scopes:
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
            self.frame.unbound.discard(target.id)
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
            attrs[attr] = CONFLICT
