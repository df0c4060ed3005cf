"""Workspace scan at `initialized` and on file events, off the event loop, with $/progress."""

from __future__ import annotations

import asyncio
import os
import uuid

from lsprotocol import types as t

from ...engine import discovery
from ...engine.workspace import SkillIndex, check_file, check_job
from ..server import SkillLanguageServer, guarded
from ..state import Folder
from ..uris import is_skill_file, path_to_uri, uri_to_path
from .diagnostics import publish_path

# Above this many skills the scan runs in worker processes.
PARALLEL_MIN = 300
PROGRESS_EVERY = 250


def _scan_folder(folder: Folder, on_batch=None) -> list:
    """Blocking: discover and check every skill under the folder's roots (runs in a thread).

    Results keep only the positions their findings need, not the text: a
    10,000-skill workspace would otherwise hold every file and line index.
    Large workspaces are checked in worker processes started from a clean
    forkserver (never forked from this multi-threaded process); the workers
    run at lower priority so the editor's own requests keep their latency.
    """
    locations = discovery.scan_roots(folder.roots, folder.settings.sensitive_patterns)
    workers = os.cpu_count() or 1
    results: list = []
    if len(locations) >= PARALLEL_MIN and workers > 1:
        try:
            return _scan_parallel(locations, folder, workers, on_batch)
        except Exception:  # noqa: BLE001 - no processes (sandbox, limits): scan in this thread
            results = []
    for loc in locations:
        results.append(check_file(loc.path, folder.settings, loc).slim(keep_text=False))
        _batch(results, len(locations), on_batch)
    return results


def _batch(results: list, total: int, on_batch) -> None:
    """Every PROGRESS_EVERY results (and at the end), hand the new ones to ``on_batch``."""
    n = len(results)
    if on_batch is not None and (n % PROGRESS_EVERY == 0 or n == total):
        on_batch(results[(n - 1) // PROGRESS_EVERY * PROGRESS_EVERY:], n, total)


def _scan_parallel(locations: list, folder: Folder, workers: int, on_batch=None) -> list:
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415


    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    work = [(loc, folder.settings, False) for loc in locations]
    chunk = max(16, len(work) // (workers * 8))
    results = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                             initializer=_lower_priority) as pool:
        for result in pool.map(check_job, work, chunksize=chunk):
            results.append(result)
            _batch(results, len(work), on_batch)
    return results


def _lower_priority() -> None:
    try:
        os.nice(5)
    except (AttributeError, OSError):
        pass


async def scan_all(ls: SkillLanguageServer) -> None:
    """Scan every folder; publish their findings; newer scans make older ones stop publishing."""
    ls.scan_generation += 1
    generation = ls.scan_generation
    ls.scanning = True
    token = str(uuid.uuid4())
    _status(ls, scanning=True)
    progress = await _begin(ls, token)
    loop = asyncio.get_running_loop()
    total = 0
    try:
        folders = ls.state.folders
        for i, folder in enumerate(folders):
            name = os.path.basename(folder.path) or folder.path

            published: set[str] = set()

            def on_batch(batch: list, done: int, count: int, i: int = i, name: str = name,
                         folder: Folder = folder, published: set[str] = published) -> None:
                # Called from the scan thread. Findings go out while the rest is still being
                # checked; cross-skill findings follow once every skill is known.
                loop.call_soon_threadsafe(_publish_early, ls, folder, batch, generation, published)
                if progress:
                    pct = int(100 * (i + done / max(1, count)) / len(folders))
                    loop.call_soon_threadsafe(ls.work_done_progress.report, token, t.WorkDoneProgressReport(
                        message=f"{name}: {done:,} of {count:,} skills", percentage=pct))

            results = await loop.run_in_executor(None, _scan_folder, folder, on_batch)
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
            # Publish what has findings, and clear what had them; a clean file never published
            # stays quiet, and one published early whose findings did not change is not sent again.
            for path in sorted(old | {p for p, r in index.results.items() if r.findings or r.cross}):
                r = index.results.get(path)
                if path in published and r is not None and not r.cross and path_to_uri(path) not in ls.state.docs:
                    continue
                publish_path(ls, path)
        _status(ls)
        from .diagnostics import request_refresh  # noqa: PLC0415

        request_refresh(ls)
    finally:
        if generation == ls.scan_generation:
            ls.scanning = False
        if progress:
            ls.work_done_progress.end(token, t.WorkDoneProgressEnd(message=f"{total} skills checked"))


def _publish_early(ls: SkillLanguageServer, folder: Folder, batch: list, generation: int,
                   published: set[str]) -> None:
    if generation != ls.scan_generation or ls.pull_mode or ls.shutting_down:
        return
    from .diagnostics import publish_result  # noqa: PLC0415

    for r in batch:
        if r.findings and path_to_uri(r.path) not in ls.state.docs:
            publish_result(ls, r)
            published.add(r.path)


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
    settings = ls.state.folders[0].settings if ls.state.folders else ls.state.default.settings
    try:
        # `targets` empty: inferred per skill from its root.
        ls.protocol.notify("skillLsp/status", {"profile": settings.profile, "targets": list(settings.targets),
                                               "skills": skills, "scanning": scanning})
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
        if rescan or ls.scanning:
            # A scan still running read the disk before this event: start over so its
            # stale results are dropped (the generation check) and the new state wins.
            await scan_all(ls)
        else:
            _status(ls)  # the skill count may have changed
        for od in list(ls.state.docs.values()):
            ls.state.analyses.pop(od.uri, None)  # link targets may have appeared or gone
            from .diagnostics import refresh  # noqa: PLC0415

            refresh(ls, od.uri)
