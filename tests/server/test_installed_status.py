"""The status item names an installed harness release other than the one proven (a fake `claude`
on PATH answers `--version` with a newer release)."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import record_status, scan_done, wait_for

BIN = Path(tempfile.mkdtemp(prefix="skill-lsp-fake-harness-"))
(BIN / "claude").write_text("#!/bin/sh\necho '2.2.0 (Claude Code)'\n")
(BIN / "claude").chmod(0o755 | stat.S_IEXEC)
ENV = {**os.environ, "PATH": f"{BIN}{os.pathsep}/usr/bin:/bin"}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"],
                                              server_env=ENV))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    ws = tmp_path / "ws"
    (ws / ".claude/skills/demo").mkdir(parents=True)
    (ws / ".claude/skills/demo/SKILL.md").write_text("---\nname: demo\ndescription: Use when testing.\n---\n")
    record_status(lsp_client)
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[t.WorkspaceFolder(uri=ws.as_uri(), name="ws")]))
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_status_names_a_newer_installed_release(client):
    def installed():
        for _, params in reversed(client.notifications_seen):
            got = params.get("installed") if isinstance(params, dict) else getattr(params, "installed", None)
            if got:
                return got
        return None

    def field(entry, key):
        return entry[key] if isinstance(entry, dict) else getattr(entry, key)

    got = await wait_for(installed, timeout=30)
    entry = next(i for i in got if field(i, "harness") == "claude-code")
    assert (field(entry, "version"), field(entry, "proven"), field(entry, "differs")) == ("2.2.0", "2.1.332", True)
    status = await client.workspace_execute_command_async(t.ExecuteCommandParams(command="skill-lsp.status"))
    assert any(field(i, "harness") == "claude-code" and field(i, "differs") for i in field(status, "installed"))
