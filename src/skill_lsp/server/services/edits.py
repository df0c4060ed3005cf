"""Workspace edits: text edits on open buffers, fixes, fix-all, and (later) renames."""

from __future__ import annotations

import asyncio
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


async def fix_all_edit(ls: SkillLanguageServer, uri: str) -> tuple[t.TextEdit, int] | None:
    """The fix-all edit of an open document and the version it is for, computed off the event
    loop (a long file with many fixes must not hold up other requests); None when nothing is
    to fix or the document changed meanwhile."""
    od = ls.state.docs.get(uri)
    if od is None:
        return None
    text, version, path = od.text, od.version, od.path
    settings = ls.state.folder_for(path).settings
    on_disk = path is not None and os.path.isdir(os.path.dirname(path))
    new = await asyncio.get_running_loop().run_in_executor(
        None, lambda: fix_all_text(text, path or "", settings, on_disk=on_disk))
    now = ls.state.docs.get(uri)
    if new == text or now is None or now.version != version:
        return None
    src = SourceText(text)
    end = src.position(len(text), ls.encoding)
    return t.TextEdit(range=t.Range(t.Position(0, 0), t.Position(*end)), new_text=new), version


# --- renaming a skill ---

def _grouped(ls: SkillLanguageServer, edits: dict[str, list[t.TextEdit]]) -> list:
    """One TextDocumentEdit per file: open buffers at their version, closed files unversioned."""
    out = []
    for path in sorted(edits):
        uri = path_to_uri(path)
        od = ls.state.docs.get(uri)
        out.append(t.TextDocumentEdit(
            text_document=t.OptionalVersionedTextDocumentIdentifier(uri=uri, version=od.version if od else None),
            edits=sorted(edits[path], key=lambda e: (e.range.start.line, e.range.start.character))))
    return out


def rename_edit(ls: SkillLanguageServer, target, new: str) -> tuple[t.WorkspaceEdit, str | None]:
    """The WorkspaceEdit of renaming ``target`` to ``new``, and a note for the user when the
    client cannot move the folder (then only the name and the mentions change)."""
    from .graph import in_workspace, occurrences  # noqa: PLC0415

    enc = ls.encoding
    skill_md = target.skill_md
    old_dir = os.path.dirname(skill_md) if skill_md else None
    new_dir = os.path.join(os.path.dirname(old_dir), new) if old_dir else None
    move = bool(old_dir and new_dir and os.path.basename(old_dir) != new)
    note = None
    # A client that lists resource operations takes documentChanges (Neovim 0.11 does not
    # also set workspaceEdit.documentChanges, but applies them).
    if move and not resource_rename_support(ls):
        move = False
        note = (f"skill-lsp renamed '{target.name}' to '{new}' and its mentions, but this editor cannot rename "
                f"folders through the language server: rename {os.path.basename(old_dir or '')}/ to {new}/ yourself.")
    elif move and os.path.exists(new_dir or ""):
        move = False
        note = f"skill-lsp did not rename the folder: {new_dir} already exists."
    edits: dict[str, list[t.TextEdit]] = {}
    for occ in occurrences(ls, target.name, skill_md, from_disk=True):
        if occ.kind == "name" and occ.path != skill_md:
            continue  # another skill of the same name (another root) keeps its name
        if occ.kind == "link" and not move:
            continue  # the folder stays where links point
        if not in_workspace(ls, occ.path):
            continue  # a skill root named in the user's settings, outside every folder: never edited
        edits.setdefault(occ.path, []).append(
            t.TextEdit(range=convert.range_(occ.src, occ.start, occ.end, enc), new_text=new))  # type: ignore[arg-type]
    if document_changes_support(ls) or move:
        changes: list = _grouped(ls, edits)
        if move:
            ls.own_renames.add((os.path.normpath(old_dir or ""), os.path.normpath(new_dir or "")))
            changes.append(t.RenameFile(old_uri=path_to_uri(old_dir or ""), new_uri=path_to_uri(new_dir or ""),
                                        options=t.RenameFileOptions(overwrite=False, ignore_if_exists=False)))
        return t.WorkspaceEdit(document_changes=changes), note
    return t.WorkspaceEdit(changes={path_to_uri(p): e for p, e in sorted(edits.items())}), note


def folder_rename_edit(ls: SkillLanguageServer, old_dir: str, new_dir: str) -> t.WorkspaceEdit | None:
    """Edits to go with a skill folder being renamed by the client (workspace/willRenameFiles):
    the skill's `name` and its name mentions follow the folder, links into it follow the path."""
    from ...engine.skillgraph import name_problems  # noqa: PLC0415
    from .graph import in_workspace, occurrences, view  # noqa: PLC0415

    folder = ls.state.folder_for(old_dir)
    skill_md = folder.index.graph.dirs.get(old_dir) if folder.index is not None else None
    if skill_md is None:
        return None
    v = view(ls, skill_md)
    if v is None:
        return None
    new = os.path.basename(new_dir)
    rename_name = not name_problems(new, folder.settings)
    enc = ls.encoding
    edits: dict[str, list[t.TextEdit]] = {}
    for occ in occurrences(ls, v.name, skill_md, from_disk=True):
        if occ.kind == "name" and occ.path != skill_md:
            continue
        if not in_workspace(ls, occ.path):
            continue
        if occ.kind != "link" and not rename_name:
            continue
        edits.setdefault(occ.path, []).append(
            t.TextEdit(range=convert.range_(occ.src, occ.start, occ.end, enc), new_text=new))  # type: ignore[arg-type]
    if not edits:
        return None
    if document_changes_support(ls):
        return t.WorkspaceEdit(document_changes=_grouped(ls, edits))
    return t.WorkspaceEdit(changes={path_to_uri(p): e for p, e in sorted(edits.items())})
