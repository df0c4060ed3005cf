"""``skill-tool``: the output of the skill-tool design spec's reference implementation.

Byte-for-byte the TypeScript ``format.ts`` behaviour (see docs/dialects.md):
lines joined by ``\\n`` after dropping empty ones, ``<resources>`` omitted when
there are none, frontmatter re-serialised by a small YAML-ish writer.  Nothing
is escaped (the name is kebab-validated; ``dir`` and the body go in raw).

Catalog: who is listed follows the reference's registry (``FilesystemSkillRegistry.discover``
in avifenesh/tools packages/skill, run on tests/odd_skills.py): every folder directly in a root
whose ``SKILL.md`` opens with a ``---`` line is an entry, keyed by the folder. A skill whose
frontmatter the tool rejects (INVALID_FRONTMATTER, NAME_MISMATCH) is still an entry, with an
empty description, so that activating it returns the error (spec §5.2 says such skills are
omitted; the reference keeps them). No ``SKILL.md``, another file name, or no frontmatter: not
a skill, skipped. The text ``- name: description`` is skill-lsp's (the spec defines none).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from skill_lsp.engine.activation.jsstr import js_json_string, js_number, js_string, locale_key
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import AlreadyLoadedResult, NotFoundResult, OkResult

from ..lazyre import lazy_re
from .base import Dialect, record_description

__all__ = ["SkillToolDialect", "serialize_frontmatter"]

_BARE = lazy_re(r"[A-Za-z0-9_\-./]+")


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


# The registry keeps these as entries (description ""); activating one returns the error.
_ENTRY_ERRORS = ("INVALID_FRONTMATTER", "NAME_MISMATCH")


def registry_skip(record: SkillRecord) -> str | None:
    """Why the reference registry has no entry for ``record`` (None when it has one)."""
    if record.error is not None and record.error[0] in ("OUTSIDE_WORKSPACE", "SENSITIVE"):
        # skill-lsp's fence never reads these; the reference lists them and refuses to activate them.
        return (f"skill-lsp does not read it ({record.error[1]}); the skill tool would list it and refuse "
                f"to activate it ({record.error[0]})")
    if record.text is None and record.error is not None:
        return record.error[1]  # never read (a record built in memory has no text either)
    if os.path.basename(record.path) != "SKILL.md":
        return f"the skill tool reads only SKILL.md, not {os.path.basename(record.path)}"
    loc = getattr(record.checked, "location", None)
    in_root = loc is not None and loc.root_index >= 0  # else found outside the roots (`catalog x/skills`)
    if in_root and os.path.normpath(os.path.dirname(record.dir)) != os.path.normpath(record.root):
        return f"the skill tool lists only folders directly in a root ({record.root})"
    text = (record.text if record.text is not None else "---\n").replace("\r\n", "\n")
    if not (text.startswith("---\n") or text == "---"):
        return "no frontmatter (the file does not start with a `---` line): the skill tool skips it as not a skill"
    return None


class SkillToolDialect(Dialect):
    name = "skill-tool"
    label = "skill tool (design spec reference implementation)"

    def includes(self, record: SkillRecord) -> bool:
        return registry_skip(record) is None

    def select(self, records: Sequence[SkillRecord]) -> tuple[list[SkillRecord], list[dict[str, str]]]:
        # One entry per folder, the lower root index first, a broken skill included (the
        # reference lets a later broken one overwrite an earlier entry: not copied).
        chosen: dict[str, SkillRecord] = {}
        skipped: list[dict[str, str]] = []
        for r in sorted(records, key=lambda r: (r.root_index, r.path)):
            why = registry_skip(r)
            if why is None and r.folder in chosen:
                why = f"another skill folder of the same name wins: {chosen[r.folder].path}"
            if why is not None:
                skipped.append({"name": r.folder, "path": r.path, "reason": why})
            else:
                chosen[r.folder] = r
        return list(chosen.values()), skipped

    def order(self, records):  # type: ignore[override]
        return sorted((r for r in records if self.includes(r)), key=lambda r: locale_key(r.folder))

    def entry_name(self, record: SkillRecord) -> str:
        return record.folder

    def entry_error(self, record: SkillRecord) -> tuple[str, str] | None:
        if record.error is not None and record.error[0] in _ENTRY_ERRORS:
            return record.error
        return None

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
        # The spec defines no catalog template (§5.2 lists name + description); an entry the
        # tool rejects has an empty description, as the reference registry gives it.
        description = "" if self.entry_error(record) is not None else record_description(record)
        return f"- {record.folder}: {description}"
