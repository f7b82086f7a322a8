"""The project's class hierarchy, for the graph: a class's bases and ancestors, project or
external, the methods its MRO defines, the framework hook table it inherits, and the overrides of
a method in its subclasses."""

from __future__ import annotations

from collections import deque
from typing import cast

from asynclint.analysis.graph_records import NO_FUNCTIONS, FunctionId, TypeName
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.handed import FunctionRef
from asynclint.analysis.index.values import linear_chain
from asynclint.knowledge.frameworks import HookClass, framework_class
from asynclint.knowledge.typenames import PROTOCOL_BASES

#: More project classes than this implementing one protocol, among those the project builds when
#: it builds some of them (:meth:`Hierarchy.built_classes`): a value declared the protocol says
#: nothing about which one it is (a plugin registry), so none of them is taken for it.
MAX_IMPLEMENTERS = 3


class Hierarchy(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def mro(self, cls: str) -> list[str]:
        """The project classes among ``cls`` and its bases, nearest first."""
        found = self._mro.get(cls)
        if found is None:
            found = self._mro[cls] = [name for name in self.ancestors(cls) if name in self.classes]
        return found

    def method_of(self, cls: str, name: str) -> FunctionId | None:
        for owner in self.mro(cls):
            keys = self.defs.get(f"{owner}.{name}")
            if keys is not None:
                return keys[0]
        return None

    def only(self, key: FunctionId | None) -> tuple[FunctionId, ...]:
        """``(key,)`` (``()`` for ``None``): one tuple per function, for the calls of a constructor's
        ``__init__`` or an inherited method that ``Resolution.called_at`` remembers."""
        return NO_FUNCTIONS if key is None else self._singles.setdefault(key, (key,))

    def ancestors(self, cls: str) -> list[TypeName]:
        """``cls`` and every base class, project or external, nearest first."""
        return cast("list[TypeName]", linear_chain(cls, self._bases, self._ancestors))

    def _bases(self, cls: str) -> tuple[str, tuple[str, ...]]:
        name = self.canonical(cls)
        return name, self.classes[name][1].bases if name in self.classes else ()

    def built_base(self, cls: str, skip: int = 0) -> str | None:
        """The library class whose constructor building a ``cls`` runs (``skip`` 1: what
        ``super().__init__()`` written in ``cls`` runs): its nearest base outside the project, when no
        project class before that base defines ``__init__``; ``None`` for a class not the project's."""
        if self.canonical(cls) not in self.classes:
            return None
        for ancestor in self.ancestors(cls)[skip:]:
            if ancestor not in self.classes:
                return None if ancestor in ("object", "builtins.object") else ancestor
            if "__init__" in self.classes[ancestor][1].methods:
                return None
        return None

    def own_classes(self, name: str) -> list[str]:
        """The project classes ``name`` (``pkg.rubric_for()``: what a project function gives, its
        ``return``s or its union annotation naming several types) is an instance of, when each
        type it may be is the project's own (``return TrolleyRubric()`` here, ``return
        NavigationRubric()`` there); [] when one is not, or it names none."""
        classes = [self.canonical(self.resolve(value).removesuffix("()")) for value in self.returns.get(name, ())]
        return classes if all(cls in self.classes for cls in classes) else []

    def framework_table(self, cls: str) -> HookClass | None:
        """The framework hook table a (project) class inherits, if any."""
        if cls not in self._tables:
            self._tables[cls] = next(filter(None, map(framework_class, self.ancestors(cls))), None)
        return self._tables[cls]

    def frameworks_own(self, key: FunctionId) -> bool:
        """``key`` is a framework's own definition of a hook its hook table lists (verifiers'
        ``MultiTurnEnv.rollout`` or ``setup_state``, read by deep mode), or of a coroutine method
        the table calls its machinery in the installed release (``Environment.generate``,
        :attr:`HookClass.machinery`): what it runs is what the framework runs for every
        environment, which the project can neither see nor change; what the project adds there,
        its overrides of the hooks, the hot set reaches as roots. A library subclassing a framework
        class (an environment package installed) is not the framework."""
        found = self._frameworks_own.get(key)
        if found is None:
            summary, function = self.summaries[key[0]], self.function(key)
            table = None
            if summary.library is not None and function.class_qualname is not None:
                table = self.framework_table(f"{summary.module}.{function.class_qualname}")
            found = self._frameworks_own[key] = (
                table is not None
                and summary.library is not None
                and summary.module.partition(".")[0] == table.package.partition(".")[0]
                and (
                    function.name in table.methods
                    or (function.is_async and table.runs_safely(function.name, summary.library))
                )
            )
        return found

    def receiver_table(self, ref: FunctionRef) -> HookClass | None:
        """The framework hook table of the instance whose method ``ref`` is handed to:
        ``taskset.add_reward(f)`` (``Taskset().add_reward``, or a factory's ``make_taskset().add_reward``:
        what the factory returns), ``self.add_setup(f)`` in a class, ``self.taskset.add_reward(f)``."""
        method, instance = ref.passed_to_method, None
        if method and ref.passed_to and ref.passed_to.endswith(f".{method}"):
            instance = self.resolve(ref.passed_to.removesuffix(f".{method}"))
        elif method and ref.passed_to_self is not None and ref.passed_to_self.path[-1:] == (method,):
            owner = ref.passed_to_self
            instance = f"{owner.cls}()" if len(owner.path) == 1 else self.resolve_self_ref(owner.receiver())
        if instance is None or not instance.endswith("()"):
            return None  # not an instance the summaries type (a module's function, a class itself)
        cls = self.canonical(instance.removesuffix("()"))
        return self.framework_table(cls) if cls in self.classes else framework_class(cls)

    def overrides(self, cls: str, method: str) -> list[FunctionId]:
        """Definitions of ``method`` in the project's subclasses of ``cls`` (at any depth): what
        ``self.method()`` written in ``cls`` may run instead of its own."""
        key = (cls, method)
        found = self._overrides.get(key)
        if found is None:
            found = self._overrides[key] = [
                key for sub in self.subclasses(cls) for key in self.defs.get(f"{sub}.{method}", ())
            ]
            implementers = self.implementers(cls)
            if len(implementers) > MAX_IMPLEMENTERS:
                # Nine sources implement ``Source``, the environment builds three: a value declared
                # a ``Source`` is one of those three (what is never built never runs).
                implementers = [name for name in implementers if name in self.built_classes()]
            if len(implementers) <= MAX_IMPLEMENTERS:
                implemented = (self.method_of(implementer, method) for implementer in implementers)
                found.extend(key for key in implemented if key is not None and key not in found)
        return found

    def named_methods(self, receiver: str) -> tuple[FunctionId, ...]:
        """What ``getattr(obj, name)(...)`` may run, ``receiver`` being what ``obj`` resolves to: each
        public method (no ``_`` prefix, no property) of its class's MRO and of the project's subclasses
        of it, when it is an instance of a project class; () when nothing types it (no guess)."""
        cls = receiver.removesuffix("()")
        if not receiver.endswith("()") or cls not in self.classes:
            return NO_FUNCTIONS
        found: dict[FunctionId, None] = {}
        for owner in (*self.mro(cls), *self.subclasses(cls)):
            info = self.classes[owner][1]
            for name in info.methods:
                if name.startswith("_") or name in info.properties:
                    continue
                key = self.method_of(cls, name) if owner in self.mro(cls) else None  # an override's: cls's own
                found.update(dict.fromkeys((key,) if key is not None else self.defs.get(f"{owner}.{name}", ())))
        return tuple(found)

    def implementers(self, cls: str) -> list[str]:
        """The project classes implementing ``cls``, a protocol of the project's, without deriving
        from it: each defines or inherits every method the protocol and its protocol bases declare
        (``class OpenAIDescriptionClient`` for ``class DescriptionClient(Protocol)``). [] for any
        other class. :meth:`overrides` takes them only when there are at most
        :data:`MAX_IMPLEMENTERS`; the callers' arguments may choose among more (``HotSet._targets``)."""
        found = self._implementers.get(cls)
        if found is None:
            found = self._implementers[cls] = self._structural(cls)
        return found

    def built_classes(self) -> frozenset[str]:
        """The project classes the project's own code (tests aside) builds: calls it writes of them
        (in a lambda too: ``lambda: WikipediaSource(mode="search")``), items of a dispatch table's
        call, and classes it hands on as values to be built later (a table's values, a list's
        items, an argument: ``{"factory": PageviewsSource}``, ``ModuleSummary.factories``)."""
        if self._built_classes is None:
            short = {name.rpartition(".")[2] for name in self.classes}
            found: set[str] = set()
            for position, summary in enumerate(self.summaries):
                if summary.library is not None or self._in_test_file(position):
                    continue
                named = (
                    *(site.target for site in summary.calls if site.target),
                    *(item for site in summary.calls for item in site.dispatch),
                    *(name for _, name in summary.factories),
                )
                for name in named:
                    if name.rpartition(".")[2] in short and (cls := self.canonical(self.resolve(name))) in self.classes:
                        found.add(cls)
            self._built_classes = frozenset(found)
        return self._built_classes

    def _structural(self, cls: str) -> list[str]:
        if not self._is_protocol(cls):
            return []
        declared = {
            name for owner in self.mro(cls) if self._is_protocol(owner) for name in self.classes[owner][1].methods
        }
        if not declared:
            return []
        found = [
            name
            for name in sorted(self.classes)
            if not self._is_protocol(name)
            and cls not in self.ancestors(name)
            and all(self.method_of(name, method) is not None for method in declared)
        ]
        return found

    def _is_protocol(self, cls: str) -> bool:
        """A project class declared a protocol (``Protocol`` among its own bases)."""
        return cls in self.classes and not PROTOCOL_BASES.isdisjoint(self.classes[cls][1].bases)

    def subclasses(self, cls: str) -> list[str]:
        """The project's subclasses of ``cls`` at any depth, nearest first."""
        if self._subclasses is None:
            self._subclasses = {}
            for name, (_, info) in sorted(self.classes.items()):
                for base in info.bases:
                    self._subclasses.setdefault(self.canonical(base), []).append(name)
        found, seen, queue = [], {cls}, deque(self._subclasses.get(cls, ()))
        while queue:
            sub = queue.popleft()
            if sub in seen:
                continue
            seen.add(sub)
            found.append(sub)
            queue.extend(self._subclasses.get(sub, ()))
        return found
