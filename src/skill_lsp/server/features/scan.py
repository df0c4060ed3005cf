"""Watched-file events: queued and coalesced, then applied by the sync service."""

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
