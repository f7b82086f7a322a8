"""Suppression comments: ``# asynclint: ignore[CODES]``, bare ``# asynclint: ignore`` and
``# noqa: CODES``, on a line or on a comment line of its own just above it. One parser for the
linter (which findings to hide) and the profiler (a stall on such a line is no blind spot: someone
decided about it). Only ``re``, so the profiler's live API can use it without importing the linter.

A bare ``# noqa`` is not honoured: it is usually there for another tool, and a blocking call is
too costly to hide by accident.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

_IGNORE = re.compile(r"#\s*asynclint\s*:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa\s*:\s*(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*)", re.IGNORECASE)

#: ``("ignore", None)`` for a bare ``# asynclint: ignore``, else the kind and the codes or names it lists.
Suppression = tuple[str, tuple[str, ...] | None]


def covering(lines: Sequence[str], number: int) -> Iterator[Suppression]:
    """The suppressions covering line ``number`` (1-based) of ``lines``."""
    for index, own in ((number, True), (number - 1, False)):
        text = lines[index - 1] if 0 < index <= len(lines) else ""
        if "#" not in text or (not own and not text.lstrip().startswith("#")):
            continue  # the line above counts only when it is a comment of its own
        for match in _IGNORE.finditer(text):
            codes = match.group("codes")
            yield "ignore", None if codes is None else _parts(codes)
        for match in _NOQA.finditer(text):
            yield "noqa", _parts(match.group("codes"))


def mentions(suppression: Suppression, code: str, name: str) -> bool:
    """Does it hide the rule ``code`` (``ASL101``) / ``name`` (``blocking-sleep``)?"""
    _, parts = suppression
    return parts is None or any(part.upper() == code or part.lower() == name for part in parts)


def suppressed_lines(text: str) -> frozenset[int]:
    """Lines an asynclint suppression covers, for any of its rules."""
    lines = text.splitlines()
    return frozenset(
        number for number in range(1, len(lines) + 1)
        if any(kind == "ignore" or any(part.upper().startswith("ASL") for part in parts or ())
               for kind, parts in covering(lines, number))
    )


def _parts(codes: str) -> tuple[str, ...]:
    return tuple(part for part in re.split(r"[\s,]+", codes) if part)
