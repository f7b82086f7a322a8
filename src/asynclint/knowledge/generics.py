"""Generic containers' accessors: which type argument of a ``Container[A, B]`` is its item, and which
calls give one (``ContextVar[Session].get()`` is a ``Session``), for a receiver whose annotation
names them. Qualified as the indexer resolves imports. ``__getitem__`` stands for ``x[key]``,
``__call__`` for ``x()``. A default handed to an accessor (``.get(None)``, ``.get(key, {})``) leaves
the type as it is: its other branch gives ``None`` or a value of the same type, nothing with
methods of its own."""

from __future__ import annotations

from typing import NamedTuple


class Accessors(NamedTuple):
    item: int  # the position of the type argument an accessor gives
    methods: frozenset[str]


def _accessors(names: str, item: int, methods: str) -> dict[str, Accessors]:
    return dict.fromkeys(names.split(), Accessors(item, frozenset(methods.split())))


#: Container (its annotation's qualified name) -> its accessors.
ACCESSORS: dict[str, Accessors] = {
    # The value the current task set (``contextvars`` docs: ``ContextVar.get([default])``).
    **_accessors("contextvars.ContextVar", 0, "get"),
    # The next item: ``queue.Queue.get`` blocks for it (catalogued itself), ``asyncio.Queue.get`` is awaited.
    **_accessors(
        "queue.Queue queue.LifoQueue queue.PriorityQueue queue.SimpleQueue"
        " asyncio.Queue asyncio.LifoQueue asyncio.PriorityQueue asyncio.queues.Queue",
        0,
        "get get_nowait",
    ),
    # Calling a weak reference gives its referent (or None once it is collected).
    **_accessors("weakref.ref weakref.ReferenceType", 0, "__call__"),
    **_accessors(
        "builtins.dict typing.Dict typing.Mapping typing.MutableMapping typing.DefaultDict typing.OrderedDict"
        " collections.abc.Mapping collections.abc.MutableMapping collections.defaultdict collections.OrderedDict",
        1,
        "__getitem__ get pop setdefault",
    ),
    **_accessors(
        "builtins.list typing.List typing.Sequence typing.MutableSequence"
        " collections.abc.Sequence collections.abc.MutableSequence",
        0,
        "__getitem__ pop",
    ),
    **_accessors("collections.deque typing.Deque", 0, "__getitem__ pop popleft"),
}
