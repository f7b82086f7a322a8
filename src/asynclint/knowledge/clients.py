"""Client classes whose async twin sits in the same module under another name: what the
``async-client`` and ``handoff-client`` recipes switch a client to (``twin-call`` switches
classes of other shapes)."""

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
