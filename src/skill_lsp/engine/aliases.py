"""One SKILL.md found at two or more places: a root that is a link to another root
(`.opencode/skills -> ../skills`), a skill folder linked into a root
(`.claude/skills/x -> ../../.agents/skills/x`).

Each place is checked, since each is what a harness reading that root loads (its profile can
differ), but a finding of one code at one range of the file is reported once: where every place
says the same, at the place reached without a link (the file the author edits); else by a place
in a root harnesses read before one they do not read, the one that grades it worst among those,
in its words on what its harnesses do. Repositories of the real-skill runs had 52 such folders
in three of five batches, and one of the eighth run's reached 29 skills from three roots; each of
their findings was reported two or three times.
"""

from __future__ import annotations

import os
from collections import defaultdict

from .findings import Finding
from .harness.roots import roots_reading
from .result import SkillResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


def real_of(r: SkillResult) -> str:
    """The SKILL.md ``r`` is, as discovery resolved it (no system call)."""
    loc = r.location
    return loc.real if loc is not None and loc.real is not None else r.path


def groups(results: Iterable[SkillResult]) -> list[list[SkillResult]]:
    """The results that are one file, two or more to a group, each group's canonical first."""
    results = list(results)
    if not any(r.location is not None and r.location.real is not None for r in results):
        return []  # no place reached through a link (nearly every workspace): nothing to group
    by_real: dict[str, list[SkillResult]] = defaultdict(list)
    for r in results:
        if r.location is None or r.location.problem is None:
            by_real[real_of(r)].append(r)
    out = []
    for members in by_real.values():
        if len(members) > 1:
            first = canonical(members)
            out.append([first] + [m for m in members if m is not first])
    return out


def canonical(members: list[SkillResult]) -> SkillResult:
    """The place reached through the fewest links (`skills/x/SKILL.md`, not `.opencode/skills/x/...`
    where `.opencode/skills` links to `skills`; also in a workspace folder opened through a link),
    the first by path among equals. Asks the disk: only for files found at two places."""
    return min(members, key=lambda r: (_links_in(r.path), r.path))


def _links_in(path: str) -> int:
    n = 0
    while True:
        up = os.path.dirname(path)
        if up == path:
            return n
        n += os.path.islink(path)
        path = up


def _key(f: Finding) -> tuple[str, int, int]:
    return (f.code, f.start, f.end)


def kept(group: list[tuple[SkillResult, list[Finding]]]) -> dict[int, list[Finding]]:
    """What each place of one file reports (by ``id`` of its result), from what each would report
    alone (``group``: the canonical place first): each (code, range) once. Where every place says
    the same, the earliest place says it (the canonical one, the file the author edits); else a
    place in a root a harness reads (graded for those harnesses, in their words) before any other
    (graded for the fallback profile), the place that grades it worst among those."""
    versions: dict[tuple[str, int, int], list[tuple[bool, int, int, str]]] = defaultdict(list)
    for i, (r, findings) in enumerate(group):
        outside = r.location is None or r.location.root_index < 0 or not roots_reading(r.location.dir)
        for f in findings:
            versions[_key(f)].append((outside, int(f.severity), i, f.message))
    owner = {k: (v[0][2] if len({(sev, msg) for _, sev, _, msg in v}) == 1 else min(v)[2])
             for k, v in versions.items()}
    return {id(r): [f for f in findings if owner[_key(f)] == i] for i, (r, findings) in enumerate(group)}


def without_repeats(rows: list[tuple[SkillResult, list[Finding]]]) -> list[tuple[SkillResult, list[Finding]]]:
    """``rows`` (a result and what is reported of it) with each problem of a file found at two or
    more places reported once (``kept``)."""
    grouped = groups(r for r, _ in rows)
    if not grouped:
        return rows
    shown = {id(r): findings for r, findings in rows}
    keep: dict[int, list[Finding]] = {}
    for group in grouped:
        keep.update(kept([(m, shown[id(m)]) for m in group]))
    return [(r, keep.get(id(r), findings)) for r, findings in rows]


class Places:
    """The files of an index found at two or more places, kept up to date as results come and go
    (``SkillIndex``): what a server needs to publish each finding once."""

    def __init__(self) -> None:
        self._linked: dict[str, set[str]] = defaultdict(set)  # the real SKILL.md -> paths leading to it
        self._first: dict[str, str] = {}  # the real SKILL.md -> its canonical path, once asked

    def add(self, r: SkillResult) -> None:
        loc = r.location
        if loc is not None and loc.real is not None and loc.problem is None:
            self._linked[loc.real].add(r.path)
        self._first.pop(real_of(r), None)

    def remove(self, r: SkillResult) -> None:
        key = real_of(r)
        paths = self._linked.get(key)
        if paths is not None:
            paths.discard(r.path)
            if not paths:
                del self._linked[key]
        self._first.pop(key, None)

    def others(self, results: dict[str, SkillResult], path: str) -> set[str]:
        """The other places of the file at ``path`` (nearly always none)."""
        r = results.get(path)
        if not self._linked or r is None:
            return set()
        return self._members(results, real_of(r)) - {path}

    def group(self, results: dict[str, SkillResult], path: str) -> list[SkillResult] | None:
        """The places of the file at ``path``, the canonical one first; None where it has one place."""
        r = results.get(path)
        if not self._linked or r is None:
            return None
        key = real_of(r)
        members = self._members(results, key)
        if len(members) < 2:
            return None
        first = self._first.get(key)
        if first is None or first not in members:
            first = self._first[key] = canonical([results[p] for p in members]).path
        return [results[first]] + [results[p] for p in sorted(members) if p != first]

    def _members(self, results: dict[str, SkillResult], key: str) -> set[str]:
        members = set(self._linked.get(key, ()))
        plain = results.get(key)
        if plain is not None and (plain.location is None or (plain.location.real is None
                                                             and plain.location.problem is None)):
            members.add(key)
        return members
