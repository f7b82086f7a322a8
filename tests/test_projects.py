"""Multi-file project specifications: framework-aware hot paths across modules.

Each directory under ``tests/fixtures/projects/`` is a small but realistic ``verifiers``
environment package (``v0_env``: the classic API; ``v1_env``: ``verifiers.v1``; ``values_env``:
values defined in other modules, and properties of the project's classes read through an
attribute; ``side_envs``: two environments side by side, each with its own ``utils.py``;
``flat_env``: a package whose modules import their siblings by bare names; ``adapter_env``: an
adapter package named after its framework (``integrations/verifiers/``), whose ``import verifiers``
is the framework's while its siblings are still its own by their bare names; ``exported_rewards``: a
library whose integration modules export reward factories no project code calls (documented in a
docstring's example, or in a module importing the framework), the returned rewards run per rollout;
near misses: a factory not documented in a module without the framework, one returning a non-reward,
a private one, and one the project calls for offline grading;
``registrations_env``: callables registered in every shape (and a class a gym runner drives);
``registry_env``: games registered with gymnasium and TextArena by id and made by the id elsewhere;
``unnamed_env``: helper coroutines (and methods of classes no library base reaches) the environment
names or never names, objects it hands to libraries (which call their methods by name) or to its own
code, and a method only its tests name; ``named_tools_env``: tools forwarding to an API object's methods by
the tool's name (``getattr(api, name)(**kwargs)``), the object built by callables a registry dataclass holds;
``followed_env``:
offenders reached through helpers whose returns differ, dispatch tables, abstract methods,
receivers declared a base class or a protocol, or read from a TypedDict's field, ``self.tools``, and
classes based on the framework module a helper is handed, a model kept on ``self`` handed to a module helper,
rewards an exporter wraps (verifiers imported by a helper, an annotated list, a counted loop), and a factory
handed to a ``Callable[[], Task]`` parameter (one of the same shape nobody hands stays cold), a judge kept
on a rubric nobody builds (a ``Callable`` alias its maker is declared to return) copied with the rubric's
list, and a client a provider builds unless one was passed (``client: Any``);
``script_env``: offline scripts beside an environment;
``service_env``: a render service and a trainer the environment never imports; ``shadowed_env``: a
module beside the package of the same name that loads it by its path and re-exports its names (each
file's own names are its definitions); ``rlm_env``:
verifiers 0.1.x's ``RLMEnv`` with tools in its three slots and a tool mixin typed by its subclasses;
``callback_env``: bound methods and plain functions a constructor stores and calls back, and a library REPL running a
subclass's overrides from the code it executes; ``desktop_env``: tools handed to ``vf.ToolEnv`` by a
loader not named ``load_environment``, reaching an e2b desktop controller through a lazily built
module-level toolkit and a ``core.control`` import through the directory put on ``sys.path``, one
action through a dispatch table of the sandbox's bound methods (near
misses: a method the sandbox class lacks, a URL built locally, a project ``email/utils.py`` that
``email.utils`` never means); ``search_env``:
metrics searching over moves with the project's own simulator, split across modules; ``v1_runtime_env``:
verifiers 0.1.14's v1 API, whose ``Toolset``, ``Taskset`` and ``Harness`` take the tools and handlers
their ``Runtime`` runs in process, a toolset's object factories as often as its ``scope=``/``write=``
say, whether handed as keywords or in a ``config=`` mapping), ``v1_toolset_pinned`` and
``v1_toolset_server``: one ``Toolset`` subclass, run in process by verifiers 0.1.14 and served in a
process of its own from 0.2.0 (the project's pin tells them apart), ``v1_shared_server``: a shared
toolset on verifiers 0.4, whose server runs a sync tool handed to it in a worker thread, ``ns_env``: a PEP 420
namespace package (no ``__init__.py``) beside its ``pyproject.toml``, whose modules import each
other by the package's name and relatively, ``warm_env``: memoized case files that ``Env.start``
fills through helpers, with the rollouts' arguments or others (``Taskset.load`` fills none: a served
worker never runs it), or a generic asyncio service (``asyncio_app``). As in the single-file
fixtures, a line that must be flagged ends with ``# expect: CODE severity`` and every
other line is clean on purpose. Here the whole package is checked as one project, with module
names from the package layout, so the expectations also pin down:

- which framework methods, decorated functions and registered callables are hot roots, through
  subclasses of subclasses in other modules and helpers imported in every usual way;
- the grade: the rule's own, raised one level (never more) when the call is in a loop or its
  root runs per turn, per tool call, or is a sync reward/metric run back to back for a group;
- what stays cold (``__init__``, ``load_environment``, teardown, ``Env.start``/``stop``,
  ``Taskset.load``, offloaded functions, plain classes that only share a hook's name, tests,
  sandbox scripts, v1 tools, coroutines awaited only from cold code or run by ``asyncio.run``), and
  the memoized code start-up runs first, at any depth, with the arguments the rollouts pass;
- what a generic asyncio program runs on its loop: handlers the server awaits, coroutines started
  as tasks (even by a cold ``main``), loop callbacks -- and not what it hands to threads;
- ``ASL103`` where a reward calls the judge of a ``JudgeRubric(judge_client=...)`` handed a sync
  client (``judges_env``: used, never used, through the client, a subclass, by parameter), or of any
  ``JudgeRubric`` when the project pins verifiers 0.1.2, whose ``judge`` is sync (``judges_old``), ``ASL201`` (sync v1
  reward/metric/setup/finalize) and ``ASL202`` (``async def update_tool_args``).
"""

from __future__ import annotations

import functools
import json
import random
import shutil
from pathlib import Path

import jsonschema
import pytest
from conftest import expectations, run as run_cli

from asynclint import baseline
from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.knowledge.frameworks import VERSIONED_DISTRIBUTIONS
from asynclint.knowledge.versions import admitted
from asynclint.libraries import Installed, declared, declared_packages, eval_settings, project_versions
from asynclint.model import ChainLink, Finding, RelatedLocation, Result
from asynclint.module_names import module_names
from asynclint.pipeline import check_sources
from asynclint.pool import PARALLEL_THRESHOLD
from asynclint.report.json_report import render_json
from asynclint.report.sarif import render_sarif
from asynclint.runner import run_check

PROJECTS = Path(__file__).parent / "fixtures" / "projects"

Entry = tuple[str, int, str, str]  # (path relative to PROJECTS, line, code, severity label)

#: Every code the two projects together must exercise.
REQUIRED_CODES = frozenset({f"ASL{n}" for n in range(101, 113)} | {"ASL201", "ASL202"})


def project_dirs() -> list[Path]:
    return sorted(path for path in PROJECTS.iterdir() if path.is_dir() and not path.name.startswith((".", "_")))


def load_sources(project: Path) -> list[SourceFile]:
    """Every module of ``project``, named from the package layout as a check of the project names
    them (the project is its root), shown relative to PROJECTS."""
    paths = [path for path in sorted(project.rglob("*.py")) if "__pycache__" not in path.parts]
    names = module_names(paths, project_root=project)
    return [
        SourceFile(
            path.relative_to(PROJECTS).as_posix(),
            path.read_text(encoding="utf-8"),
            names[path].module,
            names[path].package,
            names[path].imports,
        )
        for path in paths
    ]


def run(project: Path, sources: list[SourceFile] | None = None) -> Result:
    """``project`` checked as it is on disk (checked once: several tests read the same
    project's result, a frozen record), or the given ``sources`` under its settings."""
    return _checked(project) if sources is None else _check(project, sources)


@functools.cache
def _checked(project: Path) -> Result:
    return _check(project, load_sources(project))


def _check(project: Path, sources: list[SourceFile]) -> Result:
    # The framework's version comes from the project's pins, as the runner reads it (judges_old).
    pyproject = project / "pyproject.toml"
    config = Config(
        root=project,
        framework_versions=project_versions(pyproject, VERSIONED_DISTRIBUTIONS, None),
        declared_packages=declared_packages(pyproject),
    )
    result = check_sources(sources, config)
    assert not result.errors, result.errors
    return result


def expected_entries(sources: list[SourceFile]) -> set[Entry]:
    return {(s.path, line, code, severity) for s in sources for line, code, severity in expectations(s.text)}


def entry(finding: Finding) -> Entry:
    return (finding.path, finding.line, finding.code, finding.severity.label)


def describe(entries: set[Entry], texts: dict[str, str], messages: dict[Entry, str]) -> str:
    rows = []
    for item in sorted(entries):
        path, line, code, severity = item
        rows.append(f"  {path}:{line}: {code} {severity}    | {texts[path].splitlines()[line - 1].strip()}")
        if item in messages:
            rows.append(f"      {messages[item]}")
    return "\n".join(rows)


def line_of(path: str, needle: str) -> int:
    """The one line of ``PROJECTS/path`` that contains ``needle``."""
    lines = (PROJECTS / path).read_text(encoding="utf-8").splitlines()
    hits = [number for number, text in enumerate(lines, start=1) if needle in text]
    assert len(hits) == 1, f"{path}: {needle!r} found on lines {hits}, want exactly one"
    return hits[0]


def place_of(path: str, needle: str, written: str | None = None) -> tuple[int, int]:
    """(line, 1-based column) of ``written`` (default: ``needle``) on the one line of
    ``PROJECTS/path`` that contains ``needle``."""
    line = line_of(path, needle)
    text = (PROJECTS / path).read_text(encoding="utf-8").splitlines()[line - 1]
    return line, text.index(written or needle) + 1


def finding_at(result: Result, path: str, line: int, code: str) -> Finding:
    found = [f for f in result.findings if (f.path, f.line, f.code) == (path, line, code)]
    assert len(found) == 1, (
        f"want one {code} at {path}:{line}, got {[entry(f) for f in result.findings if f.path == path]}"
    )
    return found[0]


PROJECT_PARAMS = [pytest.param(path, id=path.name) for path in project_dirs()]
V0 = PROJECTS / "v0_env"
V1 = PROJECTS / "v1_env"


def test_both_projects_are_there() -> None:
    assert [p.name for p in project_dirs()] == [
        "adapter_env",
        "asyncio_app",
        "callback_env",
        "desktop_env",
        "dispatch_env",
        "exported_rewards",
        "fallback_env",
        "flat_env",
        "followed_env",
        "judges_env",
        "judges_old",
        "named_tools_env",
        "ns_env",
        "registrations_env",
        "registry_env",
        "rewards_awaited",
        "rewards_interleaved",
        "rewards_threaded",
        "rewards_unawaited",
        "rlm_env",
        "script_env",
        "search_env",
        "service_env",
        "shadowed_env",
        "side_envs",
        "unnamed_env",
        "v0_env",
        "v1_env",
        "v1_runtime_env",
        "v1_shared_server",
        "v1_tools",
        "v1_toolset_pinned",
        "v1_toolset_server",
        "values_env",
        "warm_env",
    ]


@pytest.mark.parametrize("project", PROJECT_PARAMS)
def test_project_sources_compile(project: Path) -> None:
    for source in load_sources(project):
        compile(source.text, source.path, "exec")


@pytest.mark.parametrize("project", PROJECT_PARAMS)
def test_project_findings_match_expectations(project: Path) -> None:
    sources = load_sources(project)
    expected = expected_entries(sources)
    findings = run(project, sources).findings
    actual = {entry(f) for f in findings}
    if actual != expected:
        texts = {s.path: s.text for s in sources}
        messages = {entry(f): f.message for f in findings}
        report = [f"{project.name}: findings differ from the # expect: comments"]
        if expected - actual:
            report += ["missing (expected, not reported):", describe(expected - actual, texts, {})]
        if actual - expected:
            report += ["unexpected (reported, not expected):", describe(actual - expected, texts, messages)]
        pytest.fail("\n".join(report), pytrace=False)


def test_projects_exercise_every_rule() -> None:
    codes = {code for project in project_dirs() for _, _, code, _ in expected_entries(load_sources(project))}
    assert REQUIRED_CODES <= codes, f"no '# expect:' line for {sorted(REQUIRED_CODES - codes)}"


# -- chains -------------------------------------------------------------------------------------


def test_chain_sync_reward_registered_through_a_list_variable_into_a_helper_module() -> None:
    """(a) ``funcs = [exact_answer, cites_source]; vf.Rubric(funcs=funcs)``: the sync reward
    calls ``load_doc`` from ``helpers/io.py``, which opens and parses a file (one finding, at the
    open, naming the parse)."""
    result = run(V0)
    rewards, io = "v0_env/rewards.py", "v0_env/helpers/io.py"
    root = ChainLink(rewards, line_of(rewards, "def cites_source("), "cites_source")
    call = ChainLink(rewards, line_of(rewards, 'doc = load_doc(info["doc_path"])'), "cites_source")
    line = line_of(io, "# expect: ASL107 critical")
    finding = finding_at(result, io, line, "ASL107")
    assert finding.chain == (root, call, ChainLink(io, line, "load_doc")), finding.chain
    assert finding.severity.label == "critical"
    assert finding.facts.folded == (f"json.load:{line_of(io, 'return json.load(f)')}",)


def test_chain_env_response_of_a_subclass_of_a_subclass_into_an_inherited_helper() -> None:
    """(b) ``QAEnv(BaseQAEnv)``, ``BaseQAEnv(vf.MultiTurnEnv)`` in another module:
    ``QAEnv.env_response`` calls ``self.passage()``, defined in ``BaseQAEnv``."""
    result = run(V0)
    env, base = "v0_env/env.py", "v0_env/base.py"
    line = line_of(base, "# expect: ASL107 high")
    finding = finding_at(result, base, line, "ASL107")
    assert finding.chain == (
        ChainLink(env, line_of(env, "async def env_response(self, messages: vf.Messages"), "QAEnv.env_response"),
        ChainLink(env, line_of(env, "text = self.passage(doc_id)"), "QAEnv.env_response"),
        ChainLink(base, line, "BaseQAEnv.passage"),
    ), finding.chain


def test_chain_v1_reward_method() -> None:
    """(c) A ``@vf.reward`` method of a ``vf.Task`` subclass: the chain starts at its ``def``
    line (not the decorator's) and ends at the blocking call."""
    result = run(V1)
    tasks = "v1_env/tasks.py"
    line = line_of(tasks, "# expect: ASL106 critical")
    finding = finding_at(result, tasks, line, "ASL106")
    assert finding.chain == (
        ChainLink(tasks, line_of(tasks, "async def tests_pass("), "RepairTask.tests_pass"),
        ChainLink(tasks, line, "RepairTask.tests_pass"),
    ), finding.chain


def test_chain_self_call_dispatches_to_the_override_in_a_subclass_module() -> None:
    """(d) ``GameEnv.env_response`` calls ``self.step(...)``; ``GameEnv.step`` only raises, and
    ``ChessEnv(GameEnv)``, in another module, overrides it with a child process per move."""
    result = run(V0)
    base, chess = "v0_env/games/base.py", "v0_env/games/chess.py"
    line = line_of(chess, "# expect: ASL106 critical")
    finding = finding_at(result, chess, line, "ASL106")
    assert finding.chain == (
        ChainLink(base, line_of(base, "async def env_response("), "GameEnv.env_response"),
        ChainLink(base, line_of(base, "observation = self.step("), "GameEnv.env_response"),
        ChainLink(chess, line, "ChessEnv.step"),
    ), finding.chain
    assert finding.severity.label == "critical"
    assert "in `ChessEnv.step`, called from per-turn hook `GameEnv.env_response`" in finding.message


def test_chain_helper_three_calls_deep() -> None:
    """(e) ``setup_state`` -> ``prepare_workspace`` -> ``_populate`` -> ``_copy_template``."""
    result = run(V0)
    base, workspace = "v0_env/base.py", "v0_env/helpers/workspace.py"
    line = line_of(workspace, "# expect: ASL109 high")
    finding = finding_at(result, workspace, line, "ASL109")
    assert finding.chain == (
        ChainLink(base, line_of(base, "async def setup_state("), "BaseQAEnv.setup_state"),
        ChainLink(base, line_of(base, 'prepare_workspace(state["workdir"])'), "BaseQAEnv.setup_state"),
        ChainLink(workspace, line_of(workspace, "    _populate(Path(workdir))"), "prepare_workspace"),
        ChainLink(workspace, line_of(workspace, "    _copy_template(workdir)"), "_populate"),
        ChainLink(workspace, line, "_copy_template"),
    ), finding.chain
    assert "via `prepare_workspace` → `_populate`" in finding.message


def test_chain_of_a_helper_called_from_a_cold_and_a_hot_function_starts_at_the_hot_one() -> None:
    """(f) ``read_manifest`` is called by ``load_environment`` (cold) and ``setup_state`` (hot)."""
    result = run(V0)
    base, workspace = "v0_env/base.py", "v0_env/helpers/workspace.py"
    line = line_of(workspace, "# expect: ASL107 high")
    finding = finding_at(result, workspace, line, "ASL107")
    assert finding.chain == (
        ChainLink(base, line_of(base, "async def setup_state("), "BaseQAEnv.setup_state"),
        ChainLink(base, line_of(base, "read_manifest(os.path.join"), "BaseQAEnv.setup_state"),
        ChainLink(workspace, line, "read_manifest"),
    ), finding.chain


def test_chain_of_a_callable_handed_through_a_relay_shows_the_hand_over() -> None:
    """``_slow_check`` is handed to ``_relay``, which hands its parameter on to ``_apply``, which
    calls it; ``_apply``'s other caller (cold) hands it something else."""
    result = run(PROJECTS / "followed_env")
    handed = "followed_env/followed_env/handed.py"
    line = line_of(handed, "def _slow_check(") + 1
    finding = finding_at(result, handed, line, "ASL101")
    assert finding.chain == (
        ChainLink(handed, line_of(handed, "async def env_response("), "HandedEnv.env_response"),
        ChainLink(handed, line_of(handed, "ok = _relay(_slow_check, text)"), "HandedEnv.env_response"),
        ChainLink(handed, line_of(handed, "    return _apply(check, text)"), "_relay"),
        ChainLink(handed, line_of(handed, "    return check(text)"), "_apply"),
        ChainLink(handed, line, "_slow_check"),
    ), finding.chain


def test_chain_of_an_awaited_coroutine_starts_at_the_hook_awaiting_it() -> None:
    """(g) ``drain`` is started with ``asyncio.create_task`` by ``main`` (itself cold, run by
    ``asyncio.run``) and awaits ``store``: the task is the root, named with who started it."""
    result = run(PROJECTS / "asyncio_app")
    workers, main = "asyncio_app/app/workers.py", "asyncio_app/app/main.py"
    line = line_of(workers, "# expect: ASL108 high")
    finding = finding_at(result, workers, line, "ASL108")
    assert finding.chain == (
        ChainLink(workers, line_of(workers, "async def drain("), "drain"),
        ChainLink(workers, line_of(workers, "await store(item)"), "drain"),
        ChainLink(workers, line, "store"),
    ), finding.chain
    assert "called from asyncio task `drain`, started with `asyncio.create_task(...)` in `main`" in finding.message
    assert not [f for f in result.findings if f.path == main]


def test_side_by_side_environments_keep_their_own_modules() -> None:
    """(h) env_a/utils.py and env_b/utils.py are both the top-level module ``utils``: each
    environment's ``from utils import ...`` means its own, and neither file is dropped."""
    sources = load_sources(PROJECTS / "side_envs")
    modules = {s.path.rpartition("/side_envs/")[2] or s.path: s.module for s in sources}
    assert modules == {
        "side_envs/environments/env_a/env_a.py": "env_a",
        "side_envs/environments/env_a/utils.py": "utils@env_a",
        "side_envs/environments/env_b/env_b.py": "env_b",
        "side_envs/environments/env_b/utils.py": "utils@env_b",
    }
    result = run(PROJECTS / "side_envs", sources)
    utils_b, env_b = "side_envs/environments/env_b/utils.py", "side_envs/environments/env_b/env_b.py"
    (finding,) = result.findings
    assert finding.chain == (
        ChainLink(env_b, line_of(env_b, "async def setup_state("), "BEnv.setup_state"),
        ChainLink(env_b, line_of(env_b, 'cleanup(state["workdir"])'), "BEnv.setup_state"),
        ChainLink(utils_b, line_of(utils_b, "# expect: ASL109 high"), "cleanup"),
    )


# -- messages -----------------------------------------------------------------------------------

Words = tuple[str | tuple[str, ...], ...]  # every item must appear; a tuple item: one of its words

V1RT = "v1_runtime_env/v1_runtime_env/"
V1TP = "v1_toolset_pinned/v1_toolset_pinned/"

#: For each hot root (path, qualname): the words its findings' messages must contain, after
#: lower-casing, turning hyphens into spaces and dropping backticks. They name the kind of root
#: and, where it matters for the grade, how often it runs.
ROOT_KINDS: dict[tuple[str, str], Words] = {
    ("callback_env/callback_env/env.py", "CallbackEnv.env_response"): ("env_response", "per turn"),
    # rlm's REPL built per rollout: its constructor writes the context to a file and reads it back
    ("callback_env/callback_env/env.py", "CallbackEnv.setup_state"): ("setup_state", "per rollout"),
    ("judges_env/judges_env/env.py", "load_environment.<locals>.judged"): ("reward function", "judge_client"),
    ("judges_env/judges_env/env.py", "load_environment.<locals>.asks_the_client"): ("reward function", "judge_client"),
    ("judges_env/judges_env/env.py", "load_environment.<locals>.judged_by_bound"): ("reward function", "judge_client"),
    ("judges_env/judges_env/rubrics.py", "GradingRubric.correct"): ("reward function", "judge_client"),
    ("judges_env/judges_env/rubrics.py", "KeptRubric.kept"): ("reward function", "judge_client"),
    ("judges_env/judges_env/rubrics.py", "SwitchedRubric.switched"): ("reward function", "judge_client"),
    ("judges_env/judges_env/rubrics.py", "by_name"): ("reward function", "judge_client"),
    # The framework runs the method of the object handed the client itself: the hand-over stands for it.
    ("judges_env/judges_env/pairwise.py", "PairwiseJudgeRubric.score_rollouts"): (
        "per group rubric method",
        "runs itself",
        "override score_rollouts",
    ),
    ("judges_old/judges_old/rubrics.py", "StrictRubric.strict"): (
        "sync reward function",
        "verifiers 0.1.2",
        ">= 0.1.3",
    ),
    ("judges_old/judges_old/env.py", "load_environment.<locals>.judged"): ("sync reward function", "verifiers 0.1.2"),
    ("judges_old/judges_old/env.py", "load_environment.<locals>.judged_handed"): (
        "sync reward function",
        "judge_client",
    ),
    ("values_env/values_env/judges.py", "StrictJudge.graded"): ("reward function", "judge_client"),
    ("values_env/values_env/judges.py", "KeptJudge.graded"): ("reward function", "judge_client"),
    ("values_env/values_env/judges.py", "judge_rubrics.<locals>.judged"): ("reward function", "judge_client"),
    ("rewards_threaded/rewards_threaded/env.py", "CachedRubric.score_rollout"): ("per rollout hook", "score_rollout"),
    ("rewards_awaited/rewards_awaited/env.py", "remote_match"): ("sync reward function",),
    ("rewards_awaited/rewards_awaited/env.py", "load_environment.<locals>.<lambda>"): (
        "sync reward function",
        "fetch_score",
    ),
    ("rewards_unawaited/rewards_unawaited/env.py", "remote_match"): ("sync reward function",),
    ("rewards_unawaited/rewards_unawaited/env.py", "load_environment.<locals>.<lambda>"): (
        "sync reward function",
        "fetch_score",
    ),
    ("fallback_env/fallback_env/env.py", "EditEnv.env_response"): ("per turn hook", "env_response"),
    ("rewards_interleaved/rewards_interleaved/env.py", "table_match"): (
        "sync reward function",
        "each rollout finishes",
    ),
    # ns_env: a namespace package (no __init__.py) whose modules import each other by its name
    ("ns_env/ns_env/env.py", "matches_case"): ("reward function", "per rollout"),
    ("ns_env/ns_env/env.py", "matches_answer"): ("reward function", "per rollout"),
    # warm_env: memoized files start-up did not fill for the rollouts' arguments
    ("warm_env/warm_env/taskset.py", "CaseTask.matches"): ("reward", "per rollout", "first call only"),
    # values_env: hooks using values defined in another module
    ("values_env/values_env/env.py", "SearchEnv.setup_state"): ("setup_state", "per rollout"),
    ("values_env/values_env/env.py", "SearchEnv.fetch"): ("async def",),
    ("values_env/values_env/env.py", "JudgedEnv.setup_state"): ("setup_state", "per rollout"),
    ("values_env/values_env/env.py", "CatalogEnv.setup_state"): ("setup_state", "per rollout"),
    # memoized: graded once, whatever calls it
    ("values_env/values_env/env.py", "CatalogEnv.env_response"): ("env_response", "per turn", "first call only"),
    ("values_env/values_env/steps.py", "StepEnv.env_response"): ("env_response", "per turn"),
    # receivers typed by what another module's methods declare they return, kept in the state
    ("values_env/values_env/devices.py", "LeasedEnv.setup_state"): ("setup_state", "per rollout"),
    ("values_env/values_env/managers.py", "SpawnEnv.setup_state"): ("setup_state", "per rollout"),
    ("values_env/values_env/devices.py", "LeasedEnv.env_response"): ("env_response", "per turn"),
    # receivers unpacked from a loader's tuple, kept in the state, read back by key (``state.pop`` too)
    ("values_env/values_env/world_env.py", "WorldEnv.env_response"): ("env_response", "per turn"),
    ("values_env/values_env/pooled_env.py", "PooledEnv.env_response"): ("env_response", "per turn"),
    ("values_env/values_env/worker_env.py", "BakingEnv.env_response"): ("env_response", "per turn"),
    ("values_env/values_env/world_env.py", "WorldEnv.cleanup_env"): ("@vf.cleanup", "per rollout"),
    ("values_env/values_env/browser_tools.py", "open_url"): ("tool", "tool call"),
    ("values_env/values_env/tools.py", "search_docs"): ("tool call",),
    ("values_env/values_env/tools.py", "search_remote"): ("tool call",),
    # a nest in another module handed a field of a puzzle built from the row
    ("values_env/values_env/sorting.py", "stuck"): ("reward function",),
    ("values_env/values_env/sorting.py", "replayed"): ("reward function",),
    ("values_env/values_env/sorting.py", "crossed"): ("reward function", "count_crossings"),
    ("values_env/values_env/sorting.py", "echoed"): ("reward function", "count_pairs"),
    # adapter_env: hooks of the framework's class, though the adapter's package is named after it
    ("adapter_env/integrations/verifiers/vf_game.py", "GameEnv.env_response"): ("env_response", "per turn"),
    ("adapter_env/integrations/verifiers/vf_game.py", "GameEnv.remove_workspace"): ("@vf.cleanup", "per rollout"),
    # exported_rewards: the rewards a library's integration factories return, called by no project code
    ("exported_rewards/rewardkit/integrations/verifiers.py", "task_reward_fn.<locals>.reward"): (
        "reward function",
        "exported factory",
        "task_reward_fn",
    ),
    ("exported_rewards/rewardkit/integrations/judging.py", "make_command_judge.<locals>.judge"): (
        "reward function",
        "exported factory",
        "make_command_judge",
    ),
    # flat_env: reached through modules imported by their bare names
    ("flat_env/flat_env.py", "run_linter"): ("tool", "tool call"),
    ("flat_env/flat_env.py", "rule_files"): ("tool", "tool call"),
    ("flat_env/flat_env.py", "patched_reward"): ("reward function", "group"),
    ("flat_env/baselines/oracle.py", "oracle_reward"): ("reward function", "group"),
    # followed_env: offenders reached through helpers' mixed returns, tables of backends and checks,
    # abstract methods, and tools registered by assigning ``self.tools``
    ("followed_env/followed_env/runners.py", "RunnerEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/listed.py", "ListedEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/sourced.py", "SourcedEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/applied.py", "AppliedEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/handed.py", "HandedEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/elsewhere.py", "ElsewhereEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/browser.py", "BrowserEnv.setup_state"): ("setup_state", "per rollout"),
    ("followed_env/followed_env/browser.py", "BrowserEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/env.py", "ProverEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/env.py", "followed"): ("reward function", "group"),
    ("followed_env/followed_env/env.py", "load_environment.<locals>.followed_instructions"): (
        "reward function",
        "group",
    ),
    ("followed_env/followed_env/env.py", "SandboxToolEnv.run_code"): ("tool", "tool call"),
    ("followed_env/followed_env/env.py", "SandboxEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/passed_module.py", "_build_real.<locals>.PagedEnv.update_tool_args"): (
        "update_tool_args",
        "per tool call",
    ),
    ("followed_env/followed_env/passed_module.py", "_build_paired.<locals>.PairedEnv.update_tool_args"): (
        "update_tool_args",
        "per tool call",
    ),
    # a model kept on self handed to a helper; wrappers an exporter registers; a handed factory
    ("followed_env/followed_env/held_models.py", "GuessEnv.env_response"): ("env_response", "per turn"),
    ("followed_env/followed_env/lazy_export.py", "_wrap.<locals>.sync_wrapper"): ("reward function", "group"),
    ("followed_env/followed_env/lazy_export.py", "exact_words"): ("reward function", "group"),
    ("followed_env/followed_env/lazy_export.py", "_wrap_lines.<locals>.lines_wrapper"): ("reward function", "group"),
    ("followed_env/followed_env/lazy_export.py", "_wrap_chars.<locals>.chars_wrapper"): ("reward function", "group"),
    ("followed_env/followed_env/judged.py", "_wrap.<locals>.wrapper"): ("reward function", "group"),
    ("followed_env/followed_env/judged.py", "_wrap_check.<locals>.check_wrapper"): ("reward function", "group"),
    ("followed_env/followed_env/makers.py", "task_reward"): ("reward function", "group"),
    # registry_env: the project's games built by ``make(id)`` per rollout, or once at load and stepped per turn
    ("registry_env/registry_env/env.py", "ArcadeEnv.setup_state"): ("setup_state", "per rollout"),
    ("registry_env/registry_env/env.py", "ArcadeEnv.env_response"): ("env_response", "per turn"),
    # registrations_env: callables registered through lists, loops, lambdas, partials, factories
    ("registrations_env/registrations_env/gym.py", "Maze.__init__"): ("gym environment constructor", "first turn"),
    ("registrations_env/registrations_env/gym.py", "Maze.reset"): ("gym environment reset", "per rollout"),
    ("registrations_env/registrations_env/gym.py", "Maze.step"): ("gym environment step", "per turn"),
    ("registrations_env/registrations_env/gym.py", "SeededMaze.step"): ("gym environment step", "per turn"),
    ("registrations_env/registrations_env/gym.py", "parse_move"): ("gym action parser", "per turn"),
    ("registrations_env/registrations_env/gym.py", "show"): ("gym observation renderer", "per turn"),
    ("registrations_env/registrations_env/env.py", "ScoredRubric.scored"): ("reward function", "group"),
    ("registrations_env/registrations_env/env.py", "ScoredRubric.size"): (("reward function", "metric"), "group"),
    ("registrations_env/registrations_env/env.py", "load_environment.<locals>.<lambda>"): (
        ("reward function", "parser callable"),
    ),
    ("registrations_env/registrations_env/parsers.py", "JsonParser.get_format_reward_func.<locals>.format_reward"): (
        "reward function",
        "group",
    ),
    ("registrations_env/registrations_env/branches.py", "lint_config"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "scan_config"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "describe_config"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "wait_for_linter"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "clean_workdir"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "list_workdir"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "copy_config"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "move_config"): ("tool", "tool call"),
    ("registrations_env/registrations_env/branches.py", "strict_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/branches.py", "lenient_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/rewards.py", "listed_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/stored.py", "replaced_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/stored.py", "appended_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/stored.py", "relisted_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/stored.py", "WeightedRubric.length"): ("reward function", "group"),
    ("registrations_env/registrations_env/rewards.py", "factory_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/rewards.py", "looped_metric"): (("reward function", "metric"), "group"),
    ("registrations_env/registrations_env/rewards.py", "starred_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/rewards.py", "augmented_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/rewards.py", "moded_reward"): ("reward function", "group"),
    ("registrations_env/registrations_env/rewards.py", "make_reward.<locals>.keyed_reward"): (
        "reward function",
        "group",
    ),
    ("registrations_env/registrations_env/rewards.py", "web_search"): ("tool call",),
    ("registrations_env/registrations_env/rewards.py", "run_shell"): ("tool call",),
    # verifiers 0.1.x's RLMEnv: its own sandbox hooks, tools in each of its three slots
    ("rlm_env/rlm_env/env.py", "NotesEnv.get_sandbox_request"): ("get_sandbox_request", "per rollout"),
    ("rlm_env/rlm_env/env.py", "NotesEnv.customize_worker_script"): ("customize_worker_script", "per rollout"),
    ("rlm_env/rlm_env/tools.py", "NoteTools.note_read"): ("tool", "tool call"),
    ("rlm_env/rlm_env/tools.py", "NoteTools.ledger_add"): ("repl tool", "rlmenv", "tool call"),
    ("rlm_env/rlm_env/tools.py", "NoteTools.note_peek"): ("sub llm tool", "rlmenv", "tool call"),
    # v0: environment hooks, through BaseQAEnv / QAEnv / ScratchpadEnv
    ("v0_env/base.py", "BaseQAEnv.setup_state"): ("setup_state", "per rollout"),
    ("v0_env/env.py", "QAEnv.env_response"): ("env_response", "per turn"),
    ("v0_env/env.py", "QAEnv.is_completed"): ("is_completed", "per turn"),
    ("v0_env/env.py", "QAEnv.post_rollout"): ("post_rollout", "per rollout"),
    ("v0_env/base.py", "BaseQAEnv.answer_file_written"): ("stop", "per turn"),
    ("v0_env/base.py", "BaseQAEnv.remove_workdir"): ("cleanup", "per rollout"),
    ("v0_env/tools.py", "ScratchpadEnv.update_tool_args"): ("update_tool_args", "tool call"),
    # v0: a plain class that only shares a hook's name: a plain coroutine
    ("v0_env/env.py", "ReplayStub.env_response"): ("async def",),
    # v0: registered callables
    ("v0_env/rewards.py", "cites_source"): ("reward function", "group"),
    ("v0_env/rewards.py", "judge_agrees"): ("reward function", "group"),
    ("v0_env/rewards.py", "tool_calls_made"): (("reward function", "metric"), "group"),
    ("v0_env/rewards.py", "CitationRubric.citation_precision"): ("reward function", "group"),
    ("v0_env/rewards.py", "judged_faithful"): ("reward function",),
    ("v0_env/rewards.py", "extract_final_answer"): (("parser", "extract_fn"),),
    ("v0_env/rewards.py", "passage_objects"): ("score object provider", "every reward function call"),
    ("v0_env/rewards.py", "group_lengths"): ("group score object provider", "whole group"),
    ("v0_env/tools.py", "search_corpus"): ("tool call",),
    ("v0_env/tools.py", "list_sections"): ("tool call",),
    ("v0_env/tools.py", "read_section"): ("tool call",),
    ("v0_env/tools.py", "web_search"): ("tool call",),
    # v0: rubric and parser hooks
    ("v0_env/rewards.py", "BoxedParser.parse_answer"): ("parse_answer",),
    ("v0_env/rewards.py", "CitationRubric.cleanup"): ("cleanup", "per rollout"),
    ("v0_env/rewards.py", "CitationRubric.score_group"): ("score_group", "group"),
    # v0: a base class's per-turn hook calling a method its subclass overrides
    ("v0_env/games/base.py", "GameEnv.env_response"): ("env_response", "per turn"),
    # side_envs: each environment's own helpers
    ("side_envs/environments/env_b/env_b.py", "BEnv.setup_state"): ("setup_state", "per rollout"),
    # asyncio_app: a generic service
    # unnamed_env: coroutines the environment names (a table, an import, an attribute) but never calls
    ("unnamed_env/unnamed_env/sandbox.py", "restart_sandbox"): ("async def",),
    ("unnamed_env/unnamed_env/sandbox.py", "stop_sandbox"): ("async def",),
    ("unnamed_env/unnamed_env/sandbox.py", "probe_sandbox"): ("async def",),
    ("unnamed_env/unnamed_env/sandbox.py", "Sandbox.reset"): ("async def",),
    # a method of a class no library reaches is a root where the environment calls it, or by syntax
    ("unnamed_env/unnamed_env/env.py", "SandboxEnv.setup_state"): ("setup_state", "per rollout"),
    ("unnamed_env/unnamed_env/sandbox.py", "LocalSandbox.__aenter__"): ("async def",),
    ("unnamed_env/unnamed_env/sandbox.py", "Restorable.restore"): ("async def",),
    ("unnamed_env/unnamed_env/sandbox.py", "hosted_sandbox.<locals>.HostedSandbox.warm"): ("async def",),
    ("unnamed_env/unnamed_env/sandbox.py", "Steps.step_boot"): ("async def",),
    # methods of objects handed to a library, which calls them by name
    ("unnamed_env/unnamed_env/handlers.py", "MessageHandler.on_message"): ("async def",),
    ("unnamed_env/unnamed_env/handlers.py", "Service.handle"): ("async def",),
    ("unnamed_env/unnamed_env/handlers.py", "Listener.on_event"): ("async def",),
    ("unnamed_env/unnamed_env/handlers.py", "Ticker.on_tick"): ("async def",),
    ("unnamed_env/unnamed_env/handlers.py", "BaseHook.before"): ("async def",),
    # dispatch_env: a method run by a name looked up at run time (getattr), from the hook that looks it up
    ("dispatch_env/dispatch_env/env.py", "DispatchEnv.env_response"): (
        "env_response",
        "per turn",
        "dispatched by name",
    ),
    # named_tools_env: an API object's methods run by the tool's name; the registry's callables per rollout
    ("named_tools_env/named_tools_env/env.py", "_tool.<locals>.run_tool"): ("tool", "per tool call"),
    # desktop_env: vf.ToolEnv's tools, handed over by ``create_env``
    **{
        ("desktop_env/native/env.py", tool): ("tool", "every tool call")
        for tool in ("screenshot", "click", "press", "wait")
    },
    ("named_tools_env/named_tools_env/env.py", "NamedToolsEnv.setup_state"): ("setup_state", "per rollout"),
    # a module the environment imports keeps its roots although it also runs a loop of its own
    ("script_env/script_env/shared.py", "refresh"): ("asyncio task", "create_task", "main"),
    ("script_env/script_env/lazy.py", "Judge.warm"): ("async def",),
    ("script_env/scripts/notes.py", "Column.refresh"): ("async def",),
    # the training side's generator, an override a library calls (its module is no program)
    ("service_env/trainer/generator.py", "Generator.generate"): ("async def",),
    ("service_env/service_env/services/client.py", "RenderClient.warm"): ("async def",),
    ("service_env/service_env/env.py", "ServiceEnv.setup_state"): ("setup_state", "per rollout"),
    ("service_env/service_env/env.py", "ServiceEnv.env_response"): ("env_response", "per turn"),
    # shadowed_env: the module the package of the same name loads by its path
    ("shadowed_env/shadowed_env.py", "GameEnv.env_response"): ("env_response", "per turn"),
    ("asyncio_app/app/web.py", "health"): ("async def",),
    ("asyncio_app/app/web.py", "list_items"): ("async def",),
    ("asyncio_app/app/web.py", "version"): ("async def",),
    ("asyncio_app/app/workers.py", "drain"): ("asyncio task", "create_task", "main"),
    ("asyncio_app/app/workers.py", "fetch_size"): ("asyncio task", "gather", "main"),
    ("asyncio_app/app/workers.py", "rotate_logs"): ("asyncio task", "create_task", "main"),
    ("asyncio_app/app/workers.py", "on_tick"): ("event loop callback",),
    ("asyncio_app/app/sockets.py", "on_connect"): ("asyncio server callback", "every connection"),
    ("asyncio_app/app/sockets.py", "Echo.__init__"): ("asyncio protocol constructor", "connection is accepted"),
    ("asyncio_app/app/sockets.py", "Echo.data_received"): ("asyncio protocol callback", "receives data"),
    # v1
    ("v1_env/tasks.py", "RepairTask.setup"): ("setup", "per rollout"),
    # v1_tools: a shared toolset's tools run on the loop of the server every rollout shares
    ("v1_tools/v1_tools/toolsets.py", "CorpusSearch.search"): ("shared toolset", "shared tool server", "per tool call"),
    ("v1_tools/v1_tools/toolsets.py", "CorpusSearch.read"): ("shared toolset", "shared tool server", "per tool call"),
    # v1_tools: the wrapper a shared toolset's ``_with_state`` makes runs as its tools do (a per-rollout one's is cold)
    ("v1_tools/v1_tools/toolsets.py", "CorpusSearch._with_state.<locals>.audited"): (
        "shared toolset",
        "shared tool server",
        "per tool call",
    ),
    # v1_tools: what a shared toolset's ``register`` hands its server as a tool (a per-rollout one's is cold)
    **{
        ("v1_tools/v1_tools/toolsets.py", f"CorpusSearch.register.<locals>.{name}"): (
            "shared toolset",
            "shared tool server",
            "per tool call",
        )
        for name in ("status", "vacuum", "grep", "count", "blame")
    },
    ("v1_tools/v1_tools/tasks.py", "BuildTask.builds"): ("reward", "env loop", "per rollout"),
    # v1_shared_server: verifiers 0.4's shared tool server runs a sync tool handed to it in a thread
    **{
        ("v1_shared_server/v1_shared_server/repo.py", name): ("shared toolset", "shared tool server", "per tool call")
        for name in ("Repo.blame", "Repo.register.<locals>.diff", "Repo.register.<locals>.show")
    },
    # v1_tools: a user simulator's server is a process of its own; the helper it shares is hot from the reward
    ("v1_tools/v1_tools/users.py", "Support.polite"): ("reward", "env loop", "per rollout"),
    # v1_tools: harness programs named by string reference, in process (a sandboxed one is cold)
    ("v1_tools/v1_tools/harnesses.py", "local_program"): ("harness program", "env loop", "per rollout"),
    ("v1_tools/v1_tools/agents/solver.py", "replay"): ("harness program", "env loop", "per rollout"),
    ("v1_env/tasks.py", "RepairTask.runtime_env"): ("runtime_env", "per rollout"),
    ("v1_env/tasks.py", "RepairTask.key"): ("key", "per rollout"),
    ("v1_env/tasks.py", "RepairTask.tests_pass"): ("reward",),
    ("v1_env/tasks.py", "RepairTask.small_patch"): ("reward",),
    ("v1_env/tasks.py", "RepairTask.gave_up"): ("stop", "per turn"),
    ("v1_env/tasks.py", "RepairTask.redact_paths"): ("intercept", "per turn"),
    ("v1_env/tasks.py", "RepairTask.finalize"): ("finalize", "per rollout"),
    ("v1_env/harness.py", "CliAgentHarness.launch"): ("launch", "per rollout"),
    ("v1_env/harness.py", "CliAgentHarness.session"): ("session", "per rollout"),
    ("v1_env/harness.py", "CliAgentHarness.cleanup"): ("cleanup", "per rollout"),
    ("v1_env/judge.py", "PatchJudge.build_messages"): ("build_messages", "judge"),
    ("v1_env/judge.py", "PatchJudge.score"): ("score", "judge"),
    ("v1_env/judge.py", "PatchJudge.parse"): ("parse", "judge"),
    ("v1_env/env.py", "RepairEnv.setup"): ("setup", "per rollout"),
    ("v1_env/env.py", "RepairEnv.run"): ("run", "per rollout"),
    ("v1_env/env.py", "RepairEnv.finalize"): ("finalize", "per rollout"),
    ("search_env/search_env/env.py", "frontier"): ("reward", "per rollout"),
    ("search_env/search_env/env.py", "RoundEnv.env_response"): ("env_response", "per turn"),
    # v1_runtime_env: verifiers 0.1.14's v1 runtime runs what its toolset, taskset and harness were handed
    (f"{V1RT}corpus.py", "Corpus.search"): (
        "v1 toolset tool",
        "runtime.call_tool",
        "on every tool call",
        "first call only",
    ),
    (f"{V1RT}corpus.py", "Corpus.fetch"): ("v1 toolset tool", "runtime.call_tool", "per tool call"),
    (f"{V1RT}corpus.py", "lookup"): ("v1 toolset tool", "runtime.call_tool", "per tool call"),
    (f"{V1RT}index.py", "TitleIndex.similar"): ("v1 toolset tool", "runtime.call_tool", "first call only"),
    (f"{V1RT}taskset.py", "open_workspace"): ("setup handler", "runtime.setup_rollout", "per rollout"),
    (f"{V1RT}taskset.py", "close_workspace"): ("cleanup handler", "runtime.cleanup_rollout", "per rollout"),
    (f"{V1RT}taskset.py", "out_of_budget"): ("stop condition", "runtime.is_completed", "per turn"),
    (f"{V1RT}taskset.py", "compiles"): ("reward function", "runtime.score_rollout", "per rollout"),
    (f"{V1RT}taskset.py", "agreement"): ("group reward function", "runtime.score_group", "back to back"),
    (f"{V1RT}registered.py", "run_program"): ("harness program", "per rollout"),
    (f"{V1RT}registered.py", "load_titles"): ("toolset object factory", "resolve_object_factory", "once per process"),
    (f"{V1RT}registered.py", "open_store"): ("toolset object factory", "resolve_object_factory", "once per process"),
    (f"{V1RT}scoped.py", "written_scratch"): ("per rollout toolset object factory", "in each rollout", "per rollout"),
    (f"{V1RT}scoped.py", "rollout_scratch"): ("per rollout toolset object factory", "in each rollout", "per rollout"),
    (f"{V1RT}scoped.py", "group_scratch"): ("per group toolset object factory", "in each group"),
    (f"{V1RT}scoped.py", "unscoped_scratch"): ("per rollout toolset object factory", "per rollout"),
    (f"{V1RT}scoped.py", "maybe_written_scratch"): ("per rollout toolset object factory", "per rollout"),
    (f"{V1RT}scoped.py", "shared_index"): ("toolset object factory", "once per process"),
    (f"{V1RT}scoped.py", "read_only_index"): ("toolset object factory", "once per process"),
    (f"{V1RT}registered.py", "reply"): ("v1 user callable", "runtime.user_messages", "per turn"),
    (f"{V1RT}registered.py", "graded"): ("v1 reward function", "runtime.score_rollout", "per rollout"),
    (f"{V1RT}registered.py", "length"): ("v1 metric function", "runtime.score_rollout", "per rollout"),
    (f"{V1RT}registered.py", "give_up"): ("v1 stop condition", "runtime.is_completed", "per turn"),
    (f"{V1RT}registered.py", "prepare"): ("v1 setup handler", "runtime.setup_rollout", "per rollout"),
    (f"{V1RT}top_level.py", "save_move"): ("v1 toolset tool", "runtime.call_tool", "per tool call"),
    (f"{V1RT}registered.py", "tidy"): ("v1 cleanup handler", "runtime.cleanup_rollout", "per rollout"),
    (f"{V1RT}registered.py", "refresh"): ("v1 update handler", "runtime.update_rollout", "per rollout"),
    (f"{V1RT}registered.py", "tally"): ("v1 metric function", "runtime.score_rollout", "per rollout"),
    (f"{V1RT}configured.py", "config_scratch"): ("per rollout toolset object factory", "in each rollout"),
    (f"{V1RT}configured.py", "config_group_scratch"): ("per group toolset object factory", "in each group"),
    (f"{V1RT}configured.py", "constant_scratch"): ("per rollout toolset object factory", "per rollout"),
    (f"{V1RT}configured.py", "config_index"): ("toolset object factory", "once per process"),
    (f"{V1RT}configured.py", "overridden_index"): ("toolset object factory", "once per process"),
    (f"{V1RT}configured.py", "constant_index"): ("toolset object factory", "once per process"),
    (f"{V1RT}configured.py", "built_scratch"): ("per rollout toolset object factory", "in each rollout"),
    (f"{V1RT}configured.py", "built_index"): ("toolset object factory", "once per process"),
    (f"{V1RT}configured.py", "constant_built_scratch"): ("per rollout toolset object factory", "in each rollout"),
    (f"{V1RT}referenced.py", "referenced_lookup"): ("v1 toolset tool", "runtime.call_tool", "per tool call"),
    (f"{V1RT}referenced.py", "referenced_stop"): ("v1 stop condition", "runtime.is_completed", "per turn"),
    (f"{V1RT}referenced.py", "referenced_scratch"): ("per rollout toolset object factory", "in each rollout"),
    (f"{V1RT}configured.py", "peek"): ("v1 toolset tool", "runtime.call_tool", "per tool call"),
    # v1_toolset_pinned: a Toolset subclass on verifiers 0.1.14, a plain class run in process
    (f"{V1TP}notes.py", "open_scratch"): ("per rollout toolset object factory", "in each rollout"),
    (f"{V1TP}notes.py", "NotesToolset.load_index"): ("per rollout toolset object factory", "in each rollout"),
    (f"{V1TP}notes.py", "NotesToolset.read_note"): ("v1 toolset tool", "runtime.call_tool", "per tool call"),
    (f"{V1TP}notes.py", "NotesToolset.refresh"): ("async def", "per rollout"),
    (f"{V1TP}notes.py", "NotesToolset.guarded.<locals>.wrapper"): ("async def", "per rollout"),
}


def _normal(message: str) -> str:
    return message.lower().replace("-", " ").replace("`", "")


def _missing_words(message: str, words: Words) -> list[str]:
    text = _normal(message)
    missing = []
    for word in words:
        options = word if isinstance(word, tuple) else (word,)
        if not any(option in text for option in options):
            missing.append(" or ".join(repr(o) for o in options))
    return missing


@pytest.mark.parametrize("project", PROJECT_PARAMS)
def test_messages_name_the_root_kind(project: Path) -> None:
    sources = load_sources(project)
    problems = []
    for finding in run(project, sources).findings:
        where = f"{finding.path}:{finding.line} {finding.code}"
        if finding.code == "ASL201":
            words: Words = (("plain def", "async def", "sync def"),)
        elif finding.code == "ASL202":
            words = ("update_tool_args", "sync")
        else:
            if not finding.chain:
                problems.append(f"{where}: no chain")
                continue
            root = (finding.chain[0].path, finding.chain[0].function)
            if root not in ROOT_KINDS:
                problems.append(f"{where}: unexpected hot root {root}")
                continue
            words = ROOT_KINDS[root]
        missing = _missing_words(finding.message, words)
        if missing:
            problems.append(f"{where}: message lacks {', '.join(missing)}: {finding.message}")
    assert not problems, "\n".join(problems)


# -- determinism --------------------------------------------------------------------------------


@pytest.mark.parametrize("project", PROJECT_PARAMS)
def test_result_does_not_depend_on_source_order(project: Path) -> None:
    sources = load_sources(project)
    baseline = run(project, sources)
    orders = [list(reversed(sources))]
    if len(sources) > 2:  # with two files the reversed order is the only other one
        shuffled = list(sources)
        rng = random.Random(20240611)
        while shuffled == sources or shuffled == sources[::-1]:  # a permutation neither order gives
            rng.shuffle(shuffled)
        orders.append(shuffled)
    for order in orders:
        result = run(project, order)
        assert result == baseline
        assert [f.message for f in result.findings] == [f.message for f in baseline.findings]
        assert [f.chain for f in result.findings] == [f.chain for f in baseline.findings]


def test_cli_parallel_indexing_gives_the_same_json(tmp_path: Path) -> None:
    project = tmp_path / "v0_env"
    shutil.copytree(V0, project, ignore=shutil.ignore_patterns("__pycache__"))
    padding = project / "padding"
    padding.mkdir()
    (padding / "__init__.py").write_text('"""Trivial modules: enough files for parallel indexing."""\n')
    for number in range(60):
        (padding / f"pad_{number:02d}.py").write_text(
            f'"""Padding module {number}."""\n\nVALUE = {number}\n\n\n'
            f"def value_{number:02d}() -> int:\n    return VALUE\n"
        )
    assert len(list(project.rglob("*.py"))) >= PARALLEL_THRESHOLD
    outputs = []
    for jobs in ("1", "2"):  # -j 2: a pool of worker processes, forked from this one
        completed = run_cli("check", "v0_env", "--format", "json", "-j", jobs, "--no-cache", cwd=tmp_path)
        assert completed.returncode == 1, (completed.returncode, completed.stderr)
        outputs.append(completed.stdout)
    assert outputs[0] == outputs[1]
    assert not (tmp_path / ".asynclint_cache").exists()
    report = json.loads(outputs[0])
    assert report["errors"] == []
    actual = {(f["path"], f["line"], f["code"], f["severity"]) for f in report["findings"]}
    assert actual == expected_entries(load_sources(V0))


# -- related places: where a handed client was built and handed over --------------------------------

JUDGES_ENV = PROJECTS / "judges_env"
JE_ENV, JE_CLIENTS = "judges_env/judges_env/env.py", "judges_env/judges_env/clients.py"
JE_RUBRICS = "judges_env/judges_env/rubrics.py"
BUILT_AND_HANDED = "the client is built and handed to `JudgeRubric(judge_client=...)` here"
BUILT = "the client handed to `JudgeRubric(judge_client=...)` is built here"
HANDED = "the client is handed to `JudgeRubric(judge_client=...)` here"


def _judges_env_related() -> dict[int, tuple[RelatedLocation, ...]]:
    """env.py's findings: line -> related places."""
    return {f.line: f.related for f in run(JUDGES_ENV).findings if f.path == JE_ENV}


def test_a_handed_clients_finding_names_where_it_was_built_and_handed_over() -> None:
    related = _judges_env_related()
    # ``judge_client=OpenAI()``: built in the hand-over, one place.
    used = place_of(JE_ENV, "used = vf.JudgeRubric(", "OpenAI()")
    assert related[line_of(JE_ENV, "await used.judge(")] == (
        RelatedLocation(JE_ENV, used[0], BUILT_AND_HANDED, used[1]),
    )
    # ``judge_client=JUDGE``, built in another module.
    built = place_of(JE_CLIENTS, "JUDGE = OpenAI()", "OpenAI()")
    handed = place_of(JE_ENV, "through_client = vf.JudgeRubric(", "JUDGE")
    assert related[line_of(JE_ENV, "through_client.judge_client.chat")] == (
        RelatedLocation(JE_CLIENTS, built[0], BUILT, built[1]),
        RelatedLocation(JE_ENV, handed[0], HANDED, handed[1]),
    )
    # ``client = OpenAI()`` a line before ``JudgeRubric(judge_client=client)``.
    built = place_of(JE_ENV, "client = OpenAI()", "OpenAI()")
    handed = place_of(JE_ENV, "bound_earlier = vf.JudgeRubric(", "client)")
    assert related[line_of(JE_ENV, "await bound_earlier.judge(")] == (
        RelatedLocation(JE_ENV, built[0], BUILT, built[1]),
        RelatedLocation(JE_ENV, handed[0], HANDED, handed[1]),
    )


def test_a_client_kept_on_self_is_traced_to_the_one_call_that_built_it() -> None:
    related = {f.line: f.related for f in run(JUDGES_ENV).findings if f.path == JE_RUBRICS}
    built = place_of(JE_RUBRICS, "self.client = OpenAI(timeout=30)", "OpenAI(")
    handed_line = built[0] + 1  # ``super().__init__(judge_client=self.client, **kwargs)``
    handed = (handed_line, place_of(JE_RUBRICS, "# switched hand-over", "self.client")[1])
    assert related[line_of(JE_RUBRICS, "kept_verdict = await self.judge(")] == (
        RelatedLocation(JE_RUBRICS, built[0], BUILT, built[1]),
        RelatedLocation(JE_RUBRICS, *handed[:1], HANDED, handed[1]),
    )
    # Built in two places (``if``/``else``): only the hand-over is named.
    switched = place_of(JE_RUBRICS, "# switched hand-over", "self.client")
    assert related[line_of(JE_RUBRICS, "switched_verdict = await self.judge(")] == (
        RelatedLocation(JE_RUBRICS, switched[0], HANDED, switched[1]),
    )


def test_related_places_stay_off_the_chain() -> None:
    """The fixers read the chain as root -> calls -> the offending call: no hand-over in it."""
    for finding in run(JUDGES_ENV).findings:
        # At a hand-over the framework's method runs from, only a client built elsewhere is a related place.
        assert finding.related or finding.facts.root == "PairwiseJudgeRubric.score_rollouts"
        assert (finding.chain[-1].path, finding.chain[-1].line) == (finding.path, finding.line)
        assert not {(link.path, link.line) for link in finding.chain} & {(r.path, r.line) for r in finding.related}


def test_related_places_in_json_and_sarif() -> None:
    result = run(JUDGES_ENV)
    line = line_of(JE_ENV, "through_client.judge_client.chat")
    document = json.loads(render_json(result))
    schema = json.loads((Path(__file__).parent / "data" / "asynclint-report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)
    (finding,) = [f for f in document["findings"] if (f["path"], f["line"]) == (JE_ENV, line)]
    built, built_column = place_of(JE_CLIENTS, "JUDGE = OpenAI()", "OpenAI()")
    handed, handed_column = place_of(JE_ENV, "through_client = vf.JudgeRubric(", "JUDGE")
    assert (
        finding["facts"]["built_at"] == f"{JE_CLIENTS}:{built}:{built_column}"
        and finding["facts"]["handed_at"] == f"{JE_ENV}:{handed}:{handed_column}"
    )
    assert finding["related"] == [
        {"path": JE_CLIENTS, "line": built, "column": built_column, "message": BUILT},
        {"path": JE_ENV, "line": handed, "column": handed_column, "message": HANDED},
    ]
    log = json.loads(render_sarif(result))
    sarif_schema = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(sarif_schema).validate(log)
    (sarif,) = [
        r
        for r in log["runs"][0]["results"]
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == JE_ENV
        and r["locations"][0]["physicalLocation"]["region"]["startLine"] == line
    ]
    assert [
        (
            place["id"],
            place["physicalLocation"]["artifactLocation"]["uri"],
            place["physicalLocation"]["region"],
            place["message"]["text"],
        )
        for place in sarif["relatedLocations"]
    ] == [
        (1, JE_CLIENTS, {"startLine": built, "startColumn": built_column}, BUILT),
        (2, JE_ENV, {"startLine": handed, "startColumn": handed_column}, HANDED),
    ]


def test_moving_the_constructor_keeps_the_baseline() -> None:
    """Related places (and ``built_at``) are not fingerprinted: building the client a few lines
    further down is no new finding."""
    sources = load_sources(JUDGES_ENV)
    before = run(JUDGES_ENV, sources).findings
    recorded = baseline.parse(baseline.render(before))
    moved = [
        SourceFile(s.path, s.text.replace("JUDGE = OpenAI()", "\n\nJUDGE = OpenAI()"), s.module, s.package, s.imports)
        if s.path == JE_CLIENTS
        else s
        for s in sources
    ]
    after = run(JUDGES_ENV, moved).findings
    assert [f.related for f in after] != [f.related for f in before]
    assert recorded.split(after) == ((), len(before))


def test_a_client_the_framework_runs_itself_is_reported_at_the_hand_over_with_where_it_was_built() -> None:
    """judges_env/pairwise.py: no project line calls vf_exts' ``PairwiseJudgeRubric``'s judge; the
    framework runs its ``score_rollouts``, which calls the client. The finding is the hand-over
    line, its root the holder's method; the note names the line that built the client when that
    is another one, and no fix is offered (an async client would never be awaited there)."""
    sources = load_sources(JUDGES_ENV)
    findings = {f.line: f for f in run(JUDGES_ENV, sources).findings if f.path.endswith("pairwise.py")}
    assert sorted(findings) == [24, 25, 26]
    bound = findings[24]
    assert bound.facts.root == bound.facts.function == "PairwiseJudgeRubric.score_rollouts"
    assert bound.facts.handed_to == "PairwiseJudgeRubric.judge_client"
    assert bound.facts.handed_through == "score_rollouts" and bound.facts.frequency == "group"
    assert bound.facts.handed_at == f"{bound.path}:24:{bound.column}"
    assert [(r.path, r.line, r.column) for r in bound.related] == [(bound.path, 22, 14)]
    assert bound.message.startswith("`PairwiseJudgeRubric.score_rollouts`, which the framework runs itself")
    assert bound.fix is None and bound.fix_request is None
    assert findings[25].related == ()  # built in the hand-over itself
    assert [(r.path, r.line) for r in findings[26].related] == [(JE_CLIENTS, 5)]
    assert all(f.facts.run_by_framework for f in findings.values())


def test_fix_says_why_a_client_the_framework_runs_itself_has_no_fix(tmp_path: Path) -> None:
    """The hand-over line of judges_env/pairwise.py has no edit that fixes it: ``fix`` names the
    framework's method to override instead of "the knowledge base names no fix recipe"."""
    shutil.copytree(JUDGES_ENV, tmp_path / "judges_env")
    dry = run_cli("fix", "--dry-run", "--severity", "low", ".", cwd=tmp_path)
    left = [line for line in dry.stdout.splitlines() if "pairwise.py:24:" in line]
    assert len(left) == 1, dry.stdout
    assert "no automatic fix: `PairwiseJudgeRubric.score_rollouts` is the framework's own method" in left[0]
    assert "subclass `PairwiseJudgeRubric` and override `score_rollouts`" in left[0]
    assert all(not f.facts.run_by_framework for f in run(JUDGES_ENV).findings if not f.path.endswith("pairwise.py"))


# -- the framework's release ----------------------------------------------------------------------

JUDGES_OLD = PROJECTS / "judges_old"


def _judged_lines(versions: tuple[tuple[str, str], ...]) -> dict[tuple[str, int], Finding]:
    sources = load_sources(JUDGES_OLD)
    result = check_sources(sources, Config(root=JUDGES_OLD, framework_versions=versions))
    assert not result.errors, result.errors
    return {(Path(f.path).name, f.line): f for f in result.findings}


#: judges_old's judge calls: on a rubric handed a sync client (a subclass, then a JudgeRubric), and
#: on one handed none (verifiers 0.1.2 builds a sync OpenAI(), later releases an AsyncOpenAI()).
HANDED_SYNC = [("env.py", 24), ("rubrics.py", 13)]
HANDED_NONE = ("env.py", 20)


@pytest.mark.parametrize(
    "versions", [(("verifiers", "0.1.3"),), (("verifiers", "0.3.1"),), ()], ids=["0.1.3", "0.3.1", "unknown"]
)
def test_an_async_judge_blocks_only_through_a_sync_client_handed_to_it(versions) -> None:
    """Near miss of judges_old: from verifiers 0.1.3 on (or when the version is not known) ``judge``
    awaits its client, so only the rubrics handed a sync ``OpenAI()`` block (the default is async)."""
    found = _judged_lines(versions)
    assert sorted(found) == HANDED_SYNC
    for finding in found.values():
        assert "hand it an async client" in finding.message and "0.1.2" not in finding.message
        assert finding.facts.sync_method == "" and finding.facts.handed_through == "judge"


@pytest.mark.parametrize("version", ["0.1.2", "0.1.2.post1"])
def test_a_sync_judge_blocks_with_any_client_or_none(version: str) -> None:
    found = _judged_lines((("verifiers", version),))
    assert sorted(found) == sorted([*HANDED_SYNC, HANDED_NONE])
    own_default = found[HANDED_NONE]
    assert own_default.facts.sync_method == "JudgeRubric.judge"
    assert own_default.facts.sync_in == f"verifiers {version}" and own_default.facts.async_from == "0.1.3"
    assert own_default.facts.handed_at == "" and own_default.fix is None
    assert f"`JudgeRubric.judge` is a sync method in verifiers {version}" in own_default.message
    assert own_default.message.endswith("upgrade to verifiers >= 0.1.3, or offload the call")
    assert found[HANDED_SYNC[0]].facts.handed_at.startswith("judges_old/judges_old/env.py:15:")
    assert found[HANDED_SYNC[1]].facts.handed_at.startswith("judges_old/judges_old/env.py:37:")


def test_before_the_judge_existed_nothing_is_reported_at_the_constructor() -> None:
    """verifiers 0.1.1 has no ``judge``; its JudgeRubric scores with a sync reward of its own, which
    its rubric runs in ``asyncio.to_thread`` like every reward (OFFLOADED_HOOKS): a sync client
    handed over blocks a worker, not the loop. So nothing is reported where the client is handed
    over, nor in the project's rewards."""
    assert sorted(_judged_lines((("verifiers", "0.1.1"),))) == []


REWARDS_THREADED = PROJECTS / "rewards_threaded"
RT_REWARDS = "rewards_threaded/rewards_threaded/rewards.py"


@pytest.mark.parametrize(
    "versions", [(("verifiers", "0.1.2"),), (("verifiers", "0.3.1"),), ()], ids=["0.1.2", "0.3.1", "unknown"]
)
def test_rewards_run_on_the_loop_from_verifiers_0_1_2_on(versions) -> None:
    """Near miss of rewards_threaded (pinned 0.1.1, where nothing only a reward reaches is
    reported): the same code with 0.1.2 or later, or with the version unknown, calls its sync
    rewards inline, so what they reach is reported, graded as a group's rewards run back to back."""
    result = check_sources(load_sources(REWARDS_THREADED), Config(root=REWARDS_THREADED, framework_versions=versions))
    found = {(f.line, f.code): f for f in result.findings}
    assert sorted(found) == sorted(
        [
            (line_of(RT_REWARDS, "requests.get("), "ASL102"),
            (line_of(RT_REWARDS, "time.sleep("), "ASL101"),
            (line_of(RT_REWARDS, "with open(path)"), "ASL107"),  # and its json.load(handle), folded in
        ]
    )
    assert {f.facts.root_kind for f in found.values()} == {"sync reward function"}


@pytest.mark.parametrize("version", ["0.1.1", "0.1.0", "0.1.1.post1"])
def test_before_verifiers_0_1_2_rewards_run_in_worker_threads(version: str) -> None:
    """Only what the rubric's own ``score_rollout`` (awaited on the loop) reaches is reported."""
    config = Config(root=REWARDS_THREADED, framework_versions=(("verifiers", version),))
    result = check_sources(load_sources(REWARDS_THREADED), config)
    assert {(f.line, f.code, f.facts.root) for f in result.findings} == {
        (line_of(RT_REWARDS, "with open(path)"), "ASL107", "CachedRubric.score_rollout"),
    }


def test_the_runner_reads_the_framework_version_the_project_pins(tmp_path: Path) -> None:
    project = tmp_path / "judges_old"
    shutil.copytree(JUDGES_OLD, project, ignore=shutil.ignore_patterns("__pycache__"))
    pinned_old = run_check([str(project)], Config(root=project, follow_imports=False), use_cache=False)
    assert sorted((Path(f.path).name, f.line) for f in pinned_old.findings) == sorted([*HANDED_SYNC, HANDED_NONE])
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace("verifiers==0.1.2", "verifiers>=0.1.3"))
    ranged = run_check([str(project)], Config(root=project, follow_imports=False), use_cache=False)
    assert sorted((Path(f.path).name, f.line) for f in ranged.findings) == HANDED_SYNC


def test_in_a_repository_of_environments_the_checked_environments_pin_counts(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "envs"\ndependencies = ["verifiers==0.3.1"]\n')
    project = tmp_path / "environments" / "judges_old"
    shutil.copytree(JUDGES_OLD, project, ignore=shutil.ignore_patterns("__pycache__"))
    config = Config(root=tmp_path, follow_imports=False)
    result = run_check([str(project)], config, use_cache=False)
    assert sorted((Path(f.path).name, f.line) for f in result.findings) == sorted([*HANDED_SYNC, HANDED_NONE])
    other = tmp_path / "environments" / "other"
    other.mkdir()
    (other / "other.py").write_text('"""Another environment: the repository\'s pin is the one both share."""\n')
    whole = run_check([str(tmp_path)], config, use_cache=False)
    assert sorted((Path(f.path).name, f.line) for f in whole.findings) == HANDED_SYNC


def test_a_pin_wins_over_what_is_installed(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "verifiers").mkdir(parents=True)
    (site / "verifiers" / "__init__.py").write_text("")
    (site / "verifiers-0.1.2.dist-info").mkdir()
    (site / "verifiers-0.1.2.dist-info" / "top_level.txt").write_text("verifiers\n")
    installed = Installed([str(site)], ())
    assert project_versions(tmp_path / "pyproject.toml", {"verifiers"}, installed) == (("verifiers", "0.1.2"),)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\ndependencies = ["Verifiers[all] == 0.3.1 ; python_version >= \'3.10\'"]\n'
    )
    assert project_versions(tmp_path / "pyproject.toml", {"verifiers"}, installed) == (("verifiers", "0.3.1"),)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["verifiers>=0.1,<0.1.3"]\n')
    assert project_versions(tmp_path / "pyproject.toml", {"verifiers"}, installed) == (("verifiers", "0.1.2"),)
    # Nothing installed: the range itself, which the knowledge reads as a set of releases.
    assert project_versions(tmp_path / "pyproject.toml", {"verifiers"}, None) == (("verifiers", ">=0.1,<0.1.3"),)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\ndependencies = ["verifiers>=0.1.14"]\n')
    assert project_versions(tmp_path / "pyproject.toml", {"verifiers"}, installed) == (("verifiers", ">=0.1.14"),)


def test_a_lock_file_wins_and_requirement_files_count(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n')
    (tmp_path / "requirements.txt").write_text("# pins\n-e .\nverifiers ~= 0.1.0  # the v0 API\n")
    assert project_versions(pyproject, {"verifiers"}, None) == (("verifiers", "~=0.1.0"),)
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["verifiers<0.1.2"]\n')
    assert project_versions(pyproject, {"verifiers"}, None) == (("verifiers", "<0.1.2"),)
    (tmp_path / "uv.lock").write_text('version = 1\n\n[[package]]\nname = "Verifiers"\nversion = "0.1.1"\n')
    assert project_versions(pyproject, {"verifiers"}, None) == (("verifiers", "0.1.1"),)


@pytest.mark.parametrize(
    ("specifiers", "threaded"),
    [("<0.1.2", True), ("~=0.1.1.0", True), ("==0.1.*", False), (">=0.1.0", False), (">=0.1.14", False)],
)
def test_a_required_range_is_offloaded_only_if_every_release_it_admits_is(specifiers: str, threaded: bool) -> None:
    """verifiers before 0.1.2 runs rewards in worker threads; a range admitting those and later
    releases is read as on the loop (the conservative reading), and its findings say so."""
    config = Config(root=REWARDS_THREADED, framework_versions=(("verifiers", specifiers),))
    result = check_sources(load_sources(REWARDS_THREADED), config)
    rewards = [f for f in result.findings if f.facts.root_kind == "sync reward function"]
    assert bool(rewards) is not threaded
    admits_both = not threaded and specifiers != ">=0.1.14"
    assert all(("also admits releases before 0.1.2" in f.message) is admits_both for f in rewards)
    assert all(f"`verifiers{specifiers}`" in f.message for f in rewards if admits_both)
    # The caveat is facts (JSON, SARIF), the words rendered from them.
    assert all(
        (f.facts.admitted, f.facts.assumed_from) == ((f"verifiers{specifiers}", "0.1.2") if admits_both else ("", ""))
        for f in rewards
    )


REWARDS_INTERLEAVED = PROJECTS / "rewards_interleaved"
RI_ENV = "rewards_interleaved/rewards_interleaved/env.py"


@pytest.mark.parametrize(
    ("specifiers", "interleaved", "caveat"),
    [
        ("0.1.4", True, False),
        ("0.1.7.post0", True, False),
        ("~=0.1.5.0", True, False),
        ("0.1.3", False, False),
        ("0.1.8", False, False),
        (">=0.1.14", False, False),
        (">=0.1.4", False, True),
        (">=0.1.2,<0.1.6", False, True),
    ],
)
def test_sync_rewards_run_per_rollout_only_where_every_release_interleaves_scoring(
    specifiers: str, interleaved: bool, caveat: bool
) -> None:
    """Near misses of rewards_interleaved (pinned >=0.1.4,<0.1.8, where the file read a sync reward
    reaches is graded per rollout): a release that scores a group once it is gathered (0.1.3,
    0.1.8 and later), or a range admitting one, reads the sync reward as run back to back for
    the group, the more frequent reading; a range admitting both says so in its findings."""
    config = Config(root=REWARDS_INTERLEAVED, framework_versions=(("verifiers", specifiers),))
    (finding,) = check_sources(load_sources(REWARDS_INTERLEAVED), config).findings
    assert (finding.line, finding.code) == (line_of(RI_ENV, "with open(path)"), "ASL107")
    assert finding.facts.root == "table_match"
    assert (finding.facts.frequency, finding.severity.label) == (
        ("rollout", "high") if interleaved else ("group", "critical")
    )
    assert ("also admits releases from 0.1.4 up to 0.1.8" in finding.message) is caveat
    assert (finding.facts.admitted, finding.facts.assumed_from) == (
        (f"verifiers{specifiers}", "0.1.8") if caveat else ("", "")
    )


V1_TOOLSET_PINNED = PROJECTS / "v1_toolset_pinned"


@pytest.mark.parametrize(
    ("specifiers", "served_apart"),
    [("==0.1.14", False), ("<0.2", False), (">=0.1.14", False), (">=0.1.14,<0.3", False), (">=0.2", True)],
)
def test_a_toolset_subclass_runs_in_process_unless_every_release_admitted_serves_it_apart(
    specifiers: str, served_apart: bool
) -> None:
    """verifiers 0.1.14's ``Toolset`` is a plain class run in the rollouts' process, 0.2.0's a tool
    server of its own: a range admitting both is read as in process (the conservative reading),
    and its findings say so, as facts and in words."""
    config = Config(root=V1_TOOLSET_PINNED, framework_versions=(("verifiers", specifiers),))
    found = check_sources(load_sources(V1_TOOLSET_PINNED), config).findings
    assert len(found) == (0 if served_apart else 5)
    admits_both = specifiers.startswith(">=0.1.14")
    assert all(
        (f.facts.admitted, f.facts.assumed_from) == ((f"verifiers{specifiers}", "0.1.14") if admits_both else ("", ""))
        for f in found
    )
    assert all(("also admits releases from 0.2.0 on" in f.message) is admits_both for f in found)


V1_SHARED_SERVER = PROJECTS / "v1_shared_server"


@pytest.mark.parametrize(
    ("specifiers", "threaded"),
    [
        ("==0.4.0", True),
        (">=0.4,<0.5", True),
        ("==0.3.1", False),
        (">=0.2,<0.4", False),
        (">=0.3.1", False),
        (">=0.4", False),
    ],
)
def test_a_shared_server_runs_a_sync_tool_handed_to_it_in_a_thread_from_verifiers_0_4_on(
    specifiers: str, threaded: bool
) -> None:
    """verifiers 0.2.0 to 0.3.x serve a toolset with FastMCP, which calls a sync tool handed to it
    inline on the server's loop; 0.4.0 with mcp 2's ``MCPServer``, which calls it in a worker thread.
    A range admitting both (or releases after the 0.4 line, unread) is read as on the loop, and says so;
    a ``@vf.tool`` and what ``_with_state`` wraps run on the loop in every release."""
    config = Config(root=V1_SHARED_SERVER, framework_versions=(("verifiers", specifiers),))
    found = check_sources(load_sources(V1_SHARED_SERVER), config).findings
    handed = {"Repo.register.<locals>.status", "Repo.register.<locals>.log"}
    roots = {f.chain[0].function for f in found}
    assert roots >= {"Repo.blame", "Repo.register.<locals>.diff", "Repo.register.<locals>.show"}
    assert roots.isdisjoint(handed) is threaded
    admits_both = specifiers in (">=0.3.1", ">=0.4")
    on_server = [f for f in found if f.chain[0].function in handed]
    assert all(("also admits releases from 0.4.0 up to 0.5" in f.message) is admits_both for f in on_server)
    assert all(
        (f.facts.admitted, f.facts.assumed_from) == ((f"verifiers{specifiers}", "0.2.0") if admits_both else ("", ""))
        for f in on_server
    )


def test_the_version_caveat_leaves_the_baseline_fingerprint_as_it_was() -> None:
    """A finding whose project admits releases that ran its root in a thread fingerprints like one
    whose project pins today's: the caveat is about the project's requirement, not the finding."""
    prints = {}
    for specifiers in (">=0.1.0", ">=0.1.14"):
        config = Config(root=REWARDS_THREADED, framework_versions=(("verifiers", specifiers),))
        result = check_sources(load_sources(REWARDS_THREADED), config)
        prints[specifiers] = sorted(baseline.fingerprint(f) for f in result.findings)
    caveated = [f for f in result.findings if f.facts.root_kind == "sync reward function"]
    assert caveated and prints[">=0.1.0"] == prints[">=0.1.14"]


GROUP_REPLAY = """\
import numpy as np
import verifiers as vf

STEPS = 1000


def _replay(prices: np.ndarray) -> float:
    total = 0.0
    for step in range(STEPS):
        total += float(np.sum(prices[step])) + float(np.mean(prices[step]))
    return total


async def replayed(states, **kwargs) -> list[float]:
    return [_replay(state["prices"]) for state in states]


def load_environment(rollouts_per_example: int = 16, **kwargs) -> vf.Environment:
    return vf.SingleTurnEnv(rubric=vf.Rubric(funcs=[replayed]), **kwargs)
"""


@pytest.mark.parametrize(
    ("table", "said"),
    [
        (
            "[tool.verifiers.eval]\nrollouts_per_example = 8\n",
            "8 rollouts (`rollouts_per_example` = 8 in `[tool.verifiers.eval]`)",
        ),
        # Not an integer, or no such table: the project's literal, as verifiers' eval never reads it.
        ('[tool.verifiers.eval]\nrollouts_per_example = "8"\n', "16 rollouts (`rollouts_per_example` = 16)"),
        ("[tool.verifiers]\nrollouts_per_example = 8\n", "16 rollouts (`rollouts_per_example` = 16)"),
    ],
)
def test_the_runner_sizes_a_group_by_the_environments_eval_defaults(tmp_path: Path, table: str, said: str) -> None:
    """verifiers' ``vf-eval`` reads ``[tool.verifiers.eval] rollouts_per_example`` from the
    environment's pyproject.toml before its default: ASL116 sizes a group's stall by it."""
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "replay"\n\n{table}')
    (tmp_path / "replay.py").write_text(GROUP_REPLAY)
    result = run_check([str(tmp_path)], Config(root=tmp_path, follow_imports=False), use_cache=False)
    (finding,) = (f for f in result.findings if f.code == "ASL116")
    assert f"for a group of {said}, back to back" in finding.message


def test_eval_settings_are_the_integers_of_the_eval_table(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    assert eval_settings(pyproject) == ()
    pyproject.write_text('[tool.verifiers.eval]\nnum_examples = 5\nrollouts_per_example = 4\nmodel = "m"\nx = 0\n')
    assert eval_settings(pyproject) == (("num_examples", 5), ("rollouts_per_example", 4))
    pyproject.write_text("[tool.verifiers.eval\n")
    assert eval_settings(pyproject) == ()


@pytest.mark.parametrize(
    ("requirement", "version"),
    [
        ("verifiers==0.1.2", "0.1.2"),
        ("verifiers===0.1.2", "0.1.2"),
        ("verifiers (==0.1.2)", "0.1.2"),
        ("verifiers>=0.1,==0.1.2", "0.1.2"),
        ("verifiers==0.1.*", None),
        ("verifiers~=0.1.2", None),
        ("verifiers!=0.1.2", None),
        ("verifiers", None),
    ],
)
def test_only_an_exact_pin_pins_a_version(requirement: str, version: str | None) -> None:
    admits = admitted(declared([requirement]).get("verifiers", ""))
    assert (admits.pinned if admits is not None else None) == version


#: A guarded import's flag and a fallback behind it (fallback_env's shape), checked where the project
#: declares the package in a requirements file beside its pyproject.toml, as the runner reads it.
GUARDED = """
import verifiers as vf

try:
    import {module}
    HAS_IT = True
except ImportError:
    HAS_IT = False
{reset}

class EditEnv(vf.MultiTurnEnv):
    async def env_response(self, messages, state, **kwargs):
        if not HAS_IT:
            exec(messages[-1]["content"], {{}})
        return [], state
"""


@pytest.mark.parametrize(
    ("requirements", "module", "reset", "reported"),
    [
        pytest.param(
            "RestrictedPython >= 8 ; python_version >= '3.10'\n", "RestrictedPython", "", False, id="declared"
        ),
        pytest.param("requests\n", "RestrictedPython", "", True, id="not-declared"),
        # Set again at module level: the flag says something else than "installed".
        pytest.param(
            "RestrictedPython\n", "RestrictedPython", "HAS_IT = bool(RestrictedPython)", True, id="reassigned"
        ),
        # A distribution whose module has another name (knowledge.distributions): ``import PIL`` is pillow's.
        pytest.param("Pillow>=10\n", "PIL", "", False, id="another-name"),
        pytest.param("pyyaml\n", "PIL", "", True, id="another-distribution"),
    ],
)
def test_a_fallback_for_a_declared_package_never_runs(
    tmp_path: Path, requirements: str, module: str, reset: str, reported: bool
) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    (tmp_path / "requirements.txt").write_text(f"# pinned\n-r base.txt\n{requirements}")
    (tmp_path / "env.py").write_text(GUARDED.format(module=module, reset=reset))
    found = run_check([str(tmp_path)], Config(root=tmp_path, follow_imports=False), use_cache=False).findings
    assert [(f.code, f.line) for f in found] == ([("ASL112", 14)] if reported else [])
