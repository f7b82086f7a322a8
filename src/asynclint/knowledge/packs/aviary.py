"""Future House's Aviary (``fhaviary`` and its ``aviary.*`` task packages): task datasets that
download their data when they are built.

An Aviary ``Environment``'s own methods are coroutines (``reset``, ``step``, ``close``,
``get_id``, ``exec_tool_calls``, which runs a sync tool in a worker thread): awaited, they are
not blocking calls. What blocks is building a ``TaskDataset``: the GSM8k, HotPotQA, LitQA v2 and
LAB-Bench datasets call ``datasets.load_dataset`` in their constructor (a request to the Hub for
the revision, then a download or an Arrow cache read, then a pandas conversion), and
``TaskDataset.from_name``/``TaskConfig.make_dataset`` build one of them by its registered name.
An environment that builds its task dataset in ``setup_state`` to pick one task downloads it per
rollout; build it once (``load_environment``) and call ``get_new_env_by_idx`` per rollout, which
only builds the environment object. ``TaskDatasetClient(url)`` asks the dataset server for its
size with a sync ``httpx.Client``; ``Renderer.build`` writes its frames as JSON files (and
uploads them with boto3 when given a bucket). None of them has an async twin.

Not reported: ``Environment.from_name``/``from_task`` (the registered environments' constructors
set fields and build tools), ``LFRQATaskDataset`` (reads a CSV only when handed a path, not the
list of questions environments pass), ``get_new_env_by_idx``, and a dataset class looked up by
name at run time (``getattr(importlib.import_module(module), name)(split=...)``).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry

_AVIARY = "source: pkg fhaviary 0.37.0"
_TASKS = "source: pkg aviary.gsm8k 0.37.0, aviary.hotpotqa 0.37.0, aviary.litqa 0.29.0, aviary.labbench 0.37.0"
_LOADS = "datasets.load_dataset, then to_pandas"

#: Task packages -> (the module defining the names the pack writes, those names): the packages
#: re-export them (``aviary.envs.litqa.LitQAv2TaskDataset``), the names the pack uses.
_EXPORTS: dict[str, tuple[str, str]] = {
    "aviary.envs.gsm8k": ("env", "GSM8kDataset GSM8kDatasetSplit"),
    "aviary.envs.hotpotqa": ("env", "HotPotQADataset"),
    "aviary.envs.litqa": ("task", "LitQAv2TaskDataset read_litqa_v2_from_hub"),
    "aviary.envs.labbench": ("task", "TextQATaskDataset ImageQATaskDataset LABBenchDatasets read_ds_from_hub"),
}
#: Task datasets (and their loaders) that load their data from the Hub, each with where.
_DOWNLOADS: dict[str, str] = {
    "aviary.envs.gsm8k.GSM8kDataset": f"{_TASKS} aviary/envs/gsm8k/env.py (GSM8kDatasetSplit.get_df_from_hf: {_LOADS})",
    "aviary.envs.gsm8k.GSM8kDatasetSplit.get_df_from_hf": f"{_TASKS} aviary/envs/gsm8k/env.py ({_LOADS})",
    "aviary.envs.hotpotqa.HotPotQADataset": (
        f"{_TASKS} aviary/envs/hotpotqa/env.py (get_data_from_hugging_face -> load_raw: load_dataset of the whole "
        "fullwiki config, then every row checked and converted)"
    ),
    "aviary.envs.hotpotqa.HotPotQADataset.load_raw": f"{_TASKS} aviary/envs/hotpotqa/env.py (load_dataset)",
    "aviary.envs.litqa.LitQAv2TaskDataset": (
        f"{_TASKS} aviary/envs/litqa/task.py (read_litqa_v2_from_hub: two {_LOADS})"
    ),
    "aviary.envs.litqa.read_litqa_v2_from_hub": f"{_TASKS} aviary/envs/litqa/task.py (two {_LOADS})",
    **{
        f"aviary.envs.labbench.{name}": f"{_TASKS} aviary/envs/labbench/task.py ({how})"
        for name, how in (
            ("TextQATaskDataset", f"LABBenchDatasets.get_data -> read_ds_from_hub: {_LOADS}"),
            ("ImageQATaskDataset", f"TextQATaskDataset.__init__ -> read_ds_from_hub: {_LOADS}"),
            ("LABBenchDatasets.get_data", f"read_ds_from_hub: {_LOADS}"),
            ("read_ds_from_hub", _LOADS),
        )
    },
    "aviary.env.TaskDataset.from_name": (
        f"{_AVIARY} aviary/env.py (from_name builds the registered dataset class: gsm8k, hotpotqa, litqa-v2, "
        "labbench's load their data in the constructor; only dummy does not)"
    ),
    "aviary.env.TaskConfig.make_dataset": f"{_AVIARY} aviary/env.py (make_dataset -> TaskDataset.from_name)",
}

APIS: tuple[BlockingApi, ...] = (
    *(entry(name, "http", "network", "to-thread", frozenset(), source) for name, source in _DOWNLOADS.items()),
    entry(
        "aviary.env_client.TaskDatasetClient",
        "http",
        "network",
        "to-thread",
        frozenset(),
        f"{_AVIARY} aviary/env_client.py (TaskDatasetClient.__init__: httpx.Client().get('/info'))",
    ),
    entry(
        "aviary.render.Renderer.build",
        "fs",
        "disk-content",
        "to-thread",
        frozenset(),
        f"{_AVIARY} aviary/render.py (build: json.dump of every frame to a file, shutil.copyfile, boto3 "
        "upload_fileobj with r2_bucket)",
    ),
)

RETURNS: dict[str, str] = {
    # ``aviary.core`` re-exports the base package's public names.
    "aviary.core.TaskDataset": "aviary.env.TaskDataset",
    "aviary.core.TaskConfig": "aviary.env.TaskConfig",
    "aviary.core.TaskDatasetClient": "aviary.env_client.TaskDatasetClient",
    "aviary.core.Renderer": "aviary.render.Renderer",
    **{
        f"{package}.{module}.{name}": f"{package}.{name}"
        for package, (module, names) in _EXPORTS.items()
        for name in names.split()
    },
}
