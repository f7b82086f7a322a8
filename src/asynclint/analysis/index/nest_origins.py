"""What sizes a loop nest's counts, traced back to the function's parameters: the parameter itself
(``secret``) or a field read from one (``data.metadata["grid"]``). The rule grades a nest over one
task's data (its fields, or a parameter every hot caller hands a field of a record) by the task's
size, not the rollout's (:func:`asynclint.knowledge.costs.record_field`). Also what a loop goes over,
as an identity (:func:`identity`: two loops over the same one visit every pair of its items), and
the arguments of a call that hand a field of a record (:func:`field_slots`)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable
from typing import Protocol

from asynclint.analysis.index.values import Marker, Rooted
from asynclint.knowledge.costs import STATE_KEY, record_field

#: A parameter, then the keys and attributes read down from it: ``("data", "metadata", "grid")``.
Path = tuple[str, ...]
#: A key read with something other than a constant (``row[k]``).
ANY_KEY = "[]"


class _Bounded(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def origin(self) -> tuple[Path, ...]: ...


def read(origin: tuple[Path, ...], key: str) -> tuple[Path, ...]:
    """The origin of a field ``key`` read from a value of ``origin``."""
    return tuple((*path, key) for path in origin)


def key_of(node: ast.expr) -> str:
    """A subscript's key as a path part: the constant, or :data:`ANY_KEY`."""
    return str(node.value) if isinstance(node, ast.Constant) else ANY_KEY


def joined(bounds: Iterable[_Bounded], kinds: frozenset[str]) -> tuple[Path, ...]:
    """The origins of the ``bounds`` of ``kinds`` together; ``()`` when one of them has none (it is
    sized by something not traced to a parameter)."""
    paths: list[Path] = []
    for bound in bounds:
        if bound.kind in kinds:
            if not bound.origin:
                return ()
            paths.extend(path for path in bound.origin if path not in paths)
    return tuple(paths)


def nest_origins(levels: Iterable[tuple[ast.AST, int, tuple[Path, ...]]]) -> tuple[str, ...]:
    """What sizes every counted level of a nest (each level: its node, weight and origin), dotted
    (``data.metadata.grid``); ``()`` when a level is not traced to a parameter, is a recursion, or
    counts a combinatorial product (its size is not the data's, whatever the data)."""
    paths: list[str] = []
    for node, weight, origin in levels:
        if weight != 1 or isinstance(node, ast.Call) or not origin:
            return ()
        paths.extend(".".join(path) for path in origin)
    return tuple(dict.fromkeys(paths))


def identity(node: ast.expr) -> str:
    """``words``, ``state.lines``, ``state['lines']``: what a loop goes over, as an identity (two
    loops over the same one); "" for anything computed."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = identity(node.value)
        return f"{base}.{node.attr}" if base else ""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        base = identity(node.value)
        return f"{base}[{node.slice.value!r}]" if base else ""
    return ""


def field_slots(
    slots: list[tuple[str, ast.expr]],
    payload_of: Callable[[ast.expr], tuple[str, str]],
    params: Collection[str],
    argument: Callable[[ast.expr], str | Rooted],
) -> tuple[str, ...]:
    """The slots of a call handed a field of a record (``CallSite.fields``), read in the call
    (``info["board"]``: the argument's payload) or through the name holding it (``board =
    puzzle.true_board``: what ``argument`` says the name holds)."""
    found = []
    for slot, value in slots:
        shape, word = payload_of(value)
        if shape in ("key", "attr"):
            _, marked, key = word.partition(STATE_KEY)
            parts = ("state", key) if marked else tuple(word.split("."))
            path = parts if len(parts) > 1 else ("", *parts)  # a key of a value the word does not name
        elif shape == "name" and word not in params:
            held = argument(value)
            state = Rooted.read(held, Marker.STATE)
            # ``puzzle.true_board`` with ``puzzle = Puzzle(...)``: an attribute of an instance built here
            instance, _, attribute = str(held).rpartition(").")
            path = ("state", *state.path) if state else (instance, attribute) if instance else ()
        else:
            continue
        if record_field(path):
            found.append(slot)
    return tuple(found)
