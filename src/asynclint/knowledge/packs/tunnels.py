"""Tunnels exposing a local port: Prime's ``prime_tunnel`` (frpc), as verifiers' v1 interception
server and the sandbox runtimes built on it use per rollout.

A ``Tunnel`` keeps an ``frpc`` child process and a registration with Prime's API. Building one
builds a ``TunnelClient``, whose ``Config`` reads ``~/.prime/config.json`` (core/config.py).
``sync_stop`` terminates frpc and waits for it (up to 5 s, then a kill) and deletes the registration
with a synchronous ``httpx.delete`` (up to 5 s): verifiers 0.3.1 and 0.4.0 call it in a worker
thread (``await asyncio.to_thread(client.sync_stop)``, v1/interception/tunnel/prime.py), a runtime
that calls it inline waits on both on the loop. The async ``stop`` (and ``async with``'s exit)
still ends frpc with the same synchronous ``terminate`` + ``wait``, and ``start`` starts frpc with
``subprocess.Popen`` and writes its config file on the loop, awaited or not; ``async with`` a tunnel
runs both.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry

_TUNNEL = "source: pkg prime-tunnel 0.1.15 prime_tunnel/tunnel.py"
_CONFIG = "source: pkg prime-tunnel 0.1.15 prime_tunnel/core/client.py, core/config.py (Config reads config.json)"
#: The classes under their defining modules too (``from prime_tunnel.tunnel import Tunnel``).
_MODULES = ("prime_tunnel.", "prime_tunnel.tunnel.")

APIS: tuple[BlockingApi, ...] = (
    *(
        entry(f"{module}Tunnel.sync_stop", "http", "network", "to-thread", frozenset(), f"{_TUNNEL} :335 (sync_stop)")
        for module in _MODULES
    ),
    *(
        entry(
            f"{module}Tunnel.{method}",
            "subprocess",
            "child-process",
            None,
            frozenset(),
            f"{_TUNNEL} :326 (stop -> _cleanup -> _end_process: terminate + wait(timeout=5))",
            awaited="ends frpc with a synchronous `terminate` and `wait` (up to 5 s, then a kill) on the loop",
        )
        for module in _MODULES
        for method in ("stop", "__aexit__")  # ``async with Tunnel(...)`` stops it on exit (tunnel.py:524)
    ),
    *(
        entry(
            f"{module}Tunnel.{method}",
            "subprocess",
            "process-start",
            None,
            frozenset(),
            f"{_TUNNEL} :161 (start -> _register_and_connect: _write_frpc_config + subprocess.Popen)",
            awaited="writes frpc's config file and starts frpc with `subprocess.Popen` on the loop",
        )
        for module in _MODULES
        for method in ("start", "__aenter__")  # ``async with Tunnel(...)`` starts it (tunnel.py:519)
    ),
    *(
        entry(name, "fs", "disk-content", "to-thread", frozenset(), _CONFIG)
        for name in (
            *(f"{module}Tunnel" for module in _MODULES),
            "prime_tunnel.TunnelClient",
            "prime_tunnel.core.TunnelClient",
            "prime_tunnel.core.client.TunnelClient",
        )
    ),
)
