"""``claude-code``: Claude Code (closed source; formats inferred from public issues/docs).

Listing line ``- name: description`` under the Skill tool text; a per-skill cap
of 1,536 characters over description + when_to_use; custom frontmatter never
reaches the model.  Activation: base-directory line then the body.
"""

from __future__ import annotations

from collections.abc import Sequence

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult

from .base import BudgetWarning, Dialect, record_description

__all__ = ["ClaudeCodeDialect", "MAX_LISTING_DESCRIPTION_CHARS"]

MAX_LISTING_DESCRIPTION_CHARS = 1536
_HEADER = "The following skills are available for use with the Skill tool:"


def _listing_text(record: SkillRecord) -> str:
    description = record_description(record)
    when = record.frontmatter.get("when_to_use")
    if isinstance(when, str) and when:
        return f"{description} {when}" if description else when
    return description


class ClaudeCodeDialect(Dialect):
    name = "claude-code"
    label = "Claude Code (inferred)"

    def includes(self, record: SkillRecord) -> bool:
        # Claude Code warns on a name/folder mismatch but still loads the skill.
        if record.error is not None and record.error[0] != "NAME_MISMATCH":
            return False
        return record.frontmatter.get("disable-model-invocation") is not True

    def render_ok(self, result: OkResult) -> str:
        return f"Base directory for this skill: {result.dir}\n\n{result.body.strip()}"

    def render_not_found(self, result: NotFoundResult) -> str:
        return f"Unknown skill: {result.name}"

    def catalog_entry(self, record: SkillRecord) -> str:
        text = _listing_text(record)
        if len(text) > MAX_LISTING_DESCRIPTION_CHARS:
            text = text[: MAX_LISTING_DESCRIPTION_CHARS - 1] + "\u2026"
        return f"- {record.name}: {text}"

    def render_catalog(self, records: Sequence[SkillRecord]) -> str:
        lines = [self.catalog_entry(r) for r in self.order(records)]
        return "\n".join([_HEADER, "", *lines]) if lines else ""

    def entry_warnings(self, record: SkillRecord) -> list[BudgetWarning]:
        if not self.includes(record):
            return []
        text = _listing_text(record)
        if len(text) <= MAX_LISTING_DESCRIPTION_CHARS:
            return []
        return [
            BudgetWarning(
                self.name,
                "claude-code-listing-cap",
                f"description + when_to_use is {len(text)} chars; Claude Code lists at most {MAX_LISTING_DESCRIPTION_CHARS} per skill",
                MAX_LISTING_DESCRIPTION_CHARS,
                len(text),
                kept=text[: MAX_LISTING_DESCRIPTION_CHARS - 1],
                cut=text[MAX_LISTING_DESCRIPTION_CHARS - 1 :],
            )
        ]
