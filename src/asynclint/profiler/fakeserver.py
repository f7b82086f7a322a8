"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, so environments run offline.

It runs in a child process (``FakeServer``), not a thread: a server sharing the GIL with the
profiled loop would steal time from it and blur the measurement. Replies are deterministic: a
function of the seed and the conversation, never of timing or arrival order.

The scripted model (``reply``) behaves like a small tool-using agent: with tools on offer it makes
up to ``tool_turns`` tool calls, one per turn, cycling through the tools in order; a string
argument is the user's question on the first call and, on later calls, the first thing the last
tool returned (the text before the first ``:`` of its first line, e.g. a page title from a search).
Then it answers ``<think>…</think><answer>…</answer>`` (the answer is a word of the last tool
result, or of the question) and cites what it looked up last as ``[[reference]]``. Without
tools it answers the same way at once. ``/completions`` answers each prompt like a chat of one
user message.

``python -m asynclint.profiler.fakeserver --port 0`` prints ``listening HOST PORT`` and serves
until SIGTERM/SIGINT or until its standard input closes. ``FakeServer`` starts it in a session
(and process group) of its own, so a Ctrl-C meant for the profiler does not reach it. With ``--parent-pid``
it also exits when that process dies, however it dies (``kill -9`` included): on Linux the kernel sends it SIGTERM
(``PR_SET_PDEATHSIG``), and everywhere it notices its parent changed within a second. Its stdin
is a pipe whose write end only the profiler holds: children the profiled code forks close their
copy, so they cannot keep the server alive either.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import hashlib
import io
import json
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, cast

HOST = "127.0.0.1"
FILLER = (
    "the",
    "page",
    "says",
    "so",
    "answer",
    "is",
    "likely",
    "this",
    "given",
    "search",
    "result",
    "which",
    "matches",
    "question",
    "and",
    "reference",
    "text",
    "checked",
    "carefully",
    "done",
)
MAX_BODY = 64 * 1024 * 1024
FIXED_CREATED = 1_700_000_000  # every response's "created": a clock reading would differ per run


class FakeServerError(Exception):
    """The fake server could not be started."""


@dataclass(frozen=True)
class ReplySettings:
    seed: int = 0
    latency_ms: float = 50.0
    tokens: int = 24  # words of reasoning per reply (stand-ins for tokens)
    tool_turns: int = 2


# -- the scripted model ------------------------------------------------------------------------
# The fake server's loop is the load generator in its own process, not code under measurement,
# and its messages are a few kilobytes: it serializes on its loop on purpose, in these two places.
def _dump(value: Any, **options: Any) -> str:
    return json.dumps(value, **options)  # asynclint: ignore[ASL111] (one response of a few KB, on purpose)


def _load(text: str | bytes) -> Any:
    return json.loads(text)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def _rng(settings: ReplySettings, *parts: Any) -> random.Random:
    digest = hashlib.sha256(_dump([settings.seed, *parts], sort_keys=True, default=str).encode())
    return random.Random(int.from_bytes(digest.digest()[:8], "big"))


def _reference(tool_output: str) -> str:
    first = tool_output.strip().splitlines()[0] if tool_output.strip() else ""
    head, colon, _ = first.partition(":")
    return head.strip() if colon and head.strip() else first.strip()[:80]


def _string_arguments(messages: list[dict]) -> list[str]:
    """String arguments of the tool calls made so far, in order."""
    found: list[str] = []
    for message in messages:
        for call in message.get("tool_calls") or []:
            try:
                arguments = _load((call.get("function") or {}).get("arguments") or "{}")
            except (TypeError, ValueError):
                continue
            if isinstance(arguments, dict):
                found.extend(v for v in arguments.values() if isinstance(v, str) and v)
    return found


def _argument(schema: dict, value: str, rng: random.Random) -> Any:
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    by_type: dict[object, Callable[[], Any]] = {
        "integer": lambda: rng.randint(1, 5),
        "number": lambda: round(rng.uniform(0, 1), 3),
        "boolean": lambda: True,
        "array": lambda: [],
        "object": lambda: {},
    }
    return by_type.get(kind, lambda: value)()


def reply(request: dict, settings: ReplySettings) -> tuple[dict, str]:
    """(assistant message, finish_reason) for a chat-completions request body."""
    messages = request.get("messages") or []
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    question = _text(messages[last_user].get("content")) if last_user >= 0 else ""
    since = messages[last_user + 1 :]
    calls_made = sum(1 for m in since if m.get("role") == "assistant" and m.get("tool_calls"))
    tool_outputs = [_text(m.get("content")) for m in since if m.get("role") == "tool"]
    reference = _reference(tool_outputs[-1]) if tool_outputs else ""
    looked_up = [value for value in _string_arguments(since) if value != question]
    rng = _rng(settings, question, calls_made, tool_outputs[-1:] or "")
    tools = [t for t in request.get("tools") or [] if isinstance(t, dict) and t.get("function")]
    if tools and calls_made < settings.tool_turns:
        function = tools[calls_made % len(tools)]["function"]
        parameters = function.get("parameters") or {}
        properties = parameters.get("properties") or {}
        names = parameters.get("required") or list(properties)
        value = reference if calls_made and reference else question
        arguments = {name: _argument(properties.get(name) or {}, value, rng) for name in names}
        call_id = "call_" + hashlib.sha256(f"{settings.seed}:{question}:{calls_made}".encode()).hexdigest()[:16]
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": function.get("name", ""), "arguments": _dump(arguments)},
                }
            ],
        }
        return message, "tool_calls"
    thinking = " ".join(rng.choice(FILLER) for _ in range(max(0, settings.tokens)))
    pool = (tool_outputs[-1] if tool_outputs else question).split() or ["unknown"]
    answer = rng.choice(pool).strip(".,;:()[]\"'") or "unknown"
    cited = looked_up[-1] if looked_up else reference
    cite = f"\n[[{cited}]]" if cited else ""
    return {"role": "assistant", "content": f"<think>{thinking}</think>\n<answer>{answer}</answer>{cite}"}, "stop"


def _usage(prompt_text: str, messages: list[dict]) -> dict:
    """Words standing in for tokens: the prompt once, every choice's completion (``n`` > 1)."""
    prompt = len(prompt_text.split())
    completion = sum(
        len(_text(message.get("content")).split())
        + sum(len(call["function"]["arguments"].split()) for call in message.get("tool_calls") or [])
        for message in messages
    )
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _prompt_text(request: dict) -> str:
    return " ".join(_text(m.get("content")) for m in request.get("messages") or [])


def chat_completion(request: dict, settings: ReplySettings) -> dict:
    """The whole response body. Its id and timestamp derive from the request and the seed, not
    from arrival order or the clock: environments store responses in their trajectories, and
    two runs must produce the same outputs."""
    choices: list[dict[str, Any]] = []
    for index in range(max(1, int(request.get("n") or 1))):
        message, finish = reply(
            request,
            settings
            if not index
            else ReplySettings(settings.seed + index, settings.latency_ms, settings.tokens, settings.tool_turns),
        )
        choices.append({"index": index, "message": message, "finish_reason": finish, "logprobs": None})
    return {
        "id": "chatcmpl-fake-"
        + hashlib.sha256(_dump([settings.seed, request], sort_keys=True, default=str).encode()).hexdigest()[:24],
        "object": "chat.completion",
        "created": FIXED_CREATED,
        "model": str(request.get("model") or "fake"),
        "choices": choices,
        "usage": _usage(_prompt_text(request), [choice["message"] for choice in choices]),
        "system_fingerprint": "asynclint-fake",
    }


def text_completion(request: dict, settings: ReplySettings) -> dict:
    """``/completions``: each prompt answered like a chat of one user message, ``n`` times."""
    asked = request.get("prompt")
    prompts = [asked] if isinstance(asked, str) else [str(p) for p in asked or [""]]
    choices: list[dict[str, Any]] = []
    for prompt in prompts:
        chat = chat_completion({**request, "messages": [{"role": "user", "content": prompt}], "tools": None}, settings)
        for choice in chat["choices"]:
            choices.append(
                {
                    "index": len(choices),
                    "text": choice["message"]["content"] or "",
                    "finish_reason": choice["finish_reason"],
                    "logprobs": None,
                }
            )
    return {
        "id": "cmpl-fake-"
        + hashlib.sha256(_dump([settings.seed, request], sort_keys=True, default=str).encode()).hexdigest()[:24],
        "object": "text_completion",
        "created": FIXED_CREATED,
        "model": str(request.get("model") or "fake"),
        "choices": choices,
        "usage": _usage(" ".join(prompts), [{"content": choice["text"]} for choice in choices]),
    }


def _stream_body(completion: dict, include_usage: bool = False) -> bytes:
    """The same completion as server-sent events: one delta per choice, then a finish chunk, and
    with ``stream_options.include_usage`` a last chunk with no choices and the usage (the others
    then carry ``"usage": null``)."""
    chat = completion["object"] == "chat.completion"
    kind = "chat.completion.chunk" if chat else "text_completion"
    events = []
    for choice in completion["choices"]:
        if chat:
            delta = dict(choice["message"])
            if delta.get("tool_calls"):
                delta["tool_calls"] = [{**call, "index": i} for i, call in enumerate(delta["tool_calls"])]
            pieces = (
                {"index": choice["index"], "delta": delta, "finish_reason": None},
                {"index": choice["index"], "delta": {}, "finish_reason": choice["finish_reason"]},
            )
        else:
            pieces = (
                {**choice, "finish_reason": None},
                {**choice, "text": "", "finish_reason": choice["finish_reason"]},
            )
        for piece in pieces:
            events.append(
                {
                    "id": completion["id"],
                    "object": kind,
                    "created": completion["created"],
                    "model": completion["model"],
                    "choices": [piece],
                }
            )
    if include_usage:
        for event in events:
            event["usage"] = None
        events.append(
            {
                "id": completion["id"],
                "object": kind,
                "created": completion["created"],
                "model": completion["model"],
                "choices": [],
                "usage": completion["usage"],
            }
        )
    return b"".join(b"data: " + _dump(e).encode() + b"\n\n" for e in events) + b"data: [DONE]\n\n"


# -- HTTP/1.1 over asyncio streams -------------------------------------------------------------
class _Server:
    def __init__(self, settings: ReplySettings):
        self.settings = settings
        self.requests = 0
        self.connections: set[asyncio.StreamWriter] = set()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections.add(writer)
        try:
            while await self._one(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            self.connections.discard(writer)
            writer.close()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        head = await reader.readuntil(b"\r\n\r\n")
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        method, target, _version = request_line.split(" ", 2)
        headers = {}
        for line in header_lines:
            if ":" in line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length") or 0)
        if length > MAX_BODY:
            raise ValueError("body too large")
        body = await reader.readexactly(length) if length else b""
        status, payload, content_type = await self._route(method, target.split("?", 1)[0], body)
        keep_alive = headers.get("connection", "").lower() != "close"
        writer.write(
            f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(payload)}\r\n"
            f"Connection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n".encode()
            + payload
        )
        await writer.drain()
        return keep_alive

    async def _route(self, method: str, path: str, body: bytes) -> tuple[str, bytes, str]:
        route = path.rstrip("/")
        if method == "POST" and (route.endswith("/chat/completions") or route.endswith("/completions")):
            chat = route.endswith("/chat/completions")
            try:
                request = _load(body or b"{}")
                if not isinstance(request, dict):
                    raise ValueError("expected a JSON object")
                if chat and not isinstance(request.get("messages"), list):
                    raise ValueError("'messages' must be a list")
                if not chat and not isinstance(request.get("prompt"), (str, list)):
                    raise ValueError("'prompt' must be a string or a list of strings")
            except ValueError as exc:
                return "400 Bad Request", _error(f"invalid request body: {exc}"), "application/json"
            self.requests += 1
            if self.settings.latency_ms > 0:
                await asyncio.sleep(self.settings.latency_ms / 1000)
            completion = (chat_completion if chat else text_completion)(request, self.settings)
            if request.get("stream"):
                options = request.get("stream_options")
                include_usage = isinstance(options, dict) and bool(options.get("include_usage"))
                return "200 OK", _stream_body(completion, include_usage), "text/event-stream"
            return "200 OK", _dump(completion).encode(), "application/json"
        if method == "GET" and path.rstrip("/").endswith("/models"):
            models = {
                "object": "list",
                "data": [{"id": "fake", "object": "model", "created": 0, "owned_by": "asynclint"}],
            }
            return "200 OK", _dump(models).encode(), "application/json"
        if method == "GET" and path == "/_stats":
            return "200 OK", _dump({"requests": self.requests}).encode(), "application/json"
        return "404 Not Found", _error(f"no route for {method} {path}"), "application/json"


def _error(message: str) -> bytes:
    return _dump({"error": {"message": message, "type": "invalid_request_error", "code": None}}).encode()


async def serve(settings: ReplySettings, port: int = 0, ready: Callable[[int], None] | None = None) -> None:
    """Serve on 127.0.0.1:port until cancelled; ``ready(port)`` is called once listening."""
    state = _Server(settings)
    server = await asyncio.start_server(state.handle, HOST, port, backlog=1024)
    try:
        if ready is not None:
            ready(server.sockets[0].getsockname()[1])
        await asyncio.Event().wait()
    finally:
        server.close()
        for writer in list(state.connections):
            writer.close()
        await server.wait_closed()


#: Seconds between checks that the parent is still alive (where the kernel cannot tell us).
PARENT_POLL = 1.0
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _die_with_parent(parent: int) -> None:
    """Ask Linux for SIGTERM when the parent dies (the process that started us; SIGKILL of it
    included). Then check it did not die before we asked: the signal would never come."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the poll below still notices
    if os.getppid() != parent:
        sys.exit(0)


async def _watch_parent(parent: int, stop: asyncio.Event) -> None:
    while os.getppid() == parent:
        await asyncio.sleep(PARENT_POLL)
    stop.set()


async def _main(settings: ReplySettings, port: int, parent: int | None = None) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    # A process's own stdin buffer is a BufferedReader (typeshed says only BinaryIO, without read1).
    stdin = cast(io.BufferedReader, sys.stdin.buffer)
    loop.add_reader(sys.stdin.fileno(), lambda: stop.set() if not stdin.read1(4096) else None)
    watcher = asyncio.create_task(_watch_parent(parent, stop)) if parent else None

    def ready(bound: int) -> None:
        print(f"listening {HOST} {bound}", flush=True)

    task = asyncio.create_task(serve(settings, port, ready))
    await stop.wait()
    for running in (task, watcher):
        if running is not None:
            running.cancel()
            try:
                await running
            except asyncio.CancelledError:
                pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m asynclint.profiler.fakeserver", description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--tokens", type=int, default=24)
    parser.add_argument("--tool-turns", type=int, default=2)
    parser.add_argument("--parent-pid", type=int, default=None, help="exit when this process dies")
    args = parser.parse_args(argv)
    if args.parent_pid:
        _die_with_parent(args.parent_pid)
    settings = ReplySettings(args.seed, args.latency_ms, args.tokens, args.tool_turns)
    asyncio.run(_main(settings, args.port, args.parent_pid))
    return 0


#: Write ends of the stdin pipes of the servers this process runs. A child forked from it (a
#: process pool of the profiled code) closes its copies at once: an inherited copy would keep the
#: pipe open, and the server waiting for EOF alive, after the profiler itself died.
_LIFELINES: set[int] = set()
_fork_hook_installed = False


def _close_lifelines_in_child() -> None:
    for fd in _LIFELINES:
        try:
            os.close(fd)
        except OSError:
            pass
    _LIFELINES.clear()


class FakeServer:
    """The server in a child process: ``with FakeServer(settings) as server: server.base_url``."""

    def __init__(self, settings: ReplySettings = ReplySettings(), *, start_timeout: float = 30.0):
        self.settings = settings
        self.start_timeout = start_timeout
        self.process: subprocess.Popen | None = None
        self._errors: IO[bytes] | None = None  # the server's stderr
        self._lifeline: int | None = None  # write end of the server's stdin; closing it stops the server
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}/v1"

    def start(self) -> FakeServer:
        global _fork_hook_installed
        s = self.settings
        self._errors = tempfile.TemporaryFile()
        if not _fork_hook_installed and hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=_close_lifelines_in_child)
            _fork_hook_installed = True
        # Both ends are non-inheritable (PEP 446): programs the profiled code runs never get them,
        # and forked children close the write end (above).
        read_end, self._lifeline = os.pipe()
        _LIFELINES.add(self._lifeline)
        try:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "asynclint.profiler.fakeserver",
                    "--port",
                    "0",
                    "--seed",
                    str(s.seed),
                    "--latency-ms",
                    str(s.latency_ms),
                    "--tokens",
                    str(s.tokens),
                    "--tool-turns",
                    str(s.tool_turns),
                    "--parent-pid",
                    str(os.getpid()),
                ],
                # stderr goes to a file, not a pipe: nobody reads it while the server runs, and a full
                # pipe would block the server mid-run.
                stdin=read_end,
                stdout=subprocess.PIPE,
                stderr=self._errors,
                text=True,
                # A process group (and session) of its own: Ctrl-C in a terminal signals the whole
                # foreground group, and the server must outlive that first SIGINT while the
                # profiler cancels the rollouts in flight, which may still be talking to it. It
                # still ends with the profiler: stop(), its stdin reaching EOF, or its parent's death.
                start_new_session=True,
            )
        except OSError as exc:
            self.stop()
            raise FakeServerError(f"the fake model server did not start: {exc}") from None
        finally:
            os.close(read_end)
        output = self.process.stdout
        assert output is not None  # started with stdout=PIPE
        ready, _, _ = select.select([output], [], [], self.start_timeout)
        line = output.readline() if ready else ""
        if not line.startswith("listening "):
            if self.process.poll() is None:
                self.process.terminate()
            self.process.wait()
            self._errors.seek(0)
            said = self._errors.read().decode(errors="replace").strip().splitlines()
            self.stop()
            raise FakeServerError(
                f"the fake model server did not start: {line.strip() or (said[-1] if said else 'no answer')}"
            )
        self.port = int(line.split()[2])
        return self

    def stop(self) -> None:
        process, self.process = self.process, None
        if self._lifeline is not None:
            _LIFELINES.discard(self._lifeline)
            os.close(self._lifeline)
            self._lifeline = None
        if process is None:
            if self._errors is not None:
                self._errors.close()
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdout, self._errors):
            if stream is not None:
                stream.close()

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


if __name__ == "__main__":
    sys.exit(main())
