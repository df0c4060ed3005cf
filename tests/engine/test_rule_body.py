"""Body rules (rules/body.py) as an author meets them: trailing whitespace, links, length and
size -- code, severity, exact range, message and fix data, and silence where nothing is wrong
(issue 15)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import check, check_raw, codes, only, rng, skill_text, write_skill
from skill_lsp.engine import document, rules
from skill_lsp.engine.findings import Severity, base_message
from skill_lsp.engine.rules import body as body_rule

E, W, INFO, H = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.HINT


def body_findings(body: str, code: str, **kw):
    doc, fs = check(skill_text(body=body), **kw)
    return doc, [f for f in fs if f.code == code]


# --------------------------------------------------------------------- trailing whitespace


def test_whitespace_only_and_trailing_blanks_are_told_apart():
    doc, fs = body_findings("# T \n \t \nx\t \n", "TRAILING_WHITESPACE")
    assert [(rng(doc, f), f.message) for f in fs] == [
        (((4, 3), (4, 4)), "trailing whitespace"),
        (((5, 0), (5, 3)), "line holds only whitespace"),
        (((6, 1), (6, 3)), "trailing whitespace"),
    ]
    assert all(f.severity is H and f.data == {"fix": "trim"} and f.tags == ("unnecessary",) for f in fs)


def test_a_hard_break_on_the_first_body_line_is_allowed_but_three_spaces_are_not():
    doc, fs = check("---\nname: demo\ndescription: Does a thing. Use when testing.\n---\nhard  \nthree   \nnext\n")
    assert codes(fs) == ["TRAILING_WHITESPACE"]
    assert rng(doc, fs[0]) == ((5, 5), (5, 8))


def test_two_blanks_other_than_spaces_are_no_hard_break():
    doc, fs = body_findings("tab \t\nnext\n", "TRAILING_WHITESPACE")
    assert [rng(doc, f) for f in fs] == [((4, 3), (4, 5))]


def test_a_line_of_two_spaces_is_no_hard_break():
    doc, fs = body_findings("a\n  \nb\n", "TRAILING_WHITESPACE")
    assert [(rng(doc, f), f.message) for f in fs] == [(((5, 0), (5, 2)), "line holds only whitespace")]


def test_trailing_blanks_at_the_end_of_a_file_without_frontmatter():
    # The first line is blank and the file ends in blanks without a line break: the backward
    # walk stops at the start of each line, never wrapping around the text.
    doc, fs = check(" \n# T\nx \t")
    tw = [f for f in fs if f.code == "TRAILING_WHITESPACE"]
    assert [(rng(doc, f), f.message) for f in tw] == [(((0, 0), (0, 1)), "line holds only whitespace"),
                                                      (((2, 1), (2, 3)), "trailing whitespace")]


@pytest.mark.parametrize("text, blank", [
    ("# T\nend ", " "),  # the last line, no line break after it
    ("# T\nend\t", "\t"),
    ("# T\nform\f\nnext\n", "\f"),  # form feed and vertical tab are blanks too
    ("# T\nvtab\v\nnext\n", "\v"),
    ("# T\rtab\t\rnext\r", "\t"),  # CR line breaks
    ("# T\r\nspace \r\nnext\r\n", " "),
])
def test_each_kind_of_trailing_blank_is_found_alone(text: str, blank: str):
    # One trailing blank per file, so the cheap pre-test in front of the scan must see each kind.
    doc, fs = check(text)
    [f] = [f for f in fs if f.code == "TRAILING_WHITESPACE"]
    assert doc.text[f.start:f.end] == blank


def test_trailing_blanks_inside_a_fenced_block_are_left_alone_but_not_after_it():
    body = "```py\nx = 1  \ny = 2 \n```\nafter \n"
    doc, fs = body_findings(body, "TRAILING_WHITESPACE")
    assert [rng(doc, f) for f in fs] == [((8, 5), (8, 6))]


def test_a_blank_line_right_after_an_indented_code_block_is_outside_it():
    doc, fs = body_findings("Intro.\n\n    code  \n   \nafter\n", "TRAILING_WHITESPACE")
    assert [(rng(doc, f), f.message) for f in fs] == [(((7, 0), (7, 3)), "line holds only whitespace")]


def test_trailing_blank_on_the_opening_fence_of_a_code_block_is_reported():
    # The block starts at its fence line's first character: blanks before it are outside.
    doc, fs = body_findings("x \n```\ncode \n```\n", "TRAILING_WHITESPACE")
    assert [rng(doc, f) for f in fs] == [((4, 1), (4, 2))]


# --------------------------------------------------------------------- link classification


@pytest.mark.parametrize("target, kind", [
    ("", "anchor"), ("#top", "anchor"), ("/plugin:skill", "command"), ("/uipath:run-flow", "command"),
    ("/a/b:c", "absolute"), ("C:\\x", "absolute"), ("c:/x", "absolute"), ("\\\\server\\share", "absolute"),
    ("file:x.md", "absolute"), ("file:///tmp/a", "absolute"), ("https://x.y", "url"), ("mailto:a@b", "url"),
    ("a+b.c-d:x", "url"), ("/x", "absolute"), ("~/x", "absolute"), ("~\\x", "absolute"), ("~", "absolute"),
    ("~x", "relative"), ("refs/a.md", "relative"), ("1ab:x", "relative"), ("a_b:x", "relative"),
])
def test_link_destinations_are_classified(target, kind):
    assert body_rule.classify(target) == kind


@pytest.mark.parametrize("target, path", [
    ("refs/a.md#sec", "refs/a.md"), ("refs/a.md?x=1#y", "refs/a.md"), ("my%20notes.md", "my notes.md"),
    ("refs\\a.md", "refs/a.md"), ("${CLAUDE_SKILL_DIR}/refs/a.md", "refs/a.md"),
    ("{baseDir}//refs/a.md", "refs/a.md"), ("./refs/../a.md", "a.md"), ("#only", ""), ("?q", ""),
    ("x/${CLAUDE_SKILL_DIR}/a.md", "x/${CLAUDE_SKILL_DIR}/a.md"), ("a.md?x=1?y=2", "a.md"), ("a.md#x#y", "a.md"),
    ("a.md#x?y", "a.md"),
])
def test_relative_paths_are_decoded_and_normalised(target, path):
    assert body_rule.relative_path(target) == path


@pytest.mark.parametrize("target, skill_dir, rel", [
    ("/s/demo/a.md", "/s/demo", "a.md"), ("/s/demo/a.md", "/s/demo/", "a.md"),
    ("file:///s/demo/my%20a.md", "/s/demo", "my a.md"), ("C:\\s\\demo\\a.md", "C:\\s\\demo", "a.md"),
    ("/s/demo/", "/s/demo", None), ("/s/demo", "/s/demo", None), ("/s/demo2/a.md", "/s/demo", None),
    ("/t/demo/a.md", "/s/demo", None), ("/s/MAX/a.md", "/s/MAX", "a.md"), ("/s/MAX/a.md", "/s/MAX//", "a.md"),
])
def test_absolute_targets_inside_the_skill_get_their_relative_form(target, skill_dir, rel):
    assert body_rule.absolute_to_relative(target, skill_dir) == rel


# --------------------------------------------------------------------- absolute links


def test_absolute_image_and_link_messages():
    doc, fs = body_findings("![img](/abs/p.png) [l](/abs/q.md)\n", "ABSOLUTE_LINK")
    assert [base_message(f) for f in fs] == [
        "absolute image target '/abs/p.png'; use a path relative to the skill folder",
        "absolute link target '/abs/q.md'; use a path relative to the skill folder"]
    assert [rng(doc, f) for f in fs] == [((4, 7), (4, 17)), ((4, 23), (4, 32))]
    assert all(f.severity is W and f.data == {"target": f.data["target"]} for f in fs)


@pytest.mark.parametrize("body, target", [
    ("[a](\\/etc/passwd)\n", "/etc/passwd"),  # a backslash escape
    ("[a](&#47;etc/passwd)\n", "/etc/passwd"),  # an entity
])
def test_an_escaped_absolute_target_alone_in_the_body_is_found(body, target):
    _, fs = body_findings(body, "ABSOLUTE_LINK")
    assert [f.data for f in fs] == [{"target": target}]


def test_an_absolute_reference_definition_is_reported_once_at_the_definition():
    doc, fs = body_findings("See [guide][g] and [guide][g].\n\n[g]: /opt/guide.md\n", "ABSOLUTE_LINK")
    assert [rng(doc, f) for f in fs] == [((6, 5), (6, 18))]


def test_a_link_into_the_skill_by_its_absolute_path_names_the_relative_form(tmp_path: Path):
    skill = write_skill(tmp_path, "demo", "")
    target = f"{tmp_path}/demo/refs/notes.md"
    text = skill_text(body=f"[n]({target}) [o](/etc/hosts)\n")
    skill.write_text(text)
    doc, fs = check(text, path=str(skill), on_disk=True)
    found = [f for f in fs if f.code == "ABSOLUTE_LINK"]
    assert base_message(found[0]) == (f"absolute link target '{target}'; use a path relative to the skill folder "
                                      "('refs/notes.md')")
    assert found[0].data == {"target": target, "relative": "refs/notes.md"}
    assert found[1].data == {"target": "/etc/hosts"}


def test_a_document_without_a_path_gets_no_relative_form():
    # An unsaved buffer: its folder is unknown, so '/s/x.md' is not "x.md relative to '/'".
    doc = document.parse(skill_text(body="[a](/s/x.md)\n"), "")
    [f] = rules.check(doc, rules.Context())
    assert (f.code, f.data) == ("ABSOLUTE_LINK", {"target": "/s/x.md"})


def test_urls_anchors_and_commands_are_not_file_links():
    _, fs = check_raw(skill_text(body="[a](https://x.y/z) [b](#top) [c](/uipath:run) [d](mailto:a@b.c) [e]()\n"),
                      files=frozenset({"SKILL.md"}))
    assert fs == []


def test_links_in_code_are_not_links():
    _, fs = check(skill_text(body="`[a](/x)` and\n\n    [b](/y)\n\n```\n[c](/z)\n```\n"))
    assert fs == []


# --------------------------------------------------------------------- links that leave the skill


def test_links_that_climb_out_are_info_with_the_target_as_written():
    body = "[a](../x.md) [b](..) [c](sub/../../y.md) [r][ref]\n\n[ref]: <../z.md>\n"
    doc, fs = body_findings(body, "LINK_OUTSIDE_SKILL")
    assert [(rng(doc, f), f.data) for f in fs] == [
        (((4, 4), (4, 11)), {"target": "../x.md"}), (((4, 17), (4, 19)), {"target": ".."}),
        (((4, 25), (4, 39)), {"target": "sub/../../y.md"}), (((6, 8), (6, 15)), {"target": "../z.md"})]
    assert all(f.severity is INFO for f in fs)
    assert base_message(fs[0]) == "link '../x.md' leaves the skill folder; harnesses install the folder alone"


@pytest.mark.parametrize("body, target, span", [
    ("[up](..)\n", "..", ((4, 5), (4, 7))),
    ("[up](../)\n", "../", ((4, 5), (4, 8))),
    ("[up](a/../..)\n", "a/../..", ((4, 5), (4, 12))),
])
def test_a_link_to_the_parent_folder_alone_in_a_body_is_outside(body, target, span):
    doc, fs = body_findings(body, "LINK_OUTSIDE_SKILL")
    assert [(rng(doc, f), f.data) for f in fs] == [(span, {"target": target})]


def test_an_absolute_target_spelled_with_an_entity_an_escape_and_a_percent_sign():
    doc, fs = body_findings("[a](&#47;etc\\_x%20y)\n", "ABSOLUTE_LINK")
    assert [(rng(doc, f), f.data) for f in fs] == [(((4, 4), (4, 19)), {"target": "/etc_x%20y"})]


def test_a_link_out_of_the_skill_to_nothing_on_disk_is_broken(tmp_path: Path):
    text = skill_text(body="[gone](../shared/gone.md) [there](../shared/there.md)\n")
    skill = write_skill(tmp_path, "demo", text)
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "there.md").write_text("x")
    doc, fs = check(text, path=str(skill), on_disk=True)
    broken = only(fs, "BROKEN_LINK")
    assert base_message(broken) == "link target '../shared/gone.md' does not exist (and it leaves the skill folder)"
    assert broken.data == {"target": "../shared/gone.md", "path": "../shared/gone.md"}
    assert rng(doc, broken) == ((4, 7), (4, 24))
    assert only(fs, "LINK_OUTSIDE_SKILL").data == {"target": "../shared/there.md"}


def test_a_link_out_of_the_skill_counted_from_the_wrong_folder_names_the_one_that_exists(tmp_path: Path):
    # Held-out unseen24: `packages/itil/skills/x/` linked `../../../docs/decisions/a.md`, which
    # is `../../../../docs/decisions/a.md` from there.
    text = skill_text(body="[up](../docs/a.md) [down](../../../b.md) [none](../../c.md)\n")
    skill = write_skill(tmp_path / "repo" / "skills", "demo", text)
    (tmp_path / "repo" / "docs").mkdir()
    (tmp_path / "repo" / "docs" / "a.md").write_text("x")
    (tmp_path / "repo" / "b.md").write_text("x")
    doc, fs = check(text, path=str(skill), on_disk=True)
    broken = [f for f in fs if f.code == "BROKEN_LINK"]
    assert [base_message(f) for f in broken] == [
        "link target '../docs/a.md' does not exist (and it leaves the skill folder); '../../docs/a.md' does",
        "link target '../../../b.md' does not exist (and it leaves the skill folder); '../../b.md' does",
        "link target '../../c.md' does not exist (and it leaves the skill folder)"]
    assert [f.data.get("replacement") for f in broken] == ["../../docs/a.md", "../../b.md", None]


def test_with_link_checks_off_a_missing_outside_target_is_only_outside(tmp_path: Path):
    from skill_lsp.engine.config import Settings
    from skill_lsp.engine.workspace import check_file

    skill = write_skill(tmp_path, "demo", skill_text(body="[gone](../gone.md)\n"))
    r = check_file(str(skill), Settings(check_links=False))
    assert codes(r.findings) == ["LINK_OUTSIDE_SKILL"]


# --------------------------------------------------------------------- broken links


def test_broken_links_in_their_every_form_are_reported_with_the_normalised_path():
    body = ("[a](${CLAUDE_SKILL_DIR}/refs/x.md) [b]({baseDir}//y.md) [c](z.md?q=1) [d](refs\\\\w.md) "
            "[ok](refs/a.md) [dir](refs/) [dot](.) [here](./)\n")
    doc, fs = check_raw(skill_text(body=body), files=frozenset({"SKILL.md", "refs/a.md", "refs/"}))
    assert codes(fs) == ["BROKEN_LINK"] * 4
    assert [f.data for f in fs] == [
        {"target": "${CLAUDE_SKILL_DIR}/refs/x.md", "path": "refs/x.md"},
        {"target": "{baseDir}//y.md", "path": "y.md"},
        {"target": "z.md?q=1", "path": "z.md"},
        {"target": "refs\\w.md", "path": "refs/w.md"}]
    assert base_message(fs[0]) == "link target 'refs/x.md' does not exist in the skill folder"
    assert rng(doc, fs[1]) == ((4, 39), (4, 54))
    assert all(f.severity is W for f in fs)


def test_links_to_the_skill_folder_itself_do_not_stop_the_checks():
    _, fs = check_raw(skill_text(body="[here](./) [top](.) [q](?x=1) [gone](missing.md)\n"),
                      files=frozenset({"SKILL.md"}))
    assert [f.data for f in fs] == [{"target": "missing.md", "path": "missing.md"}]


def test_a_percent_encoded_missing_target_alone_is_found():
    _, fs = check_raw(skill_text(body="[a](my%20notes.md)\n"), files=frozenset({"SKILL.md"}))
    assert [f.data for f in fs] == [{"target": "my%20notes.md", "path": "my notes.md"}]


def test_a_missing_reference_definition_target_alone_is_found():
    doc, fs = check_raw(skill_text(body="[guide][g]\n\n[g]:\n  refs/guide.md\n"), files=frozenset({"SKILL.md"}))
    f = only(fs, "BROKEN_LINK")
    assert rng(doc, f) == ((7, 2), (7, 15))


def test_broken_links_in_fenced_code_are_silent_and_one_beside_them_is_not():
    code = "```md\n[in](missing-in-code.md)\n```\n\n~~~~\n```\n[deeper](gone.md)\n~~~~\n"
    _, fs = check_raw(skill_text(body=code), files=frozenset({"SKILL.md"}))
    assert fs == []
    doc, fs = check_raw(skill_text(body=code + "\nSee [out](missing-out.md).\n"), files=frozenset({"SKILL.md"}))
    assert [f.data for f in fs] == [{"target": "missing-out.md", "path": "missing-out.md"}]
    # An unclosed fence runs to the end: what follows it is code too.
    _, fs = check_raw(skill_text(body="```\n[a](gone.md)\n\nprose [b](gone2.md)\n"), files=frozenset({"SKILL.md"}))
    assert fs == []


@pytest.mark.parametrize("target, path", [("nope/", "nope"), ("refs//gone.md", "refs/gone.md"),
                                          ("./gone.md", "gone.md"), ("refs/./x/../gone.md", "refs/gone.md")])
def test_a_broken_link_names_the_normalised_path(target: str, path: str):
    _, fs = check_raw(skill_text(body=f"[a]({target})\n"), files=frozenset({"SKILL.md", "refs/"}))
    assert [f.data for f in fs] == [{"target": target, "path": path}]
    assert base_message(fs[0]) == f"link target '{path}' does not exist in the skill folder"


def test_links_to_existing_files_are_silent():
    _, fs = check_raw(skill_text(body="[a](refs/a.md) [b](refs/a.md#part) [c](./refs/)\n"),
                      files=frozenset({"SKILL.md", "refs/a.md", "refs/"}))
    assert fs == []


def test_broken_links_need_link_checks_on(tmp_path: Path):
    doc = document.parse(skill_text(body="[a](missing.md)\n"), f"{tmp_path}/demo/SKILL.md")
    ctx = rules.Context(check_links=False, _files=frozenset({"SKILL.md"}))
    assert rules.check(doc, ctx) == []
    ctx = rules.Context(check_links=True, _files=frozenset({"SKILL.md"}))
    assert codes(rules.check(doc, ctx)) == ["BROKEN_LINK"]


# --------------------------------------------------------------------- length and size


def test_body_length_counts_a_last_line_without_a_break():
    _, fs = check(skill_text(body="x\n" * 549 + "y"))
    assert fs == []  # 550 lines: within 10 % of 500
    doc, fs = check(skill_text(body="x\n" * 550 + "y"))
    f = only(fs, "BODY_TOO_LONG")
    assert rng(doc, f) == ((504, 0), (504, 1))
    assert f.data == {"lines": 551}


def test_body_length_message_groups_thousands():
    _, fs = check(skill_text(body="x\n" * 1200))
    f = only(fs, "BODY_TOO_LONG")
    assert base_message(f) == "body is 1,200 lines; keep SKILL.md under 500 lines and move detail into references/"
    assert f.severity is W


def test_instructions_just_over_ten_percent_above_the_budget_are_reported():
    # 22,000 ASCII characters estimate 5,500 tokens: within 10 % of 5,000, silent.
    _, fs = check(skill_text(body="a" * 21_999 + "\n"))
    assert fs == []
    doc, fs = check(skill_text(body="a" * 22_000 + "\n"))
    f = only(fs, "SKILL_TOO_LARGE")
    assert f.data == {"tokens": 5501}
    assert base_message(f) == ("instructions are about 5,501 tokens; the spec recommends under 5,000 "
                               "(offline estimate)")
    assert rng(doc, f) == ((4, 0), (4, 22_000))
    assert f.severity is H  # under 1.5 times the recommendation


def test_size_findings_are_warnings_from_one_and_a_half_times_the_recommendation():
    # 749 body lines and 7,499 estimated tokens are hints; 750 lines and 7,500 tokens warnings.
    for lines, severity in ((749, H), (750, W)):
        _, fs = check(skill_text(body="x\n" * lines))
        assert only(fs, "BODY_TOO_LONG").severity is severity, lines
    for chars, severity in ((29_995, H), (29_996, W)):
        _, fs = check(skill_text(body="a" * chars + "\n"))
        f = only(fs, "SKILL_TOO_LARGE")
        assert (f.data, f.severity) == ({"tokens": -(-(chars + 1) // 4)}, severity), chars


def test_a_body_over_both_recommendations_gets_one_finding_for_the_larger_excess():
    # 1,200 lines of 8 characters: 2.4 times the lines, 2,400 tokens (under 5,500): lines alone.
    _, fs = check(skill_text(body="abcdefg\n" * 1200))
    assert codes(fs) == ["BODY_TOO_LONG"] and only(fs, "BODY_TOO_LONG").data == {"lines": 1200}
    # 600 lines (1.2 times) of 60 characters: 9,000 tokens (1.8 times): the size, naming the lines.
    _, fs = check(skill_text(body=("a" * 59 + "\n") * 600))
    f = only(fs, "SKILL_TOO_LARGE")
    assert codes(fs) == ["SKILL_TOO_LARGE"] and f.data == {"tokens": 9000, "lines": 600} and f.severity is W
    assert base_message(f) == ("instructions are about 9,000 tokens in a body of 600 lines; the spec recommends "
                               "under 5,000 (offline estimate)")
    # 1,500 lines (3 times) of 20 characters: 7,500 tokens (1.5 times): the lines, naming the size.
    _, fs = check(skill_text(body=("a" * 19 + "\n") * 1500))
    f = only(fs, "BODY_TOO_LONG")
    assert codes(fs) == ["BODY_TOO_LONG"] and f.data == {"lines": 1500, "tokens": 7500} and f.severity is W
    assert base_message(f) == ("body is 1,500 lines (about 7,500 tokens); keep SKILL.md under 500 lines and move "
                               "detail into references/")


def test_a_short_body_in_a_non_latin_script_can_be_over_the_budget():
    # Regression: a cheap length bound of two characters per token skipped bodies under
    # 10,000 characters, but each CJK character is a token of its own.
    doc, fs = check(skill_text(body="\u6f22" * 6000 + "\n"))
    f = only(fs, "SKILL_TOO_LARGE")
    assert f.data == {"tokens": 6001}
    _, fs = check(skill_text(body="\u6f22" * 5499 + "\n"))
    assert fs == []
