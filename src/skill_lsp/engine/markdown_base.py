"""What both Markdown parsers produce (links, headings, a body) and the link destination
scanner they share; below ``markdown`` (the pulldown-cmark path) and ``_markdown_mdit`` (its
markdown-it-py fallback)."""

from __future__ import annotations

from .datarecord import datarecord, field
from .lazyre import lazy_re

_WEB = lazy_re(r"(?:[A-Za-z][A-Za-z0-9+.-]+:|#)")
_SIMPLE_DEST = lazy_re(r"[ \t]*(?:\r\n|\r|\n)?[ \t]*(?:<([^<>\n\\]*)>|([^\s()<\\]*))")
# A reference definition holds "]:". Found by a pattern: `"]:" in body` took 2.5x as long on a
# link-heavy body (str's search for a two-character needle steps along every ']').
_DEFINITION_MARK = lazy_re(r"\]:")


def has_definition_mark(body: str) -> bool:
    """Whether ``body`` holds "]:" (what a reference definition needs)."""
    return _DEFINITION_MARK.search(body) is not None


# What may stand on a line before a definition's '[': indentation, and the markers of the block
# quotes and list items it sits in.
_CONTAINER_PREFIX = lazy_re(r"[ \t>*+\-0-9.)]*")


def may_define(body: str) -> bool:
    """Whether ``body`` may hold a reference definition: a "]:" whose label opens where a line's
    text starts (after indentation and container markers). A label holds no unescaped bracket, so
    its '[' is the nearest one before the "]:" (an escaped one there: unsure, so yes). Most "]:"
    are something else (`tuple[bytes]:`, "Rate [idea]:"), and each sent the body to the full
    parse (226 of the held-out tune half's bodies, none with a definition)."""
    for m in _DEFINITION_MARK.finditer(body):
        opener = body.rfind("[", 0, m.start())
        if opener < 0:
            continue
        if opener and body[opener - 1] == "\\":
            return True
        line = max(body.rfind("\n", 0, opener), body.rfind("\r", 0, opener)) + 1
        if _CONTAINER_PREFIX.fullmatch(body, line, opener) is not None:
            return True
    return False


@datarecord(frozen=True, slots=True)
class Link:
    """A link or image of the body, as CommonMark reads it."""

    kind: str  # "inline" | "image" | "reference" | "definition"
    # Destination as CommonMark reads it (escapes and entities resolved). Web URLs
    # and in-page anchors are not recorded: no rule or feature looks at them.
    target: str
    start: int  # the whole construct
    end: int
    target_start: int  # the raw destination text (inside <> when bracketed)
    target_end: int


@datarecord(frozen=True, slots=True)
class Heading:
    """A heading of the body."""

    level: int
    text: str
    start: int
    end: int


@datarecord(slots=True)
class Body:
    """What the rules read of a Markdown body: links, headings and code blocks."""

    links: list[Link] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    code_blocks: list[tuple[int, int]] = field(default_factory=list)


def _destination(src: str, i: int, end: int) -> tuple[int, int] | None:
    m = _SIMPLE_DEST.match(src, i, end)
    if m is not None:
        j = m.end()
        if m.group(1) is not None:
            return m.span(1)
        if j >= end or src[j] in " \t\r\n)":
            return m.span(2)
    while i < end and src[i] in " \t\r\n":
        i += 1
    if i < end and src[i] == "<":
        j = src.find(">", i + 1, end)
        return (i + 1, j) if j >= 0 else None
    j = i
    depth = 0
    while j < end:
        ch = src[j]
        if ch == "\\" and j + 1 < end:
            j += 2
            continue
        if ch in " \t\r\n":
            break
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        j += 1
    return i, j


@datarecord(frozen=True, slots=True)
class RawSpans:
    """Code and HTML spans of a body, where link-like text is no link."""

    code: list[tuple[int, int]]  # code spans (backticks included) and <code>-like elements
    html: list[tuple[int, int]]  # HTML blocks and inline comments
