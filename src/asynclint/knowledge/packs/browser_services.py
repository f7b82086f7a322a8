"""Hosted browsers driven through a synchronous SDK client: Browserbase.

``browserbase.Browserbase`` is a Stainless-generated client (a ``SyncAPIClient`` over an
``httpx.Client``): every resource method (``sessions.create``, ``sessions.retrieve``,
``contexts.create``, ``sessions.recording.retrieve`` ...) is an HTTPS round trip to the service;
``sessions.create`` also waits for the service to start a browser. The same module ships
``AsyncBrowserbase`` with the same resources, awaited. Building the client, ``with_options``,
``copy`` and the raw/streaming response wrappers send nothing.
"""

from __future__ import annotations

from asynclint.knowledge.api import entry

_BROWSERBASE = "source: pkg browserbase 1.22.0 browserbase/_client.py (Browserbase, AsyncBrowserbase), resources/"
BROWSERBASE_TWIN = "`browserbase.AsyncBrowserbase` (one shared client) and await the call"
#: Client members that build or configure locally (browserbase/_client.py): nothing is sent.
_LOCAL = frozenset("with_options with_raw_response with_streaming_response copy close __enter__ __exit__".split())

APIS = (entry("browserbase.Browserbase.**", "sdk", "network", "to-thread", _LOCAL, _BROWSERBASE, BROWSERBASE_TWIN),)
