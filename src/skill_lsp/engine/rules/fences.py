"""NESTED_FENCE: a fenced code block that a fence written inside it closes early.

Authors nest a template's own code blocks inside the block that shows the template:

    ```markdown
    ## Quick start
    ```bash
    make
    ```
    See [the guide](docs/guide.md).
    ```

In CommonMark a fence line with an info string (```` ```bash ````) never closes a block, and the
first bare ```` ``` ```` does: here the one meant for ``bash``. The rest of the template is
read as Markdown (its links are links, its lines prose), and the fence meant to close the
template opens a block of its own that swallows the prose after it. A longer outer fence
(```` ```` ````) nests them as meant.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..datarecord import datarecord
from ..document import SkillDocument
from ..findings import Finding, Related, make
from ..lazyre import lazy_re
from ..markdown import pulldown_text
from .bodyscan import body_of, code_blocks

# A fence line led by the line feed before it: (1) indentation, (2) the fence, (3) the rest of
# the line (an info string, or nothing on a closing fence).
_FENCE_LINE = lazy_re(r"\n( *)(`{3,}|~{3,})([^\n]*)")
# A line that opens a fence of one character with an info string (never a closing fence).
_INNER_OPEN = {c: lazy_re(r"\n[ \t]*" + c * 3 + r"+[ \t]*[^\s" + c + "]") for c in "`~"}

# Findings that stand in the text a nested fence spilled out of its block (the template's own
# lines, read as Markdown only because the block closed early) and would not be reported there
# once the block is nested as meant: links, paths and whitespace inside code are not checked.
SPILLED_CODES = frozenset({"BROKEN_LINK", "ABSOLUTE_LINK", "LINK_OUTSIDE_SKILL", "BACKSLASH_PATH",
                           "MISSING_MENTIONED_FILE", "PERSONAL_PATH", "REFERENCE_TOO_DEEP", "NESTED_REFERENCE",
                           "TRAILING_WHITESPACE"})


@datarecord(frozen=True)
class Nested:
    """A block closed early: spans are document offsets."""

    open_start: int  # the outer opening fence (its fence characters)
    open_end: int
    info_end: int  # the end of the opening line
    inner_start: int  # the first fence inside it that opens a block of its own
    inner_end: int
    close_start: int  # the bare fence that closes the block (meant for the inner one)
    close_end: int
    # The bare fence a count of the nested blocks pairs with the opening one: where the author
    # meant the block to end.
    meant_start: int
    meant_end: int
    longest: int  # the longest fence of the same character from the opening one to the end meant


def nested(doc: SkillDocument) -> list[Nested]:
    """Every block of the body closed early by a fence nested in it (memoised per document)."""
    hit = doc.memo.get("nested fences")
    if hit is None:
        hit = doc.memo["nested fences"] = _find(doc)
    return hit  # type: ignore[no-any-return]


def spilled(doc: SkillDocument) -> list[tuple[int, int]]:
    """The text between where each such block closes and where it was meant to."""
    return [(n.close_end, n.meant_start) for n in nested(doc)]


def check(doc: SkillDocument) -> Iterator[Finding]:
    src = doc.src
    text = doc.text
    for n in nested(doc):
        outer = text[n.open_start:n.info_end].strip()
        inner = text[n.inner_start:n.inner_end]
        close = src.line_of(n.close_start) + 1
        message = f"the {inner} fence inside this {outer} block ends it: the fence on line {close} closes it"
        fence = text[n.open_start] * (n.longest + 1)
        meant = src.line_of(n.meant_start) + 1
        spill = f"line {close + 1} is" if meant == close + 2 else f"lines {close + 1}-{meant - 1} are"
        message += (f", {spill + ' read as Markdown and ' if meant > close + 1 else 'and '}the fence on line "
                    f"{meant} opens a new block; open and close it with {fence} to nest the fences")
        data = {"fence": fence, "meant": [n.meant_start, n.meant_end]}
        related = (Related(doc.path, n.inner_start, n.inner_end, "the fence nested inside"),
                   Related(doc.path, n.close_start, n.close_end, "where the block ends"))
        yield make("NESTED_FENCE", message, n.open_start, n.open_end, data, related=related)


def _find(doc: SkillDocument) -> list[Nested]:
    """The blocks that hold a nested fence as the author wrote them (a fence with an info string
    opens a block inside the one open, a bare one closes the innermost), where the parse agrees
    that the outer block opens there and the first bare fence inside it closes it. After a block
    closed early the parse and the author part ways until the block is fixed: only blocks that
    both see open at the same line are reported."""
    if not _maybe(doc):
        return []
    lined = "\n" + pulldown_text(body_of(doc))  # a body offset k is k + 1 in it
    shift = doc.body_start - 1  # from an offset in ``lined`` to the document's
    parsed = {}  # the parse's blocks: where each opens -> where it ends
    for start, end in doc.code_blocks:
        parsed[lined.rfind("\n", 0, start - doc.body_start + 1)] = end - doc.body_start + 1
    out: list[Nested] = []
    for opening, inner, closing, meant, longest in _as_written(lined):
        ends = parsed.get(opening.start())
        if ends is None or not closing.start() < ends <= closing.end() + 2:
            continue  # the parse sees no block opening there, or one that ends elsewhere
        out.append(Nested(opening.start(2) + shift, opening.end(2) + shift, opening.end() + shift,
                          inner.start(2) + shift, inner.start(3) + len(inner.group(3).rstrip()) + shift,
                          closing.start(2) + shift, closing.end(2) + shift,
                          meant.start(2) + shift, meant.end(2) + shift, longest))
    return out


def _as_written(lined: str) -> Iterator[tuple[re.Match, re.Match, re.Match, re.Match, int]]:
    """Each block that holds a nested fence, as the author wrote it: (its opening fence, the first
    fence inside it with an info string, the first bare fence inside it, the fence that closes it,
    the longest fence of its character from its opening to its end).

    Left out where the author's blocks are not clear: a block the count never closes, and a block
    opened by a bare fence just after one that closed a block with an info string (```` ```markdown
    ```` holding a bare ```` ``` ```` block of its own is read just as well: the count cannot tell
    a bare fence that opens from one that closes)."""
    opening: re.Match | None = None
    inner = closing = None
    depth = longest = 0
    after_info = -1  # where a block opened with an info string ended just before, else -1
    unclear = False
    for m in _FENCE_LINE.finditer(lined):
        if not _is_fence(m):
            continue
        if opening is None:
            opening, inner, closing, depth, longest = m, None, None, 1, len(m.group(2))
            unclear = after_info >= 0 and not m.group(3).strip() and lined.count("\n", after_info, m.start()) <= 2
            continue
        if m.group(2)[0] != opening.group(2)[0] or len(m.group(2)) < len(opening.group(2)) \
                or len(m.group(1)) > len(opening.group(1)) + 3:
            continue  # text of the block
        longest = max(longest, len(m.group(2)))
        if m.group(3).strip():
            depth += 1
            inner = inner or m
            continue
        closing = closing or m
        depth -= 1
        if depth == 0:
            if inner is not None and closing is not None and not unclear:
                yield opening, inner, closing, m, longest
            after_info = m.end() if opening.group(3).strip() else -1
            opening = None


def _maybe(doc: SkillDocument) -> bool:
    """Whether a block of bodyscan's line scan (which the file rules ask for anyway) holds a line
    that opens a fence of its character with an info string: only then are the parse's blocks
    asked and the fences counted."""
    text = doc.text
    for start, end in code_blocks(doc):
        first = text.find("\n", start, end)
        if first >= 0 and _INNER_OPEN[text[start:first].lstrip(" \t")[:1]].search(text, first, end) is not None:
            return True
    return False


def _is_fence(m: re.Match) -> bool:
    """Whether a ``_FENCE_LINE`` match is a fence: a backtick fence's info string holds no backtick."""
    return m.group(2)[0] != "`" or "`" not in m.group(3)

