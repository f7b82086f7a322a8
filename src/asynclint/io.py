"""Every file asynclint writes goes through here: atomically, never through a link it did not make.

A checkout is untrusted input (CI runs ``asynclint check`` on pull requests), and anything in it
can be a symbolic link: the cache directory, its ``.gitignore``, the report named by ``-o``, a
source file. So:

- a file is replaced through a temporary file created (``O_EXCL | O_NOFOLLOW``) in the *real*
  directory, opened once, and a rename inside that directory: a crash leaves the old file or the
  new one, and the rename replaces a link planted in the file's place, never its target;
- a symbolic link in the file's place is refused (except the system's ``/dev/stdout``,
  ``/dev/fd/N``), and so are directories, block devices and sockets; a FIFO or character device
  is written in place only when the user named it as an output (``-o /dev/null``, a named pipe);
- the cache is a :class:`CacheDir`: refused when it is a link or another user's, and every read,
  write and removal in it goes through the open directory, so nothing is read, written or
  deleted through a link (reads also refuse FIFOs, which would hang a run);
- temporary files carry the writer's process id: :func:`remove_stale_temps` deletes those a
  killed run left, never a live run's.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import BinaryIO

TEMP_SUFFIX = ".asynclint-tmp"
#: ``.NAME.<pid>-<random>.asynclint-tmp``; older versions wrote ``.NAME.<random>.asynclint-tmp``.
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?:(?P<pid>\d+)-)?[A-Za-z0-9_]+" + re.escape(TEMP_SUFFIX) + "$")
#: A temporary file this old is stale even if its process id now belongs to a live process.
_STALE_AFTER_S = 3600.0
#: The system's stream links, the only links followed: ``-o /dev/stdout``, ``-o >(gzip > x)``.
_STREAM_LINKS = ("/dev/", "/proc/self/fd/")

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class UnsafeCache(Exception):
    """The cache directory is not one asynclint may use; the message says why, in one line."""


def _temp_name(name: str) -> str:
    return f".{name}.{os.getpid()}-{os.urandom(4).hex()}{TEMP_SUFFIX}"


def _open_directory(directory: Path) -> int:
    """The real directory, opened: links in the path the user gave are theirs to have; once open,
    no link swapped in later changes where the temporary file and the rename go."""
    real = os.path.realpath(directory)
    return os.open(real, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)


def _new_file_mode() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def _is_stream(mode: int) -> bool:
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _inspect(path: Path, dir_fd: int, *, streams: bool) -> tuple[str, os.stat_result | None]:
    """What is at ``path`` now: ``("new", None)``, ``("file", st)`` or ``("stream", st)``, or an
    OSError saying, in its strerror, why asynclint will not write there."""
    try:
        status = os.lstat(path.name, dir_fd=dir_fd)
    except FileNotFoundError:
        return "new", None
    if stat.S_ISLNK(status.st_mode):
        target = _stream_target(path) if streams else None
        if target is None:
            raise OSError(errno.ELOOP, "is a symbolic link (not followed: name the file it points to)")
        return "stream", target
    if stat.S_ISDIR(status.st_mode):
        raise OSError(errno.EISDIR, "is a directory")
    if _is_stream(status.st_mode):
        if not streams:
            raise OSError(errno.EINVAL, "not a regular file")
        return "stream", status
    if not stat.S_ISREG(status.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a socket or block device)")
    # A file with no write bit is read-only by intent. The rename needs permission on the
    # directory only, and root passes os.access whatever the bits say: checked here, so that a
    # read-only file is never replaced, by anyone (editors also refuse it without a forced write).
    if not stat.S_IMODE(status.st_mode) & 0o222 or not os.access(path.name, os.W_OK, dir_fd=dir_fd):
        raise OSError(errno.EACCES, "read-only (no write permission)")
    return "file", status


def _stream_target(path: Path) -> os.stat_result | None:
    """What a system stream link (``/dev/stdout``) leads to: a terminal, a pipe, or the file the
    shell redirected the stream to (``> report.txt``)."""
    absolute = os.path.abspath(path)
    if not absolute.startswith(_STREAM_LINKS):
        return None
    try:
        status = os.stat(absolute)
    except OSError:
        return None
    return status if _is_stream(status.st_mode) or stat.S_ISREG(status.st_mode) else None


def check_output(path: Path) -> None:
    """Raise OSError now, before a long run, if :func:`write_output` would refuse ``path``."""
    path = Path(path)
    directory = path.parent
    if not directory.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such directory")
    dir_fd = _open_directory(directory)
    try:
        kind, _ = _inspect(path, dir_fd, streams=True)
        if kind != "stream" and not os.access(os.path.realpath(directory), os.W_OK | os.X_OK):
            raise OSError(errno.EACCES, "directory not writable")
    finally:
        os.close(dir_fd)


def write_output(path: Path, data: str | bytes) -> None:
    """A file the user named (a report, a baseline, an HTML page): replaced atomically, keeping
    its permission bits (a new one gets the umask's); a FIFO or character device the user named is
    written in place. Raises OSError with a one-line ``strerror``."""
    atomic_write(path, data, streams=True)


def atomic_write(
    path: Path, data: str | bytes, *, mode: int | None = None, streams: bool = False, fsync: bool = False
) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) through a temporary file and a
    rename in its real directory. ``mode``: the permission bits (default: the file's own, or the
    umask's for a new file). ``streams``: the user named this path, so a FIFO or character
    device there (or a ``/dev/stdout``-style link to one) is written in place."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path = Path(path)
    dir_fd = _open_directory(path.parent)
    try:
        kind, status = _inspect(path, dir_fd, streams=streams)
        if kind == "stream":
            _write_stream(path, dir_fd, payload)
            return
        if mode is None:
            mode = stat.S_IMODE(status.st_mode) if status is not None else _new_file_mode()
        _replace_in(dir_fd, path.name, payload, mode, fsync=fsync)
    finally:
        os.close(dir_fd)


def _write_stream(path: Path, dir_fd: int, payload: bytes) -> None:
    if os.path.islink(path):  # one of the system's stream links, checked by _inspect
        # Appending: reopened through /proc, a redirected stdout would start again at offset 0.
        fd = os.open(os.path.abspath(path), os.O_WRONLY | os.O_APPEND | _CLOEXEC)
    else:
        fd = os.open(path.name, os.O_WRONLY | _NOFOLLOW | _CLOEXEC, dir_fd=dir_fd)
    with os.fdopen(fd, "wb") as handle:
        handle.write(payload)


def _replace_in(dir_fd: int, name: str, payload: bytes | Iterable[bytes], mode: int, *, fsync: bool = False) -> None:
    """Replace ``name`` in the directory by ``payload`` (bytes, or chunks of them written as they
    come: a large cache file is never held twice in memory) through a temporary file and a rename."""
    for stale in _stale_temps_in(dir_fd, [name]):  # a killed run's, for this very file
        try:
            os.unlink(stale, dir_fd=dir_fd)
        except OSError:
            pass
    temp = _temp_name(name)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dir_fd)
    try:
        with os.fdopen(fd, "wb") as handle:
            for chunk in (payload,) if isinstance(payload, bytes) else payload:
                handle.write(chunk)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if fsync:
                os.fsync(handle.fileno())
        # rename(2) replaces whatever has the name now -- a link planted there included -- and
        # never follows it.
        os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(temp, dir_fd=dir_fd)
        except OSError:
            pass
        raise


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def _stale_temps_in(dir_fd: int, names: Sequence[str] | None = None) -> list[str]:
    """Names of the temporary files in the open directory that no live asynclint is writing
    (``names``: only those of these files)."""
    stale = []
    for entry in os.listdir(dir_fd):
        match = _TEMP.match(entry)
        if match is None or (names is not None and match["name"] not in names):
            continue
        try:
            status = os.lstat(entry, dir_fd=dir_fd)
        except OSError:
            continue
        old = time.time() - status.st_mtime > _STALE_AFTER_S
        if match["pid"] is None or old or not _pid_alive(int(match["pid"])):
            stale.append(entry)
    return stale


def remove_stale_temps(directory: Path) -> list[str]:
    """Delete the temporary files a killed asynclint left in ``directory`` -> the names deleted.
    A live run's are kept; only directory entries are removed (unlinking a link deletes the link,
    never its target)."""
    try:
        dir_fd = _open_directory(directory)
    except OSError:
        return []
    try:
        removed = []
        for entry in _stale_temps_in(dir_fd):
            try:
                os.unlink(entry, dir_fd=dir_fd)
                removed.append(entry)
            except OSError:
                pass
        return removed
    finally:
        os.close(dir_fd)


class CacheDir:
    """A directory of asynclint's own, opened once: every read, write, listing and removal in it
    goes through the open directory, so no link inside it -- or swapped in for it -- is followed."""

    def __init__(self, fd: int, path: Path):
        self._fd, self.path = fd, path

    @classmethod
    def open(cls, base: Path, *parts: str, create: bool = True) -> CacheDir:
        """``base/parts...``: ``base`` (the project root) is the user's; each of ``parts`` is
        created if missing (with ``create``) and refused -- :class:`UnsafeCache` -- when it is a
        symbolic link, not a directory, or another user's. ``FileNotFoundError`` when missing
        and not ``create``."""
        directory = cls(_open_directory(base), Path(base))
        for part in parts:
            try:
                inner = directory.child(part, create=create)
            finally:
                directory.close()
            directory = inner
        return directory

    def child(self, name: str, *, create: bool = True) -> CacheDir:
        """The subdirectory ``name``, under the same refusals as :meth:`open`."""
        if create:
            try:
                os.mkdir(name, 0o777, dir_fd=self._fd)
            except FileExistsError:
                pass
        path = self.path / name
        try:
            fd = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=self._fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                kind = "a symbolic link" if os.path.islink(path) else "not a directory"
                raise UnsafeCache(f"{path} is {kind}: not used as a cache") from None
            raise
        owner = os.fstat(fd).st_uid
        if hasattr(os, "geteuid") and owner != os.geteuid():
            os.close(fd)
            raise UnsafeCache(f"{path} belongs to another user (uid {owner}): not used as a cache")
        return CacheDir(fd, path)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> CacheDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def names(self) -> list[str]:
        return os.listdir(self._fd)

    def read(self, name: str) -> bytes:
        """The content of a regular file in the directory."""
        with self.open_file(name) as handle:
            return handle.read()

    def open_file(self, name: str) -> BinaryIO:
        """A regular file in the directory, opened for reading (``O_NONBLOCK``: a FIFO planted
        under a cache file's name is refused, not waited on). What it reads stays the file opened
        even when a writer replaces the name meanwhile."""
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0), dir_fd=self._fd)
        handle = os.fdopen(fd, "rb")
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            handle.close()
            raise OSError(errno.EINVAL, f"{self.path / name}: not a regular file")
        return handle

    def write(self, name: str, data: str | bytes, mode: int = 0o644) -> None:
        payload = data.encode("utf-8") if isinstance(data, str) else data
        _replace_in(self._fd, name, payload, mode & _new_file_mode())

    def write_lines(self, name: str, lines: Iterable[str], mode: int = 0o644) -> None:
        """``write`` of one line per item, streamed to the file."""
        _replace_in(self._fd, name, (f"{line}\n".encode() for line in lines), mode & _new_file_mode())

    def remove(self, name: str) -> None:
        """Unlink the entry ``name`` (a link is removed, never what it points to)."""
        try:
            os.unlink(name, dir_fd=self._fd)
        except FileNotFoundError:
            pass

    def remove_stale_temps(self) -> None:
        for entry in _stale_temps_in(self._fd):
            self.remove(entry)
