"""Every profile in PROFILES: unknown-field severity, name charset, booleans, allowed-tools form."""

from __future__ import annotations

import pytest

from helpers import check, codes, only, rng, skill_text
from skill_lsp.engine.findings import Severity
from skill_lsp.engine.targets import PROFILES

ALL = ["skill-tool", "agentskills", "claude-code", "dsh"]


def test_profile_table_is_what_these_tests_cover():
    assert sorted(PROFILES) == sorted(ALL)


@pytest.mark.parametrize(("profile", "severity"), [
    ("skill-tool", None), ("agentskills", Severity.ERROR), ("claude-code", None), ("dsh", None),
])
def test_unknown_field_severity_per_profile(profile: str, severity: Severity | None):
    # skills-ref rejects any extra field; the other targets ignore a custom one.
    doc, fs = check(skill_text(extra="author: Jane"), profile=profile)
    if severity is None:
        assert "UNKNOWN_FIELD" not in codes(fs)
        return
    f = only(fs, "UNKNOWN_FIELD")
    assert f.severity is severity
    assert rng(doc, f) == ((3, 0), (3, 6))


@pytest.mark.parametrize("name", ["技能", "café", "naïve-ünïcode", "数据-2"])
def test_unicode_names_are_valid_only_under_agentskills(name: str):
    for profile in ALL:
        _, fs = check(skill_text(name=name), folder=name, profile=profile)
        if profile == "agentskills":
            assert fs == [], profile
        else:
            assert codes(fs) == ["NAME_INVALID"], profile


def test_agentskills_applies_nfkc_before_the_charset_check():
    # Fullwidth letters NFKC-normalise to ASCII; the folder matches after NFKC too.
    _, fs = check(skill_text(name="\uff44\uff45\uff4d\uff4f"), folder="demo", profile="agentskills")
    assert fs == []


@pytest.mark.parametrize("profile", ALL)
def test_uppercase_unicode_name_is_invalid_everywhere(profile: str):
    _, fs = check(skill_text(name="Café"), folder="Café", profile=profile)
    f = only(fs, "NAME_INVALID")
    assert "lowercase" in f.message


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "1", "0", "true", "false"])
def test_dsh_accepts_string_booleans(word: str):
    _, fs = check(skill_text(extra=f'user-invocable: "{word}"'), profile="dsh")
    assert fs == []


@pytest.mark.parametrize("profile", ["skill-tool", "claude-code"])
def test_string_booleans_are_invalid_value_elsewhere(profile: str):
    doc, fs = check(skill_text(extra='disable-model-invocation: "off"'), profile=profile)
    f = only(fs, "INVALID_VALUE")
    assert f.data == {"field": "disable-model-invocation", "boolean": False}
    assert rng(doc, f) == ((3, 26), (3, 31))


def test_dsh_accepts_unquoted_zero_and_one():
    _, fs = check(skill_text(extra="user-invocable: 0"), profile="dsh")
    assert fs == []
    _, fs = check(skill_text(extra="user-invocable: 0"), profile="skill-tool")
    assert codes(fs) == ["INVALID_TYPE"]


@pytest.mark.parametrize(("profile", "severity"), [
    ("skill-tool", Severity.WARNING), ("agentskills", Severity.WARNING),
    ("claude-code", Severity.WARNING), ("dsh", Severity.ERROR),
])
def test_camelcase_severity_per_profile(profile: str, severity: Severity):
    _, fs = check(skill_text(extra="userInvocable: true"), profile=profile)
    assert only(fs, "CAMELCASE_FIELD").severity is severity


@pytest.mark.parametrize("profile", ["skill-tool", "claude-code", "dsh"])
def test_allowed_tools_list_or_comma_string_is_fine(profile: str):
    for extra in ("allowed-tools: [Read, Grep]", "allowed-tools: Read, Grep", "allowed-tools: Read Bash(git:*)"):
        _, fs = check(skill_text(extra=extra), profile=profile)
        assert fs == [], (profile, extra)


def test_agentskills_allowed_tools_list_is_invalid_type_with_convert_data():
    doc, fs = check(skill_text(extra="allowed-tools: [Read, Grep]"), profile="agentskills")
    f = only(fs, "INVALID_TYPE")
    assert f.data == {"field": "allowed-tools", "expected": "string", "convert": "to-string"}
    assert rng(doc, f) == ((3, 15), (3, 27))


def test_agentskills_allowed_tools_commas_are_invalid_value():
    doc, fs = check(skill_text(extra="allowed-tools: Read, Grep"), profile="agentskills")
    f = only(fs, "INVALID_VALUE")
    assert f.data == {"field": "allowed-tools", "convert": "commas-to-spaces"}


def test_agentskills_commas_inside_parentheses_are_fine():
    _, fs = check(skill_text(extra="allowed-tools: Bash(git log:*,git tag:*) Read"), profile="agentskills")
    assert fs == []


@pytest.mark.parametrize("profile", ALL)
def test_allowed_tools_mapping_is_invalid_type(profile: str):
    _, fs = check(skill_text(extra="allowed-tools:\n  a: b"), profile=profile)
    assert codes(fs) == ["INVALID_TYPE"]


def test_claude_code_knows_its_fields():
    extra = ("when_to_use: x\nargument-hint: '[p]'\nmodel: opus\neffort: high\ncontext: fork\nagent: Plan\n"
             "shell: bash\npaths: ['**/*.py']\nhooks: {}\ndisallowed-tools: Bash\nbackground: true\n"
             "disable-model-invocation: true\nuser-invocable: false")
    # A body with steps: a forked skill needs a task (FORK_WITHOUT_TASK).
    _, fs = check(skill_text(extra=extra, body="\n1. Run the checks.\n"), profile="claude-code")
    assert fs == []


def test_skill_tool_defers_claude_code_fields():
    extra = "context: fork\nagent: Plan\nhooks: {}\nmodel: opus\neffort: high\npaths: x\nshell: bash\nwhen_to_use: x"
    _, fs = check(skill_text(extra=extra, body="\n1. Run the checks.\n"), profile="skill-tool")
    assert codes(fs) == ["DEFERRED_FIELD"] * 8
    assert {f.severity for f in fs} == {Severity.INFO}


def test_agentskills_rejects_claude_code_fields():
    _, fs = check(skill_text(extra="argument-hint: x\nversion: 1.0.0"), profile="agentskills")
    assert codes(fs) == ["UNKNOWN_FIELD", "UNKNOWN_FIELD"]
    assert {f.severity for f in fs} == {Severity.ERROR}


def test_dsh_knows_when_to_use_in_camelcase():
    _, fs = check(skill_text(extra="whenToUse: x"), profile="dsh")
    assert fs == []
    _, fs = check(skill_text(extra="whenToUse: x"), profile="skill-tool")
    assert only(fs, "CAMELCASE_FIELD").data == {"field": "whenToUse", "replacement": "when_to_use"}
