"""Every node below a node, from one walk of the module being indexed.

The index's passes walk the same module again and again (its decorators, flags, caches, literals
and patches), and every function, statement and condition below it once per reader: each such walk
made ``ast.walk``'s generator visit the subtree node by node again. While
:func:`remembered_walks` is open, the module is walked once in preorder, each node's subtree is
a contiguous slice of that list, and :func:`walk` hands it out by slicing. Outside it (the rules,
the fixers) and for a node that is not in the module's tree, it is ``ast.walk``. Readers take the
nodes as a set (whether one is there, all of one kind): the order is the tree's, parents before
their children. The tree must not change while it is open:
:func:`asynclint.analysis.index.shadowed.prune_shadowed` runs before it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager

#: The module being indexed in preorder, and each node's slice of it by ``id`` (the list keeps the
#: nodes alive, so no id is reused while it is open).
_nodes: list[ast.AST] = []
_spans: dict[int, tuple[int, int]] | None = None


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and every node below it, parents first."""
    spans = _spans
    span = spans.get(id(node)) if spans is not None else None
    if span is None:
        return ast.walk(node)
    return iter(_nodes[span[0] : span[1]])


def scope_nodes(body: list[ast.stmt], scopes: tuple[type[ast.AST], ...]) -> Iterator[ast.AST]:
    """The nodes of ``body`` in preorder, a node of the ``scopes`` types (a nested function, class or
    lambda) given but not what is below it: a body's own code and the scopes it defines."""
    spans = _spans
    for stmt in body:
        span = spans.get(id(stmt)) if spans is not None else None
        if spans is None or span is None:
            yield from _scope_nodes_walked(stmt, scopes)
            continue
        # a nested scope's subtree is one contiguous slice of the preorder: step over it
        index, end = span
        while index < end:
            node = _nodes[index]
            yield node
            index = spans[id(node)][1] if isinstance(node, scopes) else index + 1


def _scope_nodes_walked(stmt: ast.stmt, scopes: tuple[type[ast.AST], ...]) -> Iterator[ast.AST]:
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, scopes):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def stack_nodes(body: list[ast.stmt], scopes: tuple[type[ast.AST], ...], enter: bool = False) -> list[ast.AST]:
    """The nodes of ``body`` outside the ``scopes`` it defines (those nodes left out too), in the order
    of a stack walk: the last statement first, each node before its children, the last child first.
    ``enter``: a scope that is a statement of ``body`` itself is walked too (not those inside it)."""
    spans = _spans
    if spans is None or any(id(stmt) not in spans for stmt in body):
        return _stack_nodes_walked(body, scopes, enter)
    nodes = _nodes
    found: list[ast.AST] = []
    stack = [spans[id(stmt)] for stmt in body if enter or not isinstance(stmt, scopes)]
    while stack:
        index, end = stack.pop()
        found.append(nodes[index])
        index += 1
        while index < end:  # the children, each one slice of the preorder
            child = nodes[index]
            start, stop = spans[id(child)]
            # by its length: the parser shares one ``Load()`` (an operator, a context) among its parents,
            # whose slice is where it was met last
            after = index + stop - start
            if not isinstance(child, scopes):
                stack.append((index, after))
            index = after
    return found


def _stack_nodes_walked(body: list[ast.stmt], scopes: tuple[type[ast.AST], ...], enter: bool) -> list[ast.AST]:
    found: list[ast.AST] = []
    stack: list[ast.AST] = [stmt for stmt in body if enter or not isinstance(stmt, scopes)]
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, scopes))
    return found


@contextmanager
def remembered_walks(tree: ast.AST) -> Iterator[None]:
    """Walk ``tree`` once; :func:`walk` reads its nodes from that walk until the block ends."""
    global _nodes, _spans
    outer = _nodes, _spans
    nodes: list[ast.AST] = []
    spans: dict[int, tuple[int, int]] = {}
    # a node to enter, or the start of the node to close (an int: its subtree ends where the list is)
    pending: list[ast.AST | int] = [tree]
    node_type = ast.AST
    while pending:
        node = pending.pop()
        if type(node) is int:
            spans[id(nodes[node])] = (node, len(nodes))
            continue
        pending.append(len(nodes))
        nodes.append(node)  # type: ignore[arg-type]
        # its children, last first (``ast.iter_child_nodes`` without its two generators)
        for name in reversed(node._fields):  # type: ignore[union-attr]
            value = getattr(node, name, None)
            if isinstance(value, node_type):
                pending.append(value)
            elif isinstance(value, list):
                pending.extend([item for item in reversed(value) if isinstance(item, node_type)])
    _nodes, _spans = nodes, spans
    try:
        yield
    finally:
        _nodes, _spans = outer
