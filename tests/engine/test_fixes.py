"""Every fix in engine/fixes.py gives the expected text; fix-all is idempotent and never adds findings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers import check, codes, skill_text
from skill_lsp.engine import fixes
from skill_lsp.engine.config import Settings
from skill_lsp.engine.findings import RULES, Finding, Severity
from skill_lsp.engine.fixes import apply_edits, fixes_for, yaml_string
from skill_lsp.engine.workspace import fix_all_text


def fixed(text: str, code: str, title_part: str = "", *, folder: str = "demo", profile: str = "skill-tool",
          path: str | None = None) -> tuple[str, fixes.Fix]:
    doc, fs = check(text, folder=folder, profile=profile, path=path)
    finding = next(f for f in fs if f.code == code)
    options = fixes_for(doc, finding)
    fix = next(f for f in options if title_part in f.title)
    return apply_edits(text, list(fix.edits)), fix


def test_every_code_with_a_fix_builder_documents_its_fixes():
    for code in fixes._BUILDERS:
        if code == "EMPTY_FIELD":
            continue
        assert RULES[code].fixes, f"{code} has quick-fixes but RULES lists none"


def test_trim_trailing_whitespace():
    new, fix = fixed(skill_text(body="# T \t\nx\n"), "TRAILING_WHITESPACE")
    assert new == skill_text(body="# T\nx\n")
    assert fix.safe and fix.preferred


def test_name_mismatch_sets_name_to_folder():
    new, fix = fixed(skill_text(name="vercel-demo"), "NAME_MISMATCH", "Set name", folder="demo")
    assert new == skill_text(name="demo")
    assert not fix.safe


def test_name_mismatch_offers_a_folder_rename():
    doc, fs = check(skill_text(name="other"), folder="demo")
    (f,) = fs
    rename = next(x for x in fixes_for(doc, f) if x.rename)
    assert rename.edits == ()
    assert rename.rename == ("/virtual/demo", os.path.join("/virtual", "other"))


def test_name_invalid_suggests_kebab_case_when_the_folder_is_not_a_valid_name():
    new, _ = fixed(skill_text(name="My Skill_v2"), "NAME_INVALID", "Change name", folder="My Folder")
    assert new == skill_text(name="my-skill-v2")


def test_name_invalid_prefers_a_valid_folder_name():
    # kebab-case of the name would be 'eleven-labs-automation': a new mismatch.
    doc, fs = check(skill_text(name="ElevenLabs Automation"), folder="elevenlabs-automation")
    finding = next(f for f in fs if f.code == "NAME_INVALID")
    first = fixes_for(doc, finding)[0]
    assert first.preferred and "elevenlabs-automation" in first.title
    assert "NAME_MISMATCH" not in [f.code for f in fs]  # same letters: only the form is wrong


def test_name_mismatch_is_kept_when_the_name_is_also_invalid():
    doc, fs = check(skill_text(name="Check Agent Trust"), folder="agent-guild-trust")
    assert [f.code for f in fs if f.code.startswith("NAME_")] == ["NAME_INVALID", "NAME_MISMATCH"]
    mismatch = next(f for f in fs if f.code == "NAME_MISMATCH")
    # No folder rename to an invalid name; setting the name to the folder stays.
    assert [x.rename for x in fixes_for(doc, mismatch)] == [None]


def test_name_invalid_offers_the_folder_name_too():
    new, _ = fixed(skill_text(name="My Skill"), "NAME_INVALID", "folder name", folder="pretty-skill")
    assert new == skill_text(name="pretty-skill")


def test_name_spoofable_removes_the_invisible_character():
    new, _ = fixed('---\nname: "de\u200bmo"\ndescription: d\n---\n', "NAME_SPOOFABLE")
    assert new == "---\nname: demo\ndescription: d\n---\n"


def test_name_too_long_is_shortened():
    name = "a-" * 40 + "b"
    new, _ = fixed(skill_text(name=name), "TOO_LONG", "Change name", folder="x")
    value = new.split("\n")[1].removeprefix("name: ")
    assert len(value) <= 64 and not value.endswith("-")


def test_absolute_link_into_the_skill_becomes_relative(tmp_path: Path):
    skill = tmp_path / "demo" / "SKILL.md"
    skill.parent.mkdir()
    (tmp_path / "demo" / "my notes.md").write_text("x")
    target = f"{tmp_path}/demo/my notes.md"
    text = skill_text(body=f"[n](<{target}>) and [m](file://{tmp_path}/demo/my%20notes.md)\n")
    skill.write_text(text)
    new, fix = fixed(text, "ABSOLUTE_LINK", path=str(skill))
    assert fix.safe
    assert "[n](<my notes.md>)" in new
    doc, fs = check(text, path=str(skill), on_disk=True)
    second = [f for f in fs if f.code == "ABSOLUTE_LINK"][1]
    out = apply_edits(text, list(fixes_for(doc, second)[0].edits))
    assert "[m](my%20notes.md)" in out


def test_absolute_link_outside_the_skill_has_no_fix():
    doc, fs = check(skill_text(body="[n](/etc/passwd)\n"))
    assert fixes_for(doc, fs[0]) == []


def test_unquoted_colon_quote_fix():
    text = "---\nname: demo\ndescription: Use when: asked\n---\n"
    new, fix = fixed(text, "INVALID_FRONTMATTER", "Quote")
    assert new == '---\nname: demo\ndescription: "Use when: asked"\n---\n'
    assert fix.safe


def test_unquoted_colon_block_scalar_fix_keeps_crlf():
    text = "---\r\nname: demo\r\ndescription: Use when: asked\r\n---\r\n"
    new, fix = fixed(text, "INVALID_FRONTMATTER", "block scalar")
    assert new == "---\r\nname: demo\r\ndescription: >-\r\n  Use when: asked\r\n---\r\n"
    assert not fix.safe
    _, fs = check(new)
    assert fs == []


# A file whose line breaks a wrong encoding lost (unseen ptreezh/sscisubagent-skills: eight of them):
# the next field runs into the description. Quoted whole, `version` would become its text.
RUN_IN = "---\nname: demo\ndescription: Analyses firms?version: 2.0.0\nlicense: MIT\n---\n# x\n"


def test_a_value_another_field_ran_into_is_not_quoted_by_a_safe_fix():
    new, fix = fixed(RUN_IN, "INVALID_FRONTMATTER", "Quote")
    assert not fix.safe and fix.unsafe_because == "field"
    assert new == RUN_IN.replace("Analyses firms?version: 2.0.0", '"Analyses firms?version: 2.0.0"')
    assert fix_all_text(RUN_IN, "/virtual/demo/SKILL.md", Settings(), on_disk=False) == RUN_IN


@pytest.mark.parametrize("value", ["Use when: asked", "Triggers: deploy, ship", "Note: version 2 only",
                                   "Covers the versions: 1 and 2"])
def test_prose_with_a_colon_keeps_its_safe_quote(value):
    _, fix = fixed(f"---\nname: demo\ndescription: {value}\n---\n", "INVALID_FRONTMATTER", "Quote")
    assert fix.safe


def test_unquoted_colon_multiline_value_is_joined_and_quoted():
    text = "---\nname: demo\ndescription: Use when:\n  the user asks\n---\n"
    new, _ = fixed(text, "INVALID_FRONTMATTER", "Quote")
    assert new == '---\nname: demo\ndescription: "Use when: the user asks"\n---\n'


# A value the diagnosis takes up to a blank line, indented lines after it (unseen thcjp/hermes-skills,
# 49 files): quoted, those lines were left behind, the YAML still broken and the value cut short.
LEFT_BEHIND = "---\nname: demo\ndescription: Short stories\n  Features:\n\n  - plots\n  - ideas\n---\nBody  \n"


def test_quoting_a_value_is_unsafe_when_lines_of_it_would_be_left_behind():
    _, fix = fixed(LEFT_BEHIND, "INVALID_FRONTMATTER", "Quote")
    assert not fix.safe and fix.unsafe_because == "yaml"
    # --fix leaves the value as it is; the trailing spaces of the body are a line break, kept.
    assert fix_all_text(LEFT_BEHIND, "/virtual/demo/SKILL.md", Settings(), on_disk=False) == LEFT_BEHIND


def test_quoting_a_value_stays_safe_beside_a_later_error():
    text = "---\nname: demo\ndescription: Use when: asked\nlicense: [MIT\n---\n"
    _, fix = fixed(text, "INVALID_FRONTMATTER", "Quote")
    assert fix.safe  # the error left is the next key's own


def test_fix_all_quotes_every_value_whole_or_leaves_it():
    text = ("---\nname: demo\ndescription: Use when: asked\nnote: a: b\nsummary: Short\n  Features:\n\n"
            "  - plots\n---\n")
    once = fix_all_text(text, "/virtual/demo/SKILL.md", Settings(), on_disk=False)
    assert once == ('---\nname: demo\ndescription: "Use when: asked"\nnote: "a: b"\nsummary: Short\n  Features:\n'
                    '\n  - plots\n---\n')


def test_metadata_value_is_quoted():
    new, fix = fixed(skill_text(extra="metadata:\n  revision: 3\n  ok: true"), "METADATA_NOT_STRING", "Quote")
    assert new == skill_text(extra='metadata:\n  revision: "3"\n  ok: true')
    assert not fix.safe  # a repository's own tools may read the number or boolean


def test_unknown_field_moves_under_existing_metadata():
    text = skill_text(extra="author: Jane Doe\nmetadata:\n  owner: docs")
    new, fix = fixed(text, "UNKNOWN_FIELD", "metadata", profile="agentskills")
    assert new == skill_text(extra='metadata:\n  owner: docs\n  author: "Jane Doe"')
    assert not fix.safe


def test_unknown_field_creates_metadata_when_absent():
    new, _ = fixed(skill_text(extra="tags: [a, b]"), "UNKNOWN_FIELD", "metadata", profile="agentskills")
    assert new == skill_text(extra='metadata:\n  tags: "[\\"a\\", \\"b\\"]"')
    _, fs = check(new)
    assert fs == []


def test_camelcase_field_is_renamed():
    new, fix = fixed(skill_text(extra="disableModelInvocation: true"), "CAMELCASE_FIELD")
    assert new == skill_text(extra="disable-model-invocation: true")
    assert fix.safe


def test_camelcase_rename_is_not_offered_when_the_kebab_key_exists():
    doc, fs = check(skill_text(extra="userInvocable: true\nuser-invocable: false"))
    f = next(f for f in fs if f.code == "CAMELCASE_FIELD")
    assert fixes_for(doc, f) == []


@pytest.mark.parametrize(("word", "out"), [('"yes"', "true"), ("'off'", "false"), ('"1"', "true")])
def test_string_boolean_becomes_a_yaml_boolean(word: str, out: str):
    new, _ = fixed(skill_text(extra=f"user-invocable: {word}"), "INVALID_VALUE", "boolean")
    assert new == skill_text(extra=f"user-invocable: {out}")


def test_allowed_tools_list_to_string_under_agentskills():
    text = skill_text(extra="allowed-tools:\n  - Read\n  - Bash(git:*)")
    new, _ = fixed(text, "INVALID_TYPE", "space-separated", profile="agentskills")
    assert new == skill_text(extra='allowed-tools: "Read Bash(git:*)"')
    _, fs = check(new, profile="agentskills")
    assert fs == []


def test_allowed_tools_commas_to_spaces_under_agentskills():
    new, _ = fixed(skill_text(extra="allowed-tools: Read, Grep,Bash(git log:*)"), "INVALID_VALUE", "spaces",
                   profile="agentskills")
    assert new == skill_text(extra='allowed-tools: "Read Grep Bash(git log:*)"')


def test_insert_missing_name_uses_the_folder():
    new, _ = fixed("---\ndescription: d\n---\n", "MISSING_FIELD", "name", folder="my-skill")
    assert new == "---\nname: my-skill\ndescription: d\n---\n"


def test_insert_missing_description_after_name():
    new, _ = fixed("---\nname: demo\nlicense: MIT\n---\n", "MISSING_FIELD", "description")
    assert new == '---\nname: demo\ndescription: "Describe what this skill does and when to use it."\nlicense: MIT\n---\n'
    _, fs = check(new)
    # The inserted text is a placeholder for the author to replace, and DESCRIPTION_PLACEHOLDER says so.
    assert codes(fs) == ["DESCRIPTION_PLACEHOLDER"]


def test_insert_frontmatter_after_the_bom():
    new, _ = fixed("\ufeff# Title\r\n", "MISSING_FRONTMATTER", folder="my-skill")
    assert new == ('\ufeff---\r\nname: my-skill\r\ndescription: "Describe what this skill does and when to use it."'
                   "\r\n---\r\n# Title\r\n")
    _, fs = check(new, folder="my-skill")
    assert codes(fs) == ["DESCRIPTION_PLACEHOLDER"]


def test_a_comment_above_the_frontmatter_moves_below_it():
    """Unseen18 no-problem-dev: a generator's comment above each `---` block; the five releases
    read no frontmatter there. Every byte is kept, and the skill then has its fields."""
    text = "<!-- AUTO-GENERATED by deploy-to-codex -->\n\n" + skill_text()
    doc, fs = check(text)
    [f] = [f for f in fs if f.code == "MISSING_FRONTMATTER"]
    assert "a comment comes before the opening `---` line" in f.message
    new, fix = fixed(text, "MISSING_FRONTMATTER", "Move the comment")
    assert new == skill_text().replace("# Body", "<!-- AUTO-GENERATED by deploy-to-codex -->\n\n# Body")
    assert sorted(new) == sorted(text) and not fix.safe
    assert codes(check(new)[1]) == []


@pytest.mark.parametrize("text, fenced", [
    ("name: demo\ndescription: Does a thing. Use when testing.\n\n# Body\n",
     "---\nname: demo\ndescription: Does a thing. Use when testing.\n---\n\n# Body\n"),
    ("name: demo\r\ndescription: Does a thing. Use when testing.",
     "---\r\nname: demo\r\ndescription: Does a thing. Use when testing.\r\n---\r\n"),
])
def test_fields_without_fences_are_put_between_them(text: str, fenced: str):
    """Unseen17 Atomz-org: `name:` and `description:` at the top with no `---` around them."""
    doc, fs = check(text)
    [f] = [f for f in fs if f.code == "MISSING_FRONTMATTER"]
    assert "the fields at its top have none around them" in f.message
    new, fix = fixed(text, "MISSING_FRONTMATTER", "between `---` lines")
    assert new == fenced and not fix.safe
    assert codes(check(new)[1]) == []


@pytest.mark.parametrize("data", [
    {"reason": "unquoted-colon"},  # keys missing
    {"reason": "unquoted-colon", "value": "x", "valueStart": "a", "valueEnd": 2},  # wrong types
])
def test_stale_fix_data_offers_no_fix_instead_of_raising(data: dict):
    """A code action request may carry data from an older version of the document."""
    doc, _ = check("---\nname: demo\ndescription: Use when: x\n---\n")
    stale = Finding("INVALID_FRONTMATTER", Severity.ERROR, "stale", 0, 3, data)
    assert fixes_for(doc, stale) == []


def test_yaml_string_quotes_only_when_needed():
    assert yaml_string("my-skill") == "my-skill"
    assert yaml_string("true") == '"true"'
    assert yaml_string("a: b") == '"a: b"'
    assert yaml_string("123") == '"123"'
    assert yaml_string("café: x") == '"café: x"'  # quoted, but never \u-escaped
    assert yaml_string("trailing ") == '"trailing "'
    assert yaml_string("null") == '"null"' and yaml_string("0x1F") == '"0x1F"' and yaml_string("1.5") == '"1.5"'


def test_overlapping_edits_keep_the_first():
    assert apply_edits("abcdef", [fixes.Edit(1, 3, "X"), fixes.Edit(2, 4, "Y"), fixes.Edit(5, 6, "Z")]) == "aXdeZ"
    # Touching edits do not overlap: both apply (a trim that ends where a quote fix starts).
    assert apply_edits("abcd", [fixes.Edit(2, 4, "Y"), fixes.Edit(0, 2, "X")]) == "XY"
    assert apply_edits("ab", [fixes.Edit(1, 1, "+"), fixes.Edit(1, 2, "B")]) == "a+B"


# --------------------------------------------------------------------- fix-all

MESSY = (
    "---\n"
    "name: demo\n"
    "description: Use when: you need it\n"
    "---\n"
)
MESSY_FIELDS = (
    "---  \n"
    "name: demo\n"
    "description: Fields. \n"
    "disableModelInvocation: true\n"
    "user-invocable: \"no\"\n"
    "metadata:\n"
    "  revision: 3\n"
    "  flag: yes\n"
    "author: Jane\n"
    "---\n"
    "# Title   \n"
    "hard  \n"
    "  \n"
    "[x](/nowhere/abs.md)\n"
)


@pytest.mark.parametrize("text", [MESSY, MESSY_FIELDS, MESSY_FIELDS.replace("\n", "\r\n"),
                                  "# no frontmatter \n", "---\nname: demo\n"])
@pytest.mark.parametrize("profile", ["skill-tool", "agentskills", "claude-code", "dsh"])
def test_fix_all_is_idempotent_and_never_adds_findings(text: str, profile: str):
    settings = Settings(profile=profile)
    path = "/virtual/demo/SKILL.md"
    once = fix_all_text(text, path, settings, on_disk=False)
    twice = fix_all_text(once, path, settings, on_disk=False)
    assert twice == once
    _, before = check(text, profile=profile)
    _, after = check(once, profile=profile)
    assert set(codes(after)) <= set(codes(before))
    assert len(after) <= len(before)


def test_fix_all_result_for_the_common_problems():
    once = fix_all_text(MESSY_FIELDS, "/virtual/demo/SKILL.md", Settings(), on_disk=False)
    assert once == (
        "---\n"
        "name: demo\n"
        "description: Fields.\n"
        "disable-model-invocation: true\n"
        "user-invocable: false\n"
        "metadata:\n"
        "  revision: 3\n"
        "  flag: yes\n"
        "author: Jane\n"
        "---\n"
        "# Title\n"
        "hard  \n"
        "\n"
        "[x](/nowhere/abs.md)\n"
    )
    _, after = check(once)
    # 'author' is a custom field nobody rejects; "Fields." is a topic, not a description (no fix for that);
    # a number in metadata is a string only when the author says so (its fix is unsafe).
    assert codes(after) == ["DESCRIPTION_STUB", "METADATA_NOT_STRING", "ABSOLUTE_LINK"]


def test_fix_all_repeats_until_nothing_is_left():
    # Quoting the colon lets the frontmatter parse; only then does the camelCase key show, and get fixed.
    text = "---\nname: demo\ndescription: Use when: testing\nallowedTools: Read\n---\n# x\n"
    assert codes(check(text)[1]) == ["INVALID_FRONTMATTER"]
    once = fix_all_text(text, "/virtual/demo/SKILL.md", Settings(), on_disk=False)
    assert once == '---\nname: demo\ndescription: "Use when: testing"\nallowed-tools: Read\n---\n# x\n'
    assert check(once)[1] == []


def test_fix_all_quotes_the_unquoted_colon():
    once = fix_all_text(MESSY, "/virtual/demo/SKILL.md", Settings(), on_disk=False)
    assert once == '---\nname: demo\ndescription: "Use when: you need it"\n---\n'


def test_misspelt_field_is_renamed_to_the_field_meant():
    new, fix = fixed(skill_text(extra="allowed_tools: Read"), "UNKNOWN_FIELD", "Rename")
    assert new == skill_text(extra="allowed-tools: Read")
    assert fix.preferred and not fix.safe
