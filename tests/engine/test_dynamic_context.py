"""`!` dynamic context as Claude Code 2.1.332 runs it (capture: claude-code@2.1.332 case dynamic-context).

The capture test (test_harness_captures.py) proves the recogniser against the release; these
check what the rules, hover and preview make of it on realistic skills, under Claude Code and
under a harness that passes the text unchanged.
"""

from __future__ import annotations

from helpers import check, codes, only, skill_text
from skill_lsp.engine.findings import Severity
from skill_lsp.engine.rules import security

RELEASE_NOTES = skill_text(
    name="release-notes", description="Drafts release notes from the commits since the last tag. Use when the user "
    "asks for release notes.", extra="allowed-tools: Read Bash(git describe:*)",
    body="\n## Context\n\n- Last tag: !`git describe --tags --abbrev=0`\n- Branch: !`git status --short`\n"
         "- Today: !`date +%F`\n\n## Set-up\n\n```!\nsudo apt-get install -y jq\ntouch .release-notes\n```\n\n"
         "Write the notes from the commits above.\n")


def test_a_bang_fence_is_a_command_and_is_judged_like_an_inline_one():
    doc, fs = check(RELEASE_NOTES, folder="release-notes", profile="claude-code")
    listed = [c.command for c in security.dynamic_commands(doc)]
    assert listed == ["git describe --tags --abbrev=0", "git status --short", "date +%F",
                      "sudo apt-get install -y jq\ntouch .release-notes"]
    risky = only(fs, "RISKY_DYNAMIC_COMMAND")
    assert risky.severity is Severity.WARNING and "runs sudo" in risky.message
    assert doc.text[risky.start:risky.end] == "```!\nsudo apt-get install -y jq\ntouch .release-notes\n```"


def test_read_only_commands_pass_without_a_rule_and_writes_do_not():
    # Claude Code ran `git status` and `date` with no allowed-tools rule covering them; the fence
    # (sudo, touch) fails its permission check and the whole skill is refused.
    doc, fs = check(RELEASE_NOTES, folder="release-notes", profile="claude-code")
    denied = [f for f in fs if f.code == "DYNAMIC_COMMAND_NOT_ALLOWED"]
    assert [f.data["command"] for f in denied] == ["sudo apt-get install -y jq\ntouch .release-notes"]
    assert "refuses to load the skill" in denied[0].message
    assert security.read_only("git status --short") and security.read_only("echo hi")
    assert not security.read_only("echo hi > notes.md") and not security.read_only("ls; rm x")
    assert not security.read_only("npm --version")


def test_other_harnesses_pass_the_text_unchanged_so_nothing_is_reported():
    for target in ("codex", "copilot", "agentskills"):
        _, fs = check(RELEASE_NOTES, folder="release-notes", profile=target)
        assert not {"RISKY_DYNAMIC_COMMAND", "DYNAMIC_COMMAND_NOT_ALLOWED"} & set(codes(fs)), target


def test_forms_claude_code_leaves_as_text_are_not_listed():
    body = ("\nGlued a!`rm -rf x` (!`rm -rf y`) ! `rm -rf z` !``rm -rf w``\n\n~~~!\nrm -rf v\n~~~\n"
            "\n```sh\n!`sudo id`\n```\n")
    doc, fs = check(skill_text(name="forms", description="Shows forms. Use when asked.", body=body),
                    folder="forms", profile="claude-code")
    # Only the one inside the code fence runs (Claude Code does not skip fences).
    assert [c.command for c in security.dynamic_commands(doc)] == ["sudo id"]
    assert only(fs, "RISKY_DYNAMIC_COMMAND").data["command"] == "sudo id"


def test_hover_lists_a_fence_on_one_line():
    doc, _ = check(RELEASE_NOTES, folder="release-notes", profile="claude-code")
    fence = security.dynamic_commands(doc)[-1]
    text, start, end = security.dynamic_hover(doc, fence.start + 2) or ("", -1, -1)
    assert (start, end) == (fence.start, fence.end)
    assert "- `sudo apt-get install -y jq ⏎ touch .release-notes` — ⚠ runs sudo ← this one" in text
