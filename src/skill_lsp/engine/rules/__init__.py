"""Rules: pure functions from a parsed document to findings, run in stages.

Stage 1 (structure) always runs. Field rules run only when the frontmatter
parsed into a mapping, so one YAML typo yields one finding, not twenty. Body
rules run whenever the body is known (the frontmatter closed or is absent).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..document import SkillDocument
from ..findings import Finding
from ..profiles import DEFAULT_PROFILE, PROFILES, Profile


@dataclass(slots=True)
class Context:
    profile: Profile = field(default_factory=lambda: PROFILES[DEFAULT_PROFILE])
    check_links: bool = True
    # Lazily lists the skill folder's files (relative, '/'-separated); None for unsaved buffers.
    list_files: Callable[[], frozenset[str]] | None = None
    _files: frozenset[str] | None = None

    def files(self) -> frozenset[str] | None:
        if self.list_files is None:
            return None
        if self._files is None:
            self._files = self.list_files()
        return self._files


def check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    from . import body, fields, name, structure  # noqa: PLC0415 - keeps module import cheap

    out: list[Finding] = list(structure.check(doc, ctx))
    if doc.frontmatter_ok:
        out.extend(name.check(doc, ctx))
        out.extend(fields.check(doc, ctx))
    if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter):
        out.extend(body.check(doc, ctx))
    out.sort(key=lambda f: (f.start, f.end, f.code))
    return out


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


def all_findings(parts: Iterable[Iterable[Finding]]) -> list[Finding]:
    return [f for part in parts for f in part]
