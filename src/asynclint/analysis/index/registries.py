"""Environments a library registry builds by id: ``gymnasium.register(id=..., entry_point=...)``
filing a class under an id, and ``gymnasium.make(id)`` building what the id names (the
registries: :data:`~asynclint.knowledge.blocking.REGISTERS`, ``MAKERS``)."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from asynclint.analysis.index.callshapes import reference, slot_argument
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import NAMED_ID, CallPart, Sym
from asynclint.knowledge.blocking import MAKERS, REGISTERS

#: What an id may hold to be written in a path part (gymnasium's ids: ``[namespace/]name[-vN]``).
_ID = re.compile(r"[\w.:/-]+")


class Registries(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    #: (registry, id, the dotted name of what is filed under it): see ModuleSummary.registered.
    registered: list[tuple[str, str, str]]

    if TYPE_CHECKING:

        def _constant(self, node: ast.expr) -> ast.expr: ...

    def _made(self, node: ast.Call, callee: str) -> str | None:
        """``gymnasium.make("Grid-v0")``: what a registry's maker builds from a constant id, named
        by the maker and a ``made`` :class:`CallPart` (``gymnasium.make.<made:gymnasium|Grid-v0>()``),
        which the graph reads as an instance of what the project registers under the id, else as
        what the maker returns; ``None`` for any other call."""
        registry = MAKERS.get(callee)
        made = self._id_at(node, registry.made_slot) if registry is not None else None
        if registry is None or (made is None and (made := self._id_named(node, registry.made_slot)) is None):
            return None
        made = made.rpartition(":")[2] if registry.module_prefix else made  # ``"pkg.envs:Grid-v0"``
        return f"{callee}.{CallPart('made', (registry.name, made))}()"

    def _result_of(self, node: ast.Call, callee: str) -> str:
        """What ``node``, a call of ``callee`` (a library's), gives: what :meth:`_made` names, else
        what the catalogue says (``Catalogue.result_of``)."""
        return self._made(node, callee) or self.catalogue.result_of(callee)

    def _record_registration(self, node: ast.Call, callee: str) -> None:
        """``gymnasium.register(id="Grid-v0", entry_point=GridEnv)`` (or ``"pkg.envs:GridEnv"``, or
        ``f"{__name__}.envs:GridEnv"`` as Isaac Lab's tasks write it): what is filed under a constant
        id, for the graph to build where the id is made."""
        registry = REGISTERS.get(callee)
        entry = slot_argument(node, *registry.entry_slot) if registry is not None else None
        if registry is None or entry is None:
            return
        named = reference(self._from_here(entry))
        if named is None and isinstance(value := self.infer(entry), Sym):
            named = value.name
        ids = (self._id_at(node, registry.id_slot), self._id_named(node, registry.id_slot, here=True))
        self.registered.extend((registry.name, registered, named) for registered in ids if registered and named)

    def _from_here(self, node: ast.expr) -> ast.expr:
        """``f"{__name__}.envs:GridEnv"`` as the string it is in this module; else ``node``."""
        if not (isinstance(node, ast.JoinedStr) and len(node.values) == 2):
            return node
        head, tail = node.values
        if (
            isinstance(head, ast.FormattedValue)
            and isinstance(head.value, ast.Name)
            and head.value.id == "__name__"
            and head.conversion == -1
            and head.format_spec is None
            and isinstance(tail, ast.Constant)
            and isinstance(tail.value, str)
        ):
            return ast.Constant(f"{self.module}{tail.value}")
        return node

    def _id_named(self, node: ast.Call, slot: tuple[str, int], here: bool = False) -> str | None:
        """The id passed at ``slot`` as a project constant's name, ``=pkg.consts.GRID_ID`` (see
        :data:`NAMED_ID`): one imported from another module, whose value the graph matches with the
        registrations naming it; ``here``: one of this module's too (what a registration names)."""
        argument = slot_argument(node, *slot)
        if here and isinstance(argument, ast.Name) and argument.id in self.frames[0].constants:
            return f"{NAMED_ID}{self.module}.{argument.id}"
        value = self.infer(argument) if argument is not None else None
        root = value.name.partition(".")[0] if isinstance(value, Sym) else ""
        if root in self._project_roots or (root and root == self.module.partition(".")[0]):
            return f"{NAMED_ID}{value.name}" if isinstance(value, Sym) else None
        return None

    def _id_at(self, node: ast.Call, slot: tuple[str, int]) -> str | None:
        """The constant id passed at ``slot`` (a keyword and a position), if one is."""
        argument = slot_argument(node, *slot)
        value = self._constant(argument) if argument is not None else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and _ID.fullmatch(value.value):
            return value.value
        return None
