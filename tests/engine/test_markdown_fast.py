"""Links without the event stream (markdown.links_fast) are the full parse's links, or nothing.

links_fast answers from pulldown-cmark's HTML and a raw scan, and returns None whenever
that could differ from the full parse. Every case here holds it to "None or exactly the
full parse's links", and the cases it must answer keep it from passing by always saying None.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from helpers import corpus
from skill_lsp.engine import document, markdown

REPO = Path(__file__).resolve().parents[2]
BASE = 11


def full(body: str) -> list[markdown.Link]:
    return markdown._parse_pulldown(body, BASE).links


# Answered without the full parse: what the common skill holds.
ANSWERED = [
    "No links at all.\n",
    "See [a](references/a.md) and ![img](assets/x.png).\n",
    "[web](https://example.com) [anchor](#top) [mail](mailto:a@b.c) [abs](/etc/passwd)\n",
    "```\n[fenced](fenced.md)\n```\n\n    [indented](indented.md)\n\n[after](ok.md)\n",
    "`[not](code.md)` and [yes](yes.md)\n",
    "- item [one](one.md)\n  - nested [two](two.md)\n\n> quoted [three](three.md)\n",
    "| a | b |\n|---|---|\n| [cell](cell.md) | x |\n",
    "Twice: [a](same.md) and [b](same.md); an image ![i](pic.png) and a link [l](pic.png).\n",
    "Text that only looks like a link: ](bare.md) and [x] (spaced.md)\n",
    "Unicode é😀 before [ascii](dir/x.md)\n",
    "<div>\n[in html block](html.md)\n</div>\n\n[after](after.md)\n",
    "[up](../other/SKILL.md) [file](file:///tmp/x.md) [q](a.md?x=1#frag)\n",
    "Line one [soft\nbreak](soft.md)\n",
    "![i](pic.png) and a web link after it [w](https://x.y/z)\n",
    "![i](pic.png)\n\nA later paragraph: text like ](bare.md) is no link.\n",  # the image is a paragraph away
    "[a](x.md) ends with a backslash \\",
    "[f](FILE:///tmp/x.md) and [g](file:///tmp/y.md)\n",  # file: targets are kept in either case
]

# Left to the full parse: the HTML could not settle them.
DEFERRED = [
    "[ref]: /abs/path.md\n\nUse [it][ref].\n",  # definitions
    "[angle](<with space.md>)\n",  # bracketed target
    '[titled](t.md "title")\n',  # a title after the target
    "[p](x(1).md)\n",  # parentheses in the target
    "[ü](dir/ü.md)\n",  # non-ASCII target (percent-encoded in HTML)
    "[esc](a\\_b.md) [ent](a&amp;b.md)\n",  # escapes and entities decode
    '<a href="raw.md">raw</a> [md](raw.md)\n',  # raw HTML in the writer's own form
    "`[x](dup.md)` and [x](dup.md)\n",  # one in code, one a link: which is which
    "![alt [inner](inner.md)](https://x.y/pic.png)\n",  # a link inside an image's description
    "![alt [inner](inner.md)](https://x.y/pic.png)\n\nA blank line after it.\n",
    "[![badge](assets/b.svg)](assets/b.svg)\n",  # nesting reorders the HTML
    "[`code` text](c.md)\n",  # a code span in the link text
    "[empty]()\n",  # an empty target
    "[a](x.md) and a lone surrogate \ud800\n",  # pulldown-cmark takes UTF-8 only
    '<img src="x.png"> and `[c](x.png)`\n',  # raw HTML image in the writer's own form
    "See <FILE:///x.md> and `[y](FILE:///x.md)`\n",  # an upper-case file: autolink
    "[<a](x.md)\n",  # '<' first in the link text
    # A file: autolink renders as a kept target but is no link to the parse; here it would
    # have confirmed the candidate inside the code span.
    "See <file:///x.md> and `[y](file:///x.md)`\n",
    # The target on the next line: no candidate for it, and the one in code must not take its place.
    "`[b](x.md)` and [a](\nx.md)\n",
    # A bracketed target shows in the HTML as a plain one; the candidate in code must not take its place.
    "`[c](x.md)` and [b](<x.md>)\n",
]


@pytest.mark.parametrize("body", ANSWERED)
def test_answered_cases_equal_the_full_parse(body: str) -> None:
    fast = markdown.links_fast(body, BASE)
    assert fast is not None, "expected the fast path to answer"
    assert fast == full(body)


@pytest.mark.parametrize("body", DEFERRED)
def test_ambiguous_cases_are_left_to_the_full_parse(body: str) -> None:
    assert markdown.links_fast(body, BASE) is None


def test_skill_document_links_use_it_and_equal_body_links() -> None:
    text = "---\nname: a\ndescription: d\n---\n`[x](code.md)` [y](y.md)\n"
    doc = document.parse(text, "/ws/a/SKILL.md")
    links = doc.links
    assert doc._body is None  # answered without the full parse
    assert links == doc.body.links


# Fragments a random body is assembled from: every construct that decides what is a link.
_FRAGMENTS = [
    "[a](t{n}.md)", "![i](t{n}.png)", "[a](t{n}.md \"title\")", "`[c](t{n}.md)`", "``[c](t{n}.md)``",
    "\n```\n[f](t{n}.md)\n```\n", "\n~~~\n[f](t{n}.md)\n", "\n\n    [ind](t{n}.md)\n\n", "[x]", "](t{n}.md)",
    "[", "]", "(", ")", "`", "\\", "\\[", "!", "![", "<", ">", "<span>", "</span>", "<a href=\"t{n}.md\">",
    "[o [i](t{n}.md)](t{n}.md)", "![d [l](t{n}.md)](t{n}.png)", "[![b](t{n}.png)](t{n}.md)", "\n\n", "\n",
    "> ", "- ", "| a | [c](t{n}.md) |\n|---|---|\n", "<https://x.y/{n}>", "<file:///t{n}.md>", "[r]: t{n}.md\n",
    "[r][r]", "[^1]", "é", "😀", "&amp;", "[e](<t {n}.md>)", "[p](t({n}).md)", "[u](../s{n}/SKILL.md)",
    " text ", "**", "_", "# ", "\n<div>\n", "\n</div>\n\n", "[ab](t{n}.md#x)", "[w](https://w/{n})",
    # "]:" that is a definition or only looks like one: after text, in a type, over two lines, in
    # containers, escaped.
    "tuple[bytes]:", "Rate [idea]:", "\n[r]: t{n}.md", "\n   [r]:\n t{n}.md", "\n[r\nq]: t{n}.md\n",
    "\n> [r]: t{n}.md\n", "\n- [r]: t{n}.md\n", "\n1. [r]: t{n}.md\n", "\\[r]: t{n}.md", "[r\\]]: t{n}.md",
    "[r]:", "]:", "\n[r]: <t {n}.md>\n", "\n[r\\[x]: t{n}.md\n",
]


def _random_body(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 14)):
        parts.append(rng.choice(_FRAGMENTS).replace("{n}", str(rng.randint(0, 3))))
    return "".join(parts)


def test_random_bodies_are_answered_exactly_or_deferred() -> None:
    rng = random.Random(20261201)
    answered = 0
    for _ in range(6000):
        body = _random_body(rng)
        fast = markdown.links_fast(body, BASE)
        if fast is not None:
            answered += 1
            assert fast == full(body), body
    assert answered > 1000  # the fast path is exercised, not always deferring


def test_a_body_with_a_definition_may_define() -> None:
    """``may_define`` gates the definitions' parse and the fast path: every body whose parse finds
    a reference definition must pass it."""
    from skill_lsp.engine.markdown_base import may_define  # noqa: PLC0415

    rng = random.Random(20261205)
    defining = refused = 0
    for _ in range(6000):
        body = _random_body(rng)
        # pulldown-cmark's own list, not the full parse (whose second pass this gate skips).
        if markdown._pyromark.reference_definitions(body, options=markdown._options()):  # noqa: SLF001
            defining += 1
            assert may_define(body), body
        elif "]:" in body and not may_define(body):
            refused += 1
    assert defining > 300 and refused > 300  # both kinds of "]:" were generated


def test_real_skills_are_answered_exactly_or_deferred() -> None:
    answered = total = 0
    for root in (REPO / "sample-workspace", corpus()):
        for dirpath, _, files in os.walk(root):
            if "SKILL.md" not in files:
                continue
            text = Path(dirpath, "SKILL.md").read_text(encoding="utf-8", errors="replace")
            doc = document.parse(text, str(Path(dirpath, "SKILL.md")))
            if doc.split is None or not (doc.split.closed or not doc.split.has_frontmatter):
                continue
            body = doc.body_text
            fast = markdown.links_fast(body, doc.body_start)
            total += 1
            if fast is not None:
                answered += 1
                assert fast == markdown._parse_pulldown(body, doc.body_start).links, dirpath
    assert answered > total // 2, (answered, total)


def test_file_urls_are_recorded_in_either_case_and_web_urls_are_not() -> None:
    body = "[f](FILE:///tmp/x.md) [g](file:///tmp/y.md) [w](https://x.y/z) [a](#top)\n"
    assert [link.target for link in full(body)] == ["FILE:///tmp/x.md", "file:///tmp/y.md"]
