"""Frontmatter as the harnesses read it when strict YAML fails.

Claude Code, Codex, OpenCode and Gemini CLI all still list a skill whose
frontmatter is not valid YAML (``description: Use this: it has: colons``):
they fall back to reading ``key: value`` lines.  Proven by the
``broken-frontmatter`` capture case.
"""

from __future__ import annotations

from skill_lsp.engine.activation.records import SkillRecord

from .lazyre import lazy_re

__all__ = ["fields", "simple_frontmatter", "text_value"]

_KEY = lazy_re(r"^([A-Za-z_][\w-]*):[ \t]*(.*)$")


def simple_frontmatter(text: str | None, *, blank_ends: bool = False) -> dict[str, str] | None:
    """``key: value`` lines of a closed ``---`` block; indented lines continue the last key (up to a
    blank line with ``blank_ends``, as Gemini CLI's line reader does: the differential tester)."""
    if not text:
        return None
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[0].rstrip() != "---":
        return None
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].rstrip() == "---")
    except StopIteration:
        return None
    out: dict[str, str] = {}
    key = None
    for line in lines[1:end]:
        m = _KEY.match(line)
        if m:
            key = m.group(1)
            out[key] = m.group(2).strip()
        elif key is not None and line[:1] in (" ", "\t") and line.strip():
            out[key] = f"{out[key]} {line.strip()}".strip()
        elif blank_ends and not line.strip():
            key = None
    return out


def fields(record: SkillRecord) -> dict:
    """Parsed frontmatter, or the line-by-line reading when YAML failed."""
    if record.frontmatter:
        return record.frontmatter
    return simple_frontmatter(record.text) or {}


def text_value(value: object) -> str | None:
    """A scalar as JavaScript's String() would give it; None for lists, maps and null."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return None
