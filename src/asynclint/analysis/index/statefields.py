"""What the project stores under a key of the rollout's state, as payload evidence
(ModuleSummary.state_fields): a payload read back from that key (``state.get("stage_history")``)
is sized by how the project built it before its name says anything.

A key written ``state[k] = [*state.get(k, []), stage_name]``, ``state[k] += [name]`` or
``state.setdefault(k, []).append(x)`` is an accumulator, one more item per call of the code that
writes it (a turn, a tool call): as large as everything added over a rollout. Filled with short
scalars (a stage's name, an id, a flag), it stays a few hundred bytes; filled with what calls
returned (a tool's result, a record holding one), it is a whole rollout-sized payload, whatever it
is called; filled with names of unknown size, its key's name decides. A key set outright holds
what it is set to; an empty container or ``None`` is a start, no evidence."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence

from asynclint.analysis.index.argfacts import evidence_of
from asynclint.analysis.index.bodies import own_nodes
from asynclint.analysis.index.callshapes import state_get, state_key
from asynclint.analysis.index.helpers import GROWING
from asynclint.knowledge.costs import FEW, short_item
from asynclint.knowledge.frameworks import FRAMEWORK_STATE_KEYS

#: The payload of an expression as the function has bound its names (``Recording._payload_of``).
PayloadOf = Callable[[ast.expr], tuple[str, str]]
#: Methods that add their arguments to a list (:data:`GROWING`) or a set in place.
ADDING = GROWING | {"add"}
#: Of those, the ones whose argument is a collection of items, not one item.
_ADDING_MANY = frozenset({"extend"})


def project_key(key: str | None) -> str | None:
    """``key`` when it is one the project fills (not the framework's own messages and outcome)."""
    return key if key is not None and key not in FRAMEWORK_STATE_KEYS else None


def read_key(node: ast.expr) -> str | None:
    """The state key ``node`` reads as it is (``state["k"]``, ``state.get("k", [])``, through
    ``list(...)``/``tuple(...)``), else ``None``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple"):
        return read_key(node.args[0]) if len(node.args) == 1 else None
    if isinstance(node, ast.Call):
        return state_get(node)
    return state_key(node)


def stored_evidence(key: str, value: ast.expr, payload_of: PayloadOf) -> str | None:
    """The evidence of what ``state[key] = value`` leaves under ``key`` (``None``: no evidence)."""
    if _empty(value):
        return None
    if isinstance(value, (ast.List, ast.Tuple)) and any(_reads(element, key) for element in value.elts):
        return appended((e for e in value.elts if not _reads(e, key)), payload_of)  # [*state[k], x]
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        if _reads(value.left, key):
            return items_added(value.right, payload_of)  # state[k] + [x]
        if _reads(value.right, key):
            return items_added(value.left, payload_of)
    return evidence_of(payload_of(value))


def state_addition(call: ast.Call, payload_of: PayloadOf) -> tuple[str, str] | None:
    """(key, evidence) for ``state[k].append(x)``, ``state.setdefault(k, []).extend(xs)``..."""
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in ADDING or not call.args:
        return None
    key = project_key(read_key(func.value))
    if key is None:
        return None
    item = call.args[-1]
    evidence = items_added(item, payload_of) if func.attr in _ADDING_MANY else appended((item,), payload_of)
    return key, evidence


def items_added(items: ast.expr, payload_of: PayloadOf) -> str:
    """What adding ``items`` (a display written out, a collection, a count) leaves."""
    if isinstance(items, (ast.List, ast.Tuple)):
        return appended(items.elts, payload_of)
    return _added_size(items, payload_of)  # ``state["score"] += 1``: a counter


def appended(items: Iterable[ast.expr], payload_of: PayloadOf) -> str:
    """An accumulator filled with ``items`` once per call: small when each is a short scalar; as large
    as a rollout when one is whole, or is (a record holding) what a call returned, unsized (a tool's
    result); else unknown (a name of unknown size: a card, a move -- its key's name decides)."""
    sizes = [_added_size(item, payload_of) for item in items]
    return "whole" if "whole" in sizes else "unknown" if "unknown" in sizes else "small"


def _added_size(item: ast.expr, payload_of: PayloadOf) -> str:
    if _short(item, payload_of):
        return "small"
    parts = [*item.keys, *item.values] if isinstance(item, ast.Dict) else [item]
    if isinstance(item, (ast.List, ast.Tuple, ast.Set)):
        parts = list(item.elts)
    for part in parts:
        if part is None or _short(part, payload_of):
            continue
        payload = payload_of(part)
        if evidence_of(payload) == "whole" or (evidence_of(payload) == "unknown" and payload[0] in _RESULTS):
            return "whole"
    return "unknown"


#: Payload shapes of a value a call returned (see :func:`asynclint.analysis.index.argfacts.payload_of`).
_RESULTS = frozenset({"call", "returned", ""})


def _short(node: ast.expr, payload_of: PayloadOf) -> bool:
    """A constant, a name that says it is a short string (``stage_name``, ``tool_id``), an f-string
    or display of such: a few bytes."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.JoinedStr):
        return all(_short(part.value, payload_of) for part in node.values if isinstance(part, ast.FormattedValue))
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return len(node.elts) <= FEW and all(_short(element, payload_of) for element in node.elts)
    if isinstance(node, ast.Dict):
        return len(node.keys) <= FEW and all(_short(part, payload_of) for part in (*node.keys, *node.values) if part)
    shape, word = payload_of(node)
    if shape == "literal":
        return True
    return shape in ("name", "attr", "key") and short_item(word.rpartition(".")[2])


def _reads(node: ast.expr, key: str) -> bool:
    return read_key(node.value if isinstance(node, ast.Starred) else node) == key


def _empty(value: ast.expr) -> bool:
    if isinstance(value, ast.Constant):
        return value.value is None or value.value in ("", 0)
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return not value.elts
    if isinstance(value, ast.Dict):
        return not value.keys
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and not value.args and not value.keywords


def hands_back(body: Sequence[ast.stmt], name: str) -> bool:
    """A ``return`` of ``body`` (outside the scopes nested in it) gives the local ``name`` back, as it
    is or in a tuple (``return completion, state``)."""
    for node in own_nodes(list(body)):
        if isinstance(node, ast.Return) and node.value is not None:
            returned = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            if any(isinstance(value, ast.Name) and value.id == name for value in returned):
                return True
    return False
