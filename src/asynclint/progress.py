"""A progress bar on stderr for runs a person waits for: shown once a run has taken about a
second (a quick run stays silent), removed when the run ends, never on anything but a terminal."""

from __future__ import annotations

import sys
import threading
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

#: Seconds before the bar appears: a run that ends sooner shows none.
DELAY = 1.0


class ProgressBar:
    """A :data:`asynclint.pool.Progress` callback drawing a transient rich bar on stderr.

    A timer shows it after :data:`DELAY` even when no stage reports meanwhile (building the
    project graph is one long step); each stage's count updates it. Inert unless ``enabled``."""

    def __init__(self, enabled: bool, delay: float = DELAY):
        self.enabled, self.delay = enabled, delay
        self._lock = threading.Lock()
        self._state: tuple[str, int, int | None] = ("starting", 0, None)
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._timer: threading.Timer | None = None
        self._closed = False

    def __enter__(self) -> ProgressBar:
        if self.enabled:
            self._timer = threading.Timer(self.delay, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        with self._lock:
            self._state = (stage, done, total)
            if self._bar is not None:
                self._update(self._bar)

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        with self._lock:
            if self._closed:
                return
            self._bar = bar = Progress(
                SpinnerColumn(),
                TextColumn("asynclint: {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(file=sys.stderr),
                transient=True,
            )
            bar.start()
            self._update(bar)

    def _update(self, bar: Progress) -> None:
        stage, done, total = self._state
        if self._task is not None and bar.tasks[0].description == stage:
            bar.update(self._task, completed=done)
            return
        # A stage of its own: counted or not (a task's total cannot go back to "not counted").
        if self._task is not None:
            bar.remove_task(self._task)
        self._task = bar.add_task(stage, total=total, completed=done)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._bar is not None:
                self._bar.stop()  # transient: the bar leaves nothing behind
