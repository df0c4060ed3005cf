"""Globs of `exclude`, `extend-exclude` and `per-file-ignores`, anchored to the folder that set them.

A pattern is relative to its base folder (the folder holding the config file, or the
workspace folder for editor settings): ``*`` and ``?`` stay within one path segment, ``**``
spans any number of them (``**/`` also none). A pattern matches a path when it matches the
path itself or any folder above it, so ``vendor`` covers everything in ``vendor/``.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from .discovery import glob_source

Anchored = tuple[str, str]  # (base folder, pattern relative to it)


def anchor(pattern: str, base: str) -> Anchored:
    """``pattern`` as written, tied to ``base`` (made absolute; '' means the current folder)."""
    p = pattern.strip().replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return os.path.abspath(base or "."), p.rstrip("/") or "."


def _posix(path: str) -> str:
    return path.replace(os.sep, "/") if os.sep != "/" else path


@lru_cache(maxsize=64)
def compile_all(patterns: tuple[Anchored, ...]) -> re.Pattern[str] | None:
    """One regex for every pattern (None when there are none)."""
    parts = []
    for base, p in patterns:
        if p.startswith("/") or re.match(r"^[A-Za-z]:/", p):
            parts.append(glob_source(p))  # absolute: as written
        elif p == ".":
            parts.append(re.escape(_posix(base).rstrip("/")))
        else:
            parts.append(re.escape(_posix(base).rstrip("/") + "/") + glob_source(p))
    if not parts:
        return None
    return re.compile("|".join(f"(?:{x})" for x in parts), re.DOTALL)


def matches(path: str, regex: re.Pattern[str] | None, top: str | None = None) -> bool:
    """Whether ``regex`` matches ``path`` or a folder above it; with ``top``, only those strictly
    below ``top`` are tried (a folder named on the command line is checked even when excluded)."""
    if regex is None:
        return False
    p = _posix(os.path.normpath(os.path.abspath(path)))
    stop = _posix(os.path.normpath(os.path.abspath(top))) if top is not None else None
    while True:
        if p == stop:
            return False
        if regex.fullmatch(p) is not None:
            return True
        parent = p.rsplit("/", 1)[0] if "/" in p.rstrip("/") else ""
        if not parent or parent == p:
            return False
        p = parent
