"""The page a SKILL.md body renders to: an oracle from outside the engine for "a safe fix
changes nothing a reader sees". Shared by tests/hardening/fuzzing.py and
benchmarks/fix_safety.py.

markdown-it (CommonMark with GFM tables) renders the body as it is; then what a safe fix means
to change, or a page never shows, is set aside: invisible characters (deleted by
INVISIBLE_CHARACTERS), link destinations (ABSOLUTE_LINK makes them relative), blanks at a
line's end, before a line break or alone in a paragraph, and blank lines.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

_RENDER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u061c\U000e0000-\U000e007f]")
_DESTINATION = re.compile(r'(?:href|src)="[^"]*"')
_HIDDEN = re.compile(r"[ \t\f\v]+(?=\n|\Z|<br />)|<p>[ \t\f\v]*</p>")
_BLANK_LINES = re.compile(r"\n{2,}")

# Fixes whose job is to change text a page shows: `scripts\x.py` in prose becomes `scripts/x.py`.
SHOWN_TEXT_FIXES = frozenset({"BACKSLASH_PATH", "ABSOLUTE_LINK"})


def page(body: str) -> str:
    html = _DESTINATION.sub("", _INVISIBLE.sub("", _RENDER.render(body)))
    return _BLANK_LINES.sub("\n", _HIDDEN.sub("", html))
