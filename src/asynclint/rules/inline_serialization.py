"""ASL111: serialization and parsing of payloads on the event loop, graded by payload size."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule


class InlineSerialization(BlockingCallRule):
    """`json`, `pickle`, `marshal`, `base64`, `msgpack`, `yaml` or pydantic dumps/parses a payload on the loop.

    **Why is this bad?**
    Serializing is pure CPU under the GIL, proportional to the payload, so the payload grades
    it. A whole state, trajectory, completion, message history, dataset or file's contents costs
    milliseconds per call (high; a file's contents, like reading the file, is raised only back
    to back for a group: the file does not grow with the rollout); re-serializing a history that
    grows every turn inside a per-turn hook is quadratic per rollout (high, and the message says
    so); dumping every message in a loop is the whole history again. A payload of unknown size
    is low. One model reply, one message, one tool call's arguments, a short literal or a
    display of plain names (`json.dumps({"ok": False, "error": msg})`) is not reported: about 2
    µs inline, less than the 41 µs a worker thread would add -- unless a name says it holds the
    state or a history (`json.dumps([state])` is as large as the state). A name that merely
    contains `state` (`state_id`, `game_state`) is no such evidence, nor is a helper's parameter
    named `completion` or `messages` unless its callers hand it the framework's value of that
    name (a judge's reply passed as `completion` is of unknown size); a rollout's `prompt` is
    its input messages, a message or two. A verifiers v1 `state` is the `vf.State` subclass its
    task or toolset names (`vf.Task[Data, LabState, Config]`): its `model_dump` is as large as
    that model's fields say, not the whole rollout. A name holds what the function bound it to,
    traced through plain assignments, `.strip()`-like methods, parses and dumps: `text =
    response.choices[0].message.content; json.loads(text.strip())` is one reply, as are a
    parser's `parse_answer(completion)`, a regex match and `messages[-1]["content"]`; a name
    bound to a whole completion or a file's contents is whole whatever it is called. The
    finding's `size` fact says what the evidence concluded and `size_at` which binding decided
    it. The fast serializers (`orjson`, `ujson`, `msgpack`) are one level lower. `base64` is a
    byte codec, a linear pass in C several times cheaper than a parse of as many bytes: a whole
    file's contents (one image) is low, raised only in a loop or back to back for a group. The
    file variants (`json.load(f)`, `pickle.dump(obj, f)`) do disk I/O (high).

    **Example**
    ```python
    import json

    async def log_turn(state, log):
        await log.send(json.dumps(state["trajectory"]))
    ```

    **Use instead**
    ```python
    import asyncio
    import json

    async def log_turn(state, log):
        await log.send(await asyncio.to_thread(json.dumps, state["trajectory"]))
    ```

    **Fix**
    Serialize less (only the fields needed), use a faster serializer (`orjson`), or move it
    off the loop with `asyncio.to_thread` -- which frees the loop but not the GIL.
    `asynclint fix` does the last (safe) and says so.
    """

    code = "ASL111"
    name = "inline-serialization"
    category = "serialization"
    default_severity = Severity.MEDIUM
    message = "`{callee}` {verb} {payload}{on_loop} {where}"
    verb = "serializes or parses"
