"""ASL105: HTTP / model clients constructed on a hot path."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule, Candidate


class ClientPerCall(BlockingCallRule):
    """An HTTP or model-API client is built on a hot path, once per call.

    **Why is this bad?**
    Constructing `httpx.Client`, `OpenAI`, `AsyncOpenAI` or an `ssl` context loads the CA
    bundle and builds a TLS context synchronously: tens of milliseconds of loop time (about
    60 ms measured) per construction, even for the *async* clients. Built per rollout or per
    turn, it also throws away the connection pool, so every request pays a new handshake.
    `requests.Session` is cheap to build, but its pool starts empty: the first request to each
    host builds the TLS context and loads the CA bundle, so a session built per call pays that
    at every call's first request, where a session kept for the run pays it once per host.

    **Example**
    ```python
    from openai import AsyncOpenAI

    async def judge(prompt: str) -> str:
        client = AsyncOpenAI()
        reply = await client.responses.create(model="gpt-4.1-mini", input=prompt)
        return reply.output_text
    ```

    **Use instead**
    ```python
    from openai import AsyncOpenAI

    CLIENT = AsyncOpenAI()

    async def judge(prompt: str) -> str:
        reply = await CLIENT.responses.create(model="gpt-4.1-mini", input=prompt)
        return reply.output_text
    ```

    A client built lazily -- under a condition, and kept on `self` or in a `global`
    (`if self._client is None: self._client = AsyncOpenAI()`), or in a memoized function
    (`@functools.lru_cache`, `@functools.cache`, `@cached_property`) -- is built once and is not
    flagged; an unconditional `self._client = AsyncOpenAI()` in a hot function still is.

    **Fix**
    Build one client at start-up (module level, `__init__`, `load_environment`) and reuse it.
    `asynclint fix` moves a `with Client() as c:` block off the loop (safe); with
    `--unsafe-fixes` it builds a client kept in a local variable once, on first use, in a
    module-level `functools.cache` function (the client's lifetime changes; not at import, where
    an API key may not be set yet), and declines when the client is returned, stored, closed or
    built from local values.
    """

    code = "ASL105"
    name = "client-per-call"
    category = "client"
    default_severity = Severity.HIGH
    message = "`{callee}` {what} {where}; build it once and reuse it"

    def cost(self, candidate: Candidate) -> str | None:
        if candidate.site.kept or candidate.memoized:
            return None  # stored on self, in a global or in a memo: built once (lazily), then reused
        return candidate.cost.name
