"""What a function's own declaration says the framework does with it: the hook its decorators or
its class's framework table make it (or that it is cold), the contexts a generic base names, and
pytest's tests and fixtures, which no rollout runs."""

from __future__ import annotations

import fnmatch
import functools

from asynclint.analysis.graph_records import COROUTINE
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.handed import FunctionRef
from asynclint.analysis.index.records import Function
from asynclint.analysis.index.values import Marker
from asynclint.knowledge.frameworks import (
    COLD_FUNCTIONS,
    DECORATORS,
    RECOVERY_HOOKS,
    SERVED_WRAPPERS,
    SERVER_TOOL_DECORATORS,
    SERVER_TOOL_METHODS,
    SHARED_CONTEXTS,
    TEST_CLASSES,
    TEST_DECORATORS,
    TEST_FILES,
    TEST_FUNCTIONS,
    TOOL_SERVER_PACKAGES,
    Hook,
    public_name,
    served_apart,
)


class DeclaredHooks(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _matches(self, patterns: tuple[str, ...], name: str) -> bool:
        return any(fnmatch.fnmatchcase(name, p) for p in patterns)

    def hook_of(self, position: int, function: Function) -> tuple[Hook | None, bool]:
        """(the framework hook ``function`` is, cold?) from its decorators and its class."""
        module = self.summaries[position].module
        contexts = (
            self._class_contexts(f"{module}.{function.class_qualname}")
            if function.class_qualname and function.decorators
            else {}
        )
        for decorator in function.decorators:
            name = public_name(decorator)
            if name in contexts:
                return contexts[name], False
            if name in DECORATORS:
                hook = DECORATORS[name]
                return hook, hook is None
        if function.class_qualname is not None:
            cls = f"{module}.{function.class_qualname}"
            recovery = next(
                (
                    hook
                    for ancestor in self.ancestors(cls)
                    if (name := self.canonical(ancestor)).count(".")
                    and (hook := RECOVERY_HOOKS.get((name.partition(".")[0], name.rpartition(".")[2], function.name)))
                ),
                None,
            )
            if recovery is not None:
                return recovery, False
            table = self.framework_table(cls)
            if table is not None:
                if function.name in table.cold or (
                    served_apart(table, self._versions) and function.name not in table.methods
                ):
                    return None, True
                return table.methods.get(function.name), False
        elif function.name in COLD_FUNCTIONS:
            return None, True
        return None, self._is_test(position, function)

    def served_closure(self, position: int, function: Function) -> tuple[bool, Hook | None]:
        """(is ``function`` a coroutine made inside a method of a class that the project's releases
        serve in a process of its own, the hook that server runs it as): the server runs it as it runs
        the methods :attr:`~asynclint.knowledge.frameworks.HookClass.closures` names -- a toolset's
        tool wrapper is cold for the rollout loop, and runs per tool call on the server that a toolset
        configured as shared gives every rollout of a worker (SHARED_CONTEXTS)."""
        if function.class_qualname is not None or ".<locals>." not in function.qualname:
            return False, None
        return self._served_context(position, function.enclosing_class)

    def _served_context(self, position: int, owner: str | None) -> tuple[bool, Hook | None]:
        """(is the class ``owner`` of module ``position`` served in a process of its own, the hook its
        server runs what its code makes or hands it as a tool as: :meth:`served_closure`)."""
        if owner is None:
            return False, None
        cls = f"{self.summaries[position].module}.{owner}"
        table = self.framework_table(cls)
        if table is None or not served_apart(table, self._versions):
            return False, None
        return True, self._class_contexts(cls).get(table.closures) if table.closures else None

    def served_tool(self, position: int, ref: FunctionRef) -> tuple[Hook | None, bool]:
        """(the hook of what ``ref`` hands over, handed to the server's own methods?), when code of a
        class served in a process of its own hands it to the server serving it as a tool
        (``mcp.add_tool(fn)``, ``self._with_state(fn)``: SERVER_TOOL_METHODS, SERVED_WRAPPERS): the
        server runs it as :meth:`served_closure` says a coroutine made there runs -- per tool call on a
        shared server, cold (``None``) on a per-rollout one. ``None`` too for any other hand-over
        (``sorted(items, key=fn)``)."""
        if ref.passed_to_self is not None:
            path = ref.passed_to_self.path
            method, slots = path[-1], SERVED_WRAPPERS
            if path[:-1] not in ((), (Marker.SUPER,)):
                return None, False
        elif ref.passed_to is None or self.canonical(ref.passed_to).startswith(TOOL_SERVER_PACKAGES):
            method, slots = ref.passed_to_method or "", SERVER_TOOL_METHODS
        else:
            return None, False
        if ref.slot not in slots.get(method, ()):
            return None, False
        owner = self.summaries[position].functions[ref.caller].enclosing_class
        return self._served_context(position, owner)[1], slots is SERVER_TOOL_METHODS

    def served_decorated(self, function: Function) -> bool:
        """``function`` is decorated by a tool server's tool decorator (``@mcp.tool()`` on the server a
        served class's ``register`` is handed: SERVER_TOOL_DECORATORS)."""
        for decorator in function.decorators:
            receiver, _, name = decorator.removesuffix("()").rpartition(".")
            if name in SERVER_TOOL_DECORATORS and (
                receiver.isidentifier() or receiver.startswith(TOOL_SERVER_PACKAGES)
            ):
                return True
        return False

    def _class_contexts(self, cls: str) -> dict[str, Hook]:
        """Decorator -> hook, from the type arguments of ``cls``'s generic bases and its
        ancestors' (:data:`~asynclint.knowledge.frameworks.SHARED_CONTEXTS`). The table names a
        configuration by its public spelling (``verifiers.v1.SharedToolsetConfig``); deep mode,
        once it reads the package's re-exports, resolves the argument to where the class is defined
        (``verifiers.v1.mcp.SharedToolsetConfig``), so that definition's public spellings are asked too."""
        found = self._contexts.get(cls)
        if found is None:
            found = self._contexts[cls] = {}
            for ancestor in self.ancestors(cls):
                name = self.canonical(ancestor)
                for argument in self.classes[name][1].type_args if name in self.classes else ():
                    defined = self.canonical(argument)
                    spellings = (defined, *self.exported_as(defined))
                    found.update(next(filter(None, (SHARED_CONTEXTS.get(public_name(s)) for s in spellings)), {}))
        return found

    def _in_test_file(self, position: int) -> bool:
        return _test_file(self.summaries[position].path.rpartition("/")[2])

    def _is_test(self, position: int, function: Function) -> bool:
        """A test function or fixture, collected and run by pytest."""
        if not self._in_test_file(position):
            return False
        if any(public_name(decorator) in TEST_DECORATORS for decorator in function.decorators):
            return True
        owner = function.class_qualname
        if owner is not None and ("." in owner or not self._matches(TEST_CLASSES, owner)):
            return False
        return function.qualname.count(".") == (owner is not None) and self._matches(TEST_FUNCTIONS, function.name)

    def _cold_by_decorator(self, function: Function) -> bool:
        """Is ``function`` decorated as code the framework runs elsewhere (a v1 ``@vf.tool``, served
        by a tool server in a process of its own), whatever it is handed to? verifiers 0.1.14's
        ``vf.Toolset(tools=[...])`` has no such decorator; the releases that have it serve it."""
        return any(DECORATORS.get(public_name(decorator), COROUTINE) is None for decorator in function.decorators)


@functools.lru_cache(maxsize=4096)
def _test_file(filename: str) -> bool:
    """Is ``filename`` a test module's name? It reads nothing else (the patterns are constants), so
    the answer is kept across the graphs of deep mode's levels and a watch's rounds: the entered
    pass asks it per module and per callee of a test module's calls, tens of thousands of times a
    graph."""
    return any(fnmatch.fnmatchcase(filename, pattern) for pattern in TEST_FILES)
