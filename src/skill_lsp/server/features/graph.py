"""The skill graph in the editor: definition, references, highlights, rename, folder renames, workspace symbols."""

from __future__ import annotations

import os

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException

from ...engine.discovery import is_inside
from ...engine.skillgraph import name_problems, rename_conflicts
from .. import convert
from ..server import SkillLanguageServer, guarded
from ..services import graph
from ..services.edits import folder_rename_edit, rename_edit
from ..uris import path_to_uri, uri_to_path

MAX_SYMBOLS = 1000


class JsonRpcRequestFailed(JsonRpcException):
    """LSP RequestFailed: the request was valid but cannot be carried out (the message says why)."""

    CODE = -32803
    MESSAGE = "Request failed"


def _location(ls: SkillLanguageServer, occ: graph.Occurrence) -> t.Location:
    return t.Location(uri=path_to_uri(occ.path), range=convert.range_(occ.src, occ.start, occ.end, ls.encoding))  # type: ignore[arg-type]


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    @guarded(None)
    def references(ls: SkillLanguageServer, params: t.ReferenceParams) -> list[t.Location] | None:
        got = graph.at(ls, params.text_document.uri, params.position)
        if got is None:
            return None
        target = got[0]
        occs = graph.occurrences(ls, target.name, target.skill_md)
        if not params.context.include_declaration:
            occs = [o for o in occs if o.kind != "name"]
        return [_location(ls, o) for o in occs]

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @guarded(None)
    def highlights(ls: SkillLanguageServer, params: t.DocumentHighlightParams) -> list[t.DocumentHighlight] | None:
        got = graph.at(ls, params.text_document.uri, params.position)
        if got is None:
            return None
        target = got[0]
        path = uri_to_path(params.text_document.uri)
        return [t.DocumentHighlight(range=convert.range_(o.src, o.start, o.end, ls.encoding),  # type: ignore[arg-type]
                                    kind=t.DocumentHighlightKind.Write if o.kind == "name" else t.DocumentHighlightKind.Read)
                for o in graph.occurrences(ls, target.name, target.skill_md) if o.path == path]

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    def prepare_rename(ls: SkillLanguageServer, params: t.PrepareRenameParams):
        got = graph.at(ls, params.text_document.uri, params.position)
        if got is None:
            return None
        target, src = got
        if target.skill_md is None:
            raise JsonRpcRequestFailed(message=f"no skill named '{target.name}' in the workspace to rename")
        return t.PrepareRenamePlaceholder(range=convert.range_(src, target.start, target.end, ls.encoding),  # type: ignore[arg-type]
                                          placeholder=target.name)

    @server.feature(t.TEXT_DOCUMENT_RENAME, t.RenameOptions(prepare_provider=True))
    async def rename(ls: SkillLanguageServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
        # Edits of closed files are computed from the disk, after any scan or batch of file events
        # is applied: the index must know every file that mentions the skill.
        if not await graph.settled(ls):
            raise JsonRpcRequestFailed(message="skill-lsp is still reading changes on disk (a scan or file events "
                                               "are pending): try the rename again in a moment")
        got = graph.at(ls, params.text_document.uri, params.position)
        if got is None:
            return None
        target = got[0]
        if target.skill_md is None:
            raise JsonRpcRequestFailed(message=f"no skill named '{target.name}' in the workspace to rename")
        new = params.new_name
        if new == target.name:
            return t.WorkspaceEdit(changes={})
        folder = ls.state.folder_for(target.skill_md)
        why = name_problems(new, folder.settings)
        if why:
            raise JsonRpcRequestFailed(message=f"'{new}' is not a valid skill name: {'; '.join(why)}")
        if graph.definitions(ls, new, target.skill_md):
            raise JsonRpcRequestFailed(message=f"a skill named '{new}' already exists")
        clash = rename_conflicts(new, graph.all_names(ls) - {target.name})
        if clash:
            raise JsonRpcRequestFailed(message=f"refusing '{new}': {'; '.join(clash)}")
        skill_dir = os.path.dirname(target.skill_md)
        if not graph.in_workspace(ls, skill_dir):
            raise JsonRpcRequestFailed(message=f"'{target.name}' lives outside the workspace ({skill_dir}): "
                                               "skill-lsp does not change it")
        real = os.path.realpath(skill_dir)
        if any(f.path and is_inside(os.path.realpath(f.path), real) for f in ls.state.folders):
            raise JsonRpcRequestFailed(message=f"'{target.name}' is the workspace folder itself ({skill_dir}): "
                                               "skill-lsp does not move it; rename the folder outside the editor")
        sibling = os.path.join(os.path.dirname(skill_dir), new)
        if os.path.lexists(sibling):
            raise JsonRpcRequestFailed(message=f"a folder named '{new}' already exists next to the skill")
        edit, note = rename_edit(ls, target, new)
        if note:
            ls.show(note, t.MessageType.Info)
        return edit

    @server.feature(t.WORKSPACE_WILL_RENAME_FILES, t.FileOperationRegistrationOptions(filters=[
        t.FileOperationFilter(scheme="file", pattern=t.FileOperationPattern(
            glob="**/*", matches=t.FileOperationPatternKind.Folder))]))
    @guarded(None)
    async def will_rename(ls: SkillLanguageServer, params: t.RenameFilesParams) -> t.WorkspaceEdit | None:
        await graph.settled(ls)  # the edit reads closed files from disk; the index names which
        out: t.WorkspaceEdit | None = None
        for f in params.files:
            old, new = uri_to_path(f.old_uri), uri_to_path(f.new_uri)
            if old is None or new is None:
                continue
            if (old, new) in ls.own_renames:
                ls.own_renames.discard((old, new))  # our own rename edit: its text changes are applied
                continue
            edit = folder_rename_edit(ls, old, new)
            if edit is None:
                continue
            if out is None:
                out = edit
            elif out.document_changes is not None and edit.document_changes is not None:
                out.document_changes = [*out.document_changes, *edit.document_changes]
            elif out.changes is not None and edit.changes is not None:
                out.changes = {**out.changes, **edit.changes}
        return out

    @server.feature(t.WORKSPACE_SYMBOL)
    @guarded([])
    def workspace_symbols(ls: SkillLanguageServer, params: t.WorkspaceSymbolParams) -> list[t.WorkspaceSymbol]:
        query = params.query.lower()
        out = []
        for folder in ls.state.folders or [ls.state.default]:
            if folder.index is None:
                continue
            for path, r in sorted(folder.index.results.items()):
                name, desc = r.name, r.description
                if query and not (_subsequence(query, name.lower()) or query in desc.lower()):
                    continue
                v = graph.view(ls, path)
                span = (v.name_span if v is not None else None) or (0, 0)
                rng = convert.range_(v.src, *span, ls.encoding) if v is not None else t.Range(  # type: ignore[arg-type]
                    t.Position(0, 0), t.Position(0, 0))
                out.append(t.WorkspaceSymbol(name=name, kind=t.SymbolKind.Module,
                                             container_name=desc[:120] or None,
                                             location=t.Location(uri=path_to_uri(path), range=rng)))
                if len(out) >= MAX_SYMBOLS:
                    return out
        return out


def _subsequence(query: str, name: str) -> bool:
    it = iter(name)
    return all(ch in it for ch in query)
