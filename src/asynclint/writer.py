"""Writing fixed sources back: atomically, in the file's own encoding, permissions kept.

A file is replaced through :func:`asynclint.io.atomic_write` (a temporary file in the same
directory and a rename), so a crash or a full disk leaves either the old file or the new one,
never half of each; a symbolic link, a read-only file or anything but a regular file is refused.
"""

from __future__ import annotations

import codecs
import io
import stat
import tokenize
from pathlib import Path

from asynclint.files import decode
from asynclint.io import atomic_write


class WriteError(Exception):
    """The file could not be replaced; the message is one line for the user."""


def replace_source(path: Path, expected: str, text: str) -> None:
    """Replace ``path``'s content with ``text``, provided it still reads as ``expected`` (so a
    file edited while asynclint ran is not overwritten). Keeps the encoding named by its coding
    cookie, a UTF-8 byte-order mark, and its permission bits."""
    try:
        data = path.read_bytes()
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError as exc:
        raise WriteError(f"cannot read: {exc.strerror or exc}") from None
    if decode(data) != expected:
        raise WriteError("changed on disk while it was being fixed; run again")
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    try:
        payload = bom + text.encode("utf-8" if encoding == "utf-8-sig" else encoding)
    except UnicodeEncodeError as exc:
        raise WriteError(f"the fixed text cannot be written in the file's encoding ({exc.reason})") from None
    try:
        atomic_write(path, payload, mode=mode, fsync=True)
    except OSError as exc:
        raise WriteError(f"cannot write: {exc.strerror or exc}") from None
