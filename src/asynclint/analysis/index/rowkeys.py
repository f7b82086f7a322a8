"""Dataset rows and the tests of their fields: what each function returns as rows (the constant
keys every returned dict sets, the rows and calls it copies), the rows handed to
``Dataset.from_list`` (:class:`~asynclint.analysis.index.records.RowShape`), and the calls behind a
test of a key of the rollout's row (``row.get("repo_root") or find_root()``), which the graph
settles when every row the project builds carries the key (:mod:`asynclint.analysis.rows`)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import replace

from asynclint.analysis.index.flags import ROW_KEYS
from asynclint.analysis.index.helpers import may_be_project
from asynclint.analysis.index.records import RowShape
from asynclint.knowledge.frameworks import DATASET_FROM_ROWS, OPAQUE_DATASETS, ROLLOUT_STATE_NAMES, ROW_STATE_KEYS

Denoted = Callable[[ast.expr], "str | None"]
_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Calls that copy the dict they are handed (``dict(row)``, ``row.copy()``, ``copy.copy(row)``).
_COPIES = ("builtins.dict", "copy.copy", "copy.deepcopy")
#: Packages whose calls return no dataset rows of the project's (a framework, the datasets library).
LIBRARY_ROOTS = frozenset({"verifiers", "datasets"})


def _own_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body`` and of the blocks inside it, but not of nested definitions."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _own_statements(getattr(stmt, field, []))
        for handler in getattr(stmt, "handlers", []):
            yield from _own_statements(handler.body)


def _falsy_constant(node: ast.expr) -> bool:
    """``None``, ``""``, ``0``, ``False``, an empty display: a key set to it is no key to rely on."""
    if isinstance(node, ast.Constant):
        return not node.value
    return isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and not (
        node.elts if not isinstance(node, ast.Dict) else node.keys
    )


class RowShapes:
    """Reads one module's row builds into :class:`RowShape` records (``shapes``)."""

    def __init__(self, denoted: Denoted) -> None:
        self.denoted = denoted
        self.shapes: list[RowShape] = []
        self._following: set[tuple[int, str]] = set()  # (function, name) being read: ``x = f(x)`` ends there

    def read(self, tree: ast.Module, indexes: dict[tuple[int, str], int]) -> None:
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            index = indexes.get((node.lineno, node.name))
            if index is None:
                continue
            statements = list(_own_statements(node.body))
            params = {arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
            for stmt in statements:
                if isinstance(stmt, ast.Return) and stmt.value is not None:
                    self._returned(node, statements, params, stmt.value, index)
            for stmt in statements:
                for call in (n for n in ast.iter_child_nodes(stmt) for n in ast.walk(n) if isinstance(n, ast.Call)):
                    self._dataset(node, statements, params, call, index)

    def _returned(self, node: _Function, body: list[ast.stmt], params: set[str], value: ast.expr, index: int) -> None:
        for items in (True, False):
            shape = self._shape(node, body, params, value, items)
            if shape is not None and (shape.keys or shape.copies or shape.calls or shape.item_calls):
                self.shapes.append(replace(shape, function=index))
                return

    def _dataset(self, node: _Function, body: list[ast.stmt], params: set[str], call: ast.Call, index: int) -> None:
        target = self.denoted(call.func)
        if target in OPAQUE_DATASETS:  # rows the tool cannot see: no key is known to be on every row
            self.shapes.append(RowShape(index, True, dataset=True))
        elif target in DATASET_FROM_ROWS and call.args:
            shape = self._shape(node, body, params, call.args[0], True) or RowShape(-1, True)
            self.shapes.append(replace(shape, function=index, dataset=True))

    def _shape(
        self, node: _Function, body: list[ast.stmt], params: set[str], value: ast.expr, items: bool
    ) -> RowShape | None:
        """What ``value`` (written in ``node``) holds: rows (``items``) or one row."""
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice):
            return self._shape(node, body, params, value.value, items) if items else None  # ``rows[:n]``
        if isinstance(value, ast.Name):
            return self._named(node, body, params, value.id, items)
        if isinstance(value, ast.Call):
            return self._called(node, body, params, value, items)
        if items and isinstance(value, ast.List) and value.elts:
            found = [self._shape(node, body, params, elt, False) for elt in value.elts]
            return _each(_common(found), node)
        if items and isinstance(value, ast.ListComp) and len(value.generators) == 1:
            loop = value.generators[0]
            row = self._shape(node, body, params, value.elt, False)
            if row is None:
                return None
            copied: tuple[str, ...] = ()
            if isinstance(loop.target, ast.Name) and loop.target.id in row.copies and isinstance(loop.iter, ast.Name):
                copied = (loop.iter.id,) if loop.iter.id in params else ()
            return RowShape(-1, True, row.keys, copied, item_calls=row.calls)
        if not items and isinstance(value, ast.Dict):
            keys = tuple(
                key.value
                for key, held in zip(value.keys, value.values, strict=True)
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and not _falsy_constant(held)
            )
            return RowShape(-1, False, keys)
        return None

    def _called(
        self, node: _Function, body: list[ast.stmt], params: set[str], call: ast.Call, items: bool
    ) -> RowShape | None:
        target = self.denoted(call.func)
        copied = call.args[0] if target in _COPIES and len(call.args) == 1 else None
        if isinstance(call.func, ast.Attribute) and call.func.attr == "copy" and not call.args:
            copied = call.func.value
        if copied is not None or target == "builtins.list":
            inner = copied if copied is not None else call.args[0] if call.args else None
            if isinstance(inner, ast.Name) and inner.id in params | _loop_names(node):
                return RowShape(-1, items, copies=(inner.id,))
            return self._shape(node, body, params, inner, items) if inner is not None else None
        if target is None or not may_be_project(target) or target.partition(".")[0] in LIBRARY_ROOTS:
            return None
        args = []
        for slot, arg in [*enumerate(call.args), *((k.arg, k.value) for k in call.keywords if k.arg)]:
            held = self._shape(node, body, params, arg, True) or self._shape(node, body, params, arg, False)
            if held is not None and (held.keys or held.copies or held.calls or held.item_calls):
                self.shapes.append(held)
                args.append((str(slot), len(self.shapes) - 1))
        return RowShape(-1, items, calls=((target, tuple(args)),))

    def _named(
        self, node: _Function, body: list[ast.stmt], params: set[str], name: str, items: bool
    ) -> RowShape | None:
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
        bound = [
            (stmt, block)
            for block in _blocks(node)
            for stmt in block
            if isinstance(stmt, (ast.Assign, ast.AnnAssign))
            and any(isinstance(t, ast.Name) and t.id == name for t in _targets(stmt))
            and not (isinstance(stmt.value, ast.Subscript) and ast.unparse(stmt.value.value) == name)
        ]
        if len(bound) != 1 or bound[0][0].value is None:
            return None
        stmt, block = bound[0]
        value = stmt.value
        assert value is not None
        if items and isinstance(value, ast.List) and not value.elts:
            appended = [
                self._shape(node, block_of, params, n.args[0], False)
                for block_of in _blocks(node)
                for s in block_of
                if isinstance(s, ast.Expr)
                and isinstance(n := s.value, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == "append"
                and ast.unparse(n.func.value) == name
                and len(n.args) == 1
            ]
            return _each(_common(appended), node)
        shape = self._shape(node, block, params, value, items)
        if shape is None or items:
            return shape
        stored = [
            target.slice.value
            for s in block[block.index(stmt) + 1 :]
            if isinstance(s, ast.Assign) and not _falsy_constant(s.value)
            for target in s.targets
            if isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == name
            and isinstance(target.slice, ast.Constant)
            and isinstance(target.slice.value, str)
        ]
        return RowShape(-1, False, (*shape.keys, *stored), shape.copies, shape.calls)


def _targets(stmt: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]


def _blocks(node: _Function) -> Iterator[list[ast.stmt]]:
    """The function's body and every block inside it (not nested definitions')."""
    yield node.body
    for stmt in _own_statements(node.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            if block := getattr(stmt, field, None):
                yield block
        for handler in getattr(stmt, "handlers", []):
            yield handler.body


def _loop_names(node: _Function) -> set[str]:
    return {
        stmt.target.id
        for stmt in _own_statements(node.body)
        if isinstance(stmt, (ast.For, ast.AsyncFor)) and isinstance(stmt.target, ast.Name)
    }


def _each(row: RowShape | None, node: _Function) -> RowShape | None:
    """Rows made one by one (appended in a loop, written in a display): each is ``row``; a copy
    of the loop variable copies each item of what the loop goes over (a parameter)."""
    if row is None:
        return None
    loops = {
        stmt.target.id: stmt.iter.id
        for stmt in _own_statements(node.body)
        if isinstance(stmt, (ast.For, ast.AsyncFor))
        and isinstance(stmt.target, ast.Name)
        and isinstance(stmt.iter, ast.Name)
    }
    copied = tuple(loops[name] for name in row.copies if name in loops)
    return RowShape(-1, True, row.keys, copied, item_calls=row.calls)


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


def row_guards(tree: ast.Module) -> dict[int, str]:
    """id of a call -> the test of a row key it runs behind: the right side of ``row.get("k") or
    f()``, the body of ``if not row.get("k"):`` / ``if "k" not in row:``, where ``row`` is the
    rollout's dataset row (``state["input"]``, a copy of it, or what a helper of this module that
    reads it out of the state returns). The guard holds unless every row carries ``"k"``."""
    readers = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _reads_row(node)
    }
    found: dict[int, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        statements = list(_own_statements(node.body))
        rows = {
            target.id
            for stmt in statements
            if isinstance(stmt, ast.Assign) and _row_value(stmt.value, readers)
            for target in stmt.targets
            if isinstance(target, ast.Name)
        }
        rows -= _rebound(statements, rows)
        for stmt in statements:
            expressions = (child for child in ast.iter_child_nodes(stmt) if isinstance(child, ast.expr))
            for part in (n for child in expressions for n in ast.walk(child)):
                if isinstance(part, ast.BoolOp) and isinstance(part.op, ast.Or):
                    for position, value in enumerate(part.values[:-1]):
                        if (key := _row_get(value, rows, readers)) is not None:
                            _guard(found, part.values[position + 1 :], f"not ({key!r} in {ROW_KEYS})")
            if isinstance(stmt, ast.If) and (key := _missing(stmt.test, rows, readers)) is not None:
                _guard(found, stmt.body, f"not ({key!r} in {ROW_KEYS})")
    return found


def _guard(found: dict[int, str], parts: list, guard: str) -> None:
    for part in parts:
        for node in ast.walk(part):
            if isinstance(node, ast.Call):
                found.setdefault(id(node), guard)


def _reads_row(node: _Function) -> bool:
    """A helper handed the rollout's state that reads its dataset row (``state.get("input")``,
    also by a key taken from a tuple naming it: ``for key in ("input", "task")``)."""
    params = {arg.arg for arg in node.args.args}
    if not params & set(ROLLOUT_STATE_NAMES):
        return False
    return any(
        isinstance(n, ast.Constant) and n.value in ROW_STATE_KEYS for stmt in node.body for n in ast.walk(stmt)
    ) and any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "get"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id in ROLLOUT_STATE_NAMES
        for stmt in node.body
        for n in ast.walk(stmt)
    )


def _row_value(value: ast.expr, readers: set[str]) -> bool:
    """``state["input"]``, ``state.get("input")`` (``or {}``), ``dict(...)`` of one, ``_row_from_state(state)``."""
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
        return _row_value(value.values[0], readers)
    if isinstance(value, ast.Subscript):
        return (
            isinstance(value.value, ast.Name)
            and value.value.id in ROLLOUT_STATE_NAMES
            and isinstance(value.slice, ast.Constant)
            and value.slice.value in ROW_STATE_KEYS
        )
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Name) and func.id in readers:
        return any(isinstance(arg, ast.Name) and arg.id in ROLLOUT_STATE_NAMES for arg in value.args)
    if isinstance(func, ast.Name) and func.id == "dict" and len(value.args) == 1:
        return _row_value(value.args[0], readers)
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "get"
        and isinstance(func.value, ast.Name)
        and func.value.id in ROLLOUT_STATE_NAMES
        and bool(value.args)
        and isinstance(value.args[0], ast.Constant)
        and value.args[0].value in ROW_STATE_KEYS
    )


def _row_get(value: ast.expr, rows: set[str], readers: set[str]) -> str | None:
    """``row.get("k")`` / ``row["k"]`` of a row: ``"k"``."""
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:
        func = value.func
        if isinstance(func, ast.Attribute) and func.attr == "get" and _is_row(func.value, rows, readers):
            key = value.args[0]
            return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
    return None


def _is_row(node: ast.expr, rows: set[str], readers: set[str]) -> bool:
    return (isinstance(node, ast.Name) and node.id in rows) or _row_value(node, readers)


def _missing(test: ast.expr, rows: set[str], readers: set[str]) -> str | None:
    """``not row.get("k")`` / ``"k" not in row``: the key a test says the row lacks."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _row_get(test.operand, rows, readers)
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.NotIn)
        and isinstance(test.left, ast.Constant)
        and isinstance(test.left.value, str)
        and _is_row(test.comparators[0], rows, readers)
    ):
        return test.left.value
    return None


def _rebound(statements: list[ast.stmt], rows: set[str]) -> set[str]:
    """Rows the function changes itself (``del row["k"]``, ``row.pop("k")``, ``row["k"] = None``,
    bound again to something else): a test of them is the function's own business."""
    changed = set()
    for node in (n for stmt in statements for n in ast.walk(stmt)):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.value, ast.Name) and node.value.id in rows:
                changed.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("pop", "clear"):
            if isinstance(node.func.value, ast.Name) and node.func.value.id in rows:
                changed.add(node.func.value.id)
    bound = [
        target.id
        for stmt in statements
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
        if isinstance(target, ast.Name) and target.id in rows
    ]
    changed.update(name for name in rows if bound.count(name) > 1)
    return changed
