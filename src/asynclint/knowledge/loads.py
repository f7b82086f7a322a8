"""Library calls that load a dataset or a document from disk or a hub, for the loop nests
(:func:`asynclint.analysis.index.nestshapes.built_collections`): a collection built from one is as
large as the source (a corpus of thousands of documents), not a handful of settings."""

from __future__ import annotations

#: Calls returning the rows of a dataset (a hub dataset, a table, a frame): as many items as the
#: source holds. A collection they fill, or the result stored as it is, is data-sized.
ROW_LOADS: frozenset[str] = frozenset(
    {
        "datasets.load_dataset",
        "datasets.load_from_disk",
        "datasets.Dataset.load_from_disk",
        "datasets.Dataset.from_json",
        "datasets.Dataset.from_csv",
        "datasets.Dataset.from_parquet",
        "datasets.DatasetDict.load_from_disk",
        "pandas.read_csv",
        "pandas.read_json",
        "pandas.read_parquet",
        "pandas.read_feather",
        "pandas.read_pickle",
        "pandas.read_table",
        "pandas.read_excel",
        "polars.read_csv",
        "polars.read_parquet",
        "polars.read_ndjson",
        "polars.read_json",
    }
)
#: Calls returning one parsed document (a JSON or YAML file, a pickle): a settings file as often as
#: a corpus, so the result stored as it is says nothing of its size; a collection filled per item
#: of it (``{d["id"]: d for d in json.load(f)}``) is the file's entries, one per item.
DOCUMENT_LOADS: frozenset[str] = frozenset(
    {"json.load", "yaml.safe_load", "yaml.load", "yaml.full_load", "pickle.load", "orjson.loads", "tomllib.load"}
)
#: Parsers of one line of a JSON Lines file: a collection of their results, one per line, holds
#: the file's records (``[json.loads(line) for line in f]``).
LINE_PARSES: frozenset[str] = frozenset({"json.loads", "orjson.loads", "ujson.loads"})
#: Methods of a collection that look one entry up (or count it), rather than return the collection
#: transformed (``ds.filter(...)``, ``df.iterrows()``, ``index.items()``).
ENTRY_LOOKUPS: frozenset[str] = frozenset({"get", "pop", "count", "index", "setdefault", "__getitem__"})
#: Loads of a search index that hold the corpus they index, by qualified name -> (the attribute
#: holding it, the keyword that must be true for the load to read it; "" when it always does). A
#: loop over that attribute walks every document of the corpus. bm25s' ``BM25.load(dir,
#: load_corpus=True)`` reads the saved corpus into ``.corpus`` (source: xhluca/bm25s
#: bm25s/__init__.py, ``BM25.load``).
INDEX_LOADS: dict[str, tuple[str, str]] = {"bm25s.BM25.load": ("corpus", "load_corpus")}
