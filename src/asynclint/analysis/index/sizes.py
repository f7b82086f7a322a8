"""The counts a module fixes at its top level, read from the syntax of one file: its constants'
sizes (a tuple's length, an integer, a comprehension over other constants) and the names it gives
a literal integer (settings: a config dict's keys, class fields), the raw material of
:mod:`asynclint.analysis.index.work`'s trip counts, looked up by the project graph."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from asynclint.analysis.index.helpers import COMPREHENSIONS
from asynclint.knowledge.costs import SAME_ITEMS

#: A count as factors that multiply: digits, or names the graph looks up (see
#: :class:`~asynclint.analysis.index.loops.WorkLoop`).
Factors = tuple[str, ...]


#: A factor that is an upper bound: the larger of a conditional's counts (``range(1 if cw else 4)``:
#: ``<=4``), a fixed-step clock's limit over its step (:mod:`.clocks`). The estimate takes it and its
#: message says "up to".
UP_TO = "<="


def int_value(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def literal_count(factors: Factors | None) -> int | None:
    """The number ``factors`` stand for when they are one literal, not a name the graph looks up."""
    return int(factors[0]) if factors is not None and len(factors) == 1 and factors[0].isdigit() else None


def module_settings(tree: ast.Module) -> dict[str, int]:
    """Names the module gives a literal non-negative integer at its top level or in a class body:
    string keys of dict displays there (a config dict, nested ones too) and class-level fields
    (``max_ticks: int = 400``, also as ``Class.max_ticks``, the class's own). When one name has
    several values, the largest (a bound is an upper bound). Parameter defaults and keyword
    arguments are read by the graph from the functions' and calls' records
    (``Function.defaults``, ``CallFacts.kwargs``)."""
    found: dict[str, int] = {}

    def note(name: str, value: ast.expr | None) -> None:
        number = int_value(value) if value is not None else None
        if number is not None and number >= 0:
            found[name] = max(number, found.get(name, 0))

    def displays(node: ast.expr) -> None:
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    note(key.value, value)
                displays(value)

    bodies: list[tuple[str, list[ast.stmt]]] = [("", tree.body)]
    while bodies:
        owner, body = bodies.pop()
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                bodies.append((f"{owner}{stmt.name}.", stmt.body))
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                note(stmt.target.id, stmt.value)
                if owner:
                    note(owner + stmt.target.id, stmt.value)  # the class's own (``Backtester.windows``)
                if stmt.value is not None:
                    displays(stmt.value)
            elif isinstance(stmt, ast.Assign):
                if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    note(stmt.targets[0].id, stmt.value)
                displays(stmt.value)
    return found


def _size(node: ast.expr) -> Factors | None:
    """What a module constant's value counts, as factors (names raw, resolved by the caller)."""
    number = int_value(node)
    if number is not None:
        return (str(number),)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (str(len(node.value)),)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return (str(len(node.elts)),)
    if isinstance(node, ast.Dict) and None not in node.keys:
        return (str(len(node.keys)),)
    if isinstance(node, ast.Name):
        return (node.id,)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):  # ``[0] * 64``, ``ROWS * COLS``
        left, right = _size(node.left), _size(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, COMPREHENSIONS):
        factors: list[str] = []
        for generator in node.generators:
            inner = _size(generator.iter)
            if inner is None or generator.ifs:
                return None  # a filter makes it fewer, by how much the syntax does not say
            factors.extend(inner)
        return tuple(factors)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 and not node.keywords:
        if node.func.id in SAME_ITEMS:
            return _size(node.args[0])
    return None


def module_bindings(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    """Each module-level ``NAME = value`` (or ``NAME: T = value``), in order: where a module's
    constants are read from (a name bound twice is no constant: the callers drop it)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            yield stmt.targets[0].id, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            yield stmt.target.id, stmt.value


def module_sizes(tree: ast.Module) -> dict[str, Factors]:
    """Module-level constants that bound a loop -> their factors (other constants' names raw)."""
    found: dict[str, Factors] = {}
    for target, value in module_bindings(tree):
        factors = _size(value)
        if factors is None or target in found:
            found.pop(target, None)  # bound twice: not a constant
            continue
        found[target] = factors
    return found


def resolved_sizes(
    sizes: dict[str, Factors], module: str, resolve: Callable[[ast.expr], str | None]
) -> tuple[tuple[str, Factors], ...]:
    """The module's constants with the names in their factors made dotted (a constant of this module
    ``pkg.mod.NAME``, an imported one what it denotes); a name that denotes nothing drops its entry."""
    out = []
    for name, factors in sizes.items():
        resolved: list[str] = []
        for factor in factors:
            if factor.isdigit():
                resolved.append(factor)
            elif factor in sizes:
                resolved.append(f"{module}.{factor}")
            elif (dotted := resolve(ast.Name(id=factor, ctx=ast.Load()))) and not dotted.startswith("builtins."):
                resolved.append(dotted)
            else:
                break
        else:
            out.append((name, tuple(resolved)))
    return tuple(out)


def module_mappings(tree: ast.Module) -> dict[str, ast.Dict | ast.Call]:
    """Names the module's top level binds once, to a dict display (``CONFIG = {"write": True}``) or
    a call (``CONFIG = vf.ToolsetConfig(write=True)``): a constant a call may be handed by name,
    read like one written in the call."""
    found: dict[str, ast.Dict | ast.Call] = {}
    bound: dict[str, int] = {}
    value: ast.expr | None
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign):
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                bound[target.id] = bound.get(target.id, 0) + 1
                if isinstance(value, (ast.Dict, ast.Call)):
                    found[target.id] = value
    return {name: mapping for name, mapping in found.items() if bound[name] == 1}
