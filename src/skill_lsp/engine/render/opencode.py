"""``opencode``: OpenCode ``packages/opencode/src/tool/skill.ts`` (activation format documented by its source)."""

from __future__ import annotations

import os
from pathlib import Path

from skill_lsp.engine.activation.jsstr import js_trim
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult

from .base import Dialect, record_description

__all__ = ["OpenCodeDialect"]


class OpenCodeDialect(Dialect):
    name = "opencode"
    label = "OpenCode"

    def render_ok(self, result: OkResult) -> str:
        base = Path(result.dir).as_uri() if os.path.isabs(result.dir) else result.dir
        # OpenCode samples up to 10 files with ripgrep (any depth, SKILL.md
        # excluded); the preview uses our resource listing, absolute, without
        # overflow markers.
        files = [
            os.path.join(result.dir, r)
            for r in result.resources
            if not r.rsplit("/", 1)[-1].startswith("(... ")
        ][:10]
        return "\n".join(
            [
                f'<skill_content name="{result.name}">',
                f"# Skill: {result.name}",
                "",
                js_trim(result.body),
                "",
                f"Base directory for this skill: {base}",
                "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
                "Note: file list is sampled.",
                "",
                "<skill_files>",
                "\n".join(f"<file>{f}</file>" for f in files),
                "</skill_files>",
                "</skill_content>",
            ]
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        return f'Skill "{result.name}" not found. Available skills: {", ".join(result.siblings) or "none"}'

    def catalog_entry(self, record: SkillRecord) -> str:
        # Inferred: OpenCode lists skills inside the tool description (skill.txt).
        return f"<skill><name>{record.name}</name><description>{record_description(record)}</description></skill>"
