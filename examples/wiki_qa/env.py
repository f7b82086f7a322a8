"""wiki_qa: answer trivia questions by searching a small wiki (classic v0 verifiers API)."""

import asyncio
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import requests
from datasets import Dataset

import verifiers as vf

from . import store
from .rewards import CHECKER, WikiJudgeRubric

DATA_DIR = Path(__file__).parent / "data"
DOCS_PATH = DATA_DIR / "docs.jsonl"
CORPUS_URL = "https://wiki.example.org/wiki_qa/docs.jsonl"
SEARCH_URL = "https://search.example.org/v1/search"
PAGE_URL = "https://search.example.org/v1/page"
MIN_SEARCH_INTERVAL = 0.5  # seconds; the search API allows ~2 requests/s per key

WORK_ROOT = Path(tempfile.gettempdir()) / "wiki_qa"
INDEX_DIR = WORK_ROOT / "index"
os.makedirs(WORK_ROOT, exist_ok=True)

SYSTEM_PROMPT = """Answer the question using the wiki tools. Cite the page you used as [[Title]].
Think inside <think>...</think>, then give the final answer inside <answer>...</answer>."""


async def search_wiki(query: str) -> str:
    """Search the wiki and list the best matching pages.

    Args:
        query: a few keywords
    """
    if not query.strip():
        return json.dumps({"ok": False, "error": "empty query"})
    hits = await store.lookup(INDEX_DIR, query)
    if not hits:
        # Nothing in the local index: fall back to the hosted search API.
        resp = requests.get(SEARCH_URL, params={"q": query, "k": 3}, timeout=10)
        resp.raise_for_status()
        hits = resp.json()["results"]
    return "\n".join(f"{h['title']}: {h['text'][:200]}" for h in hits)


async def fetch_page(title: str) -> str:
    """Return the full text of a wiki page.

    Args:
        title: the exact page title, as listed by search_wiki
    """
    doc = await store.load_doc(INDEX_DIR, store.slug(title))
    if doc is None:
        with httpx.Client(timeout=10) as client:
            resp = client.get(PAGE_URL, params={"title": title})
        if resp.status_code == 404:
            return f"No page titled {title!r}."
        doc = resp.json()
    return doc["text"]


class WikiQAEnv(vf.ToolEnv):
    def __init__(self, index_dir: Path = INDEX_DIR, **kwargs):
        super().__init__(tools=[search_wiki, fetch_page], **kwargs)
        self.index_dir = Path(index_dir)
        with open(self.index_dir / "manifest.json") as f:
            if not json.load(f)["num_docs"]:
                raise ValueError(f"empty index at {self.index_dir}")

    async def setup_state(self, state: vf.State, **kwargs) -> vf.State:
        state = await super().setup_state(state, **kwargs)
        # The judge is shown the gold page, so load it once per rollout.
        with open(self.index_dir / "docs" / f"{state['info']['doc_id']}.json") as f:
            state["gold_doc"] = json.load(f)
        state["workdir"] = tempfile.mkdtemp(prefix="rollout_", dir=WORK_ROOT)
        # Keep the question next to the per-turn dumps so a failed rollout can be replayed by hand.
        Path(state["workdir"], "question.txt").write_text(str(state["prompt"][-1]["content"]))
        state.update(index_dir=str(self.index_dir), transcript="", turn=0, last_call_at=0.0)
        return state

    async def env_response(self, messages: vf.Messages, state: vf.State, **kwargs) -> vf.Messages:
        wait = MIN_SEARCH_INTERVAL - (time.monotonic() - state["last_call_at"])
        if wait > 0:
            time.sleep(wait)  # back off to stay under the search API's rate limit
        state["last_call_at"] = time.monotonic()
        state["transcript"] += str(messages[-1].get("content") or "") + "\n"

        # Tools may touch state; roll back to this snapshot if one of them blows up.
        snapshot = copy.deepcopy({k: v for k, v in state.items() if k not in ("client", "usage", "usage_tracker")})
        try:
            tool_messages = await super().env_response(messages, state, **kwargs)
        except Exception:
            # Live objects (the client, usage trackers) were not copied: keep them, restore the rest.
            state.update(snapshot)
            raise

        # Dump every tool result for debugging.
        state["turn"] += 1
        for i, msg in enumerate(tool_messages):
            Path(state["workdir"], f"turn{state['turn']:02d}_{i}.txt").write_text(str(msg["content"]))
        return tool_messages

    @vf.stop
    async def gave_answer(self, state: vf.State) -> bool:
        return bool(re.findall(r"<answer>.*?</answer>", state["transcript"], flags=re.DOTALL))

    @vf.cleanup
    async def remove_workdir(self, state: vf.State) -> None:
        def archive() -> None:
            with open(WORK_ROOT / "trajectories.jsonl", "a") as f:
                f.write(json.dumps(state["trajectory"], default=str) + "\n")

        await asyncio.to_thread(archive)
        workdir = state.get("workdir")
        if workdir and os.path.exists(workdir):
            shutil.rmtree(workdir)


def load_environment(num_examples: int = -1, judge_model: str = "gpt-4.1-mini", **kwargs) -> vf.Environment:
    if not DOCS_PATH.exists():
        resp = requests.get(CORPUS_URL, timeout=60)
        resp.raise_for_status()
        DOCS_PATH.write_text(resp.text)
    with open(DOCS_PATH) as f:
        docs = [json.loads(line) for line in f if line.strip()]

    # Rebuild from scratch so edits to docs.jsonl are always picked up.
    shutil.rmtree(INDEX_DIR, ignore_errors=True)
    store.build_index(docs, INDEX_DIR)
    # Fail fast if the citation checker cannot even start.
    subprocess.run([sys.executable, str(CHECKER), "--selftest"], check=True, timeout=30)

    rows = [
        {"question": qa["q"], "answer": qa["a"], "info": {"doc_id": doc["id"]}}
        for doc in docs
        for qa in doc["qa"]
    ]
    dataset = Dataset.from_list(rows)
    if num_examples > 0:
        dataset = dataset.select(range(min(num_examples, len(rows))))

    parser = vf.XMLParser(["think", "answer"], answer_field="answer")
    rubric = WikiJudgeRubric(judge_model=judge_model, parser=parser)
    return WikiQAEnv(dataset=dataset, system_prompt=SYSTEM_PROMPT, parser=parser, rubric=rubric, max_turns=8, **kwargs)
