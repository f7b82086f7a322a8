"""The import graph of ``src/asynclint`` has no cycles (issue 13), read from the source: imports
at module level, inside functions (lazy) and under ``if TYPE_CHECKING:`` all count, since each
ties one module's shape to another's."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "asynclint"


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules ``name`` imports anywhere in its source (``from a import b`` counts
    as importing ``a.b`` when that is a module, else ``a``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            submodules = {f"{base}.{alias.name}" for alias in node.names} & known.keys()
            imported.update(submodules if len(submodules) == len(node.names) else {base, *submodules})
    return {module for module in imported if module in known and module != name}


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_the_package_imports_in_no_circle():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert graph["asynclint.fixers.cst.build"] >= {"asynclint.fixers.base", "asynclint.fixers.project"}  # reads them
    assert graph["asynclint.profiler.targets"] >= {"asynclint.profiler.target_base", "asynclint.profiler.v1"}
    found = [sorted(component) for component in cycles(graph)]
    assert not found, f"import cycles: {found}"


def test_a_cycle_is_found_through_lazy_and_type_only_imports(tmp_path):
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    known = {"asynclint.model": tmp_path, "asynclint.engine": tmp_path, "asynclint.x.y": tmp_path}
    module = tmp_path / "x.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from asynclint.model import Finding\n\n\n"
        "def f():\n    from asynclint import engine\n    from . import y\n",
        encoding="utf-8",
    )
    assert imports("asynclint.x.z", module, known) == {"asynclint.model", "asynclint.engine", "asynclint.x.y"}


def test_the_analysis_sits_below_the_rules_and_fixers():
    """Issue 13: the analysis reads only the knowledge base and the records it answers with."""
    known = modules()
    analysis = {name: path for name, path in known.items() if name.startswith("asynclint.analysis")}
    assert "asynclint.analysis.graph" in analysis and "asynclint.analysis.index.walker" in analysis
    for name, path in analysis.items():
        outside = {
            module
            for module in imports(name, path, known)
            if not module.startswith(("asynclint.analysis", "asynclint.knowledge")) and module != "asynclint.model"
        }
        assert not outside, f"{name} imports {sorted(outside)}"


#: The cache's modules, split along its sections (records as plain data and the files; the
#: summaries; the last result): held to the same size.
CACHE = ("asynclint.cache", "asynclint.cache_summaries", "asynclint.cache_results")


def test_the_analysis_rules_fixers_profiler_and_cli_are_modules_of_readable_size():
    """No module of the analysis, the rules, the fixers, the profiler, the command line or the cache is above 600
    lines: a larger one is split along its sections (the rules' context into its payload, hand-over and
    record modules; the loop monitor into its records, stacks and operating-system timers; the command
    line into a module per command)."""
    known = modules()
    layers = ("asynclint.analysis", "asynclint.rules", "asynclint.fixers", "asynclint.profiler", "asynclint.cli")
    checked = {name: path for name, path in known.items() if name.startswith(layers) or name in CACHE}
    assert {
        "asynclint.analysis.graph",
        "asynclint.rules.context",
        "asynclint.fixers.project",
        "asynclint.profiler.monitor",
        "asynclint.cli.check",
        *CACHE,
    } <= checked.keys()
    for name, path in checked.items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 600, f"{name} has {lines} lines"


def test_rules_and_fixers_ask_the_call_graph_through_its_query_interface():
    """Rules and fixers see the graph as ``analysis.api.CallGraph`` (mypy holds them to its
    methods); only the engine and the pipeline, which build it, name ``ProjectGraph``."""
    known = modules()
    asking = {name: path for name, path in known.items() if name.startswith(("asynclint.rules", "asynclint.fixers"))}
    assert "asynclint.rules.context" in asking and "asynclint.fixers.project" in asking
    naming = sorted(name for name, path in asking.items() if "asynclint.analysis.graph" in imports(name, path, known))
    assert not naming, f"{naming} import the graph's implementation; type them with asynclint.analysis.api"
    assert "asynclint.analysis.api" in imports("asynclint.rules.context", known["asynclint.rules.context"], known)
