"""`skill-lsp catalog` as a subprocess: what a harness would list."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run_cli, write_skill


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
