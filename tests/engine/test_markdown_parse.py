"""The full Markdown parse (``markdown.parse``) pinned on hand-written bodies: every span exact.

The CLI and server goldens see this parse only through findings; these cases check what it
returns (links of each kind, headings, code blocks) with the offsets written out, including
the paths the fast link scan hands back to it: definitions, destinations it cannot read
plainly, non-ASCII text and lone surrogates.
"""

from __future__ import annotations

import pytest

from skill_lsp.engine import markdown
from skill_lsp.engine.markdown import Heading, Link

needs_pyromark = pytest.mark.skipif(markdown.pyromark() is None, reason="pulldown-cmark (pyromark) not installed")
pytestmark = needs_pyromark

BASE = 3  # the body starts at this document offset: every span below counts it


def parse(body: str) -> markdown.Body:
    return markdown.parse(body, BASE)


def spans(body: str, links: list[Link]) -> list[tuple[str, str, str, str]]:
    """(kind, target, construct text, raw destination text) of each link, cut from the body."""
    doc = " " * BASE + body
    return [(x.kind, x.target, doc[x.start:x.end], doc[x.target_start:x.target_end]) for x in links]


def test_headings_atx_and_setext_with_their_text_and_spans() -> None:
    body = "# Title *em* `code` ~~old~~\n\nText\n\nSetext\n======\n\n### Three\n"
    # Code spans count as text; strikethrough is an extension the options turn on, so its
    # tildes are markup, not text.
    assert parse(body).headings == [
        Heading(1, "Title em code old", 3, 31),
        Heading(1, "Setext", 38, 52),
        Heading(3, "Three", 53, 63),
    ]


def test_code_blocks_fenced_and_indented() -> None:
    body = "Intro\n\n```sh\n[no](no.md)\n```\n\n    [no](indented.md)\n\n[yes](yes.md)\n"
    got = parse(body)
    doc = " " * BASE + body
    # pulldown-cmark's ranges: a fenced block with its fences, an indented one from its text.
    assert [doc[s:e] for s, e in got.code_blocks] == ["```sh\n[no](no.md)\n```", "[no](indented.md)\n"]
    assert got.code_blocks == [(10, 31), (37, 55)]
    assert spans(body, got.links) == [("inline", "yes.md", "[yes](yes.md)", "yes.md")]


def test_non_ascii_offsets_are_code_points() -> None:
    body = "é😀 [x](a.md)\n# Ünï 😀\n[y](b/ü.md)"
    got = parse(body)
    assert got.links == [Link("inline", "a.md", 6, 15, 10, 14), Link("inline", "b/ü.md", 24, 35, 28, 34)]
    assert got.headings == [Heading(1, "Ünï 😀", 16, 24)]


def test_a_lone_surrogate_from_a_client_keeps_every_offset() -> None:
    got = parse("\ud800 [a](a.md)\n")
    assert got.links == [Link("inline", "a.md", 5, 14, 9, 13)]


def test_reference_links_definitions_and_their_kinds() -> None:
    body = '[a]: https://x.example\n[b]: b.md\n[c]:c.md "t]:x"\n\nUse [b][], [b] and [text][c].\n'
    got = parse(body)
    # A web definition is skipped (the next one still counts). A reference's span is pulldown-
    # cmark's: the label for a collapsed or shortcut reference, text and label for a full one.
    assert spans(body, got.links) == [
        ("definition", "b.md", "[b]: b.md", "b.md"),
        ("definition", "c.md", '[c]:c.md "t]:x"', "c.md"),
        ("reference", "b.md", "[b]", "[b]"),
        ("reference", "b.md", "[b]", "[b]"),
        ("reference", "c.md", "[text][c]", "[text][c]"),
    ]


@pytest.mark.parametrize(("body", "links"), [
    ("Note[^1].\n\n[^1]: see [x](x.md)\n", [("inline", "x.md", "[x](x.md)", "x.md")]),
    # Without the footnotes option this would be a definition of "notes.md".
    ("Note[^1].\n\n[^1]: notes.md\n", []),
])
def test_a_footnote_definition_is_no_reference_definition(body: str, links: list) -> None:
    assert spans(body, parse(body).links) == links


def test_autolinks_are_not_recorded() -> None:
    assert parse("<file:x.md> and <https://a.b> and <FILE:y.md>\n").links == []


def test_an_image_without_description() -> None:
    body = "![](assets/x.png)\n"
    assert spans(body, parse(body).links) == [("image", "assets/x.png", body[:-1], "assets/x.png")]


def test_the_destination_is_found_after_the_whole_link_text() -> None:
    # The text holds "](" in a code span after emphasis: the target is the one after the text.
    body = "[*a* `](b)`](c.md)\n"
    assert spans(body, parse(body).links) == [("inline", "c.md", body[:-1], "c.md")]


def test_destinations_the_simple_pattern_cannot_read() -> None:
    body = ('> quote\n\n[a](<x\\y.md> "t>") [b](a<b.md) [c](x(1(2)).md) [d](x\\).md) [e](X(1).md) '
            '[f](aX(1).md) [g](\n  x(1).md) [h](b.md "x](y") [i](x(1).md "t")\n')
    assert spans(body, parse(body).links) == [
        ("inline", "x\\y.md", '[a](<x\\y.md> "t>")', "x\\y.md"),  # bracketed, a backslash inside
        ("inline", "a<b.md", "[b](a<b.md)", "a<b.md"),
        ("inline", "x(1(2)).md", "[c](x(1(2)).md)", "x(1(2)).md"),  # nested parentheses
        ("inline", "x).md", "[d](x\\).md)", "x\\).md"),  # an escaped parenthesis
        ("inline", "X(1).md", "[e](X(1).md)", "X(1).md"),
        ("inline", "aX(1).md", "[f](aX(1).md)", "aX(1).md"),
        ("inline", "x(1).md", "[g](\n  x(1).md)", "x(1).md"),  # on the next line
        ("inline", "b.md", '[h](b.md "x](y")', "b.md"),  # "](" in the title
        ("inline", "x(1).md", '[i](x(1).md "t")', "x(1).md"),  # a title after parentheses
    ]


@pytest.mark.parametrize(("body", "target", "raw"), [
    ("[a]: x\\)", "x)", "x\\)"),  # an escape as the body's last two characters
    ("[a]: x\\", "x\\", "x\\"),  # a backslash as the last character escapes nothing
    ("[a]: x(1)", "x(1)", "x(1)"),  # balanced parentheses up to the body's end
])
def test_definitions_ending_the_body(body: str, target: str, raw: str) -> None:
    end = BASE + len(body)  # nothing may reach past the body's end
    assert parse(body).links == [Link("definition", target, BASE, end, end - len(raw), end)]


def test_the_options_turn_on_tables_strikethrough_tasklists_and_footnotes(monkeypatch) -> None:
    monkeypatch.setattr(markdown, "_OPTIONS", None)
    o = markdown.pyromark().Options
    assert markdown._options() == o.ENABLE_TABLES | o.ENABLE_STRIKETHROUGH | o.ENABLE_TASKLISTS | o.ENABLE_FOOTNOTES
    assert parse("# ~~old~~ new\n").headings == [Heading(1, "old new", 3, 17)]
