"""`skill-lsp preview` reports the `!` commands Claude Code would run (stderr; stdout stays exact)."""

from __future__ import annotations

import json

from helpers import run_cli, write_skill

SKILL = ("---\nname: status\ndescription: Shows branch status. Use when asked for status.\n---\n\n"
         "Branch: !`git branch --show-current`\nSetup: !`sudo apt-get install -y jq`\n")


def test_preview_lists_dynamic_commands_on_stderr_and_in_json(tmp_path):
    p = write_skill(tmp_path / ".claude" / "skills", "status", SKILL)
    text = run_cli("preview", str(p), "--dialect", "claude-code", "--workspace", str(tmp_path), cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "Claude Code runs these `!` commands when the skill loads:" in text.stderr
    assert "  sudo apt-get install -y jq  ! runs sudo" in text.stderr
    assert "runs these" not in text.stdout
    js = run_cli("preview", str(p), "--format", "json", "--workspace", str(tmp_path), cwd=tmp_path)
    data = json.loads(js.stdout)
    assert data["dynamicCommands"] == [{"command": "git branch --show-current", "risks": []},
                                       {"command": "sudo apt-get install -y jq", "risks": ["runs sudo"]}]
