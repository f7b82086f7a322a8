"""The async twin a call on a receiver of one of several classes names (``Facts.members``): one
for the call when the members' entries agree, else one per group of members, as facts."""

from __future__ import annotations

from asynclint.analysis.api import CallGraph
from asynclint.model import MemberTwin
from asynclint.rules.context import CheckContext
from asynclint.rules.hotcalls import CallInHotCode


def members_twin(
    ctx: CheckContext, graph: CallGraph, call: CallInHotCode, twin: str
) -> tuple[str, tuple[MemberTwin, ...]]:
    """(``Facts.twin``, ``Facts.member_twins``) of a call graded by an entry whose twin is ``twin``:
    that twin when every member's entry words the same one (``httpx.AsyncClient`` for both
    ``requests.Session`` and ``httpx.Client``: the catalogue words one API's twin one way,
    ``tests/test_knowledge_packs.py``); when they differ, none for the call and each with the
    classes it replaces (``tavily.AsyncTavilyClient`` for ``tavily.TavilyClient``); none at all
    when some member has none (a project class's own method: offloading the call is the fix; a
    project subclass inheriting the method has its twin)."""
    if not call.members:
        return twin, ()
    by_twin: dict[str, list[str]] = {}
    for member in call.members:
        entry = ctx.catalogue.match(member, None)
        said = entry.twin if entry is not None else ("" if graph.functions_for(member) else twin)
        by_twin.setdefault(said, []).append(graph.as_written(member).rpartition(".")[0])
    if "" in by_twin:
        return "", ()
    if len(by_twin) == 1:
        return twin, ()
    return "", tuple(MemberTwin(said, tuple(classes)) for said, classes in by_twin.items())
