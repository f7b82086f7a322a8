"""Collections whose size is exponential in a count the data gives, for the loop nests (:mod:`.nests`):
``itertools.product(pool, repeat=n)``, ``range(2 ** n)`` (``1 << n``), the orderings of a pool the data
sizes (``permutations(items)``), with ``n`` read from the row or the state (``info["num_objects"]``, a
parameter, ``len(x)``), never a literal or a module constant. Built in one method and kept in the
rollout's state (``state["hypotheses"] = [... for bits in product((0, 1), repeat=n)]``) or on the
object (``self.x = ...``), such a collection is walked again by the methods that read it back: a walk
per turn over 2^n items, each calling the project's own code (a numpy mask per hypothesis), holds the
loop for as long as the collection is large (:class:`SizedNests`).

Evidence, not names: a collection is one when its value goes over such a generator (a comprehension
whose generator does, ``list``/``set``/``sorted`` of one, the generator itself)."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from asynclint.analysis.index.corpora import MODULE, Built
from asynclint.analysis.index.helpers import COMPREHENSIONS, short_source
from asynclint.analysis.index.loops import LoopNest
from asynclint.analysis.index.nest_origins import identity
from asynclint.analysis.index.nests import SIZED, Bound, Nests
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.costs import ARRAY_LIBRARIES, COMBINATORIAL, EXPONENTIAL_GENERATORS

#: Kind of a :class:`~.corpora.Built` that is exponential in a count the data gives.
EXPONENTIAL = "exponential"
#: Builtins whose result has the items of their first argument.
_SAME_ITEMS = frozenset({"list", "set", "tuple", "sorted", "frozenset", "dict", "enumerate", "reversed"})
_BUILTINS = frozenset(dir(builtins))
_Function = ast.FunctionDef | ast.AsyncFunctionDef


def state_key(key: str) -> str:
    """How a state key is held among a module's names (:data:`~.corpora.MODULE`): never an identifier."""
    return f"[{key!r}]"


@dataclass(frozen=True)
class _Scope:
    """What a count may be read from in one function: its parameters and its locals' values."""

    params: frozenset[str]
    assigned: Mapping[str, list[ast.expr]]

    def from_data(self, node: ast.expr, seen: frozenset[str] = frozenset()) -> bool:
        """``node`` is a count the data gives (a row's field, a parameter, a length), not a literal,
        a module constant or a setting of the object (``self.n``: the environment's own)."""
        if isinstance(node, ast.Constant):
            return False
        if isinstance(node, ast.Name):
            if node.id in seen:
                return False
            values = self.assigned.get(node.id)
            if values is not None:
                return any(self.from_data(value, seen | {node.id}) for value in values)
            return node.id in self.params and node.id not in ("self", "cls")
        if isinstance(node, (ast.Attribute, ast.Subscript)):  # a field of the row, not of a module constant
            return self.from_data(node.value, seen)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [*node.args, *(k.value for k in node.keywords)]
            if node.func.id == "len":
                return bool(args) and self.from_data(args[0], seen)
            if node.func.id == "min":  # bounded by the smallest: data only if every one is
                return bool(args) and all(self.from_data(arg, seen) for arg in args)
            return any(self.from_data(arg, seen) for arg in args)
        if isinstance(node, ast.BinOp):
            return self.from_data(node.left, seen) or self.from_data(node.right, seen)
        if isinstance(node, ast.UnaryOp):
            return self.from_data(node.operand, seen)
        return False

    def exponential(self, node: ast.expr, resolve: Callable[[ast.expr], str | None]) -> str:
        """What makes ``node`` (an iterable) exponential in a count the data gives, in words; "" if not."""
        if not isinstance(node, ast.Call):
            return ""
        name = resolve(node.func) if not isinstance(node.func, ast.Name) or node.func.id != "range" else "range"
        if name == "range" and len(node.args) == 1:
            count = node.args[0]
            exponent = _exponent(count)
            return f"`{short_source(count)}` items" if exponent is not None and self.from_data(exponent) else ""
        kind = EXPONENTIAL_GENERATORS.get(name or "")
        if kind == "repeat":
            repeat = next((k.value for k in node.keywords if k.arg == "repeat"), None)
            if repeat is not None and self.from_data(repeat):
                pools = short_source(node.args[0]) if len(node.args) == 1 else "the pools' product"
                return f"`{pools}` to the power `{short_source(repeat)}`"
        if kind == "orderings" and node.args and len(node.args) == 1:
            pool = node.args[0]
            if not isinstance(pool, (ast.List, ast.Tuple, ast.Set, ast.Constant)) and self.from_data(pool):
                return f"{COMBINATORIAL[name or '']} of `{short_source(pool)}`"
        return ""

    def built(self, value: ast.expr, resolve: Callable[[ast.expr], str | None]) -> str:
        """What makes the collection ``value`` builds exponential, in words; "" if it is not one."""
        if isinstance(value, COMPREHENSIONS):
            return next((why for g in value.generators if (why := self.exponential(g.iter, resolve))), "")
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _SAME_ITEMS:
            return self.built(value.args[0], resolve) if value.args else ""
        return self.exponential(value, resolve)


def _exponent(count: ast.expr) -> ast.expr | None:
    """``n`` of ``2 ** n``, ``1 << n``, ``pow(2, n)``: a count exponential in it."""
    if isinstance(count, ast.BinOp) and isinstance(count.op, (ast.Pow, ast.LShift)):
        return count.right
    if isinstance(count, ast.Call) and isinstance(count.func, ast.Name) and count.func.id == "pow":
        return count.args[1] if len(count.args) == 2 else None
    return None


def _scope(function: _Function) -> _Scope:
    args = function.args
    params = frozenset(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    assigned: dict[str, list[ast.expr]] = {}
    for node in walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            assigned.setdefault(node.target.id, []).append(node.value)
    return _Scope(params, assigned)


def exponential_collections(
    tree: ast.Module, resolve: Callable[[ast.expr], str | None]
) -> tuple[dict[str, dict[str, Built]], frozenset[str]]:
    """Class qualname -> the attributes of ``self`` any of its methods binds to a collection exponential
    in a count the data gives; :data:`~.corpora.MODULE` -> the state keys (:func:`state_key`) any
    function binds so (``state["hypotheses"] = ...``); and the names the walk must see in a loop's
    iterable to look at it (the keys' receivers, the attributes)."""
    found: dict[str, dict[str, Built]] = {}
    words: set[str] = set()

    def visit(body: list[ast.stmt], cls: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, f"{cls}.{node.name}" if cls else node.name)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope = _scope(node)
                for stmt in walk(node):
                    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                        _keep(stmt.targets[0], stmt.value, scope, cls, node.name)
                    elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.comprehension)):
                        # A loop over ``range(2 ** n)`` itself: the walk looks at a loop naming ``range``.
                        iterable = stmt.iter
                        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name):
                            if scope.exponential(iterable, resolve):
                                words.add(iterable.func.id)

    def _keep(target: ast.expr, value: ast.expr, scope: _Scope, cls: str, function: str) -> None:
        if not isinstance(target, (ast.Subscript, ast.Attribute)):
            return
        why = scope.built(value, resolve)
        if not why:
            return
        held = Built(f"{why}, built in `{function}`", kind=EXPONENTIAL)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            found.setdefault(cls, {})[target.attr] = held
            words.add(target.attr)
        elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
            if isinstance(target.slice.value, str) and isinstance(target.value, ast.Name):
                found.setdefault(MODULE, {})[state_key(target.slice.value)] = held
                words.add(target.value.id)

    visit(tree.body, "")
    return found, frozenset(words)


def merged(collections: dict[str, dict[str, Built]], exponential: dict[str, dict[str, Built]]) -> None:
    """Add the exponential collections to a module's collections over a whole source, in place (a
    corpus's entry stays: what the constructor built over a source is that source's)."""
    for owner, names in exponential.items():
        held = collections.setdefault(owner, {})
        for name, built in names.items():
            held.setdefault(name, built)


class SizedNests(Nests):
    """:class:`~.nests.Nests` that also sizes loops over a collection exponential in a count the data
    gives: a loop over one kept in the state or on the object (a whole walk of it per call), and a
    loop over the generator itself (``product((0, 1), repeat=n)``: every one of its 2^n tuples)."""

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._scope = _scope(self.node)
        #: id of an iterable sized exponential -> whether each item calls code (the project's, numpy).
        self.exponential: dict[int, bool] = {}

    def items(self, node: ast.expr) -> Bound:
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            held = self.closed_over.get(state_key(node.slice.value))
            if held is not None and held.kind == EXPONENTIAL:
                self.exponential.setdefault(id(node), False)
                why = f"`{short_source(node)}`: {held.origin}"
                return Bound(SIZED, why, source=identity(node), whole=True, loaded=True)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            held = self.collections.get(node.attr)
            if held is not None and held.kind == EXPONENTIAL:
                self.exponential.setdefault(id(node), False)
                why = f"`{short_source(node)}`: {held.origin}"
                return Bound(SIZED, why, source=identity(node), whole=True, loaded=True)
        why = self._scope.exponential(node, self.resolve)
        if why:
            self.exponential.setdefault(id(node), False)
            return Bound(SIZED, why, whole=True, loaded=True)
        return super().items(node)

    def _combinatorial(self, name: str, call: ast.Call) -> tuple[Bound, int]:
        if self._scope.exponential(call, self.resolve):
            return self.items(call), 2
        return super()._combinatorial(name, call)

    def push(self, target: ast.expr, iterable: ast.expr, node: ast.AST) -> None:
        super().push(target, iterable, node)
        if id(iterable) in self.exponential:
            self.exponential[id(iterable)] = _calls_per_item(node, iterable, self.resolve)


def _calls_per_item(loop: ast.AST, iterable: ast.expr, resolve: Callable[[ast.expr], str | None]) -> bool:
    """Each item of ``loop`` (over ``iterable``) calls code of weight: a function of the project (not a
    builtin, not a method of the item) or an array library's (``np.array(bits)``)."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        parts: list[ast.AST] = list(loop.body)
    elif isinstance(loop, COMPREHENSIONS):
        element = loop.value if isinstance(loop, ast.DictComp) else loop.elt
        parts = [*loop.generators, element]
    else:
        return False
    for part in parts:
        for node in walk(part):
            if not isinstance(node, ast.Call) or node is iterable:
                continue
            if isinstance(node.func, ast.Name) and node.func.id not in _BUILTINS:
                return True
            name = resolve(node.func) or ""
            if any(name.startswith(prefix) for prefix in ARRAY_LIBRARIES):
                return True
    return False


def mark_exponential(walk: Nests, nests: list[LoopNest]) -> list[LoopNest]:
    """``nests`` with those over a collection exponential in a count the data gives marked (and whether
    each of its items calls code of weight), for the rule's cost class and words."""
    if not isinstance(walk, SizedNests) or not walk.exponential:
        return nests
    marked: dict[int, str] = {}
    for outer, nest in walk.found.items():
        flags = [
            walk.exponential[id(level.iterable)] for level in nest.levels if id(level.iterable) in walk.exponential
        ]
        if flags:
            marked[getattr(outer.node, "lineno", 0)] = "calls" if any(flags) else "items"
    return [replace(nest, exponential=marked[nest.line]) if nest.line in marked else nest for nest in nests]
