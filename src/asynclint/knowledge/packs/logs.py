"""Logging libraries' loggers: a line written to a stream or a file, or dropped below the level; never reported.

loguru's ``logger.info(...)`` & co. format the record and hand it to each sink in the calling
thread: a stream sink (``sys.stderr`` by default) writes the line, a file sink writes it to a
buffered file and flushes it, no fsync; ``enqueue=True`` puts it on a queue for a writer thread.
structlog's bound loggers run their processors and print the rendered line (``PrintLogger``) or
hand it to the standard library's ``logging``. Measured side by side with ``bench/bench_log_sinks.py``,
a line written costs a fraction of a worker-thread hop, about 1.5x what the standard library's
``logging`` costs for the same line, and the standard library's is not reported: so neither is
theirs (cost class ``log-line``, no grade). Named here so that the survey counts them known and
deep mode, which follows what no entry names, does not read the libraries' sink code.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_LOGURU = (
    "source: pkg loguru 0.7.3 loguru/_logger.py (Logger._log: each handler's emit in the calling thread), "
    "loguru/_file_sink.py (write, then flush; no fsync), loguru/_simple_sinks.py (StreamSink: write, flush)"
)
_STRUCTLOG = (
    "source: pkg structlog 26.1.0 structlog/_config.py (get_logger: a lazy proxy of the configured bound "
    "logger), structlog/_output.py (PrintLogger.msg: print to its file), structlog/stdlib.py (get_logger)"
)
_LOGURU_LEVELS = "trace debug info success warning error critical exception log"
_STRUCTLOG_LEVELS = "debug info warning warn error err critical fatal exception msg log"
#: The names structlog's loggers are got by (``structlog.getLogger`` is the same function).
_STRUCTLOG_GETTERS = ("structlog.get_logger", "structlog.getLogger", "structlog.stdlib.get_logger")

APIS: tuple[BlockingApi, ...] = (
    *many("fs", "log-line", None, _LOGURU_LEVELS, "loguru.logger.", source=_LOGURU),
    *(
        api
        for getter in _STRUCTLOG_GETTERS
        for api in many("fs", "log-line", None, _STRUCTLOG_LEVELS, f"{getter}.", source=_STRUCTLOG)
    ),
)

#: A logger bound to more context is a logger of the same kind (``logger.bind(task=t).info(...)``).
RETURNS: dict[str, str] = {
    **{f"loguru.logger.{method}()": "loguru.logger" for method in ("bind", "opt", "patch")},
    **{f"{getter}.{method}()": getter for getter in _STRUCTLOG_GETTERS for method in ("bind", "new")},
}
