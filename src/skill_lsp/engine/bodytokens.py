"""What a harness treats specially in a SKILL.md, as spans for semantic highlighting (pure).

Body: argument placeholders (``$ARGUMENTS``, ``$ARGUMENTS[N]``, ``$N``), Claude
Code's ``${CLAUDE_SKILL_DIR}`` and ``${CLAUDE_SESSION_ID}``, ``!`command` ``
(output inlined before the model sees the skill) and skill mentions. These are
substituted textually, so code blocks count too. Frontmatter: every top-level
key, marked when the profile's targets ignore it.
"""

from __future__ import annotations

import re

from .document import SkillDocument
from .lazyre import lazy_re
from .mentions import extract as mentions_of
from .targets import PROFILES

TYPES = ("parameter", "macro", "function", "namespace", "property")
MODIFIERS = ("deprecated",)  # on a frontmatter key: not read by the targets

_BODY = lazy_re(
    r"(?P<parameter>\$ARGUMENTS\[\d+\]|\$ARGUMENTS\b|\$\d+\b)"
    r"|(?P<macro>\$\{CLAUDE_(?:SKILL_DIR|SESSION_ID)\})"
    r"|(?P<function>!`[^`\n]+`)", re.ASCII)


def tokens(doc: SkillDocument, profile: str) -> list[tuple[int, int, int, int]]:
    """(start, end, type index, modifier bits), sorted, non-overlapping, never across a line end."""
    out: list[tuple[int, int, int, int]] = []
    if doc.frontmatter_ok:
        p = PROFILES[profile]
        read = set(p.known) | set(p.deferred)
        for key, entry in doc.entries.items():
            k = entry.key_node
            if k.end > k.start and "\n" not in doc.text[k.start:k.end]:
                out.append((k.start, k.end, TYPES.index("property"), 0 if key in read else 1))
    text, start = doc.text, doc.body_start
    if start < len(text):
        for m in _BODY.finditer(text, start):
            kind = m.lastgroup or "parameter"
            out.append((m.start(), m.end(), TYPES.index(kind), 0))
    for mention in mentions_of(doc):
        out.append((mention.start, mention.end, TYPES.index("namespace"), 0))
    out.sort()
    merged: list[tuple[int, int, int, int]] = []
    for tok in out:
        if merged and tok[0] < merged[-1][1]:
            continue  # a mention inside a placeholder or command: the outer token wins
        merged.append(tok)
    return merged
