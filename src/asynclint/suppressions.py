"""Suppression comments: ``# asynclint: ignore[CODES]``, bare ``# asynclint: ignore`` and
``# noqa: CODES``, on a line or on a comment line of its own just above it. One parser for the
linter (which findings to hide) and the profiler (a stall on such a line is no blind spot: someone
decided about it). Only the standard library, so the profiler's live API can use it without
importing the linter.

A bare ``# noqa`` is not honoured: it is usually there for another tool, and a blocking call is
too costly to hide by accident.
"""

from __future__ import annotations

import difflib
import hashlib
import io
import json
import re
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

_IGNORE = re.compile(r"#\s*asynclint\s*:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(r"#\s*noqa\s*:\s*(?P<codes>[A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*)", re.IGNORECASE)

#: ``("ignore", None)`` for a bare ``# asynclint: ignore``, else the kind and the codes or names it lists.
Suppression = tuple[str, tuple[str, ...] | None]


def covering(lines: Sequence[str], number: int) -> Iterator[Suppression]:
    """The suppressions covering line ``number`` (1-based) of ``lines``."""
    for _, suppression in covering_at(lines, number):
        yield suppression


def covering_at(lines: Sequence[str], number: int) -> Iterator[tuple[int, Suppression]]:
    """The suppressions covering line ``number`` of ``lines``, each with the line it is written on."""
    for index, own in ((number, True), (number - 1, False)):
        text = lines[index - 1] if 0 < index <= len(lines) else ""
        if "#" not in text or (not own and not text.lstrip().startswith("#")):
            continue  # the line above counts only when it is a comment of its own
        for _, suppression in _in_line(text):
            yield index, suppression


def _in_line(text: str) -> Iterator[tuple[re.Match[str], Suppression]]:
    for match in _IGNORE.finditer(text):
        codes = match.group("codes")
        yield match, ("ignore", None if codes is None else _parts(codes))
    for match in _NOQA.finditer(text):
        yield match, ("noqa", _parts(match.group("codes")))


def may_suppress(text: str) -> bool:
    """Could a line of ``text`` be covered by a suppression (:func:`covering`), or hold one
    (:func:`comments`)? Both find them with these patterns, a line at a time: ``False`` only when
    neither matches anywhere (what a warm run keeps per file instead of reading it again)."""
    return _IGNORE.search(text) is not None or _NOQA.search(text) is not None


def fingerprint(text: str) -> str:
    """All that the linter's rules can read of ``text``: the lines holding a suppression pattern
    (what :func:`covering_at` reads of the lines ``str.splitlines`` makes: any other line yields
    nothing, whether it is the line asked about or the one above) and :func:`comments` (what ASL901
    reads). Two texts with the same fingerprint are the same to every rule, whatever else differs
    between them; ``""`` when :func:`may_suppress` finds nothing (both are empty then, as for an
    empty text).

    Written as a digest of what those lines hold, then the lines' numbers, each marked ``c`` when
    the line is a comment of its own (it covers the line below): :func:`marked_lines` reads them
    back, so that an edit that only moves the lines can be told from one that changes them
    (:mod:`asynclint.renumber`). A text whose lines ``str.splitlines`` counts otherwise than Python
    (a form feed, a lone carriage return...) has its numbers in the digest instead: never renumbered."""
    if not may_suppress(text):
        return ""
    numbers = [
        number
        for number, line in enumerate(text.splitlines(), 1)
        if _IGNORE.search(line) is not None or _NOQA.search(line) is not None
    ]
    lines = text.splitlines()
    found = comments(text)
    rank = {number: index for index, number in enumerate(numbers)}
    if _ODD_BREAKS.search(text) is not None or any(c.line not in rank for c in found):
        marked = [[number, lines[number - 1]] for number in numbers]
        said = [[c.line, c.column, c.end_column, c.text, c.suppression[0], c.suppression[1]] for c in found]
        return hashlib.sha256(json.dumps([marked, said]).encode()).hexdigest()
    held = [lines[number - 1] for number in numbers]
    said = [[rank[c.line], c.column, c.end_column, c.text, c.suppression[0], c.suppression[1]] for c in found]
    digest = hashlib.sha256(json.dumps([held, said]).encode()).hexdigest()
    own = (f"{number}c" if lines[number - 1].lstrip().startswith("#") else str(number) for number in numbers)
    return " ".join((digest, *own))


#: Line breaks ``str.splitlines`` makes that Python's tokenizer does not (or not alone): where
#: they are, the two count lines apart.
_ODD_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def marked_lines(fingerprinted: str) -> tuple[str, tuple[tuple[int, bool], ...]] | None:
    """What :func:`fingerprint` wrote: the digest of what the marked lines hold, and each line's
    number with whether it is a comment of its own; ``None`` for a fingerprint that cannot be
    renumbered (``""`` is no line at all)."""
    digest, *numbers = fingerprinted.split(" ")
    if not numbers:
        return ("", ()) if not digest else None
    return digest, tuple((int(number.removesuffix("c")), number.endswith("c")) for number in numbers)


@dataclass(frozen=True)
class Comment:
    """A suppression written in a real comment (never in a string), where it is written."""

    line: int
    column: int  # 1-based, of its ``#``
    end_column: int  # 1-based, one past its last character
    text: str  # as written: ``# asynclint: ignore[ASL101]``
    suppression: Suppression


def comments(text: str) -> list[Comment]:
    """Every suppression comment of a module's source, in order. Only comment tokens count: a
    docstring that shows the syntax suppresses nothing and is not judged unused."""
    if "asynclint" not in text and "noqa" not in text.lower():
        return []
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type != tokenize.COMMENT:
                continue
            line, start = token.start
            for match, suppression in _in_line(token.string):
                if match.start() and not token.string[match.start() - 1].isspace():
                    continue  # quoted in a comment's prose (``# asynclint: ignore``), not written as one
                if suppression[0] == "noqa" and not any(_ours(part) for part in suppression[1] or ()):
                    continue  # codes for other tools only
                column = start + match.start() + 1
                found.append(Comment(line, column, column + len(match.group()), match.group(), suppression))
    except (tokenize.TokenError, SyntaxError):  # the indexer reports a file Python cannot read
        return []
    return sorted(found, key=lambda comment: (comment.line, comment.column))


def ours(suppression: Suppression) -> tuple[str, ...]:
    """The codes and names a suppression lists that are asynclint's to judge: all of an
    ``asynclint: ignore[...]``, the ``ASL`` codes of a ``noqa`` (the rest are other tools')."""
    kind, parts = suppression
    return tuple(part for part in parts or () if kind == "ignore" or _ours(part))


def _ours(part: str) -> bool:
    return part.upper().startswith("ASL")


def mentions(suppression: Suppression, code: str, name: str) -> bool:
    """Does it hide the rule ``code`` (``ASL101``) / ``name`` (``blocking-sleep``)?"""
    _, parts = suppression
    return parts is None or bool(naming(suppression, code, name))


def naming(suppression: Suppression, code: str, name: str) -> tuple[str, ...]:
    """The parts of a suppression's list, as written, that name the rule ``code`` / ``name``."""
    return tuple(part for part in suppression[1] or () if part.upper() == code or part.lower() == name)


def suppressed_lines(text: str) -> frozenset[int]:
    """Lines an asynclint suppression covers, for any of its rules."""
    lines = text.splitlines()
    return frozenset(
        number
        for number in range(1, len(lines) + 1)
        if any(kind == "ignore" or any(_ours(part) for part in parts or ()) for kind, parts in covering(lines, number))
    )


def rewritten_suppressed_line(before: str, after: str) -> int | None:
    """The first line of ``before`` that a suppression covers and that ``after`` no longer has as
    it was: changed, removed, or cut off from the comment line above that covers it."""
    marked = suppressed_lines(before)
    if not marked:
        return None
    old, new = before.splitlines(), after.splitlines()
    for tag, start, end, _, _ in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            hit = next((line for line in range(start + 1, end + 1) if line in marked), None)
            if hit is not None:
                return hit
        elif tag == "insert" and start + 1 in marked and old[start - 1].lstrip().startswith("#") and start in marked:
            return start + 1  # a line slipped in between a comment and the line it covers
    return None


def _parts(codes: str) -> tuple[str, ...]:
    return tuple(part for part in re.split(r"[\s,]+", codes) if part)
