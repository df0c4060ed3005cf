"""`preview NAME` of a skill it cannot load says why, on stderr and in JSON, not only "No skill matches"."""

from __future__ import annotations

import json

from helpers import REPO, run_cli

WS = REPO / "sample-workspace"


def test_a_display_title_as_name_says_it_is_not_a_valid_name():
    proc = run_cli("preview", "Academic Citation Mapper", cwd=WS)
    assert proc.returncode == 1
    assert proc.stdout.startswith("Error [INVALID_PARAM]")  # what the tool answers, unchanged
    assert ("skill-lsp: .claude/skills/citation-mapper/SKILL.md has that name, but it cannot be loaded: "
            "its name 'Academic Citation Mapper' is not a valid name (") in proc.stderr
    assert "the skill-tool catalog lists it as 'citation-mapper', and activating that returns INVALID_FRONTMATTER" \
        in proc.stderr


def test_a_name_that_differs_from_its_folder_names_the_folder():
    proc = run_cli("preview", "vercel-name-mismatch", "--format", "json", cwd=WS)
    data = json.loads(proc.stdout)
    assert data["kind"] == "not_found"
    (why,) = data["why"]
    assert why.endswith("name-mismatch/SKILL.md has that name, but it cannot be loaded: frontmatter 'name' "
                        "(\"vercel-name-mismatch\") does not match the skill folder (\"name-mismatch\"); the skill-tool "
                        "catalog lists it as 'name-mismatch', and activating that returns NAME_MISMATCH")


def test_claude_code_activates_a_skill_by_its_declared_name_too():
    """Its Skill tool takes the name the listing shows beside the folder, and one it does not show
    (capture mention-names: `spaced name`), so the preview sends the skill, with no note."""
    proc = run_cli("preview", "--dialect", "claude-code", "Academic Citation Mapper", cwd=WS)
    assert proc.stdout.startswith(f"Base directory for this skill: {WS}/.claude/skills/citation-mapper\n\n")
    assert "lists it as" not in proc.stderr


def test_a_name_no_skill_has_adds_nothing():
    proc = run_cli("preview", "no-such-skill-anywhere", cwd=WS)
    assert proc.returncode == 1 and "No skill matches" in proc.stdout
    assert "has that name" not in proc.stderr and "lists it as" not in proc.stderr
