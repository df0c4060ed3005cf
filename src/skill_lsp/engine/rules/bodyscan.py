"""Cheap views of the body shared by the rule-depth modules: the body text and its code blocks.

These run on every check, so they avoid the CommonMark parse: fenced code
blocks come from a line scan for ``` / ~~~ fences (any indentation, so fences
inside list items count), even when the parse has run for another rule: its
answer (indented blocks too) would make a rule's findings depend on whether
another rule needed the parse. The two agree on every skill of the corpus and
the held-out repositories; asking the parse for every body costs 4.5 % more a check.
"""

from __future__ import annotations

from bisect import bisect_right

from ..document import SkillDocument
from ..lazyre import lazy_re
from ..markdown import pulldown_text

# A fence at a line start, searched for in "\n" + body: led by a literal line feed, the search
# jumps from one line to the next; as `^...` with re.M it tried a match at every character
# (32 against 9.5 µs a real-size body). Offsets in that text are the body's plus one.
_FENCE = lazy_re(r"\n[ \t]*(`{3,}|~{3,})")


_last: tuple = (None, "")


def body_of(doc: SkillDocument) -> str:
    """``doc.body_text``, sliced once per document (each rule module asks for it).

    One (doc, body) tuple swapped whole: server threads checking two documents at once
    never see one document's body paired with the other.
    """
    global _last
    last = _last
    if last[0] is doc:
        return last[1]
    body = doc.body_text
    _last = (doc, body)
    return body


def code_blocks(doc: SkillDocument) -> list[tuple[int, int]]:
    """Fenced code blocks as sorted document offsets [start, end) (scanned once per document:
    several rule modules ask; the list is shared, not to be changed). The same whether or not
    the body was parsed (the module's docstring)."""
    out = doc.memo.get("code_blocks")
    if out is None:
        out = doc.memo["code_blocks"] = _scan_blocks(doc)
    return out  # type: ignore[no-any-return]


def _scan_blocks(doc: SkillDocument) -> list[tuple[int, int]]:
    body = body_of(doc)
    if "```" not in body and "~~~" not in body:
        return []
    body = pulldown_text(body)  # a lone CR ends a line: a line feed in its place, offsets the same
    base = doc.body_start
    out = []
    it = _FENCE.finditer("\n" + body)
    for m in it:  # m.start(): the line feed before the line, in body offsets the line's start
        fence = m.group(1)
        for close in it:
            c = close.group(1)
            after = close.end() - 1  # in the body
            if c[0] == fence[0] and len(c) >= len(fence) and body[after:after + 1] in ("\n", "\r", "", " "):
                end = body.find("\n", after)
                out.append((base + m.start(), base + (len(body) if end < 0 else end)))
                break
        else:
            out.append((base + m.start(), base + len(body)))  # an unclosed fence runs to the end
    return out


def inside(spans: list[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` falls in one of the sorted, non-overlapping ``spans``."""
    i = bisect_right(spans, (offset, 1 << 62)) - 1
    return i >= 0 and spans[i][0] <= offset < spans[i][1]
