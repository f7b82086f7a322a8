"""The indexer's shortcuts give what the long way gave: the walks read from one preorder walk of the
module (:mod:`asynclint.analysis.index.walks`), in the same order where a reader keeps it; a call's rare
facts changed without ``dataclasses.replace``; a test rewritten only when there is something to rewrite."""

from __future__ import annotations

import ast
import inspect
import random
from collections.abc import Iterator
from dataclasses import fields, replace

import pytest

from asynclint.analysis.index import conditions, walks
from asynclint.analysis.index.bodies import own_nodes
from asynclint.analysis.index.callfacts import NO_FACTS, CallFacts, changed
from asynclint.analysis.index.helpers import SCOPES

SOURCE = """
import asyncio

class Env:
    x: int = 0

    async def step(self, items, n):
        total = 0
        for item in items:
            total += item if item > n else -item
            def helper(a, b=lambda c: c + 1):
                return a + b(a)
            total = helper(total) and not total or total
        while total < n and self.x:
            total += 1
        return [i * 2 for i in range(total) if i] + [lambda: total]
"""


def _preorder(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    for child in ast.iter_child_nodes(node):
        yield from _preorder(child)


def _stack_walk(body: list[ast.stmt], enter: bool = False) -> list[ast.AST]:
    stack: list[ast.AST] = [stmt for stmt in body if enter or not isinstance(stmt, SCOPES)]
    found = []
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, SCOPES))
    return found


@pytest.mark.parametrize("source", [SOURCE, inspect.getsource(ast)], ids=["small", "ast.py"])
def test_one_walk_gives_every_subtree_and_every_stack_walk(source: str) -> None:
    tree = ast.parse(source)
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    with walks.remembered_walks(tree):
        assert list(walks.walk(tree)) == list(_preorder(tree))
        for function in functions:
            assert list(walks.walk(function)) == list(_preorder(function))
            # the parser shares one ``Load()`` among every name it loads: each parent still has its own
            assert own_nodes(function.body) == _stack_walk(function.body)
            assert walks.stack_nodes(function.body, SCOPES, enter=True) == _stack_walk(function.body, enter=True)
        assert walks.stack_nodes(tree.body, SCOPES, enter=True) == _stack_walk(tree.body, enter=True)
    for function in functions:  # outside the walk: walked again, the same
        assert own_nodes(function.body) == _stack_walk(function.body)
        assert walks.stack_nodes(function.body, SCOPES, enter=True) == _stack_walk(function.body, enter=True)


def test_a_test_without_a_constant_getattr_is_not_copied() -> None:
    plain = ast.parse("self.policy.limit(3) > 0", mode="eval").body
    assert conditions._getattr_as_attribute(plain) is plain
    read = ast.parse("getattr(self, 'limit', 0) > len(x)", mode="eval").body
    assert ast.unparse(conditions._getattr_as_attribute(read)) == "self.limit > len(x)"
    assert ast.unparse(read) == "getattr(self, 'limit', 0) > len(x)"  # rewritten on a copy


def test_changed_facts_are_replace_s() -> None:
    defaults = {field.name: field.default for field in fields(CallFacts)}
    others: dict[type, list[object]] = {bool: [True], int: [1, 7], str: ["x", "y"], tuple: [("a",), ("b", "c")]}
    pick = random.Random(37)
    for _ in range(2000):
        facts = None
        for _ in range(pick.randint(1, 4)):
            names = pick.sample(sorted(defaults), pick.randint(1, 3))
            changes = {name: pick.choice([defaults[name], *others.get(type(defaults[name]), ["z"])]) for name in names}
            expected = replace(facts or NO_FACTS, **changes)
            facts = changed(facts, changes)
            assert facts == (None if expected == NO_FACTS else expected)
