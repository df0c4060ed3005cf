"""Fix-all (VS Code runs it on every save with `codeActionsOnSave`) is computed off the event loop
in one pass: other requests are answered while it runs, and a document changed meanwhile gets no
stale edit."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import record_status, scan_done, wait_for

GOOD = "---\nname: other\ndescription: Does a thing. Use when testing.\n---\n# Other\n"
VALUES = 10000
MANY = ("---\nname: many\ndescription: Use when testing.\n"
        + "".join(f"k{i}: part {i}: more\n" for i in range(VALUES)) + "---\n# Many\n")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    ws = tmp_path / "ws"
    for name, text in (("many", MANY), ("other", GOOD)):
        (ws / ".claude/skills" / name).mkdir(parents=True)
        (ws / ".claude/skills" / name / "SKILL.md").write_text(text)
    record_status(lsp_client)
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[t.WorkspaceFolder(uri=ws.as_uri(), name="ws")],
        initialization_options={"skillLsp": {"debounceMs": 0}}))
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    lsp_client.ws = ws  # type: ignore[attr-defined]
    yield lsp_client
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, version: int = 1) -> str:
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=path.as_uri(), language_id="skill", version=version, text=path.read_text())))
    return path.as_uri()


def _fix_all(client: LanguageClient, uri: str):
    return client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=t.Range(t.Position(0, 0), t.Position(0, 0)),
        context=t.CodeActionContext(diagnostics=[], only=["source.fixAll.skill-lsp"])))


@pytest.mark.asyncio
async def test_other_requests_are_answered_while_fix_all_runs(client):
    many = _open(client, client.ws / ".claude/skills/many/SKILL.md")
    other = _open(client, client.ws / ".claude/skills/other/SKILL.md")
    # A first hover loads the listing's modules once (the dialects, rapidfuzz): not what is timed here.
    await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=other), position=t.Position(1, 1)))
    order: list[str] = []
    fixing = asyncio.ensure_future(_fix_all(client, many))
    fixing.add_done_callback(lambda _: order.append("fix-all"))
    await asyncio.sleep(0.05)  # the fix-all request is in the server's hands
    hover = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=other), position=t.Position(1, 1)))
    order.append("hover")
    assert hover is not None and "name" in hover.contents.value.lower()
    actions = await asyncio.wait_for(fixing, 120)
    assert order == ["hover", "fix-all"]
    (action,) = actions
    new = action.edit.document_changes[0].edits[0].new_text
    assert new.count('"') == 2 * VALUES  # every value quoted in one fix-all


@pytest.mark.asyncio
async def test_a_document_changed_while_fixing_gets_no_stale_edit(client):
    path = client.ws / ".claude/skills/many/SKILL.md"
    uri = _open(client, path)
    fixing = asyncio.ensure_future(_fix_all(client, uri))
    await asyncio.sleep(0)  # the request is written; the change follows it at once
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangeWholeDocument(text=MANY + "typed\n")]))
    actions = await asyncio.wait_for(fixing, 120)
    for a in actions:  # either none, or one for the version the client has now
        assert a.edit.document_changes[0].text_document.version == 2
