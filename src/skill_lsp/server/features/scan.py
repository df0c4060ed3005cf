"""Watched-file events and the client's own renames: queued and coalesced, then applied by the
sync service."""

from __future__ import annotations

from lsprotocol import types as t

from ..server import SkillLanguageServer, guarded
from ..services.sync import file_changes
from ..uris import uri_to_path


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded()
    def watched(ls: SkillLanguageServer, params: t.DidChangeWatchedFilesParams) -> None:
        changes = []
        for change in params.changes:
            path = uri_to_path(change.uri)
            if path is not None:
                changes.append((path, int(change.type)))
        if changes:
            file_changes(ls, changes)

    @server.feature(t.WORKSPACE_DID_RENAME_FILES, t.FileOperationRegistrationOptions(filters=[
        t.FileOperationFilter(scheme="file", pattern=t.FileOperationPattern(glob="**/*"))]))
    @guarded()
    def did_rename(ls: SkillLanguageServer, params: t.RenameFilesParams) -> None:
        # The editor moved files or folders (a rename edit's RenameFile, F2 on a folder): the old
        # paths are gone and the new ones appear, whether or not a file watcher reports it too.
        # Without this, a client with no watcher kept the old paths' diagnostics for good.
        changes = []
        for f in params.files:
            old, new = uri_to_path(f.old_uri), uri_to_path(f.new_uri)
            if old is not None:
                changes.append((old, int(t.FileChangeType.Deleted)))
            if new is not None:
                changes.append((new, int(t.FileChangeType.Created)))
        if changes:
            file_changes(ls, changes)
