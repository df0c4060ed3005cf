"""Workspace fence, sensitive patterns and trust roots (spec §5.3-§5.5), on discovery's helpers."""

from __future__ import annotations

import os
from collections.abc import Iterable

from ..discovery import glob_to_regex, is_inside, is_sensitive

__all__ = ["glob_to_regex", "matches_any_pattern", "is_under_root", "is_inside_any_root"]


def matches_any_pattern(path: str, patterns: Iterable[str]) -> bool:
    """Whether ``path`` (the folder or what is inside it) matches a sensitive pattern."""
    return is_sensitive(path, tuple(patterns))


def is_under_root(candidate: str, root: str) -> bool:
    """Path-prefix test on segment boundaries."""
    return bool(root) and is_inside(candidate, root)


def is_inside_any_root(skill_dir: str, roots: Iterable[str]) -> bool:
    """Symlink- and ``..``-resolved containment of ``skill_dir`` in one of ``roots``."""
    real = os.path.realpath(skill_dir)
    return any(is_under_root(real, os.path.realpath(root)) for root in roots)
