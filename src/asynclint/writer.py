"""Writing fixed sources back: atomically, in the file's own encoding, permissions kept.

The only module besides the report writer that writes to the disk. A file is replaced through a
temporary file in the same directory and a rename, so a crash or a full disk leaves either the
old file or the new one, never half of each.
"""

from __future__ import annotations

import codecs
import io
import os
import stat
import tempfile
import tokenize
from pathlib import Path

from asynclint.files import decode


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
    # A file with no write bit is read-only by intent. The rename below needs permission on the
    # directory only, and root passes os.access whatever the bits say: checked here, so that a
    # read-only file is never replaced, by anyone (editors also refuse it without a forced write).
    if not mode & 0o222 or not os.access(path, os.W_OK):
        raise WriteError("read-only (no write permission)")
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    try:
        payload = bom + text.encode("utf-8" if encoding == "utf-8-sig" else encoding)
    except UnicodeEncodeError as exc:
        raise WriteError(f"the fixed text cannot be written in the file's encoding ({exc.reason})") from None
    directory = path.parent
    try:
        fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".asynclint-tmp")
    except OSError as exc:
        raise WriteError(f"cannot write next to it: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise WriteError(f"cannot write: {exc.strerror or exc}") from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
