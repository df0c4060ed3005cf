"""rules/__init__.py and rules/levels.py: what the rules know of the skill folder
(listing, existence, top folders), how they are staged and ordered, and the severity of a
rule-depth code for a set of targets.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers import check, codes, skill_text
from skill_lsp.engine import document, rules
from skill_lsp.engine.config import Settings
from skill_lsp.engine.findings import RULES, Severity
from skill_lsp.engine.harness.data import RULE_LEVELS
from skill_lsp.engine.profiles import Profile
from skill_lsp.engine.rules import levels
from skill_lsp.engine.rules.levels import active, emit, severity
from skill_lsp.engine.targets import PROFILES, view


def tree(root: Path, files: dict[str, str]) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content)
    return root


# --------------------------------------------------------------------- list_skill_files

def test_the_listing_names_files_and_folders_relative_to_the_skill(tmp_path):
    tree(tmp_path, {"SKILL.md": "", "scripts/run.sh": "", "references/api/auth.md": "", "assets/.keep": ""})
    assert rules.list_skill_files(str(tmp_path)) == {
        "SKILL.md", "scripts/", "scripts/run.sh", "references/", "references/api/", "references/api/auth.md",
        "assets/", "assets/.keep"}


def test_listing_depth_and_size_are_bounded(tmp_path):
    tree(tmp_path, {"a/b/c/d.md": "", "top.md": ""})
    assert rules.list_skill_files(str(tmp_path), max_depth=1) == {"a/", "a/b/", "top.md"}
    assert rules.list_skill_files(str(tmp_path), max_depth=0) == {"a/", "top.md"}
    assert rules.list_skill_files(str(tmp_path), max_depth=2) == {"a/", "a/b/", "a/b/c/", "top.md"}
    many = tree(tmp_path / "many", {f"f{i}.md": "" for i in range(10)} | {f"d{i}/x.md": "" for i in range(3)})
    for limit in (1, 4, 10, 12):
        assert len(rules.list_skill_files(str(many), limit=limit)) == limit
    assert len(rules.list_skill_files(str(many), limit=100)) == 16


def test_listing_does_not_follow_a_symlinked_folder(tmp_path):
    outside = tree(tmp_path / "outside", {"secret.md": ""})
    skill = tree(tmp_path / "skill", {"SKILL.md": ""})
    os.symlink(outside, skill / "linked")
    assert rules.list_skill_files(str(skill)) == {"SKILL.md", "linked"}


def test_listing_a_folder_that_is_gone_is_empty(tmp_path):
    assert rules.list_skill_files(str(tmp_path / "missing")) == frozenset()


# --------------------------------------------------------------------- Context

def test_files_are_listed_once_or_taken_from_the_given_listing(tmp_path):
    tree(tmp_path, {"SKILL.md": ""})
    ctx = rules.Context(skill_dir=str(tmp_path))
    assert ctx.files() == {"SKILL.md"}
    (tmp_path / "later.md").write_text("")
    assert ctx.files() == {"SKILL.md"}  # listed once per context
    assert rules.Context(skill_dir=str(tmp_path), _files=frozenset({"x.md"})).files() == {"x.md"}
    assert rules.Context().files() is None


def test_exists_from_a_listing_from_the_disk_or_unknown(tmp_path):
    listed = rules.Context(_files=frozenset({"SKILL.md", "scripts/", "scripts/run.sh"}))
    assert [listed.exists(p) for p in ("scripts/run.sh", "scripts", "run.sh")] == [True, True, False]
    assert rules.Context().exists("SKILL.md") is None
    tree(tmp_path, {"scripts/run.sh": ""})
    disk = rules.Context(skill_dir=str(tmp_path))
    assert [disk.exists(p) for p in ("scripts/run.sh", "scripts", "run.sh")] == [True, True, False]
    (tmp_path / "run.sh").write_text("")
    (tmp_path / "scripts" / "run.sh").unlink()
    assert [disk.exists(p) for p in ("scripts/run.sh", "run.sh")] == [True, False]  # one stat per path


def test_exists_outside_the_skill_folder(tmp_path):
    tree(tmp_path, {"shared/style.md": "", "skill/SKILL.md": ""})
    ctx = rules.Context(skill_dir=str(tmp_path / "skill"))
    assert ctx.exists_outside("../shared/style.md") is True
    assert ctx.exists_outside("../shared/missing.md") is False
    (tmp_path / "shared" / "style.md").unlink()
    assert ctx.exists_outside("../shared/style.md") is True  # asked once
    assert rules.Context().exists_outside("../shared/style.md") is None
    assert rules.Context(skill_dir=str(tmp_path / "skill"), _files=frozenset()).exists_outside("../x") is None


def test_top_folders_read_the_folder_once_and_answer_exists(tmp_path):
    tree(tmp_path, {"scripts/run.sh": "", "agents/openai.yaml": "", "assets": "a file, not a folder"})
    ctx = rules.Context(skill_dir=str(tmp_path))
    names = ("scripts", "assets", "references")
    assert ctx.top_folders(names) == {"scripts"}
    (tmp_path / "references").mkdir()
    assert ctx.top_folders(names) == {"scripts"}  # the same question: the first answer
    assert [ctx.exists(n) for n in names] == [True, False, False]  # recorded, not asked again
    assert ctx.top_folders(("agents", "references")) == {"agents", "references"}  # a new question reads again
    assert rules.Context().top_folders(names) == frozenset()
    gone = rules.Context(skill_dir=str(tmp_path / "missing"))
    assert gone.top_folders(names) == frozenset() and gone.exists("scripts") is False


def test_a_stamps_listing_answers_for_what_it_lists_and_the_disk_for_the_rest(tmp_path):
    # What the result cache's stamp saw (resultcache.folder_stamp): relative path -> lstat mode.
    # The disk here holds other things, so each answer shows where it came from.
    tree(tmp_path, {"SKILL.md": "", "LICENSE": "", "references/on-disk.md": ""})
    reg, folder = 0o100644, 0o040755
    listed = {"SKILL.md": reg, "scripts": folder, "scripts/run.sh": reg, "scripts/.hidden": reg,
              "scripts/cache.pyc": reg, "scripts/lib": folder, "scripts/lib/deep.py": reg, "assets": reg}
    ctx = rules.Context(skill_dir=str(tmp_path), listed=listed)
    assert ctx.exists("scripts/run.sh") and ctx.exists("scripts")  # listed: not on the disk
    assert ctx.exists("references/on-disk.md")  # not listed: asked of the disk (a case-folding one may hold it)
    assert not ctx.exists("references/missing.md")
    assert ctx.top_folders(("scripts", "assets", "references")) == {"scripts"}  # `assets` is listed as a file
    assert [ctx.is_file(p) for p in ("scripts/run.sh", "scripts", "LICENSE", "NOTICE")] == [True, False, True, False]
    assert [ctx.is_dir(p) for p in ("scripts/lib", "scripts/run.sh", "references", "nowhere")] == [True, False, True, False]
    assert ctx.folder_files("scripts") == ["scripts/run.sh"]  # directly in it, not hidden, not compiled
    assert ctx.folder_files("references") == []  # the listing is the folder's whole contents


def test_a_listed_folder_of_more_files_than_asked_for_is_read_from_the_disk(tmp_path):
    tree(tmp_path, {f"assets/{i:02}.png": "" for i in range(6)})
    listed = {"assets": 0o040755, **{f"assets/{i:02}.png": 0o100644 for i in range(6)}}
    ctx = rules.Context(skill_dir=str(tmp_path), listed=listed)
    assert ctx.folder_files("assets", limit=6) == [f"assets/{i:02}.png" for i in range(6)]
    (tmp_path / "assets" / "00.png").unlink()  # which `limit` files come first is the disk's order
    assert ctx.folder_files("assets", limit=5) == [f"assets/{i:02}.png" for i in range(1, 6)]
    assert rules.Context(skill_dir=str(tmp_path)).folder_files("assets") == [f"assets/{i:02}.png" for i in range(1, 6)]
    assert rules.Context(skill_dir=str(tmp_path)).folder_files("missing") == []


# --------------------------------------------------------------------- staging and order

def test_field_rules_need_parsed_frontmatter_and_body_rules_a_known_body():
    body = "\nSee [the guide](guide.md).   \n"
    _, fs = check(skill_text(extra="licence: MIT", body=body))
    assert {"UNKNOWN_FIELD", "TRAILING_WHITESPACE"} <= set(codes(fs))
    _, broken = check("---\nname: demo\ndescription: [\nlicence: MIT\n---\nSee it.   \n")
    assert "INVALID_FRONTMATTER" in codes(broken) and "UNKNOWN_FIELD" not in codes(broken)
    assert "TRAILING_WHITESPACE" in codes(broken)  # the body is still known
    _, unclosed = check("---\nname: demo\ndescription: d\n\nSee it.   \n")
    assert "TRAILING_WHITESPACE" not in codes(unclosed)
    _, bare = check("# Demo\n\nSee it.   \n")
    assert "TRAILING_WHITESPACE" in codes(bare) and "MISSING_FRONTMATTER" in codes(bare)


def test_depth_rules_are_staged_the_same_way():
    text = "---\nname: demo\ndescription: [\nmodel: opuss\n---\n\n```\nawk '{print $1}'\n```\nSee $ARGUMENTS.\n"
    _, fs = check(text, profile="claude-code")
    assert "UNKNOWN_MODEL" not in codes(fs) and "PLACEHOLDER_IN_CODE" in codes(fs)
    _, ok = check(skill_text(extra="model: opuss", body="\n```\nawk '{print $1}'\n```\nSee $ARGUMENTS.\n"),
                  profile="claude-code")
    assert {"UNKNOWN_MODEL", "PLACEHOLDER_IN_CODE", "ARGUMENTS_WITHOUT_HINT"} <= set(codes(ok))
    _, unclosed = check("---\nname: demo\ndescription: d\n\n```\nawk '{print $1}'\n```\nSee $ARGUMENTS.\n",
                        profile="claude-code")
    assert "PLACEHOLDER_IN_CODE" not in codes(unclosed)


def test_findings_come_in_document_order_then_by_code():
    text = skill_text(extra="agent: Explore\nagnet: x", body="\nSee $ARGUMENTS.   \n")
    doc, fs = check(text, profile="claude-code")
    keys = [(f.start, f.end, f.code) for f in fs]
    assert keys == sorted(keys) and len(fs) >= 4
    # Two findings on one span are ordered by code.
    doc = document.parse(skill_text(name="Demo_Skill"), "/v/demo/SKILL.md")
    same = [f.code for f in rules.check(doc, rules.Context()) if (f.start, f.end) == (doc.entries["name"].value.start,
                                                                                      doc.entries["name"].value.end)]
    assert same == sorted(same) and len(same) >= 2


def test_the_targets_severity_is_applied_to_every_finding():
    text = skill_text(extra="licence: MIT\ncustom: x")
    _, skill_tool = check(text)
    _, agentskills = check(text, profile="agentskills")
    assert [(f.code, f.severity) for f in skill_tool] == [("UNKNOWN_FIELD", Severity.WARNING)]
    assert [(f.code, f.severity) for f in agentskills] == [("UNKNOWN_FIELD", Severity.ERROR)] * 2


# --------------------------------------------------------------------- severity by harness

def test_severity_is_the_worst_among_the_targets():
    assert severity("UNKNOWN_TOOL", ("skill-tool", "claude-code")) is Severity.WARNING
    assert severity("UNKNOWN_TOOL", "skill-tool") is Severity.HINT
    assert severity("UNKNOWN_TOOL", ("dsh",)) is None
    assert severity("UNKNOWN_TOOL", ("dsh", "codex")) is Severity.HINT
    assert severity("DESCRIPTION_ANGLE_BRACKETS", ("agentskills", "codex")) is Severity.WARNING
    assert severity("DESCRIPTION_ANGLE_BRACKETS", ("codex", "claude-code")) is Severity.INFO
    assert severity("DESCRIPTION_ANGLE_BRACKETS", ("agentskills", "claude-code")) is Severity.WARNING
    assert severity("DESCRIPTION_ANGLE_BRACKETS", ("skill-tool",)) is None
    assert severity("ARGUMENTS_WITHOUT_HINT", ("claude-code", "agentskills")) is Severity.INFO
    # A code the table does not list keeps its default everywhere; an unknown harness too.
    assert severity("NAME_MISMATCH", ("dsh", "codex")) is RULES["NAME_MISMATCH"].severity
    assert severity("UNKNOWN_MODEL", ("no-such-harness",)) is RULES["UNKNOWN_MODEL"].severity


def test_a_row_names_each_harness_once_with_underscores_as_hyphens():
    row = RULE_LEVELS["DESCRIPTION_ANGLE_BRACKETS"]
    assert row["codex"] == "info" and row["opencode"] == "off" and row["agentskills"] == "warning"
    assert RULE_LEVELS["RISKY_DYNAMIC_COMMAND"]["skill-tool"] == "warning"  # skill_tool= in the literal
    assert RULE_LEVELS["UNKNOWN_MODEL"]["claude-code"] == "warning"
    assert RULE_LEVELS["UNKNOWN_MODEL"]["goose"] == "off"


def test_severity_answers_are_remembered_per_code_and_targets():
    first = severity("HIDDEN_COMMENT", ("codex", "gemini"))
    assert ("HIDDEN_COMMENT", ("codex", "gemini")) in levels._CACHE
    assert severity("HIDDEN_COMMENT", ("codex", "gemini")) is first is Severity.WARNING


def ctx_for(*targets: str) -> rules.Context:
    return rules.Context(profile=view(targets))


def test_active_and_emit_follow_the_targets():
    assert active(ctx_for("claude-code"), "UNKNOWN_MODEL")
    assert not active(ctx_for("skill-tool"), "UNKNOWN_MODEL", "UNSCOPED_BASH")
    assert active(ctx_for("skill-tool"), "UNKNOWN_MODEL", "UNKNOWN_TOOL")
    [f] = emit(ctx_for("skill-tool", "claude-code"), "UNKNOWN_MODEL", "model 'x'", 3, 9, {"field": "model"})
    assert (f.code, f.severity, f.message, f.start, f.end, f.data) == (
        "UNKNOWN_MODEL", Severity.WARNING, "model 'x'", 3, 9, {"field": "model"})
    assert list(emit(ctx_for("skill-tool"), "UNKNOWN_MODEL", "model 'x'", 3, 9)) == []


def test_a_profile_without_targets_is_looked_up_by_name():
    bare = Profile("claude-code", "Claude Code", PROFILES["claude-code"].known)
    assert active(rules.Context(profile=bare), "UNKNOWN_MODEL")
    assert not active(rules.Context(profile=Profile("dsh", "DSH", ())), "UNKNOWN_TOOL")


@pytest.mark.parametrize("targets,expected", [(("claude-code",), Severity.WARNING), (("codex",), None),
                                              (("codex", "claude-code"), Severity.WARNING)])
def test_a_rule_depth_finding_under_configured_targets(targets, expected):
    _, fs = check(skill_text(extra="model: opuss"), settings=Settings(targets=targets))
    got = [f.severity for f in fs if f.code == "UNKNOWN_MODEL"]
    assert got == ([] if expected is None else [expected])
