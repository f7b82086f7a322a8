"""Fixed-step clocks: a ``while`` loop that advances a time by a step the module fixes up to a limit
it fixes (``while time < TIME_LIMIT: ... time += STEP``, a physics integrator), counted as the
limit over the step -- the numbers read from the module's constants (:func:`module_numbers`)."""

from __future__ import annotations

import ast
from math import ceil

from asynclint.analysis.index.helpers import SCOPES
from asynclint.analysis.index.sizes import UP_TO, Factors, int_value, module_bindings


def module_numbers(tree: ast.Module) -> dict[str, float]:
    """Module-level names bound once to a number the syntax computes (``STEP = 1.0 / 240``,
    ``TIME_LIMIT = 26.0``, also from names bound so before): what a ``while`` loop advancing a
    clock by a fixed step up to a limit reads its count from."""
    found: dict[str, float] = {}
    bound: set[str] = set()
    for target, value in module_bindings(tree):
        number = numeric_value(value, found)
        if number is None or target in bound:
            found.pop(target, None)  # bound twice: not a constant
        else:
            found[target] = number
        bound.add(target)
    return found


def numeric_value(node: ast.expr, names: dict[str, float]) -> float | None:
    """The number ``node`` computes from literals and ``names`` with ``+ - * /`` and a sign."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = numeric_value(node.operand, names)
        return None if inner is None else -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        left, right = numeric_value(node.left, names), numeric_value(node.right, names)
        if left is None or right is None or (isinstance(node.op, ast.Div) and right == 0):
            return None
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        return left * right if isinstance(node.op, ast.Mult) else left / right
    return None


def clock_trips(steps: list[ast.expr], bound: ast.expr, numbers: dict[str, float]) -> Factors | None:
    """A counter advanced by one fixed step that is not a whole count (``time += STEP``,
    ``STEP = 1.0 / 240``) up to a limit the module fixes: how many steps reach the limit, as an
    upper bound (the clock's start is not read). ``None`` for ``i += 1``: the bound is the count."""
    if len(steps) != 1 or int_value(steps[0]) is not None:
        return None
    step, limit = numeric_value(steps[0], numbers), numeric_value(bound, numbers)
    if step is None or limit is None or step <= 0 or limit <= 0:
        return None
    return (f"{UP_TO}{ceil(limit / step)}",)


def leaves_early(body: list[ast.stmt]) -> bool:
    """The loop's own body (not a loop or function inside it) has a ``break`` or a ``return``."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Break, ast.Return)):
            return True
        if not isinstance(node, (*SCOPES, ast.For, ast.AsyncFor, ast.While)):
            stack.extend(ast.iter_child_nodes(node))
    return False
