"""Rewards a library builds for its users: the callable a public factory of an integration module
returns (``env_reward_fn(make_env)``'s ``reward``), when nothing in the project calls the factory --
its caller is the user, who registers the result with a rubric -- and the callable is shaped as a
reward (:mod:`asynclint.knowledge.adapters`). Such a callable is an entry as a registered reward is
(part of the hot set's registrations, :mod:`asynclint.analysis.registrations`)."""

from __future__ import annotations

from asynclint.analysis.graph_records import FunctionId
from asynclint.analysis.graph_state import GraphState
from asynclint.knowledge.adapters import ENVIRONMENT_LOADERS, NOT_EXPORTED_PARTS, REWARD_ARGUMENTS, REWARD_FRAMEWORKS
from asynclint.knowledge.frameworks import REWARD, SYNC_REWARD, Hook, rescheduled


class Adapters(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def _exported_rewards(self, found: dict[FunctionId, Hook]) -> None:
        """Add to ``found`` each reward an exported factory of an integration module returns (see the
        module's docstring), as a reward is registered; :meth:`exported_by` names its factory."""
        candidates = [
            (position, function.name)
            for position, summary in enumerate(self.summaries)
            if self._integration(position)
            for function in summary.functions
            if function.kind == "function"
            and "." not in function.qualname
            and not function.name.startswith("_")
            and (function.name in summary.documented or not summary.documented)
        ]
        used: set[str] | None = None  # resolving every name the project calls is the cost: only when needed
        for position, name in candidates:
            factory = f"{self.summaries[position].module}.{name}"
            rewards = [
                key for key in self.functions_denoted(f"{factory}()") if key not in found and self._reward_shaped(key)
            ]
            if not rewards:
                continue
            used = self._used_names() if used is None else used
            if factory in used:
                continue  # the project calls it: its own calls say where the result goes
            for key in rewards:
                function = self.function(key)
                hook = rescheduled(SYNC_REWARD, self._versions) if not function.is_async else REWARD
                if hook not in self._offloaded:
                    found[key] = hook
                    self._exported_by[key] = name

    def _reward_shaped(self, key: FunctionId) -> bool:
        """Every parameter ``key`` names (``self``/``cls`` aside, at least one) is one a reward is handed."""
        named = [param for param in self.function(key).params if param not in ("self", "cls")]
        return bool(named) and REWARD_ARGUMENTS.issuperset(named)

    def exported_by(self, root: FunctionId) -> str:
        """The exported factory that returns ``root``, when that is what makes it an entry; ""."""
        return self._exported_by.get(root, "")

    def _integration(self, position: int) -> bool:
        """A project module, none of a test's or a script's nor an environment's, that imports a framework
        running rewards or whose docstrings show one of its factories' results registered as a reward."""
        summary = self.summaries[position]
        if summary.library is not None or self._in_test_file(position):
            return False
        if any(function.name in ENVIRONMENT_LOADERS and "." not in function.qualname for function in summary.functions):
            return False  # an environment, which registers its own rewards
        if not NOT_EXPORTED_PARTS.isdisjoint(summary.path.split("/")[:-1]):
            return False
        return bool(summary.documented) or any(name.partition(".")[0] in REWARD_FRAMEWORKS for name in summary.imported)

    def _used_names(self) -> set[str]:
        """The dotted names the project's own code (tests aside) calls or hands on as a value."""
        used: set[str] = set()
        for position, summary in enumerate(self.summaries):
            if summary.library is not None or self._in_test_file(position):
                continue
            targets = [site.target for site in summary.calls] + [ref.target for ref in summary.refs]
            used.update(self.canonical(self.resolve(target.removesuffix("()"))) for target in targets if target)
        return used
