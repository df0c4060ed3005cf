"""Closed files' diagnostics are written as JSON by the scan's workers (and kept in the result
cache); an opened file's by the server. Both must say the same, in every client flavour:
UTF-8 or UTF-16 positions, related information shown or not.

Every finding sits after non-ASCII text, so a position in the wrong encoding moves it; one
has related information in its own file (a duplicate key), one points into another file
(shadowing: written by the server from the index).
"""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import keep_every_publish, record_status, scan_done, wait_for

SKILL = ("---\nname: résumé\ndescription: Écrit 🚀 des CV. Use when writing one.\ndescription: again\n---\n"
         "Ünïcødé 🚀 see [the guide](references/gone.md).  \n"
         "Ça 😀 then [home](/etc/passwd) and trailing\t\n")
SHADOW = "---\nname: shared\ndescription: Shared 🚀 skill. Use when testing.\n---\n# Ça\n"
FLAVOURS = ["utf-16/related", "utf-8/related", "utf-16/plain", "utf-8/plain"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]),
                    params=FLAVOURS)
async def client(request, lsp_client: LanguageClient, tmp_path_factory):
    encoding, _, related = request.param.partition("/")
    ws = tmp_path_factory.mktemp("render") / "ws"
    for rel, text in {".claude/skills/résumé/SKILL.md": SKILL, ".claude/skills/shared/SKILL.md": SHADOW,
                      ".agents/skills/shared/SKILL.md": SHADOW}.items():
        (ws / rel).parent.mkdir(parents=True)
        (ws / rel).write_text(text, encoding="utf-8")
    lsp_client.ws = ws  # type: ignore[attr-defined]
    lsp_client.related = related == "related"  # type: ignore[attr-defined]
    lsp_client.published = keep_every_publish(lsp_client)  # type: ignore[attr-defined]
    record_status(lsp_client)

    caps = client_capabilities("neovim@v0.11.0")
    caps.general = t.GeneralClientCapabilities(position_encodings=[encoding])
    caps.text_document.publish_diagnostics.related_information = related == "related"
    result = await lsp_client.initialize_session(t.InitializeParams(
        capabilities=caps, workspace_folders=[t.WorkspaceFolder(uri=ws.as_uri(), name="ws")],
        initialization_options={"skillLsp": {"debounceMs": 0}}))
    assert result.capabilities.position_encoding == encoding
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    yield lsp_client
    await lsp_client.shutdown_session()


def _key(d: t.Diagnostic):
    return (d.range.start.line, d.range.start.character, d.code)


@pytest.mark.asyncio
@pytest.mark.parametrize("rel", [".claude/skills/résumé/SKILL.md", ".claude/skills/shared/SKILL.md"])
async def test_closed_file_diagnostics_equal_the_opened_files(client, rel: str):
    path = client.ws / rel
    doc_uri = path.as_uri()
    closed = [p for p in client.published if p.uri == doc_uri]
    assert closed, "the scan published the closed file"
    closed_diags = sorted(closed[-1].diagnostics, key=_key)
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=doc_uri, language_id="skill", version=7, text=path.read_text(encoding="utf-8"))))
    opened = await wait_for(lambda: [p for p in client.published if p.uri == doc_uri and p.version == 7], timeout=10)
    assert sorted(opened[-1].diagnostics, key=_key) == closed_diags
    codes = {d.code for d in closed_diags}
    assert {"DUPLICATE_KEY", "TRAILING_WHITESPACE"} <= codes or "SHADOWED" in codes
    related = [d for d in closed_diags if d.related_information]
    assert bool(related) == client.related
