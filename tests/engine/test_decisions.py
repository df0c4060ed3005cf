"""Listing decisions: what each harness does with each skill (engine/decisions.py), from the same
dialects the catalog preview renders."""

from __future__ import annotations

import shutil
from pathlib import Path

from skill_lsp.engine.config import Settings
from skill_lsp.engine.decisions import CUT, LISTED, NAME_ONLY, NOT_READ, SHADOWED, SKIPPED, decide
from skill_lsp.engine.preview import records_for
from skill_lsp.engine.workspace import check_file

REPO = Path(__file__).resolve().parents[2]
BUDGET_CASE = REPO / "capture" / "cases" / "listing-budget" / "skills"


def _records(root: Path, rels: list[str], roots: int = 1):
    results = []
    for rel in rels:
        for md in sorted((root / rel).glob("*/SKILL.md")):
            results.append(check_file(str(md), Settings()))
    return records_for(results, roots)


def _write(root: Path, rel: str, folder: str, text: str) -> None:
    d = root / rel / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(text, encoding="utf-8")


def test_past_claude_codes_budget_later_skills_are_listed_by_name_only(tmp_path: Path):
    # The capture case listing-budget: the release listed b23 and b24 by name only, b25 (short) in full.
    shutil.copytree(BUDGET_CASE, tmp_path / ".claude" / "skills")
    got = {Path(d.path).parent.name: d for d in decide(_records(tmp_path, [".claude/skills"]), "claude-code")}
    assert sorted(n for n, d in got.items() if d.state == NAME_ONLY) == ["b23", "b24"]
    assert got["b25"].state == LISTED and got["b20"].state == LISTED
    text = got["b23"].sentence()
    assert text.startswith("Claude Code 2.1.332 lists this skill by name only: its listing budget (30,136 characters)")
    assert "the 13 built-in skills and the 23 skills before it" in text
    # Other harnesses have no such budget on these 26 skills.
    assert {d.state for d in decide(_records(tmp_path, [".claude/skills"]), "opencode")} == {LISTED}


def test_each_state_with_its_reason(tmp_path: Path):
    good = "---\nname: {n}\ndescription: Does {n}. Use when testing.\n---\nbody\n"
    _write(tmp_path, ".claude/skills", "alpha", good.format(n="alpha"))
    _write(tmp_path, ".claude/skills", "long", good.format(n="long").replace("Does long.", "x" * 1700))
    _write(tmp_path, ".claude/skills", "broken", good.format(n="broken").replace(
        "---\nbody", "disable-model-invocation: true\n---\nbody"))
    _write(tmp_path, ".agents/skills", "elsewhere", good.format(n="elsewhere"))
    recs = _records(tmp_path, [".claude/skills", ".agents/skills"], 2)
    got = {Path(d.path).parent.name: d for d in decide(recs, "claude-code")}
    assert got["alpha"].state == LISTED and got["alpha"].seen
    assert got["long"].state == CUT and got["long"].kept == 1535 and got["long"].seen
    assert got["broken"].state == SKIPPED and not got["broken"].seen
    assert "disable-model-invocation: true keeps it out of the model's catalog" in got["broken"].sentence()
    assert got["elsewhere"].state == NOT_READ
    assert got["elsewhere"].sentence() == "Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)"
    assert got["alpha"].to_json()["text"] == "Claude Code 2.1.332 lists this skill"


def test_one_name_in_two_roots_is_shadowed_with_its_winner(tmp_path: Path):
    text = "---\nname: same\ndescription: Does it. Use when testing.\n---\nbody\n"
    _write(tmp_path, ".claude/skills", "same", text)
    _write(tmp_path, ".github/skills", "same", text)
    recs = _records(tmp_path, [".github/skills", ".claude/skills"], 2)
    states = sorted((Path(d.path).parts[-3], d.state) for d in decide(recs, "copilot"))
    assert [s for _, s in states].count(SHADOWED) == 1 and [s for _, s in states].count(LISTED) == 1
    (loser,) = [d for d in decide(recs, "copilot") if d.state == SHADOWED]
    assert loser.winner is not None and loser.winner.endswith("same/SKILL.md")
