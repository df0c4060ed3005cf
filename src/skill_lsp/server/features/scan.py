"""Workspace scan at `initialized` and on file events, off the event loop, with $/progress."""

from __future__ import annotations

import asyncio
import os
import uuid

from lsprotocol import types as t

from ...engine import discovery
from ...engine.workspace import SkillIndex, check_file
from ..server import SkillLanguageServer, guarded
from ..state import Folder
from ..uris import is_skill_file, path_to_uri, uri_to_path
from .diagnostics import publish_path


def _scan_folder(folder: Folder) -> list:
    """Blocking: discover and check every skill under the folder's roots (runs in a thread)."""
    locations = discovery.scan_roots(folder.roots, folder.settings.sensitive_patterns)
    return [check_file(loc.path, folder.settings, loc).slim() for loc in locations]


async def scan_all(ls: SkillLanguageServer) -> None:
    """Scan every folder; publish their findings; newer scans make older ones stop publishing."""
    ls.scan_generation += 1
    generation = ls.scan_generation
    token = str(uuid.uuid4())
    _status(ls, scanning=True)
    progress = await _begin(ls, token)
    loop = asyncio.get_running_loop()
    total = 0
    try:
        for i, folder in enumerate(ls.state.folders):
            if progress:
                ls.work_done_progress.report(token, t.WorkDoneProgressReport(
                    message=f"{os.path.basename(folder.path) or folder.path}", percentage=int(100 * i / max(1, len(ls.state.folders)))))
            results = await loop.run_in_executor(None, _scan_folder, folder)
            if generation != ls.scan_generation:
                return  # a newer scan (settings or files changed) owns publishing
            old = set(folder.index.results) if folder.index is not None else set()
            index = SkillIndex(folder.settings)
            index.rebuild(results)
            folder.index = index
            folder.scanned = True
            # Open documents override the disk copy in the index.
            for od in ls.state.docs.values():
                if od.path is not None and ls.state.folder_for(od.path) is folder:
                    index.put(ls.state.result_for(od, ls.state.analyse(od)))
            total += len(results)
            for path in sorted(old | set(index.results)):
                publish_path(ls, path)
        _status(ls)
        from .diagnostics import request_refresh  # noqa: PLC0415

        request_refresh(ls)
    finally:
        if progress:
            ls.work_done_progress.end(token, t.WorkDoneProgressEnd(message=f"{total} skills checked"))


async def _begin(ls: SkillLanguageServer, token: str) -> bool:
    win = ls.client_capabilities.window
    if not (win and win.work_done_progress):
        return False
    try:
        await asyncio.wait_for(ls.work_done_progress.create_async(token), timeout=5)
    except Exception:  # noqa: BLE001 - a client that refuses progress still gets diagnostics
        return False
    ls.work_done_progress.begin(token, t.WorkDoneProgressBegin(title="skill-lsp: scanning skills", percentage=0,
                                                               cancellable=False))
    return True


def _status(ls: SkillLanguageServer, scanning: bool = False) -> None:
    skills = sum(len(f.index.results) for f in ls.state.folders if f.index is not None)
    profile = ls.state.folders[0].settings.profile if ls.state.folders else ls.state.default.settings.profile
    try:
        ls.protocol.notify("skillLsp/status", {"profile": profile, "skills": skills, "scanning": scanning})
    except Exception:  # noqa: BLE001
        pass


def reindex_path(ls: SkillLanguageServer, path: str) -> bool:
    """Re-read one SKILL.md from disk into its folder's index; returns whether the folder indexes it."""
    folder = ls.state.folder_for(path)
    if folder.index is None:
        return False
    hit = folder.root_index_of(path)
    if hit is None:
        return False
    if not os.path.lexists(path):
        touched = folder.index.remove(path)
        for other in touched:
            publish_path(ls, other)
        return True
    loc = discovery.locate(os.path.dirname(path), hit[1], hit[0], folder.roots, folder.settings.sensitive_patterns)
    if loc is None:
        touched = folder.index.remove(path)
    else:
        touched = folder.index.put(check_file(loc.path, folder.settings, loc).slim())
    for other in touched:
        publish_path(ls, other)
    return True


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    async def watched(ls: SkillLanguageServer, params: t.DidChangeWatchedFilesParams) -> None:
        rescan = False
        for change in params.changes:
            path = uri_to_path(change.uri)
            if path is None:
                continue
            if is_skill_file(change.uri):
                if path_to_uri(path) in ls.state.docs and change.type == t.FileChangeType.Changed:
                    continue  # the open buffer is authoritative
                if not reindex_path(ls, path):
                    continue
                publish_path(ls, path)
                if change.type == t.FileChangeType.Deleted:
                    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=change.uri, diagnostics=[]))
            elif os.path.basename(path) in (".skill-lsp.toml", "pyproject.toml"):
                from .lifecycle import reload_settings  # noqa: PLC0415

                await reload_settings(ls, rescan=True)
                return
            else:
                # A skill folder (or a root) was created, deleted or renamed: rescan.
                rescan = True
        if rescan:
            await scan_all(ls)
        else:
            _status(ls)  # the skill count may have changed
        for od in list(ls.state.docs.values()):
            ls.state.analyses.pop(od.uri, None)  # link targets may have appeared or gone
            from .diagnostics import refresh  # noqa: PLC0415

            refresh(ls, od.uri)
