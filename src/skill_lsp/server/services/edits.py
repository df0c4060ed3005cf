"""Workspace edits: text edits on open buffers, fixes, fix-all, and (later) renames."""

from __future__ import annotations

import os

from lsprotocol import types as t

from ...engine.fixes import Fix
from ...engine.text import SourceText
from ...engine.workspace import fix_all_text
from .. import convert
from ..server import SkillLanguageServer
from ..uris import path_to_uri


def resource_rename_support(ls: SkillLanguageServer) -> bool:
    ws = ls.client_capabilities.workspace
    we = ws.workspace_edit if ws else None
    return bool(we and we.resource_operations and t.ResourceOperationKind.Rename in we.resource_operations)


def document_changes_support(ls: SkillLanguageServer) -> bool:
    ws = ls.client_capabilities.workspace
    we = ws.workspace_edit if ws else None
    return bool(we and we.document_changes)


def text_edit(ls: SkillLanguageServer, od, edits: list[t.TextEdit]) -> t.WorkspaceEdit:
    """Versioned documentChanges where the client takes them, plain changes otherwise."""
    if document_changes_support(ls):
        return t.WorkspaceEdit(document_changes=[t.TextDocumentEdit(
            text_document=t.OptionalVersionedTextDocumentIdentifier(uri=od.uri, version=od.version), edits=edits)])
    return t.WorkspaceEdit(changes={od.uri: edits})


def fix_edit(ls: SkillLanguageServer, od, src, fix: Fix) -> t.WorkspaceEdit | None:
    """The edit of one engine fix; None when the client cannot apply it (a folder rename)."""
    enc = ls.encoding
    if fix.rename is not None:
        if not resource_rename_support(ls):
            return None
        old, new = fix.rename
        if os.path.exists(new):
            return None
        return t.WorkspaceEdit(document_changes=[t.RenameFile(
            old_uri=path_to_uri(old), new_uri=path_to_uri(new),
            options=t.RenameFileOptions(overwrite=False, ignore_if_exists=False))])
    return text_edit(ls, od, [t.TextEdit(range=convert.range_(src, e.start, e.end, enc), new_text=e.text)
                              for e in fix.edits])


def fix_all_edit(ls: SkillLanguageServer, uri: str) -> t.TextEdit | None:
    od = ls.state.docs.get(uri)
    if od is None:
        return None
    settings = ls.state.folder_for(od.path).settings
    on_disk = od.path is not None and os.path.isdir(os.path.dirname(od.path))
    new = fix_all_text(od.text, od.path or "", settings, on_disk=on_disk)
    if new == od.text:
        return None
    src = SourceText(od.text)
    end = src.position(len(od.text), ls.encoding)
    return t.TextEdit(range=t.Range(t.Position(0, 0), t.Position(*end)), new_text=new)
