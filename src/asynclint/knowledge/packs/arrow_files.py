"""pyarrow's file readers and writers: Parquet, Feather, CSV and JSON tables read or written whole.

``pyarrow.parquet.read_table`` (and ``read_pandas``, ``ParquetFile.read``, ``read_row_group(s)``,
``ParquetDataset.read``) reads every column asked for of every row group of the file: a dataset shard
of tens to hundreds of MB is hundreds of milliseconds of disk and decompression, with the GIL
released only inside the C++ reader. ``ParquetFile(source)`` opens the file and reads its footer
(the metadata), a header read; ``ParquetFile.iter_batches`` returns a generator that reads and
decodes one batch per step (``_parquet.pyx``'s ``ParquetReader.iter_batches`` yields), so its cost
is in the loop over it. ``pyarrow.feather``, ``pyarrow.csv`` and ``pyarrow.json`` read or write a
whole file the same way. ``Table.to_pylist`` (and a ``RecordBatch``'s) builds one Python dict per
row, ``to_pydict`` a list per column, ``to_pandas`` a frame: CPU as large as the table, holding the
GIL while the Python objects are made.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_PYARROW = (
    "source: pkg pyarrow 26.0.1 pyarrow/parquet/core.py (read_table, read_pandas, ParquetFile.__init__ opens the "
    "source and reads the footer, ParquetFile.read / read_row_group / read_row_groups / iter_batches, "
    "ParquetDataset.read, write_table), pyarrow/_parquet.pyx (ParquetReader.iter_batches yields one batch per "
    "step), pyarrow/feather.py (read_table, read_feather, write_feather), pyarrow/_csv.pyx (read_csv, write_csv), "
    "pyarrow/_json.pyx (read_json), pyarrow/table.pxi (to_pylist, to_pydict: Python objects per row / column)"
)
_PQ = "pyarrow.parquet"
PARQUET_FILE = f"{_PQ}.ParquetFile"
TABLE = "pyarrow.Table"
BATCH = "pyarrow.RecordBatch"

APIS: tuple[BlockingApi, ...] = (
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "read_table read_pandas write_table write_to_dataset",
        f"{_PQ}.",
        source=_PYARROW,
    ),
    *many(
        "fs", "disk-content", "to-thread", "read read_row_group read_row_groups", f"{PARQUET_FILE}.", source=_PYARROW
    ),
    entry(f"{_PQ}.ParquetDataset.read", "fs", "disk-content", "to-thread", source=_PYARROW),
    entry(PARQUET_FILE, "fs", "lazy-open", "to-thread", source=_PYARROW),
    *many("fs", "lazy-open", "to-thread", "read_metadata read_schema", f"{_PQ}.", source=_PYARROW),
    *many(
        "fs", "disk-content", "to-thread", "read_table read_feather write_feather", "pyarrow.feather.", source=_PYARROW
    ),
    *many("fs", "disk-content", "to-thread", "read_csv write_csv", "pyarrow.csv.", source=_PYARROW),
    entry("pyarrow.json.read_json", "fs", "disk-content", "to-thread", source=_PYARROW),
    *(
        entry(f"{owner}.{name}", "cpu", "cpu-heavy", "to-thread", source=_PYARROW)
        for owner in (TABLE, BATCH)
        for name in ("to_pylist", "to_pydict", "to_pandas")
    ),
)

RETURNS: dict[str, str] = {
    **{f"{_PQ}.{name}()": TABLE for name in ("read_table", "read_pandas")},
    **{f"{PARQUET_FILE}.{name}()": TABLE for name in ("read", "read_row_group", "read_row_groups")},
    f"{_PQ}.ParquetDataset.read()": TABLE,
    f"{PARQUET_FILE}()": PARQUET_FILE,
    "pyarrow.feather.read_table()": TABLE,
    "pyarrow.csv.read_csv()": TABLE,
    "pyarrow.json.read_json()": TABLE,
}
ITEMS: dict[str, str] = {f"{PARQUET_FILE}.iter_batches()": BATCH}
DEFERRED: dict[str, str] = {
    f"{PARQUET_FILE}.iter_batches": "a generator that reads and decodes one batch of the file per step (pyarrow "
    "26.0.1 pyarrow/_parquet.pyx: ParquetReader.iter_batches yields)"
}
