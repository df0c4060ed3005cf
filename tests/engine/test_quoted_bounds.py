"""``body._quoted`` finds a link's line from the nearest line break on each side, searching no
further than the other kind's, and answers at once when no quotation opens before the link: the
same answer as the quotation test on the line found by searching the whole text for both kinds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skill_lsp.engine.rules.body import _in_quotation, _quoted

PIECES = ["\n", "\r", "\r\n", '"', "\u201c", "\u201d", "\u00ab", "\u00bb", "a", " ", "[x](y)"]


def _quoted_whole_text(text: str, start: int, end: int) -> bool:
    # The line bounds as they were found before: each kind of break searched over the whole text.
    ls = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    le = min((i for i in (text.find("\n", end), text.find("\r", end)) if i >= 0), default=len(text))
    return _in_quotation(text[ls:start], text[end:le])


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25), st.data())
def test_quoted_reads_the_same_line(pieces: list[str], data: st.DataObject) -> None:
    text = "".join(pieces)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert _quoted(text, start, end) == _quoted_whole_text(text, start, end)


def test_quoted_examples() -> None:
    text = 'intro\r\nSay "see [a](/x) here" now\rnext "line'
    s = text.index("[a]")
    assert _quoted(text, s, s + 8)
    assert not _quoted(text, text.index("next"), text.index("next") + 4)
