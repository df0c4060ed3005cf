"""The one way skill-lsp changes a file: read, compute, verify, replace.

Every writer (``check --fix``, and anything else that rewrites a file itself) takes a
:class:`Snapshot` of the file, computes the new bytes from it, and hands both to
:func:`replace`, which

* refuses a path whose real location is outside the folders the run may write to,
  a file that is not a regular file, and a file with other hard links (replacing
  would split them);
* writes the new bytes to a temporary file in the same folder, with the old mode,
  and fsyncs it;
* checks, just before the swap, that the file on disk is still byte for byte what
  the snapshot read (else the user saved meanwhile: nothing is written);
* swaps with ``os.replace`` (atomic on POSIX and Windows), so a failure at any point
  leaves the old file whole — never half a file (a full disk, a quota, a signal).

Errors are :class:`WriteError` values with a kind and a sentence; callers report
them per file and go on.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from .datarecord import datarecord
from .discovery import is_inside

# A SKILL.md bigger than this is never rewritten (the analysis reads 4 MiB at most).
MAX_BYTES = 4 * 1024 * 1024
_TMP_PREFIX = ".skill-lsp-"


class WriteError(Exception):
    """Why a file was not written. ``kind``: outside | changed | not-file | links | io."""

    def __init__(self, kind: str, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.kind = kind
        self.path = path
        self.message = message


@datarecord(frozen=True, slots=True)
class Snapshot:
    path: str  # as named by the caller
    real: str  # the file written (symlinks resolved)
    data: bytes  # what was read
    mode: int
    ino: int
    dev: int


def scope(paths: Iterable[str]) -> tuple[str, ...]:
    """Real locations a run may write inside: each given folder (and its contents) or file."""
    return tuple(dict.fromkeys(os.path.realpath(p) for p in paths if p))


def _read(real: str) -> tuple[bytes, os.stat_result]:
    # O_NONBLOCK: a FIFO swapped in is never waited on; fstat after opening re-checks the kind.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(real, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise WriteError("not-file", real, "not a regular file")
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise WriteError("not-file", real, f"larger than {MAX_BYTES:,} bytes; never rewritten")
        return b"".join(chunks), st
    finally:
        os.close(fd)


def snapshot(path: str, allowed: Iterable[str]) -> Snapshot:
    """Read ``path`` for an edit; WriteError when it may not or cannot be written later."""
    real = os.path.realpath(path)
    if not any(is_inside(real, a) for a in allowed):
        raise WriteError("outside", path, f"resolves to {real}, outside the folders this run may change")
    try:
        data, st = _read(real)
    except WriteError:
        raise
    except OSError as exc:
        raise WriteError("io", path, f"cannot read ({exc.strerror or exc})") from None
    if st.st_nlink > 1:
        raise WriteError("links", path, f"has {st.st_nlink} hard links; replacing it would split them")
    return Snapshot(path, real, data, stat.S_IMODE(st.st_mode), st.st_ino, st.st_dev)


def replace(snap: Snapshot, new: bytes) -> None:
    """Write ``new`` in place of the file ``snap`` read, atomically, if it is unchanged."""
    folder = os.path.dirname(snap.real)
    tmp = None
    try:
        fd, tmp = _temp_beside(snap.real, snap.mode)
        try:
            view = memoryview(new)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        # Last moment before the swap: the file must still be what was read.
        try:
            now, st = _read(snap.real)
        except FileNotFoundError:
            raise WriteError("changed", snap.path, "was deleted since it was read; not written") from None
        if now != snap.data or st.st_ino != snap.ino or st.st_dev != snap.dev:
            raise WriteError("changed", snap.path, "changed on disk since it was read (saved meanwhile?); not written")
        _keep_owner(tmp, st)
        os.replace(tmp, snap.real)
        tmp = None
        _sync_folder(folder)
    except WriteError:
        raise
    except OSError as exc:
        raise WriteError("io", snap.path, f"cannot write ({exc.strerror or exc}); the file is unchanged") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _temp_beside(real: str, mode: int) -> tuple[int, str]:
    folder, base = os.path.split(real)
    for i in range(100):
        tmp = os.path.join(folder, f"{_TMP_PREFIX}{os.getpid()}-{i}-{base}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
        except FileExistsError:
            continue
        try:
            os.chmod(tmp, mode)  # the old mode, whatever the umask
        except OSError:
            pass
        return fd, tmp
    raise OSError(f"no free temporary name beside {real}")


def _keep_owner(tmp: str, st: os.stat_result) -> None:
    if hasattr(os, "chown") and hasattr(os, "getuid") and os.getuid() == 0:
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:
            pass


def _sync_folder(folder: str) -> None:
    # The rename itself survives a crash only once the folder is synced (POSIX).
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
