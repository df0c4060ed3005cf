"""Workspace folders beyond one: nested folders, folders added and removed while running, and a
closed file whose only finding is cross-skill (UNKNOWN_SKILL), published after the scan."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import keep_every_publish, record_status, scan_done, wait_for

DEPLOY = "---\nname: deploy\ndescription: Ships the build. Use when releasing.\n---\n# Deploy\n"
TYPO = "---\nname: caller\ndescription: Calls deploy. Use when testing.\n---\nRun `/deplyo` first.\n"
BROKEN = "---\nname: broken\ndescription: [unclosed\n---\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def last(client: LanguageClient, path: Path) -> list[str] | None:
    ps = [p for p in client.published if p.uri == path.as_uri()]  # type: ignore[attr-defined]
    return [d.code for d in ps[-1].diagnostics] if ps else None


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    record_status(lsp_client)
    lsp_client.published = keep_every_publish(lsp_client)  # type: ignore[attr-defined]
    yield lsp_client
    await lsp_client.shutdown_session()


def finished(client: LanguageClient) -> int:
    """How many scans reported their end: skillLsp/status going from scanning true to false (other
    status updates, such as the installed harnesses found after the first scan, say false too)."""
    ends, scanning = 0, False
    for _, p in client.notifications_seen:  # type: ignore[attr-defined]
        now = p.get("scanning") if isinstance(p, dict) else getattr(p, "scanning", None)
        ends += bool(scanning and now is False)
        scanning = now is True or (scanning and now is None)
    return ends


async def start(client: LanguageClient, folders: list[Path]) -> None:
    await client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[t.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
        initialization_options={"skillLsp": {"debounceMs": 0}}))
    await wait_for(lambda: scan_done(client), timeout=30)


@pytest.mark.asyncio
async def test_a_closed_file_whose_only_finding_is_cross_skill_is_published(client, tmp_path: Path):
    ws = tmp_path / "ws"
    write(ws / ".claude/skills/deploy/SKILL.md", DEPLOY)
    caller = write(ws / ".claude/skills/caller/SKILL.md", TYPO)
    await start(client, [ws])
    await wait_for(lambda: last(client, caller) == ["UNKNOWN_SKILL"], timeout=20)


@pytest.mark.asyncio
async def test_a_closed_file_published_early_is_published_again_with_its_cross_skill_finding(client, tmp_path: Path):
    # Its own finding (trailing whitespace) goes out while the scan runs; UNKNOWN_SKILL is only
    # known once every skill is: the file must be sent again, with both.
    ws = tmp_path / "ws"
    write(ws / ".claude/skills/deploy/SKILL.md", DEPLOY)
    caller = write(ws / ".claude/skills/caller/SKILL.md", TYPO.replace("first.\n", "first. \n"))
    await start(client, [ws])
    await wait_for(lambda: sorted(last(client, caller) or []) == ["TRAILING_WHITESPACE", "UNKNOWN_SKILL"],
                   timeout=20)
    sent = [sorted(d.code for d in p.diagnostics) for p in client.published  # type: ignore[attr-defined]
            if p.uri == caller.as_uri()]
    assert sent[0] == ["TRAILING_WHITESPACE"]  # the early publish this is about


@pytest.mark.asyncio
async def test_nested_folders_each_own_their_skills(client, tmp_path: Path):
    outer = tmp_path / "outer"
    inner = outer / "packages" / "inner"
    a = write(outer / ".claude/skills/a/SKILL.md", BROKEN.replace("broken", "a"))
    b = write(inner / ".claude/skills/b/SKILL.md", BROKEN.replace("broken", "b"))
    await start(client, [outer, inner])
    await wait_for(lambda: last(client, a) and last(client, b), timeout=20)
    # Each file is published once per scan, by the folder that owns it (the innermost).
    assert last(client, b) == ["INVALID_FRONTMATTER"] and last(client, a) == ["INVALID_FRONTMATTER"]
    got = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query=""))
    assert sorted(s.location.uri for s in got) == sorted({a.as_uri(), b.as_uri()})


@pytest.mark.asyncio
async def test_folders_added_and_removed_while_running(client, tmp_path: Path):
    one, two = tmp_path / "one", tmp_path / "two"
    write(one / ".claude/skills/deploy/SKILL.md", DEPLOY)
    broken = write(two / ".claude/skills/broken/SKILL.md", BROKEN)
    await start(client, [one])
    assert last(client, broken) is None
    scans = finished(client)
    client.workspace_did_change_workspace_folders(t.DidChangeWorkspaceFoldersParams(event=t.WorkspaceFoldersChangeEvent(
        added=[t.WorkspaceFolder(uri=two.as_uri(), name="two")], removed=[])))
    # A scan publishes a file's diagnostics as soon as it is checked, and puts its index (what
    # symbols are answered from) in place once every skill is: symbols are asked after it ends.
    await wait_for(lambda: last(client, broken) == ["INVALID_FRONTMATTER"] and finished(client) > scans, timeout=20)
    got = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query=""))
    assert sorted(s.name for s in got) == ["broken", "deploy"]
    scans = finished(client)
    client.workspace_did_change_workspace_folders(t.DidChangeWorkspaceFoldersParams(event=t.WorkspaceFoldersChangeEvent(
        added=[], removed=[t.WorkspaceFolder(uri=two.as_uri(), name="two")])))
    # its diagnostics go with it
    await wait_for(lambda: last(client, broken) == [] and finished(client) > scans, timeout=20)
    got = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query=""))
    assert [s.name for s in got] == ["deploy"]
