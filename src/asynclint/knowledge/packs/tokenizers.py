"""Tokenizers run inline to count or cut text: tiktoken's ``Encoding``.

``Encoding.encode`` (and ``encode_ordinary``, ``encode_to_numpy``) runs the BPE merge of its text in
Rust (``CoreBPE``), linear in the text at a few MB a second on one thread (the throughput chart of
tiktoken's README, 1 GB of text; not measured here): tens of times slower per byte than a C parser, so
one reply or prompt takes tenths of a millisecond to a millisecond (low: main colf.py:62's label), while a
whole long-context haystack (~115k tokens) or a growing context list re-encoded per turn takes tens to
hundreds of milliseconds. It is graded by what it is handed (``costs.PAYLOAD_GRADES["payload-tokenize"]``): a
literal is a few tokens, one reply low, a long text -- a whole prompt or conversation, a reply with its
reasoning trace -- medium (``tokenize-long``) and high where it repeats. The Rust core
releases the GIL while it encodes (the batch methods run ``encode`` on a ``ThreadPoolExecutor``), so a
worker thread frees the loop. ``encode_batch`` and ``encode_ordinary_batch`` encode a list of texts on a
pool of threads and wait for them all.

``tiktoken.get_encoding(name)`` and ``encoding_for_model(model)`` keep the ``Encoding`` they build per
name for the process (``registry.ENCODINGS``); the first call reads the BPE ranks (a few MB) from the
disk cache (``TIKTOKEN_CACHE_DIR``, else the temp directory's ``data-gym-cache``), downloads them
with ``requests`` on a fresh machine, and parses every line: hundreds of milliseconds, once.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_TIKTOKEN = (
    "source: pkg tiktoken 0.14.0 tiktoken/core.py (Encoding.encode -> self._core_bpe.encode; "
    "encode_batch: ThreadPoolExecutor), registry.py (get_encoding: ENCODINGS per name), "
    "load.py (read_file_cached: requests.get unless cached)"
)
_ENCODING = "tiktoken.Encoding"

APIS: tuple[BlockingApi, ...] = (
    *many(
        "cpu",
        "payload-tokenize",
        "to-thread",
        "encode encode_ordinary encode_to_numpy",
        f"{_ENCODING}.",
        source=_TIKTOKEN,
        what="tokenizes",
    ),
    *many(
        "wait",
        "payload-tokenize",
        "to-thread",
        "encode_batch encode_ordinary_batch",
        f"{_ENCODING}.",
        source=_TIKTOKEN,
        what="tokenizes a batch on a thread pool and waits for it",
    ),
    *many(
        "cpu",
        "load-once",
        "to-thread",
        "get_encoding encoding_for_model",
        "tiktoken.",
        source=_TIKTOKEN,
        what="loads a tokenizer's BPE ranks (the first call per name)",
    ),
)

RETURNS: dict[str, str] = {
    "tiktoken.get_encoding()": _ENCODING,
    "tiktoken.encoding_for_model()": _ENCODING,
    "tiktoken.registry.get_encoding()": _ENCODING,
    "tiktoken.model.encoding_for_model()": _ENCODING,
    "tiktoken.core.Encoding": _ENCODING,
}
