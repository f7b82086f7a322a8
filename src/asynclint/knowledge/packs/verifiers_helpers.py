"""verifiers' own sync helpers (the v0 stack and v1's utilities), per release.

``load_example_dataset`` downloads a named benchmark with ``datasets.load_dataset`` (the Hub is
asked for the revision on every call): meant for ``load_environment``, a network wait anywhere
hot. ``load_prime_config`` stats and reads ``~/.prime/config.json`` on every call (0.1.10 on in
``utils/client_utils.py``, v1's copy in ``v1/utils/prime.py``). ``setup_client`` (0.1.5 to
0.1.10), ``setup_openai_client``, ``setup_anthropic_client`` and ``setup_http_client`` (0.1.10
on) build a new ``httpx.AsyncClient`` (and the SDK client around it) on every call: the TLS
context and pool are built synchronously, and one client built at start-up serves every rollout.
The example tools of 0.1.2 to 0.1.8 (``verifiers.utils.tools``: "tool examples, not actively
maintained") are sync: ``ask`` fetches a page with ``requests`` and asks a model through a sync
``OpenAI`` client, ``search_ddg`` and ``search`` query DuckDuckGo and Brave, ``python`` runs
the code in a ``python -c`` child process and waits up to ten seconds.

v1's utilities (0.3.1 and 0.4.0, ``verifiers.v1.utils``; ``image_data_url`` and the judges are in
the ``graders`` pack): ``ensure_prime_auth`` reads the Prime config through ``load_prime_config``
when ``$PRIME_API_KEY`` is unset; 0.4.0's ``trace_store.write_episode`` and ``read_episodes``
serialize and append an episode, or read and validate a run's whole ``traces.jsonl`` (its
``append_episode`` is the async twin of the first).

Up to 0.1.14 these live at ``verifiers.utils...``; from 0.2.0 the v0 stack is
``verifiers.legacy`` and the old paths are aliases of it, so both spellings are entered.

``convert_func_to_tool_def`` (``convert_func_to_oai_tool`` up to 0.1.8) builds a tool's schema from
its signature and docstring (0.1.9 on: the agents SDK's ``function_schema``, a pydantic model and
its JSON schema): tens to hundreds of microseconds a tool, meant for ``ToolEnv.__init__``; a
rollout's hook that rebuilds the tool list (split 25 ledger-repair, per turn) pays it every time.

The browser integration's modes (``envs/integrations/browser_env/modes/``: ``CUAMode``, and the later
``LocalCUAMode`` and its subclass ``FullBrowseMode``, which no installed release may have) keep the
last ``keep_recent_screenshots`` screenshots of a prompt: ``filter_screenshots_in_messages(messages)``
``copy.deepcopy``s the whole message list as soon as more screenshots than that are in it -- every
turn once a few browser actions have run, each returning one. An environment calls it on its mode
(``self._browse_mode = FullBrowseMode(...)`` in ``__init__``) from ``get_prompt_messages``: a copy of
the growing history per turn, graded by the messages it is handed as the copy itself is.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_PKG = "source: pkg verifiers"
_DATA = (
    f"{_PKG} 0.1.0-0.1.14 utils/data_utils.py, 0.3.1 legacy/utils/data_utils.py (load_example_dataset -> load_dataset)"
)
_CLIENTS = (
    f"{_PKG} 0.1.5-0.1.9 utils/client_utils.py (setup_client: httpx.AsyncClient + AsyncOpenAI), "
    "0.1.10-0.2.1 utils/client_utils.py, 0.3.1 legacy/utils/client_utils.py (setup_*_client -> _build_http_client)"
)
_PRIME = (
    f"{_PKG} 0.1.10-0.2.1 utils/client_utils.py, 0.3.1 legacy/utils/client_utils.py and v1/utils/prime.py "
    "(load_prime_config: exists + read_text + json.loads of ~/.prime/config.json)"
)
_V1 = f"{_PKG} 0.3.1 and 0.4.0 v1/utils/"
_V1_UTILS = "verifiers.v1.utils."
_TRACES = (
    f"{_PKG} 0.4.0 v1/utils/trace_store.py "
    "(write_episode: dump_json + append; read_episodes: read + validate every line)"
)
_SCHEMAS = (
    f"{_PKG} 0.1.2-0.1.8 utils/tool_utils.py (convert_func_to_oai_tool: inspect.signature + docstring parsing), "
    "0.1.9-0.2.0 utils/tool_utils.py and envs/tool_env.py's import, 0.3.1 legacy/utils/tool_utils.py "
    "(convert_func_to_tool_def: agents.function_schema, a pydantic model built from the signature and its JSON schema)"
)
_TOOLS = (
    f"{_PKG} 0.1.2-0.1.8 utils/tools.py "
    "(ask: requests.get + OpenAI; search_ddg: DDGS; search: Brave; python: subprocess.run)"
)
#: The v0 stack's modules at both the paths users import and, from 0.2.0, where they live.
_V0 = ("verifiers.", "verifiers.legacy.")
_MODES = (
    f"{_PKG} 0.3.1 legacy/envs/integrations/browser_env/modes/cua_mode.py; PrimeIntellect-ai/verifiers "
    "b20f45ea envs/integrations/browser_env/modes/local_cua_mode.py and full_browse_mode.py "
    "(filter_screenshots_in_messages: copy.deepcopy(messages) past keep_recent_screenshots; "
    "FullBrowseMode(LocalCUAMode) inherits it)"
)
#: Each mode class that has (or inherits) the screenshot filter, by its module.
_MODE_CLASSES = (("cua_mode", "CUAMode"), ("local_cua_mode", "LocalCUAMode"), ("full_browse_mode", "FullBrowseMode"))

APIS: tuple[BlockingApi, ...] = (
    *(
        api
        for v0 in _V0
        for prefix in (v0, f"{v0}utils.data_utils.")
        for api in many("http", "network", "to-thread", "load_example_dataset", prefix, source=_DATA)
    ),
    *(
        api
        for v0 in _V0
        for api in many(
            "client",
            "client-build",
            "hoist-client",
            "setup_client setup_openai_client setup_anthropic_client setup_http_client",
            f"{v0}utils.client_utils.",
            source=_CLIENTS,
        )
    ),
    *(
        api
        for prefix in (*(f"{v0}utils.client_utils." for v0 in _V0), "verifiers.v1.utils.prime.")
        for api in many("fs", "disk-content", "to-thread", "load_prime_config", prefix, source=_PRIME)
    ),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "ensure_prime_auth",
        f"{_V1_UTILS}prime.",
        source=f"{_V1}prime.py (ensure_prime_auth -> load_prime_config)",
    ),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "write_episode",
        f"{_V1_UTILS}trace_store.",
        source=_TRACES,
        twin="`await verifiers.v1.utils.trace_store.append_episode(results_dir, episode, lock)`",
    ),
    *many("fs", "disk-content", "to-thread", "read_episodes", f"{_V1_UTILS}trace_store.", source=_TRACES),
    *(
        api
        for v0 in _V0
        for prefix in (f"{v0}utils.tool_utils.", f"{v0}envs.tool_env.")
        for api in many(
            "cpu", "cpu-light", None, "convert_func_to_tool_def convert_func_to_oai_tool", prefix, source=_SCHEMAS
        )
    ),
    *(
        api
        for v0 in _V0
        for module, cls in _MODE_CLASSES
        for api in many(
            "copy",
            "payload",
            "deepcopy-memo",
            "filter_screenshots_in_messages",
            f"{v0}envs.integrations.browser_env.modes.{module}.{cls}.",
            source=_MODES,
        )
    ),
    *many("http", "network", "to-thread", "ask search search_ddg", "verifiers.utils.tools.", source=_TOOLS),
    *many("subprocess", "child-process", "async-subprocess", "python", "verifiers.utils.tools.", source=_TOOLS),
)
