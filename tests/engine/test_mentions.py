"""Mentions of other skills (engine/mentions.py) and the skill graph's UNKNOWN_SKILL findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import skill_text, write_skill
from skill_lsp.engine import document
from skill_lsp.engine.config import Settings
from skill_lsp.engine.fixes import fixes_for
from skill_lsp.engine.mentions import extract
from skill_lsp.engine.skillgraph import NAMED, Near, link_mentions
from skill_lsp.engine.workspace import SkillIndex, check_file

TEXT = """---
name: a
description: x
allowed-tools: Read Skill(deploy) Skill(review *) Bash(git:*) Skill(name:ship) Skill(*)
---
Run `/deploy` then /plug:ship-it. Not /usr/bin, a/b, /tmp/x, /foo.md or [x](/docs).
Use $ship-it and [$deploy](../deploy/SKILL.md), never $HOME, $ARGUMENTS, $1, $vars.x or ...$spread.
See [other](../other-skill/references/x.md), [me](references/y.md) and [up](../../z/SKILL.md).
```
cd /tmp && echo $foo && /deploy
```
"""


def _reported(doc) -> list[tuple]:
    return [(m.kind, m.name, m.start, m.end, m.strict) for m in extract(doc, reported=True)]


def _named_strict(doc) -> list[tuple]:
    return [(m.kind, m.name, m.start, m.end, m.strict) for m in extract(doc) if m.kind in NAMED and m.strict]


def test_reported_mentions_are_the_named_strict_ones() -> None:
    doc = document.parse(TEXT, "/ws/skills/a/SKILL.md")
    assert [(kind, name) for kind, name, *_ in _reported(doc)] == [
        ("tool", "deploy"), ("tool", "review"), ("tool", "ship"), ("slash", "deploy"), ("dollar", "ship-it"),
        ("dollar", "deploy")]
    assert _reported(doc) == _named_strict(doc)


@pytest.mark.parametrize("root", ["sample-workspace", "corpus"])
def test_reported_mentions_of_real_skills_are_the_named_strict_ones(root: str) -> None:
    """`check` keeps only what UNKNOWN_SKILL can report (``extract(reported=True)``): the same
    mentions, with the same spans, as the whole extraction's named strict ones."""
    from helpers import corpus  # noqa: PLC0415

    top = Path(__file__).resolve().parents[2] / "sample-workspace" if root == "sample-workspace" else corpus()
    docs = with_strict = 0
    for md in sorted(top.rglob("SKILL.md")):
        if not md.is_file():
            continue  # the sample's unreadable skill is a folder named SKILL.md
        doc = document.parse(md.read_text(encoding="utf-8", errors="replace"), str(md))
        want = _named_strict(doc)
        assert _reported(doc) == want, md
        docs += 1
        with_strict += bool(want)
    assert docs and with_strict


def candidates(name: str, names) -> list[str]:
    return Near(names)(name)


def test_every_form_with_exact_spans() -> None:
    doc = document.parse(TEXT, "/ws/skills/a/SKILL.md")
    got = [(m.kind, m.name, TEXT[m.start:m.end], m.strict) for m in extract(doc)]
    assert got == [
        ("tool", "deploy", "deploy", True), ("tool", "review", "review", True), ("tool", "ship", "ship", True),
        ("slash", "deploy", "deploy", True), ("slash", "ship-it", "ship-it", False),
        ("dollar", "ship-it", "ship-it", True), ("dollar", "deploy", "deploy", True),
        ("link", "deploy", "deploy", True), ("link", "other-skill", "other-skill", True),
    ]
    link = [m for m in extract(doc) if m.kind == "link"][1]
    assert link.folder == "/ws/skills/other-skill"


def test_candidates_need_a_small_edit_distance() -> None:
    names = ["deploy", "review-code", "go"]
    assert candidates("deplyo", names) == ["deploy"]  # a transposition is one edit
    assert candidates("review-cdoe", names) == ["review-code"]
    assert candidates("gp", names) == []  # too short to guess
    assert candidates("unrelated", names) == []


def _ws(tmp_path: Path) -> list:
    root = tmp_path / ".agents/skills"
    write_skill(root, "deploy", skill_text("deploy"))
    write_skill(root, "user", skill_text("user", body="\nRun `/deplyo` and `/help`, then $deploy.\n"))
    return [check_file(str(p), Settings()) for p in sorted(root.glob("*/SKILL.md"))]


def test_unknown_mention_has_candidates_and_one_fix_each(tmp_path: Path) -> None:
    results = _ws(tmp_path)
    link_mentions(results, Settings())
    user = next(r for r in results if r.name == "user")
    assert [(f.code, f.data["candidates"]) for f in user.graph] == [("UNKNOWN_SKILL", ["deploy"])]
    f = user.graph[0]
    assert user.doc.text[f.start:f.end] == "deplyo"
    fixes = fixes_for(user.doc, f)
    assert [(x.title, x.edits[0].text) for x in fixes] == [("Change to 'deploy'", "deploy")]


def test_index_updates_unknown_mentions_when_names_come_and_go(tmp_path: Path) -> None:
    results = _ws(tmp_path)
    index = SkillIndex(Settings())
    index.rebuild([r.slim() for r in results])
    user = next(p for p in index.results if "/user/" in p)
    deploy = next(p for p in index.results if "/deploy/" in p)
    assert [f.code for f in index.results[user].graph] == ["UNKNOWN_SKILL"]
    # The only near name disappears: nothing to suggest, so no finding.
    assert index.remove(deploy) == {user}
    assert index.results[user].graph == []
    # A skill named exactly 'deplyo' appears: `/deplyo` resolves, and `$deploy` now looks like its typo.
    new = write_skill(tmp_path / ".agents/skills", "deplyo", skill_text("deplyo"))
    touched = index.put(check_file(str(new), Settings()).slim())
    assert user in touched
    assert [(f.data["name"], f.data["candidates"]) for f in index.results[user].graph] == [("deploy", ["deplyo"])]
    assert [(m.name, m.kind) for p, m in index.graph.mentions_of(index.results, "deploy")] == [("deploy", "dollar")]
    assert index.graph.definitions("deplyo") == [str(new)]


def test_candidates_beyond_the_limit_are_chosen_by_name_not_by_order():
    # 27 names one edit from 'abcdx': the three shown are the first by name, in any order given.
    names = [f"abcd{c}x" for c in "abcdefghijklmnopqrstuvwxyz-"]
    assert candidates("abcdx", names) == ["abcd-x", "abcdax", "abcdbx"]
    assert candidates("abcdx", list(reversed(names))) == ["abcd-x", "abcdax", "abcdbx"]
    # Nearer ones still come first, and names of other lengths are considered.
    assert candidates("abcdax", names + ["abcdax"])[0] == "abcdax"
    assert candidates("deploy-x", ["deploy", "deploy-xyz", "unrelated"]) == ["deploy", "deploy-xyz"]


@pytest.mark.parametrize(("target", "span"), [
    ("../deploy", "deploy"),
    ("../deploy/SKILL.md", "deploy"),
    ("../deploy#usage", "deploy"),
    ("../deploy?x=1", "deploy"),
    ("./../deploy/SKILL.md", "deploy"),  # normalised to ../deploy: the step as written is found
    ("../deploy-tools/../deploy/SKILL.md", "deploy"),  # the second `deploy`: the first is no whole step
    ("../notes/SKILL.md", "notes"),
    ("references/deploy.md", None),  # inside the skill folder
])
def test_a_link_mention_spans_the_sibling_folder_step_as_written(target: str, span: str | None) -> None:
    text = f"---\nname: a\ndescription: d\n---\nSee [x]({target}).\n"
    links = [m for m in extract(document.parse(text, "/ws/skills/a/SKILL.md")) if m.kind == "link"]
    if span is None:
        assert links == []
        return
    (m,) = links
    assert (m.name, text[m.start:m.end]) == (span, span)
    assert text[m.start - 1] == "/" and text[m.end] in "/#?)"  # a whole step, not part of a longer one
