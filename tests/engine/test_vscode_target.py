"""The `vscode` target: what VS Code's source says about a SKILL.md (source read, not captured).

Facts from microsoft/vscode@047238f9fe (promptValidator.ts, promptFileAttributes.ts,
promptsServiceImpl.ts); every message that cites them says "documented, not verified".
"""

from __future__ import annotations

from helpers import check, codes, only, skill_text, write_skill
from skill_lsp.engine import targets
from skill_lsp.engine.config import Settings
from skill_lsp.engine.findings import Severity
from skill_lsp.engine.harness import HARNESSES
from skill_lsp.engine.listing import listing
from skill_lsp.engine.workspace import check_file

PR_REVIEW = skill_text(
    name="pr-review", description="Reviews a pull request against the team's checklist. Use when the user asks "
    "for a review of a PR or a branch.",
    extra="allowed-tools: Read Grep Bash(gh pr diff:*)\nargument-hint: \"[pr-number]\"\nmodel: sonnet",
    body="\n# Review\n\nRead the diff with `gh pr diff $ARGUMENTS` and go through checklist.md.\n")


def test_claude_code_fields_vs_code_does_not_support_are_reported_for_vscode_only():
    _, fs = check(PR_REVIEW, folder="pr-review", profile="vscode")
    unknown = {f.data["field"]: f for f in fs if f.code == "UNKNOWN_FIELD"}
    # allowed-tools is an agentskills spec field, yet VS Code's editor fades it as not supported.
    assert set(unknown) == {"allowed-tools", "model"}
    assert all(f.severity is Severity.INFO for f in unknown.values())
    assert "VS Code's editor fades it as not supported" in unknown["allowed-tools"].message
    assert "documented, not verified" in unknown["allowed-tools"].message
    for target in ("claude-code", "copilot"):
        _, other = check(PR_REVIEW, folder="pr-review", profile=target)
        assert "UNKNOWN_FIELD" not in codes(other), target
    # Claude Code reads both: written for the two, neither field is unknown.
    _, both = check(PR_REVIEW, folder="pr-review", settings=Settings(targets=("claude-code", "vscode")))
    assert "UNKNOWN_FIELD" not in codes(both)


def test_a_name_that_differs_from_the_folder_is_listed_under_the_folder(tmp_path):
    p = write_skill(tmp_path / ".github" / "skills", "pr-review", PR_REVIEW.replace("name: pr-review", "name: review"))
    result = check_file(str(p), Settings(targets=("vscode",)))
    f = only(result.findings, "NAME_MISMATCH")
    assert f.severity is Severity.WARNING
    assert "VS Code agent mode lists it under the folder name" in f.message
    assert "(documented, not verified)" in f.message
    assert listing(result, "vscode").name == "pr-review"
    assert listing(result, "copilot").name == "review"  # the CLI lists the frontmatter name (captured)


def test_name_characters_are_an_editor_error_under_vscode_and_information_under_copilot():
    text = PR_REVIEW.replace("name: pr-review", "name: PR_Review")
    assert only(check(text, folder="PR_Review", profile="vscode")[1], "NAME_INVALID").severity is Severity.ERROR
    assert only(check(text, folder="PR_Review", profile="copilot")[1], "NAME_INVALID").severity is Severity.INFO


def test_a_long_description_is_cut_by_vs_code_but_refused_by_the_copilot_cli():
    text = PR_REVIEW.replace("branch.", "branch. " + "Checks naming, tests and docs. " * 40)
    vsc = only(check(text, folder="pr-review", profile="vscode")[1], "TOO_LONG")
    cli = only(check(text, folder="pr-review", profile="copilot")[1], "TOO_LONG")
    assert (vsc.severity, cli.severity) == (Severity.WARNING, Severity.ERROR)
    assert "lists the first 1,024 characters" in vsc.message


def test_a_missing_name_is_a_warning_not_an_error():
    text = PR_REVIEW.replace("name: pr-review\n", "")
    f = only(check(text, folder="pr-review", profile="vscode")[1], "MISSING_FIELD")
    assert f.severity is Severity.WARNING and "Skill should provide a name" in f.message


def test_vscode_is_checked_only_when_asked_for():
    # Its facts are read from source, not captured: a skill in a root VS Code reads is not checked for it.
    assert "vscode" not in targets.infer("/w/.github/skills/pr-review")
    assert "copilot" in targets.infer("/w/.github/skills/pr-review")
    h = HARNESSES["vscode"]
    assert h.proven.startswith("documented, not verified (source read at microsoft/vscode@047238f9fe")
    assert h.facts and all(f.shown == "documented, not verified" and "047238f9fe" in f.source for f in h.facts)
    assert all("(documented, not verified)" in e.note and "microsoft/vscode@" in e.source
               for e in h.effects.values())
