"""Mentions at the edges: the document's first and last characters, rejected candidates
followed by real ones, the frontmatter and code blocks around the body, and link targets
that only look like a sibling skill's folder.

Each case lists every mention with its exact span; the frontmatter of FM mentions `deploy`
once in `allowed-tools` and holds a slash and a dollar word that must not count (mentions
are read from the body).
"""

from __future__ import annotations

import pytest

from skill_lsp.engine import document
from skill_lsp.engine.mentions import extract

FM = "---\nname: a\ndescription: Run /deploy and $ship here\nallowed-tools: Read Skill(deploy)\n---\n"
PATH = "/ws/skills/a/SKILL.md"
TOOL = ("tool", "deploy", 78, True, None)  # FM's Skill(deploy)


def mentions(text: str, path: str = PATH) -> list[tuple]:
    return [(m.kind, m.name, m.start, m.strict, m.folder) for m in extract(document.parse(text, path))]


def at(text: str, needle: str, nth: int = 0) -> int:
    """Offset of the name after the nth occurrence of ``needle`` (a '/' or '$' and the name)."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    return i + 1


@pytest.mark.parametrize(("text", "want"), [
    # No frontmatter: the body starts at 0, so the first character has nothing before it.
    ("/deploy now", [("slash", "deploy", 1, False, None)]),
    ("`/deploy` now", [("slash", "deploy", 2, True, None)]),  # in inline code: certainly an invocation
    ("/deploy x`", [("slash", "deploy", 1, False, None)]),  # the last character is no opening backtick
    ("x/deploy", []),  # part of a word
    ("$deploy now", [("dollar", "deploy", 1, True, None)]),
    ("x$deploy", []),
])
def test_the_first_characters_of_a_document(text: str, want: list) -> None:
    assert mentions(text, "") == want


@pytest.mark.parametrize(("tail", "want"), [
    ("Run /deploy", [("slash", "deploy", 95, False, None)]),
    ("Run /deploy.", [("slash", "deploy", 95, False, None)]),  # the end of a sentence
    ("Run /deploy.x", []),  # a file name
    ("Run $deploy", [("dollar", "deploy", 95, True, None)]),
    ("Run $deploy.", [("dollar", "deploy", 95, True, None)]),
    ("Run $deploy.x", []),  # a property access
])
def test_a_mention_that_ends_the_document(tail: str, want: list) -> None:
    assert mentions(FM + tail) == [TOOL, *want]


def test_rejected_candidates_do_not_end_the_search() -> None:
    text = FM + "/usr/bin and /deploy_x and /deploy. /deploy./x /deploy._ now /deploy\n"
    assert mentions(text) == [TOOL, ("slash", "deploy", at(text, "/deploy."), False, None),
                              ("slash", "deploy", at(text, "/deploy\n"), False, None)]
    text = FM + "a$b then $deployX and $x_y then $deploy\n"
    assert mentions(text) == [TOOL, ("dollar", "deploy", at(text, "$deploy\n"), True, None)]


def test_only_allowed_tools_holds_tool_mentions_and_only_the_body_the_others() -> None:
    assert mentions(FM + "Body Skill(other) text\n") == [TOOL]


def test_code_blocks_hold_no_mentions_up_to_their_end() -> None:
    text = FM + "```\n/deploy\n```\n\nthen /ship\n"
    assert mentions(text) == [TOOL, ("slash", "ship", at(text, "/ship"), False, None)]
    # An indented block ends where the next line starts: a mention there is outside it.
    text = FM + "Intro\n\n    code\n/deploy now\n"
    assert mentions(text) == [TOOL, ("slash", "deploy", at(text, "\n/deploy") + 1, False, None)]


def test_link_mentions_need_a_skill_folder() -> None:
    # An unsaved buffer has no folder: a relative link names no sibling.
    assert mentions(FM + "See [o](../other/SKILL.md).\n", "") == [TOOL]


def test_a_definition_names_a_sibling_and_an_empty_one_is_skipped() -> None:
    text = FM + "[e]: <>\n[o]: ../other/SKILL.md\n\nUse [e] and [o].\n"
    assert mentions(text) == [TOOL, ("link", "other", text.index("other"), True, "/ws/skills/other")]


def test_the_span_is_the_segment_as_written() -> None:
    # Percent-escaped, the segment is not written as the name: no span to rename, no mention,
    # and no borrowing the span of a later link.
    text = FM + "[a](../oth%65r/SKILL.md) and [b](../other/x.md)\n"
    assert mentions(text) == [TOOL, ("link", "other", text.index("/other/") + 1, True, "/ws/skills/other")]


def test_which_relative_links_name_a_sibling_folder() -> None:
    text = FM + "[a](../other) [b](../..) [c](../) [d](../../z/SKILL.md)\n"
    assert mentions(text) == [TOOL, ("link", "other", text.index("other"), True, "/ws/skills/other")]


def test_a_windows_separator_in_the_skill_folder() -> None:
    got = mentions(FM + "[a](../other/SKILL.md)\n", "/ws/skills\\x/a/SKILL.md")
    assert got[1][4] == "/ws/skills/x/other"


def test_a_pattern_of_commands_names_no_skill() -> None:
    # Unseen repositories (vinnie357, tuyenivt): "Glob patterns like `/core:*`", "the matching
    # `/task-rails-review-*` command" were read as skills 'core' and 'task-rails-review-'.
    text = FM + "\nPatterns like `/core:*` and `/task-review-*` or /deploy-* do not expand; `/deploy` does.\n"
    assert mentions(text) == [TOOL, ("slash", "deploy", at(text, "`/deploy`") + 1, True, None)]
