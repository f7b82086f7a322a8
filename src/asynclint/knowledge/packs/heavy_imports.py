"""Data libraries whose first import is slow: an ``import`` written in a function runs it there.

An import statement in a function body (a lazy import, kept out of the module's top level so loading
the environment stays quick) costs a ``sys.modules`` lookup after the first time; the first time in
a process it reads and runs the package and what it imports, all holding the GIL on whatever thread
runs the function. For these data libraries that is hundreds of milliseconds to seconds: once per
process, on the first call of a path the loop runs (``module-import``: low). A package named here
covers its submodules (``import pyarrow.parquet as pq``, ``from huggingface_hub import
hf_hub_download``). swebench's entry is in its own pack. Measured here (python 3.11, a loaded 2-core
machine, a fresh process each): ``import pyarrow.parquet`` 200-410 ms, ``from huggingface_hub import
hf_hub_download, constants`` 245-265 ms (``import huggingface_hub`` alone is 25 ms: its ``__init__``
loads submodules lazily, on first attribute access), ``import pandas`` 0.9 s, ``import datasets``
2.0 s.
"""

from __future__ import annotations

from asynclint.knowledge.api import IMPORT, BlockingApi, entry

_MEASURED = (
    "source: measured here, a fresh python 3.11 process per import, pyarrow 26.0.1 (pyarrow.parquet 200-410 ms), "
    "huggingface_hub 2.4.0 (huggingface_hub/__init__.py: lazy submodules; `from huggingface_hub import "
    "hf_hub_download` loads file_download: 245-265 ms), pandas 3.1.1 (0.9 s), datasets 5.2.0 (2.0 s)"
)

APIS: tuple[BlockingApi, ...] = tuple(
    entry(f"{IMPORT} {package}", "cpu", "module-import", None, frozenset(), _MEASURED)
    for package in ("pyarrow", "huggingface_hub", "pandas", "datasets")
)
