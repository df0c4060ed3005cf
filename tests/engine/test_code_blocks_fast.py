"""``markdown.code_blocks_fast`` answers with exactly the code blocks of the full parse, or not at
all: on texts built from fences, containers (lists, block quotes), indentation, raw HTML, text
the HTML escapes and every kind of line break; and on hand cases it must answer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skill_lsp.engine import document, markdown

# Lines a body is built from: fences of both kinds and lengths (with info strings, trailing
# spaces, a backtick in the info), code and prose, list items and their indentation, block
# quotes, raw HTML, an indented code line, characters the HTML escapes, mention candidates.
LINES = ["```", "```sh", "``` ", "````", "~~~", "~~~~", "~~~ x", "```a`b", "   ```", "    ```", "  ```",
         "- item", "1. item", "   more", "  code", "     deep", "> ```", "> quoted", "    indented",
         "<div>", "</div>", "<pre>", "<code>x</code>", "a & b <c> \"d\" 'e'", "$skill-name", "/deploy now",
         "", "", "text", "\tx", "é → ✅"]
BREAKS = ["\n", "\n", "\n", "\r\n", "\r"]


def _case(body: str, base: int = 7) -> tuple[list[tuple[int, int]] | None, list[tuple[int, int]]]:
    return markdown.code_blocks_fast(body, base), markdown.parse(body, base).code_blocks


@pytest.mark.skipif(markdown.pyromark() is None, reason="pyromark not installed: the full parse always decides")
@settings(max_examples=4000, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LINES), st.sampled_from(BREAKS)), max_size=24), st.booleans())
def test_answers_only_with_the_parse_blocks(lines: list[tuple[str, str]], end_break: bool) -> None:
    body = "".join(line + brk for line, brk in lines)
    if not end_break:
        body = body.rstrip("\r\n")
    fast, parsed = _case(body)
    assert fast is None or fast == parsed


CASES = [
    "```bash\necho \"a\" <b> & 'c' $x /deploy\n```\n",
    "- item\n\n  ```py\n  x = 1\n    y\n  ```\n",
    "1. step\n\n   ```\n     two spaces kept\n   ```\n",
    "~~~\n~~~\n",
    "```\nunclosed\n",
    "```\n\n\n```\n",
    "para\n```\nx\n```",
    "```\nx\n```  \nafter\n",
    "a\n```\n1\n```\nb\n~~~~\n2\n~~~\n~~~~\nc",
    "no code at all, `inline` only, /deploy and $skill\n",
]


@pytest.mark.skipif(markdown.pyromark() is None, reason="pyromark not installed: the full parse always decides")
@pytest.mark.parametrize("body", CASES)
def test_answers_common_shapes(body: str) -> None:
    fast, parsed = _case(body)
    assert fast == parsed


@pytest.mark.parametrize("body", [
    "    indented code\n",  # an indented block: the scan cannot place it
    "> ```\n> quoted\n> ```\n",  # a fence in a block quote
    "<div>\n```\nraw\n```\n</div>\n",  # fences inside an HTML block are text
    "<pre>x</pre>\n```\ny\n```\n",  # raw HTML that renders as a code block itself
    "```\n\tx\n```\n",  # a tab
    "```\r\nx\r\n```\r\n",  # line breaks the scan does not split at
    # An indented fence after a list item is the item's, and a line indented less ends the item
    # and the block: the next fence opens another. The scan paired the fences otherwise, and the
    # HTML, three empty blocks either way, could not tell (found by the generated test above).
    "```\n```\n- item\n   ```\n```\n```",
])
def test_leaves_the_rest_to_the_parse(body: str) -> None:
    assert markdown.code_blocks_fast(body, 0) is None


def test_document_code_blocks_are_the_parse_blocks() -> None:
    text = "---\nname: x\ndescription: y\n---\nRun `/deploy`:\n\n```sh\n/deploy $target\n```\n"
    doc = document.parse(text, "x/SKILL.md")
    got = doc.code_blocks
    assert doc._body is None  # answered without the full parse
    assert got == markdown.parse(doc.body_text, doc.body_start).code_blocks
    assert [text[s:e] for s, e in got] == ["```sh\n/deploy $target\n```"]
