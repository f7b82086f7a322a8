#!/usr/bin/env python
"""Could deep mode's later level graphs take the first graph's call resolutions? (issue 11, round ``incr26``)

Deep mode builds a graph of the whole project per call level (:func:`asynclint.deep.follow_libraries`),
each one resolving every project call site again (``Resolution.target_at`` / ``called_at``, untyped).
A site's answer can change in a later level only if its resolution read a table key (or a memo
answer made from one) under a top-level package that level's library summaries add, or a table not
keyed by module names that library summaries also fill (state keys, ``update_tool_args``'
parameters, registry ids, constructor keepers, import flags). This script measures that, on one
deep check of ``--corpus`` (deep mode's plan never replayed, no result cache):

1. the first level graph is built with its tables and memos wrapped so that every key read
   records its top-level name when it is not one of the project's (``*`` for the tables not keyed
   by module), memo answers carrying what they read, and each project site keeps the set its
   resolution read;
2. every later level graph is built twice: as deep mode builds it, and seeded with the first
   graph's answers (positions remapped) for each site whose set holds no top-level package of
   that level's libraries (nor ``*``); the seeded graph's hot set and external calls must equal
   the plain one's, and each seeded site's answer in the plain graph must equal the first
   graph's (``reusable but differ``: 0, or the recording misses a read).

``--typed`` (round ``incr27``): the parameters typed by their callers (``Parameters.param_type``,
settled order-independently since ``incr27``) are recorded the same way, per (function, parameter),
and seeded into the later graphs when their reads name none of that level's libraries; their
answers in each plain later graph are compared with the first graph's as the sites' are.

It prints, per level graph: the sites reusable, those that differ, the CPU seconds of the plain
and seeded builds and their ratio (and, per level, the parameter types asked in both graphs,
reusable, differing, and reusable but differing). The wrapped first graph is slower than a plain one (its time is
not compared). Nothing here is asynclint's code path: it monkeypatches the graph from outside.

Usage::

    python bench/bench_level_reuse.py --corpus /work/corpus --cache /tmp/level_reuse_cache [--names] [--typed]
"""

from __future__ import annotations

import argparse
import collections
import time
from pathlib import Path

import asynclint.analysis.graph as graph_module
import asynclint.deep as deep
import asynclint.runner as runner
from asynclint.analysis.index.values import linear_chain
from asynclint.project import load_project

#: The top-level name recorded for a read of a table not keyed by module names.
WIDE = "*"
WIDE_TABLES = frozenset({"state_types", "injected", "registered", "_keepers", "_installed"})
MODULE_TABLES = (
    "defs classes exports values built callables returns runners importers patched stars public modules _attrs"
).split()
#: What the resolution in progress has read so far (a set of top-level names outside the project).
READ: list[set[str]] = [set()]


class Recording(dict):
    """A table whose reads note a key's top-level name when it is not the project's."""

    roots: frozenset[str] = frozenset()
    wide = False

    def _note(self, key: object) -> None:
        if self.wide:
            READ[0].add(WIDE)
            return
        top = str(key).partition(".")[0]
        if top not in self.roots:
            READ[0].add(top)

    def get(self, key, default=None):  # type: ignore[override]
        self._note(key)
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self._note(key)
        return dict.__contains__(self, key)

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        self._note(key)
        return dict.__getitem__(self, key)


class RecordingSet(frozenset):
    roots: frozenset[str] = frozenset()

    def __contains__(self, key: object) -> bool:
        top = str(key).partition(".")[0]
        if key != "" and top not in self.roots:  # ``_attribute("", x)`` reads no table
            READ[0].add(top)
        return frozenset.__contains__(self, key)


class CarriedMemo(dict):
    """A memo whose answers carry what they read when made (``reads``)."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: dict[object, frozenset[str]] = {}

    def get(self, key, default=None):  # type: ignore[override]
        found = dict.get(self, key, default)
        if found is not default:
            READ[0].update(self.reads.get(key, ()))
        return found


class NoMemo(dict):
    def __setitem__(self, key, value) -> None:  # type: ignore[no-untyped-def]
        pass


def recorded(compute, sink):  # type: ignore[no-untyped-def]
    """``compute`` whose reads are kept in ``sink`` under its argument (and read by its caller too)."""

    def run(*key):  # type: ignore[no-untyped-def]
        outer, READ[0] = READ[0], set()
        try:
            return compute(*key)
        finally:
            sink[key if len(key) > 1 else key[0]] = sink.get(key if len(key) > 1 else key[0], frozenset()) | READ[0]
            outer |= READ[0]
            READ[0] = outer

    return run


def instrument(g) -> dict[tuple[int, int], frozenset[str]]:  # type: ignore[no-untyped-def]
    roots = frozenset(s.module.partition(".")[0] for s in g.summaries if s.library is None)
    for name in (*MODULE_TABLES, *WIDE_TABLES):
        table = Recording(getattr(g, name))
        table.roots, table.wide = roots, name in WIDE_TABLES
        setattr(g, name, table)
    for name in ("declared", "_roots_of_modules"):
        members = RecordingSet(getattr(g, name))
        members.roots = roots
        setattr(g, name, members)
    g._packages()
    packages = RecordingSet(g._package_names)
    packages.roots = roots
    g._package_names = packages
    g.exported_as("")
    exporters = Recording(g._exporters)
    exporters.roots = roots
    g._exporters = exporters
    memo = g._resolved
    memo.answers = CarriedMemo()
    memo._compute = recorded(memo._compute, memo.answers.reads)
    g._canonical = CarriedMemo()
    g._follow_exports = recorded(g._follow_exports, g._canonical.reads)
    typed = g._param_types  # parameters typed by their callers: answers carrying what they read
    typed.answers = CarriedMemo()
    typed._compute = recorded(typed._compute, typed.answers.reads)
    g._undefined = NoMemo()  # remembered inline: recomputed each time instead
    g.ancestors = lambda cls: linear_chain(cls, g._bases, {})  # its memo is filled for the bases too
    g.mro = lambda cls: [name for name in g.ancestors(cls) if name in g.classes]
    sites: dict[tuple[int, int], frozenset[str]] = {}
    plain_target, plain_called = g.target_at, g.called_at

    def target_at(position: int, index: int):  # type: ignore[no-untyped-def]
        row = g._site_targets[position]
        if row is not None and row[index] != "\0":
            READ[0].update(sites.get((position, index), ()))
            return row[index]
        return recorded(plain_target, sites)(position, index)

    def called_at(position: int, index: int, typed: bool = False):  # type: ignore[no-untyped-def]
        row = g._site_callees[position]
        if typed or (row is not None and row[index] is not None):
            if not typed:
                READ[0].update(sites.get((position, index), ()))
            return plain_called(position, index, typed)
        return recorded(plain_called, sites)(position, index)

    g.target_at, g.called_at = target_at, called_at
    return sites


class Levels:
    """The first level graph's answers, and each later level's measurements."""

    def __init__(self) -> None:
        self.first = None
        self.answers: dict[int, tuple[object, object, list[frozenset[str] | None]]] = {}
        self.seeding = False
        self.plain_first = False
        self.first_same: bool | None = None
        #: Seed the memos of what names denote and of re-exports too (``--names``).
        self.names = False
        #: Seed the parameters typed by their callers too (``--typed``).
        self.typed = False
        self.rows: list[tuple[int, int, int, int, float, float, bool]] = []
        #: Per later level: parameter types asked in both graphs, reusable, differ, reusable but differ.
        self.typed_rows: list[tuple[int, int, int, int]] = []
        #: Per later level: reusable parameter types whose function is handed arguments by other calls.
        self.handing_moved: list[int] = []
        self.blockers: collections.Counter[str] = collections.Counter()

    def propagate(self, g, original) -> None:  # type: ignore[no-untyped-def]
        if self.first is None and not self.plain_first:
            sites = instrument(g)
            original(g)
            self.first = g
            for position, summary in enumerate(g.summaries):
                reads = [sites.get((position, index)) for index in range(len(summary.calls))]
                self.answers[id(summary)] = (g._site_targets[position], g._site_callees[position], reads)
            return
        if self.seeding:
            self.seed(g)
        original(g)

    def reusable(self, g) -> set[tuple[int, int]]:  # type: ignore[no-untyped-def]
        """(id of a project summary, call index) whose first-level reads name none of ``g``'s libraries;
        :attr:`blockers`: how many sites read each of those that do, for the last graph asked."""
        libraries = {s.module.partition(".")[0] for s in g.summaries if s.library is not None} | {WIDE}
        found = set()
        self.blockers = collections.Counter()
        for key, (_, _, reads) in self.answers.items():
            for index, read in enumerate(reads):
                if read is not None and read.isdisjoint(libraries):
                    found.add((key, index))
                elif read is not None:
                    self.blockers.update(read & libraries)
        return found

    def seed(self, g) -> None:  # type: ignore[no-untyped-def]
        assert self.first is not None
        positions = {id(s): p for p, s in enumerate(g.summaries)}
        reusable = self.reusable(g)
        for key, (targets, callees, _) in self.answers.items():
            position = positions[key]
            size = len(g.summaries[position].calls)
            target_row = g._site_targets[position] = ["\0"] * size
            callee_row = g._site_callees[position] = [None] * size
            for index in range(size):
                if (key, index) not in reusable:
                    continue
                target_row[index] = targets[index] if targets is not None else "\0"
                found = callees[index] if callees is not None else None
                if found:
                    found = tuple(g._ids[positions[id(self.first.summaries[k[0]])]][k[1]] for k in found)
                callee_row[index] = found
        if self.typed:
            g._param_types.answers.update(self.typed_answers(g, reusable_only=True))
        if self.names:
            # What names denote and where re-exports lead, for those read from none of the libraries.
            libraries = {s.module.partition(".")[0] for s in g.summaries if s.library is not None} | {WIDE}
            for memo, first in (
                (g._resolved.answers, self.first._resolved.answers),
                (g._canonical, self.first._canonical),
            ):
                memo.update(
                    (name, found)
                    for name, found in dict.items(first)
                    if first.reads.get(name, frozenset()).isdisjoint(libraries)
                )

    def typed_questions(self, g, reusable_only: bool) -> dict[object, object]:  # type: ignore[no-untyped-def]
        """The first graph's parameter questions -> the same questions in ``g``'s function ids (project
        functions keep their summary and index in every level); only those whose reads name none of
        ``g``'s libraries when ``reusable_only``."""
        assert self.first is not None
        libraries = {s.module.partition(".")[0] for s in g.summaries if s.library is not None} | {WIDE}
        positions = {id(s): p for p, s in enumerate(g.summaries)}
        first = self.first._param_types.answers
        found = {}
        for key, name in dict.keys(first):
            if reusable_only and not first.reads.get((key, name), frozenset()).isdisjoint(libraries):
                continue
            found[(key, name)] = (g._ids[positions[id(self.first.summaries[key[0]])]][key[1]], name)
        return found

    def typed_answers(self, g, reusable_only: bool) -> dict[object, object]:  # type: ignore[no-untyped-def]
        """The first graph's parameter types, keyed by ``g``'s function ids (:meth:`typed_questions`)."""
        assert self.first is not None
        first = self.first._param_types.answers
        return {
            ours: dict.__getitem__(first, theirs) for theirs, ours in self.typed_questions(g, reusable_only).items()
        }

    def compare_typed(self, g) -> None:  # type: ignore[no-untyped-def]
        """How many of the first graph's parameter types ``g`` asked too, were reusable, and differ;
        and how many reusable ones have their function handed arguments by other calls in ``g``."""
        assert self.first is not None
        every = self.typed_answers(g, reusable_only=False)
        reusable = self.typed_answers(g, reusable_only=True)
        answers = g._param_types.answers
        both = [question for question in every if question in answers]
        differ = [question for question in both if answers[question] != every[question]]
        self.typed_rows.append(
            (len(both), sum(q in reusable for q in both), len(differ), sum(q in reusable for q in differ))
        )
        # A reused type also needs the same calls handing the parameter: a site kept from reuse may
        # resolve to the function in a later level (the index of those calls is built once, its reads
        # charged to the first question asking it only).
        self.handing_moved.append(
            sum(
                _handing(self.first, theirs[0]) != _handing(g, ours[0])
                for theirs, ours in self.typed_questions(g, reusable_only=True).items()
                if ours in answers
            )
        )

    def project_graph(self, summaries, config, catalogue, original):  # type: ignore[no-untyped-def]
        if self.first is None:
            # The wrapped graph must answer as a plain one does: its hot set and external calls compared.
            self.plain_first = True
            try:
                plain = original(summaries, config, catalogue)
            finally:
                self.plain_first = False
            wrapped = original(summaries, config, catalogue)
            self.first_same = plain.hot == wrapped.hot and plain.external_calls(catalogue) == wrapped.external_calls(
                catalogue
            )
            return wrapped
        start = time.process_time()
        plain = original(summaries, config, catalogue)
        middle = time.process_time()
        self.seeding = True
        try:
            seeded = original(summaries, config, catalogue)
        finally:
            self.seeding = False
        end = time.process_time()
        same = plain.hot == seeded.hot and plain.external_calls(catalogue) == seeded.external_calls(catalogue)
        reusable = self.reusable(plain)
        differ = reused_differ = 0
        positions = {id(s): p for p, s in enumerate(plain.summaries)}
        first = self.first
        for key, (targets, callees, reads) in self.answers.items():
            position = positions[key]
            for index, read in enumerate(reads):
                if read is None:
                    continue
                before = (targets[index], _named(first, callees[index] if callees is not None else None))
                row, callee_row = plain._site_targets[position], plain._site_callees[position]
                after = (
                    row[index] if row is not None else "\0",
                    _named(plain, callee_row[index] if callee_row is not None else None),
                )
                if after[0] == "\0":
                    continue  # not asked in this graph
                if before != after:
                    differ += 1
                    reused_differ += (key, index) in reusable
        self.rows.append((len(summaries), len(reusable), differ, reused_differ, middle - start, end - middle, same))
        self.compare_typed(plain)
        return plain


def _handing(g, key) -> frozenset[tuple[int, int, int]]:  # type: ignore[no-untyped-def]
    """The calls handing function ``key`` an argument: (its caller's summary, the caller's index, the site)."""
    return frozenset((id(g.summaries[caller[0]]), caller[1], id(site)) for caller, site in g._argument_sites(key))


def _named(g, keys):  # type: ignore[no-untyped-def]
    return None if keys is None else tuple((g.summaries[k[0]].path, g.function(k).qualname) for k in keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument(
        "--cache", type=Path, required=True, help="a summary cache directory (its result caches are removed)"
    )
    parser.add_argument("--names", action="store_true", help="seed what names denote (resolve's memo) too")
    parser.add_argument("--typed", action="store_true", help="seed the parameters typed by their callers too")
    args = parser.parse_args()
    for stale in args.cache.glob("results-*"):
        stale.unlink()
    levels = Levels()
    levels.names, levels.typed = args.names, args.typed
    propagate, build = graph_module.ProjectGraph._propagate, deep.project_graph
    graph_module.ProjectGraph._propagate = lambda g: levels.propagate(g, propagate)  # type: ignore[method-assign]
    deep.project_graph = lambda s, c, k: levels.project_graph(s, c, k, build)  # type: ignore[assignment]
    deep._PlannedFiles.as_planned = lambda self: False  # type: ignore[method-assign]  # follow: what is measured
    project = load_project([str(args.corpus)], cwd=args.corpus, use_cache=True, cache_directory=args.cache)
    if not project.config.follow_imports:
        raise SystemExit("deep mode is off in the corpus's configuration: nothing to measure")
    runner.run_check([str(args.corpus)], project.config, files=project.files, jobs=1, cache_directory=args.cache)
    asked = sum(1 for _, _, reads in levels.answers.values() for read in reads if read is not None)
    clean = sum(1 for _, _, reads in levels.answers.values() for read in reads if read == frozenset())
    print(f"first level graph: {asked} project call sites resolved, {clean} read nothing outside the project")
    print(f"first level graph wrapped: the same hot set and external calls as a plain one: {levels.first_same}")
    print(
        "level | summaries | reusable | differ from level 1 | reusable but differ"
        " | plain CPU-s | seeded CPU-s | ratio | same hot set and external calls"
    )
    for level, (size, reusable, differ, bad, plain, seeded, same) in enumerate(levels.rows, 2):
        ratio = seeded / plain if plain else 0.0
        share = 100 * reusable / max(1, asked)
        print(
            f"{level} | {size} | {reusable} ({share:.2f} %) | {differ} | {bad}"
            f" | {plain:.2f} | {seeded:.2f} | {ratio:.2f}x | {same}"
        )
    total_plain = sum(row[4] for row in levels.rows)
    total_seeded = sum(row[5] for row in levels.rows)
    if total_plain:
        print(f"later level graphs: {total_plain:.2f} -> {total_seeded:.2f} CPU-s ({total_seeded / total_plain:.2f}x)")
    first_typed = levels.first._param_types.answers if levels.first is not None else {}
    clean_typed = sum(1 for question in first_typed if not first_typed.reads.get(question))
    print(
        f"first level graph: {len(first_typed)} parameter types asked, {clean_typed} read nothing outside the project"
    )
    print(
        "level | parameter types asked in both | reusable | differ from level 1 | reusable but differ"
        " | reusable, handed arguments by other calls"
    )
    for level, ((both, reusable, differ, bad), moved) in enumerate(
        zip(levels.typed_rows, levels.handing_moved, strict=True), 2
    ):
        print(f"{level} | {both} | {reusable} | {differ} | {bad} | {moved}")
    print(
        "the last level's sites kept from reuse, by the library top-level names they read:",
        levels.blockers.most_common(12),
    )


if __name__ == "__main__":
    main()
