"""Every rule code in RULES: trigger it, pin code, severity, exact (line, character) range and fix data.

Ranges are asserted as UTF-16 LSP positions through ``SourceText.position``.
``test_every_rule_code_has_a_test`` fails when a code is added to RULES without a
test here (each test declares the codes it pins with ``@covers``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers import check, check_raw, codes, only, rng, skill_text, write_skill
from skill_lsp.engine import document, rules
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import scan_roots
from skill_lsp.engine.findings import RULES, Severity
from skill_lsp.engine.workspace import check_file, link_skills

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO
COVERED: set[str] = set()


def covers(*names: str):
    COVERED.update(names)
    return lambda fn: fn


def test_every_rule_code_has_a_test():
    from test_rules_depth import COVERED as DEPTH  # noqa: PLC0415 - the rule-depth codes are pinned there
    from test_rules_recall import COVERED as RECALL  # noqa: PLC0415 - issue 26's codes

    covered = COVERED | DEPTH | RECALL
    assert set(RULES) - covered == set(), "codes without a rule test"
    assert covered - set(RULES) == set(), "tests for codes that no longer exist"


def load_bytes(data: bytes, folder: str = "demo"):
    doc = document.load(f"/virtual/{folder}/SKILL.md", data)
    return doc, rules.check(doc, rules.Context())


# --------------------------------------------------------------------- stage 1: file and frontmatter


@covers("INVALID_ENCODING")
def test_invalid_utf8_byte_is_reported_at_the_byte():
    doc, fs = load_bytes(b"---\nname: demo\ndescription: caf\xe9\n---\n")
    f = only(fs, "INVALID_ENCODING")
    assert f.severity is E
    assert rng(doc, f) == ((2, 16), (2, 17))
    assert "0xe9" in f.message


def test_utf16_bom_file_is_invalid_encoding_at_start():
    doc, fs = load_bytes("---\nname: demo\ndescription: d\n---\n".encode("utf-16"))
    f = only(fs, "INVALID_ENCODING")
    assert rng(doc, f) == ((0, 0), (0, 1))
    assert "UTF-16" in f.message


def test_nul_byte_is_invalid_encoding_at_the_nul():
    doc, fs = load_bytes(b"---\nname: demo\ndescription: d\n---\nab\x00c\n")
    f = only(fs, "INVALID_ENCODING")
    assert rng(doc, f) == ((4, 2), (4, 3))


@covers("FILE_TOO_LARGE")
def test_text_over_one_mebichar_is_truncated_with_one_finding():
    text = skill_text(body="x\n" * 600_000)
    doc, fs = check(text)
    f = only(fs, "FILE_TOO_LARGE")
    assert f.severity is W
    assert doc.truncated and len(doc.text) <= document.MAX_ANALYSED_CHARS
    # The finding covers the last analysed character: the final line break.
    last = doc.src.line_count - 1
    assert rng(doc, f) == ((last - 1, 1), (last, 0))


@covers("MISSING_FRONTMATTER")
def test_missing_frontmatter_on_first_line_with_insert_fix_data():
    doc, fs = check("# Title\nbody\n")
    f = only(fs, "MISSING_FRONTMATTER")
    assert f.severity is E
    assert rng(doc, f) == ((0, 0), (0, 7))
    assert f.data == {"fix": "insert-frontmatter"}


@covers("INVALID_FRONTMATTER")
def test_unclosed_frontmatter_anchors_on_the_opening_line():
    doc, fs = check("---\nname: demo\ndescription: d\n# body\n")
    assert codes(fs) == ["INVALID_FRONTMATTER"]
    assert fs[0].severity is E
    assert rng(doc, fs[0]) == ((0, 0), (0, 3))
    assert fs[0].data == {"reason": "unclosed"}


def test_unquoted_colon_spans_the_value_with_fix_data():
    doc, fs = check("---\nname: demo\ndescription: Use when: asked\n---\n")
    f = only(fs, "INVALID_FRONTMATTER")
    assert rng(doc, f) == ((2, 13), (2, 28))
    assert f.data is not None
    assert f.data["reason"] == "unquoted-colon"
    assert f.data["key"] == "description"
    assert f.data["value"] == "Use when: asked"
    assert "mapping values are not allowed" in f.message  # the parser's own message


def test_yaml_syntax_error_carries_parser_message_and_position():
    doc, fs = check("---\nname: demo\ndescription: d\nbad: [unclosed\n---\n")
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data == {"reason": "yaml", "yaml": "unclosed-flow"}
    assert "flow sequence" in f.message
    assert rng(doc, f)[0][0] in (3, 4)


def test_non_mapping_frontmatter_is_invalid_frontmatter():
    doc, fs = check("---\n- a\n- b\n---\n")
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data == {"reason": "not-mapping"}
    assert rng(doc, f) == ((1, 0), (3, 0))


@covers("FRONTMATTER_LIMIT")
def test_alias_bomb_is_a_limit_finding_on_the_offending_line():
    rows = ["  a: &a [x,x,x,x,x,x,x,x,x,x]"] + [
        f"  {c}: &{c} [{','.join(['*' + p] * 10)}]" for p, c in zip("abc", "bcd", strict=True)]
    doc, fs = check(skill_text(extra="metadata:\n" + "\n".join(rows)))
    assert codes(fs) == ["FRONTMATTER_LIMIT"]
    assert fs[0].severity is E
    assert rng(doc, fs[0]) == ((7, 0), (7, len(rows[-1])))


def test_deep_nesting_is_a_limit_finding():
    doc, fs = check(skill_text(extra="x: " + "[" * 70 + "]" * 70))
    assert codes(fs) == ["FRONTMATTER_LIMIT"]
    assert "64" in fs[0].message


def test_huge_frontmatter_is_a_limit_finding_on_the_opening_line():
    doc, fs = check(skill_text(description="x" * 300_000))
    f = only(fs, "FRONTMATTER_LIMIT")
    assert rng(doc, f) == ((0, 0), (0, 3))


@covers("DUPLICATE_KEY")
def test_duplicate_top_level_key_spans_the_second_key_and_relates_the_first():
    doc, fs = check("---\nname: demo\ndescription: d\nname: demo\n---\n")
    f = only(fs, "DUPLICATE_KEY")
    assert f.severity is E
    assert rng(doc, f) == ((3, 0), (3, 4))
    assert f.data == {"key": "name", "field": "name"}
    assert len(f.related) == 1
    assert doc.src.position(f.related[0].start) == (1, 0)


def test_duplicate_key_inside_metadata():
    doc, fs = check(skill_text(extra="metadata:\n  a: x\n  a: y"))
    f = only(fs, "DUPLICATE_KEY")
    assert rng(doc, f) == ((5, 2), (5, 3))


@covers("YAML_TAG")
def test_explicit_tag_is_inert_and_reported():
    doc, fs = check(skill_text(extra="when: !!python/object:os.system x"))
    f = only(fs, "YAML_TAG")
    assert f.severity is W
    assert rng(doc, f) == ((3, 6), (3, 33))


# --------------------------------------------------------------------- name


@covers("MISSING_FIELD")
def test_missing_name_anchors_on_opening_line_with_folder():
    doc, fs = check("---\ndescription: d\n---\n", folder="my-skill")
    f = only(fs, "MISSING_FIELD")
    assert f.severity is E
    assert rng(doc, f) == ((0, 0), (0, 3))
    assert f.data == {"field": "name", "folder": "my-skill"}


def test_missing_description():
    doc, fs = check("---\nname: demo\n---\n")
    f = only(fs, "MISSING_FIELD")
    assert rng(doc, f) == ((0, 0), (0, 3))
    assert f.data == {"field": "description"}


@covers("EMPTY_FIELD")
def test_empty_quoted_name_spans_the_quotes():
    doc, fs = check('---\nname: ""\ndescription: d\n---\n')
    f = only(fs, "EMPTY_FIELD")
    assert f.severity is E
    assert rng(doc, f) == ((1, 6), (1, 8))
    assert f.data == {"field": "name", "folder": "demo"}


def test_null_description_spans_the_key():
    doc, fs = check("---\nname: demo\ndescription:\n---\n")
    f = only(fs, "EMPTY_FIELD")
    assert rng(doc, f) == ((2, 0), (2, 11))


def test_empty_compatibility():
    doc, fs = check(skill_text(extra='compatibility: ""'))
    f = only(fs, "EMPTY_FIELD")
    assert rng(doc, f) == ((3, 15), (3, 17))


@covers("INVALID_TYPE")
def test_name_as_list_is_invalid_type():
    doc, fs = check("---\nname: [a]\ndescription: d\n---\n")
    f = only(fs, "INVALID_TYPE")
    assert f.severity is E
    assert rng(doc, f) == ((1, 6), (1, 9))
    assert f.data == {"field": "name", "expected": "string"}


def test_boolean_field_with_number_is_invalid_type():
    doc, fs = check(skill_text(extra="user-invocable: 3"))
    f = only(fs, "INVALID_TYPE")
    assert rng(doc, f) == ((3, 16), (3, 17))
    assert f.data == {"field": "user-invocable", "expected": "boolean"}


def test_description_as_mapping_is_invalid_type():
    doc, fs = check("---\nname: demo\ndescription:\n  a: b\n---\n")
    f = only(fs, "INVALID_TYPE")
    assert f.data == {"field": "description", "expected": "string"}


@covers("TOO_LONG")
def test_description_over_1024_characters():
    doc, fs = check(skill_text(description="d" * 1025))
    f = only(fs, "TOO_LONG")
    assert f.severity is E
    assert rng(doc, f) == ((2, 13), (2, 13 + 1025))
    assert f.data == {"field": "description", "limit": 1024, "length": 1025}


def test_description_of_exactly_1024_characters_is_fine():
    _, fs = check(skill_text(description="d" * 1024))
    assert fs == []


def test_name_over_64_characters_has_a_suggestion():
    name = "a" * 65
    doc, fs = check(skill_text(name=name), folder=name)
    f = only(fs, "TOO_LONG")
    assert rng(doc, f) == ((1, 6), (1, 71))
    assert f.data is not None
    assert f.data["limit"] == 64 and f.data["length"] == 65 and len(f.data["suggestion"]) <= 64


def test_argument_hint_over_200_characters():
    doc, fs = check(skill_text(extra="argument-hint: " + "h" * 201))
    f = only(fs, "TOO_LONG")
    assert f.data == {"field": "argument-hint", "limit": 200, "length": 201}


@covers("NAME_INVALID")
def test_uppercase_name_is_invalid_with_kebab_suggestion():
    doc, fs = check(skill_text(name="My Skill"), folder="my-skill")
    f = only(fs, "NAME_INVALID")
    assert f.severity is E
    assert rng(doc, f) == ((1, 6), (1, 14))
    assert f.data == {"suggestion": "my-skill", "folder": "my-skill"}


@pytest.mark.parametrize("name", ["-demo", "demo-", "de--mo", "de_mo", "demo.v2"])
def test_bad_hyphens_and_characters_are_invalid(name: str):
    _, fs = check(skill_text(name=name), folder=name)
    assert codes(fs) == ["NAME_INVALID"]


@covers("NAME_SPOOFABLE")
def test_zero_width_space_in_name_is_spoofable():
    doc, fs = check('---\nname: "de\u200bmo"\ndescription: d\n---\n')
    f = only(fs, "NAME_SPOOFABLE")
    assert f.severity is E
    assert rng(doc, f) == ((1, 6), (1, 13))
    assert f.data == {"suggestion": "demo"}
    assert "U+200B" in f.message


@covers("NAME_MISMATCH")
def test_name_mismatch_names_both_sides():
    doc, fs = check(skill_text(name="foo"), folder="bar")
    f = only(fs, "NAME_MISMATCH")
    assert f.severity is E  # the skill tool refuses it
    assert rng(doc, f) == ((1, 6), (1, 9))
    assert f.data == {"name": "foo", "folder": "bar"}
    assert '"foo"' in f.message and '"bar"' in f.message


def test_a_skill_named_after_its_group_and_its_folder_outside_the_roots_is_an_information(tmp_path: Path):
    # `skills/matrix/debug-app` named `matrix-debug-app`: installed as `.agents/skills/matrix-debug-app`
    # (held-out unseen22). Inside a root a harness reads it where it is: graded as any mismatch.
    text = skill_text(name="matrix-debug-app")
    r = check_file(str(write_skill(tmp_path / "skills" / "matrix", "debug-app", text)), Settings())
    f = only(r.findings, "NAME_MISMATCH")
    assert f.severity is INFO and f.data == {"name": "matrix-debug-app", "folder": "debug-app", "group": "matrix"}
    assert f.message.endswith("as installed where the groups are flattened (`matrix-debug-app/`)")
    r = check_file(str(write_skill(tmp_path / "skills" / "other", "debug-app", text)), Settings())
    assert only(r.findings, "NAME_MISMATCH").severity is E
    r = check_file(str(write_skill(tmp_path / ".claude" / "skills" / "matrix", "debug-app", text)), Settings())
    assert "group" not in only(r.findings, "NAME_MISMATCH").data


def test_name_mismatch_ignores_spaces_around_the_name():
    # agentskills reads names as Unicode and strips them (skills-ref does the same).
    _, fs = check(skill_text(name="'  demo  '"), folder="demo", profile="agentskills")
    assert fs == []
    _, fs = check(skill_text(name="'  demo  '"), folder="other", profile="agentskills")
    assert only(fs, "NAME_MISMATCH").data == {"name": "  demo  ", "folder": "other"}


def test_name_mismatch_compares_after_nfkc():
    # A fullwidth folder name is NFKC-equal to its ASCII name.
    _, fs = check(skill_text(name="demo"), folder="\uff44\uff45\uff4d\uff4f")
    assert fs == []


# --------------------------------------------------------------------- other fields


@covers("UNKNOWN_FIELD")
def test_unknown_field_is_a_likely_misspelling_under_skill_tool():
    doc, fs = check(skill_text(extra="licence: MIT"))
    f = only(fs, "UNKNOWN_FIELD")
    assert f.severity is W
    assert rng(doc, f) == ((3, 0), (3, 7))
    assert f.data == {"field": "licence", "suggestion": "license"}
    assert "did you mean 'license'?" in f.message


def test_a_near_miss_beside_the_field_itself_is_the_authors_own_header():
    # Unseen jieli-cqwl/org-claude-skills: a title-case header (`Name:`, `Tier:`, `Version:`) above
    # `name:`; "did you mean 'name'?" misled (the field is there) and its rename would give DUPLICATE_KEY.
    _, fs = check(skill_text(extra="Name: x\nLicense: MIT\nlicense: MIT"))
    assert "UNKNOWN_FIELD" not in codes(fs)
    _, fs = check(skill_text(extra="licence: MIT\nlicense: MIT"))  # a misspelling beside it still is one
    assert only(fs, "UNKNOWN_FIELD").data["suggestion"] == "license"
    _, fs = check(skill_text(extra="Licence: MIT"))
    assert only(fs, "UNKNOWN_FIELD").data["suggestion"] == "license"


@pytest.mark.parametrize("extra", [
    "models: [claude-sonnet-4, claude-opus-4]",  # unseen AgentWorkers/skills: a list, where `model` is one id
    "agentic: false",  # a boolean, where `agent` names a subagent
    "contact: report@example.com",  # not `fork`, the one value of `context`
    "mode: interactive",  # unseen14 theflysurfer: no model alias or id
    "model-invocation: autonomous",  # not a boolean, as `disable-model-invocation` is
])
def test_a_key_whose_value_could_not_be_the_near_fields_is_the_authors_own(extra: str):
    _, fs = check(skill_text(extra=extra), profile="claude-code")
    assert "UNKNOWN_FIELD" not in codes(fs)


@pytest.mark.parametrize("extra, meant", [
    ("modle: sonnet", "model"), ("modl: claude-sonnet-4-5", "model"), ("contxt: fork", "context"),
    ("user_invocable: false", "user-invocable"), ("descripton: Converts files.", "description"),
    ("allowed_tools: Read Grep", "allowed-tools"), ("efort: high", "effort"), ("agnet: Explore", "agent"),
])
def test_a_misspelt_key_with_a_value_of_its_field_is_still_one(extra: str, meant: str):
    _, fs = check(skill_text(extra=extra), profile="claude-code")
    assert only(fs, "UNKNOWN_FIELD").data["suggestion"] == meant


@pytest.mark.parametrize("key", ["author", "category", "slug", "tags", "version", "when"])
def test_custom_fields_are_not_reported_where_the_target_ignores_them(key: str):
    _, fs = check(skill_text(extra=f"{key}: x"), profile="claude-code")
    assert "UNKNOWN_FIELD" not in codes(fs)


@covers("DEFERRED_FIELD")
def test_deferred_field_is_info_under_skill_tool():
    doc, fs = check(skill_text(extra="model: opus"))
    f = only(fs, "DEFERRED_FIELD")
    assert f.severity is INFO
    assert rng(doc, f) == ((3, 0), (3, 5))
    assert f.data == {"field": "model"}


@covers("CAMELCASE_FIELD")
def test_camelcase_field_gets_the_kebab_spelling():
    doc, fs = check(skill_text(extra="disableModelInvocation: true"))
    f = only(fs, "CAMELCASE_FIELD")
    assert f.severity is W
    assert rng(doc, f) == ((3, 0), (3, 22))
    assert f.data == {"field": "disableModelInvocation", "replacement": "disable-model-invocation"}


@covers("INVALID_VALUE")
def test_quoted_boolean_is_invalid_value_with_boolean_data():
    doc, fs = check(skill_text(extra='user-invocable: "yes"'))
    f = only(fs, "INVALID_VALUE")
    assert f.severity is W
    assert rng(doc, f) == ((3, 16), (3, 21))
    assert f.data == {"field": "user-invocable", "boolean": True}


def test_enum_value_outside_the_set_under_claude_code():
    doc, fs = check(skill_text(extra="effort: extreme"), profile="claude-code")
    f = only(fs, "INVALID_VALUE")
    assert rng(doc, f) == ((3, 8), (3, 15))
    assert f.data == {"field": "effort", "values": ["low", "medium", "high", "xhigh", "max"]}


@covers("INVALID_VERSION")
def test_version_not_semver():
    doc, fs = check(skill_text(extra="version: v1"))
    f = only(fs, "INVALID_VERSION")
    assert f.severity is W
    assert rng(doc, f) == ((3, 9), (3, 11))
    assert f.data == {"field": "version"}


def test_version_as_number_suggests_a_quoted_semver():
    _, fs = check(skill_text(extra="version: 1.20"))
    f = only(fs, "INVALID_VERSION")
    assert '"1.20"' in f.message


@pytest.mark.parametrize("version", ["1.2.0", "2.1.3-beta", "1.0.0+build.5"])
def test_semver_versions_pass(version: str):
    _, fs = check(skill_text(extra=f'version: "{version}"'))
    assert fs == []


@covers("UNKNOWN_LICENSE")
def test_unknown_license():
    doc, fs = check(skill_text(extra="license: Custom-License"))
    f = only(fs, "UNKNOWN_LICENSE")
    assert f.severity is Severity.INFO
    assert rng(doc, f) == ((3, 9), (3, 23))
    assert f.data == {"field": "license"}


@pytest.mark.parametrize("value", ["MIT", "Apache-2.0", "MIT OR Apache-2.0"])
def test_spdx_licenses_pass(value: str):
    _, fs = check(skill_text(extra=f"license: {value}"))
    assert fs == []


def test_license_naming_a_bundled_file_passes():
    _, fs = check_raw(skill_text(extra="license: Complete terms in LICENSE.txt"),
                      files=frozenset({"LICENSE.txt", "SKILL.md"}))
    assert fs == []


@covers("METADATA_NOT_STRING")
def test_metadata_number_is_flagged_with_quote_data():
    doc, fs = check(skill_text(extra="metadata:\n  revision: 3"))
    f = only(fs, "METADATA_NOT_STRING")
    assert f.severity is Severity.HINT
    assert rng(doc, f) == ((4, 12), (4, 13))
    assert f.data == {"key": "revision", "fixable": True, "value": "3"}


def test_metadata_list_is_flagged_but_not_fixable():
    _, fs = check(skill_text(extra="metadata:\n  tags: [a, b]"), profile="agentskills")
    f = only(fs, "METADATA_NOT_STRING")
    assert f.data is not None and f.data["fixable"] is False


@covers("INVALID_ARGUMENTS")
def test_arguments_list_is_malformed_under_skill_tool():
    doc, fs = check(skill_text(extra="arguments: [a, b]"))
    f = only(fs, "INVALID_ARGUMENTS")
    assert f.severity is E
    assert rng(doc, f) == ((3, 11), (3, 17))
    assert f.data == {"field": "arguments"}


def test_arguments_list_is_fine_under_claude_code():
    _, fs = check(skill_text(extra="arguments: [a, b]"), profile="claude-code")
    assert fs == []


def test_arguments_declaration_shape():
    extra = "arguments:\n  path:\n    type: string\n    required: yes\n  bad-name:\n  x:\n    colour: red"
    doc, fs = check(skill_text(extra=extra))
    msgs = [(rng(doc, f)[0], f.message) for f in fs if f.code == "INVALID_ARGUMENTS"]
    assert [m[0] for m in msgs] == [(6, 14), (7, 2), (9, 4)]
    assert "'required'" in msgs[0][1]


def test_valid_arguments_declaration_passes():
    extra = "arguments:\n  path:\n    type: string\n    required: true\n    description: Where\n  mode:"
    _, fs = check(skill_text(extra=extra))
    assert fs == []


# --------------------------------------------------------------------- body


@covers("TRAILING_WHITESPACE")
def test_trailing_whitespace_and_the_two_space_hard_break():
    doc, fs = check(skill_text(body="# T \nhard  \n  \nx\t\n"))
    ranges = [rng(doc, f) for f in fs]
    assert codes(fs) == ["TRAILING_WHITESPACE"] * 3
    # A hint: the model reads the same text either way (issue 26).
    assert all(f.severity is Severity.HINT and f.data == {"fix": "trim"} for f in fs)
    # "hard  " (line 5) is a Markdown hard break; a whitespace-only line is flagged whole.
    assert ranges == [((4, 3), (4, 4)), ((6, 0), (6, 2)), ((7, 1), (7, 2))]


def test_trailing_whitespace_before_crlf_excludes_the_break():
    doc, fs = check(skill_text(body="a \r\nb\r\n", nl="\r\n"))
    f = only(fs, "TRAILING_WHITESPACE")
    assert rng(doc, f) == ((4, 1), (4, 2))


@covers("ABSOLUTE_LINK")
def test_absolute_link_forms():
    body = "[a](/x/y.md) ![i](file:///tmp/a.png) [c](C:\\x) [d](~/x)\n"
    doc, fs = check(skill_text(body=body))
    assert codes(fs) == ["ABSOLUTE_LINK"] * 4
    assert all(f.severity is W for f in fs)
    assert [rng(doc, f) for f in fs] == [((4, 4), (4, 11)), ((4, 18), (4, 35)), ((4, 41), (4, 45)),
                                         ((4, 51), (4, 54))]
    assert fs[0].data == {"target": "/x/y.md"}


def test_a_link_quoted_as_an_example_is_no_link_of_the_skill():
    """Held-out test half: a table cell quoting the text a page should hold ("Learn more about
    [analytics](/features/analytics)") shows the model an example; the skill links nowhere."""
    body = ('| Contextual | "Learn more about [analytics](/features/analytics)" |\n'
            "Write \u201cSee [pricing](/pricing)\u201d on the page.\n"
            '[real](/x/y.md) and "a quote" then [also real](/z.md)\n')
    doc, fs = check(skill_text(body=body))
    assert [f.data["target"] for f in fs if f.code == "ABSOLUTE_LINK"] == ["/x/y.md", "/z.md"]


def test_absolute_link_into_the_skill_gets_relative_data(tmp_path: Path):
    skill = write_skill(tmp_path, "demo", "")
    target = f"{tmp_path}/demo/notes.md"
    text = skill_text(body=f"[n]({target})\n")
    skill.write_text(text)
    (tmp_path / "demo" / "notes.md").write_text("x")
    doc, fs = check(text, path=str(skill), on_disk=True)
    f = only(fs, "ABSOLUTE_LINK")
    assert f.data == {"target": target, "relative": "notes.md"}


@covers("BROKEN_LINK")
def test_broken_relative_link_is_percent_decoded():
    body = "[ok](my%20notes.md) [bad](references/missing.md#x)\n"
    doc, fs = check_raw(skill_text(body=body), files=frozenset({"SKILL.md", "my notes.md", "references/"}))
    f = only(fs, "BROKEN_LINK")
    assert f.severity is W
    assert rng(doc, f) == ((4, 26), (4, 49))
    assert f.data == {"target": "references/missing.md#x", "path": "references/missing.md"}


def test_a_broken_link_names_the_file_spelled_otherwise(tmp_path: Path):
    # Held-out unseen23: `references/ANTI-PATTERNS.md` beside `references/ANTI_PATTERNS.md`.
    from skill_lsp.engine.fixes import fixes_for  # noqa: PLC0415

    body = "[a](references/ANTI-PATTERNS.md) [b](references/gone.md) [c](../nowhere/x.md)\n"
    p = write_skill(tmp_path, "demo", skill_text(body=body))
    (p.parent / "references").mkdir()
    (p.parent / "references" / "ANTI_PATTERNS.md").write_text("x")
    (p.parent / "references" / "GONE.MD").write_text("x")
    (p.parent / "references" / "Gone.md").write_text("x")  # two candidates: no suggestion
    r = check_file(str(p), Settings())
    broken = [f for f in r.findings if f.code == "BROKEN_LINK"]
    assert [f.data.get("replacement") for f in broken] == ["references/ANTI_PATTERNS.md", None, None]
    assert broken[0].message.endswith("; 'references/ANTI_PATTERNS.md' does")
    assert r.doc.text[broken[2].start:broken[2].end] == "../nowhere/x.md"  # still checked after the listing
    (fix,) = fixes_for(r.doc, broken[0])
    assert not fix.safe and [(e.start, e.end, e.text) for e in fix.edits] == [
        (broken[0].start, broken[0].end, "references/ANTI_PATTERNS.md")]


def test_broken_links_are_not_checked_without_a_folder_listing():
    _, fs = check_raw(skill_text(body="[bad](missing.md)\n"), files=None)
    assert fs == []


def test_check_links_off_silences_broken_links(tmp_path: Path):
    p = write_skill(tmp_path, "demo", skill_text(body="[bad](missing.md)\n"))
    r = check_file(str(p), Settings(check_links=False))
    assert r.findings == []
    r = check_file(str(p), Settings())
    assert codes(r.findings) == ["BROKEN_LINK"]


_TEMPLATE = "Write this:\n\n```markdown\n# Project\n\n```bash\nmake\n```\n\nSee [the guide](docs/guide.md).\n```\n"


def _edited(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[:e.start] + e.text + text[e.end:]
    return text


@covers("NESTED_FENCE")
def test_a_fence_nested_in_a_block_closes_it_early():
    from skill_lsp.engine.fixes import fixes_for  # noqa: PLC0415

    for newline in ("\n", "\r\n"):
        text = skill_text(body=_TEMPLATE + "\nThen [read](missing.md).\n").replace("\n", newline)
        doc, fs = check_raw(text, files=frozenset({"SKILL.md"}))
        f = only(fs, "NESTED_FENCE")
        assert f.severity is W
        assert rng(doc, f) == ((6, 0), (6, 3))  # the outer opening fence
        assert f.message == ("the ```bash fence inside this ```markdown block ends it: the fence on line 12 closes it, "
                             "lines 13-14 are read as Markdown and the fence on line 15 opens a new block; open and "
                             "close it with ```` to nest the fences")
        assert [doc.src.position(r.start)[0] for r in f.related] == [9, 11]
        # The template's link is not the skill's (the link after it is in the block line 15 opens).
        assert "BROKEN_LINK" not in codes(fs)
        (fix,) = fixes_for(doc, f)
        assert not fix.safe  # where the author meant the block to end is a count of the fences
        fixed, after = check_raw(_edited(text, fix.edits), files=frozenset({"SKILL.md"}))
        assert codes(after) == ["BROKEN_LINK"]  # the link after the template, in prose again
        assert [fixed.text[b.start:b.end] for b in after] == ["missing.md"]
        assert fixed.text.count("````") == 2


@pytest.mark.parametrize("body", [
    "````markdown\n```bash\nmake\n```\n[x](gone.md)\n````\n",  # nested as meant
    "```markdown\n~~~bash\nmake\n~~~\n```\n",  # another fence character
    "```markdown\n````\nx\n```\n",  # no info string: it could close the block
    "```markdown\n```bash\nmake\n```\nnever closed\n",  # the count never comes back: unclear
    # A bare fence right after a template's block: a block the template holds, or a block of its own.
    "```markdown\n# T\n```\n$x\n```\n```bash\nmake\n```\n```\n",
    "> ```markdown\n> ```bash\n> make\n> ```\n> ```\n",  # in a block quote: not counted
])
def test_fences_that_nest_or_may_not_are_not_reported(body: str):
    _, fs = check_raw(skill_text(body=body), files=frozenset({"SKILL.md"}))
    assert "NESTED_FENCE" not in codes(fs)


def test_after_a_block_closed_early_the_next_is_reported_once_it_is_fixed():
    from skill_lsp.engine.fixes import fixes_for  # noqa: PLC0415

    text = skill_text(body=_TEMPLATE + "\n" + _TEMPLATE)
    doc, fs = check_raw(text, files=frozenset({"SKILL.md"}))
    (f,) = [f for f in fs if f.code == "NESTED_FENCE"]  # the second template's blocks are the first's doing
    assert rng(doc, f)[0] == (6, 0)
    doc, fs = check_raw(_edited(text, fixes_for(doc, f)[0].edits), files=frozenset({"SKILL.md"}))
    (f,) = [f for f in fs if f.code == "NESTED_FENCE"]
    assert rng(doc, f)[0] == (18, 0)


def test_a_link_leaving_a_folder_reached_through_a_link_resolves_from_the_real_folder(tmp_path: Path):
    # `.codex-marketplace/<plugin>/skills` links to `plugins/<plugin>/skills` (held-out unseen22): `../../x`
    # from the mirrored skill is the plugin's file, as the system and Codex (the skill's real path) see it.
    plugin = tmp_path / "plugins" / "roadmap"
    (plugin / "references").mkdir(parents=True)
    (plugin / "references" / "SCALE.md").write_text("x")
    (plugin / ".claude-plugin").mkdir()
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "roadmap"}')
    skill = write_skill(plugin / "skills", "pm", skill_text(name="pm", body="[s](../../references/SCALE.md) "
                                                            "[g](../../references/GONE.md)\n"))
    mirror = tmp_path / ".codex-marketplace" / "roadmap"
    mirror.mkdir(parents=True)
    (mirror / "skills").symlink_to(plugin / "skills")
    for path in (skill, mirror / "skills" / "pm" / "SKILL.md"):
        r = check_file(str(path), Settings())
        assert [(f.code, r.doc.text[f.start:f.end]) for f in r.findings if "LINK" in f.code] == [
            ("BROKEN_LINK", "../../references/GONE.md")], path


@covers("LINK_OUTSIDE_SKILL")
def test_link_climbing_out_of_the_skill():
    doc, fs = check(skill_text(body="[s](../shared/README.md)\n"))
    f = only(fs, "LINK_OUTSIDE_SKILL")
    assert f.severity is INFO  # issue 11 audit: sibling skills of a plugin, nearly always
    assert rng(doc, f) == ((4, 4), (4, 23))
    assert f.data == {"target": "../shared/README.md"}


@covers("BODY_TOO_LONG")
def test_body_over_500_lines_points_at_line_501():
    # Reported past 550 lines (10 % over, as SKILL_TOO_LARGE), at the 501st line.
    doc, fs = check(skill_text(body="line\n" * 551))
    f = only(fs, "BODY_TOO_LONG")
    assert f.severity is Severity.HINT  # a warning from 750 lines (test_rule_body)
    assert rng(doc, f) == ((504, 0), (504, 4))
    assert f.data == {"lines": 551}


def test_body_of_exactly_500_lines_is_fine():
    _, fs = check(skill_text(body="line\n" * 550))
    assert fs == []


@covers("SKILL_TOO_LARGE")
def test_instructions_over_5000_tokens():
    doc, fs = check(skill_text(body=("word " * 11 + "word\n") * 700))
    f = only(fs, "SKILL_TOO_LARGE")
    assert f.severity is W  # 10,500 tokens: over 1.5 times the recommendation
    assert rng(doc, f) == ((4, 0), (4, 59))
    assert f.data is not None and f.data["tokens"] > 5000


# --------------------------------------------------------------------- discovery and workspace codes


def _ws(tmp_path: Path, *roots: str) -> tuple[Settings, list]:
    settings = Settings(roots=roots)
    locs = scan_roots(settings.resolved_roots(str(tmp_path)), settings.sensitive_patterns)
    results = [check_file(loc.path, settings, loc) for loc in locs]
    link_skills(results, settings)
    return settings, results


@covers("SHADOWED")
def test_same_name_in_a_later_root_is_shadowed(tmp_path: Path):
    write_skill(tmp_path / "a", "demo", skill_text())
    write_skill(tmp_path / "b", "demo", skill_text())
    _, results = _ws(tmp_path, "a", "b")
    winner, loser = results
    assert winner.cross == []
    f = only(loser.cross, "SHADOWED")
    assert f.severity is W
    assert loser.doc is not None and rng(loser.doc, f) == ((1, 6), (1, 10))
    assert f.data == {"name": "demo", "winner": winner.path}
    assert f.related[0].path == winner.path


@covers("DUPLICATE_NAME")
def test_two_folders_in_one_root_with_one_name(tmp_path: Path):
    # NFKC makes the fullwidth folder match its name, so both skills are valid and collide.
    write_skill(tmp_path / "a", "demo", skill_text())
    write_skill(tmp_path / "a", "\uff44\uff45\uff4d\uff4f", skill_text())
    _, results = _ws(tmp_path, "a")
    assert [codes(r.cross) for r in results] == [["DUPLICATE_NAME"], ["DUPLICATE_NAME"]]
    f = results[0].cross[0]
    assert f.severity is W
    assert f.related[0].path == results[1].path


@covers("OUTSIDE_WORKSPACE")
def test_symlinked_skill_outside_the_roots(tmp_path: Path):
    outside = write_skill(tmp_path / "elsewhere", "demo", skill_text()).parent
    (tmp_path / "a").mkdir()
    os.symlink(outside, tmp_path / "a" / "demo")
    _, results = _ws(tmp_path, "a")
    f = only(results[0].findings, "OUTSIDE_WORKSPACE")
    assert f.severity is E and (f.start, f.end) == (0, 0)
    assert results[0].doc is None  # never read


@covers("SENSITIVE")
def test_skill_under_secrets_is_sensitive(tmp_path: Path):
    write_skill(tmp_path / "team" / "secrets", "demo", skill_text())
    _, results = _ws(tmp_path, "team/secrets")
    f = only(results[0].findings, "SENSITIVE")
    assert f.severity is E
    assert results[0].doc is None


@covers("SKILL_FILE_CASE")
@pytest.mark.parametrize("filename", ["SKILL.MD", "Skill.md", "skill.MD"])
def test_case_variant_of_skill_md_is_reported_not_read(tmp_path: Path, filename: str):
    write_skill(tmp_path / "a", "demo", skill_text(), filename=filename)
    _, results = _ws(tmp_path, "a")
    f = only(results[0].findings, "SKILL_FILE_CASE")
    assert f.severity is E and (f.start, f.end) == (0, 0)
    assert f"'{filename}' is not 'SKILL.md'" in f.message
    assert results[0].doc is None


@covers("IO_ERROR")
def test_skill_md_that_is_a_directory(tmp_path: Path):
    (tmp_path / "a" / "demo" / "SKILL.md").mkdir(parents=True)
    _, results = _ws(tmp_path, "a")
    f = only(results[0].findings, "IO_ERROR")
    assert f.severity is E
    assert "directory" in f.message


# --------------------------------------------------------------------- settings


def test_severity_override_and_off():
    text = skill_text(extra="licence: x\nversion: v1")
    s = Settings(severity={"UNKNOWN_FIELD": Severity.ERROR, "INVALID_VERSION": None})
    _, fs = check(text, settings=s)
    assert [(f.code, f.severity) for f in fs] == [("UNKNOWN_FIELD", E)]


def test_clean_skill_has_no_findings():
    _, fs = check(skill_text(extra="license: MIT\nallowed-tools: Read Grep\nmetadata:\n  a: b"))
    assert fs == []


def test_two_trailing_spaces_are_a_hard_break_only_in_the_body():
    doc, fs = check("---  \nname: demo  \ndescription: d\n---\nhard  \nbreak\n")
    assert [rng(doc, f) for f in fs] == [((0, 3), (0, 5)), ((1, 10), (1, 12))]


@pytest.mark.parametrize("profile, severity", [("skill-tool", E), ("agentskills", E), ("claude-code", W), ("dsh", Severity.INFO)])
def test_name_mismatch_severity_follows_what_the_target_harness_does(profile, severity):
    from skill_lsp.engine import document
    from skill_lsp.engine import rules as engine_rules
    from skill_lsp.engine.targets import PROFILES

    doc = document.parse(skill_text(name="foo"), "/ws/bar/SKILL.md")
    fs = engine_rules.check(doc, engine_rules.Context(profile=PROFILES[profile]))
    assert only(fs, "NAME_MISMATCH").severity is severity


@covers("UNKNOWN_SKILL")
def test_unknown_skill_is_a_likely_typo_of_a_workspace_name(tmp_path):
    root = tmp_path / ".agents/skills"
    write_skill(root, "deploy", skill_text("deploy"))
    write_skill(root, "caller", skill_text("caller", extra="allowed-tools: Skill(deplyo) Skill(unrelated-thing)"))
    settings = Settings()
    results = [check_file(loc.path, settings, loc) for loc in scan_roots([str(root)], settings.sensitive_patterns)]
    from skill_lsp.engine.skillgraph import link_mentions

    link_mentions(results, settings)
    caller = next(r for r in results if r.name == "caller")
    f = only(caller.graph, "UNKNOWN_SKILL")
    # A hint (issue 26): on unseen repositories most near misses were commands of other tools.
    assert f.severity == Severity.HINT and caller.doc.text[f.start:f.end] == "deplyo"
    assert f.data["candidates"] == ["deploy"]  # 'unrelated-thing' resembles nothing: not reported


# --------------------------------------------------------------------- suppressions (engine/suppress.py)


@covers("UNUSED_SUPPRESSION")
def test_unused_suppression_is_reported_on_the_code_it_names():
    # More cases in test_suppress.py; here the code's default severity, range and tag.
    from skill_lsp.engine import suppress  # noqa: PLC0415
    from skill_lsp.engine.config import Settings  # noqa: PLC0415

    text = "---\nname: demo  # skill-lsp: ignore[NAME_INVALID, TRAILING_WHITESPACE]\ndescription: d\n---\n"
    doc = document.parse(text, "/virtual/demo/SKILL.md")
    sup = suppress.scan(doc)
    shown = suppress.shown(rules.check(doc, rules.Context()), sup, Settings(), doc.path, "local")
    f = only(shown, "UNUSED_SUPPRESSION")
    assert f.severity is W and f.tags == ("unnecessary",)
    assert text[f.start:f.end] == "# skill-lsp: ignore[NAME_INVALID, TRAILING_WHITESPACE]"  # all of it unused


@covers("LISTING_BUDGET")
def test_listing_budget_is_a_cross_skill_finding_on_the_skills_listed_by_name_only(tmp_path):
    import shutil

    from skill_lsp.engine.decisions import budget_findings
    from skill_lsp.engine.discover import discover
    from skill_lsp.engine.workspace import check_file

    case = Path(__file__).resolve().parents[2] / "capture" / "cases" / "listing-budget" / "skills"
    shutil.copytree(case, tmp_path / ".claude" / "skills")
    settings = Settings()
    results = [check_file(loc.path, settings, loc).slim(keep_text=False) for loc in discover(str(tmp_path), settings).locations]
    budget_findings(results, settings)
    hit: dict[str, list[str]] = {}
    for r in results:
        for f in r.cross:
            if f.code == "LISTING_BUDGET":
                hit.setdefault(f.data["harness"], []).append(os.path.basename(os.path.dirname(r.path)))
    assert sorted(hit["claude-code"]) == ["b23", "b24"]
    # Copilot CLI reads .claude/skills too; its 15,000-character budget holds 13 of these blocks
    # (b20, over its description limit, it never lists: a skip, not a budget finding).
    assert sorted(hit["copilot"]) == [f"b{i:02}" for i in range(13, 26) if i != 20]
    assert set(hit) == {"claude-code", "copilot"}
