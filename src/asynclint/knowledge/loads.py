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
#: Loads and builds of a search index that hold one entry per document of the corpus they index, by
#: qualified name -> (the attribute holding them, the keyword that must be true for the load to read
#: them; "" when it always does). A loop over that attribute walks every document of the corpus.
#:
#: - bm25s' ``BM25.load(dir, load_corpus=True)`` reads the saved corpus into ``.corpus`` (source:
#:   xhluca/bm25s bm25s/__init__.py, ``BM25.load``).
#: - rank_bm25's ``BM25Okapi(corpus)`` (and ``BM25L``, ``BM25Plus``) keeps a frequency table per
#:   document in ``.doc_freqs`` (source: pkg rank_bm25 0.2.2 rank_bm25.py, ``BM25._initialize``).
#: - LangChain's FAISS store (``FAISS.load_local``, ``from_documents``, ``from_texts``) maps every
#:   vector's position to its document's id in ``.index_to_docstore_id`` (source: pkg
#:   langchain-community 0.4.2 langchain_community/vectorstores/faiss.py: ``load_local`` unpickles
#:   it beside ``faiss.read_index``; ``__from`` fills it per text).
#:
#: Not here: a ``faiss.read_index`` index holds vectors in C++ (no Python collection to walk), and a
#: Chroma store (``langchain_chroma.Chroma(...)``) holds a client of its database, not its documents.
INDEX_LOADS: dict[str, tuple[str, str]] = {
    "bm25s.BM25.load": ("corpus", "load_corpus"),
    **{f"rank_bm25.{cls}": ("doc_freqs", "") for cls in ("BM25Okapi", "BM25L", "BM25Plus")},
    **{
        f"{store}.{load}": ("index_to_docstore_id", "")
        for store in (
            "langchain_community.vectorstores.FAISS",
            "langchain_community.vectorstores.faiss.FAISS",
            # What the knowledge pack names the class as (knowledge/packs/langchain.py: the interface).
            "langchain_core.vectorstores.VectorStore",
        )
        for load in ("load_local", "from_documents", "from_texts")
    },
}
