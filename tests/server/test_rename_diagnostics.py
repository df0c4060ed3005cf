"""After a rename moves a skill's folder, nothing is left for the old paths, in push and in pull
mode, whether the client reports the move with file events, with workspace/didRenameFiles, or both.

The sequence is VS Code's for F2: the rename edit's text changes are written first (the old folder
then holds a SKILL.md named 'ship': NAME_MISMATCH), then the folder moves.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import capabilities, keep_every_publish, record_status, scan_done, wait_for

DEPLOY = "---\nname: deploy\ndescription: Ships the build. Use when releasing.\n---\n# Deploy\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]),
                    params=["visual-studio-code", "vscode-pull"])
async def client(request, lsp_client: LanguageClient, tmp_path: Path):
    ws = tmp_path / "ws"
    (ws / ".claude/skills/deploy").mkdir(parents=True)
    (ws / ".claude/skills/deploy/SKILL.md").write_text(DEPLOY)
    record_status(lsp_client)
    lsp_client.published = keep_every_publish(lsp_client)  # type: ignore[attr-defined]
    lsp_client.pull = request.param == "vscode-pull"  # type: ignore[attr-defined]
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=capabilities(request.param),
        workspace_folders=[t.WorkspaceFolder(uri=ws.as_uri(), name="ws")],
        initialization_options={"skillLsp": {"debounceMs": 0}}))
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    lsp_client.ws = ws  # type: ignore[attr-defined]
    yield lsp_client
    await lsp_client.shutdown_session()


async def _workspace_pull(client: LanguageClient, known: dict[str, str]) -> dict[str, list]:
    report = await asyncio.wait_for(client.protocol.send_request_async(t.WORKSPACE_DIAGNOSTIC, t.WorkspaceDiagnosticParams(
        previous_result_ids=[t.PreviousResultId(uri=u, value=v) for u, v in known.items()])), 30)
    return {r.uri: [d.code for d in r.items] for r in report.items}


@pytest.mark.asyncio
@pytest.mark.parametrize("report", ["did-rename", "watcher", "both"])
async def test_old_paths_are_cleared_after_the_folder_moves(client, report: str):
    ws = client.ws
    old_md = ws / ".claude/skills/deploy/SKILL.md"
    old_uri = old_md.as_uri()
    old_md.write_text(DEPLOY.replace("name: deploy", "name: ship"))  # the edit's text change, written
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
        t.FileEvent(uri=old_uri, type=t.FileChangeType.Changed)]))
    if client.pull:
        async def mismatch() -> bool:
            got = await client.text_document_diagnostic_async(t.DocumentDiagnosticParams(
                text_document=t.TextDocumentIdentifier(uri=old_uri)))
            return any(d.code == "NAME_MISMATCH" for d in got.items)
        deadline = asyncio.get_running_loop().time() + 20
        while not await mismatch():  # VS Code's last pull of the document as it closes
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.05)
    else:
        await wait_for(lambda: any(p.uri == old_uri and any(d.code == "NAME_MISMATCH" for d in p.diagnostics)
                                   for p in client.published), timeout=20)
    new_dir = ws / ".claude/skills/ship"
    (ws / ".claude/skills/deploy").rename(new_dir)
    if report in ("did-rename", "both"):
        client.workspace_did_rename_files(t.RenameFilesParams(files=[t.FileRename(
            old_uri=(ws / ".claude/skills/deploy").as_uri(), new_uri=new_dir.as_uri())]))
    if report in ("watcher", "both"):
        client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
            t.FileEvent(uri=old_uri, type=t.FileChangeType.Deleted),
            t.FileEvent(uri=(new_dir / "SKILL.md").as_uri(), type=t.FileChangeType.Created)]))
    if client.pull:
        deadline = asyncio.get_running_loop().time() + 20
        while True:
            got = await _workspace_pull(client, {})
            if got.get(old_uri) == []:
                break
            assert asyncio.get_running_loop().time() < deadline, got
            await asyncio.sleep(0.1)
        assert (new_dir / "SKILL.md").as_uri() not in got or got[(new_dir / "SKILL.md").as_uri()] == []
    else:
        def last(uri: str):
            ps = [p for p in client.published if p.uri == uri]
            return list(ps[-1].diagnostics) if ps else None
        await wait_for(lambda: last(old_uri) == [], timeout=20)
        assert last((new_dir / "SKILL.md").as_uri()) in (None, [])
