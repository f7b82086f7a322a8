"""Library adapters that build reward functions for their users: a public factory of an integration
module (``crucible.integrations.verifiers.env_reward_fn(make_env)``) whose result the user hands a
rubric. Nothing in the library calls the factory -- its caller is the user -- but the reward it
returns runs for every rollout in every user's environment, so that reward is an entry.

What makes a module an integration: it imports a framework that runs rewards (:data:`REWARD_FRAMEWORKS`,
anywhere in the module: korrel's exporter imports verifiers inside its functions), or its docstrings'
examples hand the factory's result to that framework's reward registration (crucible's adapter is
"zero-dependency" and only says ``vf.Rubric(funcs=[env_reward_fn(make_env)])`` in its docstring).
What makes the returned callable a reward: every parameter it names is one of the names the
framework hands rewards (:data:`REWARD_ARGUMENTS`)."""

from __future__ import annotations

from asynclint.knowledge.frameworks import GROUP_REWARD_PARAMETERS

#: Top-level packages whose rubrics call a project's reward functions per rollout.
REWARD_FRAMEWORKS: frozenset[str] = frozenset({"verifiers"})

#: What verifiers hands a reward, by keyword: ``Rubric.score_objects`` (pkg verifiers 0.3.1
#: legacy/rubrics/rubric.py:125-141: prompt, completion, answer, state, info, task, and the rubric's
#: ``class_objects``, ``parser`` among them), the row's id, and a group reward's lists
#: (``group_score_objects``). A callable taking only these (``**kwargs`` aside) is shaped as a reward.
REWARD_ARGUMENTS: frozenset[str] = (
    frozenset("prompt completion answer state info task parser example_id".split()) | GROUP_REWARD_PARAMETERS
)

#: What verifiers hands a reward already parsed, by keyword -> the builtin type it always is: the
#: row's ``info``, a JSON string in the dataset, is parsed into a dict once per rollout before any
#: reward runs (``init_state``, pkg verifiers 0.3.1 legacy/envs/environment.py:555), so a reward's
#: ``json.loads(info) if isinstance(info, str) else info`` never parses (split 36 oolong env.py:78).
PARSED_REWARD_ARGUMENTS: dict[str, str] = {"info": "dict"}
#: The names a test of a builtin type may give one (``isinstance(info, Mapping)``): the type's own,
#: and those of the abstract classes it derives from.
BUILTIN_KINDS: dict[str, frozenset[str]] = {
    "dict": frozenset({"dict", "Mapping", "MutableMapping", "abc.Mapping", "abc.MutableMapping", "typing.Mapping"}),
}

#: Calls that register rewards, as a docstring's example writes them after its own imports: the
#: framework's rubric classes by their public name, with the argument slots holding the rewards
#: (a keyword, or a position), and the methods that add one (their first argument).
REWARD_REGISTRARS: dict[str, tuple[str, ...]] = {
    "verifiers.Rubric": ("funcs", "0"),
    "verifiers.JudgeRubric": ("funcs", "0"),
    "verifiers.RubricGroup": ("funcs",),
}
REWARD_ADDERS: frozenset[str] = frozenset({"add_reward_func", "add_metric"})

#: Functions the framework loads an environment module by: a module defining one is an environment,
#: which registers its rewards itself; a factory of its own that nothing calls is unused, not exported.
ENVIRONMENT_LOADERS: frozenset[str] = frozenset({"load_environment"})

#: Path parts of a project's own drivers and checks: a factory there is no library's export.
NOT_EXPORTED_PARTS: frozenset[str] = frozenset({"tests", "test", "scripts"})


def exported_note(factory: str) -> str:
    """What a finding says of an entry an exported factory returns (``Facts.root_note``); "" for none."""
    return f"returned by the exported factory `{factory}`: a reward users register with a rubric" if factory else ""
