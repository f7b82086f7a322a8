"""The tool server: verifiers runs it as its own process (`python -m lookup_v1.tools`)."""

import verifiers.v1 as vf

INDEX = {"dune": "Herbert wrote it", "ocean": "Pacific is largest"}


class LookupTools(vf.Toolset[vf.ToolsetConfig]):
    TOOL_PREFIX = "lookup"

    @vf.tool
    def search(self, query: str) -> str:
        """Search a tiny index."""
        hits = [text for key, text in INDEX.items() if key in query.lower()]
        return hits[0] if hits else "nothing found"


if __name__ == "__main__":
    LookupTools.run()
