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

from dataclasses import dataclass, replace

from asynclint.knowledge.api import BlockingApi


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

TWINS: dict[str, Twin] = {
    # --- HTTP --------------------------------------------------------------------------------
    "requests": Twin("one shared `httpx.AsyncClient` and await its methods", "https://www.python-httpx.org/async/"),
    "httpx.Client": Twin("`httpx.AsyncClient` and await its methods", "https://www.python-httpx.org/async/"),
    **{f"httpx.{verb}": Twin("one shared `httpx.AsyncClient` and await its methods", "https://www.python-httpx.org/async/")
       for verb in "get post put patch delete head options request send stream".split()},
    # --- model APIs ----------------------------------------------------------------------------
    "openai.OpenAI": Twin("`openai.AsyncOpenAI` (one shared client) and await the call", _OPENAI),
    "openai.AzureOpenAI": Twin("`openai.AsyncAzureOpenAI` and await the call", _OPENAI),
    "anthropic.Anthropic": Twin("`anthropic.AsyncAnthropic` and await the call", _ANTHROPIC),
    "anthropic.AnthropicBedrock": Twin("`anthropic.AsyncAnthropicBedrock` and await the call", _ANTHROPIC),
    "anthropic.AnthropicVertex": Twin("`anthropic.AsyncAnthropicVertex` and await the call", _ANTHROPIC),
    **{
        f"litellm.{name}": Twin(f"`await litellm.a{name}(...)`", _LITELLM)
        for name in "completion embedding text_completion image_generation transcription speech responses rerank".split()
    },
    "cohere.Client": Twin("`cohere.AsyncClient` and await the call", "source: pkg cohere 7.3.1 cohere/__init__.py"),
    "cohere.ClientV2": Twin("`cohere.AsyncClientV2` and await the call", "source: pkg cohere 7.3.1 cohere/__init__.py"),
    "groq.Groq": Twin("`groq.AsyncGroq` and await the call", "https://github.com/groq/groq-python#async-usage"),
    "together.Together": Twin("`together.AsyncTogether` and await the call", "https://github.com/togethercomputer/together-python"),
    "mistralai.Mistral": Twin("the `*_async` methods (`await client.chat.complete_async(...)`)", "https://docs.mistral.ai/getting-started/clients/"),
    "huggingface_hub.InferenceClient": Twin("`huggingface_hub.AsyncInferenceClient` and await the call",
                                            "https://huggingface.co/docs/huggingface_hub/guides/inference#async-client"),
    "google.genai.Client": Twin("`client.aio` (`await client.aio.models.generate_content(...)`)",
                                "source: pkg google-genai 3.6.1 google/genai/client.py"),
    "google.generativeai.GenerativeModel.generate_content": Twin(
        "`await model.generate_content_async(...)`", "https://ai.google.dev/api/python/google/generativeai/GenerativeModel"),
    # --- databases, caches, vector stores --------------------------------------------------------
    "redis.Redis": Twin("`redis.asyncio.Redis` and await the call", "https://redis.readthedocs.io/en/stable/examples/asyncio_examples.html"),
    "pymongo.MongoClient": Twin("`pymongo.AsyncMongoClient` (pymongo >= 4.9) or `motor`", "https://pymongo.readthedocs.io/en/stable/async-tutorial.html"),
    "psycopg.connect": Twin("`await psycopg.AsyncConnection.connect(...)`", "https://www.psycopg.org/psycopg3/docs/advanced/async.html"),
    "elasticsearch.Elasticsearch": Twin("`elasticsearch.AsyncElasticsearch` and await the call",
                                        "https://elasticsearch-py.readthedocs.io/en/stable/async.html"),
    "qdrant_client.QdrantClient": Twin("`qdrant_client.AsyncQdrantClient` and await the call",
                                       "https://python-client.qdrant.tech/#async-client"),
    "pinecone.Pinecone": Twin("`pinecone.PineconeAsyncio` and await the call", "https://docs.pinecone.io/reference/python-sdk#async-requests"),
    "pinecone.Index": Twin("`pc.IndexAsyncio(host=...)` and await the call", "https://docs.pinecone.io/reference/python-sdk#async-requests"),
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
