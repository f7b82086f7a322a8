"""A small verifiers v1 environment with blocking calls on the loop (profiler tests)."""

import json
import shutil
import tempfile
import time
from pathlib import Path

import verifiers.v1 as vf

# The fake model answers with a word of the question: rewards vary with the seed, not with timing.
QUESTIONS = [
    ("Paris or Lyon?", "Paris"),
    ("Mars or Jupiter?", "Jupiter"),
    ("4 or 7?", "7"),
]


class QAData(vf.TaskData):
    answer: str = ""


class QATask(vf.Task[QAData]):
    # A task object serves every rollout of its row at once: per-rollout state goes on the trace.
    async def setup(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        scratch = Path(tempfile.mkdtemp(prefix="qa-v1-"))  # stall: mkdtemp
        (scratch / "task.json").write_text(json.dumps({"answer": self.data.answer}))  # stall: write
        trace.info["scratch"] = str(scratch)

    async def finalize(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        shutil.rmtree(trace.info.pop("scratch"), ignore_errors=True)

    @vf.reward(weight=1.0)
    async def mentions_answer(self, trace: vf.Trace) -> float:
        time.sleep(0.02)  # stall: sleep
        return float(self.data.answer.lower() in trace.last_reply.lower())

    @vf.metric
    async def reply_chars(self, trace: vf.Trace) -> float:
        return float(len(trace.last_reply))


class QATaskset(vf.Taskset[QATask, vf.TasksetConfig]):
    def load(self):
        for question, answer in QUESTIONS:
            yield QATask(QAData(prompt=question, answer=answer), self.config.task)


__all__ = ["QATaskset"]
