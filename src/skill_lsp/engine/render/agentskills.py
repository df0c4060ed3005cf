"""``agentskills``: the agentskills.io reference (``skills-ref`` 0.1.1) and client guide.

Catalog: ``skills_ref.prompt.to_prompt`` byte for byte (multi-line elements,
``html.escape`` with quotes on name and description, location = resolved
absolute SKILL.md path, unescaped).  Activation: the client guide's
recommended ``<skill_content>`` wrapper (documented example, not code).
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult

from ..lenient import simple_frontmatter, text_value
from .base import Dialect

__all__ = ["AgentSkillsDialect", "to_prompt"]


def _scalar(record: SkillRecord, key: str) -> str | None:
    """A field as skills-ref reads it: strictyaml gives every scalar as the text written
    (``description: 42`` is ``"42"``); None for a list, a map or no value."""
    value = record.frontmatter.get(key)
    if isinstance(value, str):
        return value
    if not isinstance(value, (bool, int, float)):
        return None
    written = (simple_frontmatter(record.text) or {}).get(key)
    return written if written is not None else text_value(value)


def _name(record: SkillRecord) -> str:
    value = _scalar(record, "name")
    return (value if value is not None else record.name).strip()


def _description(record: SkillRecord) -> str:
    value = _scalar(record, "description")
    return value.strip() if value is not None else ""


def _location(record: SkillRecord) -> str:
    # skills-ref resolves the skill dir (symlinks included) then joins SKILL.md.
    return os.path.join(os.path.realpath(record.dir), os.path.basename(record.path) or "SKILL.md")


def _skill_lines(record: SkillRecord) -> list[str]:
    return [
        "<skill>",
        "<name>",
        html.escape(_name(record)),
        "</name>",
        "<description>",
        html.escape(_description(record)),
        "</description>",
        "<location>",
        _location(record),
        "</location>",
        "</skill>",
    ]


def to_prompt(records: Sequence[SkillRecord]) -> str:
    """``skills_ref.prompt.to_prompt`` over records, in the given order."""
    if not records:
        return "<available_skills>\n</available_skills>"
    lines = ["<available_skills>"]
    for record in records:
        lines.extend(_skill_lines(record))
    lines.append("</available_skills>")
    return "\n".join(lines)


class AgentSkillsDialect(Dialect):
    name = "agentskills"
    label = "agentskills.io reference (skills-ref) + client guide"

    def includes(self, record: SkillRecord) -> bool:
        # read_properties needs a non-empty name and description; it does not
        # compare the name with the folder.
        if record.error is not None and record.error[0] != "NAME_MISMATCH":
            return False
        name = _scalar(record, "name")
        return name is not None and bool(name.strip()) and bool(_description(record))

    def order(self, records):  # type: ignore[override]
        # to_prompt keeps its argument order; callers pass the catalog order.
        return [r for r in records if self.includes(r)]

    def render_ok(self, result: OkResult) -> str:
        lines = [f'<skill_content name="{html.escape(result.name)}">', result.body.strip("\n")]
        lines.append(f"Skill directory: {result.dir}")
        lines.append("Relative paths in this skill are relative to the skill directory.")
        if result.resources:
            lines.append("")
            lines.append("<skill_resources>")
            lines.extend(f"  <file>{html.escape(r, quote=False)}</file>" for r in result.resources)
            lines.append("</skill_resources>")
        lines.append("</skill_content>")
        return "\n".join(lines)

    def render_not_found(self, result: NotFoundResult) -> str:
        text = f'Skill "{result.name}" not found.'
        if result.siblings:
            text += f" Did you mean: {', '.join(result.siblings)}?"
        return text

    def catalog_entry(self, record: SkillRecord) -> str:
        return "\n".join(_skill_lines(record))

    def render_catalog(self, records: Sequence[SkillRecord]) -> str:
        return to_prompt(self.order(records))
