"""pandas' file readers and writers: a path is read or written on disk, text or a buffer already in memory is parsed.

``pandas.read_csv`` (and ``read_table``, ``read_fwf``) opens its first argument when it is a path
(``get_handle``; a URL is fetched) and parses the whole file in C; pandas 3 splits a large file
into chunks parsed on a thread pool and waits for them (``_read_csv_chunks``), so the call takes
as long as the file's read and parse: a ~140 KB table of 2,000 rows took 1.2 ms here, a real data
file of MBs tens of milliseconds. Handed text already in memory (``io.StringIO(reply)``) it is a
parse as large as that text. ``read_parquet``, ``read_feather`` and ``read_orc`` read the file
through pyarrow, ``read_excel`` through openpyxl's pure-Python XML reader (the slowest: tens of ms
for a small sheet), ``read_json``, ``read_pickle``, ``read_xml``, ``read_stata``, ``read_sas``,
``read_spss`` and ``read_hdf`` each read a whole file. The writers that always take a path
(``DataFrame.to_parquet``, ``to_excel``, ``to_feather``, ``to_pickle``, ``to_hdf``, ``to_stata``,
``to_orc``) write the frame's contents. ``to_csv``, ``to_json``, ``to_xml``, ``to_markdown``,
``to_string``, ``to_html`` and ``to_latex`` write a file only when handed a path, by keyword or as
their first argument; called without one (the usual way to put a table in a prompt) they return
text, and handed a buffer in memory (``io.StringIO``) they write there. Graded here, deep mode does
not follow them into ``get_handle``, whose ``urlopen`` branch only a URL takes. A ``Series`` has
the same writers (``NDFrame``'s: ``to_csv``, ``to_json``, ``to_excel``, ``to_pickle``, ``to_hdf``,
``to_latex``; its own ``to_string`` and ``to_markdown``) but no ``to_parquet``, ``to_feather``,
``to_xml`` or ``to_html``; without entries deep mode followed ``Series.to_csv()`` into
``get_handle``'s URL branch and graded a text-returning call critical.

A frame's methods that give a new frame (``query``, ``sort_values``, ``merge``, ``groupby(...).agg``,
...) give a ``DataFrame``, so a writer at the end of a chain is a frame's writer. Any other pandas
object reaching ``NDFrame``'s writers (a ``groupby(...).apply`` result, a frame a project helper
returns) is of a type the analysis does not know: a catch-all by method name (``*.to_csv``) grades
its writer when the first argument is known to be a path (a ``str``, a ``Path``), and leaves it
quiet otherwise (a buffer, no argument: text; an argument of unknown type: anything's method).
``to_dict``, ``to_numpy`` and ``to_records`` build objects in memory: no entry.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_PANDAS = (
    "source: pkg pandas 3.1.1 pandas/io/parsers/readers.py (read_csv: get_handle opens a str or os.PathLike, "
    "_read_csv_chunks parses a large file on a thread pool and waits), pandas/io/parquet.py (read_parquet, "
    "to_parquet: pyarrow), pandas/io/excel/_base.py (read_excel: openpyxl by default), pandas/core/generic.py "
    "(to_excel, to_pickle, to_hdf; to_csv, to_json, to_latex: a path_or_buf or buf of None returns the text), "
    "pandas/core/frame.py (to_string, to_html, to_markdown, to_xml: the same); measured here: read_csv of a 138 KB, "
    "2,000-row file 1.2 ms, read_parquet "
    "of the same frame 1.5 ms (median of 15, a loaded 2-core machine)"
)
#: The first arguments with which the readers open a file: a path (a ``str`` is one to pandas; so is
#: what ``os.path.join`` & co. give, see ``blocking.RETURNS``).
_PATHS = frozenset({"builtins.str", "pathlib.Path", "pathlib.PurePath"})
#: What the text readers do when handed text or a buffer already in memory.
_TEXT = "pandas.read_csv[in memory]"
_FRAME = "pandas.DataFrame"
_SERIES = "pandas.Series"
_TEXT_READERS = ("read_csv", "read_table", "read_fwf", "read_json")
_FILE_READERS = (
    "read_parquet read_feather read_orc read_excel read_pickle read_xml read_stata read_sas read_spss read_hdf"
)
_WRITERS = "to_parquet to_excel to_feather to_pickle to_hdf to_stata to_orc"
_SERIES_WRITERS = "to_excel to_pickle to_hdf"
#: A frame's methods that give a new DataFrame (pandas/core/frame.py, generic.py).
_CHAINED = (
    "query sort_values sort_index merge join drop drop_duplicates dropna fillna rename reset_index set_index "
    "assign astype head tail filter copy pivot pivot_table melt explode round"
)
#: The writers that return text unless handed a path -> the keyword of that path.
_TEXT_WRITERS = {
    **dict.fromkeys(("to_csv", "to_json"), "path_or_buf"),
    "to_xml": "path_or_buffer",
    **dict.fromkeys(("to_markdown", "to_string", "to_html", "to_latex"), "buf"),
}
#: The keyword of the path each writer takes, where it is not ``path``.
_PATH_KEYWORDS = {**_TEXT_WRITERS, "to_excel": "excel_writer", "to_hdf": "path_or_buf"}

APIS: tuple[BlockingApi, ...] = (
    *(
        entry(f"pandas.{name}", "fs", "disk-content", "to-thread", source=_PANDAS, blocks_on=_PATHS, otherwise=_TEXT)
        for name in _TEXT_READERS
    ),
    entry(_TEXT, "serialization", "payload", "to-thread", source=_PANDAS),
    *many("fs", "disk-content", "to-thread", _FILE_READERS, "pandas.", source=_PANDAS),
    *many("fs", "disk-content", "to-thread", _WRITERS, f"{_FRAME}.", source=_PANDAS),
    *many("fs", "disk-content", "to-thread", _SERIES_WRITERS, f"{_SERIES}.", source=_PANDAS),
    *(
        entry(
            f"{owner}.{name}",
            "fs",
            "disk-content",
            "to-thread",
            source=_PANDAS,
            blocks_with=frozenset({path, "0"}),
            blocks_on=_PATHS,
        )
        for owner in (_FRAME, _SERIES)
        for name, path in _TEXT_WRITERS.items()
        if owner == _FRAME or name not in ("to_xml", "to_html")
    ),
    # The catch-all: a writer of a receiver of unknown type, handed what is known to be a path.
    *(
        entry(
            f"*.{name}",
            "fs",
            "disk-content",
            "to-thread",
            source=_PANDAS,
            blocks_with=frozenset({_PATH_KEYWORDS.get(name, "path"), "0"}),
            blocks_on=_PATHS,
            typed_only=True,
        )
        for name in (*_WRITERS.split(), *_TEXT_WRITERS)
    ),
)

#: The readers that always give one frame (``read_excel`` of several sheets gives a dict, ``read_json``
#: a Series when asked, ``read_pickle`` whatever was pickled).
RETURNS: dict[str, str] = {
    **{f"pandas.{name}()": _FRAME for name in ("read_csv", "read_table", "read_fwf", "read_parquet", "read_feather")},
    # A chain keeps its kind: ``df.query(...).to_csv(path)`` writes a frame.
    **{f"{_FRAME}.{name}()": _FRAME for name in _CHAINED.split()},
    f"{_FRAME}.groupby()": "pandas.core.groupby.DataFrameGroupBy",
    "pandas.core.groupby.DataFrameGroupBy.agg()": _FRAME,
    "pandas.core.groupby.DataFrameGroupBy.aggregate()": _FRAME,
}
