"""Lookup over the blocking-API table: a resolved call target -> its knowledge entry."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from asynclint.knowledge.asyncio_apis import OFFLOAD_FUNCTIONS
from asynclint.knowledge.blocking import BUILTIN_APIS, BlockingApi


class Catalogue:
    """Exact names, ``Type.**`` prefixes and ``*.method`` names, checked in that order; and the
    functions that run a callable argument off the loop (both extendable by configuration)."""

    def __init__(self, apis: Iterable[BlockingApi] = BUILTIN_APIS, offload: dict[str, int] | None = None):
        self.offload: dict[str, int] = {**OFFLOAD_FUNCTIONS, **(offload or {})}
        self.apis: dict[str, BlockingApi] = {}
        for api in apis:  # later entries (user configuration) replace earlier ones
            self.apis[api.pattern] = api
        self._exact: dict[str, BlockingApi] = {}
        self._prefix: dict[str, BlockingApi] = {}
        self._duck: dict[str, BlockingApi] = {}
        for pattern, api in self.apis.items():
            if pattern.startswith("*."):
                self._duck[pattern[2:]] = api
            elif pattern.endswith(".**"):
                self._prefix[pattern[:-3]] = api
            else:
                self._exact[pattern] = api
        self._prefix_roots = frozenset(p.split(".", 1)[0] for p in self._prefix)

        digest = hashlib.sha256()
        for pattern in sorted(self.apis):
            api = self.apis[pattern]
            # Sorted by hand: a frozenset's repr follows string hashing, which changes per process.
            digest.update(repr((api.pattern, api.category, int(api.severity), api.fix, sorted(api.unless))).encode())
        digest.update(repr(sorted(self.offload.items())).encode())
        self.fingerprint = digest.hexdigest()[:16]

    def match(self, target: str | None, method: str | None) -> BlockingApi | None:
        if target:
            api = self._exact.get(target)
            if api is not None:
                return api
            root, _, _ = target.partition(".")
            if root in self._prefix_roots:
                parts = target.split(".")
                for end in range(len(parts) - 1, 0, -1):
                    api = self._prefix.get(".".join(parts[:end]))
                    if api is not None:
                        through_result = any(p.endswith("()") for p in parts[end:])
                        return None if through_result or parts[-1] in api.unless else api
        if method:
            return self._duck.get(method)
        return None

    def covers(self, target: str) -> bool:
        """``target`` is a known API or reached through one (``requests.get.json`` is a method
        of what ``requests.get`` returns): deep mode trusts the table and does not read it."""
        parts = target.split(".")
        return any(
            ".".join(parts[:end]) in self._exact or ".".join(parts[:end]) in self._prefix
            for end in range(len(parts), 0, -1)
        )

    def get(self, pattern: str) -> BlockingApi:
        return self.apis[pattern]
