"""Hover and code lens say what each target harness does with the skill among the workspace's
skills: past Claude Code's listing budget (the capture case listing-budget), a skill is listed by
name only; a second copy of a name is shadowed for Copilot. Over stdio, the scan's index holding
the closed skills without their documents."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import record_status, scan_done, wait_for

REPO = Path(__file__).resolve().parents[2]
BUDGET_CASE = REPO / "capture" / "cases" / "listing-budget" / "skills"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    ws = tmp_path / "ws"
    shutil.copytree(BUDGET_CASE, ws / ".claude" / "skills")
    lsp_client.root = ws  # type: ignore[attr-defined]
    record_status(lsp_client)

    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[t.WorkspaceFolder(uri=ws.as_uri(), name="ws")]))
    await wait_for(lambda: scan_done(lsp_client), timeout=60)
    yield lsp_client
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path) -> str:
    text = path.read_text("utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=path.as_uri(), language_id="markdown", version=1, text=text)))
    return text


async def _hover(client: LanguageClient, path: Path, text: str) -> str:
    line = next(i for i, s in enumerate(text.split("\n")) if s.startswith("description:"))
    hover = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=path.as_uri()), position=t.Position(line, 2)))
    return hover.contents.value


async def _lenses(client: LanguageClient, path: Path) -> list[str]:
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(
        text_document=t.TextDocumentIdentifier(uri=path.as_uri())))
    return [lens.command.title for lens in lenses if lens.command]


@pytest.mark.asyncio
async def test_a_skill_past_claude_codes_budget_says_so_in_hover_and_code_lens(client):
    skills = client.root / ".claude" / "skills"
    b23 = skills / "b23" / "SKILL.md"
    value = await _hover(client, b23, _open(client, b23))
    assert "**Listing decisions**" in value
    assert "- Claude Code 2.1.332 lists this skill by name only: its listing budget (30,136 columns" in value
    assert "the 13 built-in skills and the 23 skills before it" in value
    titles = await _lenses(client, b23)
    assert any(x.startswith("Claude Code 2.1.332 lists this skill by name only") for x in titles), titles

    # A short skill after it still fits (the release listed b25 in full): no decision lens.
    b25 = skills / "b25" / "SKILL.md"
    value = await _hover(client, b25, _open(client, b25))
    assert "- Claude Code 2.1.332 lists this skill\n" in value + "\n"
    assert not any(x.startswith("Claude Code") for x in await _lenses(client, b25))


@pytest.mark.asyncio
async def test_typing_a_shorter_description_frees_the_budget(client):
    """The open buffer counts, not the file: shortening an earlier skill lets b23 keep its line."""
    skills = client.root / ".claude" / "skills"
    b00 = skills / "b00" / "SKILL.md"
    text = _open(client, b00)
    lines = text.split("\n")
    i = next(i for i, s in enumerate(lines) if s.startswith("description:"))
    lines[i] = "description: Short. Use when testing the budget."
    # The scan's end asked the editor to request code lenses again; so does a new description.
    await wait_for(lambda: getattr(client, "code_lens_refresh_count", 0) >= 1, timeout=10)
    refreshed = client.code_lens_refresh_count
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=b00.as_uri(), version=2),
        content_changes=[t.TextDocumentContentChangeWholeDocument(text="\n".join(lines))]))
    b23 = skills / "b23" / "SKILL.md"
    b23_text = _open(client, b23)

    async def listed():
        value = await _hover(client, b23, b23_text)
        return "- Claude Code 2.1.332 lists this skill\n" in value + "\n"

    for _ in range(100):
        if await listed():
            break
        await asyncio.sleep(0.1)
    assert await listed()
    await wait_for(lambda: client.code_lens_refresh_count > refreshed, timeout=10)


@pytest.mark.asyncio
async def test_a_byte_order_mark_on_disk_is_what_codex_and_gemini_skip(client):
    """The editor's buffer holds no byte order mark; the file does (capture case bom-start)."""
    md = client.root / ".agents" / "skills" / "bom" / "SKILL.md"
    md.parent.mkdir(parents=True)
    text = "---\nname: bom\ndescription: Starts with a byte order mark. Use when testing.\n---\nbody\n"
    md.write_bytes(b"\xef\xbb\xbf" + text.encode())
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=md.as_uri(), language_id="markdown", version=1, text=text)))
    value = await _hover(client, md, text)
    assert "- Codex skips a SKILL.md that starts with a byte order mark (U+FEFF)" in value
    assert "- Gemini CLI skips a SKILL.md that starts with a byte order mark (U+FEFF)" in value
    assert "- OpenCode 1.18.33 lists this skill" in value


@pytest.mark.asyncio
async def test_preview_commands_read_a_skill_folder_linked_from_outside_the_workspace(client):
    """Every release lists and activates it (capture case skill-links), so the catalog and the preview by
    name read it through the link, as `skill-lsp catalog` and `preview` do."""
    far = client.root.parent / "elsewhere" / "far-away"
    far.mkdir(parents=True)
    (far / "SKILL.md").write_text("---\nname: far-away\ndescription: Far away. Use it.\n---\n# Far body\n",
                                  encoding="utf-8")
    (client.root / ".claude" / "skills" / "far-away").symlink_to(far, target_is_directory=True)
    cat = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewCatalog", arguments=[{"dialect": "opencode"}]))
    assert "<name>far-away</name>" in cat["text"] and "Far away. Use it." in cat["text"]
    assert not any("far-away" in s["path"] for s in cat["skipped"])
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"name": "far-away", "dialect": "claude-code"}]))
    assert res["kind"] != "not_listed" and "# Far body" in res["text"]


@pytest.mark.asyncio
async def test_a_claude_code_plugins_skills_are_previewed_as_the_release_lists_them(client):
    # As `skill-lsp catalog` (tests/cli/test_cli_claude_plugins.py, from probes of the release): the
    # plugin's name prefixes its skills, listed after the project's; one without a description is
    # left out; other harnesses do not list them.
    plugin = client.root / "kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "toolkit"}\n', encoding="utf-8")
    for folder, text in (("good", "---\nname: good\ndescription: Good. Use it.\n---\nroot=${CLAUDE_PLUGIN_ROOT}\n"),
                         ("bare", "---\nname: bare\n---\nFirst line.\n")):
        (plugin / "skills" / folder).mkdir(parents=True)
        (plugin / "skills" / folder / "SKILL.md").write_text(text, encoding="utf-8")
    cat = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewCatalog", arguments=[{"dialect": "claude-code"}]))
    assert cat["text"].endswith("\n- toolkit:good: Good. Use it."), cat["text"][-200:]
    assert "toolkit:bare" not in cat["text"]
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"name": "toolkit:good", "dialect": "claude-code"}]))
    assert res["text"] == f"Base directory for this skill: {plugin}/skills/good\n\nroot={plugin}\n"
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation",
        arguments=[{"uri": (plugin / "skills" / "bare" / "SKILL.md").as_uri(), "dialect": "claude-code"}]))
    assert res["kind"] == "not_listed" and "plugin's skill without a description" in res["reason"]
    cat = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewCatalog", arguments=[{"dialect": "codex"}]))
    assert "good" not in cat["text"]
