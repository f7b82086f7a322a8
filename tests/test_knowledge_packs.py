"""Knowledge packs are data with sources; twins reach the messages; ``.aio`` is never the sync API."""

from __future__ import annotations

import re
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import check_text

from asynclint.knowledge.blocking import BUILTIN_APIS, CATEGORIES, RECIPES, RETURNS
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.costs import COST_CLASSES
from asynclint.knowledge.packs import PACK_APIS, PACK_PROTOCOLS, PACK_RETURNS, PACKS
from asynclint.knowledge.twins import TWINS, twin_of
from asynclint.rules import BY_CATEGORY

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("name", sorted(PACKS))
def test_every_pack_entry_says_where_its_fact_comes_from(name):
    pack = PACKS[name]
    assert pack.__doc__, f"pack {name} has no docstring"
    assert pack.APIS, f"pack {name} is empty"
    for api in pack.APIS:
        assert api.source.startswith(("source: ", "https://")), f"{api.pattern}: source {api.source!r}"
        assert api.category in CATEGORIES and api.category in BY_CATEGORY, api.pattern
        assert api.fix is None or api.fix in RECIPES, api.pattern


@pytest.mark.parametrize("name", sorted(PACK_PROTOCOLS))
def test_every_protocol_entry_says_where_its_fact_comes_from(name):
    protocol = PACK_PROTOCOLS[name]
    assert protocol.methods and set(dict(protocol.calls)) <= protocol.methods
    for api in protocol.entries:
        assert api.source.startswith(("source: ", "https://")), f"{api.pattern}: source {api.source!r}"
        assert api.category in CATEGORIES and api.category in BY_CATEGORY, api.pattern
        assert api.fix is None or api.fix in RECIPES, api.pattern
        assert api.cost in COST_CLASSES, api.pattern


def test_packs_state_each_pattern_once():
    patterns = [api.pattern for api in PACK_APIS]
    assert len(patterns) == len(set(patterns)), sorted({p for p in patterns if patterns.count(p) > 1})


def test_pack_tables_are_merged_into_the_catalogue():
    catalogue = Catalogue()
    for api in PACK_APIS:
        assert catalogue.get(api.pattern).category == api.category
    for key, value in PACK_RETURNS.items():
        assert RETURNS[key] == value


def test_every_fixture_of_a_pack_exists():
    for name in PACKS:
        stem = "sync_browser_call" if name == "browsers" else f"pack_{name}"
        assert (FIXTURES / f"{stem}.py").exists(), f"knowledge pack {name}: no tests/fixtures/{stem}.py"


@pytest.mark.parametrize(
    "target",
    [
        "modal.Sandbox.exec.aio",
        "modal.Sandbox.create.aio",
        "modal.Function.remote.aio",
        "google.genai.Client.aio.models.generate_content",
        "openai.OpenAI.aio.chat",
    ],
)
def test_a_call_through_aio_is_the_async_twin(target):
    assert Catalogue().match(target, target.rpartition(".")[2]) is None


def test_the_sync_call_beside_it_is_matched():
    catalogue = Catalogue()
    assert catalogue.match("modal.Sandbox.exec", "exec").pattern == "modal.Sandbox.**"
    assert catalogue.match("google.genai.Client.models.generate_content", "generate_content") is not None


def test_core_entries_take_their_twin_from_the_table():
    by_pattern = {api.pattern: api for api in BUILTIN_APIS}
    assert "AsyncOpenAI" in by_pattern["openai.OpenAI.**"].twin
    assert "acompletion" in by_pattern["litellm.completion"].twin
    assert "redis.asyncio" in by_pattern["redis.Redis.**"].twin
    assert by_pattern["time.sleep"].twin == ""  # the recipe already says it
    assert by_pattern["openai.OpenAI"].twin == ""  # building a client: hoisting is the fix
    assert all(twin.source.startswith(("source: ", "https://")) for twin in TWINS.values())


def test_one_call_names_one_async_api_in_one_wording():
    """Entries of the same call on different classes or modules (``requests.Session.get``,
    ``httpx.Client.get``; ``requests.get``, ``httpx.get``) whose twins name the same async API word
    it the same: a receiver holding either client names the twin once, as the members' twins are
    grouped by their words (``rules/member_twins.py``). Class-wide (``.**``) entries name no call."""
    named = re.compile(r"`[^`]+`")  # the async API a twin's words quote first
    wordings: dict[tuple[str, str], set[str]] = defaultdict(set)
    for api in Catalogue().apis.values():
        if api.twin and not api.pattern.endswith(".**") and (quoted := named.search(api.twin)):
            wordings[(api.pattern.rpartition(".")[2], quoted.group(0))].add(api.twin)
    assert {call: words for call, words in wordings.items() if len(words) > 1} == {}
    assert Catalogue().apis["requests.Session.get"].twin == Catalogue().apis["httpx.Client.get"].twin


def test_an_entry_keeps_its_own_twin():
    api = next(api for api in PACK_APIS if api.pattern == "exa_py.Exa.**")
    assert twin_of(api) is api and "AsyncExa" in api.twin


def _messages(source: str) -> list[str]:
    result = check_text(textwrap.dedent(source))
    assert not result.errors
    return [f.message for f in result.findings]


def test_the_twin_is_named_in_the_message():
    (message,) = _messages("""
        from exa_py import Exa

        EXA = Exa()

        async def search(query):
            return EXA.search(query)
    """)
    assert message.endswith("; use `exa_py.AsyncExa` and await the call")


def test_a_search_call_says_it_queries_a_search_service_not_a_database():
    messages = _messages("""
        import wikipedia
        from ddgs import DDGS

        async def search(query):
            return DDGS().text(query), wikipedia.summary(query)
    """)
    assert [m.split(" on the event loop")[0] for m in messages] == [
        "`ddgs.DDGS.text` queries a web search service",
        "`wikipedia.summary` queries the Wikipedia API",
    ]


def test_no_twin_no_suffix():
    (message,) = _messages("""
        import shutil

        async def clean(path):
            shutil.rmtree(path)
    """)
    assert "; use" not in message


def test_an_entry_that_blocks_although_awaited_says_why_and_offers_no_recipe():
    awaited = [api for api in BUILTIN_APIS if api.awaited]
    assert {"chromadb.AsyncCollection.query", "verifiers.v1.Judge.complete"} <= {api.pattern for api in awaited}
    for api in awaited:
        assert api.fix is None, f"{api.pattern}: a coroutine cannot be handed to a worker thread"
        assert api.blocks(True, ()) is (not api.blocks_with)
    query = next(api for api in awaited if api.pattern == "chromadb.AsyncCollection.query")
    assert query.blocks(True, ("query_texts", "n_results")) and not query.blocks(True, ("query_embeddings",))
    sync = Catalogue().match("chromadb.HttpClient.get_collection", "get_collection")
    assert sync is not None and sync.blocks(False, ()) and not sync.blocks(True, ())


def test_an_entry_that_blocks_only_on_some_arguments_blocks_when_the_argument_is_not_known():
    step = Catalogue().get("tau_bench.Env.step")
    assert step.blocks_on and "step" in Catalogue().argument_methods
    (respond,) = step.blocks_on
    assert step.blocks(False, (), respond) and step.blocks(False, (), "")
    assert not step.blocks(False, (), "tau_bench.types.Action()") and not step.blocks(True, (), respond)


def test_an_entry_that_blocks_only_given_a_path_blocks_by_keyword_or_position():
    """``frame.to_csv()`` returns text; ``to_csv(path)`` and ``to_csv(path_or_buf=path)`` write a file,
    ``to_csv(io.StringIO())`` writes to memory."""
    catalogue = Catalogue()
    to_csv = catalogue.get("pandas.DataFrame.to_csv")
    assert "to_csv" in catalogue.position_names
    assert not to_csv.blocks(False, ("index",)) and not to_csv.blocks(False, ("index", "0"), "io.StringIO")
    assert to_csv.blocks(False, ("0",), "builtins.str") and to_csv.blocks(False, ("path_or_buf",))


def test_a_path_built_by_os_path_is_a_text_to_the_readers_of_a_path():
    assert RETURNS["os.path.join()"] == RETURNS["os.getcwd()"] == "builtins.str"
    loadtxt = Catalogue().get("numpy.loadtxt")
    assert loadtxt.blocks(False, (), RETURNS["os.path.join()"])


def test_a_log_line_is_known_and_never_graded():
    """loguru's and structlog's calls are named (the survey counts them, deep mode does not read the
    sinks), with a cost class that grades no finding, as the standard library's logging gets none."""
    catalogue = Catalogue()
    for target in ("loguru.logger.info", "structlog.get_logger.info", "structlog.stdlib.get_logger.warning"):
        api = catalogue.match(target, None)
        assert api is not None and COST_CLASSES[api.cost].severity is None, target
    assert catalogue.result_of("loguru.logger.bind") == "loguru.logger"


def test_property_entries_are_exact_and_match_only_reads():
    catalogue = Catalogue()
    properties = [api for api in PACK_APIS if api.read]
    assert {"selenium.webdriver.Chrome.title", "selenium.webdriver.remote.webelement.WebElement.text"} <= {
        api.pattern for api in properties
    }
    for api in properties:
        assert not api.pattern.endswith(".**") and not api.pattern.startswith("*."), api.pattern
        assert catalogue.match_read(api.pattern).pattern == api.pattern
        called = catalogue.match(api.pattern, api.pattern.rpartition(".")[2])
        assert called is None or not called.read, api.pattern
        # What reading it gives is a value (or the type a pack names), never the object it is read on.
        assert RETURNS[api.pattern] != api.pattern.rpartition(".")[0], api.pattern
    assert catalogue.match_read("selenium.webdriver.Chrome.get") is None  # a method: called, not read
    assert catalogue.match_read("selenium.webdriver.Chrome.name") is None  # a local property
    assert RETURNS["selenium.webdriver.Chrome.title"] == "selenium.webdriver.Chrome.title()"


def test_a_pipe_with_a_model_imported_from_another_module_calls_the_model():
    from asynclint.config import Config
    from asynclint.engine import SourceFile
    from asynclint.pipeline import check_sources

    models = 'from langchain_openai import ChatOpenAI\n\nLLM = ChatOpenAI(model="m")\nFLAGS = 1\n'
    env = textwrap.dedent("""\
        import re

        from langchain_core.prompts import ChatPromptTemplate

        from pkg.models import FLAGS, LLM

        PROMPT = ChatPromptTemplate.from_messages([("user", "{q}")])
        CHAIN = PROMPT | LLM
        PATTERN = re.compile("x", re.I | re.M)


        async def answer(question):
            return CHAIN.invoke({"q": question}), PATTERN.match(question), FLAGS | 2
    """)
    result = check_sources(
        [
            SourceFile("pkg/models.py", models, module="pkg.models", package="pkg"),
            SourceFile("pkg/env.py", env, module="pkg.env", package="pkg"),
        ],
        Config(root=Path(".")),
    )
    assert not result.errors
    assert [(f.line, f.facts.callee) for f in result.findings] == [(13, "langchain_core.runnables.Runnable.invoke")]


def test_a_chain_through_a_library_call_back_names_the_library_function():
    # The patched function runs where evaluate_simulation looks telecom's load_file up: the link of
    # that call says so; the call that runs the next function itself says nothing.
    text = textwrap.dedent("""\
        import tau2.domains.telecom.environment as telecom_environment
        from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation


        def _load_utf8(path, **kwargs):
            with open(path, encoding="utf-8") as handle:
                return handle.read()


        telecom_environment.load_file = _load_utf8


        def score(state):
            return evaluate_simulation(state["simulation"], state["task"], EvaluationType.ENV, False, "telecom")


        async def post_rollout(self, state):
            return score(state)
    """)
    from asynclint.report._common import chain_steps
    from asynclint.report.json_report import chain_to_list

    result = check_text(text)
    (finding,) = [f for f in result.findings if f.line == 6]
    assert [(link.line, link.through) for link in finding.chain] == [
        (17, ""),
        (18, ""),
        (14, "tau2.evaluator.evaluator.evaluate_simulation"),
        (6, ""),
    ]
    texts = [step.text for step in chain_steps(finding.chain)]
    assert texts[2] == "calls `tau2.evaluator.evaluator.evaluate_simulation`, which calls back `_load_utf8`"
    assert texts[1] == "calls `score`"
    assert chain_to_list(finding.chain)[2]["through"] == "tau2.evaluator.evaluator.evaluate_simulation"
    # The facts and the message name it too, at the step it belongs to.
    assert finding.facts.via == ("score",)
    assert finding.facts.through == ("", "tau2.evaluator.evaluator.evaluate_simulation")
    assert (
        "called from async def `post_rollout` via `score` through `tau2.evaluator.evaluator.evaluate_simulation` ("
        in (finding.message)
    )
