"""The fake model server: OpenAI chat-completions wire format (checked with the real ``openai``
client), deterministic replies, 127.0.0.1 only on a free port, clean shutdown."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from asynclint.profiler.fakeserver import FakeServer, ReplySettings, reply


def _openai():
    return pytest.importorskip("openai")  # in the `verifiers` extra; the rest of this file needs none


SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search",
        "description": "Search the wiki.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "k": {"type": "integer"}},
            "required": ["query", "k"],
        },
    },
}
OPEN_TOOL = {
    "type": "function",
    "function": {
        "name": "open_page",
        "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]},
    },
}
QUESTION = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Who designed the engine?"}]


def _listening_addresses(port: int) -> set[str]:
    """Local addresses with a socket listening on ``port``, from /proc/net/tcp{,6}."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            address, port_hex = fields[1].rsplit(":", 1)
            if int(port_hex, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found.add(address)
    return found


@pytest.fixture(scope="module")
def server():
    with FakeServer(ReplySettings(seed=7, latency_ms=1, tokens=8)) as running:
        yield running


def test_chat_completion_with_tools_then_answer_over_the_real_client(server):
    openai = _openai()

    async def conversation():
        client = openai.AsyncOpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
        try:
            messages = list(QUESTION)
            first = await client.chat.completions.create(model="m", messages=messages, tools=[SEARCH_TOOL, OPEN_TOOL])
            call = first.choices[0].message.tool_calls[0]
            messages += [
                first.choices[0].message.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": call.id, "content": "Charles Babbage: designed it in 1837."},
            ]
            second = await client.chat.completions.create(model="m", messages=messages, tools=[SEARCH_TOOL, OPEN_TOOL])
            call2 = second.choices[0].message.tool_calls[0]
            messages += [
                second.choices[0].message.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": call2.id, "content": "Babbage's engine was mechanical."},
            ]
            final = await client.chat.completions.create(model="m", messages=messages, tools=[SEARCH_TOOL, OPEN_TOOL])
            return first, second, final
        finally:
            await client.close()

    first, second, final = asyncio.run(conversation())
    assert first.object == "chat.completion" and first.choices[0].finish_reason == "tool_calls"
    call = first.choices[0].message.tool_calls[0]
    assert call.function.name == "search"
    arguments = json.loads(call.function.arguments)
    assert arguments["query"] == "Who designed the engine?" and isinstance(arguments["k"], int)
    # The second call opens what the first tool returned; then the model answers and cites it.
    call2 = second.choices[0].message.tool_calls[0]
    assert (call2.function.name, json.loads(call2.function.arguments)) == ("open_page", {"title": "Charles Babbage"})
    answer = final.choices[0]
    assert answer.finish_reason == "stop" and answer.message.tool_calls is None
    assert "<answer>" in answer.message.content and "[[Charles Babbage]]" in answer.message.content
    assert final.usage.total_tokens == final.usage.prompt_tokens + final.usage.completion_tokens > 0


def test_sync_client_streaming_and_models(server):
    openai = _openai()
    client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
    try:
        plain = client.chat.completions.create(model="m", messages=QUESTION)
        chunks = list(client.chat.completions.create(model="m", messages=QUESTION, stream=True))
        models = client.models.list()
    finally:
        client.close()
    streamed = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
    assert streamed == plain.choices[0].message.content
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert [m.id for m in models.data] == ["fake"]


def test_usage_in_streams_for_several_choices_and_text_completions(server):
    openai = _openai()
    client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
    try:
        chunks = list(
            client.chat.completions.create(
                model="m", messages=QUESTION, stream=True, stream_options={"include_usage": True}
            )
        )
        plain = client.chat.completions.create(model="m", messages=QUESTION)
        two = client.chat.completions.create(model="m", messages=QUESTION, n=2)
        text = client.completions.create(model="m", prompt="Who designed the engine?")
        streamed_text = list(client.completions.create(model="m", prompt="Who designed the engine?", stream=True))
    finally:
        client.close()
    assert chunks[-1].choices == [] and chunks[-1].usage.total_tokens == plain.usage.total_tokens
    assert all(chunk.usage is None for chunk in chunks[:-1])
    assert two.usage.completion_tokens == sum(len(c.message.content.split()) for c in two.choices)
    assert two.usage.prompt_tokens == plain.usage.prompt_tokens
    assert "<answer>" in text.choices[0].text and text.usage.total_tokens > 0
    assert "".join(chunk.choices[0].text for chunk in streamed_text) == text.choices[0].text


def test_errors_use_the_openai_error_shape(server):
    openai = _openai()
    client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
    try:
        with pytest.raises(openai.NotFoundError):
            client.embeddings.create(model="m", input="hi")
        with pytest.raises(openai.BadRequestError, match="messages"):
            client.chat.completions.create(model="m", messages="not a list")  # type: ignore[arg-type]
    finally:
        client.close()


def test_raw_http_keep_alive_and_unknown_routes(server):
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        bodies = []
        for _ in range(2):  # two requests on one connection
            connection.request(
                "POST",
                "/v1/chat/completions",
                body=json.dumps({"model": "m", "messages": QUESTION}),
                headers={"Content-Type": "application/json"},
            )
            response = connection.getresponse()
            bodies.append(json.loads(response.read()))
            assert response.status == 200 and bodies[-1]["choices"][0]["message"]["role"] == "assistant"
        # Environments keep responses in their trajectories: nothing may depend on arrival order
        # or the clock, not even the id or the timestamp.
        assert bodies[0] == bodies[1]
        connection.request("GET", "/v1/nothing")
        response = connection.getresponse()
        assert response.status == 404 and "error" in json.loads(response.read())
    finally:
        connection.close()


def test_replies_are_deterministic_by_seed():
    request = {"messages": QUESTION}
    same = reply(request, ReplySettings(seed=1)), reply(request, ReplySettings(seed=1))
    other = reply(request, ReplySettings(seed=2))
    assert same[0] == same[1] and other != same[0]
    assert reply({"messages": QUESTION, "tools": [SEARCH_TOOL]}, ReplySettings(tool_turns=0))[1] == "stop"


def test_binds_only_loopback_on_a_free_port_and_shuts_down_cleanly():
    threads_before = threading.active_count()
    fds_before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    first, second = FakeServer(ReplySettings(latency_ms=0)), FakeServer(ReplySettings(latency_ms=0))
    with first, second:
        assert first.port != second.port and first.port > 0
        if os.path.exists("/proc/net/tcp"):
            assert _listening_addresses(first.port) == {"0100007F"}  # 127.0.0.1, nothing else
        with socket.create_connection(("127.0.0.1", first.port), timeout=5):
            pass
        process = first.process
    assert process.returncode is not None
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", first.port), timeout=5).close()
    assert threading.active_count() == threads_before
    if fds_before is not None:
        assert len(os.listdir("/proc/self/fd")) == fds_before


def test_the_server_exits_when_its_parent_closes_stdin():
    server = FakeServer(ReplySettings(latency_ms=0)).start()
    process = server.process
    os.close(server._lifeline)
    server._lifeline = None
    assert process.wait(timeout=10) == 0
    server.stop()


# The profiler is killed (-9) while a child it forked (a process pool of the profiled code, say)
# still runs: the server must not outlive the profiler.
KILLED_PARENT = """
import os, sys, time
from asynclint.profiler.fakeserver import FakeServer, ReplySettings
server = FakeServer(ReplySettings(latency_ms=0)).start()
child = os.fork()
if child == 0:
    time.sleep(60)
    os._exit(0)
print(server.process.pid, child, flush=True)
time.sleep(60)
"""


def _gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if Path(f"/proc/{pid}/stat").is_file() and Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
            return True  # exited; only its (re-parented) zombie remains to be reaped
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX only")
def test_the_server_dies_with_a_killed_profiler_even_when_a_forked_child_lives_on():
    profiler = subprocess.Popen([sys.executable, "-c", KILLED_PARENT], stdout=subprocess.PIPE, text=True)
    server_pid, child_pid = map(int, profiler.stdout.readline().split())
    try:
        os.kill(profiler.pid, signal.SIGKILL)
        profiler.wait()
        assert _gone(server_pid, timeout=5), "the fake server outlived its parent"
    finally:
        for pid in (server_pid, child_pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        profiler.stdout.close()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX only")
def test_a_forked_child_does_not_hold_the_servers_stdin():
    with FakeServer(ReplySettings(latency_ms=0)) as server:
        read_end, write_end = os.pipe()
        child = os.fork()
        if child == 0:  # report whether the lifeline is still open here
            try:
                os.fstat(server._lifeline)
                os.write(write_end, b"open")
            except OSError:
                os.write(write_end, b"closed")
            os._exit(0)
        os.waitpid(child, 0)
        os.close(write_end)
        assert os.read(read_end, 10) == b"closed"
        os.close(read_end)
