"""Suppressions, selection and exclude over stdio: the real server, a Neovim-like client.

The workspace has a shadowed skill whose SHADOWED finding (a cross-skill finding, computed
after every skill is checked) is suppressed, an unused suppression, a finding to suppress by
quick-fix, and a vendored skill left out by `extend-exclude`; the editor ignores NAME_MISMATCH.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from skill_lsp.engine.text import Encoding, SourceText

from .conftest import keep_every_publish, uri, wait_for

SKILLS = {
    ".agents/skills/notes": "---\nname: notes\ndescription: Takes notes. Use when asked.\n---\nBody\n",
    ".claude/skills/notes": "---\nname: notes  # skill-lsp: ignore[SHADOWED]\ndescription: Older copy.\n---\nBody\n",
    ".claude/skills/demo": ("---\n# skill-lsp: ignore[NAME_INVALID]\nname: Demo Skill\n"
                            "description: Demonstrates suppressions. Use when testing them.  # skill-lsp: ignore[TRAILING_WHITESPACE]\n---\nBody\n"),
    ".claude/skills/plain": "---\nname: Plain\ndescription: Formats plain text. Use when asked for plain output.\n---\nBody\n",
    "vendor/skills/theirs": "---\nname: Not Ours\ndescription: Vendored.\n---\nBody   \n",
}


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient, tmp_path: Path):
    lsp_client.published = keep_every_publish(lsp_client)  # type: ignore[attr-defined]
    lsp_client.scans_done = 0  # type: ignore[attr-defined]

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: t.RegistrationParams) -> None:
        return None

    @lsp_client.feature("skillLsp/status")
    def on_status(params) -> None:
        if not getattr(params, "scanning", True):
            lsp_client.scans_done += 1  # type: ignore[attr-defined]

    for folder, text in SKILLS.items():
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "SKILL.md").write_text(text, encoding="utf-8")
    (tmp_path / ".skill-lsp.toml").write_text('extend-exclude = ["vendor"]\n', encoding="utf-8")
    lsp_client.set_configuration({"debounceMs": 0, "ignore": ["NAME_MISMATCH"]}, section="skillLsp")
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("neovim@v0.11.0"),
        workspace_folders=[t.WorkspaceFolder(uri=uri(tmp_path), name="ws")]))
    await wait_for(lambda: lsp_client.scans_done, timeout=30)
    yield lsp_client
    await lsp_client.shutdown_session()


def latest(client, path: Path, version: int | None = None):
    for p in reversed(client.published):
        if p.uri == uri(path) and (version is None or p.version == version):
            return p.diagnostics
    return None


def codes(diags) -> list[str]:
    return sorted(str(d.code) for d in diags or [])


def open_doc(client, path: Path, version: int = 1) -> str:
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri(path), language_id="markdown", version=version, text=text)))
    return text


def apply(text: str, edit: t.WorkspaceEdit, doc_uri: str) -> str:
    edits: list[t.TextEdit] = []
    for change in edit.document_changes or []:
        if isinstance(change, t.TextDocumentEdit) and change.text_document.uri == doc_uri:
            edits += change.edits  # type: ignore[arg-type]
    edits += (edit.changes or {}).get(doc_uri, [])
    src = SourceText(text)
    spans = sorted(((src.offset(e.range.start.line, e.range.start.character, Encoding.UTF16),
                     src.offset(e.range.end.line, e.range.end.character, Encoding.UTF16), e.new_text) for e in edits),
                   reverse=True)
    for s, e, new in spans:
        text = text[:s] + new + text[e:]
    return text


async def actions_for(client, path: Path, diag: t.Diagnostic) -> list[t.CodeAction]:
    got = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), range=diag.range,
        context=t.CodeActionContext(diagnostics=[diag], only=[t.CodeActionKind.QuickFix])))
    return [a for a in got or [] if isinstance(a, t.CodeAction)]


async def change(client, path: Path, text: str, version: int) -> list:
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
        content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)]))
    return await _published(client, path, version)


async def _published(client, path: Path, version: int) -> list:
    await wait_for(lambda: latest(client, path, version) is not None)
    return latest(client, path, version)  # type: ignore[return-value]


async def test_the_scan_publishes_what_suppressions_selection_and_exclude_leave(client):
    root = client.root
    demo = root / ".claude/skills/demo/SKILL.md"
    await wait_for(lambda: latest(client, demo) is not None)
    # NAME_INVALID suppressed in the file, NAME_MISMATCH ignored by the editor's settings; the
    # end-of-line suppression silences nothing.
    assert codes(latest(client, demo)) == ["UNUSED_SUPPRESSION"]
    # The SHADOWED finding of the older copy is suppressed, and its suppression is not unused.
    assert not codes(latest(client, root / ".claude/skills/notes/SKILL.md"))
    # The vendored skill is excluded: never published.
    assert latest(client, root / "vendor/skills/theirs/SKILL.md") is None


async def test_open_documents_follow_the_same_view_and_exclude(client):
    root = client.root
    notes = root / ".claude/skills/notes/SKILL.md"
    open_doc(client, notes)
    assert codes(await _published(client, notes, 1)) == []
    vendored = root / "vendor/skills/theirs/SKILL.md"
    open_doc(client, vendored)
    assert codes(await _published(client, vendored, 1)) == []


async def test_the_unused_suppression_quick_fix_removes_it(client):
    demo = client.root / ".claude/skills/demo/SKILL.md"
    text = open_doc(client, demo)
    (diag,) = await _published(client, demo, 1)
    assert diag.code == "UNUSED_SUPPRESSION" and list(diag.tags or []) == [t.DiagnosticTag.Unnecessary]
    assert diag.message == "unused suppression: TRAILING_WHITESPACE (no TRAILING_WHITESPACE finding on this line)"
    actions = await actions_for(client, demo, diag)
    remove = next(a for a in actions if a.title == "Remove the unused suppression")
    assert remove.is_preferred
    new = apply(text, remove.edit, uri(demo))
    assert new.splitlines()[3] == "description: Demonstrates suppressions. Use when testing them."
    assert codes(await change(client, demo, new, 2)) == []


async def test_a_quick_fix_inserts_a_suppression_for_any_finding(client):
    plain = client.root / ".claude/skills/plain/SKILL.md"
    text = open_doc(client, plain)
    diags = await _published(client, plain, 1)
    invalid = next(d for d in diags if d.code == "NAME_INVALID")
    actions = await actions_for(client, plain, invalid)
    titles = [a.title for a in actions]
    assert titles[-1] == "Suppress NAME_INVALID on this line"  # after the real fixes
    new = apply(text, actions[-1].edit, uri(plain))
    assert new.splitlines()[1] == "name: Plain  # skill-lsp: ignore[NAME_INVALID]"
    assert "NAME_INVALID" not in codes(await change(client, plain, new, 2))
    assert "UNUSED_SUPPRESSION" not in codes(latest(client, plain, 2))


async def test_editor_selection_settings_apply_on_change(client):
    plain = client.root / ".claude/skills/plain/SKILL.md"
    open_doc(client, plain)
    assert "NAME_INVALID" in codes(await _published(client, plain, 1))
    client.set_configuration({"debounceMs": 0, "select": ["TRAILING"]}, section="skillLsp")
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings=None))
    await wait_for(lambda: latest(client, plain) is not None and codes(latest(client, plain)) == [], timeout=20)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def pulling(lsp_client: LanguageClient, tmp_path: Path):
    """VS Code's way: diagnostics pulled (workspace/diagnostic), nothing pushed."""
    from .conftest import capabilities, record_status, scan_done

    record_status(lsp_client)
    for folder, text in SKILLS.items():
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "SKILL.md").write_text(text, encoding="utf-8")
    (tmp_path / ".skill-lsp.toml").write_text('extend-exclude = ["vendor"]\n', encoding="utf-8")
    lsp_client.set_configuration({"debounceMs": 0, "ignore": ["NAME_MISMATCH"]}, section="skillLsp")
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=capabilities("vscode-pull"), workspace_folders=[t.WorkspaceFolder(uri=uri(tmp_path), name="ws")]))
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_pulled_workspace_diagnostics_follow_the_same_view(pulling):
    root = pulling.root
    report = await pulling.workspace_diagnostic_async(t.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {item.uri: codes(item.items) for item in report.items}
    assert by_uri[uri(root / ".claude/skills/demo/SKILL.md")] == ["UNUSED_SUPPRESSION"]
    assert by_uri.get(uri(root / ".claude/skills/notes/SKILL.md"), []) == []
    assert uri(root / "vendor/skills/theirs/SKILL.md") not in by_uri
    assert by_uri[uri(root / ".claude/skills/plain/SKILL.md")] == ["NAME_INVALID"]
