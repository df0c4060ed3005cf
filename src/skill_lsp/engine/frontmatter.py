"""Split SKILL.md into frontmatter and body.

The frontmatter opens with a ``---`` line at the very top (an optional BOM and
trailing spaces tolerated) and closes at the next line that is exactly ``---``.
Lines are matched whole, so a ``---`` inside a value never cuts the frontmatter
(skills-ref's ``split("---", 2)`` does).
"""

from __future__ import annotations

from .datarecord import datarecord
from .lazyre import lazy_re
from .text import SourceText


@datarecord(frozen=True)
class Split:
    """Where a SKILL.md's frontmatter block and body start and end."""

    has_frontmatter: bool
    open_start: int  # offset of the opening "---" (after a BOM)
    open_end: int  # end of the opening line's content
    yaml_start: int  # first offset of the YAML text
    yaml_end: int  # end of the YAML text (start of the closing line), or len(text) if unclosed
    close_start: int  # offset of the closing "---", -1 when unclosed
    close_end: int
    body_start: int  # first offset of the body: the text after the closing line's break

    @property
    def closed(self) -> bool:
        return self.close_start >= 0


def _is_fence(line: str) -> bool:
    return line.startswith("---") and line[3:].strip(" \t") == ""


def split(src: SourceText) -> Split:
    text = src.text
    if "\r" not in text:
        return _split_lf(text)
    bom = 1 if text.startswith("\ufeff") else 0
    first_end = src.line_end(0)
    if not _is_fence(text[bom:first_end]):
        return Split(False, bom, bom, bom, bom, -1, -1, bom)
    if src.line_count < 2:
        return Split(True, bom, first_end, len(text), len(text), -1, -1, len(text))
    yaml_start = src.line_starts[1]
    starts = src.line_starts
    for line in range(1, len(starts)):
        start = starts[line]
        # Fast reject before slicing: the closing line starts with '---'.
        if text.startswith("---", start):
            end = src.line_end(line)
            if _is_fence(text[start:end]):
                body = starts[line + 1] if line + 1 < len(starts) else len(text)
                return Split(True, bom, first_end, yaml_start, start, start, end, body)
    return Split(True, bom, first_end, yaml_start, len(text), -1, -1, len(text))


def _split_lf(text: str) -> Split:
    """``split`` of a text whose lines all end with \\n, found in it without a line table."""
    n = len(text)
    bom = 1 if text.startswith("\ufeff") else 0
    nl = text.find("\n")
    first_end = n if nl < 0 else nl
    if not _is_fence(text[bom:first_end]):
        return Split(False, bom, bom, bom, bom, -1, -1, bom)
    if nl < 0:
        return Split(True, bom, first_end, n, n, -1, -1, n)
    yaml_start = nl + 1
    start = text.find("\n---", nl) + 1  # a line opening with '---' (the first line is not one)
    while start > 0:
        end = text.find("\n", start)
        if end < 0:
            end = n
        if _is_fence(text[start:end]):
            return Split(True, bom, first_end, yaml_start, start, start, end, min(end + 1, n))
        start = text.find("\n---", end) + 1
    return Split(True, bom, first_end, yaml_start, n, -1, -1, n)


def late_frontmatter(text: str) -> tuple[int, int, int] | None:
    """Where a leading HTML comment starts, where the closed `---` block below it starts (after the
    comment's line and any blank lines) and where that block ends (its body's start), when
    ``text`` opens with `<!-- … -->` (the comment ending its line) and the block follows.
    Harnesses read frontmatter at the very start alone (unseen18 no-problem-dev: a generator's
    `<!-- AUTO-GENERATED … -->` above each skill's `---`; the five releases read none there)."""
    start = 1 if text.startswith("\ufeff") else 0
    if not text.startswith("<!--", start):
        return None
    close = text.find("-->", start + 4)
    nl = text.find("\n", close) if close >= 0 else -1
    if nl < 0 or text[close + 3:nl].strip(" \t\r"):
        return None
    at = nl + 1
    while True:  # blank lines
        nxt = text.find("\n", at)
        if nxt < 0 or text[at:nxt].strip(" \t\r"):
            break
        at = nxt + 1
    below = split(SourceText(text[at:]))
    if not below.has_frontmatter or not below.closed or below.open_start != 0:
        return None
    return start, at, at + below.body_start


def bare_fields(text: str) -> int | None:
    """Where the `key: value` lines that open ``text`` end, when they name `name` or `description`
    and no `---` line is around them (unseen17 Atomz-org: `name:` and `description:` above the
    body, read by no harness); None otherwise. The lines end at the first blank or other line."""
    at = 1 if text.startswith("\ufeff") else 0
    keys = set()
    while at < len(text):
        nl = text.find("\n", at)
        end = len(text) if nl < 0 else nl
        m = _KEY_LINE.match(text, at, end)
        if m is None:
            break
        keys.add(m.group(1))
        at = end + 1 if nl >= 0 else end
    return at if keys & {"name", "description"} and len(keys) >= 2 else None


# Compiled on first use: every check imports this module, few files lack their `---` lines.
_KEY_LINE = lazy_re(r"([A-Za-z][\w-]*):(?:[ \t][^\r\n]*)?\r?$")
