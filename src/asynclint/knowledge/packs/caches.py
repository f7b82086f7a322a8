"""Disk caches used as a shared store between processes: diskcache.

``diskcache.Cache(directory)`` creates the directory, opens (or creates) its SQLite database and
runs its schema and settings statements (``CREATE TABLE IF NOT EXISTS``, ``INSERT OR REPLACE
INTO Settings``); ``FanoutCache`` does that once per shard (8 by default). ``get`` (and ``read``)
runs one keyed ``SELECT`` and reads the value's file when the value was stored
as one; ``set`` and the other writes run an ``INSERT``/``UPDATE`` in a transaction and write the
value's file when it is large. diskcache has no async API; its connections are per thread, so a
worker thread is safe (``await asyncio.to_thread(cache.get, key)``). Subscripts and ``in``
(``cache[key]``) are the same reads and writes but are not calls, so they are not reported.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_DISKCACHE = (
    "source: pkg diskcache 5.6.3 diskcache/core.py (Cache.__init__: os.makedirs, sqlite3.connect, "
    "Settings/Cache tables; get: SELECT by key, Disk.fetch; set: INSERT in transact), "
    "fanout.py (FanoutCache.__init__: one Cache per shard)"
)
_READS = "get read"
_WRITES = "set add delete pop incr decr touch"
_CLASSES = ("diskcache.Cache", "diskcache.FanoutCache")

APIS: tuple[BlockingApi, ...] = (
    *(entry(cls, "fs", "disk-content", "to-thread", frozenset(), _DISKCACHE) for cls in _CLASSES),
    *(api for cls in _CLASSES for api in many("fs", "local-lookup", "to-thread", _READS, f"{cls}.", source=_DISKCACHE)),
    *(
        api
        for cls in _CLASSES
        for api in many("fs", "disk-content", "to-thread", _WRITES, f"{cls}.", source=_DISKCACHE)
    ),
)

RETURNS: dict[str, str] = {
    "diskcache.core.Cache": "diskcache.Cache",
    "diskcache.fanout.FanoutCache": "diskcache.FanoutCache",
}
