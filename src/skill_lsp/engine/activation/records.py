"""The input shape the activation engine consumes (produced by discovery)."""

from __future__ import annotations

from ..datarecord import datarecord, field


@datarecord(frozen=True)
class SkillRecord:
    name: str  # catalog key: frontmatter name if a valid string, else folder name
    folder: str  # folder basename
    dir: str  # absolute skill dir as discovered (not symlink-resolved)
    path: str  # absolute SKILL.md path
    root_index: int  # index of its configured root; lower wins
    root: str  # absolute root path
    frontmatter: dict  # parsed plain values in file order; {} when unparseable.
    # byte-exact body: the text after the closing --- line (whole text when no frontmatter)
    body: str
    error: tuple[str, str] | None = None  # (code, message) when it cannot be activated
    shadowed: tuple[str, ...] = ()  # dirs of lower-precedence skills with the same name
    text: str | None = None  # the whole SKILL.md as analysed (dialects that embed the file, e.g. Codex)
    # The checked skill this record was made from (a workspace.SkillResult): harness dialects ask
    # engine.listing() about it. None for records built in memory.
    checked: object = field(default=None, compare=False, repr=False)
