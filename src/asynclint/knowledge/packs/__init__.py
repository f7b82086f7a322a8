"""Knowledge packs: one module per library family, collected here (discovered, not listed).

A pack is data. It exports ``APIS: tuple[BlockingApi, ...]`` (every entry with the ``source``
its fact comes from, and its async ``twin`` where the library has one; properties whose getter
blocks are entries marked ``read``) and, where the types of results matter, any of ``RETURNS``,
``ITEMS``, ``ENTER_RETURNS`` and ``BUILT`` (same meaning as the tables of
:mod:`asynclint.knowledge.blocking`, into which they are merged), and ``DEFERRED``: calls that
only build a generator or a stream, merged into :data:`asynclint.knowledge.threads.DEFERRED`;
``PROTOCOLS``: kinds of objects recognised by how the project drives them (see
:class:`~asynclint.knowledge.api.Protocol`); ``REGISTRIES``: libraries that build an environment
by the id it was registered under (see :class:`~asynclint.knowledge.api.IdRegistry`);
``FEW_RESULTS``: calls whose result holds a few items whatever the data, by their most (a loop
over one is not a loop that adds up); ``SUBCLASSED``: library base classes a project subclass of
which is still typed as the base; an entry's ``runs``: methods of the receiver it calls back, so a
project subclass's overrides of them run where it is called. Which families get a pack, and in
what order they were written, came from ``bench/survey_imports.py`` (see bench/README.md).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from asynclint.knowledge.api import BlockingApi, IdRegistry, Protocol


def _discover() -> dict[str, ModuleType]:
    return {
        info.name: importlib.import_module(f"{__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
        if not info.name.startswith("_")
    }


def _merged(table: str) -> dict:
    merged: dict = {}
    for name, pack in PACKS.items():
        for key, value in getattr(pack, table, {}).items():
            if merged.get(key, value) != value:
                raise RuntimeError(f"knowledge pack {name}: {table}[{key!r}] contradicts another pack")
            merged[key] = value
    return merged


#: Pack name (the module's) -> module, in name order.
PACKS: dict[str, ModuleType] = _discover()
PACK_APIS: tuple[BlockingApi, ...] = tuple(api for pack in PACKS.values() for api in pack.APIS)
#: What a blocking property gives is a value read, not the object it is read on (``driver.title``
#: is ``...title()``, so ``driver.title.strip()`` is no call of the driver), unless a pack names it.
PACK_RETURNS: dict[str, str] = {
    **{api.pattern: f"{api.pattern}()" for api in PACK_APIS if api.read},
    **_merged("RETURNS"),
}
PACK_ITEMS: dict[str, str] = _merged("ITEMS")
PACK_ENTER_RETURNS: dict[str, str] = _merged("ENTER_RETURNS")
PACK_BUILT: dict[str, tuple[str, int | None, dict[str, str]]] = _merged("BUILT")
PACK_DEFERRED: dict[str, str] = _merged("DEFERRED")
PACK_FEW_RESULTS: dict[str, int] = _merged("FEW_RESULTS")
PACK_SUBCLASSED: frozenset[str] = frozenset().union(*(getattr(pack, "SUBCLASSED", ()) for pack in PACKS.values()))
PACK_PROTOCOLS: dict[str, Protocol] = _merged("PROTOCOLS")
PACK_REGISTRIES: dict[str, IdRegistry] = _merged("REGISTRIES")
#: Pattern -> the receiver's methods a call of it runs (:attr:`BlockingApi.runs`).
PACK_RUNS: dict[str, frozenset[str]] = {api.pattern: api.runs for api in PACK_APIS if api.runs}
#: Pattern -> the library module attributes a call of it calls (:attr:`BlockingApi.calls_attributes`).
PACK_CALLS_ATTRIBUTES: dict[str, frozenset[str]] = {
    api.pattern: api.calls_attributes for api in PACK_APIS if api.calls_attributes
}
