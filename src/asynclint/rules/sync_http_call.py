"""ASL102: synchronous HTTP and socket calls on the event loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule


class SyncHttpCall(BlockingCallRule):
    """A synchronous HTTP request or socket operation waits on the network on the event loop.

    **Why is this bad?**
    `requests`, `httpx.Client`, `urllib`, `urllib3`, `http.client` and plain sockets block the
    calling thread until the server answers. On the loop thread that freezes every rollout for
    a full network round trip -- tens of milliseconds at best, a timeout at worst. DNS lookups
    (`socket.getaddrinfo`) count too.

    **Example**
    ```python
    import requests

    async def search(query: str) -> str:
        return requests.get("https://search.example/api", params={"q": query}).text
    ```

    **Use instead**
    ```python
    import httpx

    HTTP = httpx.AsyncClient()

    async def search(query: str) -> str:
        response = await HTTP.get("https://search.example/api", params={"q": query})
        return response.text
    ```

    **Fix**
    Switch to the async client (`httpx.AsyncClient`, `aiohttp`) and await the call, sharing
    one client; or, as a stopgap, `await asyncio.to_thread(...)`. `asynclint fix` does the
    stopgap by default (safe; a `with httpx.Client() as c:` block moves off the loop whole); with
    `--unsafe-fixes` an `httpx.Client` kept on `self`, at module level or built in the function
    becomes `AsyncClient` and every call through it is awaited (declined if any use is not a
    call in `async def`), and `requests.get(...)` and friends go through one shared
    `httpx.AsyncClient` where both libraries behave alike (not for a response read through
    `ok`, `reason` or `url`, which `httpx.Response` lacks or types differently).
    """

    code = "ASL102"
    name = "sync-http-call"
    category = "http"
    default_severity = Severity.CRITICAL
    message = "`{callee}` waits on the network{on_loop} {where}"
