"""Workspace diagnostics pulled as VS Code pulls them: result ids, deltas, a held request.

vscode-languageclient sends workspace/diagnostic again 2 s after each answer, with the
result ids it holds and a partial-result token. The server answers what differs and holds
the request while nothing does (services/pull.py).
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import uuid
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SAMPLE, capabilities, record_status, scan_done, uri, wait_for

HELD_S = 1.0  # long enough to see a pull is not answered at once


@pytest.fixture
def pull_ws(tmp_path) -> Path:
    dest = tmp_path / "sample-workspace"
    shutil.copytree(SAMPLE, dest, symlinks=True)
    return dest


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient, pull_ws: Path):
    record_status(lsp_client)
    lsp_client.partials = {}  # type: ignore[attr-defined]

    features = lsp_client.protocol.fm.features
    work_done = features[t.PROGRESS]

    def on_progress(params) -> None:
        value = params.value if isinstance(params.value, dict) else {}
        if "items" in value:  # a partial result, not work-done progress
            lsp_client.partials.setdefault(params.token, []).extend(value["items"])  # type: ignore[attr-defined]
        else:
            work_done(params)

    features[t.PROGRESS] = on_progress

    lsp_client.set_configuration({"debounceMs": 0}, section="skillLsp")
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=capabilities("vscode-pull"),
        workspace_folders=[t.WorkspaceFolder(uri=uri(pull_ws), name="sample-workspace")],
        initialization_options={"skillLsp": {"debounceMs": 0}},
    ))
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    yield lsp_client
    if not getattr(lsp_client, "shut", False):
        await asyncio.wait_for(lsp_client.shutdown_session(), 10)


def pull(client: LanguageClient, known: dict[str, str], token: str | None = None, msg_id: str | None = None):
    params = t.WorkspaceDiagnosticParams(
        previous_result_ids=[t.PreviousResultId(uri=u, value=v) for u, v in known.items()],
        partial_result_token=token)
    return asyncio.ensure_future(client.protocol.send_request_async(t.WORKSPACE_DIAGNOSTIC, params, msg_id=msg_id))


def by_uri(report: t.WorkspaceDiagnosticReport) -> dict[str, t.WorkspaceFullDocumentDiagnosticReport]:
    return {r.uri: r for r in report.items}


async def held(future: asyncio.Future) -> bool:
    await asyncio.sleep(HELD_S)
    return not future.done()


def touch_event(path: Path, kind: t.FileChangeType) -> t.DidChangeWatchedFilesParams:
    return t.DidChangeWatchedFilesParams(changes=[t.FileEvent(uri=uri(path), type=kind)])


@pytest.mark.asyncio(loop_scope="function")
async def test_a_pull_answers_what_differs_and_is_held_while_nothing_does(client, pull_ws):
    first = by_uri(await asyncio.wait_for(pull(client, {}), 20))
    assert first and all(r.kind == "full" and r.result_id for r in first.values())
    assert all(r.items for r in first.values())  # clean files the client never had are left out
    known = {u: r.result_id for u, r in first.items()}

    waiting = pull(client, known)
    assert await held(waiting), "nothing changed, yet the pull was answered"

    # A clean skill on disk breaks: the held pull answers with that file alone.
    clean = pull_ws / ".claude/skills/pdf-toolkit/SKILL.md"
    assert uri(clean) not in known
    clean.write_text(clean.read_text(encoding="utf-8").replace("name: pdf-toolkit\n", "name: pdf-toolkit   \n", 1),
                     encoding="utf-8")
    client.workspace_did_change_watched_files(touch_event(clean, t.FileChangeType.Changed))
    second = by_uri(await asyncio.wait_for(waiting, 10))
    assert list(second) == [uri(clean)]
    assert [d.code for d in second[uri(clean)].items] == ["TRAILING_WHITESPACE"]
    known[uri(clean)] = second[uri(clean)].result_id

    # A skill the client has findings for is deleted: one empty report clears it, once.
    gone = pull_ws / ".claude/skills/name-mismatch/SKILL.md"
    assert uri(gone) in known
    shutil.rmtree(gone.parent)
    client.workspace_did_change_watched_files(touch_event(gone, t.FileChangeType.Deleted))
    third = by_uri(await asyncio.wait_for(pull(client, known), 10))
    assert list(third) == [uri(gone)] and list(third[uri(gone)].items) == []
    assert third[uri(gone)].result_id != known[uri(gone)]
    known[uri(gone)] = third[uri(gone)].result_id
    again = pull(client, known)
    assert await held(again), "a deleted file was reported again"
    again.cancel()


@pytest.mark.asyncio(loop_scope="function")
async def test_a_stale_result_id_gets_the_full_report_again(client, pull_ws):
    first = by_uri(await asyncio.wait_for(pull(client, {}), 20))
    some = next(iter(first))
    known = {u: r.result_id for u, r in first.items()}
    known[some] = "from-another-session.1"  # e.g. a restarted server's
    answer = by_uri(await asyncio.wait_for(pull(client, known), 10))
    assert list(answer) == [some]
    assert answer[some].result_id == first[some].result_id
    assert [d.code for d in answer[some].items] == [d.code for d in first[some].items]


@pytest.mark.asyncio(loop_scope="function")
async def test_partial_results_carry_the_reports_and_the_answer_is_empty(client, pull_ws):
    whole = by_uri(await asyncio.wait_for(pull(client, {}), 20))
    token = f"partial-{uuid.uuid4()}"
    answer = await asyncio.wait_for(pull(client, {}, token), 20)
    assert list(answer.items) == []
    streamed = {r["uri"]: r for r in client.partials[token]}
    assert set(streamed) == set(whole)
    for u, r in streamed.items():
        assert r["kind"] == "full" and r["version"] is None and r["resultId"] == whole[u].result_id
        assert [(d["code"], d["range"]) for d in r["items"]] == [
            (d.code, {"start": {"line": d.range.start.line, "character": d.range.start.character},
                      "end": {"line": d.range.end.line, "character": d.range.end.character}}) for d in whole[u].items]


@pytest.mark.asyncio(loop_scope="function")
async def test_an_open_document_is_reported_at_its_version(client, pull_ws):
    first = by_uri(await asyncio.wait_for(pull(client, {}), 20))
    known = {u: r.result_id for u, r in first.items()}
    path = pull_ws / ".claude/skills/name-mismatch/SKILL.md"
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=uri(path), language_id="markdown", version=7, text=text)))
    answer = by_uri(await asyncio.wait_for(pull(client, known), 10))
    assert answer[uri(path)].version == 7
    assert {d.code for d in answer[uri(path)].items} == {d.code for d in first[uri(path)].items}


@pytest.mark.asyncio(loop_scope="function")
async def test_a_held_pull_can_be_cancelled_and_shutdown_answers_one(client, pull_ws):
    first = by_uri(await asyncio.wait_for(pull(client, {}), 20))
    known = {u: r.result_id for u, r in first.items()}
    cancelled = pull(client, known, msg_id="held-1")
    assert await held(cancelled)
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id="held-1"))
    with pytest.raises(Exception, match="cancel"):
        await asyncio.wait_for(cancelled, 5)
    # The server still answers, and a pull held at shutdown is answered (empty), not dropped.
    symbols = await asyncio.wait_for(client.workspace_symbol_async(t.WorkspaceSymbolParams(query="pdf")), 5)
    assert symbols
    last = pull(client, known)
    assert await held(last)
    client.shut = True
    await asyncio.wait_for(client.shutdown_session(), 10)
    assert list((await asyncio.wait_for(last, 5)).items) == []
