"""`skill-lsp harnesses`, docs/harnesses.md kept in sync, and `check --target` / `--profile`.

docs/harnesses.md is exactly ``skill-lsp harnesses --format markdown``. Regenerate it with

    skill-lsp harnesses --format markdown > docs/harnesses.md
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import REPO, run_cli, skill_text, write_skill
from skill_lsp.commands.harnesses import render_markdown
from skill_lsp.engine.harness import HARNESSES

DOC = REPO / "docs" / "harnesses.md"


def test_docs_harnesses_md_is_the_generator_output():
    assert DOC.read_text(encoding="utf-8") == render_markdown(), (
        "docs/harnesses.md drifted: run `skill-lsp harnesses --format markdown > docs/harnesses.md`")


def test_text_lists_every_harness_with_version_roots_and_fields():
    proc = run_cli("harnesses")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for h in HARNESSES.values():
        assert f"{h.name}  {h.title} — {h.proven}" in out
    assert "claude-code  Claude Code — 2.1.332" in out
    assert "goose  Goose — documented, not verified" in out
    block = out.split("claude-code  Claude Code")[1].split("\n\n")[0]
    assert "  project roots: .claude/skills\n" in block and "  user roots:    ~/.claude/skills\n" in block
    assert "NAME_MISMATCH: changes — lists it under the folder name" in block


def test_json_says_what_each_harness_does_with_each_field():
    proc = run_cli("harnesses", "--format", "json")
    data = {h["name"]: h for h in json.loads(proc.stdout)["harnesses"]}
    assert list(data) == list(HARNESSES)
    codex = data["codex"]
    assert codex["proven"] == "0.171.0"
    assert {"path": ".agents/skills", "scope": "project"}.items() <= codex["roots"][0].items()
    assert codex["fields"]["description"] == "read" and codex["fields"]["allowed-tools"] == "ignored"
    assert data["agentskills"]["fields"]["version"] == "rejected"
    assert data["skill-tool"]["fields"]["when_to_use"] == "deferred (kept, no effect)"
    assert codex["effects"]["TOO_LONG:description"]["severity"] == "warning"
    assert all(e["source"] for h in data.values() for e in h["effects"].values())
    inferred = json.loads(proc.stdout)["inferredTargets"]
    assert inferred[".claude/skills"] == ["claude-code", "opencode", "copilot"]
    assert inferred[".github/skills"] == ["copilot"] and inferred["skills"] == ["skill-tool"]


# --------------------------------------------------------------------------- check --target / --profile


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A name that differs from its folder, in Claude Code's root, with a field only Claude Code reads."""
    write_skill(tmp_path / ".claude/skills", "pdf", skill_text(
        name="pdf-toolkit", description="Extract text and tables from PDF files. Use when a PDF is attached.",
        extra="when_to_use: When a PDF is attached."))
    return tmp_path


def test_default_targets_come_from_the_root(mixed: Path):
    proc = run_cli("check", ".", cwd=mixed)
    # Claude Code lists it under the folder name; OpenCode and Copilot CLI under its own (captures).
    assert proc.returncode == 0
    assert "warning NAME_MISMATCH" in proc.stdout and "GitHub Copilot CLI list it under its frontmatter name" in proc.stdout
    assert "when_to_use" not in proc.stdout  # Claude Code reads it


def test_target_option_changes_severity_and_names_the_harnesses(mixed: Path):
    proc = run_cli("check", ".", "--target", "claude-code,codex", "--fail-on", "error", cwd=mixed)
    assert proc.returncode == 0, proc.stdout
    assert "warning NAME_MISMATCH" in proc.stdout
    assert "Claude Code lists it under the folder name" in proc.stdout
    assert "Codex lists it under its frontmatter name" in proc.stdout


def test_profile_is_an_alias_of_one_target(mixed: Path):
    a = run_cli("check", ".", "--profile", "claude-code", "--format", "json", cwd=mixed)
    b = run_cli("check", ".", "--target", "claude-code", "--format", "json", cwd=mixed)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout and "NAME_MISMATCH" in a.stdout


def test_unknown_target_exits_2_naming_it(mixed: Path):
    proc = run_cli("check", ".", "--target", "claude-code,cursor", cwd=mixed)
    assert proc.returncode == 2
    assert "invalid 'targets': unknown target 'cursor'" in proc.stderr


def test_targets_in_the_config_file(mixed: Path):
    (mixed / ".skill-lsp.toml").write_text('targets = ["codex"]\n')
    proc = run_cli("check", ".", "--fail-on", "warning", cwd=mixed)
    assert proc.returncode == 0, proc.stdout
    assert "info NAME_MISMATCH" in proc.stdout and "Codex lists it under its frontmatter name" in proc.stdout
