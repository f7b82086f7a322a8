"""The agent ``asynclint profile`` gives a verifiers v1 environment: a chat loop run in-process.

verifiers v1 runs each rollout's agent program in a runtime (a sandbox, or a subprocess set up
with ``uv``) and proxies its model calls through an interception server on the main loop. The
program itself never runs on that loop, so for profiling the loop it only has to make the same
model calls: this harness does, through the interception endpoint, with one shared HTTP client,
calling the rollout's MCP tools when the task offers some (``mcp`` must be installed, as it is
for the framework's own tool servers). Nothing is installed or downloaded; the fake model
server decides when to call tools and when to answer.

verifiers imports plugins by a flat module id and reads the Harness subclass from ``__all__``:
``register()`` puts this module in ``sys.modules`` under :data:`HARNESS_ID`.
"""

from __future__ import annotations

import json
import sys
from contextlib import AsyncExitStack
from typing import Any

import httpx
import verifiers.v1 as vf
from verifiers.v1.dialects.chat import message_to_wire

HARNESS_ID = "asynclint_inprocess_agent"
#: A runaway tool loop ends here; the fake model calls at most ``--tool-turns`` tools.
MAX_TURNS = 32

_client: httpx.AsyncClient | None = None


def register() -> None:
    sys.modules.setdefault(HARNESS_ID, sys.modules[__name__])


def open_client() -> None:
    """Build the shared client before measuring: its TLS context alone costs ~20 ms."""
    global _client
    if _client is None:
        # asynclint: ignore[ASL105,ASL901] (the target's set-up builds it first, v1.py; deep mode only)
        _client = httpx.AsyncClient(timeout=httpx.Timeout(None, connect=10.0))


async def close_client() -> None:
    global _client
    if _client is not None:
        await _client.aclose()
        _client = None


class InProcessAgentConfig(vf.HarnessConfig):
    pass


class InProcessAgent(vf.Harness[InProcessAgentConfig]):
    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_MCP = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(
        self,
        ctx: Any,
        trace: Any,
        runtime: Any,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: Any,
        **_: Any,
    ) -> Any:
        open_client()
        assert _client is not None
        system, prompt = self.resolve_prompt(data)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        elif prompt is not None:
            messages.extend(message_to_wire(m) for m in prompt)
        tools = await _McpTools.connect(mcp_urls) if mcp_urls else _McpTools.none()
        for _turn in range(MAX_TURNS):
            body: dict[str, Any] = {"model": ctx.model, "messages": messages}
            if tools.schemas:
                body["tools"] = tools.schemas
            response = await _client.post(
                f"{endpoint}/chat/completions", json=body, headers={"Authorization": f"Bearer {secret}"}
            )
            if response.status_code != 200:
                # A stop condition or a limit refuses the turn; the framework records why.
                return vf.ProgramResult(exit_code=1, stdout="", stderr=response.text[-2000:])
            # one chat completion's reply: a parse of microseconds
            message = response.json()["choices"][0]["message"]  # asynclint: ignore[inline-serialization]
            messages.append({k: v for k, v in message.items() if v is not None})
            calls = message.get("tool_calls") or []
            if not calls:
                return vf.ProgramResult(exit_code=0, stdout=message.get("content") or "", stderr="")
            for call in calls:
                content = await tools.call(call["function"]["name"], call["function"].get("arguments") or "{}")
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
        return vf.ProgramResult(exit_code=1, stdout="", stderr=f"no answer after {MAX_TURNS} turns")


class _McpTools:
    """The rollout's tools, listed once from each MCP server; a call opens its own session, as the
    framework's own chat program does (the servers are stateless over HTTP)."""

    def __init__(self, schemas: list[dict[str, Any]], dispatch: dict[str, tuple[str, str]], urls: dict[str, str]):
        self.schemas = schemas
        self.dispatch = dispatch
        self.urls = urls

    @classmethod
    def none(cls) -> _McpTools:
        return cls([], {}, {})

    @classmethod
    async def connect(cls, urls: dict[str, str]) -> _McpTools:
        schemas: list[dict[str, Any]] = []
        dispatch: dict[str, tuple[str, str]] = {}
        for server, url in urls.items():
            async with _session(url) as session:
                listed = (await session.list_tools()).tools
            for tool in listed:
                name = f"{server}_{tool.name}" if server else tool.name
                dispatch[name] = (server, tool.name)
                # mcp 2 renamed the field; 1.x has only the camel-case one.
                parameters = getattr(tool, "input_schema", None) or getattr(tool, "inputSchema", None) or {}
                schemas.append(
                    {
                        "type": "function",
                        "function": {"name": name, "description": tool.description or "", "parameters": parameters},
                    }
                )
        return cls(schemas, dispatch, urls)

    async def call(self, name: str, arguments: str) -> str:
        if name not in self.dispatch:
            return f"error: unknown tool {name!r}"
        try:
            parsed = json.loads(arguments)  # a tool call's few arguments: cheaper than a thread hop
        except json.JSONDecodeError as exc:
            return f"error: invalid JSON in tool arguments ({exc})"
        if not isinstance(parsed, dict):
            return "error: tool arguments must be a JSON object"
        server, tool = self.dispatch[name]
        async with _session(self.urls[server]) as session:
            result = await session.call_tool(tool, parsed)
        return "\n".join(getattr(block, "text", None) or str(block) for block in result.content)


def _session(url: str) -> Any:
    try:
        from mcp import ClientSession
        from mcp.client import streamable_http
    except ImportError:
        raise RuntimeError("this task offers MCP tools: install the `mcp` package to profile it") from None
    # Renamed in mcp 1.24; the old name stays for older releases.
    transport = getattr(streamable_http, "streamable_http_client", None) or streamable_http.streamablehttp_client
    return _McpSession(url, ClientSession, transport)


class _McpSession:
    def __init__(self, url: str, session_type: Any, transport: Any):
        self._stack = AsyncExitStack()
        self._url = url
        self._session_type = session_type
        self._transport = transport

    async def __aenter__(self) -> Any:
        read, write, *_ = await self._stack.enter_async_context(self._transport(self._url))
        session = await self._stack.enter_async_context(self._session_type(read, write))
        await session.initialize()
        return session

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.aclose()


__all__ = ["InProcessAgent"]
