"""Framework knowledge: which user code a framework runs on the loop, how often, and what it
requires of it. verifiers' classic ("v0", ``import verifiers as vf``) and v1
(``import verifiers.v1 as vf``) APIs, per ``shared/FIELD_GUIDE.md``.

Frequencies: ``rollout`` (once per rollout), ``turn`` (every model turn), ``tool`` (every tool
call), ``group`` (a sync reward run back to back for every rollout of a group, or what a group
reward or a rubric's ``score_group`` runs in its loop over the group), ``group-call`` (such a group
call itself: once per group),
``call`` (per call of a parser or judge). Roots that run per turn, per tool call or per group raise the grade
of what they block on by one level.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from asynclint.knowledge.asyncio_apis import LOOP_CALLBACK_METHODS, SERVER_CALLBACKS, SERVER_FACTORY_METHODS
from asynclint.knowledge.versions import coverage, release

FREQUENT = frozenset({"turn", "tool", "group"})
#: Of two chains reaching one place equally often (both raised, neither rare), the one whose
#: frequency ranks higher names how it runs: a group's rollouts back to back cost the group's size
#: times what one turn's call costs (ASL116 counts it so), and both are raised a level. Unlisted: 0.
#: A memoized search's loop (``search``) runs its calls per state and branch, back to back: thousands
#: of times in one step, above a group's size.
FREQUENCY_RANK: dict[str, int] = {"turn": 1, "tool": 1, "group": 2, "search": 3}
SEARCH_RANK = FREQUENCY_RANK["search"]
#: Per root frequency, the name tokens (a name's, an attribute's or a string key's last) of the items
#: of the one reply such a root answers, which it goes through one by one: a per-turn hook's loop over
#: the reply's ``tool_calls`` runs once per tool call, the frequency its turn already raised the calls
#: inside to (ASL120 does not raise the loop on top; one nested in another loop goes over more).
ONE_REPLY_ITEMS: dict[str, frozenset[str]] = {"turn": frozenset({"tool_calls"})}


@dataclass(frozen=True)
class Hook:
    kind: str  # how messages name the root, before its name: "per-turn hook"
    frequency: str
    must_be: str | None = None  # "async" or "sync" when the framework requires it
    note: str = ""  # said after the root's name: "(run back to back for a whole group)"
    #: Where it runs (``Facts.context``): the rollouts' own loop, or a server's loop they share.
    context: str = "env loop"
    #: What the framework hands the hook's parameters, where its own calls say: (slot, word) pairs, the
    #: slot a parameter's position after ``self`` (``"0"``) or ``"*"`` for every parameter, the word the
    #: framework's name for the value, sized as that name is (:func:`handed_by_framework`).
    handed: tuple[tuple[str, str], ...] = ()
    #: Parameters the framework hands the example's row under a name of its own (a verifiers v1
    #: handler's ``task``): a cache keyed by one misses once per example (:data:`EXAMPLE_FREQUENCY`).
    row_params: frozenset[str] = frozenset()


def handed_by_framework(hook: Hook, position: int) -> str | None:
    """The framework's word for what it hands ``hook``'s parameter at ``position`` (after ``self``),
    ``None`` when the table does not say (the parameter's own name is then the evidence)."""
    slots = dict(hook.handed)
    return slots.get(str(position), slots.get("*"))


@dataclass(frozen=True)
class InProcess:
    """The releases of a class's distribution from ``since`` up to (not including) ``until`` run its
    instances in the rollouts' process, a plain class whose registrations run there; from ``until``
    on it is served in a process of its own (``HookClass.own_process``). Which one a project's code
    is, only the releases it admits tell (:func:`served_apart`)."""

    since: str
    until: str
    how: str  # what the releases from ``until`` on do, in words


@dataclass(frozen=True)
class HookClass:
    """Methods that subclasses of the framework classes ``names`` (in package ``package``) have
    the framework call on the loop."""

    package: str
    names: frozenset[str]
    methods: dict[str, Hook]
    cold: frozenset[str] = frozenset({"__init__"})
    #: The cold methods the framework runs in the rollouts' own process before the first rollout
    #: (besides :data:`START_UP`'s names): a cache or lazy index they fill is ready for every rollout.
    start_up: frozenset[str] = frozenset()
    #: Its instances run in a process of their own (a tool server): its methods, and what they
    #: register as tools, run there, not on the rollout loop -- only ``methods`` are hooks of it
    #: (a helper they share with the rollout loop is hot there, reached from its hot callers).
    own_process: bool = False
    #: The releases that ran its instances in the rollouts' process instead, as a plain class.
    in_process: InProcess | None = None
    #: The decorator whose hook a coroutine made inside one of its methods gets when no project code
    #: runs it (``None``: cold): its server runs it as it runs a method so decorated.
    closures: str | None = None
    #: The framework's own coroutine methods that are no hooks but its machinery: what they run of
    #: the project's is its overrides of the hooks (roots: reached anyway), the rest is the
    #: framework's own work, off the loop from a release on (method -> that release). Deep mode
    #: does not follow the framework's definition of one from that release on (:meth:`runs_safely`);
    #: an earlier release's, a sync one, and any framework method not listed it follows.
    machinery: Mapping[str, str] = field(default_factory=dict)

    def runs_safely(self, method: str, library: str) -> bool:
        """``method`` is machinery of this family in the installed ``library`` (``verifiers 0.3.1``)."""
        since = self.machinery.get(method)
        installed, first = release(library.rpartition(" ")[2]), release(since or "")
        return installed is not None and first is not None and installed >= first


def _hooks(frequency: str, names: str, what: str = "hook", must_be: str | None = None) -> dict[str, Hook]:
    label = {
        "rollout": "per-rollout",
        "turn": "per-turn",
        "tool": "per-tool-call",
        "group": "per-group",
        "call": "per-call",
    }[frequency]
    return {name: Hook(f"{label} {what}", frequency, must_be) for name in names.split()}


#: A rubric's methods the framework calls once per group, handed the group's states: ``score_group``
#: (``Environment.run_group`` awaits ``self.rubric.score_group(group_states)`` once the group's
#: rollouts are gathered, when ``score_rollouts`` is on, its default; ``RubricGroup.score_group``
#: awaits each rubric's once; pkg verifiers 0.1.11 and 0.1.14 envs/environment.py, 0.3.1
#: legacy/envs/environment.py ``_run_group_states``; 0.4.0 has no such rubric), and
#: ``group_score_objects`` (called by ``Rubric._call_group_reward_func`` for each group reward).
PER_GROUP_HOOK = Hook("per-group hook", "group")


# The framework classes of verifiers 0.3.1, by family, and the methods their own code calls on
# ``self`` per rollout (``tests/data/make_verifiers_classes.py`` reads them off the installed
# source; ``tests/test_framework_tables.py`` checks these tables against its output). A user's
# subclass overriding one of those methods has it run where the framework calls it.
_V0_ENVS = frozenset(
    "Environment MultiTurnEnv SingleTurnEnv ToolEnv StatefulToolEnv SandboxEnv PythonEnv MCPEnv EnvGroup "
    "CliAgentEnv HarborEnv ComposableEnv OpenCodeEnv OpenCodeQAEnv OpenCodeRLMEnv SWEDebugEnv SandboxDebugEnv "
    "GymEnv BrowserEnv ReasoningGymEnv TextArenaEnv OpenEnvEnv".split()
)
_V0_RUBRICS = frozenset(
    "Rubric JudgeRubric RubricGroup MathRubric ToolRubric HybridMathRubric RemoteHybridMathRubric EnvGroupRubric "
    "CPRubric HarborRubric HarborDatasetRubric MultiSWERubric OpenSWERubric R2ERubric SWEBenchRubric SWELegoRubric "
    "SWERebenchV2Rubric SWESmithRubric ScaleSWERubric SWEDebugRubric SandboxDebugRubric HarnessMetricsRubricGroup "
    "CliAgentMonitorRubric MultiTurnMonitorRubric OpenCodeMonitorRubric OpenCodeRLMMonitorRubric PythonMonitorRubric "
    "SandboxMonitorRubric ToolMonitorRubric EpisodicSumRubric OpenEnvEpisodicSumRubric".split()
)
_V0_PARSERS = frozenset("Parser XMLParser ThinkParser MaybeThinkParser".split())

HOOK_CLASSES: tuple[HookClass, ...] = (
    HookClass(
        "verifiers",
        _V0_ENVS,
        {
            **_hooks(
                "rollout",
                "setup_state rollout render_completion post_rollout get_sandbox_request init_state "
                "cleanup run_rollout run_group mark_timed_out get_env_for_name build_env_vars "
                "get_docker_image get_sandbox_resources get_tunnel_url start_agent "
                "wait_for_completion",
            ),
            **_hooks(
                "turn",
                "get_prompt_messages add_trajectory_step add_model_response "
                "get_model_response increment_state_usage_from_response obs_to_text "
                "wrap_response normalize_response normalize_intercepted_messages "
                "normalize_intercepted_tools check_agent_completed poll_job_completion",
            ),
            # What the framework hands the hooks below: the rollout's messages so far and its state
            # (``env_response(messages, state)``; ``is_completed(messages, state)`` up to 0.1.x, then
            # ``is_completed(state)``: either is the whole, growing rollout), one tool call's name,
            # arguments and id (``ToolEnv.call_tool(tool_name, tool_args, tool_call_id)``; the XML tool
            # envs' ``call_tool(tool_json)``: one tool call parsed from the last reply). Source: pkg
            # verifiers 0.3.1 legacy/envs/multiturn_env.py:60, environment.py:660, tool_env.py:134.
            "env_response": Hook("per-turn hook", "turn", handed=(("0", "messages"), ("1", "state"))),
            "is_completed": Hook("per-turn hook", "turn", handed=(("*", "state"),)),
            "call_tool": Hook("per-tool-call hook", "tool", handed=(("*", "tool_call"),)),
            # No table for ``update_tool_args``: its positions moved between releases (0.1.x forks'
            # ``(tool_args, messages, state)``, 0.3.1's ``(tool_name, tool_args, messages, state)``).
            "update_tool_args": Hook("per-tool-call hook", "tool", must_be="sync"),
        },
        # ``a_generate`` (0.1.3: ``run_rollouts`` gathers ``rollout``, then ``rubric.score_rollouts``)
        # and ``generate`` (0.1.14, 0.3.1 legacy/envs/environment.py:823: ``run_group`` /
        # ``run_rollout`` tasks, every save ``asyncio.to_thread``-ed; a resume's load and a hub push
        # only when asked) run the hooks and nothing else of the project's. Not before 0.1.14:
        # 0.1.8's ``generate`` writes the results on the loop (``save_rollout_results``), 0.1.3's is
        # sync. Not ``evaluate``: it builds the eval inputs on the loop first (``get_eval_dataset``,
        # a lazily built dataset's source, shuffled and repeated whole), nor the ``*_sync`` methods.
        machinery={"a_generate": "0.1.3", "run_rollouts": "0.1.3", "generate": "0.1.14"},
    ),
    HookClass(
        "verifiers",
        _V0_RUBRICS,
        {
            **_hooks("rollout", "score_rollout cleanup cleanup_objects"),
            **dict.fromkeys(("score_group", "group_score_objects"), PER_GROUP_HOOK),
            **_hooks("call", "score_objects task_for_state task_score_fields", "rubric method"),
        },
        # 0.1.3 rubrics/rubric.py:175: gathers ``score_rollout`` for each rollout.
        machinery={"score_rollouts": "0.1.3"},
    ),
    HookClass("verifiers", _V0_PARSERS, _hooks("call", "parse parse_answer get_assistant_messages", "parser method")),
    HookClass(
        "verifiers.v1",
        frozenset("Task HarborTask JudgeTask LeanTask NeMoGymTask OpenEnvTask TextArenaTask".split()),
        {
            **_hooks("rollout", "runtime_env toolsets key hash"),
            # v1 awaits whatever these return (verifiers/v1/rollout.py): a sync one is a TypeError.
            **_hooks("rollout", "setup finalize", must_be="async"),
        },
        # ``validate`` checks a task's ground truth for the validate CLI, never in a rollout.
        cold=frozenset({"__init__", "load", "validate"}),
    ),
    # Awaited directly by the rollout and env loops (``await self.harness.setup(runtime)``).
    HookClass(
        "verifiers.v1",
        frozenset(
            "Harness ACPHarness BashHarness BrowserUseHarness ClaudeCodeHarness CodexHarness HermesAgentHarness "
            "KimiCodeHarness MiniSWEAgentHarness NullHarness OpenClawHarness PiHarness PoolHarness RLMHarness "
            "Terminus2Harness".split()
        ),
        {
            **_hooks("rollout", "setup launch resume session cleanup", must_be="async"),
            **_hooks(
                "rollout",
                "install_skills prepare_acp build_env resolve_prompt resolve_text_prompt config_dir "
                "trace_home summarize_threshold",
            ),
        },
    ),
    # ``Env.serving`` awaits ``self.start()`` before any slot runs (pkg verifiers a60a606ec v1/env.py).
    HookClass(
        "verifiers.v1",
        frozenset(
            "Env AgenticJudgeEnv BestOfNEnv HarborEnv IsolatedAgenticJudgeEnv NeMoGymEnv OpenEnvEnv "
            "SharedAgenticJudgeEnv SingleAgentEnv TextArenaEnv UserSimEnv".split()
        ),
        _hooks("rollout", "setup run finalize", must_be="async"),
        cold=frozenset({"__init__", "start", "stop"}),
        start_up=frozenset({"start"}),
        # ``run_episode`` awaits ``setup``, ``run`` and ``finalize``; ``run_slot`` retries it
        # (pkg verifiers 0.3.1 and 0.4.0 v1/env.py).
        machinery={"run_episode": "0.3.1", "run_slot": "0.3.1"},
    ),
    # ``load`` makes the tasks the run plans before its first rollout (``run_eval``: ``tasks =
    # list(selected)``, pkg verifiers a60a606ec v1/cli/eval/runner.py), so it is cold. It is no
    # start-up that warms the rollouts' caches: a served env worker never ``load()``s, it rebuilds
    # each task from its wire data (``_build_task``, pkg verifiers 0.3.1
    # v1/serve/server.py), so a memoized loader ``load`` also calls runs on a worker's first scoring.
    HookClass(
        "verifiers.v1",
        frozenset("Taskset HarborTaskset LeanTaskset NeMoGymTaskset OpenEnvTaskset TextArenaTaskset".split()),
        {},
        cold=frozenset({"__init__", "load", "validate"}),
    ),
    HookClass(
        "verifiers.v1",
        # DecisionJudge: pkg verifiers 0.4.0 v1/judges/decision.py:39 (the listing is 0.3.1's)
        frozenset("Judge ReferenceJudge RubricJudge DecisionJudge".split()),
        _hooks("call", "score parse build_messages complete evaluate grade_batch", "judge method"),
    ),
    # A toolset is served by a tool server of its own (verifiers/v1/mcp): ``setup`` and
    # ``setup_task`` run there before it serves, ``register`` hands its tools to that server.
    # None of it runs on the rollout loop; its ``@vf.tool`` methods see SHARED_CONTEXTS. So does a
    # coroutine one of its methods makes for the server: ``register`` hands each tool to FastMCP
    # wrapped by ``self._with_state(fn)``, whose ``async def wrapper`` runs per tool call (an
    # override's closure too), and a closure ``register`` hands ``mcp.add_tool`` is a tool (source:
    # pkg verifiers 0.3.1 verifiers/v1/mcp/toolset.py:27-35, mcp/server.py:227-250).
    # verifiers 0.1.14's ``Toolset`` (the first release with ``verifiers.v1``: 0.1.12 has none, PyPI
    # has no 0.1.13) is a frozen dataclass the rollout's ``Runtime`` reads in process: a project
    # subclass calling ``super().__init__(objects=..., write=True)`` registers what runs on the
    # loop (source: pkg verifiers 0.1.14 verifiers/v1/toolset.py:19-145; 0.2.0 verifiers/v1/mcp/
    # toolset.py:27 ``class Toolset(ServerBase[ConfigT, StateT])``).
    HookClass(
        "verifiers.v1",
        frozenset("Toolset NeMoGymToolset HarborMCPToolset".split()),
        {},
        cold=frozenset({"__init__", "setup", "setup_task", "register", "run", "teardown"}),
        own_process=True,
        in_process=InProcess("0.1.14", "0.2.0", "a `Toolset` is a tool server in a process of its own"),
        closures="verifiers.v1.tool",
    ),
    # A user simulator (``vf.User[UserConfig, State]``) is a tool server like a toolset
    # (verifiers/v1/mcp/user.py at 653bb14, between 0.3.1 and 0.4.0: ``User(ServerBase)``, and
    # ``UserConfig.runtime`` defaults to ``SubprocessConfig()``; ``colocated`` moves it into the
    # harness's runtime, still not the rollout's process): ``respond`` is served there, per turn.
    # verifiers 0.1.14's ``User`` is a dataclass wrapping a callable, never subclassed, and 0.4.0
    # has none (user simulation moved to ``Agent.chat``).
    HookClass(
        "verifiers.v1",
        frozenset({"User"}),
        {},
        cold=frozenset({"__init__", "setup", "setup_task", "respond", "run", "teardown"}),
        own_process=True,
    ),
)

# verifiers' experimental RLM environment (``verifiers.envs.experimental.rlm_env.RLMEnv``, from
# 0.1.11 through 0.1.14; 0.2.0 removed it for the v1 ``RLMHarness``, so the listing of 0.3.1 the
# test reads has no such class). A ``StatefulToolEnv``: its subclasses get every hook of that
# family, and its executor calls ``get_sandbox_request`` and ``customize_worker_script`` (sync)
# and awaits ``on_sandbox_ready`` once per rollout while it starts the rollout's sandbox worker
# (source: pkg verifiers 0.1.14 verifiers/envs/experimental/rlm_env.py, ``RLMExecutor``).
RLM_ENV = HookClass(
    "verifiers",
    frozenset({"RLMEnv"}),
    {
        **HOOK_CLASSES[0].methods,
        **_hooks("rollout", "get_sandbox_request customize_worker_script on_sandbox_ready"),
    },
)

#: Framework classes that earlier releases define and the release the listing is read from no
#: longer has: a project pinned to such a release subclasses them all the same.
RETIRED_CLASSES: tuple[HookClass, ...] = (RLM_ENV,)

#: Words in a base class's name that mark a framework role (an environment, a rubric, a tool, a task, a
#: parser): what such a class's constructor is handed is its few tools or reward functions, never a
#: corpus it indexes item by item (index.nestshapes.built_collections).
FRAMEWORK_ROLE_WORDS: tuple[str, ...] = ("Env", "Rubric", "Tool", "Task", "Parser")
#: The frameworks' top-level packages. A project directory of such a name below its import root
#: (an adapter package ``integrations/verifiers/``) is not what a bare ``import verifiers`` means
#: from beside it: the file imports the framework it adapts to (files._siblings_table).
FRAMEWORK_PACKAGES: frozenset[str] = frozenset(
    hook_class.package.partition(".")[0] for hook_class in (*HOOK_CLASSES, *RETIRED_CLASSES)
)

#: Where verifiers defines a public name -> where users import it from: ``verifiers.X`` is an
#: alias of ``verifiers.legacy.X`` (the v0 stack, reached through an import hook and a module
#: ``__getattr__``), and the decorators are re-exported by the package of each stack. Names are
#: compared after rewriting the longest matching module prefix.
REEXPORTS: dict[str, str] = {
    "verifiers.legacy.decorators": "verifiers",
    "verifiers.decorators": "verifiers",
    "verifiers.legacy": "verifiers",
    "verifiers.v1.utils.decorators": "verifiers.v1",
}
#: The v1 classes verifiers 0.1.14's top-level package hands out by name (its module
#: ``__getattr__`` imports them from ``verifiers.v1``), so ``import verifiers as vf`` then
#: ``vf.Toolset(tools=[...])`` builds v1's Toolset (source: pkg verifiers 0.1.14
#: verifiers/__init__.py ``_LAZY_IMPORTS``; 0.1.12 has no v1, 0.2.0+ exports none of these names
#: at the top level, so the name alone tells the API apart).
V1_TOP_LEVEL: frozenset[str] = frozenset(
    "Env EnvConfig Task Taskset TasksetConfig Harness HarnessConfig MCPTool MCPToolConfig SandboxConfig "
    "Toolset ToolsetConfig User UserConfig HarborTaskset HarborTasksetConfig CLIHarness MiniSWEAgent "
    "OpenCode Pi RLM".split()
)


def public_name(qualname: str) -> str:
    """``verifiers.legacy.decorators.stop`` -> ``verifiers.stop``, ``verifiers.Toolset`` ->
    ``verifiers.v1.Toolset``: the name the tables use."""
    package, _, rest = qualname.partition(".")
    if package == "verifiers" and rest.partition(".")[0] in V1_TOP_LEVEL:
        return f"verifiers.v1.{rest}"
    module = qualname
    while module:
        module = module.rpartition(".")[0]
        public = REEXPORTS.get(module)
        if public is not None:
            return public + qualname[len(module) :]
    return qualname


#: Decorators that make a function a root (or keep it cold: ``None``), by public name.
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
    # A v1 tool runs in the tool server of the rollout or taskset: its own process and loop.
    "verifiers.v1.tool": None,
}

#: Hooks a decorator gets in a class whose generic base names a configuration: a v1 ``@vf.tool``
#: runs in its toolset's own server process (cold for the rollout loop, see DECORATORS), but a
#: toolset configured as shared (``Toolset[SharedToolsetConfig]``) serves every rollout of a
#: worker from one server, whose loop then runs each sync tool body inline.
SHARED_TOOL = Hook(
    "tool of a shared toolset",
    "tool",
    context="shared tool server",
    note="run inline on the tool server that every rollout of a worker shares",
)
SHARED_CONTEXTS: dict[str, dict[str, Hook]] = {
    "verifiers.v1.SharedToolsetConfig": {"verifiers.v1.tool": SHARED_TOOL},
}
#: A sync callable a shared toolset hands its server's own tool methods (SERVER_TOOL_METHODS,
#: SERVER_TOOL_DECORATORS), not wrapped in an async one: FastMCP, which verifiers 0.2.0 to 0.3.x
#: serve with (mcp<2), calls a sync tool inline on the server's loop (mcp 1.30.0
#: server/fastmcp/utilities/func_metadata.py:112-115); mcp 2's ``MCPServer``, which 0.4.0 serves with
#: (it requires mcp==2.0.0), calls it in a worker thread (mcp 2.0.0
#: server/mcpserver/utilities/func_metadata.py:105-108, ``anyio.to_thread.run_sync``): OFFLOADED_HOOKS.
SHARED_SERVER_TOOL = Hook(
    "sync tool a shared toolset hands its server",
    "tool",
    context="shared tool server",
    note="run inline on the tool server that every rollout of a worker shares",
)
#: The hook a served class's tool hook becomes for a sync callable handed to the server's own methods.
SERVER_DISPATCHED: dict[Hook, Hook] = {SHARED_TOOL: SHARED_SERVER_TOOL}
#: The framework's model of a rollout's state -> the container fields it declares itself. A project
#: subclasses it to declare what its rollouts keep, and names the subclass in the generic arguments of
#: the classes that hold one (``vf.Task[Data, R6State, Config]``, ``vf.Toolset[Config, R6State]``:
#: ``trace.state`` and the tool server's ``self.state`` are instances of it): in their code, ``state``
#: is as large as the subclass's fields say, not the whole rollout a v0 ``state`` dict is (the
#: trajectory is the trace's). verifiers' ``State`` holds ``artifacts: dict[str, bytes | None]``, the
#: files a task collects (``vf.collect``; empty unless it does) (source: pkg verifiers 0.3.1
#: verifiers/v1/state.py:9-15, task.py:137, mcp/server.py:134-154, trace.py:375-410; the same at a60a606ec).
STATE_MODELS: dict[str, tuple[str, ...]] = {
    "verifiers.v1.State": ("artifacts",),
    "verifiers.v1.state.State": ("artifacts",),
}
#: Methods that hand a callable to a tool server, which runs it in its own process: a
#: registration through a receiver of these packages is not a verifiers v0 ``add_tool``.
TOOL_SERVER_PACKAGES: tuple[str, ...] = ("mcp.", "fastmcp.", "verifiers.v1.")
#: How code of a class served in a process of its own (``HookClass.own_process``) hands the server
#: serving it a callable to run as a tool, which it then runs as its class's ``closures`` decorator
#: says (per tool call on a shared server's loop, cold for a per-rollout one): a method of the server
#: its ``register(mcp)`` is handed (FastMCP's ``add_tool(fn)``; verifiers 0.4.0 hands mcp 2's
#: ``MCPServer``, which has the same method), or of the class itself (``self._with_state(fn)``, whose
#: ``async def wrapper`` calls ``fn`` inline per tool call) -> the slots taking the callable; and the
#: server's decorators (``@mcp.tool()``). Source: pkg verifiers 0.3.1 v1/mcp/toolset.py:27-35 and
#: mcp/server.py (``_with_state``, ``_serve``: ``self.register(mcp)`` on a ``FastMCP``), the same in
#: 0.4.0; mcp 1.30.0 server/fastmcp/server.py:413 ``add_tool``, :462 ``tool``.
SERVER_TOOL_METHODS: dict[str, tuple[str, ...]] = {"add_tool": ("0", "fn")}
SERVED_WRAPPERS: dict[str, tuple[str, ...]] = {"_with_state": ("0", "fn")}
SERVER_TOOL_DECORATORS: frozenset[str] = frozenset({"tool"})

#: Test code runs under a test runner, not on a rollout's loop: pytest's default collection
#: (``python_files``, ``python_functions``, ``python_classes``) and its fixtures are cold. A
#: framework hook a test defines or calls is still hot by itself.
TEST_FILES: tuple[str, ...] = ("test_*.py", "*_test.py", "conftest.py")
TEST_FUNCTIONS: tuple[str, ...] = ("test*",)
TEST_CLASSES: tuple[str, ...] = ("Test*",)
TEST_DECORATORS: frozenset[str] = frozenset({"pytest.fixture", "pytest_asyncio.fixture"})

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

#: Names the rollout's state goes by in hooks (``env_response(messages, state)``): a key of it set
#: behind a test of that key is set on a rollout's first turn.
ROLLOUT_STATE_NAMES: frozenset[str] = frozenset({"state"})
#: Keys of the rollout's state the framework fills itself (verifiers' ``State``): what the project
#: stores there is not all that is there, so a payload read from one is sized by its key, never by
#: the project's writes (see ModuleSummary.state_fields).
FRAMEWORK_STATE_KEYS: frozenset[str] = frozenset(
    "prompt completion answer task info example_id id reward rewards advantage metrics timing responses turn "
    "trajectory trajectory_id tool_defs oai_tools is_completed is_truncated stop_condition final_env_response "
    "error messages sampling_args model client".split()
)
#: Keys of the rollout's state (and names of what verifiers hands a reward) whose values are the
#: example's: its row (``prompt``, ``answer``, ``info`` and the fields under it, the example's id),
#: the same for every rollout of its group. A cache keyed by one misses on the first rollout of each
#: example: once per group, every group, with new examples every training step -- graded like the
#: same call per rollout, and said so (frequency ``example``). Not here: ``task`` (the environment's id
#: or a dataset's task column, 0.1.10 ``envs/environment.py``:334-338, 749-750: a few values a run; a
#: v1 hook's ``task`` is the row: :data:`V1_ROW_PARAMETERS`), the model, the client, the sampling
#: arguments, and the keys a project stores itself (a split's name, a setting copied in): those may
#: take a few values a run, and a cache keyed by one stays first-call only.
EXAMPLE_VALUED_KEYS: frozenset[str] = frozenset("prompt answer info example_id".split())
#: Keys of the rollout's state whose values are the rollout's own, never another rollout's: what it
#: made (its completion, messages, trajectory) and its id. A cache keyed by one never hits across
#: rollouts: what it guards runs once per rollout.
ROLLOUT_OWN_KEYS: frozenset[str] = frozenset("completion id trajectory trajectory_id messages responses".split())
ROLLOUT_VALUED_KEYS: frozenset[str] = EXAMPLE_VALUED_KEYS | ROLLOUT_OWN_KEYS
#: How often a cache keyed by a value of the rollout's misses (``Facts.frequency``): once per example
#: (keyed by the example's row) or once per rollout (keyed by what the rollout made or its id).
EXAMPLE_FREQUENCY = "example"
ROLLOUT_FREQUENCY = "rollout"


#: Functions (by their last name) that mint a value no other call gets: a cache keyed by one never
#: hits, and what it guards runs on every call (``rid = uuid.uuid4().hex`` then ``if rid not in
#: _DIRS:``): the standard library's ``uuid.uuid1``/``uuid4``, ``secrets.token_*``, ``os.urandom``.
MINTING_FUNCTIONS: frozenset[str] = frozenset(
    {"uuid1", "uuid4", "token_hex", "token_urlsafe", "token_bytes", "urandom"}
)


def widest_frequency(kinds: Iterable[str]) -> str:
    """The most frequent of what several values of a key say (:func:`keyed_frequency`): one value the
    rollout's own makes the key the rollout's own; else one of the example's makes it the example's."""
    found = set(kinds)
    return ROLLOUT_FREQUENCY if ROLLOUT_FREQUENCY in found else EXAMPLE_FREQUENCY if EXAMPLE_FREQUENCY in found else ""


def cached_frequency(frequency: str, kind: str) -> str:
    """How often code behind a cache keyed by a value of the rollout's runs (``kind``: how often the key
    misses, :func:`keyed_frequency`; also an instance's guard on an instance built per rollout), on a
    chain whose root runs at ``frequency``: once per example or per rollout, however often it is asked."""
    if kind == EXAMPLE_FREQUENCY and (frequency in FREQUENT or frequency == ROLLOUT_FREQUENCY):
        return EXAMPLE_FREQUENCY
    return ROLLOUT_FREQUENCY if kind == ROLLOUT_FREQUENCY and frequency in FREQUENT else frequency


def keyed_frequency(key: str) -> str:
    """How often a cache keyed by the rollout state's ``key`` misses: :data:`EXAMPLE_FREQUENCY`,
    :data:`ROLLOUT_FREQUENCY`, or "" (not a value of the rollout's)."""
    return EXAMPLE_FREQUENCY if key in EXAMPLE_VALUED_KEYS else ROLLOUT_FREQUENCY if key in ROLLOUT_OWN_KEYS else ""


#: Mappings whose keys are the framework's own values under their names: the rollout's state, and
#: the keyword arguments verifiers hands a reward (``kwargs["completion"]`` is the completion). A key
#: read out of any other mapping (``_scenario["gmail_messages"]`` of a tool's injected argument, a
#: generator's record) is a field of that mapping, not the rollout's history because of its key.
FRAMEWORK_MAPPINGS: frozenset[str] = ROLLOUT_STATE_NAMES | {"kwargs"}

#: Keys of the rollout's state that say it has ended (``state["terminated"]``, verifiers'
#: ``state.get("is_completed")``), and the framework's methods that answer the same
#: (``await self.is_completed(state)``): code run only when one holds runs on a rollout's last
#: turn, once per rollout, however often the hook around it runs. A branch that sets one to ``True``
#: ends the rollout (its stop check reads the key), so it too runs once per rollout. The keys an
#: environment's own stop checks answer from (``return state.get("task_done", False)``) are read
#: from its code, per class (:mod:`asynclint.analysis.index.stopkeys`), not listed here.
TERMINAL_STATE_KEYS: frozenset[str] = frozenset(
    {"terminated", "truncated", "done", "is_completed", "completed", "is_truncated", "game_over"}
)
TERMINAL_METHODS: frozenset[str] = frozenset({"is_completed", "is_done"})
#: Decorators (by public name) that make a function a stop condition: like a terminal method, a
#: branch of it that answers ``True`` ends the rollout, so what runs there runs once per rollout.
STOP_DECORATORS: frozenset[str] = frozenset({"verifiers.stop", "verifiers.v1.stop"})

#: Keys of a dict a tool or hook returns to report a failure as its result (``return {"error":
#: str(e)}``, the shape verifiers' tools and MCP servers hand back): an ``except`` handler that
#: ends by returning one has failed the call, and runs once per failing call.
FAILURE_RESULT_KEYS: frozenset[str] = frozenset({"error"})

#: Methods a framework class calls only after something failed, by (the framework's top-level
#: package, the class's name, the method) -- the class by its last name, since a package may define
#: it in one module and export it from another: an override runs once per failure, not per
#: rollout (verifiers' experimental ``RLMEnv`` calls ``_recover_from_code_timeout`` when a sandboxed
#: code execution timed out, verifiers/envs/experimental/rlm_env.py). Like an error path, such code
#: is low, however costly.
RECOVERY_FREQUENCY = "recovery"
#: How often a root runs that the framework calls once per process, when first needed (and caches
#: what it returns): it stalls the rollouts in flight once, like a first call.
ONCE_FREQUENCY = "once"
#: Root frequencies at which any cost is low: once per failure, or once per process.
RARE_ROOT_FREQUENCIES: frozenset[str] = frozenset({RECOVERY_FREQUENCY, ONCE_FREQUENCY})
RECOVERY_HOOKS: dict[tuple[str, str, str], Hook] = {
    ("verifiers", "RLMEnv", "_recover_from_code_timeout"): Hook(
        "recovery hook", RECOVERY_FREQUENCY, note="run by verifiers' `RLMEnv` after a code execution timed out"
    ),
}

#: Keys of the rollout's state holding its dataset row -> the row's column each holds ("": the
#: whole row). verifiers copies the row into ``state["input"]`` and its ``info`` column into
#: ``state["info"]`` (``init_state``). A test of a key of either is settled when every row the
#: project builds carries the key (see :mod:`asynclint.analysis.rows`).
ROW_STATE_KEYS: dict[str, str] = {"input": "", "info": "info"}
#: Dataset builds from a list of rows the project makes (the rows whose keys are read).
DATASET_FROM_ROWS: frozenset[str] = frozenset(
    {"datasets.Dataset.from_list", "datasets.arrow_dataset.Dataset.from_list"}
)
#: Keywords an environment is handed its datasets by.
DATASET_KEYWORDS: frozenset[str] = frozenset({"dataset", "eval_dataset"})
#: Datasets whose rows the tool cannot see (a hub download, a file, a frame): where one is handed
#: to an environment (by :data:`DATASET_KEYWORDS`), no key is known to be on every row.
OPAQUE_DATASETS: frozenset[str] = frozenset(
    f"datasets.{name}"
    for name in (
        "load_dataset",
        "load_from_disk",
        "Dataset.load_from_disk",
        "Dataset.from_dict",
        "Dataset.from_pandas",
        "Dataset.from_json",
        "Dataset.from_csv",
        "Dataset.from_parquet",
        "Dataset.from_generator",
    )
)

#: Functions that never run per rollout, whatever else they look like.
COLD_FUNCTIONS: frozenset[str] = frozenset({"load_environment"})
#: Library methods that are drivers: the library's top-level entry point, which a user's script calls and
#: the library itself never does (by qualified name -> the source that shows it). An override of one that
#: no project code calls runs nowhere on the rollout loop, however it is defined; one the project calls is
#: hot where it is called. mcpuniverse's ``BenchmarkRunner.run`` runs every task of a benchmark config and
#: is called only by the project's scripts (source: SalesforceAIResearch/MCP-Universe
#: mcpuniverse/benchmark/runner.py at 0df6c427: nothing in the class or the package calls ``run``).
LIBRARY_DRIVERS: dict[str, str] = {
    "mcpuniverse.benchmark.runner.BenchmarkRunner.run": "source: SalesforceAIResearch/MCP-Universe 0df6c427",
}
#: Functions that run before any rollout (besides module level): a cache or lazy index they
#: fill first is ready when the rollouts start. v1 tasksets load their tasks in ``load_tasks``.
START_UP: frozenset[str] = COLD_FUNCTIONS | frozenset({"__init__", "__post_init__", "load_tasks"})
#: Library functions that defining a subclass of a base runs (the base's metaclass calls them), by
#: qualified name -> the base: a subclass defined at a module's top is built at import, so what the
#: function fills once per process is ready before any rollout. pydantic's ``get_plugins`` fills its
#: module global ``_plugins`` (plugin discovery: ``importlib.metadata.entry_points``) for every
#: ``BaseModel`` subclass built (source: pkg pydantic 2.14.4 main.py ``ModelMetaclass.__new__`` ->
#: _internal/_model_construction.py ``complete_model_class`` -> plugin/_schema_validator.py
#: ``create_schema_validator`` -> plugin/_loader.py ``get_plugins``).
RUN_BY_CLASS_DEFINITIONS: dict[str, str] = {"pydantic.plugin._loader.get_plugins": "pydantic.BaseModel"}

REWARD = Hook("reward function", "rollout", note="run by the framework for every rollout")
#: A reward with one of these parameters is a group reward: called once with the lists of a whole
#: group (verifiers' ``Rubric._is_group_func``, legacy/rubrics/rubric.py). Sync work it runs per
#: rollout inside its loops runs back to back for the group, with no await between the rollouts.
GROUP_REWARD_PARAMETERS: frozenset[str] = frozenset({"states", "prompts", "completions", "answers", "tasks", "infos"})
SYNC_REWARD = Hook(
    "sync reward function", "group", note="run inline by the framework, back to back for every rollout of a group"
)
#: A sync reward in the releases that score each rollout as it finishes (RESCHEDULED_HOOKS).
INTERLEAVED_SYNC_REWARD = Hook(
    "sync reward function", "rollout", note="run inline by the framework as each rollout finishes"
)
#: How often a group reward itself runs: once for the group, handed its lists.
GROUP_CALL = "group-call"
#: A reward (sync or async) taking one of :data:`GROUP_REWARD_PARAMETERS`: called once per group.
GROUP_REWARD = Hook(
    "group reward function", GROUP_CALL, note="run by the framework once for a whole group, handed the group's lists"
)
#: What a group reward runs inside a loop over the group's lists (``for state in states``, also in
#: the helpers the lists are handed to): once per rollout, back to back in one step of the loop.
GROUP_ROLLOUTS = Hook(
    "group reward function",
    "group",
    note="run by the framework once for a whole group: its loop over the group's rollouts runs them back to back",
)
#: What a group reward runs in a loop over the group's lists that hands the event loop back between
#: the rollouts (an ``await`` in the loop; a coroutine per rollout, gathered): once per rollout.
GROUP_EACH = Hook(
    "group reward function",
    "rollout",
    note="run by the framework once for a whole group: its loop over the rollouts yields between them",
)
#: Hooks that run in every rollout before its rewards and metrics, by method name or decorator: a key
#: of the rollout's state one of them stores itself is there when the rubric scores the rollout, so a
#: rebuild that a scoring function guards by that key never runs (pkg verifiers 0.1.14
#: envs/multiturn_env.py: ``setup_state`` before the first turn; ``_finalize_rollout`` runs the
#: ``@vf.cleanup`` handlers, then the rubric's ``score_rollout``/``score_group``).
FILLED_BEFORE_SCORING: frozenset[str] = frozenset({"setup_state", "verifiers.cleanup"})
#: The roots the hooks of :data:`FILLED_BEFORE_SCORING` run before: the rubric's functions, however run.
SCORING_HOOKS: frozenset[Hook] = frozenset(
    {REWARD, SYNC_REWARD, INTERLEAVED_SYNC_REWARD, GROUP_REWARD, GROUP_ROLLOUTS, GROUP_EACH}
)


@dataclass(frozen=True)
class GroupCall:
    """A hook the framework calls once per group, handed the group's lists: ``call`` says how its
    own code runs (once per group), ``rollouts`` how its loop over the group's lists runs what it
    runs (back to back), ``each`` how such a loop that yields between the rollouts runs it (once
    per rollout). The lists are its parameters named one of ``names`` (handed by keyword), or
    its first after ``self`` (``first``: handed positionally)."""

    call: Hook
    rollouts: Hook
    each: Hook
    names: frozenset[str] = frozenset()
    first: bool = False
    #: A function annotated to return a list is called so whatever its parameters (verifiers'
    #: ``Rubric._is_group_func``: ``return_annotation is list or get_origin(...) is list``, pkg
    #: verifiers 0.1.14, 0.2.0 and 0.3.1 legacy/rubrics/rubric.py; 0.1.11 tests ``is list`` only).
    by_annotation: bool = False


#: The setting that sizes a group (rollouts of one example, scored together), where the project
#: gives it a literal (``rollouts_per_example=8`` in ``load_environment``, a parameter default).
GROUP_SIZE_SETTING = "rollouts_per_example"
#: Where an environment's pyproject.toml sets its evaluation defaults, the group size among them
#: (``asynclint.libraries.eval_settings`` reads it).
EVAL_TABLE = "tool.verifiers.eval"
#: The group size otherwise: verifiers' evaluation default (``DEFAULT_ROLLOUTS_PER_EXAMPLE = 3``,
#: pkg verifiers 0.3.1 verifiers/legacy/scripts/eval.py; an environment's ``[tool.verifiers.eval]``
#: may set another, training runs often use larger groups -- so a lower bound, like the estimates).
DEFAULT_GROUP_SIZE = 3


@dataclass(frozen=True)
class GroupSize:
    """How many rollouts a group holds, and what says so (``source``): ``eval-table`` (the
    environment's :data:`EVAL_TABLE`), ``project`` (a literal the project gives
    :data:`GROUP_SIZE_SETTING`) or ``default`` (:data:`DEFAULT_GROUP_SIZE`). Messages word it
    (``asynclint.rules.phrasing.group_size``)."""

    count: int
    source: Literal["eval-table", "project", "default"]


TOOL = Hook("tool", "tool", note="run by the framework on every tool call")
PROGRAM = Hook("harness program", "rollout", note="run by the harness on the loop for every rollout")
PARSER_FN = Hook("parser callable", "call", note="run on every parse")
# Rubric.score_objects runs every provider, sync and inline, before each reward function call;
# group providers get the states of a whole group at once.
SCORE_OBJECTS = Hook("score-object provider", "call", note="run inline before every reward function call")
GROUP_SCORE_OBJECTS = Hook("group score-object provider", "group", note="run inline over the states of a whole group")


def _per_group(kind: str, by: str, handed: str = "its states", names: frozenset[str] = frozenset()) -> GroupCall:
    """The hooks of a function of ``kind`` that ``by`` runs once per group, handed the group's
    lists (``handed`` in its notes): by keyword under ``names``, else positionally."""
    once = f"{by} once for a whole group"
    return GroupCall(
        Hook(kind, GROUP_CALL, note=f"{once}, handed {handed}"),
        Hook(kind, "group", note=f"{once}: its loop over the group's rollouts runs them back to back"),
        Hook(kind, "rollout", note=f"{once}: its loop over the rollouts yields between them"),
        names=names,
        first=not names,
    )


#: How verifiers 0.1.x runs ``Rubric.score_rollouts``: ``Environment.a_generate`` awaits it once
#: over the rollouts it generated (a group, for the trainers that generate per prompt), after they
#: all finished (source: PrimeIntellect-ai/verifiers 0.1.2 verifiers/envs/environment.py,
#: ``a_generate``). 0.2.0 replaced it with ``score_group``, which the hook tables name.
SCORE_ROLLOUTS = Hook(
    "per-group rubric method", "group", note="run by the framework itself over the rollouts it scores together"
)
# verifiers 0.1.14's v1 API (``import verifiers.v1 as vf``; the 0.1.12 wheel has no ``verifiers.v1``,
# PyPI has no 0.1.13), before 0.2.0 replaced it with the config-built classes of HOOK_CLASSES, whose
# constructors take a config alone: a ``vf.Toolset``,
# ``vf.Taskset`` or ``vf.Harness`` is built with the callables it runs, by keyword, and the
# rollout's ``Runtime`` runs each in the rollouts' own process, on their loop: it calls it and
# awaits the result only when that is awaitable, so a sync one runs inline (source: pkg verifiers
# 0.1.14 verifiers/v1/runtime.py ``_call_tool_callable``, ``setup_rollout``, ``update_rollout``,
# ``cleanup_rollout``, ``is_completed``; utils/lifecycle_utils.py ``run_handlers``;
# utils/scoring_utils.py ``call_rollout_signal``; harness.py ``Harness.run``, and its base program
# awaiting every tool call in turn). A toolset given ``sandbox=`` still runs its tools in process,
# handed a sandbox to drive. No later release takes these keywords, so the keyword alone tells
# the API apart: no version is needed.
V1_LOCAL_TOOL = Hook(
    "v1 toolset tool",
    "tool",
    note="run inline on the loop by verifiers v1's `Runtime.call_tool` on every tool call",
)
#: What a verifiers v1 handler (stop, setup, update, reward, metric, cleanup) is handed as ``task``: the
#: task of the rollout, one row of the taskset, the same for every rollout of its group (source: pkg
#: verifiers 0.3.1 verifiers/v1/task.py:137, ``Task.data``; the handlers take it by name).
V1_ROW_PARAMETERS: frozenset[str] = frozenset({"task"})
V1_STOP = Hook(
    "v1 stop condition",
    "turn",
    note="run by verifiers v1's `Runtime.is_completed` before every turn and after every tool call",
    row_params=V1_ROW_PARAMETERS,
)
V1_SETUP = Hook(
    "v1 setup handler",
    "rollout",
    note="run by verifiers v1's `Runtime.setup_rollout` as every rollout starts",
    row_params=V1_ROW_PARAMETERS,
)
V1_UPDATE = Hook(
    "v1 update handler",
    "rollout",
    note="run by verifiers v1's `Runtime.update_rollout` once every rollout's program ends",
    row_params=V1_ROW_PARAMETERS,
)
V1_REWARD = Hook(
    "v1 reward function",
    "rollout",
    note="run by verifiers v1's `Runtime.score_rollout` as every rollout ends",
    row_params=V1_ROW_PARAMETERS,
)
V1_METRIC = Hook(
    "v1 metric function",
    "rollout",
    note="run by verifiers v1's `Runtime.score_rollout` as every rollout ends",
    row_params=V1_ROW_PARAMETERS,
)
V1_CLEANUP = Hook(
    "v1 cleanup handler",
    "rollout",
    note="run by verifiers v1's `Runtime.cleanup_rollout` as every rollout ends",
    row_params=V1_ROW_PARAMETERS,
)
#: An advantage (always), or a reward, metric, update or cleanup handler taking these parameters,
#: runs once per group, handed the group's tasks and states (scoring_utils.py ``validate_signal``:
#: a group signal takes exactly these; lifecycle handlers likewise, runtime.py ``validate_handler_args``).
V1_GROUP_PARAMETERS: frozenset[str] = frozenset({"tasks", "states"})
V1_ADVANTAGE = Hook(
    "v1 advantage function", GROUP_CALL, note="run by verifiers v1's `Runtime.score_group` once for a whole group"
)


#: The keyword a v1 ``Taskset`` or ``Harness`` is handed each in -> the hook it is (a ``Toolset``
#: takes ``tools=`` and the lifecycle ones: :data:`V1_TOOLSET_SLOTS`).
V1_HANDLERS: dict[str, Hook] = {
    "stops": V1_STOP,
    "setups": V1_SETUP,
    "updates": V1_UPDATE,
    "rewards": V1_REWARD,
    "metrics": V1_METRIC,
    "advantages": V1_ADVANTAGE,
    "cleanups": V1_CLEANUP,
}
V1_TOOLSET_SLOTS: dict[str, Hook] = {
    "tools": V1_LOCAL_TOOL,
    **{k: V1_HANDLERS[k] for k in ("stops", "setups", "updates", "cleanups")},
}
#: A ``Harness(program=fn)`` callable: ``compile_program`` wraps it in ``local_callable_program``,
#: which ``Harness.run`` awaits for every rollout through ``maybe_call_with_named_args`` -- a sync
#: program runs inline on the loop (source: pkg verifiers 0.1.14 verifiers/v1/harness.py:393,
#: utils/endpoint_utils.py:303). A mapping program (``{"fn": "m:f", "sandbox": ...}``) is a
#: string reference: PROGRAM_SLOTS.
V1_HARNESS_SLOTS: dict[str, Hook] = {"program": PROGRAM}
#: ``Taskset(user=fn)`` / ``Harness(user=fn)``: the simulated user, wrapped in a ``User`` and called
#: by ``Runtime.user_messages`` through ``maybe_call_with_named_args`` after every model turn that
#: asked for no tool (source: pkg verifiers 0.1.14 verifiers/v1/user.py ``normalize_user``,
#: runtime.py:353-372, harness.py:443).
V1_USER = Hook(
    "v1 user callable",
    "turn",
    note="run by verifiers v1's `Runtime.user_messages` after every model turn without a tool call",
)
V1_USER_SLOTS: dict[str, Hook] = {"user": V1_USER}
#: ``Toolset(objects={"index": load_index})``: a factory taking no arguments, called by
#: ``Runtime.resolve_object_factory`` on the loop (awaited only when it returns an awaitable) the
#: first time a tool bound to ``objects.index`` is called in its scope, and cached there. The scope
#: is ``toolset_object_scope``: the toolset's ``scope=`` when given (``"rollout"``, ``"group"`` or
#: ``"global"``), else ``"rollout"`` for ``write=True`` and ``"global"`` otherwise -- so once per
#: process by default, once per rollout or per group as configured (:data:`V1_OBJECT_SCOPES`;
#: source: pkg verifiers 0.1.14 verifiers/v1/runtime.py:1295-1318, :1744-1747, :1901; toolset.py:
#: 27-29, 121-123). No other release has ``objects=``: 0.2.0 to 0.4.0's ``Toolset`` is a tool server
#: configured by ``ToolsetConfig`` (pkg verifiers 0.4.0 verifiers/v1/mcp/toolset.py).
_V1_FACTORY_NOTE = "run on the loop by verifiers v1's `Runtime.resolve_object_factory` when a tool first needs it"
V1_OBJECT_FACTORY = Hook("v1 toolset object factory", ONCE_FREQUENCY, note=_V1_FACTORY_NOTE)
V1_ROLLOUT_OBJECT_FACTORY = Hook(
    "v1 per-rollout toolset object factory", "rollout", note=f"{_V1_FACTORY_NOTE} in each rollout"
)
# Once per group is at most once per rollout, never a group's rollouts back to back: "rollout".
V1_GROUP_OBJECT_FACTORY = Hook(
    "v1 per-group toolset object factory", "rollout", note=f"{_V1_FACTORY_NOTE} in each group"
)
V1_TOOLSET_OBJECT_SLOTS: dict[str, Hook] = {"objects": V1_OBJECT_FACTORY}


@dataclass(frozen=True)
class Setting:
    """A keyword of the call a callable is handed to that changes how the framework runs it: given
    as the literal ``value``, the callable runs as ``hook`` instead of its registration's own."""

    keyword: str
    value: object
    hook: Hook


#: How a ``Toolset``'s ``scope=`` and ``write=`` change when its object factories run, in the
#: order ``toolset_object_scope`` reads them (an explicit scope wins over ``write``).
V1_OBJECT_SCOPES: tuple[Setting, ...] = (
    Setting("scope", "rollout", V1_ROLLOUT_OBJECT_FACTORY),
    Setting("scope", "group", V1_GROUP_OBJECT_FACTORY),
    Setting("scope", "global", V1_OBJECT_FACTORY),
    Setting("write", True, V1_ROLLOUT_OBJECT_FACTORY),
)
#: Slots handed a mapping whose values are the callables registered (its keys are names).
MAPPING_SLOTS: frozenset[str] = frozenset(V1_TOOLSET_OBJECT_SLOTS)
#: ``taskset.add_reward(fn)``, ``harness.add_stop(fn)``, ...: a v1 ``Taskset`` or ``Harness``
#: appends the callable to the list its keyword of :data:`V1_HANDLERS` fills (source: pkg verifiers
#: 0.1.14 verifiers/v1/taskset.py:128-155, harness.py:174-201), run the same way.
V1_ADD_METHODS: dict[str, Hook] = {f"add_{slot.removesuffix('s')}": hook for slot, hook in V1_HANDLERS.items()}
#: Where those methods take the callable: first, or by its parameter's name (``add_reward(fn=f)``).
V1_ADD_SLOTS: tuple[str, ...] = ("0", "fn")


def _v1_group(kind: str, by: str) -> GroupCall:
    """How verifiers v1's ``Runtime.{by}`` runs a ``kind`` handed a group's tasks and states."""
    return _per_group(kind, f"run by verifiers v1's `Runtime.{by}`", "its tasks and states", V1_GROUP_PARAMETERS)


_GROUP_REWARDS = GroupCall(GROUP_REWARD, GROUP_ROLLOUTS, GROUP_EACH, GROUP_REWARD_PARAMETERS, by_annotation=True)
#: The hooks whose functions the framework may call once per group (a reward taking a group's
#: lists, a rubric's per-group method, a group score-object provider: ``provider(states)`` in
#: ``Rubric.group_score_objects``), and how.
GROUPED_HOOKS: dict[Hook, GroupCall] = {
    REWARD: _GROUP_REWARDS,
    SYNC_REWARD: _GROUP_REWARDS,
    INTERLEAVED_SYNC_REWARD: _GROUP_REWARDS,
    PER_GROUP_HOOK: _per_group("per-group hook", "run by the framework"),
    GROUP_SCORE_OBJECTS: _per_group("group score-object provider", "run inline by the framework"),
    SCORE_ROLLOUTS: _per_group("per-group rubric method", "run by the framework itself"),
    V1_REWARD: _v1_group("v1 group reward function", "score_group"),
    V1_METRIC: _v1_group("v1 group metric function", "score_group"),
    V1_ADVANTAGE: _v1_group("v1 advantage function", "score_group"),
    V1_UPDATE: _v1_group("v1 group update handler", "update_group"),
    V1_CLEANUP: _v1_group("v1 group cleanup handler", "cleanup_group"),
}
#: A group call's hook -> its :class:`GroupCall`.
GROUP_CALLS: dict[Hook, GroupCall] = {grouped.call: grouped for grouped in GROUPED_HOOKS.values()}
LOOP_CALLBACK = Hook("event-loop callback", "call", note="run on the loop by asyncio")
#: What an asyncio server runs on the loop for the connections it accepts (asyncio_apis.SERVER_CALLBACKS).
SERVER_CALLBACK = Hook("asyncio server callback", "call", note="run on the loop by asyncio for every connection")
#: A protocol factory handed to a loop's ``create_server``: a class, built for every connection,
#: whose protocol methods the loop calls (HANDED_CLASSES); a lambda is the callback itself.
PROTOCOL_FACTORY = Hook("asyncio protocol factory", "call", note="run on the loop by asyncio for every connection")
_PROTOCOL_EVENT = "run on the loop by asyncio as a connection {}"
# ``RLMEnv`` hands ``tools=`` to ``StatefulToolEnv`` (TOOL), and keeps ``root_tools=`` (called by the
# model's REPL code in the sandbox, through the environment's own aiohttp interception server on
# the rollouts' loop: ``_handle_root_tool_request``) and ``sub_tools=`` (called by sub-LLMs:
# ``_call_sub_tool``) in maps of its own; both run a tool with ``await maybe_await(tool_func, ...)``,
# so a sync one runs inline on the loop, every call (source: pkg verifiers 0.1.11 and 0.1.14
# verifiers/envs/experimental/rlm_env.py).
RLM_REPL_TOOL = Hook(
    "REPL tool", "tool", note="run inline on the loop by verifiers' `RLMEnv` each time the model's REPL code calls it"
)
RLM_SUB_TOOL = Hook(
    "sub-LLM tool", "tool", note="run inline on the loop by verifiers' `RLMEnv` on every tool call of a sub-LLM"
)
# ``vf.GymEnv(env_cls=Maze, action_parser=parse, obs_to_text=show)``: verifiers' gym runner builds an
# instance of the class it is handed in the first turn of every rollout (``env_response``:
# ``self.env_cls(**self.env_kwargs)``, then ``reset``), steps it every turn and closes it in its
# ``@vf.cleanup``; it parses every reply with ``action_parser`` and renders every observation with
# ``obs_to_text`` -- all inline on the loop (source: pkg verifiers 0.1.14 and 0.2.0
# verifiers/envs/experimental/gym_env.py, 0.3.1 verifiers/legacy/envs/experimental/gym_env.py:
# ``env_response``, ``cleanup_env``; 0.4.0 has no ``GymEnv``). ``__init__`` also builds one and
# resets it for every episode of its dataset (``gym_to_hf``): start-up.
GYM_ENV_CLASS = Hook("gym environment class", "rollout")
_GYM_TURN = "run by verifiers' `GymEnv.env_response` on every turn"
_GYM_FIRST_TURN = "run by verifiers' `GymEnv.env_response` in the first turn of every rollout"
#: A class handed to the framework, which builds and drives its instances: the slot's hook -> the
#: methods it calls (the constructor as ``__init__``), each the hook it runs as.
HANDED_CLASSES: dict[Hook, dict[str, Hook]] = {
    # CPython asyncio/protocols.py: BaseProtocol, Protocol and BufferedProtocol's callbacks.
    PROTOCOL_FACTORY: {
        "__init__": Hook("asyncio protocol constructor", "call", note=_PROTOCOL_EVENT.format("is accepted")),
        **{
            name: Hook("asyncio protocol callback", "call", note=_PROTOCOL_EVENT.format(event))
            for name, event in (
                ("connection_made", "is accepted"),
                ("data_received", "receives data"),
                ("get_buffer", "receives data"),
                ("buffer_updated", "receives data"),
                ("eof_received", "ends"),
                ("connection_lost", "closes"),
            )
        },
    },
    GYM_ENV_CLASS: {
        "__init__": Hook("gym environment constructor", "rollout", note=_GYM_FIRST_TURN),
        "reset": Hook("gym environment reset", "rollout", note=_GYM_FIRST_TURN),
        "step": Hook("gym environment step", "turn", note=_GYM_TURN),
        "close": Hook(
            "gym environment close", "rollout", note="run by verifiers' `GymEnv.cleanup_env` as every rollout ends"
        ),
    },
}
GYM_SLOTS: dict[str, Hook] = {
    "env_cls": GYM_ENV_CLASS,
    "action_parser": Hook("gym action parser", "turn", note=_GYM_TURN),
    "obs_to_text": Hook("gym observation renderer", "turn", note=_GYM_TURN),
}

#: Sync callables the framework runs inline but awaits when they are coroutine functions
#: (verifiers calls them through ``maybe_await``): rewards, metrics, tools, stop conditions,
#: cleanup handlers, and hooks that must be async anyway. Such a root may become ``async def``.
AWAITED_ROOTS: frozenset[Hook] = frozenset(
    {
        REWARD,
        SYNC_REWARD,
        INTERLEAVED_SYNC_REWARD,
        GROUP_REWARD,
        GROUP_ROLLOUTS,
        GROUP_EACH,
        TOOL,
        PROGRAM,
        RLM_REPL_TOOL,
        RLM_SUB_TOOL,
        *V1_HANDLERS.values(),
        V1_LOCAL_TOOL,
        V1_OBJECT_FACTORY,
        V1_ROLLOUT_OBJECT_FACTORY,
        V1_GROUP_OBJECT_FACTORY,
        V1_USER,
        *(h for h in DECORATORS.values() if h),
    }
)


#: Roots whose framework awaits whatever the callable returns when it is awaitable, not only a
#: coroutine function's coroutine: verifiers calls rewards and tools through ``maybe_await``
#: (``result = func(...)``; ``if inspect.isawaitable(result): return await result``; source: pkg
#: verifiers 0.1.3 utils/async_utils.py, rubrics/rubric.py:104, envs/tool_env.py:41; 0.1.12
#: envs/tool_env.py:137; 0.3.1 legacy/utils/async_utils.py:36, legacy/rubrics/rubric.py:203/248,
#: legacy/envs/tool_env.py:139). So a ``lambda`` registered as one may return an awaitable
#: (``lambda c, a: asyncio.to_thread(score, c, a)``), which cannot become ``async def``.
#: (Releases before 0.1.3 await nothing a reward or tool returns: UNAWAITED_RESULTS.)
RESULT_AWAITED: frozenset[Hook] = frozenset({REWARD, SYNC_REWARD, INTERLEAVED_SYNC_REWARD, GROUP_REWARD, TOOL})


def root_awaited(hook: Hook) -> bool:
    return hook in AWAITED_ROOTS or hook.must_be == "async"


@dataclass(frozen=True)
class Registration:
    """A callable handed to the framework: found in ``slot`` (a keyword, or a positional index
    as a string) of a call to a subclass of ``owner`` (package + class names), or of any method
    named ``method`` (both: a call of that method on an instance of a subclass of ``owner``)."""

    hook: Hook
    slot: str
    owner: HookClass | None = None
    method: str | None = None
    any_verifiers_call: bool = False
    callee: str | None = None  # a qualified function or class name (from configuration)
    #: Keywords of the same call that change the hook, in the order the framework reads them.
    settings: tuple[Setting, ...] = ()

    def configured(self, given: Mapping[str, str]) -> Hook:
        """The hook the callable runs as, given the keywords of its call (each literal's ``repr``,
        :data:`UNKNOWN` for anything but a literal). The first keyword in ``settings`` order that is
        given with a value it lists decides; one whose value is not known is read as the most
        frequent of its values (it may be that one); a keyword left out, or given a value it
        does not list (``scope=None``, ``write=False``), leaves the decision to the next."""
        for keyword in dict.fromkeys(setting.keyword for setting in self.settings):
            if keyword not in given:
                continue
            options = [setting for setting in self.settings if setting.keyword == keyword]
            if given[keyword] is UNKNOWN:
                return max((setting.hook for setting in options), key=_how_often)
            chosen = next((setting.hook for setting in options if repr(setting.value) == given[keyword]), None)
            if chosen is not None:
                return chosen
        return self.hook


#: A keyword of a registering call given as something other than a literal (``write=flag``).
UNKNOWN = "<unknown>"


def _how_often(hook: Hook) -> tuple[bool, int]:
    return hook.frequency not in RARE_ROOT_FREQUENCIES, FREQUENCY_RANK.get(hook.frequency, 0)


#: Prefix of a registration slot that is an attribute of ``self`` assigned in a subclass of the
#: owner (``self.tools = [...]``), not an argument of a call.
ATTRIBUTE_SLOT = "self."


@dataclass(frozen=True)
class ProgramSlot:
    """A callable a framework call names by a string reference, ``"pkg.module:fn"`` or a bare
    ``"fn"`` looked up in the module the call is written in, and runs as ``hook`` -- unless the
    call gives ``away`` a value (anything but a literal ``None``/``False``): then the callable
    is shipped to ``context`` and runs there, never on the rollout loop."""

    callee: str
    slot: str
    hook: Hook
    away: str
    context: str


#: verifiers v1 harness programs (``verifiers/v1/harness.py`` ``compile_program``, May 2026): a
#: ``fn`` program runs in process, awaited per rollout; with ``sandbox=`` set it is uploaded and
#: run inside the rollout's sandbox.
PROGRAM_SLOTS: dict[tuple[str, str], ProgramSlot] = {
    (slot.callee, slot.slot): slot
    for slot in (ProgramSlot("verifiers.v1.ProgramConfig", "fn", PROGRAM, away="sandbox", context="sandbox"),)
}
PROGRAM_CALLEES: frozenset[str] = frozenset(callee for callee, _ in PROGRAM_SLOTS)
#: The keywords that name a program: a call without one is no program configuration.
PROGRAM_KEYWORDS: frozenset[str] = frozenset(slot for _, slot in PROGRAM_SLOTS)

_RUBRICS, _ENVS = HOOK_CLASSES[1], HOOK_CLASSES[0]

#: The list a rubric keeps its rewards in, which ``add_reward_func`` appends to and scoring calls
#: each item of (source: pkg verifiers 0.1.3 rubrics/rubric.py:42 ``self.reward_funcs``, :66;
#: 0.3.1 legacy/rubrics/rubric.py:48 ``self.funcs``, :71): a callable stored into it
#: (``rubric.reward_funcs[0] = f``, ``rubric.funcs.append(f)``, ``self.reward_funcs = [...]``) is a
#: reward as one handed to ``add_reward_func`` is. Read as a call of a method of that name handed
#: the callable (the index's ``RegisteredLists``).
REWARD_LISTS: tuple[str, ...] = ("reward_funcs", "funcs")
_V1_TABLES = {name: table for table in HOOK_CLASSES if table.package == "verifiers.v1" for name in table.names}

REGISTRATIONS: tuple[Registration, ...] = (
    # Before the registrations by method name alone: ``add_metric`` is also v0's Rubric method, and
    # a method of a ``verifiers.v1`` object is otherwise taken for a tool server's (0.2.0+).
    *(
        Registration(hook, slot, owner=_V1_TABLES[owner], method=method)
        for owner in ("Taskset", "Harness")
        for method, hook in V1_ADD_METHODS.items()
        for slot in V1_ADD_SLOTS
    ),
    Registration(REWARD, "funcs", owner=_RUBRICS),
    Registration(REWARD, "0", owner=_RUBRICS),
    Registration(REWARD, "0", method="add_reward_func"),
    Registration(REWARD, "0", method="add_metric"),
    *(Registration(REWARD, "0", owner=_RUBRICS, method=name) for name in REWARD_LISTS),
    Registration(TOOL, "tools", owner=_ENVS),
    # verifiers 0.3 ToolEnv keeps its tools in ``self.tools`` (envs/tool_env.py: ``__init__`` builds
    # tool_map and tool_defs from it, ``add_tool`` appends): a subclass assigning the list there
    # after ``super().__init__(tools=[])`` registers its items.
    Registration(TOOL, "self.tools", owner=_ENVS),
    Registration(TOOL, "0", method="add_tool"),
    Registration(PARSER_FN, "extract_fn", any_verifiers_call=True),
    Registration(SCORE_OBJECTS, "0", method="add_score_object_provider"),
    Registration(GROUP_SCORE_OBJECTS, "0", method="add_group_score_object_provider"),
    *(Registration(LOOP_CALLBACK, str(slot), method=name) for name, slot in LOOP_CALLBACK_METHODS.items()),
    *(Registration(SERVER_CALLBACK, slot, callee=name) for name, slots in SERVER_CALLBACKS.items() for slot in slots),
    *(
        Registration(PROTOCOL_FACTORY, slot, method=name)
        for name, slots in SERVER_FACTORY_METHODS.items()
        for slot in slots
    ),
    *(Registration(slot.hook, slot.slot, callee=slot.callee) for slot in PROGRAM_SLOTS.values()),
    Registration(TOOL, "tools", owner=RLM_ENV),
    Registration(RLM_REPL_TOOL, "root_tools", owner=RLM_ENV),
    Registration(RLM_SUB_TOOL, "sub_tools", owner=RLM_ENV),
    *(Registration(hook, slot, owner=_ENVS) for slot, hook in GYM_SLOTS.items()),
    *(
        Registration(hook, slot, owner=_V1_TABLES[owner])
        for owner in ("Taskset", "Harness")
        for slot, hook in V1_HANDLERS.items()
    ),
    *(Registration(hook, slot, owner=_V1_TABLES["Toolset"]) for slot, hook in V1_TOOLSET_SLOTS.items()),
    *(
        Registration(hook, slot, owner=_V1_TABLES["Toolset"], settings=V1_OBJECT_SCOPES)
        for slot, hook in V1_TOOLSET_OBJECT_SLOTS.items()
    ),
    *(Registration(hook, slot, owner=_V1_TABLES["Harness"]) for slot, hook in V1_HARNESS_SLOTS.items()),
    *(
        Registration(hook, slot, owner=_V1_TABLES[owner])
        for owner in ("Taskset", "Harness")
        for slot, hook in V1_USER_SLOTS.items()
    ),
)

#: The keywords some registration's settings read: the indexer records them beside a hand-over.
SETTING_KEYWORDS: frozenset[str] = frozenset(
    setting.keyword for registration in REGISTRATIONS for setting in registration.settings
)
#: ``vf.Toolset(config={"objects": {...}, "write": True})``: verifiers 0.1.14's v1 ``Toolset``,
#: ``Taskset`` and ``Harness`` merge the entries of a config mapping with their keywords, a keyword
#: given (not ``None``) winning (source: pkg verifiers 0.1.14 verifiers/v1/toolset.py:61-112,
#: config.py:133-146 ``ToolsetConfig``, taskset.py:51-53, harness.py:93-143). The keyword the
#: mapping is given in, and the entries read like keywords: the slots and settings of those
#: classes' registrations. 0.2.0 and later configs have no such fields.
CONFIG_KEYWORD = "config"
#: Slots whose ``"module:attr"`` strings verifiers 0.1.14 imports and runs as what they name
#: (``tools=["pkg.search:lookup"]``): keywords and config entries alike (pkg verifiers 0.1.14
#: v1/config.py:303-321 ``config_callables`` and :398-411 ``resolve_config_object``, toolset.py:283
#: ``tool_item``, user.py:54-55 ``normalize_user``) -- ``objects`` only inside a config mapping
#: (toolset.py:73-82; the keyword's values are kept as they are).
REFERENCE_SLOTS: frozenset[str] = frozenset({*V1_HANDLERS, *V1_TOOLSET_SLOTS, *V1_USER_SLOTS})
CONFIG_REFERENCE_SLOTS: frozenset[str] = REFERENCE_SLOTS | frozenset(V1_TOOLSET_OBJECT_SLOTS)
#: The config classes it may be instead (``config=vf.ToolsetConfig(objects=..., write=True)``), whose
#: keywords are its entries (config.py:65-78 ``config_data``: a ``Config`` is dumped to a mapping).
CONFIG_CLASSES: frozenset[str] = frozenset(
    f"verifiers.v1{module}.{name}Config" for module in ("", ".config") for name in ("Toolset", "Taskset", "Harness")
)
CONFIG_ENTRIES: frozenset[str] = (
    frozenset({*V1_HANDLERS, *V1_TOOLSET_SLOTS, *V1_TOOLSET_OBJECT_SLOTS, *V1_USER_SLOTS}) | SETTING_KEYWORDS
)


@dataclass(frozen=True)
class HandedClient:
    """A client handed to a framework class, which keeps it and calls it when its own methods
    run. Mostly never by itself: only a project call of one of ``users`` (``rubric.judge(...)``),
    or of ``method`` on the attribute it keeps (``rubric.judge_client.chat.completions.create``),
    makes the framework call the client on the loop. Reward functions registered on the
    instance get what ``passed`` names by parameter name (``async def r(judge, ...)``). A holder
    whose ``runs`` name methods the framework runs itself (hooks it overrides) calls the client
    there, without awaiting, with no project call at all: handing it a blocking client is the
    offence (and an async one is no fix: its calls would never be awaited)."""

    owner: str  # the framework class (and its subclasses, project or framework)
    slot: str  # the keyword it is handed in
    attribute: str  # the attribute the instance keeps it as
    method: str  # what the framework calls on it
    users: frozenset[str]  # the instance's methods that call it
    passed: frozenset[str]  # parameter names under which registered rewards get users or the client
    package: str = "verifiers"  # the top-level package defining ``owner``
    #: The holder's methods the framework runs by itself, and how it runs them.
    runs: tuple[tuple[str, Hook], ...] = ()
    #: ``runs`` call the client inside a loop (once per item of what they score).
    runs_in_loop: bool = False


# verifiers' JudgeRubric keeps the client as ``judge_client`` and calls it in ``judge``, which it
# also hands reward functions by parameter name (``class_objects``, from 0.1.3; 0.3.1 awaits the
# client's call only when it returns an awaitable). In 0.1.2 ``judge`` is a plain method: see
# SYNC_METHODS.
CLIENT_HOLDERS: tuple[HandedClient, ...] = (
    HandedClient(
        "JudgeRubric",
        "judge_client",
        "judge_client",
        "chat.completions.create",
        users=frozenset({"judge"}),
        passed=frozenset({"judge", "judge_client"}),
    ),
    # arcee-ai's vf_exts (NeMo-RL env_api/vf_exts, not on PyPI; source: vf_exts/rubric/btrm_judge.py
    # at arcee-ai/NeMo-RL 0b84318): ``PairwiseJudgeRubric(vf.Rubric)`` keeps ``judge_client`` and its
    # ``async def score_rollouts`` calls ``self.judge_client.chat.completions.create(...)`` without
    # awaiting, once per pair of completions.
    HandedClient(
        "PairwiseJudgeRubric",
        "judge_client",
        "judge_client",
        "chat.completions.create",
        users=frozenset(),
        passed=frozenset(),
        package="vf_exts",
        runs=(("score_rollouts", SCORE_ROLLOUTS),),
        runs_in_loop=True,
    ),
)

HANDOFF_SLOTS: frozenset[str] = frozenset(holder.slot for holder in CLIENT_HOLDERS)
#: Hooks whose returned dict is the arguments the framework calls a registered tool with: what
#: ``update_tool_args`` stores under a key (``updated["env"] = state["emulator_env"]``) is what the
#: tool's parameter of that name receives (verifiers v0 ``StatefulToolEnv``, tools added with
#: ``args_to_skip``; source: pkg verifiers 0.3.1 verifiers/legacy/envs/stateful_tool_env.py: env_response
#: passes ``update_tool_args(...)`` to ``call_tool``).
ARGUMENT_INJECTORS: frozenset[str] = frozenset({"update_tool_args"})

#: Slot -> the attribute an instance keeps what is handed in it as (typed from the argument).
HANDOFF_ATTRIBUTES: dict[str, str] = {holder.slot: holder.attribute for holder in CLIENT_HOLDERS}
#: Parameter names under which a framework hands reward functions a holder's users or client.
PASSED_NAMES: frozenset[str] = frozenset(name for holder in CLIENT_HOLDERS for name in holder.passed)


@dataclass(frozen=True)
class SyncMethod:
    """A framework method that the releases from ``since`` up to (not including) ``until`` of
    ``distribution`` define as a plain method making the blocking call ``calls`` (with the client
    handed over, else one of its own) -- later releases await it. When every release the project
    admits of the distribution (``Config.framework_versions``: a version or a range) is in that
    range, the project's call of the method in hot code blocks the loop; otherwise (also when the
    version is unknown) the method is taken to be today's."""

    distribution: str
    since: str
    until: str
    owner: str  # the framework class (and its subclasses)
    method: str
    calls: str  # the blocking call it makes


#: verifiers 0.1.2's ``JudgeRubric.judge`` calls ``self.judge_client.chat.completions.create`` without
#: awaiting, on an ``OpenAI()`` of its own when none is handed; 0.1.3 made it ``async def`` (and
#: awaits the client's call). 0.1.1 has no ``judge``: it registers a sync reward of its own, which
#: its ``Rubric.score_rollout`` runs in ``asyncio.to_thread``, off the loop like every reward there
#: (OFFLOADED_HOOKS).
SYNC_METHODS: tuple[SyncMethod, ...] = (
    SyncMethod("verifiers", "0.1.2", "0.1.3", "JudgeRubric", "judge", "openai.OpenAI.chat.completions.create"),
)


@dataclass(frozen=True)
class OffloadedHooks:
    """The releases from ``since`` up to (not including) ``until`` of ``distribution`` run every
    callable registered as one of ``hooks`` in a worker thread, not on the loop: when every
    release the project admits (``Config.framework_versions``: a version or a range) is in that
    range, such a callable is no hot root, and what only it reaches is not reported. Otherwise
    (also when the version is unknown) the framework is taken to run them on the loop, as the
    releases from ``on_loop`` do (``until`` when the later releases do; ``since`` is then ``"0"``)."""

    distribution: str
    since: str
    until: str
    hooks: frozenset[Hook]
    how: str  # what the framework does, in words
    on_loop: str = ""  # the first release of the ones before ``since`` that run them on the loop

    @property
    def taken_from(self) -> str:
        """The first release whose way a range admitting both is read as (``Facts.assumed_from``)."""
        return self.on_loop or self.until


#: verifiers 0.1.1's ``Rubric.score_rollout`` gathers ``asyncio.to_thread(self._call_reward_func,
#: func, ...)`` for every reward function (source: pkg verifiers 0.1.1 verifiers/rubrics/rubric.py:
#: score_rollout), so a sync reward blocks a worker thread (and an async one is never awaited:
#: broken, not blocking); 0.1.2 made ``call_reward_func`` an async method calling each reward
#: inline on the loop (pkg verifiers 0.1.2, same file).
OFFLOADED_HOOKS: tuple[OffloadedHooks, ...] = (
    OffloadedHooks(
        "verifiers",
        "0",
        "0.1.2",
        frozenset({REWARD, SYNC_REWARD}),
        "`Rubric.score_rollout` runs every reward function in `asyncio.to_thread`",
    ),
    OffloadedHooks(
        "verifiers",
        "0.4.0",
        "0.5",
        frozenset({SHARED_SERVER_TOOL}),
        "the tool server (mcp 2's `MCPServer`) runs a sync tool in a worker thread",
        on_loop="0.2.0",
    ),
)


@dataclass(frozen=True)
class UnawaitedResults:
    """The releases from ``since`` up to (not including) ``until`` of ``distribution`` call the
    callables registered as one of ``hooks`` and use what they return as it is, awaiting nothing: a
    sync root made ``async def`` (or a ``lambda`` returning an awaitable) would hand them an
    un-awaited coroutine there. A fix making such a root ``async`` holds only when no release the
    project admits is in that range (:func:`result_unawaited`); when the version is unknown, the
    framework is taken to be today's, which awaits it (a project that does not pin the framework
    runs whatever release is installed, most likely a recent one)."""

    distribution: str
    since: str
    until: str
    hooks: frozenset[Hook]
    how: str  # what the framework does with the result, in words


#: verifiers 0.1.1 and 0.1.2 call a reward (``ans = func(**allowed)``, pkg verifiers 0.1.1
#: rubrics/rubric.py:87/94 inside ``asyncio.to_thread``, 0.1.2 rubrics/rubric.py:99/106 inline in the
#: async ``call_reward_func``) and a tool (``tool_func(**tool_args)``, 0.1.1 envs/tool_env.py:141;
#: ``str(tool_func(...))``, 0.1.2 envs/tool_env.py:38) without awaiting the result; 0.1.3 calls both
#: through ``maybe_await`` (rubrics/rubric.py:104/111, envs/tool_env.py:41).
UNAWAITED_RESULTS: tuple[UnawaitedResults, ...] = (
    UnawaitedResults(
        "verifiers",
        "0",
        "0.1.3",
        frozenset({REWARD, SYNC_REWARD}),
        "`Rubric` uses what a reward function returns without awaiting it",
    ),
    UnawaitedResults(
        "verifiers", "0", "0.1.3", frozenset({TOOL}), "`ToolEnv.call_tool` uses what a tool returns without awaiting it"
    ),
)


@dataclass(frozen=True)
class RescheduledHook:
    """The releases from ``since`` up to (not including) ``until`` of ``distribution`` run the
    callables registered as ``hook`` as ``becomes`` says, less often: when every release the
    project admits is in that range, such a callable is a ``becomes`` root. Otherwise (also when
    the version is unknown) it stays a ``hook`` root, the more frequent reading, and a range that
    admits both says so (:func:`version_split`)."""

    distribution: str
    since: str
    until: str
    hook: Hook
    becomes: Hook
    how: str  # what the framework does in those releases, in words
    taken: str  # what the others do, the reading taken where the project admits both, in words


#: verifiers 0.1.2 and 0.1.3 score after generation (``Rubric.score_rollouts`` over every rollout
#: gathered); 0.1.4 to 0.1.7 give ``a_generate`` ``interleave_scoring=True`` (0.1.4
#: envs/environment.py:372/444): each rollout is scored as it finishes, its sync rewards run
#: inline between other rollouts' awaits; from 0.1.8 ``run_group`` scores a group once it is
#: gathered (``Rubric.score_group``; ``independent_scoring=False`` by default, 0.1.9 to 0.3.x).
RESCHEDULED_HOOKS: tuple[RescheduledHook, ...] = (
    RescheduledHook(
        "verifiers",
        "0.1.4",
        "0.1.8",
        SYNC_REWARD,
        INTERLEAVED_SYNC_REWARD,
        "`Environment.a_generate` scores each rollout as it finishes (`interleave_scoring=True`, the default)",
        "scored a whole group (or batch) at a time",
    ),
)

#: The distributions whose version changes what asynclint knows (what the runner looks up).
VERSIONED_DISTRIBUTIONS: frozenset[str] = frozenset(
    change.distribution
    for changes in (SYNC_METHODS, OFFLOADED_HOOKS, RESCHEDULED_HOOKS, UNAWAITED_RESULTS)
    for change in changes
) | frozenset(table.package.partition(".")[0] for table in HOOK_CLASSES if table.in_process is not None)


def _coverage(
    change: SyncMethod | OffloadedHooks | RescheduledHook | UnawaitedResults, versions: Mapping[str, str]
) -> Literal["all", "some", "none"]:
    """Do all, some or none of the releases the project admits of ``change.distribution`` (from
    ``versions``, distribution -> an exact version or the specifiers it requires) fall in the
    releases ``change`` is about?"""
    if change.distribution not in versions:
        return "none"
    return coverage(versions[change.distribution], change.since, change.until)


def sync_method(owner: str, method: str, versions: Mapping[str, str]) -> SyncMethod | None:
    """The entry making ``owner.method`` sync at the project's ``versions``, if any: every
    release the project admits makes it sync (code written for a range that also admits the
    async method awaits it, and is taken to run on that one)."""
    return next(
        (c for c in SYNC_METHODS if c.owner == owner and c.method == method and _coverage(c, versions) == "all"),
        None,
    )


def offloaded_hooks(versions: Mapping[str, str]) -> frozenset[Hook]:
    """The hooks whose registered callables the project's ``versions`` of the frameworks run in
    worker threads: in every release they admit. A range admitting releases that run them on the
    loop too is read as on the loop, the conservative one (:func:`version_split` says so)."""
    return frozenset(
        hook for change in OFFLOADED_HOOKS if _coverage(change, versions) == "all" for hook in change.hooks
    )


def rescheduled(hook: Hook, versions: Mapping[str, str]) -> Hook:
    """The root a callable registered as ``hook`` is at the project's ``versions``: the one every
    release they admit runs it as (RESCHEDULED_HOOKS), else ``hook``."""
    return next(
        (c.becomes for c in RESCHEDULED_HOOKS if c.hook is hook and _coverage(c, versions) == "all"),
        hook,
    )


def result_unawaited(hook: Hook, versions: Mapping[str, str]) -> str:
    """Why a root registered as ``hook`` cannot become ``async def`` at the project's ``versions``:
    a release they admit uses what it returns without awaiting it (UNAWAITED_RESULTS), in words
    naming the requirement and the releases; "" when every release they admit awaits it, or the
    version is unknown (taken as today's release)."""
    change = next((c for c in UNAWAITED_RESULTS if hook in c.hooks and _coverage(c, versions) != "none"), None)
    if change is None:
        return ""
    version = versions[change.distribution]
    if version[:1].isdigit():  # the project's exact release (pinned, locked or installed)
        return f"the project runs {change.distribution} {version}, where {change.how}"
    return f"the project's `{change.distribution}{version}` admits releases before {change.until}, where {change.how}"


def version_split(hook: Hook, versions: Mapping[str, str]) -> tuple[str, str]:
    """When the project's required range admits releases that run ``hook`` in a worker thread (or
    less often, RESCHEDULED_HOOKS) as well as releases that run it on the loop as ``hook``: the
    requirement (``verifiers>=0.1.0``) and the first release after those, the reading taken
    (``Facts.admitted``, ``Facts.assumed_from``); two empty strings otherwise."""
    for change in OFFLOADED_HOOKS:
        if hook in change.hooks and _coverage(change, versions) == "some":
            return f"{change.distribution}{versions[change.distribution]}", change.taken_from
    for moved in RESCHEDULED_HOOKS:
        if moved.hook is hook and _coverage(moved, versions) == "some":
            return f"{moved.distribution}{versions[moved.distribution]}", moved.until
    return "", ""


def served_apart(table: HookClass, versions: Mapping[str, str]) -> bool:
    """Do the project's ``versions`` serve ``table``'s instances in a process of their own? Only if
    every release they admit does (also when the version is unknown: today's releases do). A range
    admitting releases that ran them in process too is read as in process, the conservative reading
    (:func:`in_process_split` says so)."""
    if not table.own_process:
        return False
    distribution = table.package.partition(".")[0]
    if table.in_process is None or distribution not in versions:
        return True
    return coverage(versions[distribution], "0", table.in_process.until) == "none"


def in_process_split(table: HookClass | None, versions: Mapping[str, str]) -> tuple[str, str]:
    """When the project's required range admits releases serving ``table`` in a process of its own
    as well as releases running it in process: the requirement and the first release running it in
    process, the reading taken (``Facts.admitted``, ``Facts.assumed_from``); two empty strings
    otherwise."""
    distribution = table.package.partition(".")[0] if table is not None else ""
    if table is None or table.in_process is None or distribution not in versions:
        return "", ""
    if coverage(versions[distribution], "0", table.in_process.until) != "some":
        return "", ""
    return f"{distribution}{versions[distribution]}", table.in_process.since


def version_caveat(admitted: str, assumed_from: str) -> str:
    """Those two facts in words: what the releases the finding does not assume do instead."""
    served = next(
        (
            table.in_process
            for table in HOOK_CLASSES
            if table.in_process is not None
            and table.in_process.since == assumed_from
            and admitted.startswith(table.package.partition(".")[0])
        ),
        None,
    )
    if served is not None:
        return (
            f"the project's `{admitted}` also admits releases from {served.until} on,"
            f" where {served.how}: taken as in process, as in {served.since}"
        )
    moved = next(
        (c for c in RESCHEDULED_HOOKS if c.until == assumed_from and admitted.startswith(c.distribution)), None
    )
    if moved is not None:
        return (
            f"the project's `{admitted}` also admits releases from {moved.since} up to {moved.until},"
            f" where {moved.how}: taken as {moved.taken}, as from {moved.until} on"
        )
    change = next(
        (c for c in OFFLOADED_HOOKS if c.taken_from == assumed_from and admitted.startswith(c.distribution)), None
    )
    if change is None:
        return f"the project's `{admitted}` also admits releases before {assumed_from}: taken as from {assumed_from} on"
    if change.on_loop:
        return (
            f"the project's `{admitted}` also admits releases from {change.since} up to {change.until},"
            f" where {change.how}: taken as on the loop, as from {change.on_loop} up to {change.since}"
        )
    return (
        f"the project's `{admitted}` also admits releases before {change.until},"
        f" where {change.how}: taken as on the loop, as from {change.until} on"
    )


def client_holder(cls: str, slot: str) -> HandedClient | None:
    """The holder spec for ``slot`` of the class named ``cls`` (dotted), matched by its last name
    and its top-level package (a package may define a class in one module and export it from
    another); a verifiers class must be one of the hook tables' framework classes."""
    package, name = public_name(cls).partition(".")[0], cls.rpartition(".")[2]
    for holder in CLIENT_HOLDERS:
        if (holder.owner, holder.slot, holder.package) == (name, slot, package):
            if package != "verifiers" or framework_class(cls) is not None:
                return holder
    return None


@functools.cache
def framework_class(qualname: str) -> HookClass | None:
    """The hook table for an external base class name (``verifiers.envs.x.MultiTurnEnv``)."""
    package, _, name = public_name(qualname).rpartition(".")
    if not package.startswith("verifiers"):
        return None
    is_v1 = package == "verifiers.v1" or package.startswith("verifiers.v1.")
    for table in (*HOOK_CLASSES, *RETIRED_CLASSES):
        if name in table.names and (table.package == "verifiers.v1") == is_v1:
            return table
    return None


#: Attributes of ``self`` whose assignment registers callables (see :data:`ATTRIBUTE_SLOT`).
ATTRIBUTE_SLOTS: frozenset[str] = frozenset(
    registration.slot.removeprefix(ATTRIBUTE_SLOT)
    for registration in REGISTRATIONS
    if registration.slot.startswith(ATTRIBUTE_SLOT)
)
