"""Completion, hover, code actions, commands, code lens, links, symbols, folding -- over stdio."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types as t

from skill_lsp.engine.fixes import Edit, apply_edits
from skill_lsp.engine.text import Encoding, SourceText

from .conftest import scan_done, uri, wait_for
from .test_diagnostics import current, open_doc

pytestmark = pytest.mark.asyncio(loop_scope="function")


def enc_of(client) -> Encoding:
    return Encoding.UTF8 if client.client_name.startswith("neovim") else Encoding.UTF16


def apply(client, text: str, edits: list[t.TextEdit]) -> str:
    src = SourceText(text)
    enc = enc_of(client)
    return apply_edits(text, [Edit(src.offset(e.range.start.line, e.range.start.character, enc),
                                   src.offset(e.range.end.line, e.range.end.character, enc), e.new_text) for e in edits])


def edits_of(edit: t.WorkspaceEdit) -> list[t.TextEdit]:
    if edit.document_changes:
        return [e for dc in edit.document_changes if isinstance(dc, t.TextDocumentEdit) for e in dc.edits]
    return [e for es in (edit.changes or {}).values() for e in es]


async def completion_labels(client, path, line, character):
    res = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), position=t.Position(line, character)))
    items = res.items if isinstance(res, t.CompletionList) else res
    return {i.label: i for i in items}


async def test_key_completion_offers_missing_profile_fields_with_snippets(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    text = "---\nname: release-notes\ndescription: d\nlic\n---\n"
    await open_doc(client, path, text)
    items = await completion_labels(client, path, 3, 3)
    assert "license" in items and "name" not in items and "description" not in items
    assert "disable-model-invocation" in items  # a skill-tool field
    item = items["license"]
    assert item.insert_text_format == t.InsertTextFormat.Snippet
    assert item.text_edit.new_text.startswith("license: ")
    assert "SPDX" in item.documentation.value


async def test_value_completion_for_booleans_name_license_and_tools(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    text = ("---\nname: \ndescription: d\nuser-invocable: \nlicense: Apa\nallowed-tools: \n---\n")
    await open_doc(client, path, text)
    assert "release-notes" in await completion_labels(client, path, 1, 6)
    assert {"true", "false"} <= set(await completion_labels(client, path, 3, 16))
    assert "Apache-2.0" in await completion_labels(client, path, 4, 12)
    tools = await completion_labels(client, path, 5, 15)
    assert "Read" in tools and "Bash(git:*)" in tools


async def test_path_completion_lists_files_in_the_skill(client, workspace):
    path = workspace / ".agents/skills/api-conventions/SKILL.md"
    text = path.read_text() + "\nSee [x](references/\n"
    await open_doc(client, path, text)
    line = len(text.split("\n")) - 2
    items = await completion_labels(client, path, line, len("See [x](references/"))
    assert "references/naming.md" in items and "references/error-schema.json" in items


async def test_hover_on_description_shows_catalog_entries_per_dialect(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    await open_doc(client, path)
    hover = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), position=t.Position(2, 3)))
    value = hover.contents.value
    assert "description" in value and "Limit: 1,024" in value
    assert "Current length:" in value
    assert "*dsh*" in value and "- `release-notes`: Drafts release notes" in value
    # Each dialect is its own paragraph, so a Markdown renderer does not run them together.
    assert "\n\n*dsh* — " in value and "\n\n*codex* — " in value


async def test_hover_lists_every_harness_dialect_with_the_harness_verdict(client, workspace):
    from skill_lsp.engine.config import DIALECT_NAMES

    path = workspace / ".agents/skills/release-notes/SKILL.md"
    await open_doc(client, path)
    hover = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), position=t.Position(2, 3)))
    value = hover.contents.value
    assert {"claude-code", "codex", "opencode", "gemini", "copilot"} <= set(DIALECT_NAMES)
    for dialect in DIALECT_NAMES:
        assert f"\n\n*{dialect}* — " in value, dialect
    # Claude Code 2.1.332 does not read .agents/skills: said plainly, with the reason.
    assert ("*claude-code* — not listed: Claude Code 2.1.332 does not read .agents/skills "
            "(skills there are never loaded)") in value
    # The same renderer as `skill-lsp catalog --dialect codex` (capture-proven entry form).
    assert "- release-notes: Drafts release notes" in value and "(file: " in value
    assert "*skill-tool* — " in value and "(documented, not verified)" in value


async def test_lens_and_preview_of_a_root_the_harness_does_not_read_say_so(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    await open_doc(client, path)
    client.set_configuration({"debounceMs": 0, "dialect": "claude-code"}, section="skillLsp")
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={}))
    reason = "Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)"

    async def lens_titles() -> list[str]:
        lenses = await client.text_document_code_lens_async(
            t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri(path))))
        return [lens.command.title for lens in lenses]

    titles = await lens_titles()
    for _ in range(100):  # the configuration is fetched asynchronously; bounded wait
        if any("claude-code" in title for title in titles):
            break
        await asyncio.sleep(0.05)
        titles = await lens_titles()
    assert f"not in the claude-code catalog: {reason}" in titles
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"uri": uri(path), "dialect": "claude-code"}]))
    assert res["kind"] == "not_listed" and res["reason"] == reason
    assert res["text"] == f"(skill-lsp: {reason})\n" and "Base directory" not in res["text"]
    cat = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewCatalog", arguments=[{"dialect": "claude-code"}]))
    assert "- release-notes: Drafts" not in cat["text"]
    assert any(s["path"] == str(path) and s["reason"] == reason for s in cat["skipped"])
    assert cat["verified"] is True and cat["proof"].startswith("capture: claude-code@2.1.332")


async def test_hover_on_an_empty_description_agrees_with_the_diagnostic(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    await open_doc(client, path, '---\nname: release-notes\ndescription: ""\n---\nBody.\n')
    hover = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), position=t.Position(2, 3)))
    value = hover.contents.value
    assert "Current value: empty" in value and "within the limit" not in value


async def test_hover_on_a_relative_link_peeks_at_the_target(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    text = await open_doc(client, path)
    line = next(i for i, row in enumerate(text.split("\n")) if "references/style.md" in row)
    col = text.split("\n")[line].index("references/style.md") + 2
    hover = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), position=t.Position(line, col)))
    assert "# Release note style" in hover.contents.value


async def quickfixes(client, path, code):
    diags = await current(client, uri(path), 1)
    diag = next(d for d in diags if d.code == code)
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), range=diag.range,
        context=t.CodeActionContext(diagnostics=[diag])))
    return {a.title: a for a in actions if a.kind == t.CodeActionKind.QuickFix}


async def test_name_mismatch_offers_set_name_and_rename_folder(client, workspace):
    path = workspace / ".claude/skills/name-mismatch/SKILL.md"
    text = await open_doc(client, path)
    fixes = await quickfixes(client, path, "NAME_MISMATCH")
    set_name = fixes["Set name to the folder name 'name-mismatch'"]
    assert not set_name.is_preferred  # unsafe (which of name and folder is right is a guess): never auto-applied
    assert "name: name-mismatch\n" in apply(client, text, edits_of(set_name.edit))
    rename = fixes["Rename the folder to 'vercel-name-mismatch'"]
    op = rename.edit.document_changes[0]
    assert isinstance(op, t.RenameFile) and op.new_uri.endswith("/vercel-name-mismatch")


async def test_unquoted_colon_quick_fixes_quote_or_fold(client, workspace):
    path = workspace / ".claude/skills/unquoted-colon/SKILL.md"
    text = await open_doc(client, path)
    fixes = await quickfixes(client, path, "INVALID_FRONTMATTER")
    quoted = apply(client, text, edits_of(fixes["Quote the value"].edit))
    assert 'description: "Use when: the user asks for a summary. The unquoted colon makes this invalid YAML."' in quoted
    folded = apply(client, text, edits_of(fixes["Turn the value into a block scalar"].edit))
    assert "description: >-\n  Use when: the user" in folded


async def test_fix_all_source_action_is_idempotent(client, workspace):
    path = workspace / ".claude/skills/messy-fields/SKILL.md"
    text = await open_doc(client, path)
    await current(client, uri(path), 1)
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)),
        range=t.Range(t.Position(0, 0), t.Position(0, 0)),
        context=t.CodeActionContext(diagnostics=[], only=["source.fixAll.skill-lsp"])))
    assert [a.kind for a in actions] == ["source.fixAll.skill-lsp"]
    fixed = apply(client, text, edits_of(actions[0].edit))
    # A number in metadata stays a number: its quote is offered, not part of fix-all (FIX_SAFETY).
    assert "disable-model-invocation: true" in fixed and "revision: 3\n" in fixed and 'user-invocable: true' in fixed
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
        content_changes=[t.TextDocumentContentChangeWholeDocument(text=fixed)]))
    await current(client, uri(path), 2)
    again = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)),
        range=t.Range(t.Position(0, 0), t.Position(0, 0)),
        context=t.CodeActionContext(diagnostics=[], only=["source.fixAll.skill-lsp"])))
    assert not again


async def test_preview_activation_command_returns_the_exact_tool_output(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    await open_doc(client, path)
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"uri": uri(path), "dialect": "skill-tool"}]))
    assert res["kind"] == "ok"
    assert res["text"].startswith(f'<skill name="release-notes" dir="{path.parent}">\n<frontmatter>\nname: release-notes\n')
    body = path.read_text().split("---\n", 2)[2]
    assert res["text"].endswith(f'Body is {len(body.encode())} bytes. Scripts available via bash(' + str(path.parent) + '/scripts/<name>). '
                                'References via read(' + str(path.parent) + '/references/<name>).)')
    assert res["previewUri"].startswith("skill-lsp-preview:")
    dsh = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"name": "release-notes", "dialect": "dsh",
                                                            "uri": uri(path), "arguments": "v1 v2"}]))
    assert dsh["text"].startswith('<skill_content name="release-notes">\n<skill_resources>\nBase directory for this skill: ')
    assert "Collect the changes between v1 and v2" in dsh["text"]


async def test_preview_reports_errors_for_a_broken_skill(client, workspace):
    path = workspace / ".claude/skills/name-mismatch/SKILL.md"
    await open_doc(client, path)
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"uri": uri(path)}]))
    assert res["kind"] == "error"
    assert res["text"] == ('Error [NAME_MISMATCH]: skill "name-mismatch": frontmatter \'name\' ("vercel-name-mismatch") '
                           'does not match the skill folder ("name-mismatch")')


async def test_preview_catalog_and_status(client, workspace):
    await wait_for(lambda: scan_done(client), timeout=20)
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewCatalog", arguments=[{"dialect": "agentskills"}]))
    assert res["text"].startswith("<available_skills>\n<skill>\n<name>\napi-conventions\n</name>")
    names = [e["name"] for e in res["entries"]]
    assert "release-notes" in names and "name-mismatch" not in names
    status = await client.workspace_execute_command_async(t.ExecuteCommandParams(command="skill-lsp.status", arguments=[{}]))
    assert status["profile"] == "skill-tool" and status["skills"] >= 20


async def test_code_lens_runs_the_preview_commands(client, workspace):
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    await open_doc(client, path)
    lenses = await client.text_document_code_lens_async(t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri(path))))
    titles = [lens.command.title for lens in lenses]
    assert titles[0] == "Preview activation"
    assert titles[1].startswith("≈") and titles[1].endswith("catalog tokens (skill-tool)")
    assert lenses[0].command.command == "skill-lsp.previewActivation"


async def test_links_definition_symbols_and_folding(client, workspace):
    path = workspace / ".agents/skills/api-conventions/SKILL.md"
    text = await open_doc(client, path)
    doc_id = t.TextDocumentIdentifier(uri=uri(path))
    links = await client.text_document_document_link_async(t.DocumentLinkParams(text_document=doc_id))
    targets = sorted(link.target.rsplit("/api-conventions/", 1)[1] for link in links)
    assert targets == ["assets/endpoint-template.md", "references/error-schema.json", "references/naming.md"]
    line = next(i for i, row in enumerate(text.split("\n")) if "references/naming.md" in row)
    col = text.split("\n")[line].index("naming.md")
    loc = await client.text_document_definition_async(t.DefinitionParams(text_document=doc_id, position=t.Position(line, col)))
    assert loc[0].uri.endswith("references/naming.md")
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc_id))
    assert symbols[0].name == "frontmatter" and [c.name for c in symbols[0].children][:3] == ["name", "description", "version"]
    assert symbols[1].name == "API conventions" and symbols[1].children[0].name == "Reviewing a new endpoint"
    folds = await client.text_document_folding_range_async(t.FoldingRangeParams(text_document=doc_id))
    assert folds[0].start_line == 0 and folds[0].end_line == 13  # the closing ---


async def test_configuration_changes_apply_without_restart(client, workspace):
    path = workspace / ".claude/skills/messy-fields/SKILL.md"
    await open_doc(client, path)
    diags = await current(client, uri(path), 1)
    assert any(d.code == "UNKNOWN_FIELD" for d in diags)
    client.set_configuration({"debounceMs": 0, "severity": {"UNKNOWN_FIELD": "off"}}, section="skillLsp")
    seen = len(client.diagnostics_history)
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={}))
    if client.client_name != "vscode-pull":
        def latest_without_unknown():
            latest = next((p for p in reversed(client.diagnostics_history[seen:]) if p.uri == uri(path)), None)
            return latest is not None and not any(d.code == "UNKNOWN_FIELD" for d in latest.diagnostics) and latest
        diags = (await wait_for(latest_without_unknown)).diagnostics
    else:
        async def no_unknown():
            d = await current(client, uri(path), 1)
            return not any(x.code == "UNKNOWN_FIELD" for x in d)
        for _ in range(200):
            if await no_unknown():
                break
        diags = await current(client, uri(path), 1)
    assert not any(d.code == "UNKNOWN_FIELD" for d in diags)


async def test_invalid_settings_fall_back_with_one_message(client, workspace):
    client.set_configuration({"debounceMs": 0, "profile": "no-such-profile"}, section="skillLsp")
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={}))
    msg = await wait_for(lambda: [m for m in client.messages if "profile" in m.message])
    assert "invalid 'profile'" in msg[0].message
    status = await client.workspace_execute_command_async(t.ExecuteCommandParams(command="skill-lsp.status", arguments=[{}]))
    assert status["profile"] == "skill-tool"


@pytest.mark.parametrize("dialect", ["skill-tool", "dsh", "opencode"])
async def test_preview_activation_equals_the_cli_golden_file(client, workspace, dialect):
    golden = Path(__file__).resolve().parents[1] / "golden" / "preview"  # written by tests/cli/test_golden_previews.py
    path = workspace / ".claude/skills/pdf-toolkit/SKILL.md"
    await open_doc(client, path)
    res = await client.workspace_execute_command_async(t.ExecuteCommandParams(
        command="skill-lsp.previewActivation", arguments=[{"uri": uri(path), "dialect": dialect}]))
    expected = (golden / dialect / ".claude__skills__pdf-toolkit.txt").read_text(encoding="utf-8")
    assert res["text"].replace(str(workspace), "<ROOT>/sample-workspace") == expected


async def test_light_bulb_offers_fix_all_and_resolves_its_edit_lazily(client, workspace):
    path = workspace / ".claude/skills/messy-fields/SKILL.md"
    text = await open_doc(client, path)
    diags = await current(client, uri(path), 1)
    diag = next(d for d in diags if d.code == "CAMELCASE_FIELD")
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), range=diag.range,
        context=t.CodeActionContext(diagnostics=[diag])))
    fix_all = next(a for a in actions if a.kind == "source.fixAll.skill-lsp")
    assert fix_all.edit is None  # computed on resolve, not on every cursor move
    resolved = await client.code_action_resolve_async(fix_all)
    assert "disable-model-invocation: true" in apply(client, text, edits_of(resolved.edit))


async def test_a_fix_that_would_edit_code_is_an_unsafe_quick_fix_and_not_in_fix_all(client, workspace):
    """The same guard as `check --fix`: offered, labelled unsafe, never preferred or in fix-all."""
    path = workspace / ".agents/skills/release-notes/SKILL.md"
    text = ("---\nname: release-notes\ndescription: Drafts release notes. Use when tagging a release.\n---\n\n"
            "Run scripts\\notes.py first.\n\n```sh\npython scripts\\notes.py --draft\n```\n")
    await open_doc(client, path, text)
    diags = [d for d in await current(client, uri(path), 1) if d.code == "BACKSLASH_PATH"]
    assert [d.range.start.line for d in diags] == [5, 8]
    menus = []
    for diag in diags:
        actions = await client.text_document_code_action_async(t.CodeActionParams(
            text_document=t.TextDocumentIdentifier(uri=uri(path)), range=diag.range,
            context=t.CodeActionContext(diagnostics=[diag], only=[t.CodeActionKind.QuickFix])))
        # (The suppression quick-fix every finding offers comes last: not this test's concern.)
        menus.append([(a.title, bool(a.is_preferred)) for a in actions if not a.title.startswith("Suppress ")])
    assert menus == [[("Write 'scripts/notes.py'", True)],
                     [("Write 'scripts/notes.py' (unsafe: inside a code block)", False)]]
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri(path)), range=t.Range(t.Position(0, 0), t.Position(0, 0)),
        context=t.CodeActionContext(diagnostics=[], only=["source.fixAll.skill-lsp"])))
    fixed = apply(client, text, edits_of(actions[0].edit))
    assert "Run scripts/notes.py first." in fixed and "python scripts\\notes.py --draft\n" in fixed


async def test_preview_with_a_bad_dialect_is_an_invalid_params_error(client, workspace):
    from pygls.exceptions import JsonRpcInvalidParams

    with pytest.raises(JsonRpcInvalidParams, match="unknown dialect"):
        await client.workspace_execute_command_async(t.ExecuteCommandParams(
            command="skill-lsp.previewCatalog", arguments=[{"dialect": "no-such-dialect"}]))



async def test_targets_setting_changes_severity_and_the_message_names_the_harnesses(client, workspace):
    path = workspace / ".claude/skills/name-mismatch/SKILL.md"
    await open_doc(client, path)
    diags = await current(client, uri(path), 1)
    d = next(d for d in diags if d.code == "NAME_MISMATCH")
    assert d.severity == t.DiagnosticSeverity.Error  # the sample's `profile = "skill-tool"`
    client.set_configuration({"debounceMs": 0, "targets": ["claude-code", "codex"]}, section="skillLsp")
    seen = len(client.diagnostics_history)
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={}))

    async def warning_now():
        if client.client_name != "vscode-pull":
            latest = next((p for p in reversed(client.diagnostics_history[seen:]) if p.uri == uri(path)), None)
            got = latest.diagnostics if latest is not None else []
        else:
            got = await current(client, uri(path), 1)
        hit = [x for x in got if x.code == "NAME_MISMATCH" and x.severity == t.DiagnosticSeverity.Warning]
        return hit or None

    for _ in range(200):
        hit = await warning_now()
        if hit:
            break
        await asyncio.sleep(0.05)
    assert hit and hit[0].message.endswith("Claude Code lists it under the folder name (`- folder (name): …`); "
                                           "Codex lists it under its frontmatter name")
    status = await client.workspace_execute_command_async(t.ExecuteCommandParams(command="skill-lsp.status", arguments=[{}]))
    assert status["targets"] == ["claude-code", "codex"]
