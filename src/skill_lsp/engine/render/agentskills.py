"""``agentskills``: the agentskills.io reference (``skills-ref`` 0.1.1) and client guide.

Catalog: ``skills_ref.prompt.to_prompt`` byte for byte (multi-line elements,
``html.escape`` with quotes on name and description, location = resolved
absolute SKILL.md path, unescaped), over every skill folder whose SKILL.md
skills-ref can read (``skills_ref.read_skill``: a name that differs from the folder
or is no valid name is listed as written). A skill it cannot read is left out, with
skills-ref's reason: given it, `to-prompt` fails as a whole. Activation: the client
guide's recommended ``<skill_content>`` wrapper (documented example, not code).
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence

from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult

from ..lenient import simple_frontmatter, text_value
from .base import Dialect
from .skills_ref import RefSkill, read_skill

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


def _read(record: SkillRecord) -> RefSkill | None:
    """What skills-ref reads from the skill's folder; None for a record built in memory."""
    if record.error is not None and record.error[0] == "OUTSIDE_WORKSPACE":
        # skill-lsp's fence: a skill resolving outside the workspace is never read.
        return RefSkill(None, None, None, f"skill-lsp does not read a skill outside the workspace ({record.error[1]})")
    if not record.dir or not os.path.isdir(record.dir):
        return None
    return read_skill(record.dir)


def _name(record: SkillRecord) -> str:
    ref = _read(record)
    if ref is not None and ref.name is not None:
        return ref.name
    value = _scalar(record, "name")
    return (value if value is not None else record.name).strip()


def _description(record: SkillRecord) -> str:
    ref = _read(record)
    if ref is not None and ref.description is not None:
        return ref.description
    value = _scalar(record, "description")
    return value.strip() if value is not None else ""


def _location(record: SkillRecord) -> str:
    ref = _read(record)
    if ref is not None and ref.location is not None:
        return ref.location
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
        return self.left_out(record) is None

    def left_out(self, record: SkillRecord) -> str | None:
        """Why skills-ref cannot read the skill (None when to-prompt lists it)."""
        ref = _read(record)
        if ref is not None:
            return ref.error
        # A record built in memory: read_properties needs a non-empty name and description, and
        # of the errors the lint knows only a name/folder mismatch is none of skills-ref's.
        if record.error is not None and record.error[0] != "NAME_MISMATCH":
            return record.error[1]
        name = _scalar(record, "name")
        if name is None or not name.strip() or not _description(record):
            return record.error[1] if record.error is not None else "no name or description"
        return None

    def select(self, records: Sequence[SkillRecord]) -> tuple[list[SkillRecord], list[dict[str, str]]]:
        # to_prompt lists every folder it is given, in that order. Which folders: one per name,
        # as the agentskills client guide says ("project-level skills override user-level
        # skills"; in one root the first found), so the lower root index, then the path, wins.
        winners: dict[str, SkillRecord] = {}
        skipped: list[dict[str, str]] = []
        for r in sorted(records, key=lambda r: (r.root_index, r.path)):
            why = self.left_out(r)
            if why is not None:
                skipped.append({"name": r.name, "path": r.path,
                                "reason": f"skills-ref cannot read it ({why}); given it, to-prompt fails"})
                continue
            name = _name(r)
            if name in winners:
                skipped.append({"name": name, "path": r.path,
                                "reason": f"another skill of the same name wins: {winners[name].path}"})
            else:
                winners[name] = r
        kept = {id(r) for r in winners.values()}
        return [r for r in records if id(r) in kept], skipped

    def entry_name(self, record: SkillRecord) -> str:
        return _name(record)

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
