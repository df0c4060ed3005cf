"""Settings: merging raw tables, retired keys."""

from __future__ import annotations

from skill_lsp.engine.config import Settings, merge


def test_retired_hide_builtin_duplicates_is_accepted_silently():
    # Older VS Code configs still send it; it must neither warn nor hide anything.
    settings, problems = merge(Settings(), {"hideBuiltinDuplicates": True, "hide-builtin-duplicates": True}, "x")
    assert problems == []
    assert settings == Settings()


def test_unknown_keys_are_still_reported():
    _, problems = merge(Settings(), {"hideBuiltinDuplicate": True}, "x")
    assert problems == ["x: unknown setting 'hideBuiltinDuplicate'"]
