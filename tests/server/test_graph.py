"""The skill graph over LSP: definition, references, highlights, rename, folder renames, workspace
symbols and UNKNOWN_SKILL, on a two-folder workspace, in UTF-16 and UTF-8 positions.

Lines carry non-ASCII text before every mention, so a wrong encoding moves every column.
Expected positions are computed here from the text, independently of the server's line index.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import record_status, scan_done, wait_for

DEPLOY = "---\nname: deploy\ndescription: Ships the build. Use when releasing.\n---\n# Déploy 🚀\n"
CALLER = ("---\nname: caller\ndescription: Calls others. Use when testing.\nallowed-tools: Read Skill(deploy)\n"
          "x-extra: 1\n---\n"
          "Ünïcødé 🚀 run `/deploy`, then $deploy.\n"
          "Ça 🚀 see [it](../deploy/SKILL.md) and `/deplyo`.\n"
          "Args 🚀 $ARGUMENTS[1] $0 ${CLAUDE_SKILL_DIR} !`ls -la`\n")
OTHER = "---\nname: other\ndescription: Elsewhere. Use when elsewhere.\n---\n😀 ask $deploy first.\n"


def make_workspace(base: Path) -> tuple[Path, Path]:
    a, b = base / "one", base / "two"
    for folder, rel, text in ((a, ".claude/skills/deploy", DEPLOY), (a, ".claude/skills/caller", CALLER),
                              (b, "plugins/p/skills/other", OTHER)):
        (folder / rel).mkdir(parents=True)
        (folder / rel / "SKILL.md").write_text(text, encoding="utf-8")
    return a, b


def pos(text: str, needle: str, nth: int = 0, enc: str = "utf-16", delta: int = 0) -> t.Position:
    """Position of the ``nth`` occurrence of ``needle`` (plus ``delta`` characters) in ``enc`` units."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    prefix = text[text.rfind("\n", 0, at) + 1:at]
    units = len(prefix.encode("utf-16-le")) // 2 if enc == "utf-16" else len(prefix.encode("utf-8"))
    return t.Position(line=line, character=units)


def span(text: str, needle: str, nth: int = 0, enc: str = "utf-16", word: str | None = None) -> t.Range:
    """Range of ``word`` (default ``needle``) inside the ``nth`` occurrence of ``needle``."""
    word = word or needle
    off = needle.index(word)
    return t.Range(start=pos(text, needle, nth, enc, off), end=pos(text, needle, nth, enc, off + len(word)))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]),
                    params=["utf-16", "utf-8", "utf-16/no-resource-operations"])
async def client(request, lsp_client: LanguageClient, tmp_path_factory):
    encoding, _, limit = request.param.partition("/")
    lsp_client.resource_ops = not limit  # type: ignore[attr-defined]
    base = tmp_path_factory.mktemp("graph")
    a, b = make_workspace(base)
    record_status(lsp_client)
    lsp_client.folders = (a, b)  # type: ignore[attr-defined]
    lsp_client.encoding = encoding  # type: ignore[attr-defined]

    caps = client_capabilities("visual-studio-code")
    caps.general = t.GeneralClientCapabilities(position_encodings=[encoding])
    if limit:
        caps.workspace.workspace_edit.resource_operations = []
    result = await lsp_client.initialize_session(t.InitializeParams(
        capabilities=caps, workspace_folders=[t.WorkspaceFolder(uri=a.as_uri(), name="one"),
                                              t.WorkspaceFolder(uri=b.as_uri(), name="two")],
        initialization_options={"skillLsp": {"debounceMs": 0}}))
    assert result.capabilities.position_encoding == encoding
    await wait_for(lambda: scan_done(lsp_client), timeout=30)
    yield lsp_client
    await lsp_client.shutdown_session()


def paths(client) -> dict[str, Path]:
    a, b = client.folders
    return {"deploy": a / ".claude/skills/deploy/SKILL.md", "caller": a / ".claude/skills/caller/SKILL.md",
            "other": b / "plugins/p/skills/other/SKILL.md"}


def open_doc(client, path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=path.as_uri(), language_id="skill", version=1, text=text)))
    return path.as_uri()


@pytest.mark.asyncio
async def test_definition_of_a_mention_is_the_skill_name(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    for needle in ("`/deploy`", "$deploy", "Skill(deploy)", "../deploy/"):
        got = await client.text_document_definition_async(t.DefinitionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=pos(CALLER, needle, enc=enc, delta=needle.index("deploy") + 2)))
        assert got == [t.Location(uri=p["deploy"].as_uri(), range=span(DEPLOY, "name: deploy", enc=enc, word="deploy"))]


@pytest.mark.asyncio
async def test_references_span_both_folders_and_closed_files(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["deploy"])
    got = await client.text_document_references_async(t.ReferenceParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=pos(DEPLOY, "deploy", enc=enc, delta=2),
        context=t.ReferenceContext(include_declaration=True)))
    caller, other = p["caller"].as_uri(), p["other"].as_uri()
    expected = [
        t.Location(uri=caller, range=span(CALLER, "Skill(deploy)", enc=enc, word="deploy")),
        t.Location(uri=caller, range=span(CALLER, "`/deploy`", enc=enc, word="deploy")),
        t.Location(uri=caller, range=span(CALLER, "$deploy", enc=enc, word="deploy")),
        t.Location(uri=caller, range=span(CALLER, "../deploy/", enc=enc, word="deploy")),
        t.Location(uri=uri, range=span(DEPLOY, "name: deploy", enc=enc, word="deploy")),
        t.Location(uri=other, range=span(OTHER, "$deploy", enc=enc, word="deploy")),
    ]
    key = lambda loc: (loc.uri, loc.range.start.line, loc.range.start.character)  # noqa: E731
    assert sorted(got, key=key) == sorted(expected, key=key)
    no_decl = await client.text_document_references_async(t.ReferenceParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=pos(DEPLOY, "deploy", enc=enc, delta=2),
        context=t.ReferenceContext(include_declaration=False)))
    assert len(no_decl) == 5 and all(loc.uri != uri for loc in no_decl)


@pytest.mark.asyncio
async def test_highlights_are_this_documents_occurrences(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    got = await client.text_document_document_highlight_async(t.DocumentHighlightParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=pos(CALLER, "$deploy", enc=enc, delta=1)))
    assert sorted((h.range.start.line, h.range.start.character, h.kind) for h in got) == sorted(
        (r.start.line, r.start.character, t.DocumentHighlightKind.Read)
        for r in (span(CALLER, n, enc=enc, word="deploy")
                  for n in ("Skill(deploy)", "`/deploy`", "$deploy", "../deploy/")))
    # In the skill's own file its name is the one written occurrence.
    own = open_doc(client, p["deploy"])
    got = await client.text_document_document_highlight_async(t.DocumentHighlightParams(
        text_document=t.TextDocumentIdentifier(uri=own), position=pos(DEPLOY, "deploy", enc=enc, delta=1)))
    assert [(h.range, h.kind) for h in got] == [(span(DEPLOY, "name: deploy", enc=enc, word="deploy"),
                                                 t.DocumentHighlightKind.Write)]


@pytest.mark.asyncio
@pytest.mark.parametrize("where", ["start", "end"])
async def test_the_cursor_at_either_edge_of_a_mention_finds_it(client, where: str):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    r = span(CALLER, "$deploy", enc=enc, word="deploy")
    got = await client.text_document_definition_async(t.DefinitionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=r.start if where == "start" else r.end))
    assert got == [t.Location(uri=p["deploy"].as_uri(), range=span(DEPLOY, "name: deploy", enc=enc, word="deploy"))]


@pytest.mark.asyncio
async def test_prepare_rename_and_its_refusals(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    got = await client.text_document_prepare_rename_async(t.PrepareRenameParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=pos(CALLER, "$deploy", enc=enc, delta=2)))
    assert got == t.PrepareRenamePlaceholder(range=span(CALLER, "$deploy", enc=enc, word="deploy"), placeholder="deploy")
    with pytest.raises(Exception, match="no skill named 'deplyo'"):
        await client.text_document_prepare_rename_async(t.PrepareRenameParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=pos(CALLER, "`/deplyo`", enc=enc, delta=3)))
    here = pos(CALLER, "$deploy", enc=enc, delta=2)
    for new, why in (("Bad Name", "not a valid skill name"), ("caller", "already exists"), ("other", "already exists")):
        with pytest.raises(Exception, match=why):
            await client.text_document_rename_async(t.RenameParams(
                text_document=t.TextDocumentIdentifier(uri=uri), position=here, new_name=new))


@pytest.mark.asyncio
async def test_rename_changes_name_mentions_and_moves_the_folder(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    edit = await client.text_document_rename_async(t.RenameParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=pos(CALLER, "`/deploy`", enc=enc, delta=3),
        new_name="ship"))
    changes = edit.document_changes
    texts = {c.text_document.uri: sorted((e.range.start.line, e.range.start.character, e.new_text) for e in c.edits)
             for c in changes if isinstance(c, t.TextDocumentEdit)}
    r = lambda text, n: (span(text, n, enc=enc, word="deploy").start.line,  # noqa: E731
                         span(text, n, enc=enc, word="deploy").start.character, "ship")
    assert texts[p["deploy"].as_uri()] == [r(DEPLOY, "name: deploy")]
    assert texts[p["other"].as_uri()] == [r(OTHER, "$deploy")]
    versions = {c.text_document.uri: c.text_document.version for c in changes if isinstance(c, t.TextDocumentEdit)}
    assert versions[p["caller"].as_uri()] == 1 and versions[p["deploy"].as_uri()] is None
    renames = [c for c in changes if isinstance(c, t.RenameFile)]
    if not client.resource_ops:
        # Name and mentions only, the links into the folder stay, and the user is told.
        assert renames == []
        assert texts[p["caller"].as_uri()] == sorted(r(CALLER, n) for n in ("Skill(deploy)", "`/deploy`", "$deploy"))
        shown = await wait_for(lambda: [m for m in client.messages if "cannot rename folders" in m.message])
        assert shown[0].type == t.MessageType.Info
        return
    assert [(x.old_uri, x.new_uri) for x in renames] == [
        (p["deploy"].parent.as_uri(), (p["deploy"].parent.parent / "ship").as_uri())]
    assert changes[-1] is renames[0]  # text edits address the old paths, so the move comes last
    assert texts[p["caller"].as_uri()] == sorted(
        r(CALLER, n) for n in ("Skill(deploy)", "`/deploy`", "$deploy", "../deploy/"))


@pytest.mark.asyncio
async def test_will_rename_folder_updates_name_and_mentions(client):
    p = paths(client)
    old = p["deploy"].parent
    edit = await client.workspace_will_rename_files_async(t.RenameFilesParams(files=[
        t.FileRename(old_uri=old.as_uri(), new_uri=(old.parent / "release").as_uri())]))
    texts = {c.text_document.uri: sorted(e.new_text for e in c.edits) for c in edit.document_changes}
    assert texts == {p["deploy"].as_uri(): ["release"], p["caller"].as_uri(): ["release"] * 4,
                     p["other"].as_uri(): ["release"]}


@pytest.mark.asyncio
async def test_workspace_symbols_by_name_and_description(client):
    p, enc = paths(client), client.encoding
    got = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="dpl"))
    assert [(s.name, s.location.uri) for s in got] == [("deploy", p["deploy"].as_uri())]
    assert got[0].location.range == span(DEPLOY, "name: deploy", enc=enc, word="deploy")
    by_desc = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="elsewhere"))
    assert [s.name for s in by_desc] == ["other"]
    assert len(await client.workspace_symbol_async(t.WorkspaceSymbolParams(query=""))) == 3


@pytest.mark.asyncio
async def test_unknown_mention_diagnostic_and_quick_fix(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])

    def unknown():
        return [d for d in client.diagnostics.get(uri, []) if d.code == "UNKNOWN_SKILL"]

    diags = await wait_for(unknown, timeout=10)
    assert [d.range for d in diags] == [span(CALLER, "`/deplyo`", enc=enc, word="deplyo")]
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=diags[0].range,
        context=t.CodeActionContext(diagnostics=diags, only=[t.CodeActionKind.QuickFix])))
    fixes = [a for a in actions if a.title == "Change to 'deploy'"]
    assert len(fixes) == 1
    (change,) = fixes[0].edit.document_changes
    assert [(e.range, e.new_text) for e in change.edits] == [(diags[0].range, "deploy")]


@pytest.mark.asyncio
async def test_semantic_tokens(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    got = await client.text_document_semantic_tokens_full_async(t.SemanticTokensParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    legend = ["parameter", "macro", "function", "namespace", "property"]
    decoded, line, char = [], 0, 0
    for i in range(0, len(got.data), 5):
        dl, dc, length, kind, mods = got.data[i:i + 5]
        line, char = line + dl, (char + dc if dl == 0 else dc)
        decoded.append((line, char, length, legend[kind], mods))

    def tok(needle: str, kind: str, mods: int = 0, word: str | None = None):
        r = span(CALLER, needle, enc=enc, word=word)
        return (r.start.line, r.start.character, r.end.character - r.start.character, kind, mods)

    expected = [tok("name:", "property", word="name"), tok("description:", "property", word="description"),
                tok("allowed-tools:", "property", word="allowed-tools"), tok("Skill(deploy)", "namespace", word="deploy"),
                tok("x-extra:", "property", 1, word="x-extra"),
                tok("`/deploy`", "namespace", word="deploy"), tok("$deploy", "namespace", word="deploy"),
                tok("../deploy/", "namespace", word="deploy"), tok("`/deplyo`", "namespace", word="deplyo"),
                tok("$ARGUMENTS[1]", "parameter"), tok("$0", "parameter"), tok("${CLAUDE_SKILL_DIR}", "macro"),
                tok("!`ls -la`", "function")]
    assert decoded == expected


@pytest.mark.asyncio
async def test_inlay_hint_is_off_by_default_and_on_with_the_setting(client):
    p = paths(client)
    uri = open_doc(client, p["deploy"])
    whole = t.Range(start=t.Position(0, 0), end=t.Position(10, 0))
    params = t.InlayHintParams(text_document=t.TextDocumentIdentifier(uri=uri), range=whole)
    assert not await client.text_document_inlay_hint_async(params)  # off by default
    client.set_configuration({"inlayHints": True, "debounceMs": 0}, section="skillLsp")  # answers workspace/configuration
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(
        settings={"skillLsp": {"inlayHints": True, "debounceMs": 0}}))

    async def hints():
        return await client.text_document_inlay_hint_async(params)

    got = []
    for _ in range(100):
        got = await hints()
        if got:
            break
        await asyncio.sleep(0.05)
    (hint,) = got
    line = DEPLOY.split("\n")[2]
    assert hint.position == pos(DEPLOY, line, enc=client.encoding, delta=len(line))
    assert "skill-tool ≈" in hint.label and "claude-code" in hint.label


@pytest.mark.asyncio
async def test_incremental_changes_use_the_negotiated_encoding(client):
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    fixed = CALLER.replace("`/deplyo`.", "`/deploy`.   ")
    typo = span(CALLER, "`/deplyo`.", enc=enc, word="deplyo")
    eol = pos(fixed, "`/deploy`.", enc=enc, delta=len("`/deploy`."))
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangePartial(range=typo, text="deploy"),
                         # positions of the second change are in the text after the first
                         t.TextDocumentContentChangePartial(range=t.Range(start=eol, end=eol), text="   ")]))

    def latest():
        diags = client.diagnostics.get(uri)
        return diags if diags is not None and not any(d.code == "UNKNOWN_SKILL" for d in diags) and any(
            d.code == "TRAILING_WHITESPACE" for d in diags) else None

    diags = await wait_for(latest, timeout=10)
    (trailing,) = [d for d in diags if d.code == "TRAILING_WHITESPACE"]
    end = pos(fixed, "`/deploy`.   ", enc=enc, delta=len("`/deploy`.   "))
    assert trailing.range == t.Range(start=t.Position(end.line, end.character - 3), end=end)


@pytest.mark.asyncio
async def test_will_rename_adds_nothing_for_the_servers_own_folder_move(client):
    """VS Code asks willRenameFiles for the RenameFile of our rename edit: answering with the
    same text edits again would prompt the user and apply them twice."""
    if not client.resource_ops:
        return
    p, enc = paths(client), client.encoding
    uri = open_doc(client, p["caller"])
    await client.text_document_rename_async(t.RenameParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=pos(CALLER, "$deploy", enc=enc, delta=2),
        new_name="ship"))
    old = p["deploy"].parent
    got = await client.workspace_will_rename_files_async(t.RenameFilesParams(files=[
        t.FileRename(old_uri=old.as_uri(), new_uri=(old.parent / "ship").as_uri())]))
    assert got is None
    # Only once: a later rename of the same folder by the user gets its edits again.
    again = await client.workspace_will_rename_files_async(t.RenameFilesParams(files=[
        t.FileRename(old_uri=old.as_uri(), new_uri=(old.parent / "ship").as_uri())]))
    assert again is not None and again.document_changes
