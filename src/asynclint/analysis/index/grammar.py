"""Newer Python grammar read by an older interpreter: PEP 695's type parameters and ``type``
aliases (3.12) rewritten, in place, into what the running parser accepts.

A project that requires Python 3.12 writes ``type Domain = Literal[...]`` or ``def first[T](xs:
list[T]) -> T``; the running interpreter's ``ast`` (3.11 here) rejects the whole file, and every
hook, call and class in it goes unseen. Neither form calls anything: a type parameter list is
blanked out and an alias becomes a plain assignment, each within its own characters, so every
other line and column stays where the file has it (findings point at the real source).
"""

from __future__ import annotations

import io
import tokenize

#: Tokens that sit between statements without starting one.
_BETWEEN = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT})


def without_type_params(source: str) -> str | None:
    """``source`` with PEP 695's syntax rewritten (``type X[T] = v`` -> ``X        = v``,
    ``def f[T](x)`` -> ``def f   (x)``, ``class C[T]:`` -> ``class C   :``); ``None`` when it has
    none of it, or cannot be tokenized (then the parser's own error stands)."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type != tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = source.splitlines(keepends=True)
    edits: list[tuple[tokenize.TokenInfo, tokenize.TokenInfo]] = []  # spans to blank, first to last token
    for index, token in enumerate(tokens[:-2]):
        name, after = tokens[index + 1], tokens[index + 2]
        if token.type != tokenize.NAME or name.type != tokenize.NAME:
            continue
        starts = index == 0 or tokens[index - 1].type in _BETWEEN or tokens[index - 1].string == ";"
        if token.string in ("def", "class") and after.string == "[":
            edits.append((after, _closing(tokens, index + 2)))
        elif token.string == "type" and starts and after.string in ("=", "["):
            if after.string == "[":
                edits.append((after, _closing(tokens, index + 2)))
            edits.append((token, token))  # the soft keyword itself, moved behind the name below
    if not edits:
        return None
    for first, last in reversed(edits):  # right to left: earlier positions stay valid
        if first.string == "type":
            _swap_keyword(lines, first)
        else:
            _blank(lines, first.start, last.end)
    return "".join(lines)


def _closing(tokens: list[tokenize.TokenInfo], opening: int) -> tokenize.TokenInfo:
    """The ``]`` that closes the ``[`` at ``tokens[opening]``."""
    depth = 0
    for token in tokens[opening:]:
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
            if depth == 0:
                return token
    return tokens[-1]


def _blank(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> None:
    """Spaces over ``start``..``end`` (1-based rows, as tokenize gives), line breaks kept: a row
    the span goes on past ends in a backslash, as the bracket no longer joins the lines."""
    for row in range(start[0], end[0] + 1):
        line = lines[row - 1]
        left = start[1] if row == start[0] else 0
        right = end[1] if row == end[0] else len(line.rstrip("\r\n"))
        blank = " " * (right - left) if row == end[0] else " " * max(right - left - 1, 0) + "\\"
        lines[row - 1] = line[:left] + blank + line[right:]


def _swap_keyword(lines: list[str], keyword: tokenize.TokenInfo) -> None:
    """``type Name`` -> ``Name     ``: the alias's name where the keyword began, the statement's
    indentation and the value's columns unchanged."""
    row, col = keyword.start
    line = lines[row - 1]
    rest = line[col + len("type") :]
    name = rest.lstrip(" \t")
    gap = len(rest) - len(name)
    length = next((i for i, char in enumerate(name) if not (char.isalnum() or char == "_")), len(name))
    lines[row - 1] = line[:col] + name[:length] + " " * (len("type") + gap) + name[length:]
