"""ASL103: synchronous LLM client calls on the event loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule


class SyncLlmCall(BlockingCallRule):
    """A synchronous model-API client (`OpenAI`, `Anthropic`, `litellm.completion`) is called on the loop.

    **Why is this bad?**
    A chat completion takes hundreds of milliseconds to minutes. The sync clients block the
    thread for all of it, so a judge call in one rollout freezes every rollout. The client is
    often built elsewhere (`self.judge = OpenAI()` in `__init__`) and only used on the hot
    path, which is why name-matching linters miss it.

    **Example**
    ```python
    from openai import OpenAI

    class Judge:
        def __init__(self):
            self.client = OpenAI()

        async def score(self, answer: str) -> float:
            reply = self.client.chat.completions.create(
                model="gpt-4.1-mini", messages=[{"role": "user", "content": answer}]
            )
            return float(reply.choices[0].message.content)
    ```

    **Use instead**
    ```python
    from openai import AsyncOpenAI

    class Judge:
        def __init__(self):
            self.client = AsyncOpenAI()

        async def score(self, answer: str) -> float:
            reply = await self.client.chat.completions.create(
                model="gpt-4.1-mini", messages=[{"role": "user", "content": answer}]
            )
            return float(reply.choices[0].message.content)
    ```

    **Fix**
    Use the async client (`AsyncOpenAI`, `AsyncAnthropic`, `litellm.acompletion`) and await
    it. `asynclint fix` does that only with `--unsafe-fixes` (every use of the client changes),
    for a client kept on `self`, at module level or built in the function, whose every use is a
    call in `async def`;
    otherwise, and by default, it runs the call with `await asyncio.to_thread(...)` (safe).
    """

    code = "ASL103"
    name = "sync-llm-call"
    category = "llm"
    default_severity = Severity.CRITICAL
    message = "`{callee}` waits on a model API{on_loop} {where}"
