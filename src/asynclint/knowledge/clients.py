"""Client classes whose async twin sits in the same module under another name: what the
``async-client`` and ``handoff-client`` recipes switch a client to (``twin-call`` switches
classes of other shapes); how ``requests``' functions map onto a shared ``httpx.AsyncClient``;
and the names by which the recipes recognise a client's life (its builders, its closers)."""

from __future__ import annotations

#: Sync client class -> the async class in the same module.
ASYNC_CLIENTS: dict[str, str] = {
    "openai.OpenAI": "AsyncOpenAI",
    "openai.AzureOpenAI": "AsyncAzureOpenAI",
    "anthropic.Anthropic": "AsyncAnthropic",
    "httpx.Client": "AsyncClient",
    "groq.Groq": "AsyncGroq",
    "together.Together": "AsyncTogether",
    "cohere.Client": "AsyncClient",
    "cohere.ClientV2": "AsyncClientV2",
    "huggingface_hub.InferenceClient": "AsyncInferenceClient",
}


#: ``requests.<verb>(url, ...)`` -> ``await <shared httpx.AsyncClient>.<verb>(url, ...)``: the
#: keyword arguments both libraries read the same way, and ``allow_redirects=`` under httpx's
#: name. Anything else -- ``stream=``, ``files=``, ``verify=``, ``proxies=`` -- is spelled or
#: behaves differently, and the fix declines. ``requests.Session`` is left to a worker thread:
#: its mounted adapters, retries and hooks have no one-to-one httpx spelling.
REQUESTS_FUNCTIONS = frozenset(f"requests.{verb}" for verb in "get post put patch delete head options".split())
REQUESTS_SAME_KEYWORDS = frozenset({"params", "headers", "json", "data", "timeout", "cookies", "auth"})
#: requests' keyword -> httpx's name for it.
HTTPX_KEYWORDS = {"allow_redirects": "follow_redirects"}
#: requests follows redirects for every verb but ``head`` (httpx for none): the shared client
#: follows them, and a ``head`` says it does not.
REQUESTS_NO_REDIRECTS = frozenset({"head"})
#: What a ``requests.Response`` and an ``httpx.Response`` offer alike. Not: ``ok``, ``reason``,
#: ``iter_content``, ``apparent_encoding``, ``links`` (httpx lacks them), ``url`` (an
#: ``httpx.URL``, not a ``str``), ``raise_for_status`` after a ``head`` (httpx also raises on 3xx).
RESPONSE_ALIKE = frozenset("status_code text content json headers encoding cookies history elapsed".split())

#: Methods that end a client's life: a local client closed in its function is not one the
#: ``hoist-client`` recipe may share between calls.
CLOSERS = frozenset({"close", "aclose", "__exit__", "__aexit__"})
#: Last parts of client constructors too generic to name the shared client by alone
#: (``httpx.Client``, ``requests.Session``, ``ssl.create_default_context``): the ``hoist-client``
#: recipe keeps their module in the name it gives (``HTTPX_CLIENT``), not just ``CLIENT``.
GENERIC_CONSTRUCTORS = frozenset({"client", "session", "resource", "connect", "create_default_context"})
#: Words in a context manager's callee (lower-cased) that say its ``with`` block reads a client's
#: responses rather than a file: the ``with-block`` recipe names its helper ``_fetch_...``.
CLIENT_WORDS = ("client", "session", "openai", "anthropic")
