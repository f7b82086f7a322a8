"""The last result again after edits that only moved lines: the same findings, each line of an
edited file renumbered to where it moved.

An edited file whose summary is the last one up to an order-preserving renumbering of its lines
(:func:`asynclint.cache_summaries.moved_lines`: one digest) is read by the graph and the rules only by
equality and order of its lines, within the file; if its suppressions are what they were on the
lines they cover (:func:`line_map`), the check's result is the last one with those lines
renumbered (:func:`renumbered`), wherever a finding holds one (:data:`asynclint.model.LINES`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from asynclint.model import LINES, Finding, Lines, Result, split_place
from asynclint.suppressions import marked_lines

#: Where each line of one file moved: old line -> new line.
LineMap = Mapping[int, int]

#: ``at line N`` as findings' words write it (``grading``'s ``as bound at line N``, ``phrasing.folded``).
_AT_LINE = re.compile(r"(?<=\bat line )(\d+)\b")


def line_map(
    before: tuple[int, ...], after: tuple[int, ...], suppressions_before: str | None, suppressions_after: str | None
) -> dict[int, int] | None:
    """Where the lines of a file moved: ``before``/``after``, the lines its summary held then and
    now (:func:`asynclint.cache_summaries.moved_lines` of two summaries with one digest), paired in order,
    with the lines holding its suppressions (:func:`asynclint.suppressions.fingerprint`, then and
    now), paired in order. ``None`` when the rules could read the text otherwise: its suppressions
    changed, or a line moved apart from the comment line of its own above it, or onto one (a
    suppression covers its own line and, from a comment line of its own, the line below)."""
    if suppressions_before is None or suppressions_after is None or len(before) != len(after):
        return None
    then, now = marked_lines(suppressions_before), marked_lines(suppressions_after)
    if then is None or now is None or then[0] != now[0] or len(then[1]) != len(now[1]):
        return None
    moved = dict(zip(before, after, strict=True))
    for (line, _), (to, _) in zip(then[1], now[1], strict=True):
        if moved.setdefault(line, to) != to:
            return None
    targets = [moved[line] for line in sorted(moved)]
    if any(first >= second for first, second in zip(targets, targets[1:], strict=False)):
        return None  # two lines onto one, or out of order: not a move
    covering_then = {line for line, own in then[1] if own}
    covering_now = {line for line, own in now[1] if own}
    for line, to in moved.items():
        above = line - 1 in covering_then
        if above != (to - 1 in covering_now) or (above and moved[line - 1] != to - 1):
            return None
    return moved


class _Unmoved(Exception):
    """A line of an edited file that no line map knows, or words the renumbering cannot vouch for."""


def renumbered(result: Result, moved: Mapping[str, LineMap]) -> Result | None:
    """``result`` with each line of the files ``moved`` names renumbered, by path as findings show
    it; ``None`` when a finding holds a line of one that its map does not know, or a span whose end
    did not move with its start, or is inside a library and its message would change."""
    try:
        findings = tuple(_Finding(finding, moved).renumbered() for finding in result.findings)
    except _Unmoved:
        return None
    return dataclasses.replace(result, findings=findings)


#: A record's field names and how its fields hold lines, by record type.
_SHAPES: dict[type, tuple[tuple[str, Lines | None], ...]] = {}


class _Finding:
    """The renumbering of one finding."""

    def __init__(self, finding: Finding, moved: Mapping[str, LineMap]):
        self.finding, self.moved = finding, moved
        # The file the blocking call is written in: the finding's, unless it is inside a library.
        self.called = finding.path if not finding.facts.library else None

    def renumbered(self) -> Finding:
        finding = self.finding
        new = self._record(finding, finding.path)
        if finding.facts.library and new.message != finding.message:
            # A call's findings inside a library are ordered by their messages to pick the one shown
            # (engine._one_per_call): a number that moved could have picked another.
            raise _Unmoved
        return new

    def _record(self, record: Any, path: str) -> Any:
        shape = _SHAPES.get(type(record))
        if shape is None:
            listed = LINES.get(type(record), {})
            shape = _SHAPES[type(record)] = tuple(
                (field.name, listed.get(field.name)) for field in dataclasses.fields(record)
            )
        own = getattr(record, "path", path)
        changes = {}
        for name, how in shape:
            value = getattr(record, name)
            if how is not None:
                new = self._lines(value, how, own)
            elif dataclasses.is_dataclass(value):
                new = self._record(value, own)
            elif type(value) is tuple and value and dataclasses.is_dataclass(value[0]):
                new = tuple(self._record(item, own) for item in value)
            else:
                continue
            if new != value:
                changes[name] = new
        return dataclasses.replace(record, **changes) if changes else record

    def _lines(self, value: Any, how: Lines, path: str) -> Any:
        if how is Lines.OWN:
            return self._line(path, value)
        if how is Lines.END:
            return self._end(value)
        if how is Lines.PLACE:
            return self._place(value) if value else value
        if how is Lines.CALLED:
            return tuple(self._called(item) for item in value)
        return self._text(value)

    def _line(self, path: str | None, line: int) -> int:
        lines = self.moved.get(path) if path is not None else None
        if lines is None:
            return line
        if line not in lines:
            raise _Unmoved
        return lines[line]

    def _end(self, end: int) -> int:
        """The span's last line: where it moved, when the summary holds it (a loop's or a
        hand-over's last line: a comment line added inside a loop's body moves its end alone);
        else where its first line moved, plus the span (a call's, which its summary holds as a
        span: one that changed changed the summary)."""
        finding = self.finding
        lines = self.moved.get(finding.path)
        if lines is None:
            return end
        if end in lines:
            return lines[end]
        return self._line(finding.path, finding.line) + end - finding.line

    def _place(self, place: str) -> str:
        path, line, column = split_place(place)
        if _written(path, line, column) != place:
            raise _Unmoved
        return _written(path, self._line(path, line), column)

    def _called(self, item: str) -> str:
        callee, _, line = item.rpartition(":")
        if not line.isdigit():
            raise _Unmoved
        return f"{callee}:{self._line(self.called, int(line))}"

    def _text(self, text: str) -> str:
        text = _AT_LINE.sub(lambda match: str(self._line(self.called, int(match[1]))), text)
        for path in self.moved:
            if f"{path}:" in text:
                text = re.sub(rf"(?<![\w./\\-]){re.escape(path)}:(\d+)", self._in_place(path), text)
        return text

    def _in_place(self, path: str) -> Callable[[re.Match[str]], str]:
        """A place of ``path`` written in words, its line renumbered."""
        return lambda match: f"{path}:{self._line(path, int(match[1]))}"


def _written(path: str, line: int, column: int | None) -> str:
    return f"{path}:{line}" if column is None else f"{path}:{line}:{column}"
