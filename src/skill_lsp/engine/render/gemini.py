"""``gemini``: Gemini CLI ``activate_skill`` (``activate-skill.ts`` / ``snippets.ts``)."""

from __future__ import annotations

from collections.abc import Sequence

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult

from .base import Dialect, record_description

__all__ = ["GeminiDialect"]


def _tree(resources: Sequence[str]) -> str:
    # Inferred: Gemini prints a folder tree; we print folder headers with
    # indented file names from the resource listing.
    lines: list[str] = []
    current = None
    for item in resources:
        folder, _, leaf = item.partition("/")
        if folder != current:
            lines.append(f"{folder}/")
            current = folder
        lines.append(f"  {leaf}")
    return "\n    ".join(lines)


class GeminiDialect(Dialect):
    name = "gemini"
    label = "Gemini CLI"

    def render_ok(self, result: OkResult) -> str:
        return (
            f'<activated_skill name="{result.name}">\n'
            f"  <instructions>\n"
            f"    {result.body.strip()}\n"
            f"  </instructions>\n"
            f"\n"
            f"  <available_resources>\n"
            f"    {_tree(result.resources)}\n"
            f"  </available_resources>\n"
            f"</activated_skill>"
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        return f'Error: Skill "{result.name}" not found. Available skills are: {", ".join(result.siblings)}'

    def catalog_entry(self, record: SkillRecord) -> str:
        # Not escaped by Gemini CLI.
        return (
            "  <skill>\n"
            f"    <name>{record.name}</name>\n"
            f"    <description>{record_description(record)}</description>\n"
            f"    <location>{record.path}</location>\n"
            "  </skill>"
        )

    def render_catalog(self, records: Sequence[SkillRecord]) -> str:
        entries = [self.catalog_entry(r) for r in self.order(records)]
        if not entries:
            return ""
        return "\n".join(["<available_skills>", *entries, "</available_skills>"])
