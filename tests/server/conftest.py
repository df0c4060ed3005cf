"""pytest-lsp fixtures: the real server over stdio, under VS Code and Neovim capabilities.

Waits are predicates with timeouts (never fixed sleeps): `wait_for` polls the
client's received notifications until the predicate holds.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample-workspace"
CLIENTS = ["visual-studio-code", "neovim@v0.11.0", "vscode-pull"]


def capabilities(name: str) -> t.ClientCapabilities:
    if name == "vscode-pull":
        # VS Code 1.139 pulls diagnostics (textDocument/diagnostic + workspace/diagnostic).
        caps = client_capabilities("visual-studio-code")
        caps.text_document.diagnostic = t.DiagnosticClientCapabilities(related_document_support=True)
        caps.workspace.diagnostics = t.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        return caps
    return client_capabilities(name)


@pytest.fixture(scope="session")
def workspace(tmp_path_factory) -> Path:
    """A private copy of sample-workspace (symlinks kept, so OUTSIDE_WORKSPACE still shows)."""
    dest = tmp_path_factory.mktemp("ws") / "sample-workspace"
    shutil.copytree(SAMPLE, dest, symlinks=True)
    return dest


def uri(path: Path) -> str:
    return path.as_uri()


async def wait_for(predicate, timeout: float = 10.0, interval: float = 0.01):
    """Poll until ``predicate()`` is truthy; return its value or fail after ``timeout`` seconds."""
    async def poll():
        while True:
            value = predicate()
            if value:
                return value
            await asyncio.sleep(interval)
    return await asyncio.wait_for(poll(), timeout)


def diagnostics_for(client: LanguageClient, doc_uri: str, version: int | None = None):
    """Latest pushed diagnostics for a URI (optionally of exactly ``version``)."""
    for params in reversed(client.diagnostics_history if hasattr(client, "diagnostics_history") else []):
        if params.uri == doc_uri and (version is None or params.version == version):
            return params
    return None


def keep_every_publish(lsp_client: LanguageClient) -> list[t.PublishDiagnosticsParams]:
    """Every publishDiagnostics the client receives (with its version), not only the latest per URI."""
    published: list[t.PublishDiagnosticsParams] = []
    features = lsp_client.protocol.fm.features
    default_publish = features[t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def on_diagnostics(params: t.PublishDiagnosticsParams) -> None:
        published.append(params)
        default_publish(params)

    features[t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_diagnostics
    return published


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]),
    params=CLIENTS,
)
async def client(request, lsp_client: LanguageClient, workspace: Path):
    lsp_client.diagnostics_history = keep_every_publish(lsp_client)  # type: ignore[attr-defined]
    lsp_client.notifications_seen = []  # type: ignore[attr-defined]

    @lsp_client.feature("skillLsp/status")
    def on_status(params) -> None:
        lsp_client.notifications_seen.append(("skillLsp/status", params))  # type: ignore[attr-defined]

    lsp_client.registrations = []  # type: ignore[attr-defined]

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: t.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    lsp_client.set_configuration({"debounceMs": 0}, section="skillLsp")

    lsp_client.client_name = request.param  # type: ignore[attr-defined]
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=capabilities(request.param),
        workspace_folders=[t.WorkspaceFolder(uri=uri(workspace), name="sample-workspace")],
        initialization_options={"skillLsp": {"debounceMs": 0}},
    ))
    yield lsp_client
    await asyncio.wait_for(lsp_client.shutdown_session(), 10)


def record_status(lsp_client: LanguageClient) -> None:
    """Keep skillLsp/status notifications (``scan_done`` reads them) and accept registrations."""
    lsp_client.notifications_seen = []  # type: ignore[attr-defined]

    @lsp_client.feature("skillLsp/status")
    def on_status(params) -> None:
        lsp_client.notifications_seen.append(("skillLsp/status", params))  # type: ignore[attr-defined]

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: t.RegistrationParams) -> None:
        pass


def scan_done(client: LanguageClient) -> bool:
    """A skillLsp/status notification that reports a finished workspace scan has arrived."""
    for _, params in getattr(client, "notifications_seen", []):
        scanning = params.get("scanning") if isinstance(params, dict) else getattr(params, "scanning", None)
        if scanning is False:
            return True
    return False
