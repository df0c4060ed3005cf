"""`skill-lsp catalog` as a subprocess: what a harness would list."""

from __future__ import annotations

import json
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
