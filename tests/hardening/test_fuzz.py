"""Property tests (hypothesis): any text gives findings without exceptions, every range lies
inside the document and converts in UTF-8/16/32, fix-all is idempotent and adds no finding.

CI runs a few hundred examples (SKILL_LSP_FUZZ_EXAMPLES, default 300); benchmarks/fuzz_long.py
runs >= 100,000 plus corpus mutations.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import corpus

from .fuzzing import (
    any_text,
    check_invariants,
    corpus_texts,
    junction_texts,
    mutate,
    skill_texts,
    texts,
)

EXAMPLES = int(os.environ.get("SKILL_LSP_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("SKILL_LSP_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@FUZZ
@given(any_text)
def test_any_text(text):
    check_invariants(text)


@FUZZ
@given(skill_texts())
def test_skill_shaped_text(text):
    check_invariants(text)


@FUZZ
@given(junction_texts())
def test_markdown_junctions(text):
    check_invariants(text)


@FUZZ
@given(texts, st.randoms(use_true_random=False))
def test_mutated_text(text, rng):
    check_invariants(mutate(text, rng))


REGRESSIONS = [
    "---\r\n---\r\n",
    "---\rname: a\r---",
    "---\nname: de\u200bmo\ndescription: x\n---\n",
    "\ufeff---\nname: demo\ndescription: a: b\n---\n",
    "---\nname: Demo Skill\ndescription: x\n---\n",
    "---\nname: demo\ndescription: x\nallowedTools: Read\n---\n",
    "",
    "---",
    "---\nallowedTools: \nname: demo\n---",  # rename reveals the null value (INVALID_TYPE)
    "---\nmetadata:\r\n    metadata: \r\n---\r",
    "---\n? name: \n? name:\t\n---\n",  # complex keys equal once trailing blanks go: a duplicate already  # METADATA_NOT_STRING had start > end on an empty value
    "\r",
    # Found on held-out texts (fuzz_long.py --corpus the test half, seed 61206): trailing blanks
    # removed make the frontmatter parse, and a body rule reading a field reports.
    "---\n5k\u00f2: Ds \t\n  allowed-tools:  \n---\n\u00e9\n\n$ARGUMENTS\n",
    # ... and a value quoted (it held ': ') lets the field rules see it.
    "---\nname: a\nname: a\ndescription: Brand colours (ok) > defaults; x: y\n---\n",
    "---\nname: z\ndescription: Arrays.\nallowed-tools: Read Bashatibility: Requires Python 3.12+ and workflows\n---\n",
    "-\ufeff--\nname: q\ndescription: x\n",
    # Deleting a zero-width space before a value's quote made a plain string a quoted one (held-out
    # tune half, seed 71206): the fix is unsafe there.
    # A quoted name lets the description be read, and the invisible character in it (seed 91206).
    "---\nname: e-: h\ndescription: 'Create an example.\n\n  Use when starting.\n\ufeff\n\n  '\n---\n",
    # A trailing blank removed from "- " no longer sent the body to the parse, whose code blocks
    # the rules then took; indented code was prose to them without it (seed 81206).
    "---\nname: s\ndescription: d\n---\n- \n\nText.\n\n```swift\nlet a = 1\n```\n\n    x.map { ($0.id, $0) }\n",
    # An invisible character inside a template's placeholder hid it (seed 81206).
    "---\nname: t\ndescription: Repl\ufefface with description of the skill and when Claude should use it.\n---\n",
    # A BOM inside a fence line kept it from being a fence; deleting it changed which text was code
    # (held-out test half on disk, seed 131206): the fix is unsafe there.
    "---\nname: s\ndescription: d\n---\n`\ufeff``bash\nx\n```\n\nRun with $0 and [x](../../../x.md).\n\n```\ncode\n```\n",
    # Generated junctions: the deletion joined `!` and a code span into a command, and brought
    # trailing blanks inside a comment to light.
    "---\nname: s\ndescription: d\n---\n!\u2060`>~    `*`\n:\n\nRun with $0.\n",
    "---\nname: s\ndescription: d\n---\n-\ufeff\n    \u200d<!--!*]x\t \ufeff\n-`))bash\nx\n```\n",
    # The rendered body must stay: three spaces before `#<VT>`, no heading to CommonMark but one to
    # pulldown-cmark, are a line break (seed 181206); a fence line ended by a lone CR (seed 171206).
    "---\nname: demo-skill\ndescription: Demo. Use when asked.\n---\nx   \n#\x0b  y\n",
    "---\nname: demo-skill\ndescription: Demo. Use when asked.\n---\n```\r` ",
    # A line tab trimmed from the closing `---` ends the frontmatter there, not at a later rule
    # in the body: the page is another one on purpose (seed 191206).
    "---\nname: demo-skill\ndescription: d\n---\x0b\n# T\n\ntext\n\n---\n\nmore\n",
    '---\nname: r\ndescription: \u200b"Ramp \\u2014 cards.\\\n  \\ API. T"ramp\\"\\\n  , x.\\n"\nversion: 2.0.0\n---\n',
]


@pytest.mark.parametrize("text", REGRESSIONS)
def test_regressions(text):
    check_invariants(text)


def test_corpus_mutations():
    rng = random.Random(7)
    seeds = list(corpus_texts(str(corpus()), limit=200))
    for i in range(max(EXAMPLES, 200)):
        check_invariants(mutate(seeds[i % len(seeds)], rng))
