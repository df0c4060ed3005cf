"""The user's cache folder, and reading a file in it only when this user alone could have written it.

Cache files hold pickles and compiled patterns that are trusted as they are read: they live in
``$XDG_CACHE_HOME/skill-lsp`` (or ``SKILL_LSP_CACHE_DIR``; ``off`` disables caching), never in a
workspace, and a file is read only when it is a regular file the current user owns and nobody
else can write.
"""

from __future__ import annotations

import marshal
import os
import stat

_ENV = "SKILL_LSP_CACHE_DIR"


def cache_dir() -> str | None:
    """Where cache files go; None when caching is off."""
    env = os.environ.get(_ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "false", "no") else env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "skill-lsp")


def open_private(path: str):  # noqa: ANN201 - a binary file object, or None
    """``path`` opened for reading when this user wrote it and no one else can change it; else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022 or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
        os.close(fd)
        return None
    return os.fdopen(fd, "rb")


def cache_file(name: str) -> str | None:
    """The path of the cache file ``name``; None when caching is off."""
    folder = cache_dir()
    return None if folder is None else os.path.join(folder, name)


def read_marshal(path: str, fmt: int) -> dict | None:
    """The table kept at ``path`` as ``(fmt, table)`` by ``write_marshal``, read as ``open_private``
    allows; None when it is missing, damaged, of another format or not a dict."""
    f = open_private(path)
    if f is None:
        return None
    with f:
        try:
            kept, table = marshal.loads(f.read())
        except Exception:  # noqa: BLE001 - a damaged file is no file
            return None
    return table if kept == fmt and isinstance(table, dict) else None


def write_marshal(path: str, fmt: int, table: dict) -> bool:
    """Keep ``table`` at ``path`` for ``read_marshal``: written whole under another name and moved into
    place, readable by this user alone. False when it could not be written (a read-only or full
    disk costs the next run its speed, nothing else)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(marshal.dumps((fmt, table)))
            os.replace(tmp, path)  # a reader never sees half a file
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, ValueError):
        return False
    return True
