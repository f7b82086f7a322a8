"""Where a :class:`~asynclint.analysis.index.records.ModuleSummary`'s records hold lines of their
file: what a line inserted or deleted above them moves (``asynclint.cache_summaries.moved_digest``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from asynclint.analysis.index.callfacts import CallFacts
from asynclint.analysis.index.handed import FunctionRef, Handoff
from asynclint.analysis.index.loops import LoopNest, WorkLoop
from asynclint.analysis.index.records import CallSite, ClassInfo, Function, ModuleSummary


@dataclass(frozen=True)
class LineSlots:
    """Where a field holds lines of the file (:data:`LINES`): the value itself, or the ``slots``
    of the value (a tuple, or ``None``) or of each of its items (``each``); ``named``: those are
    names that may be written after a line (:data:`HANDED_AT`), not lines."""

    slots: tuple[int, ...] = ()
    each: bool = False
    named: bool = False


#: A field whose value is a line of the file (0: none).
LINE = LineSlots()

#: The name of a list of functions handed to a call, after the line and column it is written at
#: (``<handed@12:8>``, a ``callables`` key; ``pkg.mod.<handed@12:8>``, an argument): group 1 is
#: the line. Dotted names and these alone (``recording.Recording._handed_table``).
HANDED_AT = re.compile(r"(?:[\w.]+\.)?<handed@(\d+):\d+>")

#: Where a summary's records hold lines of their file -- what a line inserted or deleted above them
#: moves, and nothing else does (``asynclint.cache_summaries.moved_digest``): record -> field -> its lines.
#: Columns are not here (a line inserted above leaves them); a field missing here is compared as
#: it is, so an edit that moves it is never taken for a move. A record that gains a field holding
#: a line lists it here.
LINES: dict[type, dict[str, LineSlots]] = {
    Function: {"line": LINE},
    ClassInfo: {"line": LINE, "built": LineSlots((1,), each=True)},
    CallSite: {  # span holds end_line - line: a line inserted above leaves it
        "line": LINE,
        "arguments": LineSlots(each=True, named=True),
    },
    CallFacts: {
        "payload_at": LINE,
        "opened_at": LineSlots((0,)),
        "stream_from": LineSlots((0,)),
        "contents": LineSlots((0,), each=True),
        "keyword_arguments": LineSlots((1,), each=True, named=True),
    },
    FunctionRef: {"line": LINE},
    Handoff: {"line": LINE, "end_line": LINE, "built": LineSlots((0,))},
    LoopNest: {"line": LINE, "end_line": LINE},
    WorkLoop: {"line": LINE, "end_line": LINE, "outside": LineSlots((0, 2))},
    ModuleSummary: {
        "built": LineSlots((1,), each=True),
        "copies": LineSlots((1,), each=True),
        "returned_fields": LineSlots((1,), each=True),
        "yielded_fields": LineSlots((1,), each=True),
        "callables": LineSlots((0,), each=True, named=True),
    },
}
