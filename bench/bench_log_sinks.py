#!/usr/bin/env python
"""What one log line costs the thread that writes it, by library and sink, against a worker-thread hop.

The survey of the tuning corpora (``bench/README.md``, round ``pack29``) found ~95 sync hot call sites
of ``loguru`` and ``structlog`` loggers with no cost class. The standard library's ``logging`` is the
model: no entry names it, so its calls are not reported. This script times, interleaved in one
process, one ``info`` call with a short message and one formatted argument through:

* the standard library's ``logging``: a ``StreamHandler`` on a file (stderr redirected to a log
  file, as a container runtime or ``nohup`` does), a ``FileHandler``, and a level the logger
  drops (``debug`` under ``INFO``);
* ``loguru``'s ``logger``: a stream sink on a file (its default ``sys.stderr`` sink, redirected), a
  file sink (``logger.add(path)``: a buffered write and a flush per line, no fsync), the same with
  ``enqueue=True`` (the line handed to a writer thread), and a dropped level;
* ``structlog``'s default logger (a ``PrintLogger`` on a file: its ``ConsoleRenderer`` formats the
  event dict, then a ``print``), and a level the filtering bound logger drops;

each against a worker-thread hop (``asyncio.to_thread`` of a no-op: what moving a call off the
loop costs). A library that is not installed is left out (``pip install loguru structlog``).

It prints the median of ``--repeat`` rounds of ``--lines`` calls each, in microseconds per line,
and the ratio to the hop. Nothing asserts an absolute time: the numbers go into the reason of the
cost class (``knowledge/costs.py``).

Usage::

    python bench/bench_log_sinks.py [--repeat 7] [--lines 2000] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from costbench import hop  # bench/, the script's own directory, is sys.path[0]


def per_line(log: Callable[..., Any], lines: int) -> float:
    """Microseconds per call of ``log`` over ``lines`` calls."""
    start = time.perf_counter()
    for turn in range(lines):
        log("tool call %s finished", turn)
    return (time.perf_counter() - start) * 1e6 / lines


def stdlib_loggers(scratch: Path) -> dict[str, Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    for name, handler in (
        ("stream on a file", logging.StreamHandler(open(scratch / "stdlib-stream.log", "a"))),  # noqa: SIM115
        ("FileHandler", logging.FileHandler(scratch / "stdlib-file.log")),
    ):
        logger = logging.getLogger(f"bench.{name}")
        logger.propagate = False
        logger.setLevel(logging.INFO)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        found[f"logging: {name}"] = logger.info
        if name == "FileHandler":
            found["logging: level dropped"] = logger.debug
    return found


def loguru_loggers(scratch: Path) -> dict[str, Callable[..., Any]]:
    if importlib.util.find_spec("loguru") is None:
        return {}
    from loguru import logger

    logger.remove()
    found: dict[str, Callable[..., Any]] = {}
    # loguru formats with ``{}``; the same call shape, one argument.
    sinks = {
        "stream on a file": (open(scratch / "loguru-stream.log", "a"), {}),  # noqa: SIM115
        "file sink": (scratch / "loguru-file.log", {}),
        "file sink, enqueue=True": (scratch / "loguru-queued.log", {"enqueue": True}),
    }
    for name, (sink, options) in sinks.items():
        bound = logger.bind(sink=name)
        logger.add(sink, level="INFO", filter=lambda record, name=name: record["extra"].get("sink") == name, **options)
        found[f"loguru: {name}"] = lambda message, *args, bound=bound: bound.info(message.replace("%s", "{}"), *args)
    dropped = logger.bind(sink="file sink")
    found["loguru: level dropped"] = lambda message, *args: dropped.debug(message.replace("%s", "{}"), *args)
    return found


def structlog_loggers(scratch: Path) -> dict[str, Callable[..., Any]]:
    if importlib.util.find_spec("structlog") is None:
        return {}
    import structlog

    structlog.configure(
        logger_factory=structlog.PrintLoggerFactory(open(scratch / "structlog.log", "a")),  # noqa: SIM115
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
    )
    log = structlog.get_logger()
    return {
        "structlog: console renderer on a file": lambda message, *args: log.info(message, *args),
        "structlog: level dropped": lambda message, *args: log.debug(message, *args),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--dir", default=None, help="where to write the log files (default: the temp dir)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="asl-log-bench-", dir=args.dir) as scratch_dir:
        scratch = Path(scratch_dir)
        loggers = {**stdlib_loggers(scratch), **loguru_loggers(scratch), **structlog_loggers(scratch)}
        samples: dict[str, list[float]] = {name: [] for name in loggers}
        hops: list[float] = []
        for _ in range(args.repeat):  # interleaved: load on the machine hits every operation alike
            hops.append(hop())
            for name, log in loggers.items():
                samples[name].append(per_line(log, args.lines))
        thread_hop = statistics.median(hops)
        print(f"worker-thread hop (asyncio.to_thread of a no-op): {thread_hop:8.1f} µs  (median of {args.repeat})")
        for name, times in samples.items():
            median = statistics.median(times)
            print(f"  {name:44} {median:8.2f} µs a line  {median / thread_hop:6.2f}x the hop")
        if importlib.util.find_spec("loguru") is not None:
            from loguru import logger

            logger.remove()  # joins the enqueue writer thread before the directory goes


if __name__ == "__main__":
    main()
