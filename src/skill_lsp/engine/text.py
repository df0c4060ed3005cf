"""Source text with an LSP line index.

Offsets everywhere in the engine are Python string indices (code points).
LSP lines end only at ``\\n``, ``\\r\\n`` or ``\\r`` -- never at form feed, NEL or
U+2028 -- so ``str.splitlines`` is never used here. Characters are converted to
UTF-16 or UTF-8 code units on demand, per line.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from enum import Enum
from itertools import accumulate

from .lazyre import lazy_re

_LINE_BREAK = lazy_re(r"\r\n|\r|\n")


def _line_starts(text: str) -> list[int]:
    if "\r" in text:
        return [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    # Line lengths from a C split, summed in C: a Python loop over find() took 1.3x as long.
    starts = list(accumulate([len(line) + 1 for line in text.split("\n")], initial=0))
    starts.pop()
    return starts


class Encoding(str, Enum):
    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"


def _units(s: str, encoding: Encoding) -> int:
    if encoding is Encoding.UTF32 or s.isascii():
        return len(s)
    if encoding is Encoding.UTF16:
        # Encoded in C (a lone surrogate is one unit, as in the client's text): counting the
        # astral characters one Python object at a time took 10 µs on a long line.
        return len(s.encode("utf-16-le", "surrogatepass")) >> 1
    return len(s.encode("utf-8", "surrogatepass"))


# Offsets ``SourceText`` places by counting line breaks before it builds its line table: a few
# findings' positions cost less counted, a long list of them less looked up.
_COUNTED = 16


class SourceText:
    """Immutable text plus the start offset of every line.

    The line table is built on first use: a skill's first pass and most checks only ask where a
    few offsets are, which a text whose lines all end with \\n answers by counting its line
    breaks (splitting a 5 KB SKILL.md into lines took 12-18 µs of a scan's ~300 µs check of it).
    """

    __slots__ = ("text", "_starts", "_counted")

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None
        # How many more offsets may be placed by counting; 0 once the table is needed anyway.
        self._counted = 0 if "\r" in text else _COUNTED

    @property
    def line_starts(self) -> list[int]:
        starts = self._starts
        if starts is None:
            starts = self._starts = _line_starts(self.text)
            self._counted = 0
        return starts

    def _counts(self, offset: int) -> bool:
        """Whether ``offset`` (in the text, or past its end) is placed by counting."""
        if self._counted > 0 and offset >= 0:
            self._counted -= 1
            return True
        return False

    @property
    def line_count(self) -> int:
        if self._starts is None and self._counted > 0:
            return self.text.count("\n") + 1
        return len(self.line_starts)

    def line_of(self, offset: int) -> int:
        if self._counts(offset):
            return self.text.count("\n", 0, offset)
        return bisect_right(self.line_starts, offset) - 1

    def line_start(self, line: int) -> int:
        return self.line_starts[line]

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``'s content (before its line break)."""
        if line + 1 < len(self.line_starts):
            end = self.line_starts[line + 1]
            text = self.text
            if end >= 2 and text[end - 2 : end] == "\r\n":
                return end - 2
            return end - 1
        return len(self.text)

    def line_text(self, line: int) -> str:
        return self.text[self.line_starts[line] : self.line_end(line)]

    def lines(self) -> list[str]:
        return [self.line_text(i) for i in range(len(self.line_starts))]

    def _before(self, offset: int) -> tuple[int, str]:
        """(line, the line's text before ``offset``) of an offset within the text."""
        text = self.text
        if self._counts(offset):
            # Only \n breaks lines here: the line runs from the last one before ``offset`` to it.
            return text.count("\n", 0, offset), text[text.rfind("\n", 0, offset) + 1:offset]
        line = bisect_right(self.line_starts, offset) - 1
        # An offset inside a CRLF pair belongs to the end of the line's content.
        return line, text[self.line_starts[line]:min(offset, self.line_end(line))]

    def position(self, offset: int, encoding: Encoding = Encoding.UTF16) -> tuple[int, int]:
        """(line, character) of a code point offset, characters in ``encoding`` units."""
        line, seg = self._before(max(0, min(offset, len(self.text))))
        return line, _units(seg, encoding)

    def columns(self, offset: int) -> tuple[int, int, int]:
        """(line, UTF-32 column, UTF-16 column) in one pass: what reports need."""
        line, seg = self._before(max(0, min(offset, len(self.text))))
        n = len(seg)
        return line, n, n if seg.isascii() else _units(seg, Encoding.UTF16)

    def offset(self, line: int, character: int, encoding: Encoding = Encoding.UTF16) -> int:
        """Code point offset of an LSP position, clamped to the document and line."""
        if line < 0:
            return 0
        if line >= len(self.line_starts):
            return len(self.text)
        start = self.line_starts[line]
        end = self.line_end(line)
        if character <= 0:
            return start
        seg = self.text[start:end]
        if encoding is Encoding.UTF32 or seg.isascii():
            return start + min(character, len(seg))
        units = 0
        for i, ch in enumerate(seg):
            cp = ord(ch)
            if encoding is Encoding.UTF16:
                w = 2 if cp > 0xFFFF else 1
            else:
                w = 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4
            # A position inside a multi-unit character snaps to its start.
            if units + w > character:
                return start + i
            units += w
        return end


class PositionTable:
    """Positions of selected offsets, precomputed from a SourceText.

    Worker processes send this instead of the whole text, and the server keeps
    it for closed files: it answers ``position()`` in every encoding for the
    offsets it was built with (finding, related and anchor spans).

    Two arrays of 32-bit ints: the sorted offsets, and four numbers for each (line; characters,
    UTF-16 and UTF-8 units before it on its line), about 20 bytes an offset where a dict of
    tuples took some 150. The server keeps one for each closed file: the stress workspace's
    10,000 take about 13 MB less this way.
    """

    __slots__ = ("_columns", "_offsets")

    def __init__(self, src: SourceText, offsets: set[int]) -> None:
        text = src.text
        keys = sorted({max(0, min(o, len(text))) for o in offsets})
        columns = array("i")
        before = src._before
        for o in keys:
            line, seg = before(o)
            n = len(seg)
            if seg.isascii():
                columns.extend((line, n, n, n))
            else:
                columns.extend((line, n, _units(seg, Encoding.UTF16), _units(seg, Encoding.UTF8)))
        self._offsets = array("i", keys)
        self._columns = columns

    def _at(self, offset: int) -> int:
        """Where ``offset``'s four numbers start in ``_columns``, or -1 when it was not recorded."""
        offsets = self._offsets
        i = bisect_left(offsets, offset)
        return 4 * i if i < len(offsets) and offsets[i] == offset else -1

    def __contains__(self, offset: int) -> bool:
        return self._at(offset) >= 0

    def columns(self, offset: int) -> tuple[int, int, int]:
        j = self._at(offset)
        if j < 0:
            return (0, 0, 0)
        c = self._columns
        return (c[j], c[j + 1], c[j + 2])

    def position(self, offset: int, encoding: Encoding = Encoding.UTF16) -> tuple[int, int]:
        j = self._at(offset)
        if j < 0:
            return (0, 0)
        c = self._columns
        return c[j], c[j + 2] if encoding is Encoding.UTF16 else c[j + 3] if encoding is Encoding.UTF8 else c[j + 1]
