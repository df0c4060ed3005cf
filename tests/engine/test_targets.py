"""Targets: the harness table, views of it, inference by root, severity per target, listing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers import check, codes, only, skill_text, write_skill
from skill_lsp.engine.config import DEFAULT_ROOTS, Settings, load_workspace, merge
from skill_lsp.engine.findings import Severity, base_message
from skill_lsp.engine.harness import ACTIONS, HARNESSES, claude_plugin, get, project_roots
from skill_lsp.engine.listing import listing
from skill_lsp.engine.targets import PROFILES, infer, parse, severity, view
from skill_lsp.engine.workspace import check_file, targets_for

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741

# --------------------------------------------------------------------------- the table


def test_the_table_has_every_harness_the_issue_names():
    assert set(HARNESSES) == {"skill-tool", "agentskills", "claude-code", "codex", "opencode", "gemini", "copilot",
                              "vscode", "dsh", "goose", "openhands"}


@pytest.mark.parametrize("h", list(HARNESSES.values()), ids=list(HARNESSES))
def test_every_fact_names_its_source(h):
    assert h.sources and all(s.strip() for s in h.sources)
    assert all(r.source.strip() for r in h.roots)
    for key, effect in h.effects.items():
        assert effect.action in ACTIONS, key
        assert effect.source.strip() and effect.note.strip(), key
    assert h.proof in ("captured", "source", "documented")
    if h.documented_only:
        assert h.proven == "documented, not verified" and not h.effects
    else:
        assert h.proven


def test_claude_code_reads_claude_roots_and_not_agents_skills():
    roots = {r.path for r in HARNESSES["claude-code"].roots}
    assert roots == {".claude/skills", "~/.claude/skills"}
    assert HARNESSES["claude-code"].version == "2.1.332"


def test_copilot_reads_the_folders_the_cli_release_reads():
    # capture: copilot@1.0.102 case every-root (not ~/.claude/skills)
    assert [r.path for r in HARNESSES["copilot"].roots] == [
        ".github/skills", ".agents/skills", ".claude/skills", "~/.copilot/skills", "~/.agents/skills"]


def test_aliases_and_unknown_names():
    assert get("skills-ref").name == "agentskills" and get("VSCode").name == "vscode"
    assert parse("claude-code, codex,claude-code") == ("claude-code", "codex")
    with pytest.raises(ValueError, match="unknown target 'cursor'"):
        parse("cursor")


def test_default_roots_cover_every_project_root_of_the_table():
    assert set(project_roots()) <= set(DEFAULT_ROOTS)


# --------------------------------------------------------------------------- historical profiles are views


def test_the_four_profiles_are_the_views_they_always_were():
    # The values the hand-written PROFILES table held before the harness table existed.
    st, ag, cc, dsh = (PROFILES[n] for n in ("skill-tool", "agentskills", "claude-code", "dsh"))
    assert st.deferred == ("context", "agent", "hooks", "model", "effort", "paths", "shell", "when_to_use")
    assert "version" in st.known and "when_to_use" not in st.known
    assert (ag.unknown_severity, ag.unicode_names, ag.tools_form) == ("error", True, "string")
    assert ag.known == ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
    assert (cc.name_mismatch_severity, cc.free_arguments, cc.deferred) == ("warning", True, ())
    assert (dsh.string_booleans, dsh.camel_case_severity, dsh.name_mismatch_severity) == (True, "error", "info")
    assert "whenToUse" in dsh.known
    assert [p.unicode_names for p in (st, cc, dsh)] == [False, False, False]


# --------------------------------------------------------------------------- inference by root


@pytest.mark.parametrize(("where", "expected"), [
    ("ws/.claude/skills/pdf", ("claude-code", "opencode", "copilot")),
    ("ws/.github/skills/review", ("copilot",)),
    ("ws/.agents/skills/deploy", ("codex", "opencode", "gemini", "copilot", "dsh")),
    ("ws/.gemini/skills/deploy", ("gemini",)),
    ("ws/.opencode/skills/team/deploy", ("opencode",)),  # OpenCode searches below its roots
    ("ws/.codex/skills/deploy", ("codex",)),
    ("home/.copilot/skills/review", ("copilot",)),
    ("ws/.dsh/skills/deploy", ("dsh",)),
    ("ws/.goose/skills/deploy", ()),  # documented only: never inferred
    ("ws/plugins/tools/skills/deploy", ()),
])
def test_targets_inferred_from_the_root(tmp_path: Path, where: str, expected: tuple[str, ...]):
    assert infer(str(tmp_path / where)) == expected


def test_a_claude_code_plugins_skills_are_checked_for_claude_code(tmp_path: Path):
    """A plugin's skills are loaded by Claude Code alone (`plugin:name`): unseen15 fblissjr's
    `arguments: [a, b]`, the form Claude Code reads, was an error of the skill-tool contract."""
    plugin = tmp_path / "plugins" / "tools"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "tools"}')
    skill = write_skill(plugin / "skills", "sync", skill_text("sync", extra="arguments: [version, branch]"))
    assert infer(str(skill.parent)) == ("claude-code",)
    assert "INVALID_ARGUMENTS" not in codes(check_file(str(skill), Settings()).findings)
    # A manifest the release refuses loads no plugin: the skill-tool contract again.
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "tools", "skills": ["skills"]}')
    claude_plugin.forget()  # plugins are read again after a few seconds (``fresh``), not at once
    assert infer(str(skill.parent)) == ()
    # Nor is a `skills/` folder without `.claude-plugin/` beside it a plugin's.
    assert infer(str(write_skill(tmp_path / "skills", "other", skill_text("other")).parent)) == ()


def test_a_folder_plugin_json_names_holds_claude_code_skills(tmp_path: Path):
    """`"skills": ["./custom"]` loads `custom/<name>/` as the plugin's skills (probe plugin-layouts
    paths-folder), `"./one/a"` that one skill folder; a folder named that holds a SKILL.md of its
    own is that skill alone, and a refused manifest loads none."""
    plugin = tmp_path / "kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    manifest = plugin / ".claude-plugin" / "plugin.json"
    manifest.write_text('{"name": "kit", "skills": ["./custom", "./one/a", "./own", "./deep/skills/d"]}')
    folders = ("custom/x", "one/a", "one/b", "own", "own/inner", "deep/skills/d", "deep/skills/e")
    for folder in folders:
        write_skill(plugin / Path(folder).parent, Path(folder).name, skill_text(Path(folder).name))
    inferred = {folder: infer(str(plugin / folder)) for folder in folders}
    assert inferred == {"custom/x": ("claude-code",), "one/a": ("claude-code",), "one/b": (), "own": ("claude-code",),
                        "own/inner": (), "deep/skills/d": ("claude-code",), "deep/skills/e": ()}
    manifest.write_text('{"name": "kit", "skills": ["custom"]}')
    claude_plugin.forget()  # plugins are read again after a few seconds (``fresh``), not at once
    assert infer(str(plugin / "custom" / "x")) == ()


@pytest.mark.parametrize("seed", range(4))
def test_the_nearest_plugin_above_is_what_asking_each_folder_finds(tmp_path: Path, seed: int):
    """``around`` keeps the nearest plugin above each folder it asked about (siblings share it):
    the answer is the first folder up, within ``levels``, that holds `.claude-plugin/`, asked in
    any order, after any earlier question."""
    r = random.Random(seed)
    folders = [tmp_path]
    for i in range(60):
        folder = r.choice(folders) / f"d{i}"
        folder.mkdir()
        folders.append(folder)
        if r.random() < 0.15:
            (folder / ".claude-plugin").mkdir()
    claude_plugin.forget()

    def asked_up(folder: Path, levels: int) -> str | None:
        for up in list(folder.parents)[:levels]:
            if (up / ".claude-plugin").is_dir():
                return str(up)
        return None

    for folder in r.sample(folders * 2, len(folders) * 2):
        levels = r.choice((1, 2, 3, 12, 40))
        found = claude_plugin.around(str(folder), levels)
        assert (found.root if found is not None else None) == asked_up(folder, levels), (folder, levels)


def test_a_plugin_skill_named_as_claude_code_lists_it_matches(tmp_path: Path):
    """`name: kit:deploy` in `kit/skills/deploy/` is the name Claude Code lists (probe plugin-names:
    a declared `kit:one-x` stays): no NAME_MISMATCH, no NAME_INVALID for its ':' (unseen17 suwa-sh).
    Another plugin's prefix, or other targets configured, keep them."""
    plugin = tmp_path / "kit"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "kit"}')
    ok = write_skill(plugin / "skills", "deploy", skill_text("kit:deploy"))
    other = write_skill(plugin / "skills", "ship", skill_text("box:ship"))
    assert [c for c in codes(check_file(str(ok), Settings()).findings) if c.startswith("NAME")] == []
    assert [c for c in codes(check_file(str(other), Settings()).findings) if c.startswith("NAME")] == [
        "NAME_INVALID", "NAME_MISMATCH"]
    configured = Settings(targets=("claude-code", "codex"))
    assert "NAME_MISMATCH" in codes(check_file(str(ok), configured).findings)


def test_configured_targets_win_over_inference_and_the_profile_is_the_fallback():
    md = "/ws/.claude/skills/pdf/SKILL.md"
    assert targets_for(Settings(), md) == ("claude-code", "opencode", "copilot")
    assert targets_for(Settings(targets=("codex",)), md) == ("codex",)
    assert targets_for(Settings(), "/ws/plugins/x/skills/pdf/SKILL.md") == ("skill-tool",)
    assert targets_for(Settings(profile="dsh"), "/ws/elsewhere/pdf/SKILL.md") == ("dsh",)


# --------------------------------------------------------------------------- severity per target


@pytest.mark.parametrize(("targets", "expected"), [
    (("skill-tool",), E), (("agentskills",), E), (("claude-code",), W), (("dsh",), I), (("codex",), I),
    (("opencode",), I), (("gemini",), I), (("copilot",), I),
    (("claude-code", "codex"), W),  # both list it: not an error for them
    (("claude-code", "skill-tool"), E),  # the worst target decides
])
def test_name_mismatch_severity_per_target(targets, expected):
    assert severity("NAME_MISMATCH", targets) is expected


@pytest.mark.parametrize(("targets", "field", "expected"), [
    (("claude-code",), "name", I), (("codex",), "name", I), (("opencode",), "name", E),
    (("claude-code",), "description", E), (("codex",), "description", E),
])
def test_missing_field_severity_per_target_and_field(targets, field, expected):
    assert severity("MISSING_FIELD", targets, field) is expected


def test_a_long_description_is_cut_not_refused_by_claude_code_and_codex():
    assert severity("TOO_LONG", ("claude-code",), "description") is W
    assert severity("TOO_LONG", ("codex",), "description") is W
    assert severity("TOO_LONG", ("skill-tool",), "description") is E
    assert severity("TOO_LONG", ("gemini", "opencode"), "description") is I


PDF = skill_text(name="pdf-toolkit", description="Extract text and tables from PDF files. Use when a PDF is attached.")


def _check_for(targets: tuple[str, ...], text: str, folder: str = "pdf"):
    return check(text, folder=folder, settings=Settings(targets=targets))


def test_name_mismatch_is_a_warning_for_claude_code_and_codex_naming_both():
    _, fs = _check_for(("claude-code", "codex"), PDF)
    f = only(fs, "NAME_MISMATCH")
    assert f.severity is W
    assert f.message == ('frontmatter \'name\' ("pdf-toolkit") does not match the skill folder ("pdf"); '
                         "Claude Code lists it under the folder name (`- folder (name): …`); "
                         "Codex lists it under its frontmatter name")
    assert base_message(f) == 'frontmatter \'name\' ("pdf-toolkit") does not match the skill folder ("pdf")'


def test_missing_name_is_fine_for_claude_code():
    text = "---\ndescription: Extract text from PDF files. Use when a PDF is attached.\n---\n# PDF\n"
    _, fs = _check_for(("claude-code",), text)
    f = only(fs, "MISSING_FIELD")
    assert f.severity is I and f.message.endswith("; Claude Code uses the folder name")
    _, fs = _check_for(("skill-tool",), text)
    assert only(fs, "MISSING_FIELD").severity is E


COLON = "---\nname: pdf\ndescription: Use it: for PDF files.\n---\n# PDF\n"


def test_a_colon_value_every_fallback_reads_as_written_is_an_error_only_where_a_target_drops_it():
    """Claude Code, Codex, OpenCode and Gemini CLI list `Use it: for PDF files.` (capture case
    invalid-yaml-kinds, skill colon-in-plain); GitHub Copilot CLI and the skill tool leave it out."""
    _, fs = _check_for(("codex", "gemini"), COLON)
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data["yaml"] == "colon" and f.severity is W
    assert f.message.endswith("; Codex quotes the value and reads it as written; "
                              "Gemini CLI reads its `key: value` lines all the same")
    _, fs = _check_for(("codex", "opencode", "copilot"), COLON)
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.severity is E
    assert f.message.endswith("; Codex quotes the value and reads it as written; OpenCode reads its "
                              "`key: value` lines all the same; GitHub Copilot CLI cannot read it and leaves it out")
    _, fs = _check_for(("opencode", "copilot", "dsh"), COLON)
    assert only(fs, "INVALID_FRONTMATTER").message.endswith(
        "; GitHub Copilot CLI and DeepSeek Harness cannot read it and leave it out")  # each verb plural


def test_a_value_opening_with_a_reserved_character_is_a_warning_where_claude_code_alone_reads_it():
    """`argument-hint: [mode] [target]`, `*Important* steps`: invalid YAML that Claude Code parses
    again with the value quoted and reads as written (capture case invalid-yaml-retried, where
    OpenCode and GitHub Copilot CLI list none of them). A plugin's skill, read by Claude Code
    alone, gets a warning; the skill tool's contract keeps the error."""
    for line in ("argument-hint: [mode] [target]", "description: *Important* steps for releases.",
                 "allowed-tools: *"):
        text = f"---\nname: pdf\ndescription: Does PDF things.\n{line}\n---\n# PDF\n".replace(
            "description: Does PDF things.\ndescription:", "description:")
        _, fs = _check_for(("claude-code",), text)
        f = only(fs, "INVALID_FRONTMATTER")
        assert f.data["yaml"] == "reserved" and f.severity is W, line
        assert f.message.endswith("; Claude Code quotes the value and reads it as written")
        _, fs = _check_for(("claude-code", "opencode"), text)
        assert only(fs, "INVALID_FRONTMATTER").severity is E
    # Its fix quotes the value as Claude Code reads it.
    from skill_lsp.engine.fixes import fixes_for  # noqa: PLC0415

    doc, fs = _check_for(("claude-code",), "---\nname: pdf\ndescription: Does PDF things.\nargument-hint: [a] [b]\n---\n")
    (fix,) = fixes_for(doc, only(fs, "INVALID_FRONTMATTER"))
    assert fix.safe and [e.text for e in fix.edits] == ['"[a] [b]"']
    # A second reading that fails too (an unclosed quote on another line) is no such value.
    _, fs = _check_for(("claude-code",), "---\nname: pdf\ndescription: 'a\nargument-hint: [a] [b]\n---\n")
    assert only(fs, "INVALID_FRONTMATTER").severity is E


def test_a_list_as_argument_hint_is_information_for_claude_code():
    """It lists and activates the skill all the same, and the hint is in nothing the model sees
    (capture case copilot-argument-hint); GitHub Copilot CLI leaves such a skill out."""
    text = "---\nname: pdf\ndescription: Does PDF things.\nargument-hint: [init | optimize]\n---\n# PDF\n"
    _, fs = _check_for(("claude-code",), text)
    assert only(fs, "INVALID_TYPE").severity is I
    _, fs = _check_for(("claude-code", "copilot"), text)
    assert only(fs, "INVALID_TYPE").severity is E


def test_a_mapping_as_compatibility_is_information_for_the_captured_harnesses():
    """Every captured release lists and loads it (capture case compatibility-types, from a real
    plugin found by capture diff --real seed 19); skills-ref and the skill tool refuse it. OpenCode
    leaves out a skill whose name or description is no string, not one whose compatibility is not."""
    text = "---\nname: pdf\ndescription: Does PDF things.\ncompatibility:\n  optional:\n    - think-tool\n---\n# PDF\n"
    for targets in (("claude-code",), ("codex", "opencode", "gemini", "copilot")):
        _, fs = _check_for(targets, text)
        f = only(fs, "INVALID_TYPE")
        assert f.severity is I and f.message.endswith("all the same"), targets
    _, fs = _check_for(("claude-code", "agentskills"), text)
    assert only(fs, "INVALID_TYPE").severity is E
    _, fs = _check_for(("opencode",), "---\nname: pdf\ndescription: [a, b]\n---\n# PDF\n")
    assert only(fs, "INVALID_TYPE").severity is E


def test_a_compatibility_over_500_characters_is_information_for_the_captured_harnesses():
    """Every captured release lists and loads it (capture case compatibility-types; a real one of 540
    characters, capture diff --real seed 20); skills-ref keeps the spec's limit."""
    text = f"---\nname: pdf\ndescription: Does PDF things.\ncompatibility: {'Needs Python. ' * 40}\n---\n# PDF\n"
    _, fs = _check_for(("claude-code", "codex", "copilot"), text)
    assert only(fs, "TOO_LONG").severity is I
    _, fs = _check_for(("codex", "agentskills"), text)
    assert only(fs, "TOO_LONG").severity is E


def test_a_colon_value_a_fallback_reads_otherwise_keeps_the_error():
    """`Use when:` holds no ': ': Claude Code's and Codex's second readings do not quote it, fail
    again, and read no field (Codex leaves the skill out)."""
    text = COLON.replace("Use it: for PDF files.", "Use when:\nlicense: MIT")
    _, fs = _check_for(("codex", "gemini"), text)
    f = only(fs, "INVALID_FRONTMATTER")
    assert f.data["yaml"] == "colon-misread" and f.severity is E
    assert f.message == base_message(f)  # both targets grade it an error: no harness sentence


@pytest.mark.parametrize("note, plural", [
    ("cannot read it and leaves it out", "cannot read it and leave it out"),
    ("ignores it and never shows it to the model", "ignore it and never show it to the model"),
    ("parses it again, else reads no field (unclosed: lists the first line)",
     "parse it again, else read no field (unclosed: list the first line)"),
    ("preserves it but does not act on it", "preserve it but do not act on it"),
    # Not verbs of the subject: a list of nouns, a clause with a subject of its own.
    ("lists a name of letters, digits and spaces as written", "list a name of letters, digits and spaces as written"),
    ("quotes it (when that fails, it leaves the skill out)", "quote it (when that fails, it leaves the skill out)"),
    ("ignores it; its editor fades it", "ignore it; its editor fades it"),
])
def test_a_note_said_of_several_harnesses_has_each_verb_plural(note: str, plural: str):
    from skill_lsp.engine.targets import _plural

    assert _plural(note) == plural


def test_uppercase_name_is_listed_by_codex():
    _, fs = _check_for(("codex",), skill_text(name="Deploy"), folder="Deploy")
    f = only(fs, "NAME_INVALID")
    assert f.severity is I and "Codex lists the name as written" in f.message


def test_unknown_field_names_every_target_and_takes_the_worst():
    _, fs = _check_for(("codex", "agentskills"), skill_text(name="pdf", extra="author: Jane"))
    f = only(fs, "UNKNOWN_FIELD")
    assert f.severity is E
    assert f.message == ("'author' is read by none of the targets (Codex, skills-ref); "
                         "Codex ignores it; skills-ref rejects it (Unexpected fields in frontmatter)")


def test_a_field_one_target_reads_is_not_unknown():
    # Claude Code reads when_to_use; OpenCode and Copilot ignore it: no finding at all.
    extra = "when_to_use: When a PDF is attached."
    _, fs = _check_for(("claude-code", "opencode", "copilot"), skill_text(name="pdf", extra=extra))
    assert fs == []


def test_spec_fields_are_never_unknown_even_where_a_harness_ignores_them():
    # Codex does not act on `license`, but it is an agentskills field, not an unknown one.
    _, fs = _check_for(("codex",), skill_text(name="pdf", extra="license: MIT"))
    assert fs == []


def test_historical_profiles_keep_their_messages():
    _, fs = check(skill_text(extra="author: Jane"), profile="agentskills")
    assert only(fs, "UNKNOWN_FIELD").message == ("unexpected field 'author': the agentskills spec allows only name, "
                                                 "description, license, allowed-tools, metadata and compatibility")
    _, fs = check(PDF, folder="pdf", profile="skill-tool")
    assert only(fs, "NAME_MISMATCH").message == ('frontmatter \'name\' ("pdf-toolkit") does not match the skill '
                                                 'folder ("pdf")')


def test_checks_on_disk_follow_the_root(tmp_path: Path):
    claude = write_skill(tmp_path / ".claude/skills", "pdf", PDF)
    skills = write_skill(tmp_path / "skills", "pdf", PDF)
    assert check_file(str(claude), Settings()).findings[0].severity is W  # Claude Code renames it
    assert only(check_file(str(skills), Settings()).findings, "NAME_MISMATCH").severity is E  # skill-tool
    cc = check_file(str(claude), Settings(targets=("claude-code",)))
    assert codes(cc.findings) == ["NAME_MISMATCH"] and cc.findings[0].severity is W


def test_a_view_of_several_targets_is_cached():
    assert view(("claude-code", "codex")) is view(("claude-code", "codex"))


# --------------------------------------------------------------------------- settings


def test_targets_setting_from_skill_lsp_toml(tmp_path: Path):
    (tmp_path / ".skill-lsp.toml").write_text('targets = ["claude-code", "codex"]\n')
    settings, problems = load_workspace(str(tmp_path))
    assert problems == [] and settings.targets == ("claude-code", "codex")


def test_targets_setting_from_pyproject(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.skill-lsp]\ntargets = "gemini, opencode"\n')
    settings, problems = load_workspace(str(tmp_path))
    assert problems == [] and settings.targets == ("gemini", "opencode")


def test_profile_is_an_alias_for_one_target():
    settings, problems = merge(Settings(), {"profile": "dsh"}, "test")
    assert problems == [] and settings.targets == ("dsh",) and settings.profile == "dsh"
    settings, _ = merge(settings, {"targets": ["codex"]}, "editor")  # a later layer wins
    assert settings.targets == ("codex",)


def test_an_empty_targets_setting_keeps_inference():
    settings, problems = merge(Settings(targets=("codex",)), {"targets": []}, "editor")
    assert problems == [] and settings.targets == ("codex",)
    assert merge(Settings(), {"targets": []}, "editor")[0].targets == ()


def test_invalid_targets_are_reported_by_name_and_ignored():
    settings, problems = merge(Settings(), {"targets": ["claude-code", "cursor"]}, "editor")
    assert settings.targets == ()
    assert problems == ["editor: invalid 'targets': unknown target 'cursor'; known: skill-tool, agentskills, "
                        "claude-code, codex, opencode, gemini, copilot, vscode, dsh, goose, openhands"]


# --------------------------------------------------------------------------- is it listed, and why not


def test_listing_per_harness(tmp_path: Path):
    md = write_skill(tmp_path / ".claude/skills", "pdf", PDF)
    result = check_file(str(md), Settings())
    cc = listing(result, "claude-code")
    assert cc.listed and cc.name == "pdf (pdf-toolkit)"
    st = listing(result, "skill-tool")
    assert not st.listed and st.reason is not None and st.reason.startswith("the skill tool refuses it (NAME_MISMATCH)")
    oc = listing(result, "opencode")
    assert oc.listed and oc.name == "pdf-toolkit"


def test_claude_code_does_not_read_agents_skills(tmp_path: Path):
    md = write_skill(tmp_path / ".agents/skills", "deploy", skill_text(name="deploy"))
    result = check_file(str(md), Settings())
    cc = listing(result, "claude-code")
    assert not cc.listed and cc.reason == "Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)"
    assert listing(result, "codex").listed


def test_disable_model_invocation_keeps_a_skill_out_of_the_catalog(tmp_path: Path):
    md = write_skill(tmp_path / ".claude/skills", "deploy",
                     skill_text(name="deploy", extra="disable-model-invocation: true"))
    got = listing(check_file(str(md), Settings()), "claude-code")
    assert not got.listed and got.reason == "disable-model-invocation: true keeps it out of the model's catalog"


# Spellings of disable-model-invocation as each release reads them (capture cases claude-flag-spellings,
# copilot-flag-spellings); Codex, OpenCode and Gemini CLI do not read the field.
@pytest.mark.parametrize(("value", "claude", "copilot"), [
    ("true", True, True), ("false", False, False), ('"true"', True, True), ('"false"', False, True),
    ("yes", True, True), ("Yes", True, True), ("'TRUE'", True, True), ("on", True, True), ("off", False, True),
    ("1", True, True), ('"1"', True, True), ("0", False, True), ("2", False, True), ("y", False, True),
    ("[true]", False, True), ('""', False, True), ("~", False, True), ("FALSE", False, False),
])
def test_each_release_reads_disable_model_invocation_its_own_way(tmp_path: Path, value: str, claude: bool,
                                                                   copilot: bool):
    md = write_skill(tmp_path / ".claude/skills", "deploy",
                     skill_text(name="deploy", extra=f"disable-model-invocation: {value}"))
    result = check_file(str(md), Settings())
    for harness, hidden in (("claude-code", claude), ("copilot", copilot), ("codex", False), ("opencode", False)):
        got = listing(result, harness, roots=False)
        assert got.listed is not hidden, (harness, value, got.reason)
        if hidden:
            assert got.reason == f"disable-model-invocation: {value} keeps it out of the model's catalog"


def test_only_the_exact_skill_file_name_is_read(tmp_path: Path):
    # Capture case skill-file-names: the five releases list SKILL.md only; skills-ref also reads skill.md.
    md = tmp_path / ".claude/skills/deploy/skill.md"
    md.parent.mkdir(parents=True)
    md.write_text(skill_text(name="deploy"), encoding="utf-8")
    result = check_file(str(md), Settings())
    for harness in ("claude-code", "codex", "opencode", "gemini", "copilot"):
        got = listing(result, harness, roots=False)
        assert not got.listed and got.reason is not None and "reads only SKILL.md, never skill.md" in got.reason
    assert listing(result, "agentskills").listed


def test_a_byte_order_mark_at_the_start_is_skipped_by_codex_and_gemini_only(tmp_path: Path):
    # Capture case bom-start: Codex 0.171.0 and Gemini CLI 0.61.0 skip it, the others read past it.
    md = write_skill(tmp_path / ".agents/skills", "deploy", skill_text(name="deploy"))
    md.write_bytes(b"\xef\xbb\xbf" + md.read_bytes())
    result = check_file(str(md), Settings())
    assert result.doc is not None and result.doc.bom and not result.doc.text.startswith("\ufeff")
    for harness, listed in (("codex", False), ("gemini", False), ("claude-code", True), ("copilot", True),
                            ("opencode", True)):
        got = listing(result, harness, roots=False)
        assert got.listed is listed, (harness, got.reason)
        if not listed:
            assert got.reason is not None and got.reason.endswith("skips a SKILL.md that starts with a byte order "
                                                                  "mark (U+FEFF)")


def test_a_key_given_twice_and_an_empty_name_as_each_release_does(tmp_path: Path):
    # Capture case empty-and-duplicate-fields.
    dup = write_skill(tmp_path / "a", "dup", "---\nname: dup\ndescription: one\ndescription: two\n---\nbody\n")
    nested = write_skill(tmp_path / "b", "nested", "---\nname: nested\ndescription: d\nmetadata:\n  a: x\n  a: y\n"
                                                   "---\nbody\n")
    empty = write_skill(tmp_path / "c", "empty", '---\nname: ""\ndescription: d\n---\nbody\n')
    got = {h: [listing(check_file(str(md), Settings()), h, roots=False).listed for md in (dup, nested, empty)]
           for h in ("codex", "copilot", "opencode", "claude-code", "gemini")}
    assert got == {"codex": [False, True, True], "copilot": [False, True, False], "opencode": [False, True, True],
                   "claude-code": [True, True, True], "gemini": [True, True, True]}


def test_listing_needs_the_document_and_says_so(tmp_path: Path):
    md = write_skill(tmp_path / ".claude/skills", "pdf", PDF)
    slim = check_file(str(md), Settings()).slim(keep_text=False)
    with pytest.raises(ValueError, match="listing needs the checked document"):
        listing(slim, "claude-code")


def test_an_unreadable_skill_is_not_listed_with_the_reason(tmp_path: Path):
    d = tmp_path / ".claude/skills/pdf"
    d.mkdir(parents=True)
    (d / "SKILL.md").mkdir()  # a folder where the file should be
    got = listing(check_file(str(d / "SKILL.md"), Settings()), "claude-code")
    assert not got.listed and got.reason == "SKILL.md is a directory, not a regular file"


def test_roots_of_a_relative_path_are_found_without_looping():
    # A relative skill folder once sent the ancestor walk round for ever on its first folder.
    from skill_lsp.engine.harness import roots_reading

    assert "claude-code" in roots_reading("project/.claude/skills/demo")
    assert roots_reading("demo") == ()


def test_a_skill_folder_named_secrets_is_information_where_the_release_reads_it(tmp_path: Path):
    """Claude Code, Codex and Copilot CLI list and activate `skills/secrets` (capture diff --real
    seed 16); the skill tool's contract refuses it, and skill-lsp reads nothing there either."""
    from skill_lsp.engine.discover import discover  # noqa: PLC0415

    plugin = tmp_path / "vault"
    (plugin / ".claude-plugin").mkdir(parents=True)
    skill = write_skill(plugin / "skills", "secrets", skill_text("secrets"))
    loose = write_skill(tmp_path / "other", "secrets", skill_text("secrets"))
    found = {loc.path: loc for loc in discover(str(tmp_path), Settings()).all}
    f = only(check_file(str(skill), Settings(), found[str(skill)]).findings, "SENSITIVE")  # a plugin's: Claude Code's
    assert f.severity is I and "Claude Code lists and activates it all the same" in f.message
    assert only(check_file(str(loose), Settings(), found[str(loose)]).findings, "SENSITIVE").severity is E


@pytest.mark.parametrize(("value", "listed"), [("{k: v}", True), ("{{NAME}}", False), ("{{설명}}", False)])
def test_codex_reads_a_flow_map_as_text_only_where_its_repair_quotes_it(tmp_path: Path, value: str, listed: bool):
    """Codex's repair quotes a value holding `: ` (case non-string-values: `{k: v}` listed as
    written); `{{NAME}}` is valid YAML alone, stays a map and keeps the skill out (held-out seed
    16: two template skills skill-lsp listed)."""
    skill = write_skill(tmp_path / ".agents" / "skills", "tpl", f"---\nname: tpl\ndescription: {value}\n---\nBody\n")
    assert listing(check_file(str(skill), Settings()), "codex").listed is listed
