"""Decorators that change when, and how often, a function's body runs.

Names are qualified as the indexer resolves decorators (``@lru_cache`` imported from functools
is ``functools.lru_cache``; ``@functools.lru_cache(maxsize=1)`` is the same). Configuration adds
memoizers (``memoizing-decorators``).
"""

from __future__ import annotations

#: The body runs once per distinct argument set (or instance), then the result is reused: a
#: client built there is built once; blocking work there stalls the loop on the first call only.
MEMOIZERS: frozenset[str] = frozenset(
    {
        "functools.lru_cache",
        "functools.cache",
        "functools.cached_property",
        "cachetools.cached",
        "cachetools.cachedmethod",
        *(f"cachetools.func.{name}" for name in ("lru_cache", "lfu_cache", "fifo_cache", "rr_cache", "ttl_cache")),
        "async_lru.alru_cache",
        "cached_property.cached_property",
        "django.utils.functional.cached_property",
        "werkzeug.utils.cached_property",
    }
)

#: Read as an attribute (``self.corpus``), run as a call of the getter.
PROPERTIES: frozenset[str] = frozenset(
    {
        "builtins.property",
        "functools.cached_property",
        "abc.abstractproperty",
        "cached_property.cached_property",
        "django.utils.functional.cached_property",
        "werkzeug.utils.cached_property",
    }
)

#: The body never runs (a subclass must override it): a call of it runs one of the overrides.
ABSTRACT_METHODS: frozenset[str] = frozenset({"abc.abstractmethod"})
