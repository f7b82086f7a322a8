"""Remote sandboxes used through their synchronous API: Modal, e2b, Prime sandboxes, Daytona.

Modal's objects are async code wrapped by ``synchronicity``: every method is a blocking call
that waits on a gRPC round trip, and has an ``.aio`` variant to await instead
(``await sb.exec.aio(...)``). A call through ``.aio`` is never reported (see
:data:`asynclint.knowledge.twins.ASYNC_ATTRIBUTES`). ``from_name`` and ``with_options`` only
build lazy handles. e2b and Prime ship a sync class beside an async twin (``Sandbox`` /
``AsyncSandbox``, ``SandboxClient`` / ``AsyncSandboxClient``); the sync one waits on HTTP, and so
does e2b-desktop's ``Sandbox``, a subclass of e2b's sync one whose desktop actions (``screenshot``,
``left_click``, ``write``, ...) each run a command in the sandbox. Daytona's sync classes wait on
HTTP too (``Daytona`` / ``AsyncDaytona``, whose sandboxes are ``Sandbox`` / ``AsyncSandbox``); building
a ``Daytona`` builds its API and HTTP clients. e2b's ``Template`` classmethods (``build``,
``exists``, ...) are the sync twins of ``AsyncTemplate``'s. From e2b 2.0.0 on, the sync
``Sandbox.list()`` and ``list_snapshots()`` (2.20.0 on) only build a paginator: its ``next_items()``
sends the request. e2b 1.x's ``Sandbox.list()`` sent it itself and is not matched (a 2.x call written
the same way would be a false report); its callers iterate a list, never call ``next_items``.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_MODAL = "source: pkg modal 1.6.4"
MODAL_TWIN = "the `.aio` variant and await it (`await sb.exec.aio(...)`, `await fn.remote.aio(...)`)"
#: Calls that build a lazy handle or configure locally: nothing is sent (modal _functions.py,
#: cls.py, dict.py, queue.py, volume.py: plain ``def``, not ``async def``, under synchronicity).
_MODAL_LAZY = frozenset({"from_name", "from_id", "with_options", "with_concurrency", "with_batching", "local"})
#: Writing to a sandbox's stdin buffers locally; ``drain()`` sends.
_BUFFERED = frozenset({"write", "write_eof"})

_E2B = (
    "source: pkg e2b 2.63.0 e2b/__init__.py, e2b/sandbox_sync/main.py (Sandbox), sandbox_sync/sandbox_api.py "
    "(list), sandbox/main.py (get_host, download_url, upload_url, get_mcp_url: local); pkg e2b 1.0.0 and 1.11.1 "
    "e2b/sandbox_sync/main.py (Sandbox(...) creates the sandbox; connect, is_running, kill, set_timeout, "
    "get_info and get_metrics from 1.x: a subset of 2.63.0's)"
)
#: e2b's sync ``Sandbox`` calls that ask the API or the sandbox (e2b 2.63.0, which names every one
#: e2b 1.0.0 and 1.11.1 have): its classmethods, methods and the ``files``/``commands``/``pty``/``git``
#: objects; ``__exit__`` kills the sandbox. Not ``list`` and ``list_snapshots``: from e2b 2.0.0 on
#: they build a paginator locally and its ``next_items`` asks the API (:data:`_E2B_PAGINATORS`).
_E2B_CALLS = (
    "create connect fork is_running kill set_timeout update_network get_info get_metrics pause beta_pause "
    "create_snapshot delete_snapshot get_mcp_token __exit__ commands.** files.** pty.** git.**"
)
_E2B_PAGES = (
    "source: pkg e2b 2.0.0, 2.10.0, 2.20.0, 2.44.0 and 2.63.0 e2b/sandbox_sync/sandbox_api.py (Sandbox.list returns "
    "SandboxPaginator(...), no request), sandbox_sync/main.py (list_snapshots, from 2.20.0 -- not in 2.10.0 -- "
    "returns SnapshotPaginator(...)), sandbox_sync/paginator.py (next_items: one GET per page over the sync API "
    "client); pkg e2b 1.0.0, 1.5.0 and 1.11.1 e2b/sandbox_sync/sandbox_api.py (Sandbox.list sent the GET itself and "
    "returned a list: this pack follows the 2.x releases, the current ones since August 2025)"
)
#: e2b 2.x's sync paginators, by the sandbox call that builds one (the same name at every import path).
_E2B_PAGINATORS = {"list": "SandboxPaginator", "list_snapshots": "SnapshotPaginator"}
_INTERPRETER = (
    "source: pkg e2b-code-interpreter 2.11.5 e2b_code_interpreter/code_interpreter_sync.py (class Sandbox(e2b "
    "Sandbox): run_code, create_code_context, remove_code_context, list_code_contexts, restart_code_context "
    "over httpx to the Jupyter server); pkg e2b-code-interpreter 1.0.0 (run_code, create_code_context); "
    + _E2B.removeprefix("source: ")
)
#: e2b-code-interpreter's ``Sandbox``: its code calls, then what it inherits from e2b's.
_INTERPRETER_CALLS = (
    "run_code create_code_context remove_code_context list_code_contexts restart_code_context " + _E2B_CALLS
)
_E2B_TEMPLATE = "source: pkg e2b 2.63.0 e2b/template_sync/main.py (Template classmethods call the API client)"
_E2B_DESKTOP = (
    "source: pkg e2b-desktop 2.7.2 e2b_desktop/main.py (class Sandbox(e2b.Sandbox): create boots the VM, then "
    "Xvfb and xfce4 over commands.run; screenshot, left_click, write, press, scroll, move_mouse, wait, ... each "
    "self.commands.run(...) -- screenshot also files.read/remove; _VNCServer.start/stop run commands; it requires "
    "e2b>=2.44.0,<3), pkg e2b 2.44.0 and 2.63.0 e2b/sandbox_sync/main.py (the base's commands, files, pty, git, "
    "kill, set_timeout, update_network, delete_snapshot, ...; get_mcp_token reads /etc/mcp-gateway/.token with "
    "files.read the first time; list and list_snapshots only build a paginator, whose next_items asks the API: "
    "sandbox_sync/paginator.py)"
)
#: e2b-desktop 2.7.2 ``Sandbox``'s own actions and its VNC stream's start/stop, then what it inherits
#: from e2b's sync ``Sandbox`` that calls the API or the sandbox, from e2b 2.44.0 (its floor) on.
_DESKTOP_ACTIONS = (
    "create connect screenshot left_click double_click right_click middle_click scroll move_mouse mouse_press "
    "mouse_release get_cursor_position get_screen_size write press drag wait open get_current_window_id "
    "get_application_windows get_window_title launch stream.start stream.stop "
    + " ".join(name for name in _E2B_CALLS.split() if name not in {"create", "connect"})
)
_PRIME = "source: pkg prime-sandboxes 0.5.1 prime_sandboxes/__init__.py, sandbox.py, core/client.py"
_DAYTONA = (
    "source: pkg daytona 0.226.1 daytona/__init__.py, daytona/_sync/daytona.py (Daytona: create, get, list, "
    "delete, start, stop over its ApiClient; __init__ builds ApiClient and httpx.Client), _sync/sandbox.py, _async/"
)

APIS: tuple[BlockingApi, ...] = (
    # --- Modal ------------------------------------------------------------------------------
    entry(
        "modal.Sandbox.**",
        "sdk",
        "network",
        "to-thread",
        _BUFFERED,
        f"{_MODAL} modal/sandbox/_sandbox.py "
        "(create, from_id, exec, wait, terminate, ... are async under synchronicity)",
        MODAL_TWIN,
    ),
    entry(
        "modal.container_process.ContainerProcess.**",
        "sdk",
        "network",
        "to-thread",
        _BUFFERED,
        f"{_MODAL} modal/container_process.py",
        MODAL_TWIN,
    ),
    entry(
        "modal.App.lookup",
        "sdk",
        "network",
        "to-thread",
        frozenset(),
        f"{_MODAL} modal/app.py (async def lookup)",
        MODAL_TWIN,
    ),
    *(
        entry(f"modal.{cls}.**", "sdk", "network", "to-thread", _MODAL_LAZY, f"{_MODAL} modal/{module}", MODAL_TWIN)
        for cls, module in (
            ("Function", "_functions.py (remote, spawn, map, ... are async)"),
            ("FunctionCall", "_functions.py (get is async)"),
            ("Cls", "cls.py"),
            ("cls.Obj", "cls.py (a method's remote() is async)"),
            ("Dict", "dict.py"),
            ("Queue", "queue.py"),
            ("Volume", "volume.py"),
        )
    ),
    # --- e2b ----------------------------------------------------------------------------------
    # The sync sandbox's calls one by one: the constructor (1.x creates the sandbox; 2.x deprecates it),
    # the API and sandbox calls and the sub-objects whose every method is a request. A name the class
    # lacks (``run_code`` on e2b's own ``Sandbox``) raises AttributeError and sends nothing, and the
    # local helpers (``get_host``, ``download_url``, ``upload_url``, ``get_mcp_url``) build a URL.
    *(
        api
        for sandbox, twin, names, source in (
            ("e2b.Sandbox", "e2b.AsyncSandbox", _E2B_CALLS, _E2B),
            ("e2b.sandbox_sync.main.Sandbox", "e2b.AsyncSandbox", _E2B_CALLS, _E2B),
            ("e2b_code_interpreter.Sandbox", "e2b_code_interpreter.AsyncSandbox", _INTERPRETER_CALLS, _INTERPRETER),
        )
        for api in (
            entry(sandbox, "sdk", "network", "to-thread", frozenset(), source, f"`{twin}` and await the call"),
            *many(
                "sdk", "network", "to-thread", names, f"{sandbox}.", source=source, twin=f"`{twin}` and await the call"
            ),
        )
    ),
    # A page of sandboxes or snapshots: the paginator ``Sandbox.list()``/``list_snapshots()`` built.
    *many(
        "sdk",
        "network",
        "to-thread",
        "e2b.SandboxPaginator.next_items e2b.SnapshotPaginator.next_items",
        source=_E2B_PAGES,
        twin="`e2b.AsyncSandbox.list(...)` and `await paginator.next_items()`",
    ),
    # e2b-desktop's ``Sandbox`` subclasses e2b's sync one and adds the desktop actions, each a
    # command run in the sandbox over HTTP (xdotool, scrot); it ships no async desktop class.
    # Named one by one, with the base's calls it inherits: a name the class lacks (``key_press``,
    # in no release from 1.7.0 to 2.7.2) raises AttributeError and sends nothing.
    *many(
        "sdk",
        "network",
        "to-thread",
        _DESKTOP_ACTIONS,
        "e2b_desktop.Sandbox.",
        source=_E2B_DESKTOP,
    ),
    # A template's builder methods (``Template().from_image(...)``) only record steps; its
    # classmethods ask e2b's API, ``build`` waiting for the whole image build (verifiers 0.4.0's
    # E2BRuntime awaits ``AsyncTemplate.exists``/``build`` per rollout, v1/runtimes/e2b.py).
    *(
        api
        for cls in ("e2b.Template.", "e2b.template_sync.main.Template.")
        for api in many(
            "sdk",
            "network",
            "to-thread",
            "build build_in_background get_build_status exists alias_exists assign_tags remove_tags get_tags",
            cls,
            source=_E2B_TEMPLATE,
            twin="`e2b.AsyncTemplate` and await the call",
        )
    ),
    # --- Prime sandboxes ----------------------------------------------------------------------
    *(
        entry(
            f"{prefix}.{cls}.**",
            "sdk",
            "network",
            "to-thread",
            frozenset({"clear_auth_cache"}),
            source,
            f"`{prefix}.Async{cls}` and await the call",
        )
        for prefix, source in (
            ("prime_sandboxes", _PRIME),
            (
                "prime_cli.api.sandbox",
                "https://pypi.org/project/prime-cli/ (prime_cli.api.sandbox before prime-sandboxes split out)",
            ),
        )
        for cls in ("SandboxClient",)
    ),
    entry(
        "prime_sandboxes.APIClient.**",
        "sdk",
        "network",
        "to-thread",
        frozenset(),
        _PRIME,
        "`prime_sandboxes.AsyncAPIClient` and await the call",
    ),
    entry(
        "prime_sandboxes.ImageClient.**",
        "sdk",
        "network",
        "to-thread",
        frozenset(),
        _PRIME,
        "`prime_sandboxes.AsyncImageClient` and await the call",
    ),
    # APIClient() builds an httpx.Client (core/client.py): a client built per call.
    *many("client", "client-build", "hoist-client", "APIClient AsyncAPIClient", "prime_sandboxes.", source=_PRIME),
    # --- Daytona ------------------------------------------------------------------------------
    entry(
        "daytona.Daytona.**",
        "sdk",
        "network",
        "to-thread",
        frozenset(),
        _DAYTONA,
        "`daytona.AsyncDaytona` and await the call",
    ),
    # ``sb.process.exec(...)``, ``sb.fs.upload_file(...)``: the sandbox's toolbox API, one request each.
    entry(
        "daytona.Sandbox.**",
        "sdk",
        "network",
        "to-thread",
        frozenset(),
        _DAYTONA,
        "the `daytona.AsyncSandbox` `daytona.AsyncDaytona` returns, and await the call",
    ),
    *many("client", "client-build", "hoist-client", "Daytona AsyncDaytona", "daytona.", source=_DAYTONA),
)

RETURNS: dict[str, str] = {
    # Sandboxes, however they were obtained (sync or .aio: the object is the same).
    **{
        f"modal.Sandbox.{factory}{aio}()": "modal.Sandbox"
        for factory in ("create", "from_id", "from_name")
        for aio in ("", ".aio")
    },
    "modal.sandbox.Sandbox": "modal.Sandbox",
    **{f"modal.Sandbox.exec{aio}()": "modal.container_process.ContainerProcess" for aio in ("", ".aio")},
    "modal.ContainerProcess": "modal.container_process.ContainerProcess",
    **{f"modal.App.lookup{aio}()": "modal.App" for aio in ("", ".aio")},
    **{
        f"modal.{cls}.{method}()": f"modal.{cls}"
        for cls in ("Function", "Cls", "Dict", "Queue", "Volume")
        for method in ("from_name", "from_id", "with_options", "with_concurrency", "with_batching")
    },
    **{f"modal.Function.spawn{aio}()": "modal.FunctionCall" for aio in ("", ".aio")},
    "modal.FunctionCall.from_id()": "modal.FunctionCall",
    "modal.functions.Function": "modal.Function",
    "modal.functions.FunctionCall": "modal.FunctionCall",
    "modal.Cls()": "modal.cls.Obj",
    # e2b: classmethods returning the sandbox, and the 2.x paginators (built locally).
    **{
        f"{sandbox}.{method}()": f"e2b.{paginator}"
        for sandbox in ("e2b.Sandbox", "e2b_code_interpreter.Sandbox", "e2b_desktop.Sandbox")
        for method, paginator in _E2B_PAGINATORS.items()
    },
    **{f"e2b.sandbox_sync.paginator.{paginator}": f"e2b.{paginator}" for paginator in _E2B_PAGINATORS.values()},
    **{f"e2b.Sandbox.{method}()": "e2b.Sandbox" for method in ("create", "connect", "fork")},
    **{f"e2b_code_interpreter.Sandbox.{method}()": "e2b_code_interpreter.Sandbox" for method in ("create", "connect")},
    "e2b.sandbox_sync.main.Sandbox": "e2b.Sandbox",
    **{f"e2b_desktop.Sandbox.{method}()": "e2b_desktop.Sandbox" for method in ("create", "connect")},
    "e2b_desktop.main.Sandbox": "e2b_desktop.Sandbox",
    # Prime: the same classes under their defining modules.
    "prime_sandboxes.sandbox.SandboxClient": "prime_sandboxes.SandboxClient",
    "prime_sandboxes.core.APIClient": "prime_sandboxes.APIClient",
    "prime_sandboxes.core.client.APIClient": "prime_sandboxes.APIClient",
    "prime_sandboxes.images.ImageClient": "prime_sandboxes.ImageClient",
    # Daytona: the sandboxes its client returns, and the classes under their defining modules.
    **{f"daytona.Daytona.{method}()": "daytona.Sandbox" for method in ("create", "get")},
    "daytona.Sandbox.fork()": "daytona.Sandbox",
    "daytona._sync.daytona.Daytona": "daytona.Daytona",
    "daytona._sync.sandbox.Sandbox": "daytona.Sandbox",
}
