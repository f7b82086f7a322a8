"""Generic containers' accessors: which call of a ``Container[A, B]`` gives which type argument
(``ContextVar[Session].get()`` is a ``Session``), for a receiver whose annotation names them.
Qualified as the indexer resolves imports. ``__getitem__`` stands for ``x[key]``, ``__call__`` for
``x()``. A default handed to an accessor (``.get(None)``, ``.get(key, {})``) leaves the type as it
is: its other branch gives ``None`` or a value of the same type, nothing with methods of its own."""

from __future__ import annotations


def _accessors(names: str, positions: dict[str, int]) -> dict[str, dict[str, int]]:
    return {name: positions for name in names.split()}


#: Container (its annotation's qualified name) -> accessor -> the position of the type argument it gives.
ACCESSORS: dict[str, dict[str, int]] = {
    # The value the task set (``contextvars`` docs: ``ContextVar.get([default])``).
    **_accessors("contextvars.ContextVar", {"get": 0}),
    # The next item: ``queue.Queue.get`` blocks for it (catalogued itself), ``asyncio.Queue.get`` is awaited.
    **_accessors(
        "queue.Queue queue.LifoQueue queue.PriorityQueue queue.SimpleQueue"
        " asyncio.Queue asyncio.LifoQueue asyncio.PriorityQueue asyncio.queues.Queue",
        {"get": 0, "get_nowait": 0},
    ),
    # Calling a weak reference gives its referent (or None once it is collected).
    **_accessors("weakref.ref weakref.ReferenceType", {"__call__": 0}),
    **_accessors(
        "builtins.dict typing.Dict typing.Mapping typing.MutableMapping typing.DefaultDict typing.OrderedDict"
        " collections.abc.Mapping collections.abc.MutableMapping collections.defaultdict collections.OrderedDict",
        {"__getitem__": 1, "get": 1, "pop": 1, "setdefault": 1},
    ),
    **_accessors(
        "builtins.list typing.List typing.Sequence typing.MutableSequence"
        " collections.abc.Sequence collections.abc.MutableSequence",
        {"__getitem__": 0, "pop": 0},
    ),
    **_accessors("collections.deque typing.Deque", {"__getitem__": 0, "pop": 0, "popleft": 0}),
}
