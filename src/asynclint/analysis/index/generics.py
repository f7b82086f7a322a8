"""What a generic container's accessor gives (``knowledge/generics.py``): the type argument its
annotation names, read for a name annotated where it is bound (``CURRENT: ContextVar["Session"] =
ContextVar("s")``, ``jobs: asyncio.Queue[Job]`` as a parameter) until the name is bound again."""

from __future__ import annotations

import ast

from asynclint.analysis.index.annotations import none_annotation, unquoted
from asynclint.analysis.index.frames import Frame
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import Inst, Sym, Value
from asynclint.knowledge.generics import ACCESSORS
from asynclint.knowledge.typenames import WRAPPING_ANNOTATIONS


class GenericAccessors(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def note_generic(self, frame: Frame, name: str, annotation: ast.expr | None) -> None:
        """Name ``name`` of ``frame`` is now annotated ``annotation``: keep the type arguments of the
        generic container it names (``Optional[...]`` and ``... | None`` around it, quoted or not)."""
        frame.generics.pop(name, None)
        found = self._generic(annotation)
        if found is not None:
            frame.generics[name] = found

    def _generic(self, annotation: ast.expr | None) -> tuple[str, tuple[Value, ...]] | None:
        node = unquoted(annotation) if annotation is not None else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            sides = [side for side in (node.left, node.right) if not none_annotation(side)]
            return self._generic(sides[0]) if len(sides) == 1 else None
        if not isinstance(node, ast.Subscript):
            return None
        outer = self.infer(node.value)
        if not isinstance(outer, Sym):
            return None
        arguments = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if outer.name in WRAPPING_ANNOTATIONS:
            kept = [argument for argument in arguments if not none_annotation(argument)]
            return self._generic(kept[0]) if len(kept) == 1 or outer.name != "typing.Union" else None
        if outer.name not in ACCESSORS:
            return None
        return outer.name, tuple(self.annotation_type(argument) for argument in arguments)

    def generic_item(self, receiver: ast.expr, accessor: str) -> Value:
        """What ``accessor`` of ``receiver`` gives when the receiver is a name annotated as a generic
        container whose accessor that is (``CURRENT.get(None)``: the ``Session``); None otherwise."""
        if not isinstance(receiver, ast.Name):
            return None
        innermost = True
        for frame in reversed(self.frames):
            if frame.kind == "class" and not innermost:
                continue  # as Scopes.lookup: methods do not see class-body names
            innermost = False
            if receiver.id in frame.bindings:
                container, arguments = frame.generics.get(receiver.id, ("", ()))
                position = ACCESSORS.get(container, {}).get(accessor)
                if position is None or position >= len(arguments):
                    return None
                item = arguments[position]
                # Read from the container, as a call's result is: an instance, not a parameter.
                return Inst(item.name, "expr") if isinstance(item, Inst) else None
        return None
