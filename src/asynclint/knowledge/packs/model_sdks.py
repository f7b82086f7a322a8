"""Model SDKs beyond the core table: google-genai's sync client.

The core table already knows OpenAI, Anthropic, litellm, Cohere, Groq, Together, Mistral and
Hugging Face inference clients (their twins come from :mod:`asynclint.knowledge.twins`).
google-genai's ``Client`` is sync; its async twin is the same client's ``.aio`` attribute
(``await client.aio.models.generate_content(...)``), which the catalogue never reports. Its
``chats.create(...)`` only builds a local chat; ``send_message`` sends. The ``_stream`` methods
are generators: the request goes out as they are iterated, so a worker thread given the call
alone would take nothing off the loop (``DEFERRED``).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_GENAI = "source: pkg google-genai 3.6.1 google/genai/client.py (Client.aio), models.py, files.py, chats.py"
GENAI_TWIN = "`client.aio` and await the call (`await client.aio.models.generate_content(...)`)"

APIS: tuple[BlockingApi, ...] = (
    *many(
        "llm",
        "network",
        "to-thread",
        "generate_content generate_content_stream embed_content count_tokens compute_tokens generate_images "
        "edit_image upscale_image generate_videos recontext_image segment_image get list update delete",
        "google.genai.Client.models.",
        source=_GENAI,
        twin=GENAI_TWIN,
    ),
    *many(
        "llm",
        "network",
        "to-thread",
        "upload download get delete list register_files",
        "google.genai.Client.files.",
        source=_GENAI,
        twin=GENAI_TWIN,
    ),
    *(
        entry(f"google.genai.Client.{service}.**", "llm", "network", "to-thread", frozenset(), _GENAI, GENAI_TWIN)
        for service in ("caches", "batches", "tunings", "file_search_stores", "operations")
    ),
    *many(
        "llm",
        "network",
        "to-thread",
        "send_message send_message_stream",
        "google.genai.chats.Chat.",
        source=_GENAI,
        twin="`client.aio.chats.create(...)` and `await chat.send_message(...)`",
    ),
)

RETURNS: dict[str, str] = {
    "google.genai.client.Client": "google.genai.Client",
    "google.genai.Client.chats.create()": "google.genai.chats.Chat",
}

DEFERRED: dict[str, str] = {
    "google.genai.Client.models.generate_content_stream": (
        "a generator that sends the request when iterated (google-genai 3.6.1 models.py)"
    ),
    "google.genai.chats.Chat.send_message_stream": (
        "a generator that sends the request when iterated (google-genai 3.6.1 chats.py)"
    ),
}
