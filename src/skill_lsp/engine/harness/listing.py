"""Does harness H list this skill, and if it skips it, why.

Answered from the harness's facts alone: the root it lives in, the findings
the harness treats as blocking (checked as if H were the only target), and the
fields that hide a skill from the model's catalog.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .data import HARNESSES
from .model import Harness

if TYPE_CHECKING:
    from ..activation.records import SkillRecord
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
    """Names of the harnesses that read the root holding ``skill_dir`` (unverified ones on request)."""
    readers = _readers(os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/"))
    if readers is None:
        return ()
    return tuple(h.name for h in HARNESSES.values() if h.name in readers and (documented or h.checked_by_default))


def _qualifier(data: object) -> str | None:
    """What a finding's effect may be keyed by beyond its code: the field, else the reason."""
    if not isinstance(data, dict):
        return None
    value = data.get("field") or data.get("reason")
    return value if isinstance(value, str) else None


def _lenient_values(text: str) -> dict[str, str]:
    from ..render.lenient import simple_frontmatter  # noqa: PLC0415 - render imports this package

    return simple_frontmatter(text) or {}


def listing(result: SkillResult, harness: Harness | str, *, roots: bool = True) -> Listing:
    """Whether ``harness`` lists the checked skill ``result`` (its document must be present).

    ``roots=False`` leaves out the question of the root (the caller already chose the roots
    the harness reads, e.g. a dialect given the records of those roots).
    """
    from .. import rules  # noqa: PLC0415 - rules import the targets, which import this package
    from ..findings import base_message  # noqa: PLC0415
    from ..targets import view  # noqa: PLC0415
    from ..yamlnodes import resolve_scalar  # noqa: PLC0415

    h = HARNESSES[harness] if isinstance(harness, str) else harness
    skill_dir = os.path.dirname(result.path)
    if roots and not h.any_root and reads_root(h, skill_dir) is False:
        return Listing(h.name, False, not_read(h, skill_dir))
    for f in result.findings:
        if f.code in ("OUTSIDE_WORKSPACE", "SENSITIVE", "IO_ERROR"):
            return Listing(h.name, False, f.message)
    doc = result.doc
    if doc is None:
        # Read failures returned above; a slim result (worker output) carries no document to judge.
        raise ValueError(f"{result.path}: listing needs the checked document (use check_file, not a slim result)")
    ctx = rules.Context(profile=view((h.name,)), check_links=False)
    lenient = False
    for f in rules.check(doc, ctx):
        qualifier = _qualifier(f.data)
        if h.blocks(f.code, qualifier):
            effect = h.effect(f.code, qualifier)
            assert effect is not None
            return Listing(h.name, False, f"{h.title} {effect.note}: {base_message(f)}")
        lenient = lenient or f.code == "INVALID_FRONTMATTER"
    if lenient:
        # The YAML failed and the harness read `key: value` lines instead: what it requires
        # must be among those lines.
        values = _lenient_values(doc.text)
        for key in ("name", "description"):
            value = values.get(key)
            code = "MISSING_FIELD" if value is None else "EMPTY_FIELD" if not value.strip() else None
            if code is not None and h.blocks(code, key):
                effect = h.effect(code, key)
                assert effect is not None
                return Listing(h.name, False, f"{h.title} {effect.note}: no '{key}' in the `key: value` lines it "
                                              f"reads when the YAML fails")
    for key in h.hidden_by:
        if doc.frontmatter_ok:
            entry = doc.entries.get(key)
            hidden = entry is not None and entry.value.target().kind == "scalar" and \
                resolve_scalar(entry.value.target()) is True
        else:
            hidden = lenient and _lenient_values(doc.text).get(key) == "true"
        if hidden:
            return Listing(h.name, False, f"{key}: true keeps it out of the model's catalog")
    name = result.name
    if name != result.folder:
        name = h.mismatch_listed_as.format(name=name, folder=result.folder)
    return Listing(h.name, True, None, name)


def not_read(harness: Harness, skill_dir: str) -> str:
    """"Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)"."""
    parent = os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/")
    root = next((tail.lstrip("/") for tail, _, _ in _root_table() if parent.endswith(tail)),
                "/".join(parent.rsplit("/", 2)[-2:]))
    who = f"{harness.title} {harness.version}" if harness.version and harness.proof == "captured" else harness.title
    return f"{who} does not read {root} (skills there are never loaded)"


_SEEN: dict[tuple[str, str, str], Listing] = {}


@lru_cache(maxsize=1024)
def _memo(harness: str, path: str, text: str) -> Listing:
    from ..config import Settings  # noqa: PLC0415
    from ..workspace import SkillResult, check_text  # noqa: PLC0415

    doc, findings = check_text(text, path, Settings(), on_disk=False)
    return listing(SkillResult(path, doc, findings), harness, roots=False)


def _text_of(record: SkillRecord) -> str:
    """The SKILL.md a record stands for: its text, else its frontmatter (JSON values are YAML) and body."""
    if record.text is not None:
        return record.text
    if not record.frontmatter:
        return record.body
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in record.frontmatter.items()]
    return "---\n" + "\n".join(lines) + "\n---\n" + record.body


def record_listing(record: SkillRecord, harness: Harness | str) -> Listing:
    """:func:`listing` for an activation record, the root aside (a dialect is given the roots' records).

    Records made by ``preview.record_for`` carry their checked result; others are checked
    from their text (cached by text, so a hover over eight dialects checks it once each).
    """
    h = harness.name if isinstance(harness, Harness) else harness
    checked = record.checked
    doc = getattr(checked, "doc", None)
    if doc is not None:
        # A catalog asks several times per skill (order, sizes, skipped): once per text is enough.
        key = (h, record.path, doc.text)
        got = _SEEN.get(key)
        if got is None:
            got = listing(checked, h, roots=False)  # type: ignore[arg-type]
            if len(_SEEN) >= 8192:
                _SEEN.clear()
            _SEEN[key] = got
        return got
    if record.error is not None and record.error[0] in ("IO_ERROR", "SENSITIVE", "OUTSIDE_WORKSPACE"):
        return Listing(h, False, record.error[1])
    return _memo(h, record.path, _text_of(record))
