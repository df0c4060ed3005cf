"""Text a fix applied without review never edits: code, raw HTML, and "what not to do" examples.

A fix is safe (``check --fix``, the editor's fix-all) only when none of its edits touches
one of these spans (engine/fixes.py downgrades it to unsafe otherwise):

- fenced and indented code blocks, code spans, and ``<code>``-like HTML elements: a
  skill's code is run or copied by the model as written (zero-width characters in a
  prompt-injection detector's stripping table, ``.\\scripts\\x`` in PowerShell);
- HTML blocks and comments: raw markup and notes to maintainers, not prose;
- examples the prose marks as what not to do (a heading, label, list item or table row
  with ✗, ❌, "Avoid", "Don't", "Bad:", "Wrong:"...): fixing the bad example into the
  recommended form makes the guide contradict itself.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from . import markdown
from .datarecord import datarecord
from .document import SkillDocument
from .lazyre import lazy_re


@datarecord(frozen=True, slots=True)
class Span:
    """Text a safe fix must not touch (code, placeholders, ...), and why."""

    start: int
    end: int
    kind: str  # a key of REASONS


REASONS = {
    "code block": "inside a code block",
    "inline code": "inside inline code",
    "html": "inside raw HTML or an HTML comment",
    "example": "in an example of what not to do",
    "yaml": "the frontmatter would read otherwise",
    "link": "inside a link's destination",
    "markdown": "the Markdown would read otherwise",
    "field": "another field may have run into the value",
}

# What marks text as an example of what not to do: a symbol anywhere; "instead of" or "rather than"
# anywhere (what follows is the thing not to do); a word such as "Avoid" or "Bad" only where
# it labels the line (its first word, after list, quote, emphasis or table-cell marks), in a
# heading, or in a label line ending with ':'. In running prose ("if the user says the rule is
# bad") a word is no label: on the held-out repositories such lines cost safe whitespace fixes.
_SYMBOL = lazy_re(r"[✗✘❌⛔🚫👎]|\b(?:instead of|rather than)\b", re.I)
_WORDS = r"(?:avoid|don['’]?t|do not|never|bad|wrong|incorrect|anti-?patterns?|not recommended|deprecated)\b"
_AVOID = lazy_re(r"[✗✘❌⛔🚫👎]|\b" + _WORDS + r"|\b(?:instead of|rather than)\b", re.I)
_LEADING = lazy_re(r"(?:^|\|)[\s>*_#`|-]*(?:\d{1,9}[.)]\s*)?(?:\[[ xX]\]\s*)?[*_]*" + _WORDS, re.I)
# Every match of the patterns above starts with one of these (words as ``str.lower`` writes them),
# and every line ``_marks`` takes holds one.
_MARK_TEXTS = ("✗", "✘", "❌", "⛔", "🚫", "👎", "avoid", "don't", "don’t", "dont", "do not", "never", "bad", "wrong",
               "incorrect", "anti", "not recommended", "deprecated", "instead of", "rather than")
# Letters re.I matches to an ASCII letter that ``str.lower`` makes another letter, or two (U+0130):
# a text holding one is searched with a pattern.
_FOLDED = ("\u0130", "\u0131", "\u017f")
_CANDIDATE = lazy_re("|".join(re.escape(t) for t in _MARK_TEXTS), re.I)


def _mark_starts(text: str) -> Iterator[int]:
    """Offsets where the marks' patterns may match in ``text`` (a superset: each match starts at
    one). String searches in the lowered text, 7x faster than a case-blind pattern."""
    if not text.isascii() and any(c in text for c in _FOLDED):
        yield from (m.start() for m in _CANDIDATE.finditer(text))
        return
    low = text.lower()  # as long as the text: U+0130, the one letter that lowers to two, is not in it
    for t in _MARK_TEXTS:
        at = low.find(t)
        while at >= 0:
            yield at
            at = low.find(t, at + 1)
# A line that starts the recommended counterpart ends an example carried over from the line above.
_GOOD = lazy_re(r"^[\s>*_-]*(?:[✓✔✅👍]|(?:good|correct|right|do|prefer(?:red)?|recommended|instead|better)\b)", re.I)
_LIST_ITEM = lazy_re(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_HEADING = lazy_re(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_FENCE = lazy_re(r"^ {0,3}(?:```|~~~)")
_DELIMITER_ROW = lazy_re(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
# Emphasis, list markers, emoji and the marker words themselves: what a label line is made of.
_LABEL_NOISE = lazy_re(r"[\s>*_`#:()\[\]|.-]+")


def spans(doc: SkillDocument) -> list[Span]:
    """The protected spans of ``doc``'s body, sorted by start (they may overlap)."""
    hit = doc.memo.get("protected")
    if hit is not None:
        return hit
    out: list[Span] = []
    if doc.split is not None and doc.body_start < len(doc.text):
        base = doc.body_start
        body = doc.body_text
        # From the start of the block's first line: an indented block's range starts after its indent.
        src = doc.src
        out += [Span(max(base, src.line_start(src.line_of(s))), e, "code block") for s, e in doc.code_blocks]
        raw = markdown.raw_spans(body, base)
        out += [Span(s, e, "inline code") for s, e in raw.code]
        out += [Span(s, e, "html") for s, e in raw.html]
        out += [Span(s, e, "example") for s, e in _examples(doc)]
    out.sort(key=lambda s: (s.start, s.end))
    doc.memo["protected"] = out
    return out


def covering(doc: SkillDocument, start: int, end: int) -> Span | None:
    """The first protected span an edit of [start, end) touches (an insertion: strictly inside)."""
    found = spans(doc)
    if not found:
        return None
    starts = doc.memo.get("protected-starts")
    if starts is None:
        starts = doc.memo["protected-starts"] = [s.start for s in found]
    # Spans may overlap, so look at every one starting before the edit's end.
    for sp in found[:bisect_right(starts, end)]:
        if start == end:
            if sp.start < start < sp.end:
                return sp
        elif start < sp.end and end > sp.start:
            return sp
    return None


def _examples(doc: SkillDocument) -> list[tuple[int, int]]:
    """Spans of text marked as what not to do: sections, labelled blocks, lines, tables."""
    body = doc.body_text
    src = doc.src
    base = doc.body_start
    first = src.line_of(base)
    # Only a line holding one of the marks can be marked: the others are passed over without a
    # look (the patterns took 6 us a line, and 0.5 ms a body to find none in it: unseen
    # thcjp/hermes-skills spent an eighth of its check here).
    candidates = sorted({src.line_of(base + at) - first for at in _mark_starts(body)})
    if not any(_AVOID.search(body, max(0, src.line_start(first + i) - base), src.line_end(first + i) - base)
               for i in candidates):
        return []  # no line holds a mark (each is within a line)
    lines = _Lines(src, first, src.line_count - first)
    starts = _Starts(src, first, base)

    def end_of(i: int) -> int:  # offset just past line i's text (its line break excluded)
        return src.line_end(first + i)

    out: list[tuple[int, int]] = []
    # A heading that says so protects its section, up to the next heading of its level or above.
    headings = doc.body.headings
    for k, h in enumerate(headings):
        if _AVOID.search(h.text) is None:
            continue
        stop = next((g.start for g in headings[k + 1:] if g.level <= h.level), len(doc.text))
        out.append((h.start, stop))
    blocks = doc.code_blocks
    n = len(lines)
    i = 0
    # The first line may start before the body (text after the closing fence): looked at whole.
    for c in sorted({0, *candidates}):
        if c < i:
            continue  # carried by the example above
        i = c
        line = lines[i]
        if not _marks(line) or _HEADING.match(line) or _in(blocks, starts[i]):
            i += 1  # a code block is protected whole already
            continue
        j = i
        if i + 1 < n and _DELIMITER_ROW.match(lines[i + 1]) and "|" in line:
            # A table whose header says so (| Avoid | Prefer |): the whole table.
            j = i + 1
            while j + 1 < n and "|" in lines[j + 1] and lines[j + 1].strip():
                j += 1
        elif line.lstrip().startswith("|"):
            pass  # one table row
        elif _is_label(line):
            # "**Bad:**", "✗ Avoid", "Wrong (fails on Linux):": the block below is the example.
            k = i + 1
            while k < n and not lines[k].strip():
                k += 1
            if k < n:
                j = _block_end(lines, k, starts, blocks)
        else:
            # The line, and the lines that carry its sentence or list item on.
            while j + 1 < n and _continues(lines[j + 1]):
                j += 1
        out.append((starts[i], end_of(j)))
        i = j + 1
    return out


class _Lines:
    """The text of lines ``first``... of a SourceText, read when asked for."""

    __slots__ = ("_first", "_n", "_src")

    def __init__(self, src, first: int, n: int) -> None:  # noqa: ANN001 - a SourceText
        self._src, self._first, self._n = src, first, n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: int) -> str:
        return self._src.line_text(self._first + i)


class _Starts(_Lines):
    """Where lines ``first``... start, the body's start at the earliest."""

    __slots__ = ("_floor",)

    def __init__(self, src, first: int, floor: int) -> None:  # noqa: ANN001 - a SourceText
        super().__init__(src, first, src.line_count - first)
        self._floor = floor

    def __getitem__(self, i: int) -> int:  # type: ignore[override]
        return max(self._src.line_start(self._first + i), self._floor)


def _marks(line: str) -> bool:
    """Whether the line marks itself, or what follows it, as what not to do."""
    if _SYMBOL.search(line) or _LEADING.search(line):
        return True
    text = line.strip().rstrip("*_ ")
    return text.endswith(":") and len(text) <= 80 and _AVOID.search(text) is not None


def _is_label(line: str) -> bool:
    """A short line that names what follows: ends with ':' or holds little beyond the marker."""
    text = line.strip().rstrip("*_ ")
    if text.endswith(":") and len(text) <= 80:
        return True
    rest = _LABEL_NOISE.sub(" ", _AVOID.sub(" ", text)).split()
    return len(rest) <= 1


def _in(blocks: list[tuple[int, int]], offset: int) -> bool:
    i = bisect_right(blocks, (offset, 1 << 62)) - 1
    return i >= 0 and blocks[i][0] <= offset < blocks[i][1]


def _continues(line: str) -> bool:
    return bool(line.strip()) and not (_LIST_ITEM.match(line) or _HEADING.match(line) or _FENCE.match(line)
                                       or line.lstrip().startswith("|") or _GOOD.match(line))


def _block_end(lines: _Lines, k: int, starts: _Starts, blocks: list[tuple[int, int]]) -> int:
    """Index of the last line of the block starting at line ``k`` (a code block, or up to a blank line)."""
    at = starts[k]
    i = bisect_right(blocks, (at, 1 << 62)) - 1
    if i >= 0 and blocks[i][0] <= at < blocks[i][1]:
        j = k
        while j + 1 < len(lines) and starts[j + 1] < blocks[i][1]:
            j += 1
        return j
    j = k
    while j + 1 < len(lines) and lines[j + 1].strip() and not _HEADING.match(lines[j + 1]) \
            and not _GOOD.match(lines[j + 1]):
        j += 1
    return j
