"""Rules: pure functions from a parsed document to findings, run in stages.

Stage 1 (structure) always runs. Field rules run only when the frontmatter
parsed into a mapping, so one YAML typo yields one finding, not twenty. Body
rules run whenever the body is known (the frontmatter closed or is absent).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import import_module

from ..document import SkillDocument
from ..findings import Finding
from ..profiles import DEFAULT_PROFILE, PROFILES, Profile


@dataclass(slots=True)
class Context:
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


RULE_MODULES = ("structure", "name", "fields", "body", "harness_values", "description", "codex_openai_yaml",
                "security", "arguments", "files")


def load_all() -> None:
    """Import every rule module now (before a process pool forks, so workers inherit them
    instead of each importing them on its first skill)."""
    for module in RULE_MODULES:
        import_module(f"{__name__}.{module}")


def check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    from . import body, fields, name, structure  # noqa: PLC0415 - keeps module import cheap

    out: list[Finding] = list(structure.check(doc, ctx))
    if doc.frontmatter_ok:
        out.extend(name.check(doc, ctx))
        out.extend(fields.check(doc, ctx))
    if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter):
        out.extend(body.check(doc, ctx))
    out.extend(depth_check(doc, ctx))
    # Severities and harness notes follow the targets' facts (engine/harness), not the rule defaults.
    out = [ctx.profile.adjust(f) for f in out]
    out.sort(key=lambda f: (f.start, f.end, f.code))
    return out


def depth_check(doc: SkillDocument, ctx: Context) -> list[Finding]:
    """The rule-depth modules (issue 12), staged like the rules above."""
    from . import arguments, codex_openai_yaml, description, files, harness_values, security  # noqa: PLC0415

    out: list[Finding] = []
    if doc.frontmatter_ok:
        out.extend(harness_values.check(doc, ctx))
        out.extend(description.check(doc, ctx))
        out.extend(codex_openai_yaml.check(doc, ctx))
    if doc.split is not None and (doc.split.closed or not doc.split.has_frontmatter):
        out.extend(security.check(doc, ctx))
        out.extend(arguments.check(doc, ctx))
        out.extend(files.check(doc, ctx))
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
