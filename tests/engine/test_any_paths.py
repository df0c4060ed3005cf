"""``files.any_paths`` finds what ``_ANY_PATH.finditer`` finds (it only locates the matches
faster): on texts built from the pieces the pattern cares about, prefixes, folder names,
lookbehind and lookahead characters, overlapping and adjacent paths."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from skill_lsp.engine import document
from skill_lsp.engine.rules.files import _ANY_PATH, any_paths

PIECES = ["references/", "reference/", "scripts/", "assets/", "templates/", "./", "${CLAUDE_SKILL_DIR}/",
          "$CLAUDE_SKILL_DIR/", "{baseDir}/", "a", "x.md", ".py", "/", ".", "-", "~", "$", "}", "{", "*", "<", " ",
          "\n", "`", "(", ")", "é", "@", "_"]


def _spans(ms) -> list[tuple]:
    return [(m.span(), m.span(1), m.group(1)) for m in ms]


def _found(text: str) -> list[tuple]:
    return _spans(any_paths(document.parse("", "SKILL.md"), text))


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_any_paths_equals_the_regex_search(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _found(text) == _spans(_ANY_PATH.finditer(text))


def test_any_paths_examples() -> None:
    text = ("Run ./scripts/a.py, then read references/b.md and ${CLAUDE_SKILL_DIR}/assets/c.png; "
            "not src/scripts/d.py, x./scripts/e.py, ~/references/f.md or {baseDir}/templates/g.txt/.\n"
            "Also $CLAUDE_SKILL_DIR/references/h.md and references/scripts/i.sh.")
    found = [g for _, _, g in _found(text)]
    assert found == ["scripts/a.py", "references/b.md", "assets/c.png", "references/h.md", "references/scripts/i.sh"]
    assert _found(text) == _spans(_ANY_PATH.finditer(text))
