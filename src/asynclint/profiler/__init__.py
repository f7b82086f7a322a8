"""The runtime profiler: measure event-loop lag and name the code that held the loop.

``watch()`` is the library API (see docs/profiler.md); ``asynclint profile`` drives a target
under load (``asynclint.profiler.session``).
"""

from __future__ import annotations

from asynclint.profiler.watch import Watch, watch

__all__ = ["Watch", "watch"]
