"""Framework knowledge: which user code a framework runs on the loop, how often, and what it
requires of it. verifiers' classic ("v0", ``import verifiers as vf``) and v1
(``import verifiers.v1 as vf``) APIs, per ``shared/FIELD_GUIDE.md``.

Frequencies: ``rollout`` (once per rollout), ``turn`` (every model turn), ``tool`` (every tool
call), ``group`` (a sync reward run back to back for every rollout of a group), ``call`` (per
call of a parser or judge). Roots that run per turn, per tool call or per group raise the grade
of what they block on by one level.
"""

from __future__ import annotations

from dataclasses import dataclass

from asynclint.knowledge.asyncio_apis import LOOP_CALLBACK_METHODS

FREQUENT = frozenset({"turn", "tool", "group"})


@dataclass(frozen=True)
class Hook:
    kind: str  # how messages name the root, before its name: "per-turn hook"
    frequency: str
    must_be: str | None = None  # "async" or "sync" when the framework requires it
    note: str = ""  # said after the root's name: "(run back to back for a whole group)"


@dataclass(frozen=True)
class HookClass:
    """Methods that subclasses of the framework classes ``names`` (in package ``package``) have
    the framework call on the loop."""

    package: str
    names: frozenset[str]
    methods: dict[str, Hook]
    cold: frozenset[str] = frozenset({"__init__"})


def _hooks(frequency: str, names: str, what: str = "hook", must_be: str | None = None) -> dict[str, Hook]:
    label = {"rollout": "per-rollout", "turn": "per-turn", "tool": "per-tool-call", "group": "per-group",
             "call": "per-call"}[frequency]
    return {name: Hook(f"{label} {what}", frequency, must_be) for name in names.split()}


_V0_ENVS = frozenset(
    "Environment MultiTurnEnv SingleTurnEnv ToolEnv StatefulToolEnv SandboxEnv PythonEnv MCPEnv EnvGroup".split()
)

HOOK_CLASSES: tuple[HookClass, ...] = (
    HookClass(
        "verifiers",
        _V0_ENVS,
        {
            **_hooks("rollout", "setup_state rollout render_completion post_rollout get_sandbox_request"),
            **_hooks("turn", "env_response get_prompt_messages add_trajectory_step add_model_response "
                             "get_model_response is_completed"),
            **_hooks("tool", "call_tool"),
            "update_tool_args": Hook("per-tool-call hook", "tool", must_be="sync"),
        },
    ),
    HookClass(
        "verifiers",
        frozenset("Rubric JudgeRubric RubricGroup MathRubric ToolRubric".split()),
        {**_hooks("rollout", "score_rollout cleanup"), **_hooks("group", "score_group")},
    ),
    HookClass(
        "verifiers",
        frozenset("Parser XMLParser ThinkParser MaybeThinkParser".split()),
        _hooks("call", "parse parse_answer", "parser method"),
    ),
    HookClass(
        "verifiers.v1",
        frozenset({"Task"}),
        {
            **_hooks("rollout", "runtime_env toolsets key hash"),
            # v1 awaits whatever these return (verifiers/v1/rollout.py): a sync one is a TypeError.
            **_hooks("rollout", "setup finalize", must_be="async"),
        },
        cold=frozenset({"__init__", "load"}),
    ),
    # Awaited directly by the rollout and env loops (``await self.harness.setup(runtime)``).
    HookClass("verifiers.v1", frozenset({"Harness"}),
              _hooks("rollout", "setup launch resume session cleanup", must_be="async")),
    HookClass("verifiers.v1", frozenset({"Env"}), _hooks("rollout", "setup run finalize", must_be="async"),
              cold=frozenset({"__init__", "start", "stop"})),
    HookClass("verifiers.v1", frozenset({"Taskset"}), {}, cold=frozenset({"__init__", "load"})),
    HookClass("verifiers.v1", frozenset({"Judge"}), _hooks("call", "score parse build_messages", "judge method")),
)

#: Decorators that make a function a root (or keep it cold: ``None``).
DECORATORS: dict[str, Hook | None] = {
    "verifiers.stop": Hook("per-turn `@vf.stop` condition", "turn"),
    "verifiers.cleanup": Hook("per-rollout `@vf.cleanup` handler", "rollout"),
    "verifiers.teardown": None,
    "verifiers.v1.reward": Hook("per-rollout `@vf.reward` function", "rollout", must_be="async"),
    "verifiers.v1.metric": Hook("per-rollout `@vf.metric` function", "rollout", must_be="async"),
    "verifiers.v1.stop": Hook("per-turn `@vf.stop` condition", "turn"),
    "verifiers.v1.intercept": Hook("per-turn `@vf.intercept` hook", "turn"),
    "verifiers.v1.cleanup": Hook("per-rollout `@vf.cleanup` handler", "rollout"),
    "verifiers.v1.teardown": None,
}

#: Decorators that hand the function through unchanged (or call it and return its result as
#: is), so it may switch between ``def`` and ``async def`` under them: the framework's own hook
#: decorators and the builtins. Any other decorator (``functools.lru_cache``, a retry, a timer)
#: would wrap the coroutine function and keep, return or time coroutines instead of results.
TRANSPARENT_DECORATORS: frozenset[str] = frozenset(
    {
        *DECORATORS,
        "builtins.staticmethod",
        "builtins.classmethod",
        "abc.abstractmethod",
        "typing.final",
        "typing.override",
        "typing_extensions.override",
    }
)

#: Functions that never run per rollout, whatever else they look like.
COLD_FUNCTIONS: frozenset[str] = frozenset({"load_environment"})

REWARD = Hook("reward function", "rollout", note="run by the framework for every rollout")
SYNC_REWARD = Hook(
    "sync reward function", "group", note="run inline by the framework, back to back for every rollout of a group"
)
TOOL = Hook("tool", "tool", note="run by the framework on every tool call")
PARSER_FN = Hook("parser callable", "call", note="run on every parse")
# Rubric.score_objects runs every provider, sync and inline, before each reward function call;
# group providers get the states of a whole group at once.
SCORE_OBJECTS = Hook("score-object provider", "call", note="run inline before every reward function call")
GROUP_SCORE_OBJECTS = Hook(
    "group score-object provider", "group", note="run inline over the states of a whole group"
)
LOOP_CALLBACK = Hook("event-loop callback", "call", note="run on the loop by asyncio")


@dataclass(frozen=True)
class Registration:
    """A callable handed to the framework: found in ``slot`` (a keyword, or a positional index
    as a string) of a call to a subclass of ``owner`` (package + class names), or of any method
    named ``method``."""

    hook: Hook
    slot: str
    owner: HookClass | None = None
    method: str | None = None
    any_verifiers_call: bool = False
    callee: str | None = None  # a qualified function or class name (from configuration)


_RUBRICS, _ENVS = HOOK_CLASSES[1], HOOK_CLASSES[0]

REGISTRATIONS: tuple[Registration, ...] = (
    Registration(REWARD, "funcs", owner=_RUBRICS),
    Registration(REWARD, "0", owner=_RUBRICS),
    Registration(REWARD, "0", method="add_reward_func"),
    Registration(REWARD, "0", method="add_metric"),
    Registration(TOOL, "tools", owner=_ENVS),
    Registration(TOOL, "0", method="add_tool"),
    Registration(PARSER_FN, "extract_fn", any_verifiers_call=True),
    Registration(SCORE_OBJECTS, "0", method="add_score_object_provider"),
    Registration(GROUP_SCORE_OBJECTS, "0", method="add_group_score_object_provider"),
    *(Registration(LOOP_CALLBACK, str(slot), method=name) for name, slot in LOOP_CALLBACK_METHODS.items()),
)

#: A client handed to the framework, which then calls ``method`` on it per use.
CLIENT_HANDOFFS: dict[tuple[str, str], tuple[str, str]] = {
    ("JudgeRubric", "judge_client"): ("chat.completions.create", "judge client called by the framework on every judge call"),
}

HANDOFF_SLOTS: frozenset[str] = frozenset(slot for _, slot in CLIENT_HANDOFFS)


def framework_class(qualname: str) -> HookClass | None:
    """The hook table for an external base class name (``verifiers.envs.x.MultiTurnEnv``)."""
    package, _, name = qualname.rpartition(".")
    if not package.startswith("verifiers"):
        return None
    is_v1 = package == "verifiers.v1" or package.startswith("verifiers.v1.")
    for table in HOOK_CLASSES:
        if name in table.names and (table.package == "verifiers.v1") == is_v1:
            return table
    return None
