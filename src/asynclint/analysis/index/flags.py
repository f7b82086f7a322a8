"""Parameters every caller sets to the same constant: the constants a function's defaults and a
call's arguments are, and the ``if`` tests on them that the graph evaluates with what the callers
pass (a feature switched off by every caller does not run)."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from asynclint.analysis.index.helpers import none_test
from asynclint.analysis.index.walks import walk

#: Constants a parameter test can be evaluated with.
_CONSTANT_TYPES = (bool, int, float, str, type(None))


def constant_text(node: ast.expr | None) -> str | None:
    """``repr`` of a constant a flag test can read (``None``, a bool, a number, a string): a text
    ``ast.literal_eval`` reads back, as every reader does. A float literal too large to be finite
    (``_POS_INF = 1e10000`` in protobuf's encoder) is ``inf``, which it cannot read: None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, _CONSTANT_TYPES):
        value = node.value
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        number = node.operand.value
        if not isinstance(number, (int, float)) or isinstance(number, bool):
            return None
        value = -number
    else:
        return None
    return None if isinstance(value, float) and not math.isfinite(value) else repr(value)


@lru_cache(maxsize=4096)  # read again for the same few texts (``False``, ``None``, ``0``) by every pass
def constant_value(text: str) -> object:
    """The constant :func:`constant_text` wrote ``text`` for (never a non-finite float: it writes
    no text for one; a scalar: the one object may be handed out again)."""
    return ast.literal_eval(text)


def constant_defaults(args: ast.arguments) -> tuple[tuple[str, str], ...]:
    """(parameter, ``repr`` of its default) for the parameters whose default is a constant."""
    positional = [*args.posonlyargs, *args.args]
    # The defaults belong to the last positional parameters; kw_defaults has one entry (or None) per
    # keyword-only parameter, so both pairs of sequences have equal lengths by construction.
    pairs = [
        *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    return tuple((arg.arg, text) for arg, default in pairs if (text := constant_text(default)) is not None)


def given_arguments(node: ast.Call) -> tuple[tuple[str, str], ...]:
    """What a call passes, for the parameters of the function it calls: see CallSite.given."""
    if not node.args and not node.keywords:
        return ()
    given = [
        ("*", "") if isinstance(arg, ast.Starred) else (str(position), constant_text(arg) or "")
        for position, arg in enumerate(node.args)
    ]
    given += [("*", "") if k.arg is None else (k.arg, constant_text(k.value) or "") for k in node.keywords]
    return tuple(given)


def stored_names(body: list[ast.stmt]) -> frozenset[str]:
    """Every name ``body`` binds (assignments, loop targets, ``with ... as``, walrus, ``del``)."""
    return frozenset(
        node.id
        for stmt in body
        for node in walk(stmt)
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del))
    )


def none_bound(body: list[ast.stmt]) -> frozenset[str]:
    """The names ``body`` binds to ``None`` somewhere (``node = None``, ``x = y if c else None``): an
    argument that is one of them may be ``None`` where it is passed, whatever its other bindings."""
    found: set[str] = set()
    for node in (node for stmt in body for node in walk(stmt)):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        value = getattr(node, "value", None) if targets else None
        values = [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]
        if any(isinstance(each, ast.Constant) and each.value is None for each in values):
            found.update(target.id for target in targets if isinstance(target, ast.Name))
    return frozenset(found)


def branch_flags(own: tuple[ast.stmt, ...], params: frozenset[str]) -> dict[int, str]:
    """The values an ``if`` on one of ``params`` binds attributes of ``self`` to, by ``id``, each with that
    parameter: ``if evidence_dir is None: self._dir = None`` / ``else: self._dir = Path(evidence_dir)``
    is ``self._dir = Path(evidence_dir) if evidence_dir is not None else None`` written as a statement
    (split 30 datalox verifiers_env.py:270): the attribute is off while the parameter is. Only where the
    branch run while the parameter is off binds the attribute to a constant that switches a feature off
    (``None``, ``False``, 0, ``""``) and the other binds it too, both at the top of their branch."""
    found: dict[int, str] = {}
    for stmt in own:
        if not isinstance(stmt, ast.If) or not stmt.orelse:
            continue
        tested = _tested_param(stmt.test, params)
        if tested is None:
            continue
        param, off_first = tested
        off, on = (stmt.body, stmt.orelse) if off_first else (stmt.orelse, stmt.body)
        off_values, on_values = _self_bindings(off), _self_bindings(on)
        for attr, value in off_values.items():
            text = constant_text(value)
            if attr in on_values and text is not None and not constant_value(text):
                found[id(value)] = found[id(on_values[attr])] = param
    return found


def _tested_param(test: ast.expr, params: frozenset[str]) -> tuple[str, bool] | None:
    """(parameter, whether the ``if``'s body is the branch run while it is off) for a test of one
    parameter alone: ``p is None``, ``not p`` (the body), ``p is not None``, ``p`` (the ``else``)."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    operand = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    if isinstance(operand, ast.Name) and operand.id in params:
        return operand.id, negated
    compared = None if negated else none_test(test)
    if compared is not None and isinstance(compared[0], ast.Name) and compared[0].id in params:
        return compared[0].id, compared[1]
    return None


def _self_bindings(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """``self.<attribute>`` -> the value a statement of ``body``'s own binds it to (one target)."""
    return {
        stmt.targets[0].attr: stmt.value
        for stmt in body
        if isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Attribute)
        and isinstance(stmt.targets[0].value, ast.Name)
        and stmt.targets[0].value.id == "self"
    }


def param_test(test: ast.expr, params: frozenset[str]) -> str | None:
    """The source of an ``if`` test that reads one of ``params`` (the function's flags), for
    :func:`guard_holds` to evaluate with what the callers pass."""
    if params and any(isinstance(node, ast.Name) and node.id in params for node in walk(test)):
        return ast.unparse(test)
    return None


#: What a call chain passes for a parameter when the argument is not a constant (``shared=self._shared``):
#: an object the caller holds, taken to be one (not ``None``) by a test of whether it was passed.
#: Evaluates to ``Ellipsis``; nothing else about it is known.
PASSED_OBJECT = "..."


def attribute_owners(test: ast.expr) -> frozenset[str]:
    """The names ``test`` reads attributes of (``env_self`` in ``env_self.trace_dir``)."""
    return frozenset(
        node.value.id for node in walk(test) if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    )


#: The name a guard on a key of the rollout's dataset row reads (``not ('repo_root' in
#: __row_keys__)``, :func:`asynclint.analysis.index.rowkeys.row_guards`): the graph binds it to
#: the keys every row the project builds carries. A key among them is there; one that is not may be.
ROW_KEYS = "__row_keys__"
#: What a call hands a helper when it hands it the rollout's row (``CallSite.given``):
#: ``repr((ROW_ARGUMENT, column))``, ``column`` "" for the whole row or a dict column of it
#: (``"info"``). The graph reads it as the keys every row carries there.
ROW_ARGUMENT = "<row>"

#: How a switch field is bound by its name alone (``<field>.record_video``, ModuleSummary.switch_fields):
#: what ``<anything>.record_video`` is while the project leaves every such field at its default.
FIELD = "<field>."


@dataclass(frozen=True)
class InstanceOf:
    """What a call chain hands a parameter when it is an object of a known class (``client=AsyncOpenAI(...)``):
    not ``None``, and an ``isinstance`` test of it is answered by ``test`` from the class text the
    test names (``ClientConfig``, ``(A, B)``): True, False, or None when the classes do not say."""

    test: Callable[[str], bool | None]


_UNKNOWN = object()
#: The value of a parameter holding :data:`PASSED_OBJECT`: ``is None`` is false, anything else unknown.
_OBJECT = object()
_COMPARE = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
}


def _value(node: ast.expr, env: dict[str, object]) -> object:
    """The value of ``node`` when the parameters are ``env``, or ``_UNKNOWN``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, _CONSTANT_TYPES):
        return node.value
    if isinstance(node, ast.Name):
        found = env.get(node.id, _UNKNOWN)
        # A row's keys (a frozenset) stand for a dict: not ``None``, and read only by ``in``.
        return _OBJECT if found is Ellipsis or isinstance(found, frozenset) else found
    if isinstance(node, ast.Call) and _is_instance_test(node):
        held = _value(node.args[0], env)
        answer = held.test(ast.unparse(node.args[1])) if isinstance(held, InstanceOf) else None
        return _UNKNOWN if answer is None else answer
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and f"{node.value.id}.{node.attr}" in env:  # ``self.log``: its default
            return env[f"{node.value.id}.{node.attr}"]
        return env.get(FIELD + node.attr, _UNKNOWN)  # ``camera.config.record_video``: a switch field's
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "bool"
        and len(node.args) == 1
        and not node.keywords
    ):
        inner = _known(_value(node.args[0], env))
        return inner if inner is _UNKNOWN else bool(inner)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _known(_value(node.operand, env))
        return _UNKNOWN if inner is _UNKNOWN else not inner
    if isinstance(node, ast.BoolOp):
        # ``a and b`` is false as soon as one part is false, whatever the others are.
        decisive = not isinstance(node.op, ast.And)
        parts = [_known(_value(part, env)) for part in node.values]
        if any(part is not _UNKNOWN and bool(part) == decisive for part in parts):
            return decisive
        return _UNKNOWN if any(part is _UNKNOWN for part in parts) else not decisive
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In):
        held, key = node.comparators[0], _value(node.left, env)
        keys = env.get(held.id) if isinstance(held, ast.Name) else None
        return True if isinstance(keys, frozenset) and key in keys else _UNKNOWN
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        left, right = (
            _OBJECT if isinstance(side, InstanceOf) else side
            for side in (_value(node.left, env), _value(node.comparators[0], env))
        )
        if _OBJECT in (left, right):
            # An object passed is not ``None``; what else it equals is not known.
            op = type(node.ops[0])
            none_test = None in (left, right) and op in (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)
            return op in (ast.IsNot, ast.NotEq) if none_test else _UNKNOWN
        if left is _UNKNOWN or right is _UNKNOWN:
            return _UNKNOWN
        try:
            return _COMPARE[type(node.ops[0])](left, right)
        except TypeError:
            return _UNKNOWN
    return _UNKNOWN


def _is_instance_test(node: ast.Call) -> bool:
    """``isinstance(name, classes)``."""
    return (
        isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2 and not node.keywords
    )


def _known(value: object) -> object:
    """``value``, or ``_UNKNOWN`` for an object passed: its truth is not known."""
    return _UNKNOWN if value is _OBJECT or isinstance(value, InstanceOf) else value


@lru_cache(maxsize=16384)
def parsed_guard(guard: str) -> ast.expr:
    """A guard's text (``CallSite.guards``) as an expression, parsed once: every chain reaching its
    call evaluates it (:func:`guard_holds`), in every graph of a run. Nothing changes the tree."""
    return ast.parse(guard, mode="eval").body


@lru_cache(maxsize=16384)
def guard_names(guard: str) -> frozenset[str]:
    """The names a guard's text reads."""
    return frozenset(node.id for node in walk(parsed_guard(guard)) if isinstance(node, ast.Name))


def guard_holds(guards: tuple[str, ...], env: dict[str, object]) -> bool:
    """False when one of ``guards`` (CallSite.guards) is false with the parameters ``env``: the
    code behind it never runs. Anything the constants do not settle may hold."""
    for guard in guards:
        value = _known(_value(parsed_guard(guard), env))
        if value is not _UNKNOWN and not value:
            return False
    return True
