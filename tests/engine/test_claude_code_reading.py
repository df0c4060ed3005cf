"""Claude Code's own readings: its frontmatter reader and the columns it counts its listing in.

Every expected value here is what the release's code gave on Bun 1.4.5 (scripts/terminal_widths.py
names the Bun; the frontmatter cases were run through the release's reader on Bun.YAML). They are
the cases that once differed, kept so they cannot differ again.
"""

from __future__ import annotations

import pytest

from skill_lsp.engine.claude_frontmatter import quoted_retry, read
from skill_lsp.engine.render.cells import string_width
from skill_lsp.engine.render.claude_code import columns

WIDTHS = [
    ("plain ascii", 11),
    ("日本", 4),
    ("ＡＢ", 4),
    ("e\u0301", 1),  # a combining mark
    ("a\u200bb", 2),  # zero-width space
    ("\ufeff", 0),
    ("\u00ad", 0),  # soft hyphen
    ("a\tb", 2),  # a tab takes no column
    ("\u2028", 1),
    ("\x85", 0),
    ("\U0001f600", 2),
    ("\U0001d11e", 1),  # astral but narrow: two UTF-16 units, one column
    ("\U0001f468\u200d\U0001f469\u200d\U0001f467", 2),  # a ZWJ family
    ("\U0001f44d\U0001f3fd", 2),  # a skin tone
    ("\U0001f1eb\U0001f1f7", 2),  # a flag
    ("\U0001f1eb", 1),  # half a flag
    ("1\ufe0f\u20e3", 2),  # a keycap
    ("\u2764\ufe0f", 2),
    ("\u2764", 1),
    ("\u2764\ufe0e", 1),
    ("a\ufe0f", 1),
    ("\u00a9\u200d", 1),
    ("\u00a9\ufe0f", 2),
    ("\u0915\u094d\u0937\u093f", 2),  # a Devanagari conjunct
    ("\u0e01\u0e33", 2),
    ("a\ufe0f\u0e33", 1),  # a variation selector: as wide as the cluster's first code point
    ("\u0600a", 1),  # a prepended mark joins what follows
    ("\x1b[31mred\x1b[0m", 3),
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", 4),
]


@pytest.mark.parametrize(("text", "width"), WIDTHS)
def test_string_width_is_buns(text, width):
    assert string_width(text) == width


def test_listing_columns_count_an_indic_vowel_sign_twice():
    # Claude Code adds a column for each spacing vowel sign on top of Bun's count
    assert string_width("\u0915\u093f") == 1
    assert columns("\u0915\u093f") == 2


FRONTMATTER = [
    # (file, parsed, description, name, what follows the block)
    ("---\ndescription: \tlint review\t\n---\nbody\n", True, "lint review", None, "body\n"),
    ("---\ndescription: a \tb\nname: x\n---\n", True, "a \tb", "x", ""),
    ("---\nname: build\ndescription: Does sync work.\n: orphan\n---\n", True, "Does sync work.", "build", ""),
    ('---\ndescription: say "hi": now\n---\n', True, 'say "hi": now', None, ""),
    ("---\nname: a---b\n---\n# Title\n", True, None, "a", "b\n---\n# Title\n"),
    ("---\ndescription: Use it: when \\ asked\n---\n", True, "Use it: when \\ asked", None, ""),
    ("---\nmetadata:\n\tauthor: x\ndescription: tabbed\n---\n", True, "tabbed", None, ""),
    ("---\ndescription: |\n  keep\ttab\t\n---\n", True, "keep\ttab\t\n", None, ""),
    ("\ufeff---\ndescription: marked\n---\n", True, "marked", None, ""),
    ("---\ndescription: one\n  \tcontinued here\n---\n", True, "one continued here", None, ""),
    ("---\ndescription: [a, b\n---\nFirst line\n", True, "[a, b", None, "First line\n"),
    ("---\r\ndescription: crlf: value\r\n---\r\n", False, None, None, ""),
]


@pytest.mark.parametrize(("text", "parsed", "description", "name", "content"), FRONTMATTER)
def test_frontmatter_is_read_as_the_release_reads_it(text, parsed, description, name, content):
    got = read(text)
    assert got.block
    assert got.parsed is parsed
    assert got.fields.get("description") == description
    assert got.fields.get("name") == name
    assert got.content == content


def test_no_block_hands_over_the_whole_text():
    got = read("\ufeffno frontmatter\n")
    assert not got.block and got.fields == {} and got.content == "\ufeffno frontmatter\n"


def test_the_retry_quotes_only_values_its_pattern_names():
    block = 'a: plain\nb: x: y\nc: "kept"\nd: [1, 2]\ne: 50%\n\tf: g'
    assert quoted_retry(block) == 'a: plain\nb: "x: y"\nc: "kept"\nd: [1, 2]\ne: "50%"\n  f: g'


@pytest.mark.parametrize(("body", "listed"), [
    ("# \ufeffSearch Che\n", "Search Che"),  # a byte order mark is whitespace to JavaScript's \s (seed 2026)
    ("# \x85Build\n", "\x85Build"),  # NEL is not
    ("#\u00a0Title\n", "Title"),
    ("#x\n", "#x"),
])
def test_the_first_line_of_a_skill_without_description_reads_its_heading_as_javascript_does(body, listed):
    from skill_lsp.engine.render.claude_code import _first_line

    assert _first_line(body) == listed


def test_past_the_budget_security_review_is_served_before_the_users_skills():
    """The differential tester (seed 2026, batches 11, 23 and 83 byte for byte): what is left of the
    budget goes to `security-review`'s line first, then to the user's skills in listing order."""
    from skill_lsp.engine.harness.data import CLAUDE_CODE_BUILTINS
    from skill_lsp.engine.render.claude_code import name_only

    full, brief = "- a: " + "x" * 80, "- a"
    assert columns(full) - columns(brief) == 82
    # The fixed built-ins, every brief line and the separators; then room for 100 more columns.
    base = sum(chars for name, chars in CLAUDE_CODE_BUILTINS if name != "security-review")
    base += columns("- security-review") + columns(brief) + len(CLAUDE_CODE_BUILTINS)
    assert name_only([("a", full, brief)], budget=base + 100) == {"a"}  # security-review took 73
    assert name_only([("a", full, brief)], budget=base + 73 + 82) == set()
