"""Lookup over the blocking-API table: a resolved call target -> its knowledge entry."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from asynclint.knowledge.api import IMPORT, Protocol
from asynclint.knowledge.asyncio_apis import OFFLOAD_FUNCTIONS
from asynclint.knowledge.blocking import BUILTIN_APIS, ENTER_RETURNS, ITEMS, RETURNS, BlockingApi
from asynclint.knowledge.packs import PACK_PROTOCOLS
from asynclint.knowledge.twins import ASYNC_ATTRIBUTES


class Catalogue:
    """Exact names, ``Type.**`` prefixes and ``*.method`` names, checked in that order; and the
    functions that run a callable argument off the loop (both extendable by configuration)."""

    def __init__(self, apis: Iterable[BlockingApi] = BUILTIN_APIS, offload: dict[str, int] | None = None):
        self.offload: dict[str, int] = {**OFFLOAD_FUNCTIONS, **(offload or {})}
        #: Kinds of objects of classes no entry names, recognised by how the project drives them.
        self.protocols: tuple[Protocol, ...] = tuple(PACK_PROTOCOLS.values())
        self.apis: dict[str, BlockingApi] = {}
        for api in apis:  # later entries (user configuration) replace earlier ones
            self.apis[api.pattern] = api
        self._exact: dict[str, BlockingApi] = {}
        self._prefix: dict[str, BlockingApi] = {}
        self._duck: dict[str, BlockingApi] = {}
        #: Properties whose getter blocks (exact patterns), matched only on attribute reads.
        self._reads: dict[str, BlockingApi] = {}
        for pattern, api in self.apis.items():
            if api.read:
                self._reads[pattern] = api
            elif pattern.startswith("*."):
                self._duck[pattern[2:]] = api
            elif pattern.endswith(".**"):
                self._prefix[pattern[:-3]] = api
            else:
                self._exact[pattern] = api
        self._prefix_roots = frozenset(p.split(".", 1)[0] for p in self._prefix)
        #: The attribute names of those properties: what the index looks at when it sees a read.
        self.read_names = frozenset(pattern.rpartition(".")[2] for pattern in self._reads)
        #: The last names of the objects whose iteration blocks (``subprocess.Popen.stdout.__iter__``):
        #: the index records a loop's ``__iter__`` call only over an object so named.
        self.iterated_names = frozenset(p.split(".")[-2] for p in self._exact if p.endswith(".__iter__"))
        self.producers = _producers(self.apis)
        #: Method names whose entries care what their first argument is (``blocks_on``): the
        #: index types that argument only for calls of these.
        self.argument_methods = frozenset(
            p.rpartition(".")[2] for p, api in self.apis.items() if api.blocks_on or api.heavier_on
        )
        #: Names (the last of the dotted pattern) whose entries cost more given some constants
        #: (``heavier_with``): the index records the constants handed only to calls of these.
        self.constant_names = frozenset(p.rpartition(".")[2] for p, api in self.apis.items() if api.heavier_with)
        #: Names whose entries block only given an argument at some position (``blocks_with`` naming
        #: one: ``to_csv(path)``): the index records the positions written only for calls of these.
        self.position_names = frozenset(
            p.rpartition(".")[2] for p, api in self.apis.items() if any(map(str.isdigit, api.blocks_with))
        )

        digest = hashlib.sha256()
        for pattern in sorted(self.apis):
            api = self.apis[pattern]
            # Sorted by hand: a frozenset's repr follows string hashing, which changes per process.
            fixed = None if api.severity is None else int(api.severity)
            digest.update(
                repr(
                    (
                        api.pattern,
                        api.category,
                        api.cost,
                        fixed,
                        api.fix,
                        sorted(api.unless),
                        api.awaited,
                        sorted(api.blocks_with),
                        sorted(api.blocks_on),
                        api.read,
                        api.otherwise,
                        sorted(api.heavier_with),
                        api.heavier,
                        sorted(api.heavier_on),
                        sorted(api.calls_attributes),
                        api.typed_only,
                    )
                ).encode()
            )
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
                        # ``sb.exec.aio(...)``, ``client.aio.models...``: the async twin.
                        through_twin = not ASYNC_ATTRIBUTES.isdisjoint(parts[end:])
                        return None if through_result or through_twin or parts[-1] in api.unless else api
        if method:
            return self._duck.get(method)
        return None

    def match_import(self, module: str) -> BlockingApi | None:
        """The entry of an import of ``module`` written in a function (``import swebench.harness``
        covers its submodules too): a package whose first import is slow."""
        parts = module.split(".")
        return next(
            (api for end in range(len(parts), 0, -1) if (api := self._exact.get(f"{IMPORT} {'.'.join(parts[:end])}"))),
            None,
        )

    def match_read(self, attribute: str | None) -> BlockingApi | None:
        """The entry of a property whose getter blocks, for the attribute read ``attribute``
        (``selenium.webdriver.Chrome.title``: the receiver's type and the attribute's name)."""
        return self._reads.get(attribute) if attribute else None

    def result_of(self, callee: str) -> str:
        """The name of what calling ``callee`` gives. An instance is named after what produced
        it (``sqlite3.connect``, ``openai.OpenAI``) when the knowledge base describes that
        producer's instances; :data:`RETURNS` renames some (``redis.from_url()`` is a
        ``redis.Redis``). Anything else is ``callee()``: a result whose type is not known here
        (a project function's, settled by the project graph), so attribute chains on it never
        read as calls of the callee itself (``JUDGE.chat.completions.create().choices``)."""
        returned = RETURNS.get(f"{callee}()")
        if returned is not None:
            return returned
        return callee if callee in self.producers else f"{callee}()"

    def describes(self, name: str) -> bool:
        """``name`` is a known API or reached through one (``requests.get.json`` is a method of
        what ``requests.get`` returns): an object whose type the knowledge base describes."""
        parts = name.split(".")
        return any(
            ".".join(parts[:end]) in self._exact or ".".join(parts[:end]) in self._prefix
            for end in range(len(parts), 0, -1)
        )

    def covers(self, target: str) -> bool:
        """Deep mode trusts the table for a call of ``target`` and does not read it: an entry names
        it, or a ``Type.**`` entry names every method of its class. A constructor's entry
        (``webdriver.Chrome``) covers only the methods the table names beside it: another method
        of that class (``Chrome.print_page``) may block too, so deep mode reads it."""
        if target in self._exact or target in self._prefix:
            return True
        if target.partition(".")[0] not in self._prefix_roots:
            return False
        parts = target.split(".")
        return any(".".join(parts[:end]) in self._prefix for end in range(len(parts) - 1, 0, -1))

    def blocking(self, api: BlockingApi, awaited: bool, keywords: tuple[str, ...], argument: str) -> BlockingApi | None:
        """The entry a call of ``api`` so written blocks by: ``api`` itself, or, handed a first
        argument of a type its ``blocks_on`` does not name, the entry its ``otherwise`` names;
        handed a constant its ``heavier_with`` names or a first argument of a type its ``heavier_on``
        names, the entry its ``heavier`` names; ``None`` when it does not block."""
        if api.heavier and (not api.heavier_with.isdisjoint(keywords) or argument in api.heavier_on):
            api = self.apis.get(api.heavier, api)
        if api.blocks(awaited, keywords, argument):
            return api
        other = self.apis.get(api.otherwise) if api.otherwise and argument else None
        return other if other is not None and other.blocks(awaited, keywords, argument) else None

    def union_entry(
        self, members: Iterable[str], awaited: bool, keywords: tuple[str, ...], argument: str
    ) -> tuple[str | None, BlockingApi | None]:
        """A method called on an instance of one of several classes (``client = requests.Session()
        if pooled else httpx.Client()``, then ``client.get(url)``; ``members``: the method on each,
        ``requests.Session.get``): the first member this names, with its entry, when every member it
        names blocks (an async twin's does not); (None, None) otherwise. The members it does not name
        (a project class's) are the rules' to judge (``CheckContext.calls``)."""
        known = [(member, api) for member in members if (api := self.match(member, None)) is not None]
        if not known or not all(self.blocking(api, awaited, keywords, argument) for _, api in known):
            return None, None
        return known[0]

    def get(self, pattern: str) -> BlockingApi:
        return self.apis[pattern]


def _producers(apis: dict[str, BlockingApi]) -> frozenset[str]:
    """Names whose call results the tables describe: the owners in every pattern
    (``requests.Session`` of ``requests.Session.get``, ``openai.OpenAI`` of ``openai.OpenAI.**``)
    and every type :data:`RETURNS`, :data:`ITEMS` and :data:`ENTER_RETURNS` speak of. A module
    among them (``os.path``) is harmless: nothing calls a module."""
    names: set[str] = set()
    for pattern in apis:
        if pattern.startswith("*."):
            continue
        parts = pattern.removesuffix(".**").split(".")
        last = len(parts) + 1 if pattern.endswith(".**") else len(parts)
        names.update(".".join(parts[:end]) for end in range(2, last))
    for table in (RETURNS, ITEMS, ENTER_RETURNS):
        for key, value in table.items():
            names.add(key.removesuffix("()").rpartition(".")[0] if key.endswith("()") else key)
            if value:
                names.add(value)
    return frozenset(names)
