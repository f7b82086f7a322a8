"""Agent benchmarks driven through their own synchronous harnesses: android_world, tau_bench,
tau2-bench, mini-swe-agent, AgentDojo, MCP-Universe (SWE-bench's harness has a pack of its own).

android_world's environment (``AsyncAndroidEnv``: "async" only in that it does not wait for the
screen to settle) talks to the emulator over gRPC and adb in the calling thread: every ``reset``,
``get_state`` and ``execute_action`` is a round trip to the device, and a task's
``initialize_task``/``is_successful``/``tear_down`` run adb commands on it. Its agents'
``Gpt4Wrapper.encode_image`` and ``m3a_utils.encode_image_for_html`` encode a whole screenshot as
JPEG and base64 it (``m3a_utils.add_ui_element_mark`` only draws one box and label: cheap). tau_bench's ``Env``
loads its domain's JSON data when it is built and again on every ``reset`` and
``calculate_reward``; ``reset`` and ``step`` of a reply to the user (an ``Action`` named
``RESPOND_ACTION_NAME``) ask the simulated user, a sync litellm ``completion``; ``step`` of a tool
action runs the tool over the data in memory, and is not reported when the action is known to
be one. tau2-bench (``tau2``) has no async API either: its ``UserSimulator`` and ``LLMAgent``
answer through ``generate``, a sync litellm ``completion``; ``evaluate_simulation`` builds the
domain environment three times (once for the tool types, then the predicted and the gold one in
``EnvironmentEvaluator``; twice at 337326e), each loading and validating the domain's whole
database file, replays the trajectory's tool calls into one and the gold actions into the other,
and hashes both databases (``json.dumps`` + sha256): retail's 2.8 MB ``db.json`` measured 0.34 s
per load and 0.26 s per hash on a loaded 2-core machine, about 1.5 s per call; telecom's is a
10 kB TOML. ``load_tasks`` (and ``get_tasks``, which calls it) asks the registry for the task
set's loader, which reads the whole set again every call: a domain's tasks JSON and its split
file, each task validated into a ``Task`` (banking_knowledge opens every ``task_*.json``).
``Environment.get_response`` runs one tool over the in-memory database and
``set_state`` replays a history's mutating tool calls (and re-validates the whole database when
handed ``initialization_data``): short CPU steps. mini-swe-agent's environments run
``docker``/``bash`` with ``subprocess.run`` (the constructor starts the container). AgentDojo's
``TaskSuite.load_and_inject_default_environment`` formats the suite's whole environment YAML
(read once, cached) with the injections, parses it and validates it into the suite's pydantic
environment on every call; an attack built by ``load_attack`` parses the injection vectors, and
its ``attack`` builds such an environment and runs the ground-truth pipeline over it (cached per
attack object only). Its ``TransformersBasedPIDetector.detect`` runs a transformers
text-classification model on the text in process. MCP-Universe's ``Task(path)`` reads and
validates the task's JSON file and builds an ``MCPManager``, whose constructor reads its server
list (``configs/server_list.json``) unless handed a dict. None of them has an async API
(MCP-Universe's ``evaluate`` and client builds are coroutines).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_ANDROID = "source: google-research/android_world@d9c569f (GitHub; not on PyPI)"
_TAU = "source: sierra-research/tau-bench@59a200c (GitHub; not on PyPI) tau_bench/envs/base.py, envs/user.py"
_MINISWE = "source: pkg mini-swe-agent 2.4.6 minisweagent/environments/"
_TAU2 = "source: sierra-research/tau2-bench@58e5e1a and @337326e (GitHub; the PyPI name `tau2` is another project)"
_AGENTDOJO = "source: pkg agentdojo 0.1.35"
#: The module attributes each tau2 domain's ``get_environment`` calls (``from tau2.utils import
#: load_file`` binds telecom's own name: a project replacing it patches that module).
_TAU2_POLICY_READERS = {"telecom": frozenset({"tau2.domains.telecom.environment.load_file"})}
#: What ``evaluate_simulation`` costs when its evaluation type asks an LLM judge (see ``heavier``).
_TAU2_NL_EVALUATION = "tau2.evaluator.evaluator.evaluate_simulation[nl_assertions]"
_MCPUNIVERSE = "source: pkg mcpuniverse 1.1.3"
_TAU2_TASKS = (
    f"{_TAU2} src/tau2/runner/helpers.py (load_tasks: registry.get_tasks_loader(name)(task_split_name); "
    "get_tasks calls it), run.py and runner/__init__.py re-export both; domains/*/environment.py "
    "(get_tasks: load_file of the tasks JSON and its split file, Task.model_validate per task; "
    "banking_knowledge: open + json.load + model_validate of every tasks/task_*.json)"
)
#: What ``Action(name=RESPOND_ACTION_NAME, ...)`` builds (see BUILT).
TAU_RESPOND = "tau_bench.types.Action[respond]"
#: What ``Env.step`` of any other action does: the tool runs over the domain's in-memory data.
_TAU_TOOL_STEP = "tau_bench.Env.step[tool]"
_TAU_DOMAINS = ("retail.MockRetailDomainEnv", "airline.MockAirlineDomainEnv")

APIS: tuple[BlockingApi, ...] = (
    entry(
        "android_world.env.interface.AsyncEnv.**",
        "sdk",
        "network",
        "to-thread",
        frozenset(),
        f"{_ANDROID} android_world/env/interface.py (AsyncAndroidEnv: controller.step/reset over gRPC, adb)",
    ),
    *many(
        "sdk",
        "network",
        "to-thread",
        "initialize_task is_successful tear_down",
        "android_world.task_evals.task_eval.TaskEval.",
        source=f"{_ANDROID} android_world/task_evals/task_eval.py (adb_utils on env.controller)",
    ),
    *many(
        "sdk",
        "network",
        "to-thread",
        "load_and_setup_env setup_env",
        "android_world.env.env_launcher.",
        source=f"{_ANDROID} android_world/env/env_launcher.py",
    ),
    # A screenshot (a full-resolution device frame) encoded as JPEG (by PIL or cv2), then base64.
    *many(
        "cpu",
        "cpu-heavy",
        "process-pool",
        "encode_image",
        "android_world.agents.infer.Gpt4Wrapper.",
        source=f"{_ANDROID} android_world/agents/infer.py (Image.fromarray(...).save(JPEG), b64encode)",
    ),
    *many(
        "cpu",
        "cpu-heavy",
        "process-pool",
        "encode_image_for_html",
        "android_world.agents.m3a_utils.",
        source=f"{_ANDROID} android_world/agents/m3a_utils.py (cv2.cvtColor, cv2.imencode('.jpeg'), b64encode)",
    ),
    # The simulated user answers through litellm.completion (sync) on reset and on a reply.
    entry("tau_bench.Env.reset", "llm", "network", "to-thread", frozenset(), _TAU),
    # ``step`` asks the user only for a ``respond`` action; a tool action runs the tool over the
    # in-memory data (a terminating tool also computes the reward, once per rollout).
    entry(
        "tau_bench.Env.step",
        "llm",
        "network",
        "to-thread",
        frozenset(),
        f"{_TAU} (step: user.step only when action.name == RESPOND_ACTION_NAME, else tools_map[name].invoke)",
        blocks_on=frozenset({TAU_RESPOND}),
        otherwise=_TAU_TOOL_STEP,
    ),
    entry(_TAU_TOOL_STEP, "cpu", "cpu-light", None, frozenset(), f"{_TAU} (step: tools_map[name].invoke(data))"),
    # Reloads the domain's JSON data, replays the expected actions and hashes both databases.
    entry(
        "tau_bench.Env.calculate_reward",
        "fs",
        "disk-content",
        "to-thread",
        frozenset(),
        f"{_TAU} (calculate_reward: data_load_func(), step() per action, get_data_hash)",
    ),
    *(
        entry(
            f"tau_bench.envs.{domain}",
            "fs",
            "disk-content",
            "to-thread",
            frozenset(),
            f"{_TAU}, envs/{domain.partition('.')[0]}/data/__init__.py (load_data: json.load of the domain's files)",
        )
        for domain in _TAU_DOMAINS
    ),
    entry(
        "tau_bench.envs.get_env",
        "fs",
        "disk-content",
        "to-thread",
        frozenset(),
        f"{_TAU}, envs/__init__.py (get_env builds a domain env)",
    ),
    *(
        entry(
            f"minisweagent.environments.{env}.execute",
            "subprocess",
            "child-process",
            "to-thread",
            frozenset(),
            f"{_MINISWE}{env.partition('.')[0]}.py (execute: subprocess.run)",
        )
        for env in ("docker.DockerEnvironment", "local.LocalEnvironment", "singularity.SingularityEnvironment")
    ),
    *(
        entry(
            f"minisweagent.environments.{env}",
            "subprocess",
            "child-process",
            "to-thread",
            frozenset(),
            f"{_MINISWE}{env.partition('.')[0]}.py (__init__ starts the container with subprocess.run)",
        )
        for env in ("docker.DockerEnvironment", "singularity.SingularityEnvironment")
    ),
    *(
        entry(
            pattern,
            "llm",
            "network",
            "to-thread",
            frozenset(),
            f"{_TAU2} src/tau2/{path} (generate_next_message -> utils/llm_utils.py generate: litellm.completion)",
        )
        for pattern, path in (
            ("tau2.user.user_simulator.UserSimulator.generate_next_message", "user/user_simulator.py"),
            ("tau2.agent.llm_agent.LLMAgent.generate_next_message", "agent/llm_agent.py"),
            ("tau2.utils.llm_utils.generate", "utils/llm_utils.py"),
        )
    ),
    # Each domain's environment factory loads and validates the domain's database file (retail's
    # 2.8 MB db.json: ~0.34 s) unless handed one, and reads its policy file(s) every call.
    *(
        entry(
            f"tau2.domains.{domain}.environment.get_environment",
            "fs",
            "disk-content",
            "to-thread",
            frozenset(),
            f"{_TAU2} src/tau2/domains/{domain}/environment.py (get_environment: <Domain>DB.load(<DOMAIN>_DB_PATH) "
            "when db is None, open/load_file of the policy)",
            calls_attributes=_TAU2_POLICY_READERS.get(domain, frozenset()),
        )
        for domain in ("airline", "retail", "telecom")
    ),
    # Re-exported as tau2.utils.load_file (utils/__init__.py).
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "utils.load_file utils.io_utils.load_file",
        "tau2.",
        source=f"{_TAU2} src/tau2/utils/io_utils.py (load_file: open, then json/yaml/toml load or read of the "
        "whole file)",
    ),
    # The registry's task loader for a task set: every call reads and validates the whole set again.
    # Defined in runner/helpers.py, re-exported by runner/__init__.py and run.py.
    *(
        api
        for module in ("run", "runner", "runner.helpers")
        for api in many(
            "fs",
            "disk-content",
            "to-thread",
            "load_tasks get_tasks",
            f"tau2.{module}.",
            source=_TAU2_TASKS,
        )
    ),
    # Each domain's own task loader (what the registry hands load_tasks): the tasks file and its
    # split file read, every task validated; telecom's reads through its module's load_file.
    *(
        entry(
            f"tau2.domains.{domain}.environment.{name}",
            "fs",
            "disk-content",
            "to-thread",
            frozenset(),
            f"{_TAU2} src/tau2/domains/{domain}/environment.py ({name}: the task set read by load_file, or "
            "banking_knowledge's open + json.load of every tasks/task_*.json; Task.model_validate per task; the "
            "split file)",
            calls_attributes=_TAU2_POLICY_READERS.get(domain, frozenset()),
        )
        for domain in ("airline", "retail", "telecom", "banking_knowledge", "mock")
        for name in ("get_tasks", "load_tasks")
        if name == "get_tasks" or domain == "telecom"
    ),
    # Loads and validates the domain's whole database three times, replays the trajectory and the
    # gold actions, hashes both databases: as large as the domain's data (retail: ~1.5 s), the
    # same for any trajectory, so not graded by what it is handed.
    entry(
        "tau2.evaluator.evaluator.evaluate_simulation",
        "fs",
        "environment-rebuild",
        "to-thread",
        frozenset(),
        f"{_TAU2} src/tau2/evaluator/evaluator.py (registry.get_env_constructor(domain)(...) for the tool types), "
        "evaluator_env.py (EnvironmentEvaluator.calculate_reward: environment_constructor() twice, set_state, "
        "make_tool_call per gold action, get_db_hash)",
        # EvaluationType is a ``str`` Enum (evaluator.py:12-18): a member or its value written out.
        heavier_with=frozenset(
            f"{slot}={member}"
            for slot in ("evaluation_type", "2")
            for member in ("NL_ASSERTIONS", "ALL_WITH_NL_ASSERTIONS", "'nl_assertions'", "'all_with_nl_assertions'")
        ),
        heavier=_TAU2_NL_EVALUATION,
        # registry.get_env_constructor(domain) builds telecom's environments through get_environment.
        calls_attributes=_TAU2_POLICY_READERS["telecom"],
    ),
    entry(
        _TAU2_NL_EVALUATION,
        "llm",
        "network",
        "to-thread",
        frozenset(),
        f"{_TAU2} src/tau2/evaluator/evaluator.py (NL_ASSERTIONS and ALL_WITH_NL_ASSERTIONS run "
        "NLAssertionsEvaluator.calculate_reward), evaluator_nl_assertions.py (evaluate_nl_assertions: "
        "utils/llm_utils.py generate, a litellm.completion)",
    ),
    *many(
        "cpu",
        "cpu-light",
        "to-thread",
        "get_response set_state",
        "tau2.environment.environment.Environment.",
        source=f"{_TAU2} src/tau2/environment/environment.py (get_response: make_tool_call over the in-memory "
        "db, to_json_str; set_state: replays the history's mutating tool calls, update_db re-validates "
        "the db when handed initialization_data)",
    ),
    # Not a cached list: each call converts every tool method again.
    *many(
        "cpu",
        "cpu-heavy",
        "to-thread",
        "get_tools get_user_tools",
        "tau2.environment.environment.Environment.",
        source=f"{_TAU2} src/tau2/environment/environment.py (get_tools: self.tools.get_tools()), toolkit.py "
        "(ToolKitBase.get_tools: as_tool per tool method), tool.py (as_tool: docstring_parser.parse of the "
        "docstring, pydantic create_model for the parameters and the return)",
    ),
    entry(
        "agentdojo.task_suite.task_suite.TaskSuite.load_and_inject_default_environment",
        "serialization",
        "payload-whole",
        "to-thread",
        frozenset(),
        f"{_AGENTDOJO} agentdojo/task_suite/task_suite.py (environment.yaml formatted, yaml.safe_load, model_validate)",
    ),
    entry(
        "agentdojo.attacks.attack_registry.load_attack",
        "serialization",
        "payload-whole",
        "to-thread",
        frozenset(),
        f"{_AGENTDOJO} agentdojo/attacks/base_attacks.py (BaseAttack.__init__: get_injection_vector_defaults parses "
        "injection_vectors.yaml)",
    ),
    entry(
        "agentdojo.attacks.base_attacks.BaseAttack.attack",
        "serialization",
        "payload-whole",
        "to-thread",
        frozenset(),
        f"{_AGENTDOJO} agentdojo/attacks/base_attacks.py (get_injection_candidates: "
        "load_and_inject_default_environment, GroundTruthPipeline.query; lru_cache on the attack object)",
    ),
    entry(
        "mcpuniverse.benchmark.task.Task",
        "fs",
        "disk-content",
        "to-thread",
        frozenset(),
        f"{_MCPUNIVERSE} mcpuniverse/benchmark/task.py (Task.__init__: open(config).read(), model_validate, "
        "MCPManager(...))",
    ),
    entry(
        "mcpuniverse.mcp.manager.MCPManager",
        "fs",
        "disk-content",
        "to-thread",
        frozenset(),
        f"{_MCPUNIVERSE} mcpuniverse/mcp/manager.py (MCPManager.__init__ -> load_configs: reads server_list.json)",
    ),
    # transformers' pipeline runs torch, which releases the GIL: a worker thread really frees the loop
    # (graded as the local_models pack grades a pipeline's call).
    entry(
        "agentdojo.agent_pipeline.pi_detector.TransformersBasedPIDetector.detect",
        "cpu",
        "model-inference",
        "to-thread",
        frozenset(),
        f"{_AGENTDOJO} agentdojo/agent_pipeline/pi_detector.py "
        "(self.pipeline(tool_output): transformers text-classification)",
    ),
)

RETURNS: dict[str, str] = {
    **{
        f"agentdojo.task_suite.{module}get_suite()": "agentdojo.task_suite.task_suite.TaskSuite"
        for module in ("", "load_suites.")
    },
    "agentdojo.task_suite.TaskSuite": "agentdojo.task_suite.task_suite.TaskSuite",
    "agentdojo.attacks.attack_registry.load_attack()": "agentdojo.attacks.base_attacks.BaseAttack",
    "agentdojo.attacks.load_attack()": "agentdojo.attacks.base_attacks.BaseAttack",
    "android_world.env.interface.AsyncAndroidEnv": "android_world.env.interface.AsyncEnv",
    "android_world.env.env_launcher.load_and_setup_env()": "android_world.env.interface.AsyncEnv",
    # Each domain's get_environment() returns a tau2 Environment (src/tau2/domains/<domain>/environment.py).
    **{
        f"tau2.domains.{domain}.environment.get_environment()": "tau2.environment.environment.Environment"
        for domain in ("airline", "retail", "telecom", "mock")
    },
    # Registry.get_env_constructor(name) -> Callable[[], Environment] (src/tau2/registry.py).
    "tau2.registry.registry.get_env_constructor()()": "tau2.environment.environment.Environment",
    "tau_bench.envs.base.Env": "tau_bench.Env",
    "tau_bench.envs.get_env()": "tau_bench.Env",
    **{f"tau_bench.envs.{domain}()": "tau_bench.Env" for domain in _TAU_DOMAINS},
    # The domain packages re-export their env (tau_bench/envs/retail/__init__.py).
    **{
        f"tau_bench.envs.{domain.partition('.')[0]}.env.{domain.partition('.')[2]}": f"tau_bench.envs.{domain}"
        for domain in _TAU_DOMAINS
    },
}

BUILT: dict[str, tuple[str, int | None, dict[str, str]]] = {
    "tau_bench.types.Action": (
        "name",
        None,
        {"tau_bench.types.RESPOND_ACTION_NAME": TAU_RESPOND, "'respond'": TAU_RESPOND},
    ),
}
