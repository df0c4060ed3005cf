"""``mentions._SLASH`` looks behind its slash for what may precede an invocation: it finds what
the plain pattern found once the matches preceded by anything else were dropped, from any start."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from skill_lsp.engine.mentions import _SLASH, NAME

_PLAIN = re.compile(r"/(?:(" + NAME + r"):)?(" + NAME + r")")
_BEFORE = frozenset(" \t\r\n([`\"'>")
PIECES = ["/", "a", "deploy", "x:y", ":", "-", " ", "\n", "\r", "\t", "(", "[", "`", '"', "'", ">", "<", ".", "_",
          "é", "http://h.io/p", "//", "1"]


def _filtered(text: str, pos: int) -> list[tuple]:
    return [(m.span(), m.groups()) for m in _PLAIN.finditer(text, pos)
            if not (m.start() > 0 and text[m.start() - 1] not in _BEFORE)]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25), st.data())
def test_slash_candidates_are_the_filtered_ones(pieces: list[str], data: st.DataObject) -> None:
    text = "".join(pieces)
    pos = data.draw(st.integers(0, len(text)))
    assert [(m.span(), m.groups()) for m in _SLASH.finditer(text, pos)] == _filtered(text, pos)
