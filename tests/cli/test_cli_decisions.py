"""Listing decisions over the command line: `catalog` (stderr and JSON), `preview` (the previewed
skill's), and `check` (LISTING_BUDGET when a harness's budget leaves a skill by name only)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.helpers import REPO, run_cli

BUDGET_CASE = REPO / "capture" / "cases" / "listing-budget" / "skills"


def _budget_ws(tmp_path: Path) -> Path:
    shutil.copytree(BUDGET_CASE, tmp_path / ".claude" / "skills")
    return tmp_path


def test_catalog_says_which_skills_are_listed_by_name_only(tmp_path: Path):
    ws = _budget_ws(tmp_path)
    proc = run_cli("catalog", ".", "--dialect", "claude-code", cwd=ws)
    assert proc.returncode == 0, proc.stderr
    assert "\n- b23\n- b24\n- b25: budget probe" in proc.stdout  # the text the release sends
    lines = [ln for ln in proc.stderr.splitlines() if ln.startswith("# name-only by claude-code:")]
    assert [ln.split(": ")[1] for ln in lines] == [".claude/skills/b23/SKILL.md", ".claude/skills/b24/SKILL.md"]
    data = json.loads(run_cli("catalog", ".", "--dialect", "claude-code", "--format", "json", cwd=ws).stdout)
    states = {Path(d["path"]).parent.name: d["state"] for d in data["decisions"]}
    assert states["b23"] == states["b24"] == "name-only" and states["b25"] == "listed" and len(states) == 26
    assert all(d["text"].startswith("Claude Code 2.1.332 lists this skill") for d in data["decisions"])


def test_preview_states_the_decision_for_its_skill(tmp_path: Path):
    ws = _budget_ws(tmp_path)
    proc = run_cli("preview", "b23", "--dialect", "claude-code", cwd=ws)
    assert proc.returncode == 0, proc.stderr
    assert "skill-lsp: Claude Code 2.1.332 lists this skill by name only: its listing budget" in proc.stderr
    data = json.loads(run_cli("preview", "b23", "--dialect", "claude-code", "--format", "json", cwd=ws).stdout)
    assert data["decision"]["state"] == "name-only"
    fine = json.loads(run_cli("preview", "b01", "--dialect", "claude-code", "--format", "json", cwd=ws).stdout)
    assert fine["decision"]["state"] == "listed"


def test_check_reports_the_budget_with_the_harness_named(tmp_path: Path):
    ws = _budget_ws(tmp_path)
    proc = run_cli("check", ".", "--format", "json", cwd=ws)
    every = [f for f in json.loads(proc.stdout)["findings"] if f["code"] == "LISTING_BUDGET"]
    # Copilot CLI reads .claude/skills too, with a smaller budget (tests/engine/test_rules.py).
    assert {f["data"]["harness"] for f in every} == {"claude-code", "copilot"}
    found = [f for f in every if f["data"]["harness"] == "claude-code"]
    assert sorted(Path(f["path"]).parent.name for f in found) == ["b23", "b24"]
    # .claude/skills is a root of Copilot CLI too: its 15,000 characters run out at the 14th skill.
    assert sorted(Path(f["path"]).parent.name for f in every if f["data"]["harness"] == "copilot") == \
        [f"b{i}" for i in range(13, 26) if i != 20]
    assert all(f["severity"] == "warning" and f["message"].startswith("Claude Code 2.1.332 lists this skill by name only")
               for f in found)
    assert found[0]["data"] == {"harness": "claude-code", "state": "name-only"}
    # A few skills never reach the budget: nothing is read again, nothing reported.
    small = tmp_path / "small"
    shutil.copytree(BUDGET_CASE / "b00", small / ".claude" / "skills" / "b00")
    out = json.loads(run_cli("check", ".", "--format", "json", cwd=small).stdout)
    assert not [f for f in out["findings"] if f["code"] == "LISTING_BUDGET"]
