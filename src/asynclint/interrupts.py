"""SIGINT, SIGTERM and SIGHUP turned into an orderly stop, where the command line allows one.

Python's default for SIGTERM and SIGHUP ends the process on the spot: no ``finally`` runs, so a
temporary file being written stays behind. While analysing, :func:`raise_on_stop` makes every
stop signal an :class:`Interrupted` exception (clean-up runs, nothing has been written yet);
while writing, :class:`Deferred` only records the signal, so the file being written is finished
and the command stops before the next one, able to say what it already rewrote.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(BaseException):
    """A stop signal arrived (a BaseException, like KeyboardInterrupt: no ``except Exception``
    swallows it)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    def __reduce__(self) -> tuple[type[Interrupted], tuple[int]]:
        # Raised in an index worker (it inherited the handler), it travels back to the parent.
        return Interrupted, (self.signum,)

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """As shells report a process a signal ended: 130 for SIGINT, 143 for SIGTERM."""
        return 128 + self.signum


def _handling(handler: Callable[[int, FrameType | None], None] | signal.Handlers) -> dict:
    if threading.current_thread() is not threading.main_thread():
        return {}  # signal handlers can only be set from the main thread
    return {signum: signal.signal(signum, handler) for signum in STOP_SIGNALS}


def _restore(previous: dict) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)


@contextmanager
def raise_on_stop() -> Iterator[None]:
    """Inside, a stop signal raises :class:`Interrupted`."""

    def stop(signum: int, frame: FrameType | None) -> NoReturn:
        raise Interrupted(signum)

    previous = _handling(stop)
    try:
        yield
    finally:
        _restore(previous)


class Deferred:
    """Inside, a stop signal is recorded (the first one is kept) and the work goes on until the
    code asks :attr:`stopped` at a point where stopping leaves everything whole."""

    def __init__(self) -> None:
        self.stopped: Interrupted | None = None
        self._previous: dict = {}

    def _record(self, signum: int, frame: FrameType | None) -> None:
        if self.stopped is None:
            self.stopped = Interrupted(signum)

    def __enter__(self) -> Deferred:
        self._previous = _handling(self._record)
        return self

    def __exit__(self, *exc: object) -> None:
        _restore(self._previous)


def ignore_late_stops() -> None:
    """From here on a stop signal does nothing: the command has finished and its exit status is
    decided, and a Ctrl-C landing while the interpreter shuts down (joining a pool's threads) would
    only print a KeyboardInterrupt traceback over a finished run."""
    _handling(signal.SIG_IGN)
