"""Containers and remote shells through synchronous clients: ``docker`` (docker-py), ``paramiko``, ``kubernetes``.

docker-py talks to the daemon over a socket with ``requests``: every collection and model method
is a round trip, ``containers.run`` waits for the container to start (and, unless detached, to
exit), ``exec_run`` waits for the command. ``docker.from_env()`` and ``DockerClient()`` ask the
daemon for its API version when none is given (docker/api/client.py ``_retrieve_server_version``), and
``attach_socket`` upgrades one request: a round trip each, answered without waiting on a container.
The attached socket is a plain ``socket.SocketIO`` whose reads wait for the container's output.
paramiko waits on the SSH server in the calling thread. Neither has an async API; ``aiodocker``
and ``asyncssh`` are separate libraries. Two model properties are round trips too (``READS``
below: their getter asks the daemon); the others (``status``, ``name``, ``labels``, ``tags``)
read what the model already holds, until ``reload()``. The official ``kubernetes`` client's API
classes (``CoreV1Api``, ``AppsV1Api``...) are generated: every public method is an HTTPS request
to the API server through urllib3, ``kubernetes.stream.stream`` opens an exec/attach websocket and
reads until the command ends, and ``load_kube_config`` reads and parses the kubeconfig file;
``kubernetes_asyncio`` is the same generated API with coroutines.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many, reads

_DOCKER = "source: pkg docker 7.1.0"
DOCKER_TWIN = "`aiodocker` (docker-py has no async API), or `await asyncio.to_thread(...)`"
_PARAMIKO = "source: pkg paramiko 5.1.0"
PARAMIKO_TWIN = "`asyncssh` (paramiko has no async API)"
#: Local-only methods (docker/client.py ``close``; paramiko client.py host-key and policy setup).
_DOCKER_LOCAL = frozenset({"close"})
_SSH_LOCAL = frozenset(
    {
        "get_host_keys",
        "set_log_channel",
        "set_missing_host_key_policy",
        "get_transport",
        "load_host_keys",
        "load_system_host_keys",
        "save_host_keys",
        "close",
    }
)

_KUBERNETES = "source: pkg kubernetes 37.0.2"
KUBERNETES_TWIN = "`kubernetes_asyncio` (the same API classes, awaited)"
#: The generated API classes environments and sandbox managers drive -> their module under
#: kubernetes/client/api/.
_KUBERNETES_APIS = {
    "CoreV1Api": "core_v1_api",
    "AppsV1Api": "apps_v1_api",
    "BatchV1Api": "batch_v1_api",
    "CustomObjectsApi": "custom_objects_api",
    "NetworkingV1Api": "networking_v1_api",
    "RbacAuthorizationV1Api": "rbac_authorization_v1_api",
    "StorageV1Api": "storage_v1_api",
    "AutoscalingV2Api": "autoscaling_v2_api",
    "PolicyV1Api": "policy_v1_api",
}

_CLIENTS = ("docker.from_env", "docker.DockerClient", "docker.APIClient")
_MODELS = ("containers.Container", "images.Image", "networks.Network", "volumes.Volume")

APIS: tuple[BlockingApi, ...] = (
    *many(
        "sdk",
        "daemon-call",
        "to-thread",
        " ".join(_CLIENTS),
        source=f"{_DOCKER} docker/client.py, docker/api/client.py (version=None -> _retrieve_server_version)",
        twin=DOCKER_TWIN,
    ),
    entry(
        "docker.models.containers.Container.attach_socket",
        "sdk",
        "daemon-call",
        "to-thread",
        frozenset(),
        f"{_DOCKER} docker/api/container.py attach_socket (one POST .../attach with Upgrade: tcp), "
        "api/client.py _get_raw_response_socket",
        DOCKER_TWIN,
    ),
    *(
        entry(
            f"{client}.**",
            "sdk",
            "network",
            "to-thread",
            _DOCKER_LOCAL,
            f"{_DOCKER} docker/client.py, docker/models/*.py",
            DOCKER_TWIN,
        )
        for client in _CLIENTS
    ),
    *(
        entry(
            f"docker.models.{model}.**",
            "sdk",
            "network",
            "to-thread",
            frozenset(),
            f"{_DOCKER} docker/models/{model.partition('.')[0]}.py",
            DOCKER_TWIN,
        )
        for model in _MODELS
    ),
    # Properties whose getter asks the daemon (read, not called).
    *reads(
        "sdk",
        "network",
        "to-thread",
        "image",
        "docker.models.containers.Container",
        source=f"{_DOCKER} docker/models/containers.py (Container.image calls self.client.images.get)",
        twin=DOCKER_TWIN,
    ),
    *reads(
        "sdk",
        "network",
        "to-thread",
        "containers",
        "docker.models.networks.Network",
        source=f"{_DOCKER} docker/models/networks.py (Network.containers calls self.client.containers.get per id)",
        twin=DOCKER_TWIN,
    ),
    entry(
        "paramiko.SSHClient.**",
        "sdk",
        "network",
        "to-thread",
        _SSH_LOCAL,
        f"{_PARAMIKO} paramiko/client.py",
        PARAMIKO_TWIN,
    ),
    entry(
        "paramiko.SFTPClient.**",
        "sdk",
        "network",
        "to-thread",
        frozenset({"close", "get_channel"}),
        f"{_PARAMIKO} paramiko/sftp_client.py",
        PARAMIKO_TWIN,
    ),
    *(
        entry(
            f"kubernetes.client.{api}.**",
            "sdk",
            "network",
            "to-thread",
            frozenset(),
            f"{_KUBERNETES} kubernetes/client/api/ (generated: every method calls ApiClient.call_api)",
            KUBERNETES_TWIN,
        )
        for api in _KUBERNETES_APIS
    ),
    entry(
        "kubernetes.stream.stream",
        "sdk",
        "network",
        "to-thread",
        frozenset(),
        f"{_KUBERNETES} kubernetes/stream/stream.py (websocket exec/attach, read until the command ends)",
        KUBERNETES_TWIN,
    ),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "load_kube_config new_client_from_config",
        "kubernetes.config.",
        source=f"{_KUBERNETES} kubernetes/config/kube_config.py (reads and parses the kubeconfig YAML)",
        twin=KUBERNETES_TWIN,
    ),
)

RETURNS: dict[str, str] = {
    "docker.client.DockerClient": "docker.DockerClient",
    "docker.client.from_env": "docker.from_env",
    "docker.api.APIClient": "docker.APIClient",
    "docker.DockerClient.from_env()": "docker.from_env",
    **{
        f"{client}.containers.{method}()": "docker.models.containers.Container"
        for client in ("docker.from_env", "docker.DockerClient")
        for method in ("run", "create", "get")
    },
    **{
        f"{client}.images.{method}()": "docker.models.images.Image"
        for client in ("docker.from_env", "docker.DockerClient")
        for method in ("get", "pull")
    },
    "docker.models.containers.Container.image": "docker.models.images.Image",
    # The upgraded connection's raw socket: over the Unix socket or plain TCP, the ``SocketIO`` under
    # the response (api/client.py ``_get_raw_response_socket``); its ``_sock`` is the socket itself.
    "docker.models.containers.Container.attach_socket()": "socket.SocketIO",
    "paramiko.client.SSHClient": "paramiko.SSHClient",
    "paramiko.SSHClient.open_sftp()": "paramiko.SFTPClient",
    "paramiko.sftp_client.SFTPClient": "paramiko.SFTPClient",
    "paramiko.SFTPClient.from_transport()": "paramiko.SFTPClient",
    **{f"kubernetes.client.api.{api}": f"kubernetes.client.{api}" for api in _KUBERNETES_APIS},
    **{f"kubernetes.client.api.{module}.{api}": f"kubernetes.client.{api}" for api, module in _KUBERNETES_APIS.items()},
}

ITEMS: dict[str, str] = {
    "docker.models.networks.Network.containers()": "docker.models.containers.Container",
    **{
        f"{client}.containers.list()": "docker.models.containers.Container"
        for client in ("docker.from_env", "docker.DockerClient")
    },
}
