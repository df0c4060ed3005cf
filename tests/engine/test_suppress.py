"""Suppressions in the frontmatter, rule selection, per-file ignores and exclude globs (engine)."""

from __future__ import annotations

import os

import pytest

from helpers import write_skill
from skill_lsp.engine import document, pathglobs, selection, suppress
from skill_lsp.engine.config import Settings, merge
from skill_lsp.engine.discover import discover
from skill_lsp.engine.fixes import apply_edits, fixes_for
from skill_lsp.engine.workspace import check_file, check_text, fix_all_text

PATH = "/virtual/demo/SKILL.md"


def view(text: str, settings: Settings | None = None, scope: str = "local"):
    s = settings or Settings()
    doc, findings = check_text(text, PATH, s, on_disk=False)
    return doc, suppress.shown(findings, suppress.scan(doc), s, PATH, scope)


def codes(findings) -> list[str]:
    return [f.code for f in findings]


# --------------------------------------------------------------------------- directives

def test_a_comment_line_of_its_own_silences_the_code_in_the_whole_file():
    text = "---\n# skill-lsp: ignore[NAME_INVALID]\nname: Demo\ndescription: Does a thing.\n---\nBody\n"
    assert "NAME_INVALID" in codes(view(text.replace("# skill-lsp: ignore[NAME_INVALID]\n", ""))[1])
    assert codes(view(text)[1]) == []


def test_an_end_of_line_comment_silences_findings_starting_on_that_line_only():
    text = ("---\nname: demo\ndescription: Does a thing.\ncolor: red  # skill-lsp: ignore[UNKNOWN_FIELD]\n"
            "descripton: typo\n---\nBody\n")
    doc, shown = view(text, Settings(profile="agentskills", targets=("agentskills",)))
    unknown = [f for f in shown if f.code == "UNKNOWN_FIELD"]
    assert len(unknown) == 1 and doc.src.line_of(unknown[0].start) == 4  # `descripton`, not `color`


@pytest.mark.parametrize("value", [
    '"a # skill-lsp: ignore[NAME_INVALID]"',  # quoted: text of the value
    "|\n  text\n  # skill-lsp: ignore[NAME_INVALID]",  # block scalar: text the model reads
    "'first\n  # skill-lsp: ignore[NAME_INVALID]'",  # the second line of a quoted value
])
def test_a_directive_inside_a_value_is_text_not_a_suppression(value):
    text = f"---\nname: Demo\ndescription: {value}\n---\nBody\n"
    doc, shown = view(text)
    assert suppress.scan(doc) is None or not [d for d in suppress.scan(doc).directives if d.codes]
    assert "NAME_INVALID" in codes(shown)


def test_a_comment_line_after_a_plain_value_is_a_comment():
    # YAML ends the plain scalar at the comment line: harnesses drop it, so it is a directive.
    text = "---\nname: Demo\ndescription: plain\n  # skill-lsp: ignore[NAME_INVALID]\n---\nBody\n"
    assert "NAME_INVALID" not in codes(view(text)[1])


def test_several_codes_spaces_and_a_comment_after_other_text():
    text = "---\nname: Demo  # why: legacy   #  skill-lsp :  ignore[ NAME_INVALID ,UNKNOWN_FIELD ]\ndescription: d\n---\n"
    sup = suppress.scan(document.parse(text, PATH))
    assert sup is not None
    (d,) = sup.directives
    assert [c for c, _, _ in d.codes] == ["NAME_INVALID", "UNKNOWN_FIELD"]
    assert not d.file_wide and d.comment_start < d.start
    assert "NAME_INVALID" not in codes(view(text)[1])


def test_unparsed_frontmatter_reads_only_comment_lines_of_their_own_and_reports_none_unused():
    text = ("---\n# skill-lsp: ignore[INVALID_FRONTMATTER, NAME_INVALID]\nname: demo\n"
            "description: broken: colon # skill-lsp: ignore[MISSING_FIELD]\n---\nBody\n")
    doc, shown = view(text)
    assert not doc.frontmatter_ok
    sup = suppress.scan(doc)
    assert sup is not None and not sup.parsed
    assert [d.file_wide for d in sup.directives] == [True]  # the end-of-line one is not read
    assert shown == []  # INVALID_FRONTMATTER silenced; NAME_INVALID not called unused


def test_unclosed_frontmatter_has_no_directives():
    doc = document.parse("---\n# skill-lsp: ignore[INVALID_FRONTMATTER]\nname: demo\n", PATH)
    assert suppress.scan(doc) is None


def test_no_directive_costs_nothing_but_a_find():
    doc = document.parse("---\nname: demo\ndescription: d\n---\n# skill-lsp: ignore[X] in the body\n", PATH)
    assert suppress.scan(doc) is None  # the body is not the frontmatter


# --------------------------------------------------------------------------- unused

def test_unused_codes_are_reported_with_a_safe_fix_that_removes_only_them():
    text = "---\n# skill-lsp: ignore[NAME_INVALID, TRAILING_WHITESPACE, NOT_A_CODE]\nname: Demo\ndescription: d\n---\n"
    doc, shown = view(text)
    (f,) = shown
    assert f.code == "UNUSED_SUPPRESSION" and f.tags == ("unnecessary",)
    assert f.message == ("unused suppression: TRAILING_WHITESPACE (no TRAILING_WHITESPACE finding in this file); "
                         "NOT_A_CODE (unknown code)")
    (fix,) = fixes_for(doc, f)
    assert fix.safe
    assert apply_edits(text, list(fix.edits)).splitlines()[1] == "# skill-lsp: ignore[NAME_INVALID]"


def test_a_wholly_unused_directive_is_removed_with_its_line_or_its_comment():
    text = ("---\n# skill-lsp: ignore[TRAILING_WHITESPACE]\nname: demo  # skill-lsp: ignore[NAME_INVALID]\n"
            "description: d  # keep # skill-lsp: ignore[EMPTY_FIELD]\n---\nBody\n")
    fixed = fix_all_text(text, PATH, Settings(), on_disk=False, max_passes=5)
    # (on_disk=False: scope "none", nothing is unused) -- on disk the same text is fixed:
    assert fixed == text
    doc, shown = view(text)
    edits = [e for f in shown for e in fixes_for(doc, f)[0].edits]
    assert apply_edits(text, edits) == "---\nname: demo\ndescription: d  # keep\n---\nBody\n"


def test_malformed_and_empty_directives_are_reported():
    text = "---\nname: demo\n# skill-lsp: disable[NAME_INVALID]\ndescription: d  # skill-lsp: ignore[]\n---\n"
    shown = view(text)[1]
    assert [f.message for f in shown] == ["not a suppression: write `# skill-lsp: ignore[CODE, ...]`",
                                          "suppression names no codes"]


def test_a_code_off_in_this_run_is_not_called_unused():
    text = "---\n# skill-lsp: ignore[TRAILING_WHITESPACE, NAME_INVALID]\nname: demo\ndescription: d\n---\n"
    s, _ = merge(Settings(), {"ignore": ["TRAILING_WHITESPACE"], "severity": {"NAME_INVALID": "off"}}, "t")
    assert view(text, s)[1] == []


def test_cross_skill_codes_wait_for_the_cross_skill_findings():
    text = "---\nname: demo  # skill-lsp: ignore[SHADOWED]\ndescription: d\n---\n"
    assert view(text, scope="local")[1] == []  # not known yet: nothing said
    assert codes(view(text, scope="all")[1]) == ["UNUSED_SUPPRESSION"]  # known, and none came


def test_unused_suppression_itself_can_be_suppressed_and_its_severity_set():
    text = "---\n# skill-lsp: ignore[UNUSED_SUPPRESSION]\nname: demo  # skill-lsp: ignore[NAME_INVALID]\ndescription: d\n---\n"
    assert view(text)[1] == []
    s, _ = merge(Settings(), {"severity": {"UNUSED_SUPPRESSION": "error"}}, "t")
    (f,) = view(text.replace("# skill-lsp: ignore[UNUSED_SUPPRESSION]\n", ""), s)[1]
    assert f.severity.label == "error"


# --------------------------------------------------------------------------- inserting one

def test_insertion_on_a_frontmatter_line_ends_that_line():
    text = "---\nname: Demo\ndescription: d\n---\nBody\n"
    doc, shown = view(text)
    f = next(f for f in shown if f.code == "NAME_INVALID")
    fix = suppress.insertion(doc, f)
    assert fix is not None and fix.title == "Suppress NAME_INVALID on this line" and not fix.safe
    new = apply_edits(text, list(fix.edits))
    assert new == "---\nname: Demo  # skill-lsp: ignore[NAME_INVALID]\ndescription: d\n---\nBody\n"
    assert "NAME_INVALID" not in codes(view(new)[1])


def test_insertion_for_a_body_finding_or_inside_a_block_scalar_is_file_wide():
    text = "---\r\nname: demo\r\ndescription: |\r\n  two\r\n  lines\r\n---\r\nSee [x](/abs/path.md)\r\n"
    doc, shown = view(text)
    f = next(f for f in shown if f.code == "ABSOLUTE_LINK")
    fix = suppress.insertion(doc, f)
    assert fix is not None and fix.title == "Suppress ABSOLUTE_LINK in this file"
    new = apply_edits(text, list(fix.edits))
    assert new.startswith("---\r\n# skill-lsp: ignore[ABSOLUTE_LINK]\r\nname: demo\r\n")
    assert "ABSOLUTE_LINK" not in codes(view(new)[1])
    # A second code joins the same comment.
    doc2, shown2 = view(new + "trailing  \t\r\n")
    g = next(f for f in shown2 if f.code == "TRAILING_WHITESPACE")
    newer = apply_edits(new, list(suppress.insertion(doc2, g).edits))
    assert "# skill-lsp: ignore[ABSOLUTE_LINK, TRAILING_WHITESPACE]" in newer


def test_no_insertion_without_a_closed_frontmatter():
    doc, shown = view("# Just markdown\n")
    assert suppress.insertion(doc, shown[0]) is None


# --------------------------------------------------------------------------- selection

@pytest.mark.parametrize(("layers", "on", "off"), [
    ([{"select": ["NAME"]}], {"NAME_MISMATCH", "NAME_INVALID"}, {"UNKNOWN_FIELD"}),
    ([{"select": ["NAME_"], "ignore": ["NAME_MISMATCH"]}], {"NAME_INVALID"}, {"NAME_MISMATCH"}),
    ([{"select": ["NAME_MISMATCH"], "ignore": ["NAME"]}], {"NAME_MISMATCH"}, {"NAME_INVALID"}),  # more specific wins
    ([{"select": ["NAME"], "ignore": ["NAME_"]}], set(), {"NAME_MISMATCH"}),  # a tie is ignored
    ([{"ignore": ["ALL"]}, {"extend-select": ["SECRET"]}], {"SECRET"}, {"NAME_MISMATCH"}),
    ([{"select": ["SECRET"]}, {"select": ["NAME"]}], {"NAME_INVALID"}, {"SECRET"}),  # a later select replaces
    ([{"select": ["SECRET"]}, {"extend-select": ["NAME"]}], {"NAME_INVALID", "SECRET"}, {"UNKNOWN_FIELD"}),
    ([{"select": []}], {"UNKNOWN_FIELD"}, set()),  # empty (an editor's default): unset
])
def test_selection_layers_follow_ruff(layers, on, off):
    s = Settings()
    for layer in layers:
        s, problems = merge(s, layer, "t")
        assert problems == []
    assert on <= s.enabled and not (off & s.enabled)


def test_prefixes_are_whole_words():
    assert selection.specificity("NAME", "NAME_MISMATCH") == 4
    assert selection.specificity("NAME_", "NAME_MISMATCH") == 4
    assert selection.specificity("NAM", "NAME_MISMATCH") == -1
    assert selection.specificity("NAME_MISMATCH", "NAME_MISMATCH") > 4
    with pytest.raises(ValueError, match="unknown rule code or prefix 'NAM'"):
        selection.parse(["NAM"])
    with pytest.raises(ValueError, match="codes are upper case: 'NAME_MISMATCH'"):
        selection.parse(["name_mismatch"])


# --------------------------------------------------------------------------- globs

def test_globs_are_relative_to_their_folder_and_cover_what_is_below(tmp_path):
    rx = pathglobs.compile_all((pathglobs.anchor("vendor", str(tmp_path)), pathglobs.anchor("**/fixtures/*", str(tmp_path))))
    assert pathglobs.matches(str(tmp_path / "vendor/a/SKILL.md"), rx)
    assert pathglobs.matches(str(tmp_path / "x/fixtures/b/SKILL.md"), rx)
    assert not pathglobs.matches(str(tmp_path / "src/vendor2/SKILL.md"), rx)
    assert not pathglobs.matches(str(tmp_path / "vendor/a/SKILL.md"), rx, top=str(tmp_path / "vendor"))


def test_per_file_ignores_and_exclude_in_discovery_and_checks(tmp_path):
    ws = tmp_path
    for folder in ("keep", "legacy-one"):
        write_skill(ws / ".claude/skills", folder, "---\nname: Bad Name\ndescription: d\n---\n")
    write_skill(ws / "vendor/pack/skills", "theirs", "---\nname: theirs\ndescription: d\n---\n")
    s, problems = merge(Settings(), {"per-file-ignores": {".claude/skills/legacy-*": ["NAME"]},
                                     "extend-exclude": ["vendor"]}, "t", anchor=str(ws), toml=True)
    assert problems == []
    inv = discover(str(ws), s)
    assert sorted(os.path.basename(loc.dir) for loc in inv.all) == ["keep", "legacy-one"]
    assert inv.classify(str(ws / "vendor/pack/skills/theirs/SKILL.md")) is None
    shown = {os.path.basename(loc.dir): codes(check_file(loc.path, s, loc).shown(s)) for loc in inv.all}
    # NAME_MISMATCH stands for both name findings (suppress.one_name_finding).
    assert "NAME_MISMATCH" in shown["keep"] and not {"NAME_INVALID", "NAME_MISMATCH"} & set(shown["legacy-one"])


def test_config_errors_name_the_key_and_the_meant_spelling():
    _, problems = merge(Settings(), {"checkLinks": True, "extend-exclud": ["x"], "select": "NAME"}, "f.toml",
                        toml=True)
    assert problems == ["f.toml: unknown setting 'checkLinks' (did you mean 'check-links'?)",
                        "f.toml: unknown setting 'extend-exclud' (did you mean 'extend-exclude'?)",
                        "f.toml: invalid 'select': expected a list of rule codes or prefixes"]
    # Editors send camelCase.
    s, problems = merge(Settings(), {"checkLinks": False, "extendSelect": ["NAME"]}, "editor")
    assert problems == [] and s.check_links is False and s.selection == ((None, ("NAME",), ()),)


def test_fix_all_leaves_a_suppressed_finding_alone():
    kept = "---\n# skill-lsp: ignore[TRAILING_WHITESPACE]\nname: demo\ndescription: Does a thing. Use when testing.\n---\nBody \n"
    assert fix_all_text(kept, PATH, Settings(), on_disk=False) == kept
    # Without the directive the same whitespace is a finding with a safe fix, and fix-all takes it.
    bare = kept.replace("# skill-lsp: ignore[TRAILING_WHITESPACE]\n", "")
    assert fix_all_text(bare, PATH, Settings(), on_disk=False) == bare.replace("Body \n", "Body\n")


@pytest.mark.parametrize(("folder", "profile", "reported"), [
    ("pdf-tools", "claude-code", ["NAME_MISMATCH"]),  # a warning beside an information
    ("pdf-tools", "dsh", ["NAME_INVALID"]),  # the invalid name is the more severe there
    ("pdf-tools", "skill-tool", ["NAME_INVALID"]),  # equal: the invalid name's
    ("pdf_tools", "claude-code", ["NAME_INVALID", "NAME_MISMATCH"]),  # no valid folder name to suggest
])
def test_an_invalid_name_that_is_not_the_folder_is_reported_once(folder, profile, reported):
    """Held-out unseen24: 21 files had NAME_INVALID and NAME_MISMATCH on one name, ended by one fix."""
    text = "---\nname: Pdf_Kit\ndescription: Does a thing. Use when testing.\n---\nBody\n"
    path = f"/virtual/{folder}/SKILL.md"
    settings = Settings(profile=profile)
    found = check_text(text, path, settings, on_disk=False)[1]
    assert {"NAME_INVALID", "NAME_MISMATCH"} <= set(codes(found))  # the checks find both
    shown = suppress.shown(found, suppress.scan(document.parse(text, path)), settings, path, "local")
    assert [c for c in codes(shown) if c.startswith("NAME_")] == reported


def test_name_findings_are_merged_after_selections_and_suppressions():
    text = "---\nname: Pdf_Kit{}\ndescription: Does a thing. Use when testing.\n---\nBody\n"
    path = "/virtual/pdf-tools/SKILL.md"
    settings = Settings(profile="claude-code")

    def shown(comment: str, s: Settings = settings) -> list[str]:
        t = text.format(comment)
        return codes(suppress.shown(check_text(t, path, s, on_disk=False)[1], suppress.scan(document.parse(t, path)), s,
                                    path, "local"))

    # The mismatch suppressed or not selected: the invalid name is still reported.
    assert shown("  # skill-lsp: ignore[NAME_MISMATCH]") == ["NAME_INVALID"]
    ignoring, _ = merge(settings, {"ignore": ["NAME_MISMATCH"]}, "t", toml=True)
    assert shown("", ignoring) == ["NAME_INVALID"]
    # Both suppressed: nothing, and neither directive is unused.
    assert shown("  # skill-lsp: ignore[NAME_INVALID, NAME_MISMATCH]") == []
