"""What a generic container's accessor gives (``knowledge/generics.py``): the type argument its
annotation names as its item. Read for a name annotated where it is bound (``CURRENT:
ContextVar["Session"] = ContextVar("s")``, ``jobs: asyncio.Queue[Job]`` as a parameter) until the
name is bound again, and for an attribute of ``self`` annotated in its class (``self._ready:
asyncio.Queue[Sandbox] = asyncio.Queue()``: ``await self._ready.get()`` is what is kept per item)."""

from __future__ import annotations

import ast

from asynclint.analysis.index.annotations import none_annotation, unquoted
from asynclint.analysis.index.frames import Frame
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import ITEM_SUFFIX, Inst, Marker, SelfRef, Sym, Value
from asynclint.knowledge.generics import ACCESSORS
from asynclint.knowledge.typenames import WRAPPING_ANNOTATIONS

#: An annotated generic container: the calls giving an item, and the item's type.
Held = tuple[frozenset[str], Value]


class GenericAccessors(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def note_generic(self, frame: Frame, name: str, annotation: ast.expr | None) -> None:
        """Name ``name`` of ``frame`` is now annotated ``annotation``: keep what the accessors of the
        generic container it names give."""
        frame.generics.pop(name, None)
        held = self.held_item(annotation)
        if held is not None:
            frame.generics[name] = held

    def held_item(self, annotation: ast.expr | None) -> Held | None:
        """The accessors and the item of the generic container an annotation names (inside
        ``Optional[...]`` or ``... | None``, quoted or not)."""
        node = unquoted(annotation) if annotation is not None else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            sides = [side for side in (node.left, node.right) if not none_annotation(side)]
            return self.held_item(sides[0]) if len(sides) == 1 else None
        if not isinstance(node, ast.Subscript):
            return None
        outer = self.infer(node.value)
        if not isinstance(outer, Sym):
            return None
        arguments = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if outer.name in WRAPPING_ANNOTATIONS:
            kept = [argument for argument in arguments if not none_annotation(argument)]
            # ``Optional[None]``, ``Union[None, None]``: nothing held; ``Union[A, B]``: either.
            return self.held_item(kept[0]) if kept and (len(kept) == 1 or outer.name != "typing.Union") else None
        accessors = ACCESSORS.get(outer.name)
        if accessors is None or accessors.item >= len(arguments):
            return None
        return accessors.methods, self.annotation_type(arguments[accessors.item])

    def generic_item(self, receiver: ast.expr, accessor: str) -> Value:
        """What ``accessor`` of ``receiver`` gives when the receiver is annotated as a generic
        container whose accessor that is (``CURRENT.get(None)``: the ``Session``); None otherwise."""
        if isinstance(receiver, ast.Attribute):
            if not self.attr_generics or not isinstance(receiver.value, ast.Name):
                return None  # (``self.<attr>`` only: the receiver is not inferred twice for every other call)
            base = self.infer(receiver.value)
            if (
                isinstance(base, SelfRef)
                and not base.path
                and base.cls != Marker.STATE
                and accessor in self._attr_accessors(base.cls, receiver.attr)
            ):
                return SelfRef(base.cls, (f"{receiver.attr}{ITEM_SUFFIX}",))  # typed by the class's item
            return None
        if not isinstance(receiver, ast.Name):
            return None
        innermost = True
        for frame in reversed(self.frames):
            if frame.kind == "class" and not innermost:
                continue  # as Scopes.lookup: methods do not see class-body names
            innermost = False
            if receiver.id in frame.bindings:
                methods, item = frame.generics.get(receiver.id, (frozenset(), None))
                # Read from the container, as a call's result is: an instance, not a parameter.
                return Inst(item.name, "expr") if accessor in methods and isinstance(item, Inst) else None
        return None

    def _attr_accessors(self, cls: str, attr: str) -> frozenset[str]:
        """The accessors of attribute ``attr`` as ``cls`` or the nearest of its bases in this module
        annotating it declares them (a pool's ``self._ready`` annotated in its base's ``__init__``)."""
        seen, pending = set(), [cls]
        while pending:
            owner = pending.pop(0)
            if owner in seen:
                continue
            seen.add(owner)
            if attr in (declared := self.attr_generics.get(owner, {})):
                return declared[attr]
            pending.extend(self.class_bases.get(owner, ()))
        return frozenset()

    def note_generic_attr(self, owner: tuple[str, str], annotation: ast.expr) -> Value:
        """Attribute ``owner`` (class, name) is annotated ``annotation``: its accessors, kept for
        :meth:`generic_item`; the item's type (None when it names no generic container)."""
        held = self.held_item(annotation)
        if held is None:
            return None
        self.attr_generics.setdefault(owner[0], {})[owner[1]] = held[0]
        return held[1]
