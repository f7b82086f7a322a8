"""The export of what a module's functions return, for other modules (records it): the one object
every ``return`` builds, the declared type, the attribute of the receiver returned, the types it may
be, and the functions it may return."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from asynclint.analysis.index.helpers import STDLIB_ROOTS, callables_of, exported_name, returned_name, vague
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import Inst, Refs, Rooted, SelfRef, Sym, Value
from asynclint.knowledge.typenames import SAYS_NOTHING


class ReturnExports(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def _export_returns(
        self, key: str, returned: list[Value], declared: Value = None, members: Iterable[Value] = ()
    ) -> None:
        """What a function returns, for other modules, keyed by its call (``make()``,
        ``Env.client()``): the one object every ``return`` builds; else the type its signature
        declares (``-> EmulatorInstance`` over ``return await self.queue.get()``, ``-> Path | None``
        over ``return next(paths, None)``: what a builtin gives says less; ``declared``: of any
        subclass of it); else the one
        attribute of the receiver every ``return`` gives (``return self._http``); else the types
        it may be: the ``return``s', or the ``members`` of its union annotation when those name
        fewer. And the functions it may return (``return format_reward``, ``return [a, b]``)."""
        named = {returned_name(value) if isinstance(value, (Inst, SelfRef)) else None for value in returned}
        made = [  # not handed in, nor a builtin's or ``typing``'s
            value for value in returned if isinstance(value, Inst) and value.origin != "param" and not vague(value)
        ]
        built = len(named) == 1 and None not in named and len(made) == len(returned)
        if not built and isinstance(declared, (Inst, Sym)) and declared.name not in SAYS_NOTHING:
            # (``-> Any`` says nothing: what the ``return``s give does)
            self.values.append((key, declared.name))
            self.declared.append(key)
        elif len(named) == 1 and None not in named:
            self.values.append((key, cast("str | Rooted", named.pop())))  # None is not in it
        else:  # ``return driver.execute_script(...)`` here, ``return driver.find_element(...)`` there
            candidates = tuple(dict.fromkeys(name for name in map(returned_name, returned) if name))
            if len(candidates) < 2:
                candidates = tuple(dict.fromkeys(name for name in map(returned_name, members) if name))
            if len(candidates) > 1:
                self.returns.append((key, candidates))
        self._export_callables(key, returned)

    def _export_callables(self, name: str, values: Iterable[Value]) -> None:
        refs = callables_of(v for v in values if isinstance(v, (Sym, Refs)))
        items = tuple(
            exported
            for item in (refs.items if refs else ())
            if (not isinstance(item, Inst) or self._may_be_callable(item)) and (exported := exported_name(item))
        )
        if items:
            self.callables.append((name, items))

    def _may_be_callable(self, value: Inst) -> bool:
        """Could this object be (or hold) a project function? Not if the standard library made
        it, nor if it is an instance of a type the knowledge base describes."""
        return value.name.partition(".")[0] not in STDLIB_ROOTS and value.name not in self.catalogue.producers
