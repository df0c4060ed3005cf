"""``skill-tool``: the output of the skill-tool design spec's reference implementation.

Byte-for-byte the TypeScript ``format.ts`` behaviour (see docs/dialects.md):
lines joined by ``\\n`` after dropping empty ones, ``<resources>`` omitted when
there are none, frontmatter re-serialised by a small YAML-ish writer.  Nothing
is escaped (the name is kebab-validated; ``dir`` and the body go in raw).
"""

from __future__ import annotations

import re

from skill_lsp.engine.activation.jsstr import js_json_string, js_number, js_string
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import AlreadyLoadedResult, NotFoundResult, OkResult

from .base import Dialect, record_description

__all__ = ["SkillToolDialect", "serialize_frontmatter"]

_BARE = re.compile(r"[A-Za-z0-9_\-./]+")


def _quote(value: str) -> str:
    return value if _BARE.fullmatch(value) else js_json_string(value)


def _key_value(key: str, value: object, indent: int) -> str:
    pad = "  " * indent
    if value is None:
        return f"{pad}{key}:"
    if isinstance(value, (bool, int, float)):
        return f"{pad}{key}: {js_number(value)}"
    if isinstance(value, str):
        if "\n" in value:
            block = "\n".join(f"{pad}  {line}" for line in value.split("\n"))
            return f"{pad}{key}: |\n{block}"
        return f"{pad}{key}: {_quote(value)}"
    if isinstance(value, (list, tuple)):
        if not value:
            return f"{pad}{key}: []"
        return f"{pad}{key}: [{', '.join(_quote(js_string(v)) for v in value)}]"
    if isinstance(value, dict):
        if not value:
            return f"{pad}{key}: {{}}"
        nested = "\n".join(_key_value(str(k), v, indent + 1) for k, v in value.items())
        return f"{pad}{key}:\n{nested}"
    return f"{pad}{key}: {js_string(value)}"


def serialize_frontmatter(frontmatter: dict) -> str:
    """The reference's YAML-ish re-serialisation (one key per line, file order)."""
    return "\n".join(_key_value(str(k), v, 0) for k, v in frontmatter.items())


class SkillToolDialect(Dialect):
    name = "skill-tool"
    label = "skill tool (design spec reference implementation)"

    def render_ok(self, result: OkResult) -> str:
        resources = ""
        if result.resources:
            resources = "<resources>\n" + "\n".join(result.resources) + "\n</resources>"
        hint = (
            f'(Skill "{result.name}" activated. Body is {result.bytes} bytes. '
            f"Scripts available via bash({result.dir}/scripts/<name>). "
            f"References via read({result.dir}/references/<name>).)"
        )
        parts = [
            f'<skill name="{result.name}" dir="{result.dir}">',
            "<frontmatter>",
            serialize_frontmatter(result.frontmatter),
            "</frontmatter>",
            "<instructions>",
            result.body,
            "</instructions>",
            resources,
            "</skill>",
            hint,
        ]
        return "\n".join(p for p in parts if p)

    def render_already_loaded(self, result: AlreadyLoadedResult) -> str:
        # Decision: the spec's sentence when the caller told us the turn, the
        # reference implementation's text otherwise.
        if result.at_turn is not None:
            return (
                f'(Skill "{result.name}" is already active in this session. '
                f"Body was loaded at turn {result.at_turn}. No new content was added.)"
            )
        return (
            f'(Skill "{result.name}" is already active in this session. No new content was added.)'
        )

    def render_not_found(self, result: NotFoundResult) -> str:
        if not result.siblings:
            return (
                f'(No skill matches "{result.name}". Check the catalog for installed skill names.)'
            )
        return (
            f'(No skill matches "{result.name}". Did you mean: {", ".join(result.siblings)}? '
            "Run with a listed name from the catalog.)"
        )

    def catalog_entry(self, record: SkillRecord) -> str:
        # The spec defines no catalog template (§5.2 lists name + description).
        return f"- {record.name}: {record_description(record)}"
