"""initialize / initialized / configuration / workspace folders."""

from __future__ import annotations

import asyncio
import gc
import time
from functools import partial
from importlib import import_module

from lsprotocol import types as t

from ...engine.discover import Inventory, watch_globs
from ..server import SkillLanguageServer, guarded
from ..services import publish
from ..services.publish import pulled_changed
from ..services.sync import TYPING_S, refresh, reload_settings, settings_section
from ..state import Folder
from ..uris import path_to_uri, uri_to_path


def _folders(params: t.InitializeParams) -> list[Folder]:
    out = []
    for wf in params.workspace_folders or []:
        path = uri_to_path(wf.uri)
        if path:
            out.append(Folder(path=path, uri=wf.uri))
    if not out:
        root = params.root_uri or (f"file://{params.root_path}" if params.root_path else None)
        path = uri_to_path(root) if root else None
        if path:
            out.append(Folder(path=path, uri=root))  # type: ignore[arg-type]
    return out


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.INITIALIZE)
    def initialize(ls: SkillLanguageServer, params: t.InitializeParams) -> None:
        state = ls.state
        state.init_options = settings_section(params.initialization_options)
        state.folders = _folders(params)
        caps = params.capabilities
        td = caps.text_document
        ws = caps.workspace
        # Pull only where the server can ask for a re-pull: without refresh support
        # (Neovim 0.11) settings changes and cross-skill updates would stay stale.
        can_refresh = bool(ws and ws.diagnostics and ws.diagnostics.refresh_support)
        ls.pull_mode = bool(td and td.diagnostic) and can_refresh
        if not ls.pull_mode:
            # Capabilities are computed after this handler: a push-only client must not see
            # a diagnosticProvider (Neovim would pull too and show everything twice).
            for method in (t.TEXT_DOCUMENT_DIAGNOSTIC, t.WORKSPACE_DIAGNOSTIC):
                ls.protocol.fm.features.pop(method, None)
        problems = []
        for f in state.folders or [state.default]:
            f.load_file_settings()
            problems += f.apply(state.init_options, None)
        if problems:
            ls.show("skill-lsp settings: " + "; ".join(dict.fromkeys(problems))
                + " (ignored: the defaults are used for these; `skill-lsp check` stops on them)")
        # A client that answers workspace/configuration gets its open documents published once,
        # with its settings (Emacs showed TRAILING_WHITESPACE change severity a moment after opening).
        if ws and ws.configuration:
            ls.settings_ready = False
            asyncio.get_event_loop().call_later(SETTINGS_WAIT_S, _settings_ready_anyway, ls)
        gc.enable()  # off while the modules loaded (commands/serve.py); `initialized` collects and freezes

    @server.feature(t.INITIALIZED)
    @guarded()
    async def initialized(ls: SkillLanguageServer, params: t.InitializedParams) -> None:
        # The result cache's key digests the engine's and the server's code (~130 files): read
        # before the import thread starts. Beside it each read handed that thread the GIL, and
        # opening the cache took 63 ms where the reads alone take 2.
        from ...engine.resultcache import engine_digest  # noqa: PLC0415 - the scan's first need
        from ..services.scanjob import cache_extra  # noqa: PLC0415

        engine_digest()
        cache_extra(None)
        # Modules kept off the start-up path load now, in a thread, before a request needs them.
        asyncio.get_running_loop().run_in_executor(None, _warm_imports, ls)
        await _register_watchers(ls)
        # Start-up objects are long-lived: freezing them keeps later collections short
        # (p99 keystroke latency fell from ~60 ms to ~14 ms in a prototype, NOTES §8). Done
        # before the scan: a full collection after it walked every result while the user typed.
        gc.collect()
        gc.freeze()
        await reload_settings(ls, rescan=True)
        await _find_installed(ls)

    @server.feature(t.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded()
    async def did_change_configuration(ls: SkillLanguageServer, params: t.DidChangeConfigurationParams) -> None:
        await reload_settings(ls, rescan=True, pushed=params.settings)

    @server.feature(t.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded()
    async def did_change_folders(ls: SkillLanguageServer, params: t.DidChangeWorkspaceFoldersParams) -> None:
        removed = {uri_to_path(f.uri) for f in params.event.removed}
        gone = [f for f in ls.state.folders if f.path in removed]
        ls.state.folders = [f for f in ls.state.folders if f.path not in removed]
        for f in gone:
            # Its skills leave with it: nothing of them stays in the Problems panel.
            for path in f.index.results if f.index is not None else ():
                if path_to_uri(path) not in ls.state.docs:
                    publish.clear(ls, path_to_uri(path))
        for wf in params.event.added:
            path = uri_to_path(wf.uri)
            if path and all(f.path != path for f in ls.state.folders):
                ls.state.folders.append(Folder(path=path, uri=wf.uri))
        await reload_settings(ls, rescan=True)

    @server.feature(t.SHUTDOWN)
    def shutdown(ls: SkillLanguageServer, params: object) -> None:
        _stop(ls)

    @server.feature(t.EXIT)
    def exit_(ls: SkillLanguageServer, params: object) -> None:
        # pygls closes stdout after this. A handler that resumes while asyncio cancels the
        # tasks (3.11's wait_for hands back an answer that came with the `exit`) must find
        # nothing to publish.
        _stop(ls)
        ls.exited = True


async def _find_installed(ls: SkillLanguageServer) -> None:
    """Which harness releases are installed here (after the first scan: five `--version` runs
    must not slow it), for the status item: a release other than the one proven is flagged."""
    from ...installed import detect  # noqa: PLC0415

    avoid = [f.path for f in ls.state.folders if f.path]
    found = await asyncio.get_running_loop().run_in_executor(None, lambda: detect(avoid=avoid))
    ls.installed = [i.to_json() for i in found if i.path is not None]
    publish.status(ls)


def _stop(ls: SkillLanguageServer) -> None:
    ls.shutting_down = True
    ls.scan_generation += 1  # a scan still running publishes nothing more
    pulled_changed(ls)  # a held workspace pull answers now
    for timer in ls.timers.values():
        timer.cancel()
    ls.timers.clear()


# Without `initialized` (or with a client that never answers configuration), open documents
# are published with the settings known this long after `initialize`.
SETTINGS_WAIT_S = 10.0


def _settings_ready_anyway(ls: SkillLanguageServer) -> None:
    if not ls.settings_ready:
        ls.settings_ready = True
        for uri in list(ls.state.docs):
            refresh(ls, uri)


# The longest the start-up's imports wait for a discovery walk (a large tree on a cold disk
# walks for seconds; a keystroke meanwhile takes the step it needs itself).
WALK_WAIT_S = 1.0


def _warm_imports(ls: SkillLanguageServer) -> None:
    """What is built or loaded on first use, done before the first keystroke needs it: the
    protocol's message converters (didChange's first), every rule module and the parsers they
    use (a one-skill `check` must not pay for those: ``rules.load_steps``), the activation
    engine. One step at a time, paused while the user types: a keystroke that needs a step
    takes it itself, and never waits for the others."""
    from ...engine import rules  # noqa: PLC0415

    hooks = ls.protocol.hook_steps()
    steps = [*hooks[:2], *rules.load_steps(), *hooks[2:],
             partial(import_module, "yaml"), partial(import_module, "skill_lsp.engine.preview")]
    walk_until = time.monotonic() + WALK_WAIT_S
    for step in steps:
        # Not beside a discovery walk either: each folder it lists hands this thread the GIL,
        # and 320 folders (when a first open starts its workers) took 65 ms instead of 4.
        while (time.monotonic() - ls.last_edit < TYPING_S or (
                time.monotonic() < walk_until and any(f.walking for f in ls.state.folders))) and not ls.shutting_down:
            time.sleep(0.05)
        if ls.shutting_down:
            return
        step()


async def _register_watchers(ls: SkillLanguageServer) -> None:
    ws = ls.client_capabilities.workspace
    dcw = ws.did_change_watched_files if ws else None
    if not (dcw and dcw.dynamic_registration):
        return
    relative = bool(dcw.relative_pattern_support)
    watchers = [
        t.FileSystemWatcher(glob_pattern="**/{SKILL,skill}.md"),
        t.FileSystemWatcher(glob_pattern="**/{.skill-lsp.toml,pyproject.toml}"),
    ]
    create_delete = t.WatchKind.Create | t.WatchKind.Delete
    for folder in ls.state.folders:
        # The folders whose creation or removal changes what `check .` finds (roots and nested layouts).
        inv = folder.inventory or Inventory(folder.path, folder.roots, folder.settings.sensitive_patterns)
        for rel in watch_globs(inv):
            if relative:
                pattern: object = t.RelativePattern(base_uri=folder.uri, pattern=rel)
            else:
                pattern = rel if rel.startswith("**/") else f"**/{rel}"
            watchers.append(t.FileSystemWatcher(glob_pattern=pattern, kind=create_delete))  # type: ignore[arg-type]
    try:
        await asyncio.wait_for(ls.client_register_capability_async(t.RegistrationParams(registrations=[
            t.Registration(id="skill-lsp-watch", method=t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                           register_options=t.DidChangeWatchedFilesRegistrationOptions(watchers=watchers))])), 5)
    except Exception as exc:  # noqa: BLE001
        ls.log(f"could not register file watchers: {exc}")
