"""Claude Code's argument substitution against what the release did with 83 argument strings, and
its listing's joiners against what it kept of 26 descriptions (joiners.json).

tests/golden/probes/claude-code@<version>/arguments.json holds what the pinned release sent for
one body holding every placeholder form, activated once per argument string
(`python -m capture diff --probe arguments --write` runs it again).
"""

from __future__ import annotations

import json

import pytest

from helpers import REPO
from skill_lsp.engine.render.claude_code import substitute

PROBE = json.loads(next((REPO / "tests/golden/probes").glob("claude-code@*/arguments.json")).read_text(encoding="utf-8"))


@pytest.mark.parametrize("row", [pytest.param(r, id=repr(r["arguments"])) for r in PROBE["rows"]])
def test_substitution_is_the_releases(row):
    assert substitute(PROBE["body"], row["arguments"], "/x") == row["release"]


def test_the_probe_covers_operators_quotes_and_placeholders():
    args = {r["arguments"] for r in PROBE["rows"]}
    assert {"a;b", "a | b", "(a) [b]", 'a "b', "$HOME x", "!x y", "a # b"} <= args
    assert {"a $(x y) b", "a $HOME b", "a ${X}y b", "a $((1 + 2)) b"} <= args
    assert len(PROBE["rows"]) >= 80


JOINERS = json.loads(next((REPO / "tests/golden/probes").glob("claude-code@*/joiners.json")).read_text(encoding="utf-8"))


@pytest.mark.parametrize("folder", sorted(JOINERS["descriptions"]))
def test_joiners_in_a_listed_description_as_the_release_keeps_them(folder):
    """joiners.json (`python -m capture diff --probe joiners --write`): a VS16, ZWJ or tag inside an
    emoji and a ZWJ/ZWNJ inside a conjunct stay; elsewhere they become a space."""
    from skill_lsp.engine.render.claude_code import sanitize

    assert sanitize(JOINERS["descriptions"][folder]) == JOINERS["listed"][folder]
