"""Building diagnostics (open buffers and closed files alike) and sending them, push or pull."""

from __future__ import annotations

import asyncio
import inspect
import json
import os

from lsprotocol import types as t

from ...engine import suppress
from ...engine.aliases import kept
from ...engine.text import SourceText
from ...engine.workspace import SkillResult
from .. import convert
from ..server import SkillLanguageServer
from ..state import OpenDoc
from ..uris import path_to_uri


def related_support(ls: SkillLanguageServer) -> bool:
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


def open_findings(ls: SkillLanguageServer, od: OpenDoc) -> list:
    """What is reported of an open document: its findings and its cross-skill ones from the index,
    through selection, per-file ignores and its suppressions (``suppress.shown``)."""
    analysis = ls.state.analyse(od)
    folder = ls.state.folder_for(od.path)
    if od.path is not None and folder.excludes(od.path):
        return []  # `exclude`: as if it were no skill
    findings = list(analysis.findings)
    indexed = folder.index.results.get(od.path) if folder.index is not None and od.path is not None else None
    if indexed is not None:
        findings += indexed.cross + indexed.graph
    # Unused suppressions: all of them once the index has its cross-skill findings; a buffer the
    # scan does not list (or has not reached) leaves those codes alone; an unsaved one, all.
    on_disk = od.path is not None and os.path.isdir(os.path.dirname(od.path))
    scope = "all" if indexed is not None else "local" if on_disk else "none"
    return suppress.shown(findings, suppress.scan(analysis.doc), folder.settings, od.path, scope)


def open_diagnostics(ls: SkillLanguageServer, od: OpenDoc, *, as_json: bool = False) -> list:
    """Diagnostics of an open document (lsprotocol objects, or their JSON form)."""
    findings = open_findings(ls, od)
    analysis = ls.state.analyse(od)
    enc = ls.encoding
    sources = _sources(ls, od.path, findings)
    sources[od.path or od.uri] = analysis.doc.src
    rel = related_support(ls)
    make = convert.diagnostic_json if as_json else convert.diagnostic
    return [make(f, analysis.doc.src, enc, sources, rel) for f in findings]


def closed_diagnostics(ls: SkillLanguageServer, result: SkillResult, *, as_json: bool = False,
                       scope: str = "all") -> list:
    """Diagnostics of a skill file that is not open (lsprotocol objects, or their JSON form).
    ``scope``: "local" while a scan has not computed cross-skill findings yet (suppress.shown)."""
    src = result.doc.src if result.doc is not None else result.src
    if src is None:
        src = SourceText("")
    folder = ls.state.folder_for(result.path)
    findings = result.shown(folder.settings, scope)
    group = places(folder, result.path)
    if group is not None:
        # One file at several places: each problem once, where it is graded worst (engine/aliases.py).
        findings = kept([(m, findings if m is result else m.shown(ls.state.folder_for(m.path).settings, scope))
                         for m in group])[id(result)]
    sources = _sources(ls, result.path, findings)
    sources[result.path] = src
    make = convert.diagnostic_json if as_json else convert.diagnostic
    return [make(f, src, ls.encoding, sources, related_support(ls)) for f in findings]


def places(folder, path: str) -> list[SkillResult] | None:
    """The places of the file at ``path`` when it has more than one (None: nearly always)."""
    index = folder.index
    return index.places.group(index.results, path) if index is not None else None


def publish_open(ls: SkillLanguageServer, uri: str) -> None:
    od = ls.state.docs.get(uri)
    if od is None or ls.pull_mode or not ls.settings_ready:
        return  # (not ready: published when the client's settings are read)
    # As JSON: building lsprotocol objects and unstructuring them took 0.3 ms of a keystroke.
    send(ls, uri, open_diagnostics(ls, od, as_json=True), od.version)


def publish_path(ls: SkillLanguageServer, path: str) -> None:
    """(Re)publish one skill by path: from its open document if open, else from the index."""
    uri = path_to_uri(path)
    if uri in ls.state.docs:
        publish_open(ls, uri)
        return
    if ls.pull_mode:
        pulled_changed(ls)
        return  # the client pulls workspace diagnostics; pushing would show them twice
    folder = ls.state.folder_for(path)
    result = folder.index.results.get(path) if folder.index is not None else None
    if result is not None:
        publish_result(ls, result)
    else:
        clear(ls, uri)


def publish_result(ls: SkillLanguageServer, result: SkillResult, scope: str = "all") -> None:
    """Publish a skill file that is not open, from its checked result (``scope``: as for
    ``closed_diagnostics``)."""
    if ls.shutting_down:
        return
    rendered = ls.state.folder_for(result.path).rendered.pop(result.path, None)
    # What a worker rendered holds while no cross-skill finding came since, and no suppression
    # waits for them (scanjob.render leaves those to the server).
    if rendered is not None and rendered[0] is result and not result.cross and not result.graph \
            and places(ls.state.folder_for(result.path), result.path) is None:
        # Written by a scan worker for exactly this result: only the framing is left.
        publish_rendered(ls, path_to_uri(result.path), rendered[1])
        return
    send(ls, path_to_uri(result.path), closed_diagnostics(ls, result, as_json=True, scope=scope))


def publish_rendered(ls: SkillLanguageServer, uri: str, diagnostics: str) -> None:
    """Publish diagnostics a scan worker wrote as JSON (the array's inside): only the framing is left."""
    if ls.shutting_down:
        return
    _write(ls, f'{{"jsonrpc": "2.0", "method": "{t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}", "params": {{"uri": '
               f'{json.dumps(uri)}, "diagnostics": [{diagnostics}]}}}}')


def _write(ls: SkillLanguageServer, body: str) -> None:
    """Frame and write one message (as pygls does for the messages it encodes itself)."""
    proto = ls.protocol
    data = body.encode("utf-8")
    if proto._include_headers:  # noqa: SLF001
        data = (f"Content-Length: {len(data)}\r\nContent-Type: {proto.CONTENT_TYPE}; charset={proto.CHARSET}"
                f"\r\n\r\n").encode("ascii") + data
    if proto.writer is not None:
        res = proto.writer.write(data)
        if inspect.isawaitable(res):  # a websocket writer
            asyncio.ensure_future(res)


def clear(ls: SkillLanguageServer, uri: str) -> None:
    if not ls.pull_mode:
        send(ls, uri, [])
    else:
        pulled_changed(ls)


def send(ls: SkillLanguageServer, uri: str, diags: list, version: int | None = None) -> None:
    # Sent as plain JSON: a scan publishes thousands of these, and building then
    # unstructuring lsprotocol objects was most of the time after the scan itself.
    if ls.shutting_down:
        return
    params: dict = {"uri": uri, "diagnostics": diags}
    if version is not None:
        params["version"] = version
    ls.protocol._send_data({"jsonrpc": "2.0", "method": t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,  # noqa: SLF001
                            "params": params})


def request_refresh(ls: SkillLanguageServer) -> None:
    """Ask a pulling client to pull again (other files' diagnostics changed), and code lenses."""
    if ls.pull_mode:
        pulled_changed(ls)
        ls.workspace_diagnostic_refresh(None)
    lens_refresh(ls)


def lens_refresh(ls: SkillLanguageServer) -> None:
    """Code lenses say what harnesses do with a skill among the others (listing decisions): ask the
    client to request them again when the others changed."""
    ws = ls.client_capabilities.workspace if ls.client_capabilities else None
    if ws is not None and ws.code_lens is not None and ws.code_lens.refresh_support:
        ls.workspace_code_lens_refresh(None)


def pulled_changed(ls: SkillLanguageServer) -> None:
    """A held workspace pull (services/pull.py) looks again: some closed file may differ."""
    if ls.workspace_pull is not None:
        ls.workspace_pull.changed()


def skill_count(ls: SkillLanguageServer) -> int:
    return sum(len(f.index.results) for f in ls.state.folders if f.index is not None)


def status(ls: SkillLanguageServer, scanning: bool = False) -> None:
    """The status item: profile and skill count (the count `check .` prints for the same folders)."""
    settings = ls.state.folders[0].settings if ls.state.folders else ls.state.default.settings
    try:
        # `targets` empty: inferred per skill from its root.
        ls.protocol.notify("skillLsp/status", {"profile": settings.profile, "targets": list(settings.targets),
                                               "skills": skill_count(ls), "scanning": scanning,
                                               "installed": ls.installed})
    except Exception:  # noqa: BLE001
        pass
