"""Experiment trackers called from rollout code: wandb's run, its logging and its start and finish.

``wandb.log(data)`` (``Run.log``; the module function is the current run's, and raises before
``wandb.init``) encodes the record in Python (``history_dict_to_json``: a ``wandb.Table`` or an image
in it is written to a JSON or media file in the run's directory first), then hands it to wandb's
asyncio thread and waits for it to be written to the ``wandb-core`` service process over a local
socket (``AsyncioManager.run`` -> ``future.result()``): sub-millisecond per call, longer when the
service falls behind. Code usually logs only when a run exists (``if wandb.run is None: return``):
low, wherever it runs. ``wandb.Table(...)`` only keeps its rows in memory (not listed).
``wandb.init`` starts or attaches to the service, creates the run on the server and waits for its
reply; ``finish`` waits for every pending upload: network waits of seconds.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_WANDB = (
    "source: pkg wandb 0.31.0 wandb/__init__.py (log = PreInitCallable(Run.log), init = wandb_sdk.init), "
    "wandb/sdk/wandb_run.py (Run.log -> _partial_history_callback), sdk/interface/interface.py "
    "(publish_partial_history: history_dict_to_json), sdk/interface/interface_sock.py (_publish: "
    "asyncer.run), sdk/lib/asyncio_manager.py (run: future.result()), sdk/wandb_init.py (init)"
)
_RUN = "wandb.sdk.wandb_run.Run"

APIS: tuple[BlockingApi, ...] = (
    *(
        api
        for owner in ("wandb.", f"{_RUN}.")
        for api in (
            *many("sdk", "service-record", "to-thread", "log", owner, source=_WANDB),
            *many("sdk", "network", "to-thread", "finish", owner, source=_WANDB),
        )
    ),
    *many("sdk", "network", "to-thread", "init", "wandb.", source=_WANDB),
)

RETURNS: dict[str, str] = {
    "wandb.init()": _RUN,
    "wandb.sdk.init()": _RUN,
    "wandb.run": _RUN,
    "wandb.Run": _RUN,
}
