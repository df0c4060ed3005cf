"""One SKILL.md found at two places through a link (a root linked to another root, a skill folder
linked into a root): each finding is reported once, at the place reached without a link, and
`--fix` writes the file once and reports what the disk then holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import run_cli, skill_text, write_skill

BODY = "\n# Foo\n\nSee [x](/etc/passwd).\n"


def _findings(proc) -> list[tuple[str, str, int]]:
    return sorted((f["path"], f["code"], f["line"]) for f in json.loads(proc.stdout)["findings"])


@pytest.fixture
def linked_root(tmp_path: Path) -> Path:
    """`skills/foo` (a repository's own layout) and `.opencode/skills -> ../skills`."""
    ws = tmp_path / "repo"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / "skills", "foo", skill_text(name="foo", description="Does foo.   Use when testing.   ", body=BODY))
    (ws / ".opencode").mkdir()
    (ws / ".opencode" / "skills").symlink_to("../skills", target_is_directory=True)
    return ws


def test_a_linked_root_reports_each_finding_once_at_the_real_file(linked_root: Path):
    proc = run_cli("check", ".", "--format", "json", "--no-cache", cwd=linked_root)
    real = str(linked_root / "skills" / "foo" / "SKILL.md")
    got = _findings(proc)
    assert got == [(real, "ABSOLUTE_LINK", 7), (real, "TRAILING_WHITESPACE", 3)]
    summary = json.loads(proc.stdout)["summary"]
    assert summary["skills"] == 2 and summary["skills_with_findings"] == 1  # both places are listed


def test_text_and_sarif_report_it_once_too(linked_root: Path):
    text = run_cli("check", ".", "--no-cache", cwd=linked_root).stdout
    assert text.count("ABSOLUTE_LINK") == 1 and ".opencode" not in text
    sarif = json.loads(run_cli("check", ".", "--no-cache", "--format", "sarif", cwd=linked_root).stdout)
    assert len(sarif["runs"][0]["results"]) == 2


def test_fix_writes_the_file_once_and_reports_the_disk(linked_root: Path):
    proc = run_cli("check", "--fix", ".", "--format", "json", cwd=linked_root)
    md = linked_root / "skills" / "foo" / "SKILL.md"
    assert "description: Does foo.   Use when testing.\n" in md.read_text()
    assert "skills/foo/SKILL.md: fixed 1 finding (TRAILING_WHITESPACE)" in proc.stderr
    assert ".opencode" not in proc.stderr
    # Nothing fixed is still reported, at either place (the other place was checked before the fix).
    assert _findings(proc) == [(str(md), "ABSOLUTE_LINK", 7)]
    again = run_cli("check", "--fix", ".", cwd=linked_root)
    assert "fixed 0 findings in 0 files" in again.stdout


def test_diff_shows_the_change_once(linked_root: Path):
    proc = run_cli("check", "--fix", "--diff", ".", cwd=linked_root)
    assert proc.stdout.count("+++ ") == 1 and "+++ b/skills/foo/SKILL.md" in proc.stdout


def test_what_only_the_linked_place_finds_stays_reported_there(tmp_path: Path):
    """`.claude/skills/x -> ../../.agents/skills/x`: Claude Code's root and the open standard's
    check the same text with different profiles; a finding only one of them makes is kept."""
    ws = tmp_path / "repo"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / ".agents" / "skills", "tool", skill_text(
        name="tool", description="GitHub CLI (gh) comprehensive reference for repositories, issues and pull requests.",
        body=BODY))
    (ws / ".claude" / "skills").mkdir(parents=True)
    (ws / ".claude" / "skills" / "tool").symlink_to("../../.agents/skills/tool", target_is_directory=True)
    linked = _findings(run_cli("check", ".", "--format", "json", "--no-cache", cwd=ws))
    # The same tree with a copy instead of the link: every finding of each place.
    copy = tmp_path / "copy"
    (copy / ".git").mkdir(parents=True)
    text = (ws / ".agents" / "skills" / "tool" / "SKILL.md").read_text()
    write_skill(copy / ".agents" / "skills", "tool", text)
    write_skill(copy / ".claude" / "skills", "tool", text)
    copied = _findings(run_cli("check", ".", "--format", "json", "--no-cache", cwd=copy))
    agents = {(c, line) for p, c, line in copied if "/.agents/" in p}
    claude = {(c, line) for p, c, line in copied if "/.claude/" in p} - {("SHADOWED", 2), ("DUPLICATE_NAME", 2)}
    assert {(c, line) for p, c, line in linked if "/.agents/" in p} == agents
    assert {(c, line) for p, c, line in linked if "/.claude/" in p} == claude - agents
    assert agents & claude  # something was left out as a repeat
    assert ("DESCRIPTION_NO_TRIGGER", 3) in claude - agents  # a hint of Claude Code's profile only


def test_a_problem_graded_differently_at_two_places_is_reported_once_where_it_is_worst(tmp_path: Path):
    """A misnamed skill in `.agents/skills` linked from `.claude/skills`: NAME_MISMATCH is information
    for the harnesses of `.agents/skills` (they list the frontmatter name) and a warning for Claude
    Code's root; one finding, the warning, with Claude Code's words."""
    ws = tmp_path / "repo"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / ".agents" / "skills", "tool", skill_text(name="tool-x", description="Formats tables. Use it."))
    (ws / ".claude" / "skills").mkdir(parents=True)
    (ws / ".claude" / "skills" / "tool").symlink_to("../../.agents/skills/tool", target_is_directory=True)
    findings = json.loads(run_cli("check", ".", "--format", "json", "--no-cache", cwd=ws).stdout)["findings"]
    got = [(f["path"].split("/repo/")[1], f["severity"]) for f in findings if f["code"] == "NAME_MISMATCH"]
    assert got == [(".claude/skills/tool/SKILL.md", "warning")]
