"""Workspace fence, sensitive patterns and trust roots (spec §5.3-§5.5)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["glob_to_regex", "matches_any_pattern", "is_under_root", "is_inside_any_root"]


@lru_cache(maxsize=256)
def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Compile a path glob: ``**`` any depth (``**/`` also zero dirs), ``*`` and ``?`` within a segment."""
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "*":
            if pattern.startswith("**", i):
                i += 2
                if i < n and pattern[i] == "/":
                    i += 1
                    out.append("(?:.*/)?")
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(ch))
        i += 1
    return re.compile("".join(out), re.DOTALL)


def matches_any_pattern(path: str, patterns: Iterable[str]) -> bool:
    """Whether ``path`` (or ``path/``, so ``**/.env/**`` matches the folder itself) matches a pattern."""
    candidates = {path.replace(os.sep, "/")}
    candidates |= {c.rstrip("/") + "/" for c in list(candidates)}
    for pattern in patterns:
        rx = glob_to_regex(pattern)
        if any(rx.fullmatch(c) for c in candidates):
            return True
    return False


def is_under_root(candidate: str, root: str) -> bool:
    """Path-prefix test on segment boundaries."""
    if not root:
        return False
    root = root.rstrip("/\\") or root
    if candidate == root:
        return True
    if not candidate.startswith(root):
        return False
    if root.endswith(("/", "\\")):
        return True
    return candidate[len(root)] in "/\\"


def is_inside_any_root(skill_dir: str, roots: Iterable[str]) -> bool:
    """Symlink- and ``..``-resolved containment of ``skill_dir`` in one of ``roots``."""
    real = os.path.realpath(skill_dir)
    return any(is_under_root(real, os.path.realpath(root)) for root in roots)
