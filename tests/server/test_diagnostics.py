"""Diagnostics end to end: open, change, save, close; versions; pull; workspace scan."""

from __future__ import annotations

import pytest
from lsprotocol import types as t

from .conftest import diagnostics_for, scan_done, uri, wait_for


def pushed(client) -> bool:
    """Diagnostics are pulled only by clients that support pull and refresh (VS Code 1.139)."""
    return client.client_name != "vscode-pull"


def workspace_pulled(client) -> bool:
    return client.client_name == "vscode-pull"


async def open_doc(client, path, text=None, version=1):
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri(path), language_id="markdown", version=version, text=text)))
    return text


async def current(client, doc_uri, version=None):
    if pushed(client):
        params = await wait_for(lambda: diagnostics_for(client, doc_uri, version))
        return params.diagnostics
    report = await client.text_document_diagnostic_async(
        t.DocumentDiagnosticParams(text_document=t.TextDocumentIdentifier(uri=doc_uri)))
    return report.items


@pytest.mark.asyncio(loop_scope="function")
async def test_open_reports_name_mismatch_with_code_source_and_docs_link(client, workspace):
    path = workspace / ".claude/skills/name-mismatch/SKILL.md"
    await open_doc(client, path)
    diags = await current(client, uri(path), 1)
    mismatch = [d for d in diags if d.code == "NAME_MISMATCH"]
    assert len(mismatch) == 1
    d = mismatch[0]
    assert d.source == "skill-lsp"
    assert d.range == t.Range(t.Position(1, 6), t.Position(1, 26))
    assert d.code_description.href.endswith("docs/rules.md#name_mismatch")
    assert d.data["folder"] == "name-mismatch"


@pytest.mark.asyncio(loop_scope="function")
async def test_change_republishes_for_the_new_version_only(client, workspace):
    path = workspace / ".claude/skills/name-mismatch/SKILL.md"
    text = await open_doc(client, path)
    await current(client, uri(path), 1)
    fixed = text.replace("vercel-name-mismatch", "name-mismatch")
    for v in range(2, 12):  # a burst: only the newest version matters
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri(path), version=v),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=fixed if v == 11 else text + " " * v)]))
    diags = await current(client, uri(path), 11)
    assert not [d for d in diags if d.code == "NAME_MISMATCH"]
    if pushed(client):
        published = [p.version for p in client.diagnostics_history if p.uri == uri(path)]
        assert published == sorted(published)  # never an older version after a newer one


@pytest.mark.asyncio(loop_scope="function")
async def test_non_skill_markdown_is_ignored(client, workspace):
    readme = workspace / "README.md"
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri(readme), language_id="markdown", version=1, text="# hi   \n")))
    hover = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri(readme)), position=t.Position(0, 1)))
    assert hover is None
    assert diagnostics_for(client, uri(readme)) is None


@pytest.mark.asyncio(loop_scope="function")
async def test_workspace_scan_publishes_shadowing_with_related_information(client, workspace):
    loser = workspace / ".claude/skills/release-notes/SKILL.md"
    if not workspace_pulled(client):
        # The scan publishes per-skill findings first and cross-skill ones after.
        def shadowing():
            params = diagnostics_for(client, uri(loser))
            return params if params and any(d.code == "SHADOWED" for d in params.diagnostics) else None
        diags = (await wait_for(shadowing, timeout=20)).diagnostics
    else:
        await wait_for(lambda: scan_done(client), timeout=20)
        report = await client.workspace_diagnostic_async(t.WorkspaceDiagnosticParams(previous_result_ids=[]))
        diags = next(i.items for i in report.items if i.uri == uri(loser))
    shadowed = [d for d in diags if d.code == "SHADOWED"]
    assert shadowed and shadowed[0].related_information
    assert shadowed[0].related_information[0].location.uri.endswith(".agents/skills/release-notes/SKILL.md")
    assert t.DiagnosticTag.Unnecessary in shadowed[0].tags


@pytest.mark.asyncio(loop_scope="function")
async def test_positions_follow_the_negotiated_encoding(client, workspace):
    path = workspace / ".claude/skills/unicode-demo/SKILL.md"
    text = "---\nname: unicode-demo\ndescription: x\n---\n😀漢 [a](/abs.md)\n"
    await open_doc(client, path, text)
    diags = await current(client, uri(path), 1)
    link = next(d for d in diags if d.code == "ABSOLUTE_LINK")
    # '😀漢 [a](' is 2 + 1 + 5 UTF-16 units, or 4 + 3 + 5 UTF-8 bytes.
    expected = 12 if client.client_name.startswith("neovim") else 8
    assert link.range.start == t.Position(4, expected)


WIDE = ("---\nname: wide-columns\ndescription: Positions past wide characters.\n---\n"
        "\uffff x \n\U00010000 y \n😀😀 [a](/abs.md)\n")


@pytest.fixture
def wide_on_disk(workspace):
    """A skill that exists before the server starts, so the workspace scan reports it unopened."""
    path = workspace / ".agents/skills/wide-columns/SKILL.md"
    path.parent.mkdir()
    path.write_text(WIDE, encoding="utf-8")
    yield path
    path.unlink()
    path.parent.rmdir()


@pytest.mark.asyncio(loop_scope="function")
async def test_unopened_file_positions_count_the_negotiated_units(wide_on_disk, client):
    if workspace_pulled(client):
        await wait_for(lambda: scan_done(client), timeout=20)
        report = await client.workspace_diagnostic_async(t.WorkspaceDiagnosticParams(previous_result_ids=[]))
        diags = next(i.items for i in report.items if i.uri == uri(wide_on_disk))
    else:
        diags = (await wait_for(lambda: diagnostics_for(client, uri(wide_on_disk)), timeout=20)).diagnostics
    got = [(d.code, d.range.start.line, d.range.start.character, d.range.end.character) for d in diags]
    if client.client_name.startswith("neovim"):  # UTF-8: U+FFFF is 3 bytes, U+10000 and 😀 are 4
        assert got == [("TRAILING_WHITESPACE", 4, 5, 6), ("TRAILING_WHITESPACE", 5, 6, 7), ("ABSOLUTE_LINK", 6, 13, 20)]
    else:  # UTF-16: U+FFFF is 1 unit, U+10000 and 😀 are 2
        assert got == [("TRAILING_WHITESPACE", 4, 3, 4), ("TRAILING_WHITESPACE", 5, 4, 5), ("ABSOLUTE_LINK", 6, 9, 16)]


@pytest.mark.asyncio(loop_scope="function")
async def test_close_clears_or_restores_disk_findings(client, workspace):
    await wait_for(lambda: scan_done(client), timeout=20)  # the workspace scan is done
    path = workspace / ".claude/skills/unquoted-colon/SKILL.md"
    await open_doc(client, path, "---\nname: unquoted-colon\ndescription: fine now\n---\n")
    diags = await current(client, uri(path), 1)
    assert not [d for d in diags if d.code == "INVALID_FRONTMATTER"]
    seen = len(client.diagnostics_history)
    client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri(path))))
    if not workspace_pulled(client):
        # Back to the file on disk, which still has the unquoted colon.
        params = await wait_for(lambda: next((p for p in client.diagnostics_history[seen:] if p.uri == uri(path)), None))
        assert params.version is None
        assert [d.code for d in params.diagnostics] == ["INVALID_FRONTMATTER"]


@pytest.mark.asyncio(loop_scope="function")
async def test_watched_files_pick_up_a_new_skill_folder(client, workspace):
    await wait_for(lambda: scan_done(client), timeout=20)
    if client.client_name == "visual-studio-code":
        methods = [r.method for r in client.registrations]
        assert "workspace/didChangeWatchedFiles" in methods
    skill = workspace / ".claude/skills/new-skill/SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: other-name\ndescription: Use when a skill is created while the editor is open.\n---\n")
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
        t.FileEvent(uri=uri(skill.parent), type=t.FileChangeType.Created),
        t.FileEvent(uri=uri(skill), type=t.FileChangeType.Created)]))
    if workspace_pulled(client):
        async def pulled():
            report = await client.workspace_diagnostic_async(t.WorkspaceDiagnosticParams(previous_result_ids=[]))
            return next((i.items for i in report.items if i.uri == uri(skill)), None)
        diags = None
        for _ in range(100):
            diags = await pulled()
            if diags:
                break
    else:
        diags = (await wait_for(lambda: diagnostics_for(client, uri(skill)), timeout=20)).diagnostics
    assert [d.code for d in diags] == ["NAME_MISMATCH"]
    skill.unlink()
    skill.parent.rmdir()
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
        t.FileEvent(uri=uri(skill), type=t.FileChangeType.Deleted)]))
    if not workspace_pulled(client):
        await wait_for(lambda: (p := diagnostics_for(client, uri(skill))) and not p.diagnostics and p, timeout=20)


@pytest.mark.asyncio(loop_scope="function")
async def test_findings_with_fixes_are_never_hidden_by_the_retired_vscode_setting(client, workspace, tmp_path):
    # skillLsp.hideBuiltinDuplicates used to drop NAME_MISMATCH / EMPTY_FIELD (whose fixes
    # only skill-lsp offers) and made the editor's count differ from `check`.
    client.set_configuration({"debounceMs": 0, "hideBuiltinDuplicates": True}, section="skillLsp")
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings=None))
    path = workspace / ".claude/skills/name-mismatch/SKILL.md"
    text = path.read_text(encoding="utf-8").replace("\n---", "\ncompatibility: \"\"\n---", 1)
    await open_doc(client, path, text)
    diags = await current(client, uri(path), 1)
    codes = {d.code for d in diags}
    assert {"NAME_MISMATCH", "EMPTY_FIELD"} <= codes


@pytest.mark.asyncio(loop_scope="function")
async def test_an_open_skill_in_a_test_folder_or_among_examples_is_graded_as_the_scan_grades_it(client, workspace):
    """Test data and another skill's examples are information whether the file is open or not
    (``workspace.placed``): opening one must not turn its findings into errors."""
    head = "---\nname: {name}\ndescription: Checks the grading of a skill by its place. Use when testing it.\n---\n\nBody.\n"
    fixture = workspace / "tests" / "fixtures" / "demo" / "SKILL.md"
    maker = workspace / "tools" / "maker" / "SKILL.md"
    sample = workspace / "tools" / "maker" / "examples" / "sample" / "SKILL.md"
    for path, name in ((fixture, "not-demo"), (maker, "maker"), (sample, "not-sample")):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(head.format(name=name), encoding="utf-8")
    for path in (fixture, sample):
        await open_doc(client, path)
        (d,) = [d for d in await current(client, uri(path), 1) if d.code == "NAME_MISMATCH"]
        assert d.severity == t.DiagnosticSeverity.Information, path
