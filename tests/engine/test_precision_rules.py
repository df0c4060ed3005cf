"""Issue 11 (precision): rule behaviour pinned with minimal skills of our own."""

from __future__ import annotations

from pathlib import Path

from helpers import check, skill_text, write_skill


def _on_disk(tmp_path: Path, body: str, files: tuple[str, ...] = ()) -> list[str]:
    path = write_skill(tmp_path / "skills", "demo", skill_text(body=body))
    for rel in files:
        (path.parent / rel).parent.mkdir(parents=True, exist_ok=True)
        (path.parent / rel).write_text("x\n", encoding="utf-8")
    _doc, findings = check(path.read_text(encoding="utf-8"), path=str(path), on_disk=True)
    return [f"{f.code}:{f.message}" for f in findings]


def test_skill_dir_placeholders_resolve_to_the_skill_folder(tmp_path: Path):
    body = "[g]({baseDir}/references/guide.md) and [h](${CLAUDE_SKILL_DIR}/references/guide.md)\n"
    assert _on_disk(tmp_path, body, ("references/guide.md",)) == []
    missing = _on_disk(tmp_path / "b", "[g]({baseDir}/references/nope.md)\n")
    assert missing == ["BROKEN_LINK:link target 'references/nope.md' does not exist in the skill folder"]


def test_links_leaving_the_skill_are_checked_for_existence(tmp_path: Path):
    (tmp_path / "skills" / "shared.md").parent.mkdir(parents=True)
    (tmp_path / "skills" / "shared.md").write_text("x\n", encoding="utf-8")
    found = _on_disk(tmp_path, "[a](../shared.md) [b](../../nope/missing.md)\n")
    assert [f.split(":")[0] for f in found] == ["LINK_OUTSIDE_SKILL", "BROKEN_LINK"]
    assert "'../../nope/missing.md' does not exist (and it leaves the skill folder)" in found[1]


def test_trailing_whitespace_inside_code_blocks_is_not_reported():
    body = "# T\n\n```py\nx = 1   \n```\n\n    indented   \n\nafter \n"
    doc, fs = check(skill_text(body=body))
    assert [(f.code, doc.src.line_of(f.start)) for f in fs] == [("TRAILING_WHITESPACE", 12)]


def test_partial_versions_are_accepted_but_not_other_strings():
    for ok in ("'1.0'", '"2"', "1.2.0", "v1.2.0", "v2.0.0-beta.1"):
        assert check(skill_text(extra=f"version: {ok}"))[1] == [], ok
    assert [f.code for f in check(skill_text(extra="version: v1"))[1]] == ["INVALID_VERSION"]
    assert [f.code for f in check(skill_text(extra="version: '1.0.0.0'"))[1]] == ["INVALID_VERSION"]


def test_metadata_keys_are_shown_without_their_yaml_quotes():
    _, fs = check(skill_text(extra='metadata:\n  "openclaw": 1.10'))
    assert [f.message for f in fs] == ["metadata value of 'openclaw' is the number 1.1; metadata values must be strings"]


def test_slash_command_links_to_a_plugin_skill_are_not_absolute_paths():
    _, fs = check(skill_text(body="Load [`other`](/acme:other-skill), not [x](/docs/x.md).\n"))
    assert [(f.code, f.data["target"]) for f in fs] == [("ABSOLUTE_LINK", "/docs/x.md")]


def test_a_lone_zero_width_space_in_the_body_is_not_reported_but_a_bidi_override_is():
    _, fs = check(skill_text(body="Math h\u200b(t) and \u202egnirts\u202c.\n"))
    assert [f.code for f in fs] == ["INVISIBLE_CHARACTERS", "INVISIBLE_CHARACTERS"]


def test_existing_link_outside_the_skill_is_information_unless_it_leads_into_another_skill(tmp_path: Path):
    """A link into another skill (its SKILL.md, its folder, a file it holds) is a reference between
    skills, as in a "route to" table (three audits of unseen repositories: 183, 475 and 193 infos,
    none acted on); a file outside any skill is what the skill needs beside it."""
    (tmp_path / "skills" / "sibling" / "references").mkdir(parents=True)
    (tmp_path / "skills" / "sibling" / "SKILL.md").write_text("x\n", encoding="utf-8")
    (tmp_path / "skills" / "sibling" / "references" / "r.md").write_text("x\n", encoding="utf-8")
    (tmp_path / "skills" / "notes").mkdir()
    body = ("[s](../sibling/SKILL.md) [f](../sibling/) [g](../sibling#use) [r](../sibling/references/r.md) "
            "[n](../notes/)\n")
    path = write_skill(tmp_path / "skills", "demo", skill_text(body=body))
    _, fs = check(path.read_text(encoding="utf-8"), path=str(path), on_disk=True)
    assert [(f.code, f.severity.name, f.data["target"]) for f in fs] == [("LINK_OUTSIDE_SKILL", "INFO", "../notes/")]


def test_a_file_outside_linked_again_is_reported_at_its_first_link(tmp_path: Path):
    """One fix (bring the file into the skill) per file: the eighth real-skill run's audit read one file
    linked six times as six infos."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "spec.md").write_text("x\n", encoding="utf-8")
    (tmp_path / "docs" / "other.md").write_text("x\n", encoding="utf-8")
    body = "[a](../../docs/spec.md) [b](../../docs/spec.md#part) [c](../../docs/other.md) [d](../../docs/./spec.md)\n"
    path = write_skill(tmp_path / "skills", "demo", skill_text(body=body))
    doc, fs = check(path.read_text(encoding="utf-8"), path=str(path), on_disk=True)
    assert [(f.code, f.data["target"]) for f in fs] == [("LINK_OUTSIDE_SKILL", "../../docs/spec.md"),
                                                        ("LINK_OUTSIDE_SKILL", "../../docs/other.md")]


def test_a_claude_code_plugin_is_installed_whole_so_links_inside_it_resolve(tmp_path: Path):
    """`<plugin>/skills/<name>/` beside `<plugin>/.claude-plugin/`: a link to a file the plugin holds is
    not reported (an audit of 14 unseen repositories called those wrong); one leaving the plugin is.
    The same links in a folder that is no plugin are reported."""
    for root, plugin in ((tmp_path / "kit", True), (tmp_path / "plain", False)):
        if plugin:
            (root / ".claude-plugin").mkdir(parents=True)
        (root / "shared").mkdir(parents=True)
        (root / "shared" / "guide.md").write_text("x\n", encoding="utf-8")
        (root / "skills" / "notes.md").parent.mkdir(parents=True, exist_ok=True)
        (root / "skills" / "notes.md").write_text("x\n", encoding="utf-8")
        (tmp_path / "outside.md").write_text("x\n", encoding="utf-8")
        body = "[g](../../shared/guide.md) [n](../notes.md) [o](../../../outside.md) [b](../../a/../../outside.md)\n"
        path = write_skill(root / "skills", "demo", skill_text(body=body))
        _, fs = check(path.read_text(encoding="utf-8"), path=str(path), on_disk=True)
        got = [f.data["target"] for f in fs if f.code == "LINK_OUTSIDE_SKILL"]
        assert got == (["../../../outside.md"] if plugin else
                       ["../../shared/guide.md", "../notes.md", "../../../outside.md"]), root


def test_a_skill_in_a_harness_root_is_loaded_in_place_so_links_leaving_it_resolve(tmp_path: Path):
    """`.claude/skills/<name>/` is where Claude Code reads the skill, not a source it installs from: a
    link to the repository's templates resolves (the unseen17 audit read 46 such infos as noise). The
    same link from a `skills/` source folder is reported."""
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "spec.md").write_text("x\n", encoding="utf-8")
    got = {}
    for root in (".claude/skills", ".agents/skills", "skills"):
        up = "../" * (root.count("/") + 2)
        path = write_skill(tmp_path / root, "demo", skill_text(body=f"[t]({up}templates/spec.md)\n"))
        _, fs = check(path.read_text(encoding="utf-8"), path=str(path), on_disk=True)
        got[root] = [f.code for f in fs if f.code in ("LINK_OUTSIDE_SKILL", "BROKEN_LINK")]
    assert got == {".claude/skills": [], ".agents/skills": [], "skills": ["LINK_OUTSIDE_SKILL"]}


def test_reserved_name_words_are_not_reported_in_a_claude_code_plugin(tmp_path: Path):
    """Its skills are installed with the plugin, never uploaded to the Claude API alone."""
    for root, plugin in ((tmp_path / "kit", True), (tmp_path / "plain", False)):
        if plugin:
            (root / ".claude-plugin").mkdir(parents=True)
        path = write_skill(root / "skills", "claude-setup", skill_text(name="claude-setup"))
        _, fs = check(path.read_text(encoding="utf-8"), path=str(path), on_disk=True)
        assert ("RESERVED_NAME_WORD" in [f.code for f in fs]) is not plugin


def test_missing_frontmatter_outside_any_skills_folder_is_information(tmp_path: Path):
    from skill_lsp.commands.targets import collect  # noqa: PLC0415
    from skill_lsp.engine.config import Settings  # noqa: PLC0415
    from skill_lsp.engine.workspace import check_file  # noqa: PLC0415

    write_skill(tmp_path / "flavors" / "web", "demo", "<!-- fragment -->\n# Part\n")
    write_skill(tmp_path / "skills", "real", "# no frontmatter\n")
    t = collect([str(tmp_path)], None, None)
    got = {loc.dir.rsplit("/", 1)[-1]: [(f.code, f.severity.name) for f in check_file(loc.path, Settings(), loc).findings]
           for loc in t.locations + t.loose}
    assert got == {"demo": [("MISSING_FRONTMATTER", "INFO")], "real": [("MISSING_FRONTMATTER", "ERROR")]}


def test_allowed_tools_lists_hold_strings_only():
    """Copilot CLI does not load a skill whose allowed-tools list holds a number (capture case
    allowed-tools-types); a list of names, an empty one and a string are fine."""
    for ok in ("[Read, Bash]", "[]", "Read Bash", '""'):
        assert check(skill_text(extra=f"allowed-tools: {ok}"))[1] == [], ok
    for bad in ("[Read, 5]", "[Read, true]", "[Read, ~]"):
        assert [f.code for f in check(skill_text(extra=f"allowed-tools: {bad}"))[1]] == ["INVALID_TYPE"], bad
