"""Indexing a project's sources: in this process, or for many files in a pool of worker processes
whose summaries come back encoded as the cache writes them."""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from asynclint.cache import decode as decode_record, encode
from asynclint.model import FileError

if TYPE_CHECKING:  # imported where used: a run answered from the result cache needs none of them
    from asynclint.analysis.index.records import ModuleSummary
    from asynclint.engine import SourceFile
    from asynclint.knowledge.blocking import BlockingApi
    from asynclint.knowledge.catalogue import Catalogue

#: Below this many files to index, worker start-up costs more than it saves.
PARALLEL_THRESHOLD = 48
#: Files a worker is sent at once. Each batch's summaries come back as one message, its bytes and
#: its strings alive together in the parent: a quarter of a worker's share of a 7,500-file project
#: was 900 files, tens of MB a message, and the heap they were made in stays the process's.
_MAX_CHUNK = 16


_worker_catalogue: Catalogue | None = None


def _init_worker(apis: tuple[BlockingApi, ...], offload: dict[str, int]) -> None:
    from asynclint.knowledge.catalogue import Catalogue

    global _worker_catalogue
    _worker_catalogue = Catalogue(apis, offload)


def _summarize_in_worker(source: SourceFile) -> str | FileError:
    """The summary as the cache writes it: the parent decodes it with one copy of each string
    (pickled objects would arrive with a copy per file: half a large project's summaries)."""
    from asynclint.engine import summarize

    assert _worker_catalogue is not None
    outcome = summarize(source, _worker_catalogue)
    return outcome if isinstance(outcome, FileError) else encode(outcome)


def _received(outcome: str | FileError) -> ModuleSummary | FileError:
    from asynclint.analysis.index.records import ModuleSummary

    if isinstance(outcome, FileError):
        return outcome
    summary = decode_record(ModuleSummary, json.loads(outcome))
    assert isinstance(summary, ModuleSummary)  # what decode builds for the class it is given
    return summary


#: Told what a run is doing: (stage, items done, items in all or ``None`` when not counted).
Progress = Callable[[str, int, "int | None"], None]


def quiet(stage: str, done: int, total: int | None) -> None:
    """The progress of a run nobody watches."""


def index(
    sources: Sequence[SourceFile], catalogue: Catalogue, jobs: int, progress: Progress = quiet
) -> list[ModuleSummary | FileError]:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from asynclint.engine import summarize

    summaries: list[ModuleSummary | FileError] = []

    def in_process() -> list[ModuleSummary | FileError]:
        for source in sources[len(summaries) :]:
            summaries.append(summarize(source, catalogue))
            progress("indexing", len(summaries), len(sources))
        return summaries

    if jobs <= 1 or len(sources) < PARALLEL_THRESHOLD:
        return in_process()
    apis = tuple(catalogue.apis.values())
    initargs = (apis, catalogue.offload)
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=initargs)
    try:
        chunk = max(1, min(_MAX_CHUNK, len(sources) // (jobs * 4)))
        # A forked worker shares the parent's memory until it writes to it, and the cyclic
        # collector writes to every container it walks: a worker's first full collection copied
        # the parent's heap (the files' names and texts) into each worker. What is frozen when the
        # workers are forked (the first task sent starts them all) is never walked.
        gc.freeze()
        try:
            outcomes = pool.map(_summarize_in_worker, sources, chunksize=chunk)
        finally:
            gc.unfreeze()
        with collector_paused():
            for outcome in outcomes:
                summaries.append(_received(outcome))
                progress("indexing", len(summaries), len(sources))
        return summaries
    except BrokenProcessPool:
        # A worker died (killed by the OOM killer or a signal): the summaries received so far are
        # whole, and the files after them are indexed here, so the run's result is the same.
        pool.shutdown(wait=False, cancel_futures=True)
        return in_process()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)  # interrupted: the queued work is dropped
        raise
    finally:
        pool.shutdown(wait=True)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


@contextlib.contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """Decoding cached summaries makes millions of containers and no cycles: the cyclic
    collector, triggered by allocations, would walk the growing heap over and over (it took
    most of the time of reading a large project's cache). ``freeze``: what was made lives to
    the end of the run, so it is frozen before the collector runs again (whose first collection
    would walk all of it); the caller unfreezes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if enabled:
            gc.enable()
