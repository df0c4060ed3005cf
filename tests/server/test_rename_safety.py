"""Rename never loses data: edits of closed files come from the disk at request time, stay in the
workspace and in the folder (and root) the skill belongs to, and refuse what they cannot do safely.

Each test applies the returned edit to the files as a client would, and reads the disk.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import record_status, scan_done, wait_for

DEPLOY = "---\nname: deploy\ndescription: Ships the build. Use when releasing.\n---\n# Deploy\n"


def caller(name: str, mention: str = "/deploy") -> str:
    return f"---\nname: {name}\ndescription: Calls deploy. Use when testing.\n---\nFirst run `{mention}` now.\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def offset(text: str, pos: t.Position) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:pos.line]) + pos.character  # ASCII texts: UTF-16 == chars


def apply(edit: t.WorkspaceEdit) -> None:
    """Apply a WorkspaceEdit to the disk as a client does (text edits, then file renames)."""
    changes = edit.document_changes or [
        t.TextDocumentEdit(text_document=t.OptionalVersionedTextDocumentIdentifier(uri=u, version=None), edits=e)
        for u, e in (edit.changes or {}).items()]
    for c in changes:
        if isinstance(c, t.TextDocumentEdit):
            path = Path(c.text_document.uri.removeprefix("file://"))
            text = path.read_text(encoding="utf-8")
            for e in sorted(c.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
                text = text[:offset(text, e.range.start)] + e.new_text + text[offset(text, e.range.end):]
            path.write_text(text, encoding="utf-8")
        elif isinstance(c, t.RenameFile):
            Path(c.old_uri.removeprefix("file://")).rename(Path(c.new_uri.removeprefix("file://")))


async def start(client: LanguageClient, folders: list[Path], options: dict | None = None) -> None:
    record_status(client)
    await client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[t.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
        initialization_options={"skillLsp": {"debounceMs": 0, **(options or {})}}))
    await wait_for(lambda: scan_done(client), timeout=30)


def open_doc(client: LanguageClient, path: Path) -> str:
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=path.as_uri(), language_id="skill", version=1, text=path.read_text(encoding="utf-8"))))
    return path.as_uri()


async def rename(client: LanguageClient, path: Path, needle: str, new: str) -> t.WorkspaceEdit:
    uri = open_doc(client, path)
    text = path.read_text(encoding="utf-8")
    at = text.index(needle) + 1
    line = text.count("\n", 0, at)
    pos = t.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))
    return await client.text_document_rename_async(t.RenameParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=pos, new_name=new))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_closed_files_changed_on_disk_are_edited_where_they_are_now(client, tmp_path: Path):
    # The index remembers offsets from the scan; the files changed since, and no event said so
    # (a client without file events, or events still on their way).
    ws = tmp_path / "ws"
    write(ws / ".claude/skills/deploy/SKILL.md", DEPLOY)
    mentioners = [write(ws / f".claude/skills/c{i}/SKILL.md", caller(f"c{i}")) for i in range(20)]
    await start(client, [ws])
    for p in mentioners:
        text = p.read_text()
        p.write_text(text.replace("First run", "A new paragraph.\n\nFirst run"))
    edit = await rename(client, ws / ".claude/skills/deploy/SKILL.md", "deploy\n", "ship")
    apply(edit)
    for p in mentioners:
        text = p.read_text()
        assert "A new paragraph.\n\nFirst run `/ship` now." in text, text
    assert (ws / ".claude/skills/ship/SKILL.md").read_text().startswith("---\nname: ship\n")


@pytest.mark.asyncio
async def test_a_rename_waits_for_file_events_being_applied(client, tmp_path: Path):
    ws = tmp_path / "ws"
    write(ws / ".claude/skills/deploy/SKILL.md", DEPLOY)
    await start(client, [ws])
    # A checkout: new mentioners appear, their events arrive just before the rename.
    new = [write(ws / f".claude/skills/n{i}/SKILL.md", caller(f"n{i}", "$deploy")) for i in range(50)]
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
        t.FileEvent(uri=p.as_uri(), type=t.FileChangeType.Created) for p in new]))
    edit = await rename(client, ws / ".claude/skills/deploy/SKILL.md", "deploy\n", "ship")
    apply(edit)
    for p in new:
        assert "First run `$ship` now." in p.read_text()


@pytest.mark.asyncio
async def test_multi_root_rename_keeps_the_other_folders_own_skill(client, tmp_path: Path):
    one, two = tmp_path / "one", tmp_path / "two"
    for ws in (one, two):
        write(ws / ".claude/skills/deploy/SKILL.md", DEPLOY)
        write(ws / ".claude/skills/caller/SKILL.md", caller("caller"))
    await start(client, [one, two])
    apply(await rename(client, one / ".claude/skills/deploy/SKILL.md", "deploy\n", "ship"))
    assert "`/ship`" in (one / ".claude/skills/caller/SKILL.md").read_text()
    assert (two / ".claude/skills/caller/SKILL.md").read_text() == caller("caller")
    assert (two / ".claude/skills/deploy/SKILL.md").read_text() == DEPLOY


@pytest.mark.asyncio
async def test_two_roots_with_one_name_keep_their_own_mentions(client, tmp_path: Path):
    ws = tmp_path / "ws"
    write(ws / ".claude/skills/deploy/SKILL.md", DEPLOY)
    write(ws / ".agents/skills/deploy/SKILL.md", DEPLOY)
    write(ws / ".claude/skills/caller/SKILL.md", caller("caller"))
    write(ws / ".agents/skills/user/SKILL.md", caller("user", "$deploy"))
    await start(client, [ws])
    apply(await rename(client, ws / ".claude/skills/deploy/SKILL.md", "deploy\n", "ship"))
    assert "`/ship`" in (ws / ".claude/skills/caller/SKILL.md").read_text()
    assert (ws / ".agents/skills/user/SKILL.md").read_text() == caller("user", "$deploy")
    assert (ws / ".agents/skills/deploy/SKILL.md").read_text() == DEPLOY


@pytest.mark.asyncio
async def test_the_workspace_folder_itself_is_never_moved(client, tmp_path: Path):
    ws = write(tmp_path / "deploy" / "SKILL.md", DEPLOY).parent
    (ws / ".git").mkdir()
    await start(client, [ws])
    with pytest.raises(Exception, match="the workspace folder itself"):
        await rename(client, ws / "SKILL.md", "deploy\n", "ship")
    assert (ws / ".git").is_dir() and (ws / "SKILL.md").read_text() == DEPLOY


@pytest.mark.asyncio
@pytest.mark.parametrize("new, why", [("ｃａｌｌｅｒ", "once Unicode compatibility forms"),
                                      ("dеploy-two", "mixes Latin and Cyrillic")])
async def test_look_alike_names_are_refused(client, tmp_path: Path, new: str, why: str):
    ws = tmp_path / "ws"
    write(ws / ".claude/skills/deploy/SKILL.md", DEPLOY)
    write(ws / ".claude/skills/caller/SKILL.md", caller("caller"))
    await start(client, [ws], {"profile": "agentskills"})  # skills-ref: Unicode names are valid
    with pytest.raises(Exception, match=why):
        await rename(client, ws / ".claude/skills/deploy/SKILL.md", "deploy\n", new)
    assert (ws / ".claude/skills/deploy/SKILL.md").read_text() == DEPLOY
