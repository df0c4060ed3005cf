"""The user's cache folder, and reading a file in it only when this user alone could have written it.

Cache files hold pickles and compiled patterns that are trusted as they are read: they live in
``$XDG_CACHE_HOME/skill-lsp`` (or ``SKILL_LSP_CACHE_DIR``; ``off`` disables caching), never in a
workspace, and a file is read only when it is a regular file the current user owns and nobody
else can write.
"""

from __future__ import annotations

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
