"""Diagnostics: open/change/save/close, debounced and version-guarded; push and pull."""

from __future__ import annotations

import asyncio

from lsprotocol import types as t

from ...engine.workspace import SkillResult
from .. import convert
from ..server import SkillLanguageServer, guarded
from ..state import OpenDoc
from ..uris import is_skill_file, path_to_uri, uri_to_path


def _related_support(ls: SkillLanguageServer) -> bool:
    caps = ls.client_capabilities.text_document
    pd = caps.publish_diagnostics if caps else None
    return bool(pd and pd.related_information)


def _sources(ls: SkillLanguageServer, path: str | None, findings: list) -> dict:
    """Texts (or position tables) of the files the findings' related information points at."""
    folder = ls.state.folder_for(path)
    out = {}
    if folder.index is not None:
        for p in {r.path for f in findings for r in f.related}:
            result = folder.index.results.get(p)
            src = None if result is None else result.doc.src if result.doc is not None else result.src
            if src is not None:
                out[p] = src
    return out


def open_diagnostics(ls: SkillLanguageServer, od: OpenDoc) -> list[t.Diagnostic]:
    """Diagnostics of an open document: its findings plus cross-skill findings from the index."""
    analysis = ls.state.analyse(od)
    folder = ls.state.folder_for(od.path)
    findings = list(analysis.findings)
    if folder.index is not None and od.path is not None:
        indexed = folder.index.results.get(od.path)
        if indexed is not None:
            findings += indexed.cross
    enc = ls.encoding
    sources = _sources(ls, od.path, findings)
    sources[od.path or od.uri] = analysis.doc.src
    rel = _related_support(ls)
    findings.sort(key=lambda f: (f.start, f.end, f.code))
    return [convert.diagnostic(f, analysis.doc.src, enc, sources, rel) for f in findings]


def closed_diagnostics(ls: SkillLanguageServer, result: SkillResult, *, as_json: bool = False) -> list:
    """Diagnostics of a skill file that is not open (lsprotocol objects, or their JSON form)."""
    src = result.doc.src if result.doc is not None else result.src
    if src is None:
        from ...engine.text import SourceText  # noqa: PLC0415

        src = SourceText("")
    findings = result.all_findings
    sources = _sources(ls, result.path, findings)
    sources[result.path] = src
    make = convert.diagnostic_json if as_json else convert.diagnostic
    return [make(f, src, ls.encoding, sources, _related_support(ls)) for f in findings]


def publish_open(ls: SkillLanguageServer, uri: str) -> None:
    od = ls.state.docs.get(uri)
    if od is None or ls.pull_mode:
        return
    diags = open_diagnostics(ls, od)
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=od.version))


def publish_path(ls: SkillLanguageServer, path: str) -> None:
    """(Re)publish one skill by path: from its open document if open, else from the index."""
    uri = path_to_uri(path)
    if uri in ls.state.docs:
        publish_open(ls, uri)
        return
    if ls.pull_mode:
        return  # the client pulls workspace diagnostics; pushing would show them twice
    folder = ls.state.folder_for(path)
    result = folder.index.results.get(path) if folder.index is not None else None
    if result is not None:
        publish_result(ls, result)
    else:
        _send_diagnostics(ls, uri, [])


def publish_result(ls: SkillLanguageServer, result: SkillResult) -> None:
    """Publish a skill file that is not open, from its checked result."""
    _send_diagnostics(ls, path_to_uri(result.path), closed_diagnostics(ls, result, as_json=True))


def _send_diagnostics(ls: SkillLanguageServer, uri: str, diags: list) -> None:
    # Sent as plain JSON: a scan publishes thousands of these, and building then
    # unstructuring lsprotocol objects was most of the time after the scan itself.
    ls.protocol._send_data({"jsonrpc": "2.0", "method": t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,  # noqa: SLF001
                            "params": {"uri": uri, "diagnostics": diags}})


def refresh(ls: SkillLanguageServer, uri: str) -> None:
    """Analyse the newest version of an open document, update the index, publish what changed."""
    ls.timers.pop(uri, None)
    od = ls.state.docs.get(uri)
    if od is None:
        return
    analysis = ls.state.analyse(od)
    touched: set[str] = set()
    folder = ls.state.folder_for(od.path)
    if folder.index is not None and od.path is not None:
        touched = folder.index.put(ls.state.result_for(od, analysis))
    publish_open(ls, uri)
    for path in touched:
        publish_path(ls, path)
    if touched:
        request_refresh(ls)


def request_refresh(ls: SkillLanguageServer) -> None:
    """Ask a pulling client to pull again (other files' diagnostics changed)."""
    if ls.pull_mode:
        ls.workspace_diagnostic_refresh(None)


def schedule(ls: SkillLanguageServer, uri: str, delay_ms: int) -> None:
    """Debounce per URI: only the newest version is ever analysed."""
    old = ls.timers.pop(uri, None)
    if old is not None:
        old.cancel()
    loop = asyncio.get_event_loop()
    if delay_ms <= 0:
        ls.timers[uri] = loop.call_soon(refresh, ls, uri)  # type: ignore[assignment]
    else:
        ls.timers[uri] = loop.call_later(delay_ms / 1000, refresh, ls, uri)


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
        for change in params.content_changes:
            if isinstance(change, t.TextDocumentContentChangeWholeDocument) or getattr(change, "range", None) is None:
                od.text = change.text
            else:  # a client that ignores our Full sync: apply the range with our own line index
                from ...engine.text import SourceText  # noqa: PLC0415

                src = SourceText(od.text)
                enc = ls.encoding
                s = convert.offset(src, change.range.start, enc)
                e = convert.offset(src, change.range.end, enc)
                od.text = od.text[:s] + change.text + od.text[max(s, e):]
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
        if od is None:
            return
        # Back to the file on disk: the index forgets the unsaved text.
        from .scan import reindex_path  # noqa: PLC0415

        if od.path is not None and reindex_path(ls, od.path):
            publish_path(ls, od.path)
        elif not ls.pull_mode:
            ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

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
        return t.RelatedFullDocumentDiagnosticReport(items=diags)

    @server.feature(t.WORKSPACE_DIAGNOSTIC)
    @guarded(t.WorkspaceDiagnosticReport(items=[]))
    def pull_workspace(ls: SkillLanguageServer, params: t.WorkspaceDiagnosticParams):
        items: list = []
        for folder in ls.state.folders:
            if folder.index is None:
                continue
            for path, result in folder.index.results.items():
                uri = path_to_uri(path)
                od = ls.state.docs.get(uri)
                diags = open_diagnostics(ls, od) if od is not None else closed_diagnostics(ls, result)
                items.append(t.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, items=diags, version=od.version if od is not None else None))
        return t.WorkspaceDiagnosticReport(items=items)
