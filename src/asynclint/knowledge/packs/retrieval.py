"""Lexical retrieval in process: bm25s, rank_bm25 and scikit-learn's TF-IDF vectorizers.

A search tool over an index the environment loads at start-up scores the query in the calling
thread, on every call. None of these libraries has an async API. What one call costs, measured on
this project's loaded 2-core machine by ``bench/bench_retrieval.py`` (50,000 synthetic documents of
100 words, a 4-word query; bm25s 0.3.16, rank_bm25 0.2.2, scikit-learn 1.9.1):

- bm25s keeps the index as a sparse matrix and scores in numpy: ``BM25.retrieve(k=5)`` 0.2-0.4 ms
  (with ``corpus=`` fetching the hits), ``tokenize`` of one query microseconds (plus a tqdm bar by
  default): a short step each, which does not add up to a stall between two model calls.
  ``BM25.index`` and ``load`` (with ``load_corpus=True`` the whole corpus) are start-up work.
- rank_bm25 scores in a Python comprehension over every document per query token:
  ``BM25Okapi.get_scores`` 257 ms, ``get_top_n`` 334 ms, holding the GIL (a process pool, or bm25s).
  Building one (``BM25Okapi(corpus)``) counts every word of every document in Python and computes
  the idf (given a ``tokenizer=``, it first tokenises the corpus in a ``multiprocessing.Pool`` of
  one process per core): work over the whole corpus, start-up work where it runs there, held by
  the index it builds (``doc_freqs``: one frequency table per document).
- scikit-learn: ``TfidfVectorizer.transform`` of one query 1.1 ms; ``fit``/``fit_transform`` build the
  vocabulary over the whole corpus (start-up work where it runs there).

For reference, a Python loop over the 50,000 records for one id took 25 ms. faiss and
sentence-transformers, which retrieval environments pair with these, are in ``vector_stores`` and
``local_models``.
"""

from __future__ import annotations

from asynclint.knowledge.api import many

_BM25S = "source: pkg bm25s 0.3.16 bm25s/__init__.py (BM25.retrieve, get_scores, load), tokenization.py (tokenize)"
_RANK_BM25 = "source: pkg rank_bm25 0.2.2 rank_bm25.py (BM25.get_top_n -> get_scores: a comprehension per query token)"
_RANK_BM25_BUILD = (
    "source: pkg rank_bm25 0.2.2 rank_bm25.py (BM25.__init__: _tokenize_corpus in a Pool(cpu_count()) when given a "
    "tokenizer, _initialize: a frequency dict per document, _calc_idf over the vocabulary)"
)
_SKLEARN = "source: pkg scikit-learn 1.9.1 sklearn/feature_extraction/text.py (TfidfVectorizer, CountVectorizer)"
_RANK_BM25_CLASSES = ("BM25Okapi", "BM25L", "BM25Plus")
_SKLEARN_VECTORIZERS = ("TfidfVectorizer", "CountVectorizer", "HashingVectorizer", "TfidfTransformer")

APIS = (
    # Sparse scoring in numpy: sub-millisecond for 50,000 documents (the module docstring).
    *many("cpu", "cpu-light", None, "retrieve get_scores", "bm25s.BM25.", source=_BM25S),
    # Reading a saved index (and its corpus) from disk: start-up work where the environment does it there.
    *many("fs", "disk-content", "to-thread", "load", "bm25s.BM25.", source=_BM25S),
    *many("cpu", "cpu-heavy", "to-thread", "index", "bm25s.BM25.", source=_BM25S),
    # One query's tokens: a regex pass and stopwords over a few words (and a tqdm bar).
    *many("cpu", "cpu-light", None, "tokenize", "bm25s.", source=_BM25S),
    *(
        api
        for cls in _RANK_BM25_CLASSES
        for api in many(
            "cpu",
            "cpu-heavy",
            "process-pool",
            "get_scores get_top_n get_batch_scores",
            f"rank_bm25.{cls}.",
            source=_RANK_BM25,
        )
    ),
    # Building the index walks the whole corpus in Python: start-up work, kept for the process.
    *many("cpu", "cpu-heavy", None, " ".join(_RANK_BM25_CLASSES), "rank_bm25.", source=_RANK_BM25_BUILD),
    *(
        api
        for cls in _SKLEARN_VECTORIZERS
        for api in (
            *many(
                "cpu",
                "cpu-heavy",
                "to-thread",
                "fit fit_transform",
                f"sklearn.feature_extraction.text.{cls}.",
                source=_SKLEARN,
            ),
            *many("cpu", "cpu-light", None, "transform", f"sklearn.feature_extraction.text.{cls}.", source=_SKLEARN),
        )
    ),
)

RETURNS: dict[str, str] = {
    "bm25s.BM25.load()": "bm25s.BM25",
}
