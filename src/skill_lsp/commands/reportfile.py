"""`check -o FILE`: the report written whole, or not at all (imported only when a report goes to a file)."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator

TYPE_CHECKING = False  # type checkers take this as True
if TYPE_CHECKING:
    from typing import TextIO


@contextlib.contextmanager
def report_file(path: str) -> Iterator[TextIO]:
    """``path`` written whole: a temporary file beside the file it names, renamed over
    it at the end (a reader never sees half a report; a failed run leaves the previous one), with
    the permissions the report had. A symlink keeps pointing at the report; a device or a pipe
    (`-o /dev/null`, `/dev/stdout`, a FIFO) is written through, never replaced by a file."""
    target = os.path.realpath(path)
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "w", encoding="utf-8", newline="") as fh:
            yield fh
        return
    if mode is None:  # a new report gets what any new file would (mkstemp makes it 0600)
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=".skill-lsp-", suffix=".tmp", dir=os.path.dirname(target))
    try:
        with contextlib.suppress(OSError):
            os.chmod(tmp, stat.S_IMODE(mode))
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            yield fh
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
