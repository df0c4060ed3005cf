"""`skill-lsp catalog` as a subprocess: what a harness would list."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from helpers import run_cli, write_skill

REPO = Path(__file__).resolve().parents[2]


def test_claude_code_lists_1536_characters_whole_and_cuts_1537(tmp_path: Path):
    # description (1000) + " - " + when_to_use (the join Claude Code 2.1.332 sends): 1536
    # and 1537 characters.
    root = tmp_path / ".claude/skills"
    for folder, when in (("exact", 533), ("over", 534)):
        write_skill(root, folder, f"---\nname: {folder}\ndescription: {'d' * 1000}\nwhen_to_use: {'w' * when}\n---\n# x\n")
    proc = run_cli("catalog", ".", "--dialect", "claude-code", "--format", "json", cwd=tmp_path)
    entries = {e["name"]: e for e in json.loads(proc.stdout)["entries"]}
    exact, over = entries["exact"], entries["over"]
    assert exact["entry"] == f"- exact: {'d' * 1000} - {'w' * 533}"
    assert exact["warnings"] == []
    assert "w" * 534 not in over["entry"]
    assert len(over["entry"]) <= len("- over: ") + 1536
    assert any("1537" in w for w in over["warnings"]), over["warnings"]


@pytest.mark.parametrize("harness", ["gemini", "copilot"])
def test_the_copy_of_a_name_a_workspace_lists_is_the_releases(tmp_path: Path, harness: str):
    """The capture case same-name-two-roots (one name in .agents, .claude, .gemini and .opencode
    skills), catalogued as a workspace: the project copy the release listed. Gemini CLI reads
    .gemini/skills, then .agents/skills, whose copy wins; the preview took skill-lsp's own root
    order (.agents/skills first) for Gemini's and listed the .gemini/skills copy."""
    case = REPO / "capture" / "cases" / "same-name-two-roots" / "workspace"
    shutil.copytree(case, tmp_path / "ws")
    golden = (REPO / "tests" / "golden" / "harness").glob(f"{harness}@*/same-name-two-roots/catalog.txt")
    released = re.findall(r"Project copy in (\S+?)\.<", next(golden).read_text())
    proc = run_cli("catalog", ".", "--dialect", harness, "--format", "json", cwd=tmp_path / "ws")
    assert re.findall(r"Project copy in (\S+?)\.<", json.loads(proc.stdout)["text"]) == released == [".agents/skills"]


def test_deepseek_harness_keeps_the_copy_of_its_lower_root_rank(tmp_path: Path):
    """DSH ranks .dsh/skills (100) before .agents/skills (200), lower wins (references-survey §3.3;
    read in its source, not run): its catalog, its skill tool and the listing decisions keep the
    .dsh/skills copy, which skill-lsp's own root order puts last."""
    for root in (".agents/skills", ".dsh/skills"):
        write_skill(tmp_path / root, "demo", f"---\nname: demo\ndescription: The copy in {root}. Use when testing.\n---\n"
                                             f"Body of {root}\n")
    catalog = json.loads(run_cli("catalog", ".", "--dialect", "dsh", "--format", "json", cwd=tmp_path).stdout)
    assert re.findall(r"The copy in (\S+?)\.", catalog["text"]) == [".dsh/skills"]
    states = {os.path.relpath(d["path"], tmp_path): d["state"] for d in catalog["decisions"]}
    assert states == {".dsh/skills/demo/SKILL.md": "listed", ".agents/skills/demo/SKILL.md": "shadowed"}
    shown = run_cli("preview", "demo", "--dialect", "dsh", "--workspace", ".", cwd=tmp_path).stdout
    assert "Body of .dsh/skills" in shown and "Body of .agents" not in shown


@pytest.mark.parametrize("dialect", ["skill-tool", "dsh", "agentskills", "claude-code", "codex", "opencode", "gemini",
                                     "copilot"])
def test_the_json_entries_skips_and_decisions_tell_one_story(tmp_path: Path, dialect: str):
    """One name in four project roots (capture case same-name-two-roots): the entries marked
    included are the copies the listing decisions call listed, each name once where the dialect
    keeps one copy, and every copy decided shadowed is among the skipped. The JSON marked both
    copies included for a harness, and the references' decisions called both listed."""
    shutil.copytree(REPO / "capture" / "cases" / "same-name-two-roots" / "workspace", tmp_path / "ws")
    out = json.loads(run_cli("catalog", ".", "--dialect", dialect, "--format", "json", cwd=tmp_path / "ws").stdout)
    included = sorted(e["path"] for e in out["entries"] if e["included"])
    states = {d["path"]: d["state"] for d in out["decisions"]}
    assert included == sorted(p for p, s in states.items() if s == "listed")
    shadowed = {p for p, s in states.items() if s == "shadowed"}
    assert shadowed <= {s["path"] for s in out["skipped"]}
    if dialect not in ("codex", "opencode"):  # Codex lists every copy; OpenCode's choice is not settled
        names = [e["name"] for e in out["entries"] if e["included"]]
        read = [p for p, s in states.items() if s != "not-read"]
        assert len(names) == len(set(names)) and len(shadowed) == len(read) - len(names), (names, states)
