"""Reward functions and the judge rubric for wiki_qa."""

import json
import os
import subprocess
import sys
from pathlib import Path

import sympy
from openai import OpenAI

import verifiers as vf

CHECKER = Path(__file__).with_name("check_citations.py")

JUDGE_PROMPT = """Reference page:
{page}

Question: {question}
Reference answer: {answer}
Model answer: {response}

Does the model answer mean the same as the reference answer? Reply "yes" or "no"."""


def _normalize(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def exact_match(parser: vf.Parser, completion: vf.Messages, answer: str) -> float:
    """1.0 if the parsed answer equals the reference, ignoring case and punctuation."""
    return float(_normalize(parser.parse_answer(completion) or "") == _normalize(answer))


async def numeric_match(parser: vf.Parser, completion: vf.Messages, answer: str) -> float:
    """Accept numerically equal answers, e.g. "1,815" for "1815"."""
    guess = (parser.parse_answer(completion) or "").replace(",", "")
    try:
        return float(sympy.sympify(f"({guess}) - ({answer})") == 0)
    except (sympy.SympifyError, TypeError):
        return 0.0


async def citation_check(completion: vf.Messages, state: vf.State) -> float:
    """1.0 if the final message cites a page that exists in the index."""
    final = str(completion[-1]["content"]) if completion else ""
    proc = subprocess.run(
        [sys.executable, str(CHECKER), state["index_dir"]],
        input=final, capture_output=True, text=True, timeout=30,
    )
    return 1.0 if proc.returncode == 0 else 0.0


async def trajectory_bytes(state: vf.State) -> float:
    """Serialized size of the rollout, to spot runaway tool loops."""
    return float(len(json.dumps(state["trajectory"], default=str)))


class WikiJudgeRubric(vf.Rubric):
    def __init__(self, judge_model: str = "gpt-4.1-mini", judge_base_url: str | None = None, **kwargs):
        super().__init__(funcs=[exact_match, numeric_match, citation_check], weights=[0.5, 0.5, 0.2], **kwargs)
        self.judge_model = judge_model
        self.judge = OpenAI(
            base_url=judge_base_url or os.environ.get("JUDGE_BASE_URL"),
            api_key=os.environ.get("JUDGE_API_KEY", "EMPTY"),
        )
        self.add_reward_func(self.judge_answer, weight=1.0)
        self.add_metric(trajectory_bytes)

    async def judge_answer(self, prompt: vf.Messages, completion: vf.Messages, answer: str, state: vf.State) -> float:
        """Ask an LLM judge whether the answer matches the reference, showing it the gold page."""
        content = JUDGE_PROMPT.format(
            page=state["gold_doc"]["text"],
            question=prompt[-1]["content"],
            answer=answer,
            response=self.parser.parse_answer(completion) or "",
        )
        response = self.judge.chat.completions.create(
            model=self.judge_model,
            messages=[{"role": "user", "content": content}],
            temperature=0.0,
        )
        verdict = response.choices[0].message.content or ""
        return 1.0 if verdict.strip().lower().startswith("yes") else 0.0
