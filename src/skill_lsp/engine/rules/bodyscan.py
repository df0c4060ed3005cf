"""Cheap views of the body shared by the rule-depth modules: code spans and prose.

Code blocks come from the CommonMark parse (``doc.body.code_blocks``); inline
code spans are found with a backtick-run scan of the text outside them, which
matches CommonMark for the spans that matter here (one line, equal runs).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ..document import SkillDocument

_INLINE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def code_blocks(doc: SkillDocument) -> list[tuple[int, int]]:
    """Fenced and indented code blocks (document offsets), only parsed when the body has any."""
    body = doc.body_text
    if "```" not in body and "~~~" not in body and "\n    " not in body and "\n\t" not in body:
        return []
    return doc.body.code_blocks


def inline_code(doc: SkillDocument) -> list[tuple[str, int, int]]:
    """(content, start, end) of inline code spans outside code blocks; start/end cover the content."""
    body = doc.body_text
    if "`" not in body:
        return []
    base = doc.body_start
    blocks = code_blocks(doc)
    out = []
    for m in _INLINE.finditer(body):
        s = base + m.start(2)
        if blocks and inside(blocks, s):
            continue
        content = m.group(2)
        lead = len(content) - len(content.lstrip(" "))
        out.append((content.strip(" "), s + lead, s + lead + len(content.strip(" "))))
    return out


def inside(spans: list[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` falls in one of the sorted, non-overlapping ``spans``."""
    i = bisect_right(spans, (offset, 1 << 62)) - 1
    return i >= 0 and spans[i][0] <= offset < spans[i][1]
