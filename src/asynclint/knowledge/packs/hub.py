"""Dataset, model and corpus downloads: ``datasets``, ``huggingface_hub``, ``nltk.download``, ``spacy.cli.download``.

``datasets.load_dataset`` asks the Hub for the dataset's revision and files on every call unless
``HF_HUB_OFFLINE=1`` (datasets/load.py: ``api.dataset_info(...)``), then downloads what is
missing and builds or memory-maps the Arrow cache: network and disk, seconds at best.
``huggingface_hub``'s download functions and ``HfApi`` methods are HTTP requests; it has no async
API for them. ``nltk.download(id)`` looks the package up in nltk's index first, which it fetches
over the network on the first call in a process and again whenever it is more than an hour old
(``Downloader.INDEX_TIMEOUT``), then checks the installed copy: in 3.10 by recomputing the sha256
of the whole installed zip and walking its unzipped directory on every call (3.9.1 cached that
status per process), and downloads it when missing or stale. None of these belongs on a
per-rollout path: load once, at start-up (``load_environment``), or offload.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_DATASETS = "source: pkg datasets 5.2.0 datasets/load.py (load_dataset -> api.dataset_info unless HF_HUB_OFFLINE)"
_HUB = (
    "source: pkg huggingface_hub 2.4.0 huggingface_hub/__init__.py, file_download.py, _snapshot_download.py, hf_api.py"
)
_NLTK = (
    "source: pkg nltk 3.10.4 and 3.9.1 nltk/downloader.py (download = _downloader.download; info -> "
    "_update_index: urlopen when older than INDEX_TIMEOUT; 3.10.4 _download_package -> _installed_now -> "
    "_pkg_status: sha256_hexdigest of the zip)"
)
#: HfApi methods that only build a URL or read local settings.
_HF_LOCAL = frozenset({"get_token_permission", "hf_hub_url"})

APIS: tuple[BlockingApi, ...] = (
    *many(
        "http",
        "network",
        "to-thread",
        "load_dataset load_dataset_builder get_dataset_config_names get_dataset_split_names",
        "datasets.",
        source=_DATASETS,
    ),
    entry(
        "datasets.load_from_disk",
        "fs",
        "disk-content",
        "to-thread",
        frozenset(),
        "source: pkg datasets 5.2.0 datasets/load.py (load_from_disk reads and maps Arrow files)",
    ),
    *many(
        "http",
        "network",
        "to-thread",
        "hf_hub_download snapshot_download list_repo_files upload_file upload_folder create_repo "
        "model_info dataset_info repo_exists file_exists",
        "huggingface_hub.",
        source=_HUB,
    ),
    entry("huggingface_hub.HfApi.**", "http", "network", "to-thread", _HF_LOCAL, _HUB),
    entry("huggingface_hub.HfFileSystem.**", "http", "network", "to-thread", frozenset(), _HUB),
    entry("nltk.download", "http", "network", "to-thread", frozenset(), _NLTK),
    entry("nltk.downloader.download", "http", "network", "to-thread", frozenset(), _NLTK),
    # spaCy's pipeline download asks GitHub for the compatibility table, then runs pip in a child
    # process to install the pipeline package: seconds to minutes, every call (no cache).
    *(
        entry(
            name,
            "http",
            "network",
            "to-thread",
            source="source: pkg spacy 3.8.7 spacy/cli/download.py (download: get_compatibility -> requests.get, "
            "then download_model -> run_command([python, -m, pip, install, URL]))",
        )
        for name in ("spacy.cli.download", "spacy.cli.download.download")
    ),
)

RETURNS: dict[str, str] = {
    "huggingface_hub.hf_api.HfApi": "huggingface_hub.HfApi",
}
