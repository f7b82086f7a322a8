"""The records a rule is handed about the project's blocking calls: a call the knowledge base says
blocks, written in a function that runs on the loop, and the clients the project hands the framework
(whose methods the framework calls, or runs by itself)."""

from __future__ import annotations

from dataclasses import dataclass

from asynclint.analysis.api import FunctionId, TypeName
from asynclint.analysis.graph_records import HotInfo
from asynclint.analysis.index.records import CallSite, Handoff, ModuleSummary
from asynclint.knowledge.blocking import BlockingApi
from asynclint.knowledge.frameworks import HandedClient, Hook, SyncMethod


@dataclass(frozen=True)
class HandedOver:
    """An object handed to the framework, which calls a blocking method on it when the project
    calls one of the holder's ``users`` (or the method through the attribute it keeps it as)."""

    summary: ModuleSummary
    handoff: Handoff
    api: BlockingApi
    value: str  # the object's type
    callee: str  # what the framework calls on it
    owner: str  # the framework class it is handed to
    holder: HandedClient
    receiver: TypeName  # the class it is handed to, as the project names it (a subclass of ``owner``)


@dataclass(frozen=True)
class RunByFramework:
    """A client handed to a class whose method the framework runs by itself (a hook the class
    overrides) calls the client there: the hand-over blocks the loop wherever the framework runs
    ``method``, with no project call on the way -- the project's one line is the hand-over."""

    handed: HandedOver  # its ``api`` and ``callee``: what the method calls on the client
    method: str  # the holder's method the framework runs (``score_rollouts``)
    hook: Hook  # how the framework runs it
    in_loop: bool  # the method calls it inside a loop
    #: Where the method makes the call, when deep mode reads the library's code (else the
    #: knowledge base's holder table says it): the method and its call site.
    read: tuple[FunctionId, CallSite] | None = None


@dataclass(frozen=True)
class CallInHotCode:
    """A call the knowledge base says blocks, written in a function that runs on the loop."""

    summary: ModuleSummary
    key: FunctionId  # the function it is written in
    hot: HotInfo  # why that function runs on the loop
    site: CallSite
    api: BlockingApi
    target: str  # resolved dotted name of the callee
    #: The call reaches a client handed to a framework object: ``user`` names the holder's method
    #: called (``judge``), empty when the client's own method is called through the holder.
    handed: HandedOver | None = None
    user: str = ""
    #: The framework method called is a sync one at the project's version of the framework.
    sync: SyncMethod | None = None
    #: ``target`` is a method the receiver's class inherits: the callee named on that class (what the
    #: finding says), and the base class defining it, as exported.
    shown: str = ""
    defined: str = ""
    #: The receiver is an instance of one of several classes: the method called on each
    #: (``requests.Session.get``, ``pkg.Pages().get``), ``target`` among them; () for one class.
    members: tuple[str, ...] = ()
