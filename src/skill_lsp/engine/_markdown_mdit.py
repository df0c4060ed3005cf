"""The markdown-it-py path of ``markdown.parse``, for platforms where pyromark has no wheel.

markdown-it-py gives block structure with line maps but no inline source
positions, and its link targets come back normalised. So blocks come from
markdown-it (code blocks, headings, which lines are paragraphs) and link spans
from scanning those raw lines, with inline code spans masked out. A test runs
both parsers over the same documents and compares the links they find.
"""

from __future__ import annotations

import re
from html import unescape

from markdown_it import MarkdownIt

from .lazyre import lazy_re
from .markdown_base import _WEB, Body, Heading, Link, RawSpans, _destination

_MD: MarkdownIt | None = None
_CODE_SPAN = lazy_re(r"(`+)(?:(?!\1).)+?\1", re.S)
_INLINE = lazy_re(r"(!?)\[(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*\]\(")
# Definitions may sit in list items and block quotes, so any indentation and ">" prefixes.
_DEFINITION = lazy_re(r"^[ \t]*(?:>[ \t]?)*\[((?:[^\[\]\\]|\\.)+)\]:")
_ESCAPE = lazy_re(r"\\([!-/:-@\[-`{-~])")


def _md() -> MarkdownIt:
    global _MD
    if _MD is None:
        _MD = MarkdownIt("commonmark").enable("table").enable("strikethrough")
    return _MD


def _mask_code_spans(text: str) -> str:
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


def _target(raw: str) -> str:
    return unescape(_ESCAPE.sub(r"\1", raw))


def parse(body: str, base: int) -> Body:
    out = Body()
    if not body:
        return out
    lines = body.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    tokens = _md().parse(body)
    text_lines: list[tuple[int, int]] = []  # [first, last) line ranges of paragraphs and headings
    for i, tok in enumerate(tokens):
        if tok.map is None:
            continue
        first, last = tok.map
        if tok.type in ("fence", "code_block"):
            end = starts[last] - 1 if last < len(starts) else len(body)
            out.code_blocks.append((base + starts[first], base + max(starts[first], end)))
        elif tok.type == "heading_open":
            inline = tokens[i + 1]
            end = starts[last] - 1 if last < len(starts) else len(body)
            out.headings.append(Heading(int(tok.tag[1:]), inline.content.strip(), base + starts[first], base + end))
            text_lines.append((first, last))
        elif tok.type in ("paragraph_open", "table_open"):
            text_lines.append((first, last))
    for first, last in _merge(text_lines):
        start = starts[first]
        end = starts[last] - 1 if last < len(starts) else len(body)
        chunk = _mask_code_spans(body[start:end])
        pos = 0
        while (m := _INLINE.search(chunk, pos)) is not None:
            # Resume inside the match: an image can sit in a link's text ([![alt](img)](href)).
            pos = m.start() + (2 if m.group(1) else 1)
            span = _destination(chunk, m.end(), len(chunk))
            if span is None:
                continue
            ts, te = span
            close = _close_paren(chunk, te)
            if close is None:
                continue
            kind = "image" if m.group(1) else "inline"
            target = _target(body[start + ts:start + te])
            if _WEB.match(target) and not target.lower().startswith("file:"):
                continue  # as in the pulldown path: web URLs and anchors are not recorded
            out.links.append(Link(kind, target, base + start + m.start(),
                                  base + start + close + 1, base + start + ts, base + start + te))
    # Reference definitions are blocks of their own in markdown-it (no token), so scan
    # every line that is not code.
    in_code = _code_lines(out.code_blocks, base, starts)
    for n, line in enumerate(lines):
        if n in in_code:
            continue
        m = _DEFINITION.match(line)
        if m is None:
            continue
        span = _destination(line, m.end(), len(line))
        if span is None or span[0] == span[1]:
            continue
        target = _target(line[span[0]:span[1]])
        if _WEB.match(target) and not target.lower().startswith("file:"):
            continue
        s = starts[n]
        out.links.append(Link("definition", target, base + s, base + s + len(line), base + s + span[0], base + s + span[1]))
    out.links.sort(key=lambda link: link.start)
    return out


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for first, last in sorted(set(ranges)):
        if merged and first < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _code_lines(blocks: list[tuple[int, int]], base: int, starts: list[int]) -> set[int]:
    from bisect import bisect_right  # noqa: PLC0415

    lines: set[int] = set()
    for s, e in blocks:
        first = bisect_right(starts, s - base) - 1
        last = bisect_right(starts, max(s, e - 1) - base) - 1
        lines.update(range(first, last + 1))
    return lines


def _close_paren(chunk: str, i: int) -> int | None:
    """Index of the ')' ending an inline link whose destination ends at ``i`` (skipping a title)."""
    if i < len(chunk) and chunk[i] == ">":
        i += 1
    while i < len(chunk) and chunk[i] in " \t\n":
        i += 1
    if i < len(chunk) and chunk[i] in "\"'(":
        closer = ")" if chunk[i] == "(" else chunk[i]
        j = i + 1
        while j < len(chunk) and chunk[j] != closer:
            j += 2 if chunk[j] == "\\" else 1
        i = j + 1
        while i < len(chunk) and chunk[i] in " \t\n":
            i += 1
    return i if i < len(chunk) and chunk[i] == ")" else None


_COMMENT = lazy_re(r"<!--.*?-->", re.S)
_CODE_ELEMENT = lazy_re(r"<(code|kbd|samp|pre|tt|var)\b[^>]*>.*?</\1\s*>", re.S | re.I)


def raw_spans(body: str, base: int) -> RawSpans:
    """``markdown.raw_spans`` from block line maps and a scan of the paragraph lines."""
    code: list[tuple[int, int]] = []
    html: list[tuple[int, int]] = []
    if not body:
        return RawSpans(code, html)
    lines = body.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    text_lines: list[tuple[int, int]] = []
    for tok in _md().parse(body):
        if tok.map is None:
            continue
        first, last = tok.map
        end = starts[last] - 1 if last < len(starts) else len(body)
        if tok.type == "html_block":
            html.append((base + starts[first], base + end))
        elif tok.type in ("paragraph_open", "heading_open", "table_open"):
            text_lines.append((first, last))
    for first, last in _merge(text_lines):
        start = starts[first]
        chunk = body[start:starts[last] - 1 if last < len(starts) else len(body)]
        for m in _CODE_SPAN.finditer(chunk):
            code.append((base + start + m.start(), base + start + m.end()))
        masked = _mask_code_spans(chunk)
        for m in _COMMENT.finditer(masked):
            html.append((base + start + m.start(), base + start + m.end()))
        for m in _CODE_ELEMENT.finditer(masked):
            code.append((base + start + m.start(), base + start + m.end()))
    return RawSpans(sorted(code), sorted(html))
