"""Settling ``self.<attr>`` references once the whole module has been read: through the
class's bases defined in the module, else left for the project graph. Hand-overs of ``self``
attributes are always left to it: it alone says what they hold and where they were built."""

from __future__ import annotations

from dataclasses import replace

from asynclint.analysis.index.attr_evidence import attribute_members
from asynclint.analysis.index.callfacts import NO_FACTS, CallFacts
from asynclint.analysis.index.helpers import MAX_SELF_HOPS
from asynclint.analysis.index.records import CallSite
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import (
    ITEM_SUFFIX,
    Inst,
    Marker,
    Refs,
    Rooted,
    SelfPath,
    SelfRef,
    Sym,
    extend,
    linear_chain,
    split_super,
)
from asynclint.knowledge.frameworks import HANDOFF_ATTRIBUTES


class SelfReferences(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    # -- settling self.<attr> ---------------------------------------------------------------

    def _class_chain(self, cls: str) -> list[str]:
        """``cls`` and its bases defined in this module, nearest first (asked once the whole
        module has been read, so kept: a deep hierarchy asks for every class's chain)."""
        return linear_chain(
            cls, lambda name: (name, self.class_bases.get(name, ())), self._chains, known=self.class_lines.__contains__
        )

    def resolve_self(self, cls: str, path: tuple[str, ...], depth: int = 0) -> tuple[str | None, bool]:
        """-> (dotted target, settled?). Unsettled refs wait for the project-wide resolver, as do
        results this module cannot name (``pkg.make()``)."""
        skip, path = split_super(path)
        if not path or depth > MAX_SELF_HOPS:
            return None, True
        attr, rest = path[0], path[1:]
        chain = self._class_chain(cls)[skip:]
        if attr.endswith(ITEM_SUFFIX) and not any(attr in self.class_attrs.get(owner, {}) for owner in chain):
            attr = attr.removesuffix(ITEM_SUFFIX)  # nothing stored per key here: the container's own type
        name = attr.removesuffix("()")
        for owner in chain:
            attrs = self.class_attrs.get(owner, {})
            if name in self.class_methods.get(owner, ()):
                is_property = name in self.class_properties.get(owner, ())
                if attr == name and not is_property:
                    return (f"{owner}.{attr}" if not rest else None), True
                if attr != name and is_property:
                    return None, True  # calling what a property returns
                # ``self.make_client()``, or a property read: what the method returns
                returned = self._method_returns.get(f"{owner}.{name}()")
                if returned is None:
                    return extend(f"{owner}.{name}()", rest), True  # the graph may know more
                if isinstance(returned, Rooted) and returned.root == Marker.SELF:  # ``return self._http``
                    return self.resolve_self(cls, (*returned.path, *rest), depth + 1)
                return extend(str(returned), rest), True
            if attr in attrs:
                value = attrs[attr]
                if isinstance(value, Inst) and Rooted.read(value.name, Marker.PARAM) is not None:
                    return None, False  # what the constructor's callers pass: the graph's to say
                if isinstance(value, (Inst, Sym)):
                    return extend(value.name, rest), True
                if isinstance(value, SelfRef) and value.path:  # ``self.pages = self.db.collection()``
                    return self.resolve_self(value.cls, (*value.path, *rest), depth + 1)
                return None, True
        return None, False

    def _stored(self, cls: str, attr: str) -> Inst | Sym | SelfRef | Refs | None:
        """What the nearest class of this module's chain that sets ``self.<attr>`` stores there."""
        for owner in self._class_chain(cls):
            attrs = self.class_attrs.get(owner, {})
            if attr in attrs:
                return attrs[attr]
        return None

    def _union_members(self, cls: str, path: tuple[str, ...]) -> tuple[str, ...]:
        """``self.client.get`` where the nearest class of this module's chain setting ``client``
        sets it to an instance of one of several classes (:func:`attribute_members`): those classes."""
        if len(path) != 2 or path[0] == Marker.SUPER or path[0].endswith(("()", ITEM_SUFFIX)) or path[1].endswith("()"):
            return ()
        for owner in self._class_chain(cls):
            attrs = self.class_attrs.get(owner, {})
            if path[0] in attrs:
                return attribute_members(attrs[path[0]], self.attr_assigned.get((owner, path[0]), []))
        return ()

    def _self_table(self, cls: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        """``self.handlers[k](x)``, ``self.handlers.get(k)(x)`` or ``self.handler(x)`` where the
        class stores a table of callables there (``self.handlers = {"click": self.click, "run":
        run}``, ``self.handler = a if fast else b``): each of them, as a dispatch table's items
        (bound methods as ``pkg.Env().click``)."""
        if not path or path[0] == Marker.SUPER or len(path) > 2 or (len(path) == 2 and path[1] != "get()"):
            return None
        attr = path[0]
        table = self._stored(cls, attr) if attr.endswith(ITEM_SUFFIX) else None
        if not isinstance(table, Refs):
            table = self._stored(cls, attr.removesuffix(ITEM_SUFFIX))
        if not isinstance(table, Refs):
            return None
        return (
            tuple(
                item.name if not isinstance(item, SelfRef) else ".".join((f"{item.cls}()", *item.path))
                for item in table.items
                if not isinstance(item, SelfRef)
                or (item.cls != Marker.STATE and item.path and Marker.SUPER not in item.path)
            )
            or None
        )

    def _receiver_origin(self, cls: str, path: tuple[str, ...]) -> str:
        """How the receiver of a method called through ``self`` is known: ``self`` itself (an
        instance of ``cls`` or of any subclass: ``self``); an attribute a parameter's annotation
        typed, or what a method whose signature declares its result returns (any subclass of it:
        ``param``); else built as exactly its class (``self``, with an instance for a receiver)."""
        if len(path) != 2 or path[0] == Marker.SUPER:
            return "self"
        name = path[0].removesuffix("()")
        if path[0].endswith("()"):
            for owner in self._class_chain(cls):
                if name in self.class_methods.get(owner, ()):
                    return "param" if f"{owner[len(self.module) + 1 :]}.{name}()" in self.declared else "self"
            return "self"
        stored = self._stored(cls, path[0])
        return "param" if isinstance(stored, Inst) and stored.origin == "param" else "self"

    def _holds_instance(self, cls: str, path: tuple[str, ...]) -> bool:
        """``self.<attr>`` (one attribute, no call in the path) holds an instance built by a call,
        as the nearest class of this module's chain that sets it stores it."""
        if len(path) != 1 or path[0].endswith("()"):
            return False
        for owner in self._class_chain(cls):
            value = self.class_attrs.get(owner, {}).get(path[0])
            if value is not None:
                return isinstance(value, Inst)
        return False

    def _settle_reads(self) -> None:
        """Property reads become calls of the getter; reads of plain attributes and methods are
        dropped; reads this module cannot settle (a base class elsewhere) are left to the graph."""
        for (caller, cls, attr, in_loop, lambdas), node in self._reads.items():
            target, self_ref = None, None
            for owner in self._class_chain(cls):
                if attr in self.class_properties.get(owner, ()):
                    target = f"{owner}.{attr}"
                    break
                if attr in self.class_attrs.get(owner, {}) or attr in self.class_methods.get(owner, ()):
                    break
            else:
                if self._closed(cls):
                    continue  # every base is known here: an attribute set some other way
                self_ref = SelfPath(cls, (attr,))
            if target is None and self_ref is None:
                continue
            self.calls.append(
                CallSite.of(
                    caller,
                    target,
                    None,
                    node.lineno,
                    self._col(node.lineno, node.col_offset),
                    node.end_lineno or node.lineno,
                    self._col(node.end_lineno or node.lineno, node.end_col_offset or 0),
                    in_loop=in_loop,
                    self_ref=self_ref,
                    read=True,
                    lambdas=lambdas,
                )
            )

    def _closed(self, cls: str) -> bool:
        """Every class ``cls`` inherits from is defined in this module (or is ``object``)."""
        return all(
            base in self.class_lines or base == "builtins.object"
            for owner in self._class_chain(cls)
            for base in self.class_bases.get(owner, ())
        )

    def _settle_self_refs(self) -> None:
        for position in self.pending:
            site = self.calls[position]
            assert site.self_ref is not None  # pending: the calls with a SelfRef target
            cls, path = site.self_ref.cls, site.self_ref.path
            table = None if site.property_read else self._self_table(cls, path)
            if table is not None:
                facts = replace(site.rare or CallFacts(), dispatch=table)  # a rare fact (see CallFacts)
                self.calls[position] = replace(site, self_ref=None, rare=facts)
                continue
            members = () if site.property_read or self.library else self._union_members(cls, path)
            if members:  # ``self.client.get(url)`` on either of two clients: read as a local union is
                dispatch = tuple(f"{member}.{path[1]}" for member in members)
                target, api = self.catalogue.union_entry(dispatch, site.awaited, site.keywords, site.argument)
                api = api and self.catalogue.blocking(api, site.awaited, site.keywords, site.argument)
                facts = replace(site.rare or CallFacts(), dispatch=dispatch, api=api.pattern if api else None)
                self.calls[position] = replace(site, target=target, self_ref=None, rare=facts)
                continue
            if site.property_read:  # the receiver resolved; the property named as written, not as read
                receiver, settled = self.resolve_self(cls, path[:-1])
                target = f"{receiver}.{path[-1]}" if receiver else None
            else:
                target, settled = self.resolve_self(cls, path)
            if not settled:
                continue
            if site.property_read:
                api = self.catalogue.match_read(target)
            else:
                api = self.catalogue.match(target, site.method) if target or site.method else None
                if api is None and target and self._holds_instance(cls, path):
                    # ``self.classifier(text)`` calls the instance stored there: its ``__call__``,
                    # when an entry names it exactly (a bound method kept on ``self``, such as
                    # tenacity's ``AsyncRetrying(...).wraps``, is an instance here too).
                    called = self.catalogue.apis.get(f"{target}.__call__")
                    target, api = (f"{target}.__call__", called) if called is not None else (target, None)
            if api is not None:
                api = self.catalogue.blocking(api, site.awaited, site.keywords, site.argument)
            rare = site.rare
            if (api.pattern if api else None) != site.api:  # a rare fact (see CallFacts)
                rare = replace(rare or NO_FACTS, api=api.pattern if api else None)
            if path[0] in HANDOFF_ATTRIBUTES.values() and len(path) > 1:
                rare = replace(rare or NO_FACTS, self_path=path)
            self.calls[position] = replace(
                site,
                target=target,
                self_ref=None,
                span=site.span_with(self._receiver_origin(cls, path)),
                rare=None if rare == NO_FACTS else rare,
            )
        for position, ref in enumerate(self.refs):
            if ref.self_ref is not None:
                target, settled = self.resolve_self(ref.self_ref.cls, ref.self_ref.path)
                if settled:
                    self.refs[position] = replace(ref, target=target, self_ref=None)
