"""Callables handed to the framework: which project functions a registration makes roots (rewards,
tools, parsers, a class the framework builds and drives), the installed libraries' functions handed
over the same way, and what a v1 toolset served in a process of its own reads as (part of the hot
set, :mod:`asynclint.analysis.hot`)."""

from __future__ import annotations

from collections.abc import Sequence

from asynclint.analysis.adapters import Adapters
from asynclint.analysis.graph_records import FunctionId, RegisteredElsewhere
from asynclint.analysis.index.records import FunctionRef
from asynclint.analysis.index.values import Marker
from asynclint.knowledge.frameworks import (
    ATTRIBUTE_SLOT,
    FREQUENT,
    HANDED_CLASSES,
    REWARD,
    SERVER_DISPATCHED,
    SYNC_REWARD,
    TOOL_SERVER_PACKAGES,
    Hook,
    HookClass,
    framework_class,
    in_process_split,
    rescheduled,
    served_apart,
)


class Registrations(Adapters):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _registered(self) -> dict[FunctionId, Hook]:
        """Callables handed to the framework (rewards, tools, parsers), wherever that happens."""
        found: dict[FunctionId, Hook] = {}
        for position, summary in enumerate(self.summaries):
            if summary.library is not None:
                continue  # a library registering its own callables is the library's business
            for ref in summary.refs:
                if ref.offloaded or ref.away is not None:
                    continue
                served = self._served_by(position, ref.caller)
                if served and served_apart(served, self._versions):
                    # handed to the server serving its class, in that server's process
                    hook, dispatched = self.served_tool(position, ref)
                else:
                    hook, dispatched = self.registration(ref), False
                if hook is None or hook in self._offloaded:
                    continue
                keys: Sequence[FunctionId]
                if ref.function is not None:  # a lambda written in the call
                    keys = [FunctionId((position, ref.function))]
                else:
                    target = ref.target if ref.self_ref is None else self.resolve_self_ref(ref.self_ref)
                    if hook in HANDED_CLASSES:  # a class the framework builds and drives
                        self._handed_class(found, target, HANDED_CLASSES[hook])
                        continue
                    keys = self.functions_denoted(target)
                    if target and not any(self.summaries[key[0]].library is None for key in keys):
                        self._register_elsewhere(position, ref, target, hook, keys)
                for key in keys:
                    if served is not None and in_process_split(served, self._versions)[0]:
                        self._read_in_process[key] = served
                    # v0 scores a group by calling sync rewards back to back (but for the
                    # releases scoring each rollout as it finishes)
                    sync = not self.function(key).is_async
                    if hook is REWARD and sync:
                        own = rescheduled(SYNC_REWARD, self._versions)
                    else:  # a sync tool the server runs by its own dispatch (SERVER_DISPATCHED)
                        own = SERVER_DISPATCHED.get(hook, hook) if dispatched and sync else hook
                    if own in self._offloaded:
                        continue
                    if key not in found or own.frequency in FREQUENT:
                        found[key] = own
        self._exported_rewards(found)
        return found

    def _register_elsewhere(
        self, position: int, ref: FunctionRef, target: str, hook: Hook, keys: Sequence[FunctionId]
    ) -> None:
        """Keep ``target``, a callable no project function is, handed to the framework by ``ref``: an
        installed library's function (``keys``: as deep mode read it) runs as ``hook`` all the same
        (:meth:`registered_elsewhere`)."""
        name = self.canonical(target)
        if not name.rpartition(".")[0] or name.endswith("()"):
            return  # not a dotted name: a call's result, a value the graph cannot name
        module = self._module_of(name)
        if module is not None and self.summaries[self.modules[module][0]].library is None:
            return  # the project's own name, one the graph cannot settle
        key = keys[0] if keys else None
        # v0 scores a group by calling sync rewards back to back: a library's blocking one is sync.
        sync = hook is REWARD and (key is None or not self.function(key).is_async)
        own = rescheduled(SYNC_REWARD, self._versions) if sync else hook
        if own not in self._offloaded:
            path, end_col = self.summaries[position].path, ref.end_col or ref.col or 1
            self._elsewhere_registered.append(
                RegisteredElsewhere(path, ref.line, ref.col or 1, end_col, name, own, key)
            )

    def registered_elsewhere(self) -> Sequence[RegisteredElsewhere]:
        """The installed libraries' functions the project hands the framework to run (a tool, a
        reward), where it hands each over and how the framework runs it: no project line calls them."""
        return self._elsewhere_registered

    def _handed_class(self, found: dict[FunctionId, Hook], target: str | None, methods: dict[str, Hook]) -> None:
        """The project class ``target`` names: each of ``methods`` it defines or inherits is a root."""
        cls = self.canonical(target) if target else None
        if cls is None or cls not in self.classes:
            return  # a library's class: its own business, or its pack's
        for name, hook in methods.items():
            key = self.method_of(cls, name)
            if key is not None and (key not in found or hook.frequency in FREQUENT):
                found[key] = hook

    def _served_by(self, position: int, index: int) -> HookClass | None:
        """The framework table of a class that some release serves in a process of its own (a v1
        toolset) whose method function ``index`` is (or is nested in)."""
        owner = self.summaries[position].functions[index].enclosing_class
        table = self.framework_table(f"{self.summaries[position].module}.{owner}") if owner else None
        return table if table is not None and table.own_process else None

    def in_process_reading(self, root: FunctionId) -> tuple[str, str]:
        """``Facts.admitted`` and ``Facts.assumed_from`` when ``root`` runs on the loop only by the
        reading taken of a range that also admits releases serving its class apart
        (:func:`~asynclint.knowledge.frameworks.in_process_split`): registered inside such a class, or
        a method of one; two empty strings otherwise."""
        return in_process_split(self._read_in_process.get(root) or self._served_by(*root), self._versions)

    def _registering(self, passed_to: str) -> str:
        """The callable a ref is handed to, canonically named; one read on what a call of the
        project's returns (``vf = _import_verifiers(); vf.Rubric(funcs=...)``) as that call resolves."""
        receiver = self.canonical(passed_to)
        if "()." not in receiver:
            return receiver
        resolved = self.resolve(receiver)
        return resolved if "()" not in resolved else receiver

    def registration(self, ref: FunctionRef) -> Hook | None:
        receiver = self._registering(ref.passed_to) if ref.passed_to else None
        if (
            receiver is None
            and ref.passed_to_self is not None
            and (ref.passed_to_self.path == (Marker.SUPER, "__init__") or ref.slot.startswith(ATTRIBUTE_SLOT))
        ):
            receiver = ref.passed_to_self.cls  # super().__init__(...) or self.tools = [...] in a framework subclass
        table = (
            self.framework_table(receiver)
            if receiver in self.classes
            else (framework_class(receiver) if receiver else None)
        )
        # A method of an instance (``bot.Bot().on_message``) is configured as ``bot.Bot.on_message``.
        written = receiver.replace("()", "") if receiver else None
        slot = self._registrations_by_slot.get(ref.slot)
        if slot is None or not slot.may_match(written, ref.passed_to_method, table, receiver):
            return None
        for registration in slot.entries:
            if registration.callee is not None and registration.callee == written:
                return registration.hook
            if registration.method is not None and registration.method == ref.passed_to_method:
                if registration.owner is None and written and written.startswith(TOOL_SERVER_PACKAGES):
                    return None  # ``mcp.add_tool(fn)``: run by a tool server in its own process
                # ``taskset.add_reward(fn)``: the receiver's table is resolved only for an owned method
                if registration.owner is None or registration.owner is self.receiver_table(ref):
                    return registration.hook
            elif registration.owner is not None and table is registration.owner and registration.method is None:
                return registration.configured(dict(ref.settings))
            if registration.any_verifiers_call and (table is not None or (receiver or "").startswith("verifiers.")):
                return registration.hook
        return None
