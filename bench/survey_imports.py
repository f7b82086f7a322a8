#!/usr/bin/env python
"""Which third-party libraries do verifiers environments call on their hot paths?

For every environment of each corpus given (each one a project of its own, as ``asynclint check
<env>`` sees it: a directory under ``<corpus>/<owner+name>/environments/``, or, for a repository
laid out otherwise -- one environment at its root, or a package of its own -- the repository),
this script

* parses every module with ``ast`` and counts the third-party top-level modules it imports
  (anywhere in the environment: module level or inside functions);
* builds asynclint's own project graph (the summaries ``check`` builds, then
  :func:`asynclint.engine.project_graph`) and, for every call written in a function the graph
  marks hot, resolves the callee the way ``check`` does (``graph.call_target`` then
  ``graph.resolve``); a callee whose top-level module is third party counts for that library,
  split into sync calls (the ones that can stall the loop) and awaited ones;
* notes which of those sync hot calls the knowledge base already matches (``site.api`` or
  ``catalogue.match``), so the table shows where knowledge is missing.

Third party: neither the standard library, nor ``builtins``, nor a module or package name found
inside the environment itself. ``verifiers`` is listed (its own sync helpers count) but marked.

Usage::

    python bench/survey_imports.py                     # /work/corpus, top 25
    python bench/survey_imports.py --corpus DIR --top 40 --callees 6
    python bench/survey_imports.py --corpus /work/corpus --corpus /work/corpus-heldout2   # several, summed
    python bench/survey_imports.py --markdown          # the table for bench/README.md
    python bench/survey_imports.py --unknown --callees 12   # ranked by the sites no entry matches

Reads source only; imports nothing it surveys.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from asynclint.config import Config
from asynclint.engine import project_graph, summarize
from asynclint.files import discover
from asynclint.model import FileError
from asynclint.runner import read_sources

_STDLIB = frozenset(sys.stdlib_module_names) | {"builtins", "__future__"}


@dataclass
class Library:
    envs: set[str] = field(default_factory=set)  # environments importing it
    hot_envs: set[str] = field(default_factory=set)  # environments calling it on a hot path
    sync_sites: int = 0  # hot call sites, not awaited
    awaited_sites: int = 0
    known_sites: int = 0  # sync hot sites the knowledge base matches
    callees: Counter = field(default_factory=Counter)  # sync hot callee -> sites
    unknown: Counter = field(default_factory=Counter)  # sync hot callee the knowledge base misses -> sites


def imported_tops(text: str) -> set[str]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return set()
    tops = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops.add(node.module.partition(".")[0])
    return tops


def environments(corpus: Path) -> list[tuple[str, Path]]:
    """(label, directory) of every environment in ``corpus`` (``<owner+name>/...`` per repository):
    the directories under a repository's ``environments/``, else the repository itself (held-out
    splits 25-28 hold single-environment repositories and packages laid out as their authors chose)."""
    found = []
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if (repo / "environments").is_dir():
            found += [
                (f"{repo.name}/{env.name}", env) for env in sorted((repo / "environments").iterdir()) if env.is_dir()
            ]
        else:
            found.append((repo.name, repo))
    return found


def survey_env(label: str, env: Path, libraries: dict[str, Library]) -> tuple[int, int]:
    config = Config(root=env)
    files = discover([str(env)], config)
    sources, _ = read_sources(files, config.root)
    catalogue = config.catalogue()
    summaries = [s for s in (summarize(source, catalogue) for source in sources) if not isinstance(s, FileError)]
    # The environment's own modules and packages, however it imports them (``utils.browser``).
    own = {s.module.partition(".")[0] for s in summaries} | {env.name}
    own |= {file.stem for file in files} | {part for file in files for part in file.relative_to(env).parts[:-1]}
    for source in sources:
        for top in imported_tops(source.text) - _STDLIB - own:
            libraries[top].envs.add(label)
    graph = project_graph(summaries, config, catalogue)
    hot_functions = 0
    for position, summary in enumerate(graph.summaries):
        for index in range(len(summary.functions)):
            hot_functions += (position, index) in graph.hot
        for site in summary.calls:
            if (position, site.caller) not in graph.hot or site.read:
                continue
            target = graph.call_target(site)
            target = target and graph.resolve(target)
            if not target:
                continue
            top = target.partition(".")[0]
            if top in _STDLIB or top in own or not top.isidentifier():
                continue
            library = libraries[top]
            library.hot_envs.add(label)
            if site.awaited:
                library.awaited_sites += 1
                continue
            library.sync_sites += 1
            library.callees[target] += 1
            if site.api is not None or catalogue.match(target, site.method) is not None:
                library.known_sites += 1
            else:
                library.unknown[target] += 1
    return len(files), hot_functions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", type=Path, action="append", help="a corpus root; repeat for several (default: /work/corpus)"
    )
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--callees", type=int, default=4, help="most frequent sync hot callees shown per library")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument(
        "--unknown",
        action="store_true",
        help="rank by sync hot sites the knowledge base misses, and show those callees (where packs are missing)",
    )
    args = parser.parse_args()

    libraries: dict[str, Library] = defaultdict(Library)
    corpora = args.corpus or [Path("/work/corpus")]
    # Labelled by corpus when there are several: the same repository may be in two of them.
    envs = [
        (f"{corpus.name}/{label}" if len(corpora) > 1 else label, env)
        for corpus in corpora
        for label, env in environments(corpus)
    ]
    files = hot = 0
    for label, env in envs:
        counted = survey_env(label, env, libraries)
        files, hot = files + counted[0], hot + counted[1]
    print(f"{len(envs)} environments, {files} files, {hot} hot functions, {len(libraries)} third-party modules\n")

    # Ranked by how many environments call the library on a hot path, then by its sync hot sites.
    ranked = sorted(
        libraries.items(), key=lambda kv: (-len(kv[1].hot_envs), -kv[1].sync_sites, -len(kv[1].envs), kv[0])
    )
    if args.unknown:
        ranked.sort(key=lambda kv: -(kv[1].sync_sites - kv[1].known_sites))
    header = (
        "library",
        "envs importing",
        "envs calling hot",
        "sync hot sites",
        "awaited hot sites",
        "known to the catalogue",
    )
    if args.markdown:
        print("| " + " | ".join(header) + " | top sync hot callees |")
        print("|" + "---|" * (len(header) + 1))
    for name, lib in ranked[: args.top]:
        shown = f"{name} (framework)" if name == "verifiers" else name
        shown_callees = lib.unknown if args.unknown else lib.callees
        top = ", ".join(f"`{c}` {n}" for c, n in shown_callees.most_common(args.callees))
        row = (shown, len(lib.envs), len(lib.hot_envs), lib.sync_sites, lib.awaited_sites, lib.known_sites)
        if args.markdown:
            print("| " + " | ".join(map(str, row)) + f" | {top} |")
        else:
            print(f"{shown:28} {row[1]:4} {row[2]:4} {row[3]:5} {row[4]:5} {row[5]:5}  {top}")
    print("\nimported but never called on a hot path (by envs importing):")
    cold = sorted(((len(lib.envs), name) for name, lib in libraries.items() if not lib.hot_envs), reverse=True)
    print(", ".join(f"{name} {n}" for n, name in cold[: args.top]))


if __name__ == "__main__":
    main()
