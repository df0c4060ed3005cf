"""Listing decisions of an open skill (hover, code lens): engine.decisions over its folder's scan
index, computed off the event loop.

The activation records of closed skills are kept per folder while their index result stays the
same object, so a budget that needs every skill re-reads each file once, not on every request."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ...engine.discovery import read_regular

if TYPE_CHECKING:
    from ...engine.decisions import Decision
    from ..server import SkillLanguageServer
    from ..state import Analysis, OpenDoc


async def decisions_for(ls: SkillLanguageServer, od: OpenDoc, analysis: Analysis) -> list[Decision]:
    """What each target harness does with the open skill, among the skills of its folder."""
    from ...engine.decisions import skill_decisions  # noqa: PLC0415 - dialects stay off start-up
    from ...engine.preview import record_for  # noqa: PLC0415
    from ...engine.workspace import check_file  # noqa: PLC0415

    if od.path is None:
        return []
    folder = ls.state.folder_for(od.path)
    me = ls.state.result_for(od, analysis)
    if me.doc is not None and not me.doc.bom and _bom_on_disk(od.path):
        # Editors keep a byte order mark out of the buffer but write it back on save; Codex and
        # Gemini CLI skip such a file (capture case bom-start), so the decision follows the disk.
        me.doc.bom = True
    indexed = dict(folder.index.results) if folder.index is not None else {}
    indexed[me.path] = me
    results = list(indexed.values())
    cache = folder.records
    for gone in [p for p in cache if p not in indexed] if len(cache) > len(indexed) else ():
        del cache[gone]  # skills deleted or moved since
    settings = folder.settings

    def record_of(r):
        if r is me:
            return record_for(r)
        hit = cache.get(r.path)
        if hit is not None and hit[0] is r and hit[1] is settings:
            return hit[2]
        rec = record_for(r if r.doc is not None else check_file(r.path, settings, r.location))
        cache[r.path] = (r, settings, rec)
        return rec

    return await asyncio.get_running_loop().run_in_executor(
        None, lambda: skill_decisions(me.path, results, settings, record_of, folder.path or None))


def _bom_on_disk(path: str) -> bool:
    return read_regular(path, 3) == b"\xef\xbb\xbf"  # never a FIFO's open
