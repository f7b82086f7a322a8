"""Library calls whose result is a lazy stream: the call sends the request, and reading what it
returns reads the reply's body from the socket, chunk by chunk. Offloading the call
(``await loop.run_in_executor(None, lambda: c.get_archive(path))``) then leaves the reading on the
event loop wherever the code reads the result (``for chunk in bits``, ``r.iter_content()``).

docker-py 7.1.0: ``APIClient.get_archive`` (docker/api/container.py) returns
``(self._stream_raw_result(res, chunk_size, False), stat)``, ``export`` (same file) and
``get_image`` (docker/api/image.py) return ``self._stream_raw_result(...)``: a generator
(docker/api/client.py) that checks the status and yields ``response.iter_content(...)`` of a
response requested with ``stream=True``. The models' ``Container.get_archive`` / ``export`` and
``Image.save`` (docker/models/containers.py, images.py) return the client's result as it is.
``logs(stream=True)`` returns that kind of generator too (docker/api/container.py:821, "a blocking
generator" in the model's docstring), and ``exec_run(cmd, stream=True)`` returns
``ExecResult(None, exec_output)``, the output a generator of the exec's chunks
(docker/models/containers.py:217); ``APIClient.exec_start(stream=True)`` is that generator.

requests 2.32.3: ``Session.send`` reads the body (``r.content``) before returning unless the
request asked for ``stream=True`` (requests/sessions.py:745); a streamed ``Response`` reads it from
the socket when iterated (``__iter__``, models.py:750), through ``iter_content`` (:799),
``iter_lines`` (:857), ``content`` (:891), ``text`` (:910), ``json`` (:947) or its ``raw`` file.
httpx 0.28.1: ``Client.send(request, stream=True)`` skips ``response.read()`` (httpx/_client.py:921);
the body is then read by ``read`` (_models.py:876), ``iter_bytes`` (:884), ``iter_text`` (:907),
``iter_lines`` (:926) or ``iter_raw`` (:935) -- its ``content``/``text``/``json`` raise
``ResponseNotRead`` (:636) instead of reading.
paramiko 5.1.0: ``SSHClient.exec_command`` starts the command and returns ``(stdin, stdout,
stderr)``, files on the channel (paramiko/client.py:555-558); its ``stdout``'s ``read``,
``readline``, ``readlines`` and iteration (``BufferedFile``, paramiko/file.py:69-320) wait for the
remote command's output, ``read()`` until it closes the channel.
"""

from __future__ import annotations

from dataclasses import dataclass

_DOCKER = "source: pkg docker 7.1.0"
_REQUESTS = "source: pkg requests 2.32.3"
_HTTPX = "source: pkg httpx 0.28.1"
_PARAMIKO = "source: pkg paramiko 5.1.0"

#: What reads a streamed reply's body, by library: its methods and attributes (``__iter__``: a
#: loop over the reply itself).
_REQUESTS_READS = frozenset("__iter__ iter_content iter_lines content text json raw".split())
_HTTPX_READS = frozenset("read iter_bytes iter_text iter_lines iter_raw".split())
_PARAMIKO_READS = frozenset("__iter__ read readline readlines".split())


@dataclass(frozen=True, slots=True)
class LazyStream:
    """Where the stream is in a call's result, and what makes it one."""

    #: "" the result itself, "0" / "1" that item of the tuple it returns.
    part: str = ""
    #: A keyword the call must be given ``True`` for its result to be a stream ("" always one).
    keyword: str = ""
    #: The attributes that read the body when the stream is a reply object (requests' or httpx's
    #: ``Response``); empty for a generator, read by iterating it.
    reads: frozenset[str] = frozenset()


_ALWAYS_TAR = LazyStream("0")
_ALWAYS = LazyStream()
_STREAM_KEYWORD = LazyStream(keyword="stream")
_REPLY = LazyStream(keyword="stream", reads=_REQUESTS_READS)
_REQUESTS_VERBS = "get post put patch delete head options request".split()

#: The qualified name of a call whose result is (or holds) a lazy stream -> :class:`LazyStream`.
LAZY_STREAMS: dict[str, LazyStream] = {
    "docker.models.containers.Container.get_archive": _ALWAYS_TAR,
    "docker.models.containers.Container.export": _ALWAYS,
    "docker.models.containers.Container.logs": _STREAM_KEYWORD,
    "docker.models.containers.Container.exec_run": LazyStream("1", "stream"),
    "docker.models.images.Image.save": _ALWAYS,
    **{
        f"{client}.{method}": stream
        for client in ("docker.APIClient", "docker.api.client.APIClient")
        for method, stream in (
            ("get_archive", _ALWAYS_TAR),
            ("export", _ALWAYS),
            ("get_image", _ALWAYS),
            ("logs", _STREAM_KEYWORD),
            ("exec_start", _STREAM_KEYWORD),
        )
    },
    **{
        f"{owner}.{verb}": _REPLY
        for owner in ("requests", "requests.api", "requests.Session", "requests.sessions.Session")
        for verb in _REQUESTS_VERBS
    },
    **{
        f"{client}.send": LazyStream(keyword="stream", reads=_HTTPX_READS)
        for client in ("httpx.Client", "httpx._client.Client")
    },
    # The command's stdout, item 1 of what it returns.
    **{
        f"{client}.exec_command": LazyStream("1", reads=_PARAMIKO_READS)
        for client in ("paramiko.SSHClient", "paramiko.client.SSHClient")
    },
}
LAZY_STREAMS_SOURCE = (
    f"{_DOCKER} docker/api/container.py, docker/api/image.py, docker/api/client.py, "
    f"docker/models/containers.py; {_REQUESTS} requests/sessions.py, requests/models.py; "
    f"{_HTTPX} httpx/_client.py, httpx/_models.py; {_PARAMIKO} paramiko/client.py, paramiko/file.py"
)

#: Callables that read a whole stream handed to them (``list(bits)``, ``b"".join(bits)``) or a
#: piece of it (``next(bits)``): read by name, a builtin or ``bytes.join``/``str.join``.
STREAM_READERS = frozenset("list tuple next bytes bytearray sorted join".split())


def _by_method() -> dict[str, LazyStream]:
    """:data:`LAZY_STREAMS` by last name: what the indexer can tell of a call before the project
    says what its receiver is. Two entries of one name must agree (a test reads this)."""
    methods: dict[str, LazyStream] = {}
    for name, stream in LAZY_STREAMS.items():
        method = name.rpartition(".")[2]
        if methods.setdefault(method, stream) != stream:
            raise ValueError(f"lazy streams named {method!r} disagree: {stream} and {methods[method]}")
    return methods


#: The entries of :data:`LAZY_STREAMS` by last name (see :func:`_by_method`).
LAZY_STREAM_METHODS: dict[str, LazyStream] = _by_method()
