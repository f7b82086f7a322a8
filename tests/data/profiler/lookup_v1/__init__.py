"""A verifiers v1 environment whose task offers MCP tools (profiler tests; needs `mcp`)."""

import verifiers.v1 as vf

from lookup_v1.tools import LookupTools


class LookupData(vf.TaskData):
    answer: str = ""


class LookupTask(vf.Task[LookupData]):
    @classmethod
    def toolsets(cls, config):
        return [LookupTools(vf.ToolsetConfig())]

    @vf.reward(weight=1.0)
    async def answer_from_tool(self, trace: vf.Trace) -> float:
        return float(self.data.answer.lower() in trace.last_reply.lower())


class LookupTaskset(vf.Taskset[LookupTask, vf.TasksetConfig]):
    def load(self):
        yield LookupTask(LookupData(prompt="Who wrote Dune?", answer="Herbert"), self.config.task)
        yield LookupTask(LookupData(prompt="Largest ocean?", answer="Pacific"), self.config.task)


__all__ = ["LookupTaskset"]
