"""Library calls whose result is a lazy stream: the call sends the request, and iterating what it
returns reads the reply's body from the socket, chunk by chunk. Offloading the call
(``await loop.run_in_executor(None, lambda: c.get_archive(path))``) then leaves the reading on the
event loop wherever the code iterates the result (``for chunk in bits``).

docker-py 7.1.0: ``APIClient.get_archive`` (docker/api/container.py) returns
``(self._stream_raw_result(res, chunk_size, False), stat)``, ``export`` (same file) and
``get_image`` (docker/api/image.py) return ``self._stream_raw_result(...)``: a generator
(docker/api/client.py) that checks the status and yields ``response.iter_content(...)`` of a
response requested with ``stream=True``. The models' ``Container.get_archive`` / ``export`` and
``Image.save`` (docker/models/containers.py, images.py) return the client's result as it is.
``logs`` and ``stats`` stream only when asked to (``stream=True``; stats by default): not listed,
the keyword is not read here.
"""

from __future__ import annotations

_DOCKER = "source: pkg docker 7.1.0"

#: The qualified name of a call whose result is (or holds) a lazy stream -> where in the result
#: the stream is: "" the result itself, "0" the first item of the tuple it returns.
LAZY_STREAMS: dict[str, str] = {
    "docker.models.containers.Container.get_archive": "0",
    "docker.models.containers.Container.export": "",
    "docker.models.images.Image.save": "",
    "docker.APIClient.get_archive": "0",
    "docker.APIClient.export": "",
    "docker.APIClient.get_image": "",
    "docker.api.client.APIClient.get_archive": "0",
    "docker.api.client.APIClient.export": "",
    "docker.api.client.APIClient.get_image": "",
}
LAZY_STREAMS_SOURCE = f"{_DOCKER} docker/api/container.py, docker/api/image.py, docker/api/client.py"

#: The methods of :data:`LAZY_STREAMS` by last name -> where the stream is in their result: what
#: the indexer can tell of a call before the project says what its receiver is.
LAZY_STREAM_METHODS: dict[str, str] = {name.rpartition(".")[2]: part for name, part in LAZY_STREAMS.items()}
