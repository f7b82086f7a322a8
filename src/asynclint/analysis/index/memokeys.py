"""What the key of a keyed cache reads (``if sid not in _SANDBOXES:``, ``hit = _CACHE.get(key)``): a
value of the rollout's own in its state, so the cache misses once per rollout, or the function's parameters,
which the graph follows to what its callers hand them (``Warming.keyed_frequency``) -- through a
closure's call to the parameters of the function that made it (``outer_params``)."""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from asynclint.analysis.index.callshapes import state_get, state_key
from asynclint.analysis.index.frames import Frame
from asynclint.analysis.index.guards import looked_up
from asynclint.analysis.index.values import Marker, SelfRef, Value
from asynclint.knowledge.frameworks import MINTING_FUNCTIONS, keyed_frequency, widest_frequency

#: How many bindings of a local the key is followed through (``key = f"{url}:{n}"``; ``sid = key``).
MAX_KEY_HOPS = 3


@dataclass(frozen=True, slots=True)
class KeyReads:
    """What a cache key is made of: a value of the rollout's state (``rollout``: how often it changes,
    ``example`` or ``rollout``, "" when the key reads none), a value minted for the call (``minted``: a
    uuid, a random token -- the cache never hits), and the parameters of the function it reads
    (``self`` and what it holds aside)."""

    rollout: str
    params: tuple[str, ...]
    minted: bool = False


def guarded_key(test: ast.expr, lookups: Mapping[str, tuple[ast.expr, ast.expr]]) -> ast.expr | None:
    """The key a lazy fill's test looks up: ``key`` of ``key not in cache`` (also one operand of an
    ``and``), or of ``cache.get(key)`` when the test is of a name bound to that lookup."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return next((key for part in test.values if (key := guarded_key(part, lookups)) is not None), None)
    inner = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
    if isinstance(inner, ast.Compare) and len(inner.ops) == 1:
        if isinstance(inner.ops[0], (ast.In, ast.NotIn)):
            return inner.left
        inner = inner.left  # ``hit is None``
    if isinstance(inner, ast.Name) and inner.id in lookups:
        return lookups[inner.id][1]
    lookup = looked_up(inner)  # ``cache.get(key) is None``, written in place
    return lookup[1] if lookup is not None else None


def key_reads(
    key: ast.expr, own: Sequence[ast.stmt], bindings: Mapping[str, Value], params: frozenset[str]
) -> KeyReads:
    """What ``key`` reads, following a local bound once among the function's own statements
    (``own``) to its value: a key of the rollout's state that holds the rollout's own value
    (``ROLLOUT_VALUED_KEYS``, by how often it changes: ``state["info"]["sandbox_id"]``,
    ``state.get("answer")``, a local the walk typed as one), a call minting a fresh value (a uuid),
    or the parameters in ``params``."""
    kinds, minted, read, seen = set(), False, set(), set()
    pending: list[tuple[ast.AST, int]] = [(key, 0)]
    while pending:
        node, hops = pending.pop()
        if isinstance(node, ast.Call) and _called_name(node.func) in MINTING_FUNCTIONS:
            minted = True
            continue
        read_key = (
            state_key(node)
            if isinstance(node, ast.Subscript)
            else state_get(node)
            if isinstance(node, ast.Call)
            else None
        )
        if read_key is not None:
            kinds.add(keyed_frequency(read_key))
            continue  # the key read, not the state as a whole
        if isinstance(node, ast.Name) and node.id not in seen:
            seen.add(node.id)
            bound = bindings.get(node.id)
            if isinstance(bound, SelfRef):
                if bound.cls == Marker.STATE and bound.path[:1] != ():
                    kinds.add(keyed_frequency(bound.path[0]))
            elif node.id in params:
                read.add(node.id)
            elif hops < MAX_KEY_HOPS:
                pending.extend((value, hops + 1) for value in _bound_once(node.id, own))
            continue
        pending.extend((child, hops) for child in ast.iter_child_nodes(node))
    return KeyReads(widest_frequency(kinds), tuple(sorted(read)), minted)


def _called_name(func: ast.expr) -> str:
    """The last name of what a call calls: ``uuid4`` of ``uuid.uuid4()`` and of ``uuid4()``."""
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _bound_once(name: str, own: Sequence[ast.stmt]) -> list[ast.expr]:
    """The value ``name`` is bound to among ``own``, when it is bound there exactly once."""
    values = [
        stmt.value
        for stmt in own
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    ]
    return values if len(values) == 1 else []


def outer_params(slots: Sequence[tuple[str, ast.expr]], frames: Sequence[Frame]) -> tuple[tuple[str, str], ...]:
    """``CallFacts.outer_params`` of a call with arguments ``slots`` written in the innermost of
    ``frames``: the arguments that are a name the closure does not bind, whose nearest binding is a
    parameter an enclosing function never binds again (``sid`` of ``_make_tools(sid)``)."""
    found = []
    for slot, arg in slots:
        if not isinstance(arg, ast.Name) or _binds(frames[-1], arg.id):
            continue
        outer = next(
            (frame for frame in reversed(frames[1:-1]) if frame.kind != "class" and _binds(frame, arg.id)), None
        )
        if outer is not None and outer.kind == "function" and arg.id in outer.params:
            found.append((slot, arg.id))
    return tuple(found)


def closed_param(name: str, frames: Sequence[Frame]) -> bool:
    """``name``, read in the innermost of ``frames``, is a parameter of an enclosing function that no
    annotation types and that function never binds again: the closure reads what the enclosing
    function's callers hand it (``fn`` in the ``wrapper`` that ``_wrap(fn)`` returns)."""
    if len(frames) < 3 or _binds(frames[-1], name):
        return False
    outer = next((frame for frame in reversed(frames[1:-1]) if frame.kind != "class" and _binds(frame, name)), None)
    return outer is not None and outer.kind == "function" and name in outer.params and name in outer.untyped


def _binds(frame: Frame, name: str) -> bool:
    return name in frame.bindings or name in frame.params or name in frame.untyped
