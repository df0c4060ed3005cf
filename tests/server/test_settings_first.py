"""A document opened right after start-up is published once, with the editor's settings.

The server reads the client's configuration (workspace/configuration) after `initialized`;
a didOpen that arrives meanwhile used to be published with the defaults first, so the
editor showed a finding change severity a moment later (seen in Emacs with eglot).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import keep_every_publish, uri, wait_for

TEXT = "---\nname: spaced\ndescription: Trailing blanks. Use when testing.\n---\nA line with a blank \n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    lsp_client.published = keep_every_publish(lsp_client)  # type: ignore[attr-defined]

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: t.RegistrationParams) -> None:
        return None

    lsp_client.scans_done = 0  # type: ignore[attr-defined]

    @lsp_client.feature("skillLsp/status")
    def on_status(params) -> None:
        if not getattr(params, "scanning", True):
            lsp_client.scans_done += 1  # type: ignore[attr-defined]

    lsp_client.set_configuration({"debounceMs": 0, "severity": {"TRAILING_WHITESPACE": "error"}},
                                 section="skillLsp")
    (tmp_path / "skills" / "spaced").mkdir(parents=True)
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    caps = client_capabilities("neovim@v0.11.0")  # pushes diagnostics, answers workspace/configuration
    assert caps.workspace is not None and caps.workspace.configuration
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=caps, workspace_folders=[t.WorkspaceFolder(uri=uri(tmp_path), name="ws")]))
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_a_document_opened_before_the_settings_arrive_is_published_with_them(client):
    path = client.root / "skills" / "spaced" / "SKILL.md"
    path.write_text(TEXT, encoding="utf-8")
    doc = uri(path)
    # Sent right after `initialized`, while the server still waits for the configuration.
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=doc, language_id="markdown", version=1, text=TEXT)))
    # The settings are read and the first scan is over: every publish of the file is in.
    await wait_for(lambda: client.scans_done and any(p.uri == doc for p in client.published))
    mine = [p for p in client.published if p.uri == doc]
    severities = {(d.code, d.severity) for p in mine for d in p.diagnostics}
    assert severities == {("TRAILING_WHITESPACE", t.DiagnosticSeverity.Error)}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def slow_client(lsp_client: LanguageClient, tmp_path: Path):
    """A client that takes a second to answer workspace/configuration (its dialect: opencode)."""

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: t.RegistrationParams) -> None:
        return None

    lsp_client.protocol.fm.features.pop(t.WORKSPACE_CONFIGURATION, None)  # pytest-lsp's own answers at once

    @lsp_client.feature(t.WORKSPACE_CONFIGURATION)
    async def on_configuration(params: t.ConfigurationParams) -> list:
        await asyncio.sleep(1.0)
        return [{"debounceMs": 0, "dialect": "opencode"} for _ in params.items]

    skill = tmp_path / ".claude" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: Does a thing. Use when testing.\n---\n# Demo\n",
                                    encoding="utf-8")
    lsp_client.skill = skill / "SKILL.md"  # type: ignore[attr-defined]
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("neovim@v0.11.0"),
        workspace_folders=[t.WorkspaceFolder(uri=uri(tmp_path), name="ws")]))
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_a_preview_asked_for_before_the_settings_arrive_uses_them(slow_client):
    # Asked right after `initialized`, while the configuration answer is a second away (seen in
    # the Neovim test: :SkillPreview rendered the default dialect, the next call the configured one).
    result = await slow_client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"uri": uri(slow_client.skill)}]))
    assert result["kind"] == "ok"
    assert result["dialect"] == "opencode"
