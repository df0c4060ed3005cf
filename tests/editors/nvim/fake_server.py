"""A tiny stand-in for `skill-lsp serve`, used by test_nvim_plugin.py.

It implements just enough of docs/server.md to exercise the Neovim plugin on
its own (diagnostics, quick-fixes, code lens, the two preview commands and
`skillLsp/status`), so the plugin's tests do not depend on the real rules.
Run: python fake_server.py
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

server = LanguageServer(
    "fake-skill-lsp", "0.0.0-fake", text_document_sync_kind=t.TextDocumentSyncKind.Full
)

SKILL_NAMES = {"SKILL.md", "skill.md"}


def _path(uri: str) -> str:
    return unquote(urlparse(uri).path)


def _is_skill(uri: str) -> bool:
    return PurePosixPath(_path(uri)).name in SKILL_NAMES


def _diagnostics(uri: str, text: str) -> list[t.Diagnostic]:
    diags: list[t.Diagnostic] = []
    folder = PurePosixPath(_path(uri)).parent.name
    lines = text.split("\n")
    in_fm = bool(lines) and lines[0] == "---"
    for i, line in enumerate(lines):
        if i > 0 and line == "---":
            in_fm = False
        m = re.match(r"name:\s*(\S+)\s*$", line)
        if in_fm and m and m.group(1) != folder:
            s = line.index(m.group(1))
            diags.append(
                t.Diagnostic(
                    range=t.Range(t.Position(i, s), t.Position(i, s + len(m.group(1)))),
                    message=f"name {m.group(1)!r} differs from folder {folder!r}",
                    severity=t.DiagnosticSeverity.Error,
                    code="NAME_MISMATCH",
                    source="skill-lsp",
                    data={"folder": folder},
                )
            )
        stripped = line.rstrip(" \t")
        if stripped != line:
            diags.append(
                t.Diagnostic(
                    range=t.Range(t.Position(i, len(stripped)), t.Position(i, len(line))),
                    message="trailing whitespace",
                    severity=t.DiagnosticSeverity.Hint,
                    code="TRAILING_WHITESPACE",
                    source="skill-lsp",
                )
            )
    return diags


def _publish(ls: LanguageServer, uri: str) -> None:
    if not _is_skill(uri):
        return
    doc = ls.workspace.get_text_document(uri)
    ls.text_document_publish_diagnostics(
        t.PublishDiagnosticsParams(
            uri=uri, diagnostics=_diagnostics(uri, doc.source), version=doc.version
        )
    )
    ls.protocol.notify("skillLsp/status", {"profile": "skill-tool", "skills": 1, "scanning": False})


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: t.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: t.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(
    t.TEXT_DOCUMENT_CODE_ACTION,
    t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]),
)
def code_action(ls: LanguageServer, params: t.CodeActionParams) -> list[t.CodeAction]:
    uri = params.text_document.uri
    if not _is_skill(uri):
        return []
    doc = ls.workspace.get_text_document(uri)
    actions = []
    for d in _diagnostics(uri, doc.source):
        if (
            d.range.start.line < params.range.start.line
            or d.range.start.line > params.range.end.line
        ):
            continue
        if d.code == "TRAILING_WHITESPACE":
            title, new = "Trim trailing whitespace", ""
        elif d.code == "NAME_MISMATCH":
            title, new = f"Set name to {d.data['folder']!r}", d.data["folder"]  # type: ignore[index]
        else:
            continue
        actions.append(
            t.CodeAction(
                title=title,
                kind=t.CodeActionKind.QuickFix,
                diagnostics=[d],
                edit=t.WorkspaceEdit(changes={uri: [t.TextEdit(range=d.range, new_text=new)]}),
            )
        )
    return actions


@server.feature(t.TEXT_DOCUMENT_CODE_LENS)
def code_lens(ls: LanguageServer, params: t.CodeLensParams) -> list[t.CodeLens]:
    uri = params.text_document.uri
    if not _is_skill(uri):
        return []
    r = t.Range(t.Position(0, 0), t.Position(0, 0))
    return [
        t.CodeLens(
            range=r,
            command=t.Command(
                title="Preview activation",
                command="skill-lsp.previewActivation",
                arguments=[{"uri": uri}],
            ),
        ),
        t.CodeLens(
            range=r,
            command=t.Command(
                title="≈42 catalog tokens (skill-tool)",
                command="skill-lsp.previewCatalog",
                arguments=[{"uri": uri}],
            ),
        ),
    ]


def render(uri: str, dialect: str, text: str) -> str:
    # Deliberately awkward text: trailing empty lines, a CR, a tab, unicode.
    return f"<skill dialect={dialect!r} folder={PurePosixPath(_path(uri)).parent.name!r}>\r\n\t{text}\n</skill>\n\n"


@server.command("skill-lsp.previewActivation")
def preview_activation(ls: LanguageServer, *args: dict) -> dict:
    arg = args[0] if args else {}
    dialect = arg.get("dialect") or "skill-tool"
    uri = arg["uri"]
    doc = ls.workspace.get_text_document(uri)
    return {
        "text": render(uri, dialect, doc.source),
        "kind": "ok",
        "dialect": dialect,
        "result": {},
        "previewUri": f"skill-lsp-preview:activation?dialect={dialect}",
    }


@server.command("skill-lsp.previewCatalog")
def preview_catalog(ls: LanguageServer, *args: dict) -> dict:
    arg = args[0] if args else {}
    dialect = arg.get("dialect") or "skill-tool"
    return {
        "text": f"catalog for {dialect}\n- bad-skill: …\n",
        "dialect": dialect,
        "entries": [],
        "previewUri": "skill-lsp-preview:catalog",
    }


@server.command("skill-lsp.status")
def status(ls: LanguageServer, *args: dict) -> dict:
    return {
        "version": "0.0.0-fake",
        "profile": "skill-tool",
        "skills": 1,
        "roots": [".claude/skills"],
    }


if __name__ == "__main__":
    server.start_io()
