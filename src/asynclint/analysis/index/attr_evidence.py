"""The type of an attribute whose assignments disagree only in what they do not know: set from a
parameter of unknown type (``self.tokenizer = tokenizer``), from another object's attribute the
walk cannot type (``self.tokenizer = self.server.tokenizer``) or to ``None``, and elsewhere from a
known constructor or factory (``self.tokenizer = AutoTokenizer.from_pretrained(name)`` in a lazy
helper): the known type is what calls through it reach when they reach a type at all. Two known
types, or a known one beside a callable, a class or a call's result of its own, still conflict."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from asynclint.analysis.index.helpers import CONFLICT, typed_instance
from asynclint.analysis.index.values import Inst, Marker, Refs, Rooted, SelfRef, Value
from asynclint.knowledge.typenames import SAYS_NOTHING


def settle_conflicts(class_attrs: dict[str, dict[str, Value]], assigned: dict[tuple[str, str], list[Value]]) -> None:
    """Give each conflicting attribute of ``class_attrs`` the one type its ``assigned`` values
    know, when every other one says nothing of its type."""
    for (cls, attr), values in assigned.items():
        attrs = class_attrs.get(cls)
        if attrs is None or attrs.get(attr) != CONFLICT:
            continue
        known = {value.name: value for value in values if isinstance(value, Inst) and typed_instance(value)}
        if len(known) == 1 and all(value is None or isinstance(value, Inst) or _unknown(value) for value in values):
            attrs[attr] = next(iter(known.values()))


def _unknown(value: Value) -> bool:
    """An attribute read on another object the instance holds (not a call's result, not the
    rollout's state, which the project types)."""
    return (
        isinstance(value, SelfRef)
        and value.cls != Marker.STATE
        and bool(value.path)
        and Marker.SUPER not in value.path
        and not any(part.endswith("()") for part in value.path)
    )


def attribute_members(stored: Value | None, assigned: list[Value]) -> tuple[str, ...]:
    """The classes ``self.<attr>`` holds an instance of when it holds one of several: set to either
    of two typed instances in one expression (``self.client = requests.Session() if pooled else
    httpx.Client()``: ``stored`` is a ``Refs`` of both), or by assignments whose types conflict
    (``if pooled: self.client = requests.Session()``, ``else: self.client = httpx.Client()``; a
    ``None`` beside them is no member); () for anything else, an untyped member included."""
    if isinstance(stored, Refs):
        items: tuple[Value | None, ...] = stored.items
    elif stored == CONFLICT:  # (an annotation that says nothing, ``helper: Any = None``, is no member)
        items = tuple(
            value
            for value in assigned
            if value is not None and not (isinstance(value, Inst) and value.name in SAYS_NOTHING)
        )
    else:
        return ()
    if not items or not all(isinstance(item, Inst) and typed_instance(item) for item in items):
        return ()
    names = tuple(dict.fromkeys(item.name for item in items if isinstance(item, Inst)))
    return names if len(names) > 1 else ()


def stored_outside(
    stores: Iterable[tuple[str, str, Value]],
    classes: Mapping[str, int],
    callables: Iterable[tuple[str, tuple[str | Rooted, ...]]],
    module: str,
) -> Iterator[tuple[str, str, Value]]:
    """The stores into an instance's attribute written outside its class (``env = Env(...)``,
    ``env.persona = persona``) whose instance is of a class of this module -- built by calling it
    or a factory here that returns only it (``Env = make_env_class(vf)``, ``env = Env(...)``):
    (the class, the attribute, what is stored). They join the class's own assignments, so an
    attribute whose annotation says nothing (``persona: Any = None``) takes the stored type."""
    factories = {
        f"{module}.{key}": items[0]
        for key, items in callables
        if len(items) == 1 and isinstance(items[0], str) and items[0] in classes
    }
    for owner, attr, value in stores:
        built = owner.removesuffix("()") if owner.endswith("()") else None
        cls = built if built in classes else factories.get(built or "")
        if cls is not None:
            yield cls, attr, value
