"""What a rule may know beyond the document: the targets' expectations and the skill folder on disk.

Every rule module imports this one, never the package: the package (``rules/__init__``) runs
the rules and so sits above them.
"""

from __future__ import annotations

import os

from ..datarecord import datarecord, field
from ..profiles import DEFAULT_PROFILE, Profile
from ..targets import PROFILES


@datarecord(slots=True)
class Context:
    """What a rule may know beyond the document: targets, the skill folder, lookups."""

    profile: Profile = field(default_factory=lambda: PROFILES[DEFAULT_PROFILE])
    check_links: bool = True
    # The skill folder on disk; None for unsaved buffers (no file-system checks then).
    skill_dir: str | None = None
    _files: frozenset[str] | None = None
    _exists: dict[str, bool] = field(default_factory=dict)
    _top: tuple[tuple[str, ...], frozenset[str]] | None = None

    def top_folders(self, names: tuple[str, ...]) -> frozenset[str]:
        """Which of ``names`` are folders directly in the skill folder: one directory read per
        context, recorded in the existence cache so later ``exists`` calls cost nothing."""
        if self._top is None or self._top[0] != names:
            found: set[str] = set()
            if self.skill_dir is not None:
                # The names first (listdir and a set intersection run in C), then a stat for the
                # few that match: cheaper than a Python loop over every entry of a big folder.
                try:
                    hits = set(os.listdir(self.skill_dir)).intersection(names)
                except OSError:
                    hits = set()
                found = {n for n in hits if os.path.isdir(os.path.join(self.skill_dir, n))}
                for name in names:
                    self._exists[name] = name in found
            self._top = (names, frozenset(found))
        return self._top[1]

    def files(self) -> frozenset[str] | None:
        """The skill folder's files (relative, '/'-separated; folders end in '/'), listed once.

        A listing given at construction (``_files``) stands in for the disk.
        """
        if self._files is None and self.skill_dir is not None:
            self._files = list_skill_files(self.skill_dir)
        return self._files

    def exists(self, rel: str) -> bool | None:
        """Whether a normalised relative path (no '..') exists in the skill folder; None when unknown.

        One stat per distinct target: cheaper than listing the folder when a skill
        has a handful of links (the common case).
        """
        if self._files is not None:
            return rel in self._files or rel + "/" in self._files
        if self.skill_dir is None:
            return None
        hit = self._exists.get(rel)
        if hit is None:
            hit = self._exists[rel] = os.path.exists(os.path.join(self.skill_dir, rel))
        return hit


    def exists_outside(self, rel: str) -> bool | None:
        """Whether a relative path that leaves the skill folder ('../...') exists; None when unknown."""
        if self.skill_dir is None or self._files is not None:
            return None  # an unsaved buffer, or a listing standing in for the disk
        hit = self._exists.get(rel)
        if hit is None:
            hit = self._exists[rel] = os.path.exists(os.path.normpath(os.path.join(self.skill_dir, rel)))
        return hit


def list_skill_files(skill_dir: str, limit: int = 5000, max_depth: int = 8) -> frozenset[str]:
    """Files under a skill folder, bounded, never following symlinked directories."""
    found: set[str] = set()
    stack = [("", 0)]
    while stack and len(found) < limit:
        rel, depth = stack.pop()
        try:
            with os.scandir(os.path.join(skill_dir, rel) if rel else skill_dir) as it:
                for entry in it:
                    path = f"{rel}/{entry.name}" if rel else entry.name
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            found.add(path + "/")
                            if depth < max_depth:
                                stack.append((path, depth + 1))
                        else:
                            found.add(path)
                    except OSError:
                        continue
                    if len(found) >= limit:
                        break
        except OSError:
            continue
    return frozenset(found)
