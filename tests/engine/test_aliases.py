"""engine/aliases.py: which places discovery found are one file, and which of them is the one the
author edits."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import skill_text, write_skill
from skill_lsp.engine import aliases, discover
from skill_lsp.engine.config import Settings
from skill_lsp.engine.workspace import check_file


def _results(ws: Path):
    inv = discover.discover(str(ws), Settings())
    return [check_file(loc.path, Settings(), loc) for loc in inv.all]


def _tree(top: Path) -> Path:
    ws = top / "repo"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / "skills", "foo", skill_text(name="foo", body="\n# Foo   \n"))
    write_skill(ws / ".agents" / "skills", "bar", skill_text(name="bar"))
    (ws / ".opencode").mkdir()
    (ws / ".opencode" / "skills").symlink_to("../skills", target_is_directory=True)
    (ws / ".claude" / "skills").mkdir(parents=True)
    (ws / ".claude" / "skills" / "bar").symlink_to("../../.agents/skills/bar", target_is_directory=True)
    return ws


def test_discovery_names_the_file_a_link_leads_to(tmp_path: Path):
    ws = _tree(tmp_path)
    real = {r.path: r.location.real for r in _results(ws)}
    assert real[str(ws / ".opencode/skills/foo/SKILL.md")] == str(ws / "skills/foo/SKILL.md")
    assert real[str(ws / ".claude/skills/bar/SKILL.md")] == str(ws / ".agents/skills/bar/SKILL.md")
    assert real[str(ws / "skills/foo/SKILL.md")] is None
    assert real[str(ws / ".agents/skills/bar/SKILL.md")] is None


def test_the_canonical_place_is_the_one_reached_without_a_link(tmp_path: Path):
    ws = _tree(tmp_path)
    got = sorted([r.path for r in group] for group in aliases.groups(_results(ws)))
    assert got == [[str(ws / ".agents/skills/bar/SKILL.md"), str(ws / ".claude/skills/bar/SKILL.md")],
                   [str(ws / "skills/foo/SKILL.md"), str(ws / ".opencode/skills/foo/SKILL.md")]]


def test_a_workspace_opened_through_a_link_keeps_the_same_canonical_places(tmp_path: Path):
    """Every place resolves elsewhere (`/tmp -> /private/tmp` on macOS): the canonical is still the
    one whose own path leads to the file without another link."""
    ws = _tree(tmp_path)
    via = tmp_path / "via"
    via.symlink_to(ws, target_is_directory=True)
    results = _results(via)
    assert all(r.location.real is not None for r in results)
    got = sorted([r.path for r in group] for group in aliases.groups(results))
    assert got == [[str(via / ".agents/skills/bar/SKILL.md"), str(via / ".claude/skills/bar/SKILL.md")],
                   [str(via / "skills/foo/SKILL.md"), str(via / ".opencode/skills/foo/SKILL.md")]]


def test_no_link_no_groups(tmp_path: Path):
    ws = tmp_path / "repo"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / ".agents" / "skills", "a", skill_text(name="a"))
    write_skill(ws / ".claude" / "skills", "a", skill_text(name="a"))  # a copy is not a link
    assert aliases.groups(_results(ws)) == []
    assert not os.path.islink(ws / ".claude" / "skills" / "a")


def test_each_problem_is_reported_once_by_the_place_that_grades_it_worst(tmp_path: Path):
    from skill_lsp.engine.findings import Severity

    ws = _tree(tmp_path)
    results = _results(ws)
    by = {r.path: r for r in results}
    canonical, alias = by[str(ws / "skills/foo/SKILL.md")], by[str(ws / ".opencode/skills/foo/SKILL.md")]
    assert canonical.findings and [f.code for f in canonical.findings] == [f.code for f in alias.findings]
    first = alias.findings[0]
    worse = first.__class__(**{**{s: getattr(first, s) for s in first.__slots__},
                               "severity": Severity.ERROR, "message": "worse here"})
    other = first.__class__(**{**{s: getattr(first, s) for s in first.__slots__}, "code": "ONLY_HERE"})
    rows = [(canonical, list(canonical.findings)), (alias, [worse, other] + list(alias.findings[1:]))]
    out = dict((r.path, fs) for r, fs in aliases.without_repeats(rows))
    # The same code at the same range: once, where it is an error; what only the alias has stays.
    assert out[alias.path] == [worse, other]
    assert out[canonical.path] == canonical.findings[1:]
    # Equal grades: the canonical place reports it.
    same = aliases.without_repeats([(canonical, list(canonical.findings)), (alias, list(alias.findings))])
    assert [fs for _, fs in same] == [canonical.findings, []]


def test_the_index_keeps_places_as_results_come_and_go(tmp_path: Path):
    from skill_lsp.engine.workspace import SkillIndex

    ws = _tree(tmp_path)
    index = SkillIndex(Settings())
    index.rebuild(_results(ws))
    real, link = str(ws / "skills/foo/SKILL.md"), str(ws / ".opencode/skills/foo/SKILL.md")
    assert index.places.group(index.results, link) == [index.results[real], index.results[link]]
    assert index.places.group(index.results, real) == [index.results[real], index.results[link]]
    # An edit of the canonical place republishes the other one (what it leaves out changed).
    assert link in index.put(check_file(real, Settings(), index.results[real].location))
    assert real in index.put(check_file(link, Settings(), index.results[link].location))
    # Without the canonical place the other one reports everything again.
    assert link in index.remove(real)
    assert index.places.group(index.results, link) is None
    assert index.places.others(index.results, link) == set()
