"""Dataset rows as the project builds them: what each function returns as rows (the constant keys
every returned dict sets, the dicts under them, the rows and calls it copies) and the rows handed to
``Dataset.from_list`` (:class:`~asynclint.analysis.index.records.RowShape`). The graph reads from
them the keys every row carries (:mod:`asynclint.analysis.rows`); tests of those keys in the
rollouts are :mod:`asynclint.analysis.index.rowtests`'."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from asynclint.analysis.index.bodies import Bodies, FunctionBody
from asynclint.analysis.index.helpers import may_be_project
from asynclint.analysis.index.row_records import RowShape
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.frameworks import DATASET_FROM_ROWS, DATASET_KEYWORDS, OPAQUE_DATASETS

Denoted = Callable[[ast.expr], "str | None"]
_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Calls that copy the dict they are handed (``dict(row)``, ``row.copy()``, ``copy.copy(row)``).
_COPIES = ("builtins.dict", "copy.copy", "copy.deepcopy")
#: Text a module that builds or hands over a dataset holds (its calls are searched only then).
_DATASET_TEXT = re.compile(r"from_list|dataset\s*=")
#: Expressions that may hold rows (a constant, an f-string or arithmetic holds none).
_ROW_VALUES = (ast.Name, ast.Call, ast.Dict, ast.List, ast.ListComp, ast.Subscript)
#: Packages whose calls return no dataset rows of the project's (a framework, the datasets library).
_LIBRARY_ROOTS = frozenset({"verifiers", "datasets"})


def _falsy_constant(node: ast.expr) -> bool:
    """``None``, ``""``, ``0``, ``False``, an empty display: a key set to it is no key to rely on."""
    if isinstance(node, ast.Constant):
        return not node.value
    return isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and not (
        node.elts if not isinstance(node, ast.Dict) else node.keys
    )


@dataclass
class _Body:
    """One function's statements, read once: where each local is bound and appended to, and its loops."""

    statements: list[ast.stmt]
    #: A local -> its assignments, with the block each is written in.
    bound: dict[str, list[tuple[ast.Assign | ast.AnnAssign, list[ast.stmt]]]] = field(default_factory=dict)
    #: A local -> the values ``local.append(value)`` adds, with the block each call is written in.
    appended: dict[str, list[tuple[ast.expr, list[ast.stmt]]]] = field(default_factory=dict)
    #: A loop variable -> the name of what it goes over (``for row in rows``).
    loops: dict[str, str] = field(default_factory=dict)
    #: A local -> the keys deleted from it anywhere (``del row["k"]``, ``row.pop("k")``).
    removed: dict[str, set[str]] = field(default_factory=dict)
    #: Calls that may build or hand over a dataset (``Dataset.from_list(...)``, ``dataset=...``).
    datasets: list[ast.Call] = field(default_factory=list)

    @classmethod
    def of(cls, read: FunctionBody, datasets: bool) -> _Body:
        body = cls(read.statements)
        for block in read.blocks:
            for stmt in block:
                if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
                    for target in _targets(stmt):
                        if isinstance(target, ast.Name):
                            body.bound.setdefault(target.id, []).append((stmt, block))
                elif (
                    isinstance(stmt, ast.Expr)
                    and isinstance(call := stmt.value, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "append"
                    and isinstance(call.func.value, ast.Name)
                    and len(call.args) == 1
                ):
                    body.appended.setdefault(call.func.value.id, []).append((call.args[0], block))
                elif isinstance(stmt, (ast.For, ast.AsyncFor)) and isinstance(stmt.target, ast.Name):
                    body.loops[stmt.target.id] = stmt.iter.id if isinstance(stmt.iter, ast.Name) else ""
                for name, key in _removals(stmt):
                    body.removed.setdefault(name, set()).add(key)
        for stmt in body.statements if datasets else ():
            for part in ast.iter_child_nodes(stmt):
                if isinstance(part, ast.expr):
                    body.datasets.extend(n for n in walk(part) if isinstance(n, ast.Call) and _may_build(n))
        return body


def _may_build(call: ast.Call) -> bool:
    """Worth resolving as a dataset build: ``from_list(...)`` or a call handed ``dataset=``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "from_list" or any(k.arg in DATASET_KEYWORDS for k in call.keywords)


class RowShapes:
    """Reads one module's row builds into :class:`RowShape` records (``shapes``)."""

    def __init__(self, denoted: Denoted, bodies: Bodies) -> None:
        self.denoted = denoted
        self._read = bodies
        self.shapes: list[RowShape] = []
        self._following: set[tuple[int, str]] = set()  # (function, name) being read: ``x = f(x)`` ends there
        self._bodies: dict[int, _Body] = {}
        self._datasets = False  # the source may build or hand over a dataset (see read)
        self._lines: list[str] = []

    def body(self, node: _Function) -> _Body:
        found = self._bodies.get(id(node))
        if found is None:
            text = self._datasets and "\n".join(self._lines[node.lineno - 1 : node.end_lineno])
            datasets = bool(text and _DATASET_TEXT.search(text))
            found = self._bodies[id(node)] = _Body.of(self._read(node), datasets)
        return found

    def read(
        self, defined: list[_Function], indexes: dict[tuple[int, str], int], source: str, lines: list[str]
    ) -> None:
        """Read the functions ``defined`` in ``source`` (of ``lines``); ``indexes``: (line, name)
        of each function -> its index."""
        self._datasets = _DATASET_TEXT.search(source) is not None
        self._lines = lines
        for node in defined:
            index = indexes.get((node.lineno, node.name))
            if index is None:
                continue
            body = self.body(node)
            params = {arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
            for stmt in body.statements:
                if isinstance(stmt, ast.Return) and isinstance(stmt.value, _ROW_VALUES):
                    self._returned(node, params, stmt.value, index)
            for call in body.datasets:
                self._dataset(node, params, call, index)

    def _returned(self, node: _Function, params: set[str], value: ast.expr, index: int) -> None:
        for items in (True, False):
            shape = self._shape(node, params, value, items)
            if shape is not None and (shape.keys or shape.copies or shape.calls or shape.item_calls):
                self.shapes.append(replace(shape, function=index))
                return

    def _dataset(self, node: _Function, params: set[str], call: ast.Call, index: int) -> None:
        target = self.denoted(call.func)
        if any(k.arg in DATASET_KEYWORDS and self._opaque(node, k.value) for k in call.keywords):
            self.shapes.append(RowShape(index, True, dataset=True))  # rows the tool cannot see: no key known
        elif target in DATASET_FROM_ROWS and call.args:
            shape = self._shape(node, params, call.args[0], True) or RowShape(-1, True)
            self.shapes.append(replace(shape, function=index, dataset=True))

    def _opaque(self, node: _Function, value: ast.expr, depth: int = 0) -> bool:
        """``value`` is a dataset read from the hub or a file (``load_dataset(...)``, also through
        a local and ``.map``/``.filter``/``.select`` of one)."""
        while (
            isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and self.denoted(value.func) is None
        ):
            value = value.func.value  # ``load_dataset(...).map(f)``: the dataset it maps
        if isinstance(value, ast.Name) and depth < 4:
            bound = [stmt.value for stmt, _ in self.body(node).bound.get(value.id, ()) if stmt.value is not None]
            return any(self._opaque(node, held, depth + 1) for held in bound)
        return isinstance(value, ast.Call) and self.denoted(value.func) in OPAQUE_DATASETS

    def _shape(self, node: _Function, params: set[str], value: ast.expr, items: bool) -> RowShape | None:
        """What ``value`` (written in ``node``) holds: rows (``items``) or one row."""
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
            return self._shape(node, params, value.value, items) if items else None  # ``rows[:n]``
        if isinstance(value, ast.Name):
            return self._named(node, params, value.id, items)
        if isinstance(value, ast.Call):
            return self._called(node, params, value, items)
        if items and isinstance(value, ast.List) and value.elts:
            found = [self._shape(node, params, elt, False) for elt in value.elts]
            return _each(_common(found), self.body(node).loops)
        if items and isinstance(value, ast.ListComp) and len(value.generators) == 1:
            loop = value.generators[0]
            row = self._shape(node, params, value.elt, False)
            if row is None:
                return None
            copied: tuple[str, ...] = ()
            if isinstance(loop.target, ast.Name) and loop.target.id in row.copies and isinstance(loop.iter, ast.Name):
                copied = (loop.iter.id,) if loop.iter.id in params else ()
            return RowShape(-1, True, row.keys, copied, item_calls=row.calls, nested=row.nested)
        if not items and isinstance(value, ast.Dict):
            pairs = [
                (key.value, held)
                for key, held in zip(value.keys, value.values, strict=True)
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and not _falsy_constant(held)
            ]
            nested = tuple(self._nested(node, params, pairs))
            return RowShape(-1, False, tuple(key for key, _ in pairs), nested=nested)
        return None

    def _nested(
        self, node: _Function, params: set[str], pairs: list[tuple[str, ast.expr]]
    ) -> Iterator[tuple[str, int]]:
        """The dicts under some of the keys (``"info": {...}``, ``row["info"] = normalised(info)``):
        (key, index of the dict's shape)."""
        for key, held in pairs:
            if isinstance(held, (ast.Dict, ast.Name, ast.Call)):
                shape = self._shape(node, params, held, False)
                if shape is not None and (shape.keys or shape.copies or shape.calls):
                    self.shapes.append(shape)
                    yield key, len(self.shapes) - 1

    def _called(self, node: _Function, params: set[str], call: ast.Call, items: bool) -> RowShape | None:
        target = self.denoted(call.func)
        copied = call.args[0] if target in _COPIES and len(call.args) == 1 and not items else None
        if isinstance(call.func, ast.Attribute) and call.func.attr == "copy" and not call.args:
            copied = call.func.value
        if copied is not None or (target == "builtins.list" and items):
            inner = copied if copied is not None else call.args[0] if call.args else None
            if isinstance(inner, ast.Name) and (inner.id in params or inner.id in self.body(node).loops):
                return RowShape(-1, items, copies=(inner.id,))
            return self._shape(node, params, inner, items) if inner is not None else None
        if target is None or not may_be_project(target) or target.partition(".")[0] in _LIBRARY_ROOTS:
            return None
        args = []
        for slot, arg in [*enumerate(call.args), *((k.arg, k.value) for k in call.keywords if k.arg)]:
            held = self._shape(node, params, arg, True) or self._shape(node, params, arg, False)
            if held is not None and (held.keys or held.copies or held.calls or held.item_calls):
                self.shapes.append(held)
                args.append((str(slot), len(self.shapes) - 1))
        return RowShape(-1, items, calls=((target, tuple(args)),))

    def _named(self, node: _Function, params: set[str], name: str, items: bool) -> RowShape | None:
        """A local: bound once (``rows = rows[:n]`` aside), then filled by ``name.append(row)`` (rows)
        or ``name["k"] = v`` in the block it is bound in (one row)."""
        if (id(node), name) in self._following:
            return None
        self._following.add((id(node), name))
        try:
            return self._bound(node, params, name, items)
        finally:
            self._following.discard((id(node), name))

    def _bound(self, node: _Function, params: set[str], name: str, items: bool) -> RowShape | None:
        body = self.body(node)
        bound = [
            (stmt, block)
            for stmt, block in body.bound.get(name, ())
            if not (
                isinstance(stmt.value, ast.Subscript)
                and isinstance(stmt.value.value, ast.Name)
                and stmt.value.value.id == name
            )
        ]
        if len(bound) != 1 or bound[0][0].value is None:
            return None
        stmt, block = bound[0]
        value = stmt.value
        assert value is not None
        if items and isinstance(value, ast.List) and not value.elts:
            appended = [self._shape(node, params, added, False) for added, where in body.appended.get(name, ())]
            return _each(_common(appended), body.loops)
        shape = self._shape(node, params, value, items)
        if shape is None or items:
            return shape
        stored = [
            (target.slice.value, s.value)
            for s in block[block.index(stmt) + 1 :]
            if isinstance(s, ast.Assign) and not _falsy_constant(s.value)
            for target in s.targets
            if isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == name
            and isinstance(target.slice, ast.Constant)
            and isinstance(target.slice.value, str)
        ]
        removed = body.removed.get(name, set())
        nested = tuple(pair for pair in (*shape.nested, *self._nested(node, params, stored)) if pair[0] not in removed)
        keys = tuple(key for key in (*shape.keys, *(key for key, _ in stored)) if key not in removed)
        return RowShape(-1, False, keys, shape.copies, shape.calls, nested=nested)


def _removals(stmt: ast.stmt) -> Iterator[tuple[str, str]]:
    """(local, key) for ``del local["key"]`` and ``local.pop("key"[, default])``."""
    if isinstance(stmt, ast.Delete):
        removed = stmt.targets
    elif isinstance(stmt, (ast.Expr, ast.Assign)) and isinstance(call := stmt.value, ast.Call):
        func = call.func
        removed = (
            [ast.Subscript(func.value, call.args[0], ast.Del())]
            if isinstance(func, ast.Attribute) and func.attr == "pop" and call.args
            else []
        )
    else:
        return
    for target in removed:
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and isinstance(target.slice, ast.Constant)
            and isinstance(target.slice.value, str)
        ):
            yield target.value.id, target.slice.value


def _targets(stmt: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]


def _each(row: RowShape | None, loops: dict[str, str]) -> RowShape | None:
    """Rows made one by one (appended in a loop, written in a display): each is ``row``; a copy
    of the loop variable copies each item of what the loop goes over (a parameter)."""
    if row is None:
        return None
    copied = tuple(loops[name] for name in row.copies if loops.get(name))
    return RowShape(-1, True, row.keys, copied, item_calls=row.calls, nested=row.nested)


def _common(found: list[RowShape | None]) -> RowShape | None:
    """What every one of several rows sets: their common keys, when they are plain displays;
    one row as it is."""
    if not found or any(row is None for row in found):
        return None
    if len(found) == 1:
        return found[0]
    rows = [row for row in found if row is not None]
    if any(row.copies or row.calls for row in rows):
        return None
    keys = set(rows[0].keys).intersection(*(row.keys for row in rows[1:]))
    return RowShape(-1, False, tuple(sorted(keys)))
