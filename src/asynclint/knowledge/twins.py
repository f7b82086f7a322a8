"""Well-known sync -> async twins: the async API a finding names as the fix.

Many libraries ship the same API twice: classes ``X``/``AsyncX`` (openai, anthropic, e2b, exa),
a ``.aio`` variant of every method (Modal, google-genai's ``client.aio``), ``a``-prefixed
functions (``litellm.acompletion``), or a sibling module (``redis.asyncio``). This table is
what asynclint knows without the package installed; :mod:`asynclint.twin_discovery` finds more
in installed packages by reading their source. Keys are the sync name as the catalogue writes
it (a type, or one function); a knowledge entry without a twin of its own takes the twin of
the longest key its pattern starts with (see :func:`twin_of`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from asynclint.knowledge.api import BlockingApi
from asynclint.knowledge.packs import langchain


@dataclass(frozen=True)
class Twin:
    phrase: str  # follows "use" in a message
    source: str


#: Attribute names that switch a sync object to its async twin anywhere in a call path:
#: ``sb.exec.aio(...)`` (Modal), ``client.aio.models.generate_content(...)`` (google-genai).
#: A call through one of them is never the blocking API it hangs off.
ASYNC_ATTRIBUTES: frozenset[str] = frozenset({"aio"})

_OPENAI = "source: pkg openai 3.57.0 openai/__init__.py"
_ANTHROPIC = "source: pkg anthropic 2.14.0 anthropic/__init__.py"
_LITELLM = "source: pkg litellm 1.110.2 litellm/main.py"
#: The litellm calls that have an `a<name>` twin.
_LITELLM_CALLS = "completion embedding text_completion image_generation transcription speech responses rerank"

#: One wording for one async API: a call on a receiver holding either of two sync clients names
#: the twin once when their entries word it the same (``rules/member_twins.py``).
_HTTPX = Twin("one shared `httpx.AsyncClient` and await its methods", "https://www.python-httpx.org/async/")

TWINS: dict[str, Twin] = {
    # --- HTTP --------------------------------------------------------------------------------
    "requests": _HTTPX,
    "httpx.Client": _HTTPX,
    **{f"httpx.{verb}": _HTTPX for verb in "get post put patch delete head options request send stream".split()},
    # --- model APIs ----------------------------------------------------------------------------
    "openai.OpenAI": Twin("`openai.AsyncOpenAI` (one shared client) and await the call", _OPENAI),
    "openai.AzureOpenAI": Twin("`openai.AsyncAzureOpenAI` and await the call", _OPENAI),
    "anthropic.Anthropic": Twin("`anthropic.AsyncAnthropic` and await the call", _ANTHROPIC),
    "anthropic.AnthropicBedrock": Twin("`anthropic.AsyncAnthropicBedrock` and await the call", _ANTHROPIC),
    "anthropic.AnthropicVertex": Twin("`anthropic.AsyncAnthropicVertex` and await the call", _ANTHROPIC),
    **{f"litellm.{name}": Twin(f"`await litellm.a{name}(...)`", _LITELLM) for name in _LITELLM_CALLS.split()},
    "cohere.Client": Twin("`cohere.AsyncClient` and await the call", "source: pkg cohere 7.3.1 cohere/__init__.py"),
    "cohere.ClientV2": Twin("`cohere.AsyncClientV2` and await the call", "source: pkg cohere 7.3.1 cohere/__init__.py"),
    "groq.Groq": Twin("`groq.AsyncGroq` and await the call", "https://github.com/groq/groq-python#async-usage"),
    "together.Together": Twin(
        "`together.AsyncTogether` and await the call", "https://github.com/togethercomputer/together-python"
    ),
    "mistralai.Mistral": Twin(
        "the `*_async` methods (`await client.chat.complete_async(...)`)",
        "https://docs.mistral.ai/getting-started/clients/",
    ),
    "huggingface_hub.InferenceClient": Twin(
        "`huggingface_hub.AsyncInferenceClient` and await the call",
        "https://huggingface.co/docs/huggingface_hub/guides/inference#async-client",
    ),
    "google.genai.Client": Twin(
        "`client.aio` (`await client.aio.models.generate_content(...)`)",
        "source: pkg google-genai 3.6.1 google/genai/client.py",
    ),
    "google.generativeai.GenerativeModel.generate_content": Twin(
        "`await model.generate_content_async(...)`",
        "https://ai.google.dev/api/python/google/generativeai/GenerativeModel",
    ),
    # --- databases, caches, vector stores --------------------------------------------------------
    "redis.Redis": Twin(
        "`redis.asyncio.Redis` and await the call",
        "https://redis.readthedocs.io/en/stable/examples/asyncio_examples.html",
    ),
    "pymongo.MongoClient": Twin(
        "`pymongo.AsyncMongoClient` (pymongo >= 4.9) or `motor`",
        "https://pymongo.readthedocs.io/en/stable/async-tutorial.html",
    ),
    "psycopg.connect": Twin(
        "`await psycopg.AsyncConnection.connect(...)`", "https://www.psycopg.org/psycopg3/docs/advanced/async.html"
    ),
    "elasticsearch.Elasticsearch": Twin(
        "`elasticsearch.AsyncElasticsearch` and await the call",
        "https://elasticsearch-py.readthedocs.io/en/stable/async.html",
    ),
    "qdrant_client.QdrantClient": Twin(
        "`qdrant_client.AsyncQdrantClient` and await the call", "https://python-client.qdrant.tech/#async-client"
    ),
    "pinecone.Pinecone": Twin(
        "`pinecone.PineconeAsyncio` and await the call", "https://docs.pinecone.io/reference/python-sdk#async-requests"
    ),
    "pinecone.Index": Twin(
        "`pc.IndexAsyncio(host=...)` and await the call", "https://docs.pinecone.io/reference/python-sdk#async-requests"
    ),
    "boto3": Twin("`aioboto3` (a separate package) and await the call", "https://aioboto3.readthedocs.io/"),
}


def twin_of(api: BlockingApi) -> BlockingApi:
    """``api`` with the twin of the longest :data:`TWINS` key its pattern starts with, unless
    it names one itself."""
    if api.twin or api.pattern.startswith("*.") or api.category == "client":  # building one: hoisting is the fix
        return api
    parts = api.pattern.removesuffix(".**").split(".")
    for end in range(len(parts), 0, -1):
        found = TWINS.get(".".join(parts[:end]))
        if found is not None:
            return replace(api, twin=found.phrase)
    return api


# --- rewriting a call to its twin (the unsafe ``twin-call`` fix) ---------------------------------


@dataclass(frozen=True)
class TwinCall:
    """How a call through a sync API becomes an awaited call of its async twin.

    ``kind`` says where the twin is:

    * ``aio`` -- every method ``m`` of ``sync`` has an ``m.aio`` variant taking the same
      arguments (Modal's synchronicity wraps one coroutine function both ways):
      ``sb.exec(...)`` -> ``await sb.exec.aio(...)``;
    * ``client-aio`` -- the client has an ``.aio`` attribute mirroring it (google-genai):
      ``client.models.generate_content(...)`` -> ``await client.aio.models.generate_content(...)``;
    * ``prefix`` -- the twin function sits beside the sync one with an ``a`` in front:
      ``litellm.completion(...)`` -> ``await litellm.acompletion(...)``;
    * ``method`` -- every method ``m`` of ``sync`` has a twin ``am`` on the same object
      (LangChain): ``llm.invoke(x)`` -> ``await llm.ainvoke(x)``;
    * ``class`` / ``module`` -- ``sync`` is a class whose twin is the class ``twin``, in the same
      module or a sibling one (``redis.Redis`` -> ``redis.asyncio.Redis``): the object is built from
      the twin and every call through it is awaited (the ``async-client`` machinery).
    """

    kind: str
    sync: str  # the sync API as the catalogue writes it: ``modal.Sandbox``, ``litellm.completion``
    twin: str  # ``litellm.acompletion``; the async class for class kinds; ``sync`` again for ``aio``
    #: Whether the twin takes the same parameters as the sync API (for a class: its constructor
    #: and its methods), as ``source`` says. A rewrite is only made where this holds.
    same_signature: bool
    #: Discovered twins: the methods (``__init__`` for a class's constructor) whose twin was read to
    #: take the same parameters; ``None`` when ``same_signature`` speaks for every method.
    methods: frozenset[str] | None = None
    #: Methods that are no coroutine on the twin class (a plain ``def``, or one building a handle
    #: used differently there, as ``pipeline()``): an object used through them is not switched.
    local: frozenset[str] = frozenset()
    differs: str = ""  # how the twin's parameters differ, in words, when they do
    source: str = ""


_MODAL_AIO = "source: pkg modal 1.6.4 (synchronicity: `X.m` and `X.m.aio` wrap one coroutine function)"
_GENAI_AIO = "source: pkg google-genai 3.6.1 google/genai/client.py (`Client.aio` mirrors the client's services)"
_LITELLM_A = f"{_LITELLM} (each `a<name>` takes `<name>`'s parameters and passes them on)"
_LANGCHAIN_A = (
    "source: pkg langchain-core 1.8.4 (each `a<m>` takes `<m>`'s parameters; by default it runs `<m>` in an executor)"
)
#: Client methods that build another client or a handle locally, on both twins.
_HANDLES = frozenset({"with_options", "with_raw_response", "with_streaming_response", "copy", "options"})

TWIN_CALLS: dict[str, TwinCall] = {
    call.sync: call
    for call in (
        # --- `.aio` families -----------------------------------------------------------------------
        *(
            TwinCall("aio", name, name, True, source=_MODAL_AIO)
            for name in (
                "modal.Sandbox",
                "modal.container_process.ContainerProcess",
                "modal.App",
                "modal.Function",
                "modal.FunctionCall",
                "modal.Cls",
                "modal.cls.Obj",
                "modal.Dict",
                "modal.Queue",
                "modal.Volume",
            )
        ),
        TwinCall("client-aio", "google.genai.Client", "google.genai.Client", True, source=_GENAI_AIO),
        # --- `a`-prefixed functions ----------------------------------------------------------------
        *(
            TwinCall("prefix", f"litellm.{name}", f"litellm.a{name}", True, source=_LITELLM_A)
            for name in _LITELLM_CALLS.split()
        ),
        # --- `a`-prefixed methods ------------------------------------------------------------------
        *(
            TwinCall("method", interface, interface, True, methods, source=_LANGCHAIN_A)
            for interface, methods in langchain.REWRITABLE.items()
        ),
        # --- class pairs the async-client recipe does not know ----------------------------------------
        TwinCall(
            "class",
            "anthropic.AnthropicBedrock",
            "anthropic.AsyncAnthropicBedrock",
            True,
            local=_HANDLES,
            source=_ANTHROPIC,
        ),
        TwinCall(
            "class",
            "anthropic.AnthropicVertex",
            "anthropic.AsyncAnthropicVertex",
            True,
            local=_HANDLES,
            source=_ANTHROPIC,
        ),
        TwinCall(
            "class",
            "elasticsearch.Elasticsearch",
            "elasticsearch.AsyncElasticsearch",
            True,
            local=_HANDLES,
            source="https://elasticsearch-py.readthedocs.io/en/stable/async.html (the same methods, awaited)",
        ),
        TwinCall(
            "class",
            "qdrant_client.QdrantClient",
            "qdrant_client.AsyncQdrantClient",
            True,
            local=_HANDLES,
            source="https://python-client.qdrant.tech/#async-client (the same methods, awaited)",
        ),
        # --- module pairs ------------------------------------------------------------------------------
        TwinCall(
            "module",
            "redis.Redis",
            "redis.asyncio.Redis",
            True,
            local=frozenset({"pipeline", "pubsub", "lock", "register_script", "monitor"}),
            source="https://redis.readthedocs.io/en/stable/examples/asyncio_examples.html "
            "(the same commands, awaited; pipelines, pub/sub and locks are built locally and used differently)",
        ),
        # --- twins whose parameters differ: named in messages, never rewritten ---------------------------
        TwinCall(
            "class",
            "pinecone.Pinecone",
            "pinecone.PineconeAsyncio",
            False,
            differs="an async index is opened with `pc.IndexAsyncio(host=...)`, not `pc.Index(name)`",
            source="https://docs.pinecone.io/reference/python-sdk#async-requests",
        ),
        TwinCall(
            "class",
            "pymongo.MongoClient",
            "pymongo.AsyncMongoClient",
            False,
            differs="cursors are iterated with `async for` and `to_list()` takes a length",
            source="https://pymongo.readthedocs.io/en/stable/async-tutorial.html",
        ),
        TwinCall(
            "prefix",
            "psycopg.connect",
            "psycopg.AsyncConnection.connect",
            False,
            differs="the twin is a classmethod of `AsyncConnection`, whose cursors are async too",
            source="https://www.psycopg.org/psycopg3/docs/advanced/async.html",
        ),
    )
}


def twin_call_of(target: str, discovered: Mapping[str, TwinCall] = MappingProxyType({})) -> tuple[TwinCall, str] | None:
    """The rewrite for a call of ``target`` and the rest of its name after the sync API
    (``modal.Sandbox.exec`` -> the ``modal.Sandbox`` family and ``exec``): the longest prefix
    the table or a discovered twin names (the table first, as for the catalogue)."""
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        found = TWIN_CALLS.get(key) or discovered.get(key)
        if found is not None:
            return found, ".".join(parts[end:])
    return None
