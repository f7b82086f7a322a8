"""polars' file readers and writers: a path is read or written on disk, bytes or text already in memory are parsed.

``polars.read_parquet`` (and ``read_csv``, ``read_ipc``, ``read_ndjson``, ``read_json``,
``read_avro``) opens its first argument when it is a path and reads the whole file into a frame
in Rust (``read_parquet`` goes through ``scan_parquet(...).collect()``); handed a buffer already
in memory (``io.BytesIO(blob)``) it parses as much as that buffer holds. ``read_excel``,
``read_ods`` and ``read_delta`` always read a file. Measured here (polars 2.1.0, a 2,000-row
table of four columns, ``bench/bench_frame_costs.py``): ``read_parquet`` of the 16 KB file
0.97 ms and of the same bytes in memory 0.95 ms, ``read_ipc`` 0.76 ms, ``read_csv`` of 74 KB
2.7 ms, ``read_ndjson`` 4.0 ms, ``write_parquet`` 10.6 ms (compression), ``write_csv`` to a path
1.0 ms -- against 41 µs to build a 20-row frame from a dict, 56 µs for a ``with_columns`` cast of
the whole table, 5 µs for a ``pl.col`` expression, and 29 µs for ``testing.assert_frame_equal`` of
two equal tables: none of those is reported. The writers that always take a target
(``DataFrame.write_parquet``, ``write_ipc``, ``write_ipc_stream``, ``write_excel``,
``write_avro``, ``write_delta``; ``LazyFrame.sink_parquet``, ``sink_ipc``, ``sink_csv``,
``sink_ndjson``, which also run the query) write the file. ``write_csv``, ``write_json`` and
``write_ndjson`` write a file only when handed one (``file``, by keyword or first): called without
one they return text (a table for a prompt), and handed a buffer in memory they write there.
``scan_*`` only plan a query: nothing is read until ``collect``. The frame methods that return a
new frame (``filter``, ``select``, ``with_columns``, ``sort``, ``join``, ``group_by(...).agg``, ...)
give a frame of the same kind, so a writer at the end of a chain (``df.filter(...).write_csv(p)``)
is a frame's writer; ``lazy`` gives a query plan and ``collect`` runs one into a frame.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_POLARS = (
    "source: pkg polars 2.1.0 polars/io/parquet/functions.py (read_parquet: scan_parquet(source).collect()), "
    "polars/io/csv/functions.py, polars/io/ipc/functions.py, polars/io/ndjson.py, polars/dataframe/frame.py "
    "(write_parquet, write_ipc, write_excel: a target always; write_csv/write_json/write_ndjson: text when "
    "file=None), polars/lazyframe/frame.py (sink_*; the LazyFrame methods returning a LazyFrame, collect), "
    "polars/dataframe/group_by.py (GroupBy.agg: a DataFrame); measured here (bench/bench_frame_costs.py, "
    "2,000 rows): read_parquet 0.97 ms (path) / 0.95 ms (BytesIO), read_csv 2.7 ms, write_parquet 10.6 ms, against "
    "DataFrame(20 rows) 41 µs and assert_frame_equal 29 µs"
)
#: The first arguments with which the readers open a file: a path (a ``str`` is one to polars), and
#: the results of ``os.path``'s path builders, which the analysis types by the call that made them.
_PATHS = frozenset(
    {"builtins.str", "pathlib.Path", "pathlib.PurePath"}
    | {f"os.path.{name}()" for name in ("join", "abspath", "realpath", "normpath", "expanduser", "expandvars")}
)
_FRAME = "polars.DataFrame"
#: Readers that take a path or a buffer; each reads a buffer in memory as ``<name>[in memory]``.
_READERS = ("read_parquet", "read_csv", "read_ipc", "read_ipc_stream", "read_ndjson", "read_json", "read_avro")
_LAZY = "polars.LazyFrame"
#: The writers that return text unless handed a file (``file``, by keyword or first).
_TEXT_WRITERS = ("write_csv", "write_json", "write_ndjson")
#: Methods of both a DataFrame and a LazyFrame that give a new one of the same kind.
_CHAINED = (
    "filter select with_columns sort head tail limit slice drop rename join join_asof unique drop_nulls "
    "fill_null fill_nan cast with_row_index explode unpivot"
)
#: Methods only a DataFrame has that give a new DataFrame.
_FRAME_ONLY = "pivot transpose vstack hstack sample"

APIS: tuple[BlockingApi, ...] = (
    *(
        entry(
            f"polars.{name}",
            "fs",
            "disk-content",
            "to-thread",
            source=_POLARS,
            blocks_on=_PATHS,
            otherwise=f"polars.{name}[in memory]",
        )
        for name in _READERS
    ),
    *(entry(f"polars.{name}[in memory]", "serialization", "payload", "to-thread", source=_POLARS) for name in _READERS),
    *many("fs", "disk-content", "to-thread", "read_excel read_ods read_delta", "polars.", source=_POLARS),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "write_parquet write_ipc write_ipc_stream write_excel write_avro write_delta",
        f"{_FRAME}.",
        source=_POLARS,
    ),
    *(
        entry(
            f"{_FRAME}.{name}",
            "fs",
            "disk-content",
            "to-thread",
            source=_POLARS,
            blocks_with=frozenset({"file", "0"}),
            blocks_on=_PATHS,
        )
        for name in _TEXT_WRITERS
    ),
    *many(
        "fs",
        "disk-content",
        "to-thread",
        "sink_parquet sink_ipc sink_csv sink_ndjson",
        "polars.LazyFrame.",
        source=_POLARS,
    ),
)

#: What the readers give (one frame) and the scans (a query plan), so a writer or a sink called on it is known.
RETURNS: dict[str, str] = {
    **{f"polars.{name}()": _FRAME for name in _READERS},
    **{f"polars.{name}()": _LAZY for name in ("scan_parquet", "scan_csv", "scan_ipc", "scan_ndjson")},
    # A chain keeps its kind: ``df.filter(...).write_csv(path)`` writes a frame.
    **{f"{owner}.{name}()": owner for owner in (_FRAME, _LAZY) for name in _CHAINED.split()},
    **{f"{_FRAME}.{name}()": _FRAME for name in _FRAME_ONLY.split()},
    f"{_FRAME}.lazy()": _LAZY,
    f"{_LAZY}.collect()": _FRAME,
    f"{_FRAME}.group_by()": "polars.dataframe.group_by.GroupBy",
    "polars.dataframe.group_by.GroupBy.agg()": _FRAME,
    f"{_LAZY}.group_by()": "polars.lazyframe.group_by.LazyGroupBy",
    "polars.lazyframe.group_by.LazyGroupBy.agg()": _LAZY,
    **{f"polars.{name}()": _FRAME for name in ("from_dicts", "from_dict", "from_records", "from_pandas")},
}
