"""The runtime profiler: measure event-loop lag and name the code that held the loop.

``watch()`` is the library API (see docs/profiler.md); ``asynclint profile`` drives a target
under load (``asynclint.profiler.session``). Attributes load lazily, so that the pytest plugin,
which lives in this package and is loaded by every pytest run, imports nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from asynclint.profiler.live import MonitorError, Watch, watch

__all__ = ["MonitorError", "Watch", "watch"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from asynclint.profiler import live

        return getattr(live, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
