"""rules/fields.py as an author sees it: each finding on a small skill pinned whole --
code, severity, (line, character) range, message and data -- and silence where the
value is fine. test_rules.py has one test per code; these cover the shapes in between.
"""

from __future__ import annotations

import pytest

from helpers import check, check_raw, rng, skill_text
from skill_lsp.engine import document, rules
from skill_lsp.engine.findings import Finding, Severity
from skill_lsp.engine.rules import fields
from skill_lsp.engine.targets import PROFILES


def seen(doc: document.SkillDocument, findings: list[Finding], *wanted: str) -> list[tuple]:
    """(code, severity, range, message, data) of each finding, or of those with a ``wanted`` code."""
    return [(f.code, f.severity.label, rng(doc, f), f.message, f.data)
            for f in findings if not wanted or f.code in wanted]


def findings(extra: str, profile: str = "skill-tool", *wanted: str) -> list[tuple]:
    doc, fs = check(skill_text(extra=extra), profile=profile)
    return seen(doc, fs, *wanted)


# --------------------------------------------------------------------- arguments

ARG = {"field": "arguments"}

ARGUMENTS = """arguments:
  path:
    type: int
    required: maybe
    default: x
    colour: red
  2nd:
    required: true
  mode: x
  "x-y": {}
  ? [a]
  : ~
  _ok:
    type: string
  Later:"""


@pytest.mark.parametrize("profile", ["skill-tool", "claude-code"])
def test_each_problem_of_a_named_arguments_declaration(profile):
    assert findings(ARGUMENTS, profile) == [
        ("INVALID_ARGUMENTS", "error", ((5, 10), (5, 13)),
         "argument 'path' has type 'int'; named arguments are strings in v1", ARG),
        ("INVALID_ARGUMENTS", "error", ((6, 14), (6, 19)), "'required' of argument 'path' must be true or false", ARG),
        ("INVALID_ARGUMENTS", "error", ((8, 4), (8, 10)),
         "unknown key 'colour' in argument 'path' (type, required, description)", ARG),
        ("INVALID_ARGUMENTS", "error", ((9, 2), (9, 5)),
         "argument name '2nd' cannot be used as ${2nd}; use letters, digits and _", ARG),
        ("INVALID_ARGUMENTS", "error", ((11, 8), (11, 9)),
         "argument 'mode' must be a mapping with type, required or description", ARG),
        ("INVALID_ARGUMENTS", "error", ((12, 2), (12, 7)),
         "argument name 'x-y' cannot be used as ${x-y}; use letters, digits and _", ARG),
        # A key that is not a string has no name to substitute.
        ("INVALID_ARGUMENTS", "error", ((13, 4), (13, 7)),
         "argument name '' cannot be used as ${}; use letters, digits and _", ARG),
    ]


def test_empty_argument_settings_point_at_one_character():
    # In a flow mapping `{type, required}` both values are empty: the finding still has a width.
    extra = "arguments:\n  path: {type, required}\n  mode:\n    type:\n    description: Which mode"
    assert findings(extra) == [
        ("INVALID_ARGUMENTS", "error", ((4, 13), (4, 14)),
         "argument 'path' has type None; named arguments are strings in v1", ARG),
        ("INVALID_ARGUMENTS", "error", ((4, 23), (4, 24)), "'required' of argument 'path' must be true or false", ARG),
        ("INVALID_ARGUMENTS", "error", ((6, 9), (7, 0)),
         "argument 'mode' has type None; named arguments are strings in v1", ARG),
    ]


def test_a_flow_mapping_of_arguments_is_checked_like_a_block_one():
    # Where names may also be a string or a list (Claude Code), a `{...}` mapping is still a declaration.
    assert findings("arguments: {2nd: {type: [string]}, path: {required: [true]}}", "claude-code") == [
        ("INVALID_ARGUMENTS", "error", ((3, 12), (3, 15)),
         "argument name '2nd' cannot be used as ${2nd}; use letters, digits and _", ARG),
        ("INVALID_ARGUMENTS", "error", ((3, 24), (3, 32)),
         "argument '2nd' has type None; named arguments are strings in v1", ARG),
        ("INVALID_ARGUMENTS", "error", ((3, 52), (3, 58)), "'required' of argument 'path' must be true or false", ARG),
    ]


def test_arguments_must_be_a_mapping_unless_the_target_takes_names():
    message = "'arguments' must declare named arguments as a mapping (name: {type, required, description})"
    assert findings("arguments: path") == [("INVALID_ARGUMENTS", "error", ((3, 11), (3, 15)), message, ARG)]
    # Claude Code also takes a string or a list of names, but not a number.
    assert findings("arguments: 3", "claude-code") == [("INVALID_ARGUMENTS", "error", ((3, 11), (3, 12)), message, ARG)]
    assert findings("arguments: path mode", "claude-code") == []
    assert findings("arguments: [path, mode]", "claude-code") == []


# --------------------------------------------------------------------- allowed-tools and other typed fields

TOOLS_STRING_OR_LIST = {"field": "allowed-tools", "expected": "string or list"}


@pytest.mark.parametrize("profile", ["skill-tool", "agentskills"])
@pytest.mark.parametrize("value,expected", [
    ("[Read, [Bash]]", [("INVALID_TYPE", "error", ((3, 15), (3, 29)),
                         "'allowed-tools' must be a list of tool names (strings)",
                         {"field": "allowed-tools", "expected": "string list"})]),
    ("3", [("INVALID_TYPE", "error", ((3, 15), (3, 16)),
            "'allowed-tools' must be a string or a list of tool names, not the number 3", TOOLS_STRING_OR_LIST)]),
    ("true", [("INVALID_TYPE", "error", ((3, 15), (3, 19)),
               "'allowed-tools' must be a string or a list of tool names, not the boolean true", TOOLS_STRING_OR_LIST)]),
    ("{Read: yes}", [("INVALID_TYPE", "error", ((3, 15), (3, 26)),
                      "'allowed-tools' must be a string or a list of tool names, not a mapping", TOOLS_STRING_OR_LIST)]),
    ("Read Grep", []),
])
def test_allowed_tools_of_the_wrong_type(profile, value, expected):
    assert findings(f"allowed-tools: {value}", profile) == expected


def test_an_allowed_tools_list_is_fine_except_where_only_the_string_is_specified():
    assert findings("allowed-tools: [Read, Grep]") == []
    assert findings("allowed-tools: [Read, Grep]", "agentskills") == [
        ("INVALID_TYPE", "error", ((3, 15), (3, 27)),
         "'allowed-tools' is a list; the agentskills spec defines a space-separated string "
         "(skills-ref passes lists through unvalidated, other tools reject them)",
         {"field": "allowed-tools", "expected": "string", "convert": "to-string"}),
    ]


@pytest.mark.parametrize("value,reported", [
    ("Read, Grep", True),
    ("Bash(git:*), Read", True),  # the comma after a closed pattern separates tools
    ("Bash(git add, git commit) Read", False),  # a comma inside a pattern is part of it
    ("Bash(python -c print(1, 2)) Read", False),  # nested parentheses
    ("Bash(jq (.a), .b) Read", False),
    ("Read Grep", False),
])
def test_commas_between_tools_under_agentskills(value, reported):
    expected = [("INVALID_VALUE", "warning", ((3, 15), (3, 15 + len(value))),
                 "'allowed-tools' is space-separated in the agentskills spec; commas become part of tool names",
                 {"field": "allowed-tools", "convert": "commas-to-spaces"})]
    assert findings(f"allowed-tools: {value}", "agentskills") == (expected if reported else [])
    assert findings(f"allowed-tools: {value}", "skill-tool") == []  # takes commas


def test_string_fields_given_other_types():
    def invalid(key: str, what: str, start: int, end: int) -> tuple:
        return ("INVALID_TYPE", "error", ((3, start), (3, end)), f"'{key}' must be a string, not {what}",
                {"field": key, "expected": "string"})

    assert findings("compatibility: 3") == [invalid("compatibility", "the number 3", 15, 16)]
    assert findings("compatibility: [a]") == [invalid("compatibility", "a list", 15, 18)]
    assert findings("version: [1]") == [invalid("version", "a list", 9, 12)]
    # Claude Code lists it all the same, with `true` after the description (cases non-string-values,
    # copilot-argument-hint): a warning naming that.
    note = "Claude Code lists it with the value as JavaScript writes it after the description (a list's items joined by ',')"
    assert findings("when_to_use: true", "claude-code") == [(
        "INVALID_TYPE", "warning", ((3, 13), (3, 17)), f"'when_to_use' must be a string, not the boolean true; {note}",
        {"field": "when_to_use", "expected": "string", "harnesses": note})]
    assert findings("effort: [a]", "claude-code") == [invalid("effort", "a list", 8, 11)]


def test_list_or_string_and_hooks_fields_given_other_types():
    assert findings("paths: 3", "claude-code") == [
        ("INVALID_TYPE", "error", ((3, 7), (3, 8)), "'paths' must be a string or a list of strings, not the number 3",
         {"field": "paths", "expected": "string or list"})]
    assert findings("paths: {src: yes}", "claude-code") == [
        ("INVALID_TYPE", "error", ((3, 7), (3, 17)), "'paths' must be a string or a list of strings, not a mapping",
         {"field": "paths", "expected": "string or list"})]
    assert findings("paths: src/**", "claude-code") == []
    assert findings("paths: [src/**]", "claude-code") == []
    assert findings("hooks: [Stop]", "claude-code") == [
        ("INVALID_TYPE", "error", ((3, 7), (3, 13)), "'hooks' must be a mapping of hook events, not a list",
         {"field": "hooks", "expected": "mapping"})]
    assert findings("hooks: Stop", "claude-code") == [
        ("INVALID_TYPE", "error", ((3, 7), (3, 11)), "'hooks' must be a mapping of hook events, not a string",
         {"field": "hooks", "expected": "mapping"})]


@pytest.mark.parametrize("value,what,end", [("maybe", "a string", 21), ('""', "a string", 18), ("[a]", "a list", 19),
                                            ("{a: 1}", "a mapping", 22), ("2", "the number 2", 17)])
def test_boolean_field_given_something_else(value, what, end):
    expected = [("INVALID_TYPE", "error", ((3, 16), (3, end)),
                 f'frontmatter field "user-invocable" must be a boolean, not {what}',
                 {"field": "user-invocable", "expected": "boolean"})]
    assert findings(f"user-invocable: {value}") == expected
    assert findings(f"user-invocable: {value}", "dsh") == expected


def test_boolean_spelled_as_a_string_or_a_number():
    assert findings('user-invocable: "off"') == [
        ("INVALID_VALUE", "warning", ((3, 16), (3, 21)),
         "'user-invocable' is the string \"off\", not a boolean; write true or false unquoted",
         {"field": "user-invocable", "boolean": False})]
    assert findings("user-invocable: 1")[0][3] == 'frontmatter field "user-invocable" must be a boolean, not the number 1'
    for value in ('"off"', "yes", "1", "0"):  # DeepSeek Harness reads these as booleans
        assert findings(f"user-invocable: {value}", "dsh") == []


def test_lengths_and_emptiness_of_string_fields():
    assert findings("compatibility: " + "x" * 1200) == [
        ("TOO_LONG", "error", ((3, 15), (3, 1215)), "'compatibility' is 1,200 characters; the limit is 500",
         {"field": "compatibility", "limit": 500, "length": 1200})]
    assert findings("argument-hint: " + "h" * 200) == []  # at the limit
    assert findings("compatibility: '  '") == [
        ("EMPTY_FIELD", "error", ((3, 15), (3, 19)), "'compatibility' must be 1-500 characters",
         {"field": "compatibility"})]
    assert findings("compatibility: Requires Python 3.10+") == []
    assert findings("argument-hint: ' '") == []  # only compatibility must be non-empty


def test_a_block_collection_of_the_wrong_type_is_reported_at_its_key():
    # A block mapping starts at its first item's key, lines below: the key is where the field is
    # (unseen newkayak12/claude-skills); a flow one keeps its own span.
    assert findings("compatibility:\n  recommended: []\n  optional:\n    - think-tool") == [
        ("INVALID_TYPE", "error", ((3, 0), (3, 13)), "'compatibility' must be a string, not a mapping",
         {"field": "compatibility", "expected": "string"})]
    assert [f[2] for f in findings("compatibility: [a, b]")] == [((3, 15), (3, 21))]


def test_version_written_as_a_yaml_number():
    # `version: 1.0` and `version: 2` say what the author wrote (no harness reads version): quiet (issue 26).
    assert findings("version: 1.0") == []
    assert findings("version: 2") == []
    # `1.10` reads as the float 1.1: the number is not what was written.
    assert findings("version: 1.10") == [
        ("INVALID_VERSION", "warning", ((3, 9), (3, 13)),
         "'version' 1.10 is read as the number 1.1; quote it (\"1.10\") so the version stays as written",
         {"field": "version"})]
    assert findings('version: "2"') == []


@pytest.mark.parametrize("key", ["description_zh", "description_en", "name-ja", "description_zh-CN"])
def test_a_field_in_another_language_is_not_a_misspelling(key):
    # A catalogue's display field beside `description` (unseen majq1990/opencode-skills): not "did you
    # mean 'description'?".
    assert [f[0] for f in findings(f"{key}: x")] in ([], ["UNKNOWN_FIELD"])
    assert all("did you mean" not in f[3] for f in findings(f"{key}: x"))


def test_a_field_of_another_harness_is_not_a_misspelling():
    # `disallowed-tools` is Claude Code's field: under the skill tool it is unknown, not a typo of allowed-tools.
    assert findings("disallowed-tools: Bash") == []


# --------------------------------------------------------------------- license

UNKNOWN = "license \"{}\" is neither an SPDX identifier nor {}"


def licence(value: str, files: frozenset[str] | None) -> list[tuple]:
    text = skill_text(extra=f"license: {value}")
    doc, fs = check_raw(text, files=files) if files is not None else check(text)
    return seen(doc, fs)


FILES = frozenset({"SKILL.md", "LICENSE", "LICENSE.txt", "licenses/", "licenses/MIT.txt"})


@pytest.mark.parametrize("value", ["LICENSE", "(LICENSE)", "Terms in LICENSE.txt.", "See ./LICENSE",
                                   "licenses/MIT.txt", "MIT OR BSD-3-Clause", "(MIT AND Zlib)"])
def test_license_naming_a_bundled_file_or_an_spdx_expression_is_fine(value):
    assert licence(value, FILES) == []


@pytest.mark.parametrize("value", ["Proprietary", "All rights reserved.", "Apache 2.0", "CC BY-NC-SA 4.0",
                                   "Apache 2.0 (https://www.apache.org/licenses/LICENSE-2.0)"])
def test_a_license_named_as_people_write_it_is_fine(value):
    # The spec asks for a license's name or a bundled file; an SPDX id with spaces for its hyphens
    # names one too (unseen repositories: 1,807 infos on "Proprietary", 3 on "Apache 2.0 (url)").
    assert licence(value, FILES) == []


@pytest.mark.parametrize("value", ["Nope", "Custom.License", "mit or zlib", "MIT OR Nope", "See COPYING",
                                   "Apache License 2.0 or so"])
def test_license_that_is_neither_spdx_nor_a_bundled_file(value):
    # Information: no harness reads `license` (issue 26).
    assert licence(value, FILES) == [("UNKNOWN_LICENSE", "info", ((3, 9), (3, 9 + len(value))),
                                      UNKNOWN.format(value, "a file in the skill folder"), {"field": "license"})]


def test_license_of_an_unsaved_skill_cannot_be_checked_against_its_files():
    # A file name is given the benefit of the doubt; a path or a word is not.
    assert licence("LICENSE.txt", None) == []
    assert licence("MIT OR BSD-3-Clause", None) == []
    for value in ("licenses/MIT.txt", "Nope"):
        assert licence(value, None) == [("UNKNOWN_LICENSE", "info", ((3, 9), (3, 9 + len(value))),
                                         UNKNOWN.format(value, "a bundled file"), {"field": "license"})]


# --------------------------------------------------------------------- description, and the order of checks

EMPTY_DESCRIPTION = ("EMPTY_FIELD", "error", "'description' must be a non-empty string", {"field": "description"})


@pytest.mark.parametrize("value,expected", [
    ("", (EMPTY_DESCRIPTION, ((2, 0), (2, 11)))),  # null: on the key
    ("''", (EMPTY_DESCRIPTION, ((2, 13), (2, 15)))),
    ("'   '", (EMPTY_DESCRIPTION, ((2, 13), (2, 18)))),
    ("3", (("INVALID_TYPE", "error", "'description' must be a string, not the number 3",
            {"field": "description", "expected": "string"}), ((2, 13), (2, 14)))),
    ("true", (("INVALID_TYPE", "error", "'description' must be a string, not the boolean true",
               {"field": "description", "expected": "string"}), ((2, 13), (2, 17)))),
    ("é" * 1500, (("TOO_LONG", "error", "'description' is 1,500 characters; the limit is 1,024",
                   {"field": "description", "limit": 1024, "length": 1500}), ((2, 13), (2, 1513)))),
])
def test_the_description(value, expected):
    (code, sev, message, data), span = expected
    doc, fs = check(f"---\nname: demo\ndescription: {value}".rstrip() + "\n---\n")
    assert seen(doc, fs) == [(code, sev, span, message, data)]


def test_a_missing_description_is_reported_on_the_opening_fence():
    doc, fs = check("---\nname: demo\n---\n")
    assert seen(doc, fs) == [("MISSING_FIELD", "error", ((0, 0), (0, 3)),
                              "frontmatter missing required field 'description'", {"field": "description"})]


def test_fields_after_a_camelcase_or_deferred_key_are_still_checked():
    extra = "userInvocable: true\nversion: v1\nmodel: opus\nlicense: Nope"
    assert findings(extra) == [
        ("CAMELCASE_FIELD", "warning", ((3, 0), (3, 13)),
         'frontmatter field "userInvocable" is unsupported; use "user-invocable"',
         {"field": "userInvocable", "replacement": "user-invocable"}),
        ("INVALID_VERSION", "warning", ((4, 9), (4, 11)), "'version' \"v1\" is not a semantic version (e.g. 1.2.0)",
         {"field": "version"}),
        ("DEFERRED_FIELD", "info", ((5, 0), (5, 5)),
         "'model' is a Claude Code field the skill tool defers to v1.1 (spec 000 §4.4); it is preserved but has no "
         "effect", {"field": "model"}),
        ("UNKNOWN_LICENSE", "info", ((6, 9), (6, 13)), 'license "Nope" is neither an SPDX identifier nor a bundled file',
         {"field": "license"}),
    ]
    # DeepSeek Harness rejects the camelCase spelling; it ignores version and model.
    assert [f[:2] for f in findings(extra, "dsh")] == [("CAMELCASE_FIELD", "error"), ("UNKNOWN_LICENSE", "info")]


@pytest.mark.parametrize("profile,extra,expected", [
    ("dsh", "userInvocable: true", [("CAMELCASE_FIELD", Severity.ERROR)]),
    ("skill-tool", "userInvocable: true", [("CAMELCASE_FIELD", Severity.WARNING)]),
    ("agentskills", "author: me", [("UNKNOWN_FIELD", Severity.ERROR)]),
    ("claude-code", "licence: MIT", [("UNKNOWN_FIELD", Severity.WARNING)]),
])
def test_the_rule_itself_grades_what_only_some_targets_reject(profile, extra, expected):
    # fields.check is a rule of its own (the pipeline then applies the targets' table): its
    # severity already says whether the target rejects the key.
    doc = document.parse(skill_text(extra=extra), "/v/demo/SKILL.md")
    got = [(f.code, f.severity) for f in fields.check(doc, rules.Context(profile=PROFILES[profile]))]
    assert got == expected


def test_metadata_must_map_strings_to_strings():
    def wrong(what: str, end: int) -> list[tuple]:
        return [("INVALID_TYPE", "error", ((3, 10), (3, end)),
                 f"'metadata' must be a mapping of string keys to string values, not {what}",
                 {"field": "metadata", "expected": "mapping"})]

    assert findings("metadata: x") == wrong("a string", 11)
    assert findings("metadata: [a]") == wrong("a list", 13)
    assert findings("metadata:") == []
    extra = "metadata:\n  tags: [a, b]\n  'my key': 3\n  empty:\n  ok: yes-string\n  flag: true\n  nested: {a: b}"

    def value(shown: str, what: str, span: tuple, key: str, written: str | None, sev: str = "hint") -> tuple:
        return ("METADATA_NOT_STRING", sev, span,
                f"metadata value of '{shown}' is {what}; metadata values must be strings",
                {"key": key, "fixable": written is not None, "value": written})

    assert findings(extra) == [
        value("my key", "the number 3", ((5, 12), (5, 13)), "'my key'", "3"),  # the key as parsed, and as written
        value("empty", "empty (null)", ((6, 2), (6, 7)), "empty", None),  # no value to point at: the key
        value("flag", "the boolean true", ((8, 8), (8, 12)), "flag", "true"),
    ]
    # A hint by default (the skill tool keeps the value, no captured harness rejects the skill: issue 26),
    # and not for a list or a map there (no fix keeps one; two audits read 24 of 24 as noise);
    # a warning for each under the agentskills spec, which maps strings to strings.
    assert findings(extra, "agentskills", "METADATA_NOT_STRING") == [
        value("tags", "a list", ((4, 8), (4, 14)), "tags", None, "warning"),
        value("my key", "the number 3", ((5, 12), (5, 13)), "'my key'", "3", "warning"),
        value("empty", "empty (null)", ((6, 2), (6, 7)), "empty", None, "warning"),
        value("flag", "the boolean true", ((8, 8), (8, 12)), "flag", "true", "warning"),
        value("nested", "a mapping", ((9, 10), (9, 16)), "nested", None, "warning"),
    ]


@pytest.mark.parametrize("value", ["MIT license", "BSD-3-Clause License", "Apache-2.0 (see NOTICE)",
                                   "MIT License. Copyright 2025 someone"])
def test_an_spdx_identifier_with_words_around_it_is_a_license(value):
    assert licence(value, FILES) == []


def test_a_license_sentence_naming_a_file_of_the_repository(tmp_path):
    # npm's "SEE LICENSE IN LICENSE": the file is at the repository root, above the skill.
    (tmp_path / "LICENSE").write_text("terms\n")
    skill = tmp_path / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(skill_text(extra="license: SEE LICENSE IN LICENSE"))
    md = skill / "SKILL.md"
    assert check(md.read_text(), path=str(md), on_disk=True)[1] == []
    (tmp_path / "LICENSE").unlink()  # named nowhere on disk: reported
    assert [f.code for f in check(md.read_text(), path=str(md), on_disk=True)[1]] == ["UNKNOWN_LICENSE"]


def test_an_enum_value_outside_its_set():
    assert findings("effort: extreme", "claude-code") == [
        ("INVALID_VALUE", "warning", ((3, 8), (3, 15)), "'effort' must be one of low, medium, high, xhigh, max; got "
         "\"extreme\"", {"field": "effort", "values": ["low", "medium", "high", "xhigh", "max"]})]
    assert findings("effort: high", "claude-code") == []
