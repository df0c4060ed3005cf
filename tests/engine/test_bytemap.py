"""``markdown._ByteMap`` turns a UTF-8 byte offset into a code point offset, from line starts summed
in C and, on an ASCII line, without decoding it: the same answer as decoding the prefix, at every
byte offset of texts mixing ASCII and wider characters, line feeds and carriage returns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skill_lsp.engine.markdown import _ByteMap

PIECES = ["a", " ", "\n", "\r", "\r\n", "é", "漢", "😀", "\u2028", "x y", "\n\n", "ü\n"]


def _decoded(text: str, b: int) -> int:
    return len(text.encode("utf-8")[:b].decode("utf-8", "ignore"))


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25))
def test_byte_offsets_map_to_characters(pieces: list[str]) -> None:
    text = "".join(pieces)
    to_char = _ByteMap(text)
    data = text.encode("utf-8")
    for b in range(len(data) + 1):
        if b == len(data) or (data[b] & 0xC0) != 0x80:  # where a character starts (or the end)
            assert to_char(b) == _decoded(text, b), (text, b)
