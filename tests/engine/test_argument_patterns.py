"""The argument rules' patterns open with their '$' and look behind it from there: they find what
the lookbehind-led forms found, on texts built from the characters either side cares about."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from skill_lsp.engine.rules.arguments import _ARGS, _POSITIONAL

_ARGS_BEFORE = re.compile(r"(?<!\\)\$ARGUMENTS\b|(?<![\\$\w])\$\d\b")
_POSITIONAL_BEFORE = re.compile(r"(?<![\\$\w])\$(\d+)\b")

PIECES = ["$", "\\", "ARGUMENTS", "ARGUMENTSx", "1", "12", "a", "_", " ", "\n", "$$", "é", ".", "`", "\\$"]


def _found(pattern, text: str) -> list[tuple]:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=20))
def test_literal_led_patterns_find_the_same(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _found(_ARGS, text) == _found(_ARGS_BEFORE, text)
    assert _found(_POSITIONAL, text) == _found(_POSITIONAL_BEFORE, text)


def test_examples() -> None:
    text = "$ARGUMENTS \\$ARGUMENTS a$1 $2 \\$3 $$4 $56 $7x"
    assert [m.group(0) for m in _ARGS.finditer(text)] == ["$ARGUMENTS", "$2"]
    assert [m.group(1) for m in _POSITIONAL.finditer(text)] == ["2", "56"]
    assert _found(_ARGS, text) == _found(_ARGS_BEFORE, text)
