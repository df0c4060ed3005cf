"""Skill graph queries for navigation and rename: what is at a position, and every occurrence of a skill.

Open buffers are read from their newest analysis. Closed files are read from the index for
navigation (their spans were kept when they were checked) and **from the disk** for edits:
an edit built on remembered offsets lands in the wrong place once the file changed.

A mention names the skill it resolves to: the one of that name in the mentioning file's own
workspace folder (in its own skill root first, else the one that wins by root order), and
only when that folder has none, one in another folder.
"""

from __future__ import annotations

import asyncio
import os

from lsprotocol import types as t

from ...engine import document
from ...engine.datarecord import datarecord
from ...engine.discovery import ReadError, is_inside, read_skill_file
from ...engine.mentions import Mention
from ...engine.mentions import extract as mentions_of
from ...engine.text import PositionTable, SourceText
from ...engine.workspace import SkillResult
from .. import convert
from ..server import SkillLanguageServer
from ..uris import path_to_uri, uri_to_path


@datarecord(slots=True)
class View:
    """One skill file as navigation sees it."""

    path: str
    src: SourceText | PositionTable
    name: str
    name_span: tuple[int, int] | None
    mentions: list[Mention]
    open: bool


@datarecord(slots=True)
class Target:
    name: str  # the skill's name as the workspace knows it
    skill_md: str | None  # its definition (None: no such skill)
    start: int  # the span under the cursor
    end: int
    kind: str  # "name" or a mention kind


@datarecord(slots=True)
class Occurrence:
    path: str
    start: int
    end: int
    kind: str  # "name" | mention kind
    src: SourceText | PositionTable
    open: bool


def view(ls: SkillLanguageServer, path: str, *, from_disk: bool = False) -> View | None:
    """``path`` as navigation sees it; ``from_disk``: a closed file is read now, not from the index."""
    od = ls.state.docs.get(path_to_uri(path))
    if od is not None:
        analysis = ls.state.analyse(od)
        live = SkillResult(path, analysis.doc, analysis.findings)
        return View(path, analysis.doc.src, live.name, live.name_span, mentions_of(analysis.doc), True)
    if from_disk:
        return _disk_view(path)
    folder = ls.state.folder_for(path)
    r = folder.index.results.get(path) if folder.index is not None else None
    if r is None:
        return None
    src = r.doc.src if r.doc is not None else r.src
    if src is None:
        return None
    return View(path, src, r.name, r.name_span, r.mentions, False)


def _disk_view(path: str) -> View | None:
    """A closed file as it is on disk now (None: unreadable, past the read limit, or not UTF-8)."""
    try:
        raw, size = read_skill_file(path)
    except ReadError:
        return None
    if size > len(raw):
        return None  # never edit what was not read whole
    text, issue = document.decode(raw)
    if issue is not None:
        return None
    doc = document.parse(text, path)
    r = SkillResult(path, doc, [])
    return View(path, doc.src, r.name, r.name_span, mentions_of(doc), False)


def _root_of(ls: SkillLanguageServer, path: str) -> tuple[int, str]:
    """(root index, root) of a skill file in its folder's inventory; (-1, "") when in no root."""
    folder = ls.state.folder_for(path)
    r = folder.index.results.get(path) if folder.index is not None else None
    loc = r.location if r is not None else (folder.classify(path) if folder.path else None)
    return (loc.root_index, loc.root) if loc is not None else (-1, "")


def resolve(ls: SkillLanguageServer, name: str, from_path: str | None) -> str | None:
    """The SKILL.md a mention of ``name`` in ``from_path`` names (see the module docstring)."""
    own = ls.state.folder_for(from_path)
    defs = own.index.graph.definitions(name) if own.index is not None else []
    if not defs:
        rest = definitions(ls, name, from_path)
        return rest[0] if rest else None
    if len(defs) == 1 or from_path is None:
        return defs[0]
    here = _root_of(ls, from_path)
    same = [d for d in defs if here[0] >= 0 and _root_of(ls, d) == here]
    if same:
        return same[0]
    ranked = sorted(defs, key=lambda d: (_root_of(ls, d)[0] < 0, _root_of(ls, d)[0], d))
    return ranked[0]


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
            return Target(m.name, resolve(ls, m.name, path), m.start, m.end, m.kind)
    return None


def occurrences(ls: SkillLanguageServer, name: str, skill_md: str | None, *,
                from_disk: bool = False) -> list[Occurrence]:
    """The skill's own `name` and every mention that resolves to it, across all folders.

    ``from_disk``: closed files are read now (for edits); else their indexed spans serve.
    """
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
    resolved: dict[str, str | None] = {}
    for p in sorted(paths):
        v = view(ls, p, from_disk=from_disk)
        if v is None:
            continue
        if v.name_span is not None and v.name == name and (skill_md is None or p == skill_md):
            out.append(Occurrence(p, *v.name_span, "name", v.src, v.open))
            seen.add((p, v.name_span[0]))
        for m in v.mentions:
            if m.kind == "link":
                hit = folder is not None and m.folder is not None and os.path.normpath(m.folder) == folder
            else:
                if m.name != name:
                    continue
                if p not in resolved:
                    resolved[p] = resolve(ls, name, p)
                hit = skill_md is None or resolved[p] == skill_md
            if hit and (p, m.start) not in seen:
                seen.add((p, m.start))
                out.append(Occurrence(p, m.start, m.end, m.kind, v.src, v.open))
    return out


# How long an edit waits for a scan or a batch of file events to be applied first.
SETTLE_S = 5.0


def busy(ls: SkillLanguageServer) -> bool:
    """Whether the index may not yet hold what is on disk: a scan runs, or file events wait."""
    return bool(ls.scanning or ls.pending_changes or ls.applying or ls.reads)


async def settled(ls: SkillLanguageServer, timeout: float = SETTLE_S) -> bool:
    """Wait (bounded) until no scan or file-event batch is pending; False if one still is."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while busy(ls):
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def in_workspace(ls: SkillLanguageServer, path: str) -> bool:
    """Whether ``path`` (symlinks resolved) lies inside one of the client's workspace folders."""
    real = os.path.realpath(path)
    return any(f.path and is_inside(real, os.path.realpath(f.path)) for f in ls.state.folders)


def all_names(ls: SkillLanguageServer) -> set[str]:
    out: set[str] = set()
    for f in ls.state.folders or [ls.state.default]:
        if f.index is not None:
            out |= {n for n, c in f.index.graph.names.items() if c > 0}
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


