"""Diagnostics: open/change/save/close, debounced and version-guarded; push and pull."""

from __future__ import annotations

from lsprotocol import types as t

from ..server import SkillLanguageServer, guarded
from ..services import pull
from ..services.publish import closed_diagnostics, open_diagnostics
from ..services.sync import apply_changes, close_document, refresh, schedule
from ..state import OpenDoc
from ..uris import is_skill_file, uri_to_path


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls: SkillLanguageServer, params: t.DidOpenTextDocumentParams) -> None:
        td = params.text_document
        if not is_skill_file(td.uri):
            return  # other Markdown under the same language id: ignored quietly
        ls.state.docs[td.uri] = OpenDoc(td.uri, uri_to_path(td.uri), td.version, td.text, td.language_id)
        ls.state.analyses.pop(td.uri, None)
        refresh(ls, td.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: SkillLanguageServer, params: t.DidChangeTextDocumentParams) -> None:
        od = ls.state.docs.get(params.text_document.uri)
        if od is None:
            return
        version = params.text_document.version
        if version is not None and version < od.version:
            return  # out of order: never go back to an older text
        apply_changes(od, params.content_changes, ls.encoding)
        od.version = version if version is not None else od.version + 1
        settings = ls.state.folder_for(od.path).settings
        schedule(ls, od.uri, settings.debounce_ms)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    @guarded()
    def did_save(ls: SkillLanguageServer, params: t.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        od = ls.state.docs.get(uri)
        if od is None:
            return
        if params.text is not None:
            od.text = params.text
        ls.state.analyses.pop(uri, None)  # files next to it may have changed (links, license)
        schedule(ls, uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: SkillLanguageServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        od = ls.state.docs.pop(uri, None)
        ls.state.analyses.pop(uri, None)
        timer = ls.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
            ls.quiet.set()  # its analysis will not run: a scan need not wait for it
        if od is None:
            return
        close_document(ls, uri, od.path)

    @server.feature(t.TEXT_DOCUMENT_DIAGNOSTIC,
                    t.DiagnosticOptions(identifier="skill-lsp", inter_file_dependencies=True,
                                        workspace_diagnostics=True))
    @guarded(t.RelatedFullDocumentDiagnosticReport(items=[]))
    def pull_document(ls: SkillLanguageServer, params: t.DocumentDiagnosticParams):
        uri = params.text_document.uri
        od = ls.state.docs.get(uri)
        if od is not None:
            diags = open_diagnostics(ls, od)
        else:
            path = uri_to_path(uri)
            folder = ls.state.folder_for(path)
            result = folder.index.results.get(path) if folder.index is not None and path else None
            diags = closed_diagnostics(ls, result) if result is not None else []
        reported = pull.state(ls).doc_reported
        if diags:
            reported.add(uri)
        else:
            reported.discard(uri)
        return t.RelatedFullDocumentDiagnosticReport(items=diags)

    @server.feature(t.WORKSPACE_DIAGNOSTIC)
    @guarded(t.WorkspaceDiagnosticReport(items=[]))
    async def pull_workspace(ls: SkillLanguageServer, params: t.WorkspaceDiagnosticParams):
        return await pull.workspace_report(ls, params)
