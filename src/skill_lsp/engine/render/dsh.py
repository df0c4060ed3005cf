"""``dsh``: DeepSeek Harness (``@deepseek-ai/dsh-skill`` / ``dsh-tool-skill`` 0.1.0-rc.8).

Activation is ``renderSkillContent`` byte for byte with a directory resource
base and ``content = body.trim()`` (JS trim).  The catalog reproduces the
first-publication, replacement and empty-replacement ``<system-reminder>``
messages, the description normalisation (JS ``/\\s+/g`` collapse, trim, cap in
UTF-16 code units ending in ``...``), ``escapeText`` on descriptions, the
model-invocable filter, JS default sort and the sha256 entry digest.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence

from skill_lsp.engine.activation.jsstr import (
    js_collapse_ws,
    js_json_string,
    js_string,
    js_trim,
    to_utf8_bytes,
    utf16_key,
    utf16_len,
    utf16_slice,
)
from skill_lsp.engine.activation.params import is_skill_name
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import ErrorResult, NotFoundResult, OkResult
from skill_lsp.engine.datarecord import replace
from skill_lsp.engine.harness import HARNESSES, win_rank

from .base import BudgetWarning, Dialect, record_description

__all__ = [
    "DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH",
    "DshDialect",
    "catalog_description",
    "catalog_digest",
    "catalog_entries",
    "escape_attr",
    "escape_text",
    "is_model_invocable",
    "render_catalog_message",
    "render_catalog_update",
    "render_skill_content",
]

DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH = 500

_TRUE = {"true", "yes", "on", "1"}


def escape_attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def escape_text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_skill_content(
    name: str,
    content: str,
    *,
    resource_base: tuple[str, str] | None = None,
    provider: str = "filesystem",
) -> str:
    """``renderSkillContent``: ``resource_base`` is ``("directory"|"url"|"opaque", value)`` or ``None``."""
    if resource_base is None:
        hint = [
            f'Resources for this skill are managed by provider "{escape_text(provider)}".',
            "Load referenced resources only as needed.",
        ]
    else:
        kind, value = resource_base
        if kind == "directory":
            hint = [
                f"Base directory for this skill: {escape_text(value)}",
                "Resolve relative paths mentioned by this skill against the base directory before using them. Load referenced resources only as needed.",
            ]
        elif kind == "url":
            hint = [
                f"Base URL for this skill: {escape_text(value)}",
                "Resolve relative URLs mentioned by this skill against the base URL before using them. Load referenced resources only as needed.",
            ]
        elif kind == "opaque":
            hint = [
                f"Resources for this skill: {escape_text(value)}",
                "Load referenced resources only as needed.",
            ]
        else:
            raise ValueError(f"unknown resource base kind {kind!r}")
    return "\n".join(
        [
            f'<skill_content name="{escape_attr(name)}">',
            "<skill_resources>",
            *hint,
            "</skill_resources>",
            "",
            "<skill_instructions>",
            content,
            "</skill_instructions>",
            "</skill_content>",
        ]
    )


def _check_max_length(max_length: object) -> int:
    if isinstance(max_length, bool) or not isinstance(max_length, (int, float)):
        raise ValueError(
            "tool-skill: catalogDescriptionMaxLength must be an integer greater than or equal to 3"
        )
    if isinstance(max_length, float) and not max_length.is_integer():
        raise ValueError(
            "tool-skill: catalogDescriptionMaxLength must be an integer greater than or equal to 3"
        )
    if max_length < 3:
        raise ValueError(
            "tool-skill: catalogDescriptionMaxLength must be an integer greater than or equal to 3"
        )
    return int(max_length)


def catalog_description(
    value: str, max_length: int = DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH
) -> str:
    """Normalised, capped description exactly as the catalog publishes it (unescaped)."""
    max_length = _check_max_length(max_length)
    normalized = js_collapse_ws(value)
    if utf16_len(normalized) <= max_length:
        return normalized
    return utf16_slice(normalized, max_length - 3) + "..."


def is_model_invocable(record: SkillRecord) -> bool:
    value = record.frontmatter.get("disable-model-invocation")
    if value is True or (isinstance(value, int) and not isinstance(value, bool) and value == 1):
        return False
    if isinstance(value, str) and value in _TRUE:
        return False
    return True


def _listable(record: SkillRecord) -> bool:
    # DSH skips files without a non-empty name/description or with a non-kebab
    # name; it never compares the name with the folder.
    if record.error is not None and record.error[0] != "NAME_MISMATCH":
        return False
    description = record.frontmatter.get("description")
    return is_skill_name(record.name) and isinstance(description, str) and description != ""


def _rank(record: SkillRecord) -> tuple[int, int]:
    """Which copy of a name DSH keeps: the lower root rank (.dsh/skills before .agents/skills, user
    roots after: ``Harness.wins``), then the root's place in skill-lsp's order (custom roots)."""
    rank = win_rank(HARNESSES["dsh"], os.path.dirname(record.path))
    return (len(HARNESSES["dsh"].wins) if rank is None else rank, record.root_index)


def _one_per_name(records: Sequence[SkillRecord]) -> list[SkillRecord]:
    """The listable records, the copy of each name DSH keeps (``_rank``)."""
    seen: dict[str, SkillRecord] = {}
    for record in sorted(records, key=_rank):
        if _listable(record) and record.name not in seen:
            seen[record.name] = record
    return list(seen.values())


def catalog_entries(
    records: Sequence[SkillRecord], max_length: int = DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH
) -> list[tuple[str, str]]:
    """``[(name, description)]`` of model-invocable skills, JS-sorted, one per name."""
    ordered = sorted(_one_per_name(records), key=lambda r: utf16_key(r.name))
    return [
        (r.name, catalog_description(record_description(r), max_length))
        for r in ordered
        if is_model_invocable(r)
    ]


def catalog_digest(entries: Sequence[tuple[str, str]]) -> str:
    canonical = "\n".join(
        f"[{js_json_string(name)},{js_json_string(desc)}]" for name, desc in entries
    )
    return hashlib.sha256(to_utf8_bytes(canonical)).hexdigest()


def _entry_lines(entries: Sequence[tuple[str, str]]) -> list[str]:
    return [f"- `{name}`: {escape_text(desc)}" for name, desc in entries]


_USE_LINE = (
    "If the user names a skill, or the task clearly matches a skill's description, call the `skill` tool with the "
    "exact skill name before taking task actions. Load all applicable skills, then follow their full instructions. "
    "This catalog contains summaries only; do not infer or follow a skill's instructions until it has been loaded."
)
_DIRECT_LINE = (
    "A user may also invoke a skill directly; its <skill_content> block then appears in this conversation. "
    "Follow it, and do not call the `skill` tool again for that skill."
)


def render_catalog_message(entries: Sequence[tuple[str, str]]) -> str:
    """First publication."""
    return "\n".join(
        [
            "<system-reminder>",
            "A skill is a reusable set of task-specific instructions. The following skills are available in this session:",
            "",
            "<available_skills>",
            *_entry_lines(entries),
            "</available_skills>",
            "",
            _USE_LINE,
            _DIRECT_LINE,
            "</system-reminder>",
        ]
    )


def render_catalog_update(entries: Sequence[tuple[str, str]]) -> str:
    """Replacement after a change; the empty list is the tombstone."""
    if entries:
        availability = [
            "Use only names in this replacement catalog. If the user names a listed skill, or the task clearly "
            "matches its description, call the `skill` tool with the exact name before acting.",
            _DIRECT_LINE,
        ]
    else:
        availability = [
            "No skills are currently available through the `skill` tool. Do not use names from earlier skill catalogs.",
            "A user may still invoke a skill directly; its <skill_content> block then appears in this conversation. "
            "Follow it, and do not call the `skill` tool for it.",
        ]
    return "\n".join(
        [
            "<system-reminder>",
            "The available skill catalog changed. This complete catalog replaces every earlier available-skills list in this session:",
            "",
            "<available_skills>",
            *_entry_lines(entries),
            "</available_skills>",
            "",
            *availability,
            "</system-reminder>",
        ]
    )


class DshDialect(Dialect):
    name = "dsh"
    label = "DeepSeek Harness"

    def __init__(
        self, catalog_description_max_length: int = DEFAULT_CATALOG_DESCRIPTION_MAX_LENGTH
    ) -> None:
        self.max_length = _check_max_length(catalog_description_max_length)

    def render_ok(self, result: OkResult) -> str:
        return render_skill_content(
            result.name, js_trim(result.body), resource_base=("directory", result.dir)
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        return f'Error: skill "{result.name}" is unknown or no longer available'

    def render_error(self, result: ErrorResult) -> str:
        code = result.error.code
        name = result.name
        if code == "INVALID_PARAM" and isinstance(name, str) and not is_skill_name(name):
            return f'Error: invalid skill name "{name}"'
        if code == "INVALID_PARAM" and name is not None and not isinstance(name, str):
            return f'Error: invalid skill name "{js_string(name)}"'
        if code == "DISABLED":
            return f'Error: skill "{name}" is not available for model invocation'
        if code in ("NOT_FOUND", "INVALID_FRONTMATTER"):
            return f'Error: skill "{name}" is unknown or no longer available'
        return f"Error: {result.error.message}"

    def includes(self, record: SkillRecord) -> bool:
        return _listable(record) and is_model_invocable(record)

    def select_key(self, record: SkillRecord) -> tuple:
        return (*_rank(record), record.path)  # of one name, the copy DSH's root ranks keep

    def session_records(self, records: Sequence[SkillRecord]) -> list[SkillRecord]:
        """The records with their roots numbered in DSH's rank order: its skill tool resolves a name as
        its catalog lists it (the session takes the lower ``root_index``)."""
        ranks = sorted({_rank(r) for r in records})
        return [replace(r, root_index=ranks.index(_rank(r))) for r in records]

    def order(self, records):  # type: ignore[override]
        # The catalog's own entries: one copy of a name (listing decisions call the other shadowed).
        return sorted((r for r in _one_per_name(list(records)) if self.includes(r)), key=lambda r: utf16_key(r.name))

    def catalog_entry(self, record: SkillRecord) -> str:
        desc = catalog_description(record_description(record), self.max_length)
        return f"- `{record.name}`: {escape_text(desc)}"

    def render_catalog(self, records: Sequence[SkillRecord], *, update: bool = False) -> str:
        entries = catalog_entries(records, self.max_length)
        if update:
            return render_catalog_update(entries)
        return render_catalog_message(entries) if entries else ""

    def entry_warnings(self, record: SkillRecord) -> list[BudgetWarning]:
        out: list[BudgetWarning] = []
        if not is_model_invocable(record):
            out.append(
                BudgetWarning(
                    self.name,
                    "dsh-not-listed",
                    "disable-model-invocation: DSH leaves this skill out of the catalog and the skill tool refuses it; only a /name gesture loads it",
                    0,
                    0,
                )
            )
            return out
        normalized = js_collapse_ws(record_description(record))
        length = utf16_len(normalized)
        if length > self.max_length:
            kept = catalog_description(normalized, self.max_length)
            out.append(
                BudgetWarning(
                    self.name,
                    "dsh-description-cap",
                    f"description is {length} chars after whitespace normalisation; DSH cuts catalog descriptions to {self.max_length}",
                    self.max_length,
                    length,
                    kept=kept,
                    cut=normalized[len(kept) - 3 :],
                )
            )
        return out
