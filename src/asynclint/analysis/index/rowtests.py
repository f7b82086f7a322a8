"""Tests of the keys of the rollout's dataset row: the calls behind ``row.get("repo_root") or
find_root()``, ``if not row.get("k"):`` and ``if "k" not in row:`` (a guard the graph settles
when every row the project builds carries the key, :mod:`asynclint.analysis.rows`), the row
handed to a helper as an argument (what the chain passes it, ``CallSite.given``), and a helper's
own tests of the keys of a dict parameter (``workspace_dir = dict(info).get("workspace_dir")``;
``if workspace_dir:``), which the graph evaluates with what each chain hands it."""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass, field

from asynclint.analysis.index.bodies import Bodies
from asynclint.analysis.index.callshapes import constant_key
from asynclint.analysis.index.flags import ROW_ARGUMENT, ROW_KEYS
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.frameworks import ROLLOUT_STATE_NAMES, ROW_STATE_KEYS

_Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class RowTests:
    """The tests of row keys in one module's functions, by the ``id`` of the nodes of its tree: the
    walk has each function's read (:meth:`read`) as it enters it, before it records its calls."""

    #: A call -> the test of a row key it runs behind (``not ('repo_root' in __row_keys__)``).
    guards: dict[int, str] = field(default_factory=dict)
    #: A call -> (argument slot, ``repr`` of what it hands over: the row, or a dict column of it).
    arguments: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    #: An ``if`` test -> itself as a test of the keys of a parameter (``not workspace_dir`` ->
    #: ``not ('workspace_dir' in info)``).
    tests: dict[int, str] = field(default_factory=dict)
    #: The module's source lines, and its functions' bodies (shared with the walk's other passes).
    lines: list[str] = field(default_factory=list, repr=False)
    bodies: Bodies = field(default_factory=Bodies, repr=False)
    #: The module's helpers handed the rollout's state that read its row (:func:`_reads_row`).
    readers: set[str] = field(default_factory=set)

    def read(self, node: _Function) -> None:
        """Add the tests of row keys in function ``node``."""
        text = "\n".join(self.lines[node.lineno - 1 : node.end_lineno])
        if any(word in text for word in (".get(", *ROLLOUT_STATE_NAMES, *self.readers)):  # else nothing to find
            _FunctionRows(node, self.bodies(node).statements, self.readers, self).read()


def row_tests(tree: ast.Module, lines: list[str], bodies: Bodies) -> RowTests:
    """The row-key tests of ``tree`` (``lines``: its source's), none read yet (see :meth:`RowTests.read`)."""
    readers = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _reads_row(node)
    }
    return RowTests(lines=lines, bodies=bodies, readers=readers)


class _FunctionRows:
    def __init__(self, node: _Function, statements: list[ast.stmt], readers: set[str], found: RowTests) -> None:
        self.node, self.readers, self.found = node, readers, found
        self.statements = statements
        self.rows: dict[str, str] = {}  # a name -> the column it holds ("": the whole row)
        for stmt in self.statements:
            if isinstance(stmt, ast.Assign) and (column := self.column(stmt.value)) is not None:
                self.rows.update((t.id, column) for t in stmt.targets if isinstance(t, ast.Name))
        for name in _changed(self.statements, set(self.rows)) if self.rows else ():
            del self.rows[name]

    def read(self) -> None:
        keyed = self._keyed_params()
        for stmt in self.statements:
            for part in _expression_nodes(stmt) if self.rows else ():
                if isinstance(part, ast.BoolOp) and isinstance(part.op, ast.Or):
                    for position, value in enumerate(part.values[:-1]):
                        if (key := self.key_read(value)) is not None:
                            _guard(self.found, part.values[position + 1 :], f"not ({key!r} in {ROW_KEYS})")
                if isinstance(part, ast.Call) and (handed := tuple(self._handed(part))):
                    self.found.arguments[id(part)] = handed
            if isinstance(stmt, ast.If):
                if (key := self._missing(stmt.test)) is not None:
                    _guard(self.found, stmt.body, f"not ({key!r} in {ROW_KEYS})")
                elif keyed and (test := _as_key_test(stmt.test, keyed)) is not None:
                    self.found.tests[id(stmt.test)] = test

    def column(self, value: ast.expr) -> str | None:
        """The column of the rollout's row ``value`` holds ("" for the row), or ``None``:
        ``state["input"]``, ``state.get("info")`` (``or {}``), ``dict(...)`` of one,
        ``row["info"]``, what a reader helper of the module returns (``_row_from_state(state)``)."""
        if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
            return self.column(value.values[0])
        if isinstance(value, ast.Name):
            return self.rows.get(value.id)
        key = constant_key(value)
        owner = _keyed_owner(value)
        if key is not None and owner is not None:
            if isinstance(owner, ast.Name) and owner.id in ROLLOUT_STATE_NAMES:
                return ROW_STATE_KEYS.get(key)
            if self.column(owner) == "":
                return key  # ``row["info"]``: a column of the row
            return None
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        if isinstance(func, ast.Name) and func.id in self.readers:
            return "" if any(isinstance(a, ast.Name) and a.id in ROLLOUT_STATE_NAMES for a in value.args) else None
        if isinstance(func, ast.Name) and func.id == "dict" and len(value.args) == 1:
            return self.column(value.args[0])
        return None

    def key_read(self, value: ast.expr) -> str | None:
        """``row.get("k")`` of a row (or a column of it): the key's path (``"info.k"``)."""
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get"):
            return None
        key = constant_key(value)
        column = self.column(value.func.value)
        if key is None or column is None or len(value.args) != 1:
            return None
        return f"{column}.{key}" if column else key

    def _missing(self, test: ast.expr) -> str | None:
        """``not row.get("k")`` / ``"k" not in row``: the key a test says the row lacks."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.key_read(test.operand)
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.NotIn)
            and isinstance(test.left, ast.Constant)
            and isinstance(test.left.value, str)
            and (column := self.column(test.comparators[0])) is not None
        ):
            return f"{column}.{test.left.value}" if column else test.left.value
        return None

    def _handed(self, call: ast.Call) -> Iterator[tuple[str, str]]:
        """(slot, ``repr((ROW_ARGUMENT, column))``) for each argument that is the row or a column."""
        for slot, arg in [*enumerate(call.args), *((k.arg, k.value) for k in call.keywords if k.arg)]:
            if not isinstance(arg, ast.Starred) and (column := self.column(arg)) is not None:
                yield str(slot), repr((ROW_ARGUMENT, column))

    def _keyed_params(self) -> dict[str, tuple[str, str | None]]:
        """Names that read a dict parameter never bound again: the parameter itself and its copies
        (``normalized = dict(info)``) -> (parameter, ``None``); locals bound once to a key of one
        (``workspace_dir = normalized.get("workspace_dir")``) -> (parameter, key)."""
        args = self.node.args
        params = {arg.arg for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self", "cls"}
        counts: dict[str, int] = {}
        for stmt in self.statements:
            for target in _stored(stmt):
                counts[target] = counts.get(target, 0) + 1
        holders: dict[str, str] = {name: name for name in params if name not in counts}
        keyed: dict[str, tuple[str, str | None]] = {name: (name, None) for name in holders}
        for stmt in self.statements:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
                continue
            name, value = stmt.targets[0].id, stmt.value
            if counts.get(name) != 1:
                continue
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
                if len(value.args) == 1 and isinstance(value.args[0], ast.Name) and value.args[0].id in holders:
                    holders[name] = holders[value.args[0].id]
                    keyed[name] = (holders[name], None)
            elif (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and value.func.attr == "get"
                and isinstance(value.func.value, ast.Name)
                and value.func.value.id in holders
                and (key := constant_key(value)) is not None
            ):
                keyed[name] = (holders[value.func.value.id], key)
        return keyed


def _as_key_test(test: ast.expr, keyed: dict[str, tuple[str, str | None]]) -> str | None:
    """``test`` with each read of a key of a dict parameter written as ``'k' in param``, when it
    reads one: the graph evaluates it with the keys a chain's argument is known to carry."""
    if not any(
        (isinstance(node, ast.Name) and keyed.get(node.id, ("", None))[1] is not None)
        or (
            isinstance(node, ast.Attribute)
            and node.attr == "get"
            and isinstance(node.value, ast.Name)
            and node.value.id in keyed
        )
        for node in walk(test)
    ):
        return None
    rewritten = False

    class Rewrite(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            nonlocal rewritten
            held = keyed.get(node.id)
            if held is None or held[1] is None:
                return node
            rewritten = True
            return ast.Compare(ast.Constant(held[1]), [ast.In()], [ast.Name(held[0], ast.Load())])

        def visit_Call(self, node: ast.Call) -> ast.AST:
            nonlocal rewritten
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "get"
                and isinstance(func.value, ast.Name)
                and (held := keyed.get(func.value.id)) is not None
                and held[1] is None
                and (key := constant_key(node)) is not None
            ):
                rewritten = True
                return ast.Compare(ast.Constant(key), [ast.In()], [ast.Name(held[0], ast.Load())])
            return node

    result = Rewrite().visit(copy.deepcopy(test))
    return ast.unparse(result) if rewritten else None


def _keyed_owner(node: ast.expr) -> ast.expr | None:
    """The dict ``x`` of ``x["k"]`` or ``x.get("k")``."""
    if isinstance(node, ast.Subscript):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return node.func.value
    return None


def _guard(found: RowTests, parts: list[ast.expr] | list[ast.stmt], guard: str) -> None:
    for part in parts:
        for node in walk(part):
            if isinstance(node, ast.Call):
                found.guards.setdefault(id(node), guard)


def _reads_row(node: _Function) -> bool:
    """A helper handed the rollout's state that reads its dataset row (``state.get("input")``,
    also by a key taken from a tuple naming it: ``for key in ("input", "task")``)."""
    params = {arg.arg for arg in node.args.args}
    if not params & ROLLOUT_STATE_NAMES:
        return False
    nodes = [n for stmt in node.body for n in walk(stmt)]
    return any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and ROW_STATE_KEYS.get(n.value) == "" for n in nodes
    ) and any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "get"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id in ROLLOUT_STATE_NAMES
        for n in nodes
    )


def _stored(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    else:
        return
    while targets:
        target = targets.pop()
        if isinstance(target, ast.Name):
            yield target.id  # (``row["k"] = v`` binds no name: it changes what ``row`` holds)
        elif isinstance(target, (ast.Tuple, ast.List)):
            targets.extend(target.elts)
        elif isinstance(target, ast.Starred):
            targets.append(target.value)


def _changed(statements: list[ast.stmt], rows: set[str]) -> set[str]:
    """Rows the function changes itself (``del row["k"]``, ``row.pop("k")``, ``row["k"] = v``,
    bound again to anything but an empty dict): a test of them is the function's own business."""
    changed = set()
    for node in (n for stmt in statements for n in _expression_nodes(stmt)):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if isinstance(node.value, ast.Name) and node.value.id in rows:
                changed.add(node.value.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("pop", "clear", "update", "setdefault") and isinstance(node.func.value, ast.Name):
                changed.add(node.func.value.id)
    bound = [
        name
        for stmt in statements
        if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Dict) and not stmt.value.keys)
        for name in _stored(stmt)
    ]
    changed.update(name for name in rows if bound.count(name) > 1)
    return changed & rows


def _expression_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """Every node of ``stmt``'s own expressions (not of the statements inside it)."""
    for child in ast.iter_child_nodes(stmt):
        if isinstance(child, ast.expr):
            yield from walk(child)
