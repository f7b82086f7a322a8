"""A tiny on-disk search index for wiki_qa: one JSON file per page, term postings sharded by first letter."""

import asyncio
import json
import os
import sys
from pathlib import Path

# query -> hits. Set WIKI_QA_CACHE to a file to keep the cache across runs.
_CACHE_PATH = Path(os.environ["WIKI_QA_CACHE"]) if os.environ.get("WIKI_QA_CACHE") else None
_cache: dict[str, list[dict]] = {}
if _CACHE_PATH is not None and _CACHE_PATH.exists():
    _cache = json.loads(_CACHE_PATH.read_text())


def slug(title: str) -> str:
    return "_".join(title.lower().split())


def terms(text: str) -> list[str]:
    return [w.strip(".,;:!?()[]\"'") for w in text.lower().split()]


def shard_key(term: str) -> str:
    first = term[:1]
    return first if first.isalpha() else "_"


def build_index(docs: list[dict], index_dir: str | os.PathLike) -> None:
    """Write every page and the term -> page-id shards. Runs once, from load_environment."""
    os.makedirs(os.path.join(index_dir, "docs"), exist_ok=True)
    shards: dict[str, dict[str, list[str]]] = {}
    for doc in docs:
        with open(os.path.join(index_dir, "docs", f"{doc['id']}.json"), "w") as f:
            json.dump(doc, f)
        for term in set(terms(doc["title"] + " " + doc["text"])):
            shards.setdefault(shard_key(term), {}).setdefault(term, []).append(doc["id"])
    for key, postings in shards.items():
        with open(os.path.join(index_dir, f"shard_{key}.json"), "w") as f:
            json.dump(postings, f)
    manifest = {"num_docs": len(docs), "titles": sorted(d["title"] for d in docs)}
    with open(os.path.join(index_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f)


def _read_shard(index_dir: str | os.PathLike, key: str) -> dict[str, list[str]]:
    try:
        with open(os.path.join(index_dir, f"shard_{key}.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def _read_doc(index_dir: str | os.PathLike, doc_id: str) -> dict | None:
    try:
        with open(os.path.join(index_dir, "docs", f"{doc_id}.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


async def load_doc(index_dir: str | os.PathLike, doc_id: str) -> dict | None:
    return await asyncio.to_thread(_read_doc, index_dir, doc_id)


async def lookup(index_dir: str | os.PathLike, query: str, k: int = 3) -> list[dict]:
    """Return up to k pages matching the query."""
    if query in _cache:
        return _cache[query]
    # The longest term is usually the most selective, so only its shard is read.
    term = max(terms(query), key=len)
    postings = _read_shard(index_dir, shard_key(term))
    hits = [await load_doc(index_dir, doc_id) for doc_id in postings.get(term, [])[:k]]
    _cache[query] = [h for h in hits if h is not None]
    if _CACHE_PATH is not None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, lambda: _CACHE_PATH.write_text(json.dumps(_cache)))
    return _cache[query]


def index_stats(index_dir: str | os.PathLike) -> dict[str, int]:
    """Shard sizes in bytes, for eyeballing the index from the command line."""
    return {p.name: p.stat().st_size for p in Path(index_dir).glob("shard_*.json")}


if __name__ == "__main__":
    docs_path, out_dir = sys.argv[1], sys.argv[2]
    with open(docs_path) as f:
        build_index([json.loads(line) for line in f if line.strip()], out_dir)
    print(json.dumps(index_stats(out_dir), indent=2))
