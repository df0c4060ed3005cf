"""Examples of what not to do (engine/protected.py) are looked for only on lines holding a mark:
the string search that finds those lines must miss none a pattern takes, whatever the case,
the line breaks or the letters ``re.I`` folds (ı, İ, ſ)."""

from __future__ import annotations

import random

import pytest

from skill_lsp.engine import document, protected

PIECES = ["Avoid", "AVOİD", "avoıd", "inſtead of", "ınstead of", "İnstead of", "don’t", "Don't", "dont", "do not",
          "Never", "whenever", "BAD", "badge", "wrong", "Anti-patterns", "antipattern", "not recommended",
          "deprecated", "rather than", "✗", "❌", "👍", "✅", "__Avoid__:", "**Bad:**", "| Avoid | Prefer |",
          "|---|---|", "| x | y |", "# Heading", "## Don't do this", "- item", "1. step", "> quote", "```", "    code",
          "`x`", "<!-- c -->", "Good:", "Prefer:", "Wrong (fails):", ":", "text", "_", "K"]
BREAKS = ["\n", "\r\n", "\r", "\n\n", " "]


def _texts(seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(PIECES) + rng.choice(BREAKS) for _ in range(rng.randint(1, 25)))


@pytest.mark.parametrize("seed", range(4))
def test_every_marked_line_holds_a_mark_start(seed: int):
    for body in _texts(seed, 1500):
        doc = document.parse("---\nname: x\ndescription: y\n---\n" + body, "/s/x/SKILL.md")
        src, base = doc.src, doc.body_start
        first = src.line_of(base)
        found = {src.line_of(base + at) for at in protected._mark_starts(doc.body_text)}
        for i in range(first, src.line_count):
            line = src.line_text(i)
            if protected._marks(line) or protected._AVOID.search(line):
                assert i in found, (body, line)


@pytest.mark.parametrize(("line", "marked"), [
    ("ınstead of the loop, call it", True),  # dotless i: re.I reads it as an i
    ("Use the flag inſtead of the file", True),  # long s
    ("İnstead of copying, link", True),  # lowers to two characters
    ("whenever the badge shows", False),
])
def test_folded_letters_mark_an_example_as_the_patterns_do(line: str, marked: bool):
    doc = document.parse(f"---\nname: x\ndescription: y\n---\n{line}\n", "/s/x/SKILL.md")
    assert bool(protected._examples(doc)) is marked


def test_a_label_the_word_pattern_does_not_take_marks_nothing():
    # `__Avoid__` is a label to the line pattern, but no word of the body is one (no word
    # boundary after `_`): as before, the body marks nothing.
    doc = document.parse("---\nname: x\ndescription: y\n---\n__Avoid__:\n\n    rm -rf /\n", "/s/x/SKILL.md")
    assert protected._AVOID.search(doc.body_text) is None
    assert protected._examples(doc) == []
