#!/usr/bin/env python
"""What one search of an in-process lexical index costs: the evidence of ``knowledge/packs/retrieval.py``.

A search tool over an index the environment loads at start-up runs on the loop per tool call. This
script builds a synthetic corpus (``--docs`` documents of 100 words drawn from a 20,000-word
vocabulary with a Zipf-like skew, fixed seed) and times, in one process, one 4-word query through:

* bm25s: ``bm25s.tokenize`` of the query, ``BM25.retrieve(k=5)`` (scores over the sparse index in
  numpy, then top-k), and the same with ``corpus=`` (the hits' documents fetched);
* rank_bm25: ``BM25Okapi.get_scores`` and ``get_top_n`` (a Python comprehension over every document
  per query token);
* scikit-learn: ``TfidfVectorizer.transform`` of the query, and the cosine scores against the corpus
  matrix (a sparse product);
* for reference, a Python loop over the corpus's records looking for one id (a read tool's scan).

Each line prints the median of ``--repeat`` runs in milliseconds; nothing asserts an absolute time.
Needs ``bm25s``, ``rank_bm25`` and ``scikit-learn`` (not dependencies of asynclint: install them in
a scratch virtual environment).

Usage::

    python bench/bench_retrieval.py [--docs 50000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable


def _median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    import bm25s
    import rank_bm25
    from sklearn.feature_extraction.text import TfidfVectorizer

    rng = random.Random(0)
    vocabulary = [f"w{i}" for i in range(20_000)]
    weights = [1 / (i + 1) for i in range(len(vocabulary))]
    texts = [" ".join(rng.choices(vocabulary, weights, k=100)) for _ in range(args.docs)]
    records = [{"id": i, "text": text} for i, text in enumerate(texts)]
    query = "w12 w345 w6789 w15000"

    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, show_progress=False), show_progress=False)
    query_tokens = bm25s.tokenize(query, show_progress=False)
    okapi = rank_bm25.BM25Okapi([text.split() for text in texts])
    vectorizer = TfidfVectorizer()
    matrix = vectorizer.fit_transform(texts)

    rows = {
        "bm25s.tokenize(query)": lambda: bm25s.tokenize(query, stopwords="en"),
        "bm25s BM25.retrieve(k=5)": lambda: retriever.retrieve(query_tokens, k=5, show_progress=False),
        "bm25s BM25.retrieve(k=5, corpus=records)": lambda: retriever.retrieve(
            query_tokens, k=5, corpus=records, show_progress=False
        ),
        "rank_bm25 BM25Okapi.get_scores": lambda: okapi.get_scores(query.split()),
        "rank_bm25 BM25Okapi.get_top_n(n=5)": lambda: okapi.get_top_n(query.split(), texts, n=5),
        "sklearn TfidfVectorizer.transform(query)": lambda: vectorizer.transform([query]),
        "sklearn cosine scores (query x corpus)": lambda: (matrix @ vectorizer.transform([query]).T).toarray(),
        "python loop over the records for one id": lambda: next(r for r in records if r["id"] == len(records) - 1),
    }
    print(f"{args.docs} documents of 100 words, one 4-word query; median of {args.repeat} runs")
    for name, run in rows.items():
        print(f"  {name:<45} {_median_ms(run, args.repeat):9.3f} ms")


if __name__ == "__main__":
    main()
