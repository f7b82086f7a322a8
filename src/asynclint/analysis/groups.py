"""Group rewards: a reward the framework calls once with a whole group's lists (verifiers'
``Rubric._is_group_func``), the helpers those lists are handed to, and the loops over them --
the loop over the group's rollouts, run back to back in one step of the event loop."""

from __future__ import annotations

from dataclasses import replace

from asynclint.analysis.graph_records import FunctionId, HotInfo
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.records import CallSite, Place
from asynclint.knowledge.frameworks import (
    DEFAULT_GROUP_SIZE,
    GROUP_EACH,
    GROUP_REWARD,
    GROUP_REWARD_PARAMETERS,
    GROUP_ROLLOUTS,
    GROUP_SIZE_SETTING,
    GROUPED_HOOKS,
    Hook,
)


class Groups(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def group_root(self, key: FunctionId, hook: Hook) -> tuple[Hook, tuple[str, ...]]:
        """Root ``key``'s hook, and the parameters holding a group's lists: a reward taking one of
        :data:`~asynclint.knowledge.frameworks.GROUP_REWARD_PARAMETERS` is called once per group,
        sync or async (its own code runs once per group, not back to back)."""
        if hook in GROUPED_HOOKS:
            group = tuple(name for name in self.function(key).params if name in GROUP_REWARD_PARAMETERS)
            if group:
                return GROUP_REWARD, group
        return hook, ()

    def group_passed(self, info: HotInfo, site: CallSite, callee: FunctionId) -> tuple[str, ...]:
        """The parameters of ``callee`` that ``site`` fills with the group's lists on ``info``'s
        chain: a list of the group handed on as it is, or one holding an item per rollout of it
        (``texts = [text(c) for c in completions]``, ``CallSite.itemwise``)."""
        if not info.group:
            return ()
        slots = self._slots(callee)
        return tuple(
            sorted(
                {
                    slots[slot]
                    for slot, param in (*site.itemwise, *site.passed_params)
                    if param in info.group and slot in slots
                }
            )
        )

    def group_loop(self, key: FunctionId, place: Place, group: tuple[str, ...]) -> tuple[Hook | None, bool]:
        """How ``place`` (a call or a loop of ``key``) runs when a loop of ``key`` over one of
        ``group``'s lists runs it once per item: back to back (:data:`GROUP_ROLLOUTS`), or once per
        rollout when that loop awaits between them (:data:`GROUP_EACH`); ``None`` outside such a
        loop. And whether another loop of ``key`` runs it on every iteration: an ordinary loop (a
        loop starting at ``place`` is ``place`` itself, not around it)."""
        at, hook, other = (place.line, place.col), None, False
        for _, loop in self.loops_of(key):
            if not (loop.line, loop.col) < at < (loop.end_line, loop.end_col):
                continue
            outside = loop.outside
            if outside[0] and (outside[0], outside[1]) <= at < (outside[2], outside[3]):
                continue  # what the loop goes over is evaluated once, before it
            if set(group).isdisjoint(loop.over):
                other = True
            elif hook is not GROUP_EACH:
                hook = GROUP_EACH if self.awaits_in(key, loop) else GROUP_ROLLOUTS
        return hook, other

    def grouped(self, key: FunctionId, place: Place, info: HotInfo) -> HotInfo:
        """``info`` for ``place`` in ``key``: in a loop over the group's lists of a group reward's
        chain, the group's rollouts (:meth:`group_loop`)."""
        hook = self.group_loop(key, place, info.group)[0] if info.group else None
        return info if hook is None else replace(info, root_hook=hook, group=())

    def group_size(self) -> tuple[int, str]:
        """How many rollouts a group holds, and where that comes from: the largest literal the
        project gives :data:`~asynclint.knowledge.frameworks.GROUP_SIZE_SETTING`, else the
        framework's default (:data:`~asynclint.knowledge.frameworks.DEFAULT_GROUP_SIZE`)."""
        size = self._project_settings().get(GROUP_SIZE_SETTING)
        if size:
            return size, f"`{GROUP_SIZE_SETTING}` = {size}"
        return DEFAULT_GROUP_SIZE, f"verifiers' default `{GROUP_SIZE_SETTING}`"
