"""Does harness H list this skill, and if it skips it, why.

Answered from the harness's facts alone: the root it lives in, the findings
the harness treats as blocking (checked as if H were the only target), and the
fields that hide a skill from the model's catalog.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .data import HARNESSES
from .model import Harness

if TYPE_CHECKING:
    from ..workspace import SkillResult


@dataclass(frozen=True, slots=True)
class Listing:
    harness: str
    listed: bool
    reason: str | None = None  # why it is skipped (None when listed)
    name: str | None = None  # the name the harness lists it under


def _tail(root_path: str) -> str:
    return "/" + root_path.removeprefix("~/").lstrip("/")


@lru_cache(maxsize=1)
def _root_table() -> tuple[tuple[str, str, int], ...]:
    """(root tail, harness, depth) for every root of every harness."""
    return tuple((_tail(r.path), h.name, max(1, h.depth)) for h in HARNESSES.values() for r in h.roots)


@lru_cache(maxsize=4096)
def _readers(parent: str) -> frozenset[str] | None:
    """Harnesses reading a skill whose folder sits in ``parent``; None when no known root matches.

    Cached per parent folder: the skills of one root share it.
    """
    ancestors = []
    p = parent
    while p and p != "/":
        ancestors.append(p)
        p = p.rsplit("/", 1)[0]
    found: set[str] = set()
    for tail, name, depth in _root_table():
        if any(a.endswith(tail) for a in ancestors[:depth]):
            found.add(name)
    return frozenset(found) if found else None


def reads_root(harness: Harness, skill_dir: str) -> bool | None:
    """Whether ``harness`` reads the root ``skill_dir`` lives in; None when no known harness root matches."""
    readers = _readers(os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/"))
    return None if readers is None else harness.name in readers


def roots_reading(skill_dir: str, *, documented: bool = False) -> tuple[str, ...]:
    """Names of the harnesses that read the root holding ``skill_dir`` (documented-only ones on request)."""
    readers = _readers(os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/"))
    if readers is None:
        return ()
    return tuple(h.name for h in HARNESSES.values() if h.name in readers and (documented or not h.documented_only))


def listing(result: SkillResult, harness: Harness | str) -> Listing:
    """Whether ``harness`` lists the checked skill ``result`` (its document must be present)."""
    from .. import rules  # noqa: PLC0415 - rules import the targets, which import this package
    from ..findings import base_message  # noqa: PLC0415
    from ..targets import view  # noqa: PLC0415
    from ..yamlnodes import resolve_scalar  # noqa: PLC0415

    h = HARNESSES[harness] if isinstance(harness, str) else harness
    skill_dir = os.path.dirname(result.path)
    if not h.any_root and reads_root(h, skill_dir) is False:
        root = os.path.basename(os.path.dirname(os.path.dirname(skill_dir)) or "")
        where = f"{root}/{os.path.basename(os.path.dirname(skill_dir))}" if root else os.path.dirname(skill_dir)
        return Listing(h.name, False, f"{h.title} does not read {where}")
    for f in result.findings:
        if f.code in ("OUTSIDE_WORKSPACE", "SENSITIVE", "IO_ERROR"):
            return Listing(h.name, False, f.message)
    doc = result.doc
    if doc is None:
        # Read failures returned above; a slim result (worker output) carries no document to judge.
        raise ValueError(f"{result.path}: listing needs the checked document (use check_file, not a slim result)")
    ctx = rules.Context(profile=view((h.name,)), check_links=False)
    for f in rules.check(doc, ctx):
        field = f.data.get("field") if isinstance(f.data, dict) else None
        if h.blocks(f.code, field):
            effect = h.effect(f.code, field)
            assert effect is not None
            return Listing(h.name, False, f"{h.title} {effect.note}: {base_message(f)}")
    for key in h.hidden_by:
        entry = doc.entries.get(key) if doc.frontmatter_ok else None
        if entry is not None and entry.value.target().kind == "scalar" and resolve_scalar(entry.value.target()) is True:
            return Listing(h.name, False, f"{key}: true keeps it out of the model's catalog")
    name = result.name
    if name != result.folder:
        name = h.mismatch_listed_as.format(name=name, folder=result.folder)
    return Listing(h.name, True, None, name)
