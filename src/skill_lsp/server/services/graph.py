"""Skill graph queries for navigation and rename: what is at a position, and every occurrence of a skill.

Open buffers are read from their newest analysis; closed files from the index
(their spans were kept when they were checked).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from lsprotocol import types as t

from ...engine.mentions import Mention
from ...engine.mentions import extract as mentions_of
from ...engine.text import PositionTable, SourceText
from ...engine.workspace import SkillResult
from .. import convert
from ..server import SkillLanguageServer
from ..uris import path_to_uri, uri_to_path


@dataclass(slots=True)
class View:
    """One skill file as navigation sees it."""

    path: str
    src: SourceText | PositionTable
    name: str
    name_span: tuple[int, int] | None
    mentions: list[Mention]
    open: bool


@dataclass(slots=True)
class Target:
    name: str  # the skill's name as the workspace knows it
    skill_md: str | None  # its definition (None: no such skill)
    start: int  # the span under the cursor
    end: int
    kind: str  # "name" or a mention kind


@dataclass(slots=True)
class Occurrence:
    path: str
    start: int
    end: int
    kind: str  # "name" | mention kind
    src: SourceText | PositionTable
    open: bool


def view(ls: SkillLanguageServer, path: str) -> View | None:
    od = ls.state.docs.get(path_to_uri(path))
    if od is not None:
        analysis = ls.state.analyse(od)
        live = SkillResult(path, analysis.doc, analysis.findings)
        return View(path, analysis.doc.src, live.name, live.name_span, mentions_of(analysis.doc), True)
    folder = ls.state.folder_for(path)
    r = folder.index.results.get(path) if folder.index is not None else None
    if r is None:
        return None
    src = r.doc.src if r.doc is not None else r.src
    if src is None:
        return None
    return View(path, src, r.name, r.name_span, r.mentions, False)


def definitions(ls: SkillLanguageServer, name: str, near: str | None) -> list[str]:
    """SKILL.md files named ``name``: the folder of ``near`` first, then the other folders."""
    folders = ls.state.folders or [ls.state.default]
    first = ls.state.folder_for(near)
    out: list[str] = []
    for f in [first] + [f for f in folders if f is not first]:
        if f.index is not None:
            out += [p for p in f.index.graph.definitions(name) if p not in out]
    return out


def _by_folder(ls: SkillLanguageServer, skill_dir: str) -> str | None:
    folder = ls.state.folder_for(skill_dir)
    return folder.index.graph.dirs.get(skill_dir) if folder.index is not None else None


def target_at(ls: SkillLanguageServer, path: str, offset: int) -> Target | None:
    """The skill named at ``offset`` of an open file: its own `name`, or a mention."""
    v = view(ls, path)
    if v is None:
        return None
    if v.name_span is not None and v.name_span[0] <= offset <= v.name_span[1]:
        return Target(v.name, path, *v.name_span, "name")
    for m in v.mentions:
        if m.start <= offset <= m.end:
            if m.kind == "link":
                md = _by_folder(ls, os.path.normpath(m.folder or ""))
                other = view(ls, md) if md is not None else None
                return Target(other.name if other is not None else m.name, md, m.start, m.end, m.kind)
            defs = definitions(ls, m.name, path)
            return Target(m.name, defs[0] if defs else None, m.start, m.end, m.kind)
    return None


def occurrences(ls: SkillLanguageServer, name: str, skill_md: str | None) -> list[Occurrence]:
    """The skill's own `name` (every file defining it) and every mention of it, across all folders."""
    out: list[Occurrence] = []
    seen: set[tuple[str, int]] = set()
    paths: set[str] = set()
    for f in ls.state.folders or [ls.state.default]:
        if f.index is None:
            continue
        paths |= set(f.index.graph.definitions(name))
        paths |= set(f.index.graph.mentioners.get(name, ()))
        if skill_md is not None:
            paths |= set(f.index.graph.mentioners.get(os.path.basename(os.path.dirname(skill_md)), ()))
    # Open buffers not (yet) in any index still count.
    for od in ls.state.docs.values():
        if od.path is not None:
            paths.add(od.path)
    folder = os.path.dirname(skill_md) if skill_md else None
    for p in sorted(paths):
        v = view(ls, p)
        if v is None:
            continue
        if v.name_span is not None and v.name == name:
            out.append(Occurrence(p, *v.name_span, "name", v.src, v.open))
            seen.add((p, v.name_span[0]))
        for m in v.mentions:
            hit = (m.kind == "link" and folder is not None and m.folder is not None
                   and os.path.normpath(m.folder) == folder) or (m.kind != "link" and m.name == name)
            if hit and (p, m.start) not in seen:
                seen.add((p, m.start))
                out.append(Occurrence(p, m.start, m.end, m.kind, v.src, v.open))
    return out


def at(ls: SkillLanguageServer, uri: str, position: t.Position) -> tuple[Target, object] | None:
    od = ls.state.docs.get(uri)
    if od is None or od.path is None:
        return None
    src = ls.state.analyse(od).doc.src
    target = target_at(ls, od.path, convert.offset(src, position, ls.encoding))
    return (target, src) if target is not None else None


def definition(ls: SkillLanguageServer, uri: str, position: t.Position) -> list[t.Location] | None:
    """The SKILL.md (at its `name`) of the skill mentioned at ``position``; None when nothing is."""
    got = at(ls, uri, position)
    if got is None or got[0].kind == "name":
        return None
    target = got[0]
    out = []
    for md in definitions(ls, target.name, uri_to_path(uri)) if target.kind != "link" else (
            [target.skill_md] if target.skill_md else []):
        v = view(ls, md)
        if v is None:
            continue
        span = v.name_span or (0, 0)
        out.append(t.Location(uri=path_to_uri(md), range=convert.range_(v.src, *span, ls.encoding)))  # type: ignore[arg-type]
    return out or None


