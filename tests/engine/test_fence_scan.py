"""``bodyscan.code_blocks`` finds fences from the line feeds before them (a literal-led search)
where it tried a `^`-anchored pattern at every character: the same blocks, on texts built from
fences, indentation, info strings and every kind of line break."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from skill_lsp.engine import document
from skill_lsp.engine.rules.bodyscan import code_blocks

_ANCHORED = re.compile(r"^[ \t]*(`{3,}|~{3,})", re.M)


def _blocks_anchored(body: str, base: int) -> list[tuple[int, int]]:
    # The scan as it was, with the `^`-anchored pattern; a lone CR ends a line (CommonMark).
    if "```" not in body and "~~~" not in body:
        return []
    body = re.sub(r"\r(?!\n)", "\n", body)
    out = []
    it = _ANCHORED.finditer(body)
    for m in it:
        fence = m.group(1)
        for close in it:
            c = close.group(1)
            if c[0] == fence[0] and len(c) >= len(fence) and body[close.end():close.end() + 1] in ("\n", "\r", "", " "):
                end = body.find("\n", close.end())
                out.append((base + m.start(), base + (len(body) if end < 0 else end)))
                break
        else:
            out.append((base + m.start(), base + len(body)))
    return out


PIECES = ["```", "`", "~~~", "~", "````", " ", "\t", "\n", "\r", "\r\n", "sh", "x", "- ", "> "]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.booleans())
def test_fence_scan_finds_the_same_blocks(pieces: list[str], frontmatter: bool) -> None:
    body = "".join(pieces)
    text = ("---\nname: x\ndescription: y\n---\n" if frontmatter else "") + body
    doc = document.parse(text, "x/SKILL.md")
    assert code_blocks(doc) == _blocks_anchored(doc.body_text, doc.body_start)


def test_fence_scan_examples() -> None:
    body = "```sh\nrun\n```\ntext\n  ~~~~\nindented\n  ~~~~ \n```unclosed\nrest"
    doc = document.parse(body, "x/SKILL.md")
    got = code_blocks(doc)
    assert [body[s:e] for s, e in got] == ["```sh\nrun\n```", "  ~~~~\nindented\n  ~~~~ ", "```unclosed\nrest"]
    assert got == _blocks_anchored(body, 0)


def test_a_lone_cr_ends_a_fence_line() -> None:
    # pulldown-cmark does not end a fence's opening line at a lone CR; the scan and the parse do.
    body = "x\r```\ry\r```\rz"
    doc = document.parse(body, "x/SKILL.md")
    assert code_blocks(doc) == doc.code_blocks == [(2, 11)]
