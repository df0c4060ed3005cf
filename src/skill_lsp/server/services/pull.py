"""Workspace diagnostics for clients that pull them (VS Code): result ids, deltas, a held request.

vscode-languageclient asks for workspace diagnostics again 2 s after each answer, for as long
as the server runs. Answering every pull with every file's diagnostics kept the event loop
busy for ~4 s a pull on 10,000 skills (23 MB of JSON), again every ~6 s, with keystrokes
waiting behind it. Now each file's report carries a result id, and a pull answers only the
files whose diagnostics differ from the ids the client sends. While none differ the request
is held (LSP 3.17 lets a workspace pull run long) until diagnostics change, the client
cancels it, or HOLD_S pass. Reports go out in chunks, as partial results where the client
takes them, with a turn of the event loop between chunks.
"""

from __future__ import annotations

import asyncio
import time
import uuid

from lsprotocol import types as t

from ..server import SkillLanguageServer
from ..uris import path_to_uri
from . import publish

HOLD_S = 300.0
# Event-loop time one chunk of reports may take before a keystroke gets its turn.
TURN_S = 0.002


class WorkspacePull:
    """Which result id each file's diagnostics have, and a signal for a held pull."""

    def __init__(self) -> None:
        # uri -> (whose diagnostics: open document or checked result, its version, cross-skill
        # and graph findings, result id). The owner is held, not its id(): a freed object's id
        # can come back for another one.
        self.ids: dict[str, tuple[object, int | None, tuple, tuple, str]] = {}
        # A new server must never repeat an id an earlier one gave the same client.
        self._session = uuid.uuid4().hex[:8]
        self._serial = 0
        self.generation = 0
        self._event: asyncio.Event | None = None
        # Closed files a document pull reported findings for. VS Code pulls a document once more
        # as it closes and keeps that report; when the file then vanishes (a rename moved it), the
        # workspace pull must clear it, though the client never lists it as a previous result.
        self.doc_reported: set[str] = set()

    def changed(self) -> None:
        """Some file's diagnostics may differ now: a held pull looks again."""
        self.generation += 1
        if self._event is not None:
            self._event.set()
            self._event = None

    async def wait(self, since: int, timeout: float) -> None:
        """Until ``changed()`` after generation ``since``, or ``timeout`` seconds."""
        if self.generation != since or timeout <= 0:
            return
        if self._event is None:
            self._event = asyncio.Event()
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            pass

    def result_id(self, uri: str, owner: object, version: int | None, cross: tuple, graph: tuple) -> str:
        old = self.ids.get(uri)
        if old is not None and old[0] is owner and old[1] == version and old[2] == cross and old[3] == graph:
            return old[4]
        self._serial += 1
        rid = f"{self._session}.{self._serial}"
        self.ids[uri] = (owner, version, cross, graph, rid)
        return rid


def state(ls: SkillLanguageServer) -> WorkspacePull:
    if ls.workspace_pull is None:
        ls.workspace_pull = WorkspacePull()
    return ls.workspace_pull


async def workspace_report(ls: SkillLanguageServer, params: t.WorkspaceDiagnosticParams) -> t.WorkspaceDiagnosticReport:
    """What differs from the client's result ids; held while nothing does."""
    pull = state(ls)
    known = {p.uri: p.value for p in params.previous_result_ids or ()}
    token = params.partial_result_token
    deadline = time.monotonic() + HOLD_S
    while True:
        since = pull.generation
        items = await _delta(ls, pull, known, token)
        if items is not None or ls.shutting_down or time.monotonic() >= deadline:
            break
        await pull.wait(since, deadline - time.monotonic())
    # Streamed reports went out as partial results: the answer itself is then empty.
    return t.WorkspaceDiagnosticReport(items=items or [])


async def _delta(ls: SkillLanguageServer, pull: WorkspacePull, known: dict[str, str],
                 token: int | str | None) -> list | None:
    """The reports the client lacks (streamed under ``token`` when given: [] then); None when
    there are none."""
    out: list = []
    sent = 0
    seen: set[str] = set()
    turn = time.perf_counter()
    for folder in list(ls.state.folders):
        index = folder.index
        if index is None:
            continue
        for path, result in list(index.results.items()):
            uri = path_to_uri(path)
            seen.add(uri)
            report = _report(ls, pull, uri, result, known.get(uri), token is not None)
            if report is not None:
                out.append(report)
            if time.perf_counter() - turn > TURN_S:
                if token is not None and out:
                    sent += _stream(ls, token, out)
                    out = []
                await asyncio.sleep(0)
                if ls.shutting_down:
                    return None
                turn = time.perf_counter()
    # Files the client has reports for that are no skill any more (deleted, moved, out of
    # the roots): an empty report clears them, once (the id stays while they are gone).
    for uri, value in known.items():
        if uri not in seen:
            rid = pull.result_id(uri, None, None, (), ())
            if rid != value:
                out.append(_full(uri, rid, None, [], token is not None))
    # Files a document pull reported on, gone since: cleared once.
    for uri in [u for u in pull.doc_reported if u not in seen and u not in known and u not in ls.state.docs]:
        pull.doc_reported.discard(uri)
        out.append(_full(uri, pull.result_id(uri, None, None, (), ()), None, [], token is not None))
    # Files gone that the client has no report of: forgotten, so their results are not kept alive.
    for uri in [u for u in pull.ids if u not in seen and u not in known and u not in pull.doc_reported]:
        del pull.ids[uri]
    if token is not None and out:
        sent += _stream(ls, token, out)
        out = []
    return out if out or sent else None


def _report(ls: SkillLanguageServer, pull: WorkspacePull, uri: str, result, previous: str | None,
            as_json: bool):
    od = ls.state.docs.get(uri)
    cross, graph = tuple(result.cross), tuple(result.graph)
    if od is not None:
        rid = pull.result_id(uri, od, od.version, cross, graph)
        if rid == previous:
            return None
        diags = publish.open_diagnostics(ls, od, as_json=as_json)
        version = od.version
    else:
        rid = pull.result_id(uri, result, None, cross, graph)
        if rid == previous or (previous is None and not result.reportable):
            return None  # what the client has, or clean and never reported
        diags = publish.closed_diagnostics(ls, result, as_json=as_json)
        version = None
    return _full(uri, rid, version, diags, as_json)


def _full(uri: str, rid: str, version: int | None, diags: list, as_json: bool):
    if as_json:
        return {"kind": "full", "uri": uri, "version": version, "resultId": rid, "items": diags}
    return t.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=diags, version=version, result_id=rid)


def _stream(ls: SkillLanguageServer, token: int | str, reports: list[dict]) -> int:
    """Send reports as one partial result (plain JSON: no lsprotocol objects for thousands)."""
    if not ls.shutting_down:
        ls.protocol._send_data({"jsonrpc": "2.0", "method": t.PROGRESS,  # noqa: SLF001
                                "params": {"token": token, "value": {"items": reports}}})
    return len(reports)
