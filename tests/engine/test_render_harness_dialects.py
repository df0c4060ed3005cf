"""The captured dialects beyond what one capture case shows: results built in memory (no skill
folder on disk), budgets at their exact edge, warnings, and lookups that find nothing.

The texts are the captured formats (tests/golden/harness) applied to inputs no case lays out.
"""

from __future__ import annotations

import sys
from pathlib import Path

from skill_lsp.engine.activation import NotFoundResult, SkillRecord
from skill_lsp.engine.datarecord import replace
from skill_lsp.engine.harness.data import CODEX_BUILTINS, COPILOT_BUILTINS
from skill_lsp.engine.render import DIALECTS, BudgetWarning
from skill_lsp.engine.render.claude_code import ClaudeCodeDialect
from skill_lsp.engine.render.codex import (
    CodexCatalog,
    CodexDialect,
    budget_catalog,
    builtins,
    system_root,
)
from skill_lsp.engine.render.copilot import LISTING_BUDGET_CHARS, CopilotDialect
from skill_lsp.engine.render.gemini import folder_structure

sys.path.insert(0, str(Path(__file__).parent / "fixtures_render"))
from render_helpers import ok, record  # noqa: E402

NOWHERE = "/nonexistent-skill-lsp-test/skills/pdf-tools"  # never on disk: resources come from the result
# The engine's resource listing: one level under scripts/references/assets plus an overflow marker
# per folder; a caller may hand over deeper paths and top-level files too.
RESOURCES = ("scripts/(... 3 more)", "notes.txt", "scripts/lib/util.py", "scripts/run.py",
             "scripts/lib/(... 2 more)", "Zeta/file.md")
TWO = NotFoundResult(name="pdf", siblings=("pdf-tools", "pdf-merge"))


# --------------------------------------------------------------------------- claude-code


def test_claude_code_tool_result_names_the_skill_as_called():
    # Captures mention-names and same-name-paths: `Launching skill: spaced name`, the declared name
    # the call gave; the preview of a file calls it by its key (listed_name).
    cc = ClaudeCodeDialect()
    assert cc.tool_result(ok(name="spaced name", dir="/ws/.claude/skills/spaced-name/")) == \
        "Launching skill: spaced name"
    assert cc.tool_result(ok(name="BOX", dir="/ws/.claude/skills/BOX/")) == "Launching skill: BOX"
    assert cc.listed_name(record("BOX", "other")) == "BOX"


def test_claude_code_lookups_and_empty_catalog():
    cc = ClaudeCodeDialect()
    assert cc.activation_record([record("a")], "b") is None
    assert cc.render(NotFoundResult(name="b")) == "Unknown skill: b"
    hidden = record("h", "x", **{"disable-model-invocation": True})
    # Its built-in skills follow the user's (left out here): the header is always sent.
    header = "The following skills are available for use with the Skill tool:\n"
    assert cc.render_catalog([hidden]) == header and cc.render_catalog([]) == header


def test_claude_code_entry_shows_a_differing_declared_name():
    rec = replace(record("folder-x", "D."), frontmatter={"name": "declared", "description": "D."})
    assert ClaudeCodeDialect().report(rec).entry == "- folder-x (declared): D."
    assert ClaudeCodeDialect().report(record("same", "D.")).entry == "- same: D."


def test_claude_code_a_hidden_skill_claims_its_declared_name_first():
    """Held-out seed 9001, batch 70: a skill disable-model-invocation keeps out of the catalog is
    still loaded, so its declared name is found first and the listed skill declaring the same name
    is shown under its folder alone; a command's name (`plan`) is never shown."""
    hidden = replace(record("a-hidden", "H."), frontmatter={"name": "1.5", "description": "H.",
                                                             "disable-model-invocation": True})
    shown = replace(record("b-listed", "L."), frontmatter={"name": "1.5", "description": "L."})
    plan = replace(record("c-plan", "P."), frontmatter={"name": "plan", "description": "P."})
    lines = ClaudeCodeDialect().render_catalog([hidden, shown, plan]).splitlines()
    assert "- b-listed: L." in lines and "- c-plan: P." in lines and "a-hidden" not in str(lines)
    assert "- b-listed (1.5): L." in ClaudeCodeDialect().render_catalog([shown]).splitlines()


def test_claude_code_a_cut_inside_a_surrogate_pair_reaches_the_model_as_a_replacement_character():
    # Held-out seed 9001, batch 60: the release sends U+FFFD where its cut leaves half a pair.
    text = "d" * 1534 + "\U0001d11e" + "tail"
    entry = ClaudeCodeDialect().report(record("cut", text)).entry
    assert entry == "- cut: " + "d" * 1534 + "\ufffd\u2026"


def test_claude_code_cap_warning_says_what_is_kept_and_cut():
    text = "d" * 1600 + " - " + "w" * 10
    (w,) = ClaudeCodeDialect().entry_warnings(record("big", "d" * 1600, when_to_use="w" * 10))
    assert (w.dialect, w.code, w.limit, w.actual) == ("claude-code", "claude-code-listing-cap", 1536, len(text))
    assert w.message == f"description + when_to_use is {len(text)} chars; Claude Code lists at most 1536 per skill"
    assert w.kept == text[:1535] and w.cut == text[1535:]
    assert ClaudeCodeDialect().report(record("big", "d" * 1600, when_to_use="w" * 10)).entry == f"- big: {w.kept}\u2026"


# --------------------------------------------------------------------------- copilot


def _block(name: str, description: str, scope: str = "project") -> str:
    return (f"<skill>\n  <name>{name}</name>\n  <description>{description}</description>\n"
            f"  <location>{scope}</location>\n</skill>")


def test_copilot_scope_is_user_under_the_home_folder():
    rec = record("a", "A.")
    for home, root, scope in [("/h", "/h/.copilot/skills", "user"), ("/h/", "/h/.copilot/skills/", "user"),
                              ("/h/", "/h", "user"), ("/hX", "/hX/.agents/skills", "user"),
                              ("/hX", "/hX", "user"), ("/h", "/h ", "project"),
                              ("/h", "/hx/.copilot/skills", "project"), ("/h", "/ws/.github/skills", "project")]:
        assert CopilotDialect(home=home).report(replace(rec, root=root)).entry == _block("a", "A.", scope), (home, root)
    home = str(Path.home())
    assert CopilotDialect().report(replace(rec, root=home + "/.copilot/skills")).entry == _block("a", "A.", "user")


def test_copilot_entry_of_a_skill_it_does_not_load():
    odd = replace(record("num"), frontmatter={"name": 123, "description": 42})
    rep = CopilotDialect(home="/h").report(odd)
    assert not rep.included and rep.entry == _block("num", "")
    # A block scalar keeps its newlines as YAML gives them, except one where the block runs to the
    # closing `---` (the release parses the frontmatter without that newline; probed).
    block = replace(record("b"), frontmatter={"name": "b", "description": "Line one.\nPack the BOX\n\n"})
    assert CopilotDialect(home="/h").report(block).entry == _block("b", "Line one.\nPack the BOX\n\n")
    last = replace(block, text="---\nname: b\ndescription: |+\n  Line one.\n  Pack the BOX\n\n---\nbody\n")
    assert CopilotDialect(home="/h").report(last).entry == _block("b", "Line one.\nPack the BOX\n")


def test_copilot_default_hidden_skills_are_the_release_builtins():
    recs = [record(f"s{i:02}", "d" * 1000) for i in range(15)]
    cp = CopilotDialect(home="/h")
    assert cp.render_catalog(recs) == cp.render_catalog(recs, hidden=COPILOT_BUILTINS)
    assert cp.render_catalog(recs).endswith(", customize-cloud-agent, github-pr-media\n</available_skills>")


def test_copilot_budget_counts_blocks_and_the_newlines_between_them():
    cp = CopilotDialect(home="/h")
    assert LISTING_BUDGET_CHARS == 15_000

    def left_out(hidden):
        text = cp.render_catalog([], hidden=hidden)
        return text.splitlines()[1] if text.count("\n") > 1 else None

    assert left_out([("a", 15_000)]) is None
    assert left_out([("a", 15_001)]) == "Additional skills available (invoke by name): a"
    assert left_out([("a", 14_000), ("b", 999)]) is None  # 14,000 + newline + 999
    assert left_out([("a", 14_000), ("b", 1_000)]) == "Additional skills available (invoke by name): b"
    # after the first block that does not fit, nothing else is listed
    assert left_out([("a", 14_000), ("b", 1_000), ("c", 1)]) == "Additional skills available (invoke by name): b, c"


def test_copilot_names_the_left_out_skills_by_their_declared_name():
    recs = [record(f"s{i:02}", "d" * 1000) for i in range(13)]
    # Listed by name (not folder): the skill in folder `a-folder` named `zz-declared` comes last.
    late = replace(record("a-folder", "d" * 1000), frontmatter={"name": "zz-declared", "description": "d" * 1000})
    text = CopilotDialect(home="/h").render_catalog([*recs, late], hidden=[])
    assert text.splitlines()[-2] == "Additional skills available (invoke by name): zz-declared"


def test_copilot_in_memory_result_lists_its_resources():
    cp = CopilotDialect(home="/h")
    got = cp.render(ok(dir=NOWHERE, resources=RESOURCES, body="\r\nXylophone\n", raw_body="\r\nXylophone\n"))
    assert got == (
        f'<skill-context name="pdf-tools">\nBase directory for this skill: {NOWHERE}\n\n'
        "Related files (use view tool to read):\n"
        f"  - {NOWHERE}/notes.txt\n  - {NOWHERE}/scripts/lib/util.py\n  - {NOWHERE}/scripts/run.py\n"
        f"  - {NOWHERE}/Zeta/file.md\n\nXylophone\n\n</skill-context>"
    )
    assert cp.render(TWO) == 'Skill "pdf" not found. Available skills: pdf-tools, pdf-merge'
    assert cp.activation_record([record("a")], "b") is None


# --------------------------------------------------------------------------- gemini


def test_gemini_tree_from_resources_when_the_folder_is_not_on_disk():
    assert folder_structure(NOWHERE + "X/", RESOURCES) == (
        "Showing up to 200 items (files + folders).\n\n"
        f"{NOWHERE}X/\n"
        "├───notes.txt\n"
        "├───scripts/\n"
        "│   ├───run.py\n"
        "│   └───lib/\n"
        "│       └───util.py\n"
        "└───Zeta/\n"
        "    └───file.md"
    )


def test_gemini_lookups_and_empty_catalog():
    g = DIALECTS["gemini"]
    assert g.render(TWO) == 'Error: Skill "pdf" not found. Available skills are: pdf-tools, pdf-merge'
    assert g.activation_record([record("a")], "b") is None  # type: ignore[attr-defined]
    assert g.render_catalog([]) == ""


# --------------------------------------------------------------------------- opencode


def test_opencode_in_memory_result_samples_its_resources():
    got = DIALECTS["opencode"].render(ok(dir=NOWHERE, resources=RESOURCES))
    files = got.split("<skill_files>\n", 1)[1].split("\n</skill_files>", 1)[0]
    assert files.splitlines() == [f"<file>{NOWHERE}/{r}</file>" for r in
                                  ("notes.txt", "scripts/lib/util.py", "scripts/run.py", "Zeta/file.md")]
    many = tuple(f"references/r{i:02}.md" for i in range(12))
    got = DIALECTS["opencode"].render(ok(dir=NOWHERE, resources=many))
    assert got.count("<file>") == 10 and f"<file>{NOWHERE}/references/r09.md</file>" in got


def test_opencode_lookups():
    oc = DIALECTS["opencode"]
    assert oc.render(TWO) == 'Skill "pdf" not found. Available skills: pdf-tools, pdf-merge'
    assert oc.render(NotFoundResult(name="pdf")) == 'Skill "pdf" not found. Available skills: none'
    assert oc.activation_record([record("a")], "b") is None  # type: ignore[attr-defined]
    odd = replace(record("num"), frontmatter={"name": 123, "description": 42})
    rep = oc.report(odd)
    assert not rep.included and "<name>num</name>" in rep.entry and "<description></description>" in rep.entry


# --------------------------------------------------------------------------- codex
# The budget rule is Codex's source (module docstring of render/codex.py): a line costs its code
# points plus a newline under a character budget, ceil(UTF-8 bytes / 4) under a token budget;
# descriptions grow one character at a time, round-robin; only then are trailing skills dropped.


def _codex_record(name: str, description: object, root: str = "/ws/.skills") -> SkillRecord:
    return SkillRecord(name=name, folder=name, dir=f"{root.rstrip('/')}/{name}", path=f"{root.rstrip('/')}/{name}/SKILL.md",
                       root_index=0, root=root, frontmatter={"name": name, "description": description}, body="B\n")


def test_codex_names_a_nameless_linked_folder_after_the_folder_it_leads_to(tmp_path: Path):
    # Held-out seed 9004 (gen-codex-skill-bytes-link-inside-nested-description-block): Codex canonicalises
    # the skill's path first, so a folder that is a link goes by its target's name; a mention of the
    # link's own name finds nothing.
    target = tmp_path / "linked" / "deploy--notes"
    target.mkdir(parents=True)
    root = tmp_path / ".agents" / "skills"
    (root / "deploy").mkdir(parents=True)
    (root / "deploy" / "notes").symlink_to(target)
    rec = SkillRecord(name="notes", folder="notes", dir=str(root / "deploy" / "notes"),
                      path=str(root / "deploy" / "notes" / "SKILL.md"), root_index=0, root=str(root),
                      frontmatter={"description": "d"}, body="B\n")
    dialect = CodexDialect()
    assert "- deploy--notes: d (file: r0/deploy/notes/SKILL.md)" in dialect.render_catalog([rec], roots=[str(root)],
                                                                                       hidden=[])
    assert dialect.activation_record([rec], "notes") is None
    assert dialect.activation_record([rec], "deploy--notes") is rec
    named = replace(rec, frontmatter={"name": "notes", "description": "d"})
    assert dialect.activation_record([named], "notes") is named


def test_codex_budget_from_the_context_window():
    assert (CodexDialect().budget, CodexDialect().measure) == (5440, "tokens")  # 2 % of 272,000
    assert CodexDialect(context_window=1010).budget == 20 and isinstance(CodexDialect(context_window=1010).budget, int)
    assert CodexDialect(context_window=10).budget == 1
    for window in (None, 0):
        assert (CodexDialect(context_window=window).budget, CodexDialect(context_window=window).measure) == (8000, "chars")
    assert (CodexDialect(budget=500).budget, CodexDialect(budget=500).measure) == (500, "chars")


def test_codex_system_root(monkeypatch):
    monkeypatch.setenv("CODEX_HOME", "/ch")
    assert system_root() == "/ch/skills/.system"
    monkeypatch.delenv("CODEX_HOME")
    monkeypatch.setenv("HOME", "/hh")
    assert system_root() == "/hh/.codex/skills/.system"
    assert [(n, len(d), root) for n, d, root in builtins("/sys")] == [(n, c, "/sys") for n, c, _ in CODEX_BUILTINS]


def test_codex_entry_and_description_cap():
    entry = "- a: " + "x" * 1024 + " (file: C:/ws/a/SKILL.md)"
    rec = replace(_codex_record("a", "x" * 1024), path="C:\\ws\\a\\SKILL.md")
    assert CodexDialect().catalog_entry(rec) == entry
    long = _codex_record("a", "x" * 1025, root="/ws/BOX")
    assert CodexDialect().catalog_entry(long) == "- a: " + "x" * 1021 + "... (file: /ws/BOX/a/SKILL.md)"
    # A number is listed as its text (capture case non-string-values); a list keeps the skill out.
    odd = CodexDialect().report(_codex_record("num", 42, root="/ws/BOX"))
    assert odd.included and odd.entry == "- num: 42 (file: /ws/BOX/num/SKILL.md)"
    assert not CodexDialect().report(_codex_record("seq", ["a"], root="/ws/BOX")).included


def test_codex_activation_without_the_file_text_uses_the_body():
    assert CodexDialect().render(ok(source_text=None)) == (
        "<skill>\n<name>pdf-tools</name>\n<path>/ws/.skills/pdf-tools/SKILL.md</path>\n"
        "\n# PDF tools\n\nRun `scripts/extract.py`.\n\n</skill>")


def test_codex_entry_over_budget_warning_in_each_measure():
    rec = _codex_record("a", "\u00e9" * 10)
    entry = CodexDialect().catalog_entry(rec)
    chars = len(entry) + 1
    assert CodexDialect(budget=chars, system_skills=False).entry_warnings(rec) == []
    tight = CodexDialect(budget=chars - 1, system_skills=False)
    assert tight.entry_warnings(rec) == [BudgetWarning(
        "codex", "codex-entry-over-budget",
        f"this entry alone is {chars} chars; the Codex skills budget is {chars - 1} characters", chars - 1, chars)]
    tokens = -(-len((entry + "\n").encode()) // 4)
    small = CodexDialect(context_window=(tokens - 1) * 50, system_skills=False)
    assert small.entry_warnings(rec) == [BudgetWarning(
        "codex", "codex-entry-over-budget",
        f"this entry alone is {tokens} tokens; the Codex skills budget is {tokens - 1} tokens", tokens - 1, tokens)]
    assert CodexDialect(context_window=tokens * 50, system_skills=False).entry_warnings(rec) == []


def test_codex_catalog_warnings_in_characters():
    recs = [_codex_record("a", "x" * 50), _codex_record("b", "y" * 10)]
    # lines: 5 + 50 + 31 + 1 = 87 and 47 = 134 chars; without descriptions 36 each
    assert CodexDialect(budget=134, system_skills=False).catalog_warnings(recs) == []
    def plain(warnings):  # the paths are checked apart
        return [replace(w, path=None) for w in warnings]

    assert [w.path for w in CodexDialect(budget=92, system_skills=False).catalog_warnings(recs)] == [r.path for r in recs]
    cut = plain(CodexDialect(budget=92, system_skills=False).catalog_warnings(recs))
    over = "the catalog is 134 chars, over the 92 characters Codex budget"
    assert cut == [
        BudgetWarning("codex", "codex-description-truncated", f"description of 'a' is cut to 9 of 50 chars: {over}",
                      92, 134, kept="x" * 9, cut="x" * 41),
        BudgetWarning("codex", "codex-description-truncated", f"description of 'b' is cut to 9 of 10 chars: {over}",
                      92, 134, kept="y" * 9, cut="y"),
    ]
    dropped = plain(CodexDialect(budget=40, system_skills=False).catalog_warnings(recs))
    assert dropped == [
        BudgetWarning("codex", "codex-description-truncated",
                      "description of 'a' is cut to 0 of 50 chars: the catalog is 134 chars, over the 40 characters Codex budget",
                      40, 134, kept="", cut="x" * 50),
        BudgetWarning("codex", "codex-skill-dropped",
                      "skill 'b' is dropped: the catalog is 134 chars, over the 40 characters Codex budget even without descriptions",
                      40, 134),
    ]
    # Windows paths count as written with forward slashes
    win = [replace(r, path=r.path.replace("/", "\\")) for r in recs]
    assert plain(CodexDialect(budget=92, system_skills=False).catalog_warnings(win)) == cut


def test_codex_catalog_warnings_in_tokens():
    recs = [_codex_record("a", "x" * 50), _codex_record("b", "y" * 10)]
    # 87 bytes -> 22 tokens, 47 -> 12: 34 tokens; without descriptions 9 + 9
    (w,) = CodexDialect(context_window=25 * 50, system_skills=False).catalog_warnings(recs)
    assert (w.code, w.limit, w.actual) == ("codex-description-truncated", 25, 34)
    keep = len(w.kept or "")
    assert w.message == (f"description of 'a' is cut to {keep} of 50 chars: "
                         "the catalog is 34 tokens, over the 25 tokens Codex budget")
    assert (w.kept, w.cut) == ("x" * keep, "x" * (50 - keep))

    def tokens(a_chars: int) -> int:  # b (12 tokens) is kept whole
        return -(-len(f"- a: {'x' * a_chars} (file: /ws/.skills/a/SKILL.md)\n".encode()) // 4) + 12

    assert tokens(keep) <= 25 < tokens(keep + 1)  # a line fills its last token
    assert CodexDialect(context_window=34 * 50, system_skills=False).catalog_warnings(recs) == []
    assert [x.code for x in CodexDialect(context_window=33 * 50, system_skills=False).catalog_warnings(recs)] == [
        "codex-description-truncated"]


def test_codex_budget_catalog_edges_in_characters():
    items = [("a", "x" * 50, "/p/a"), ("b", "y" * 10, "/p/b")]
    full = budget_catalog(items, 98)  # 69 + 29
    assert full == CodexCatalog(("- a: " + "x" * 50 + " (file: /p/a)", "- b: " + "y" * 10 + " (file: /p/b)"),
                                {"a": 50, "b": 10}, (), {})
    bare = budget_catalog(items, 36)  # the description-less lines exactly
    assert bare == CodexCatalog(("- a: (file: /p/a)", "- b: (file: /p/b)"), {"a": 0, "b": 0}, (), {"a": 50, "b": 10})
    # the first character of a description also pays for its separating space
    assert budget_catalog([("a", "xyz", "/p")], 17).lines == ("- a: (file: /p)",)
    assert budget_catalog([("a", "xyz", "/p")], 18).lines == ("- a: x (file: /p)",)
    # a description that fits whole is not reported as cut
    short = budget_catalog([("a", "x" * 50, "/p/a"), ("b", "yy", "/p/b")], 46)
    assert short == CodexCatalog(("- a: xxxxxx (file: /p/a)", "- b: yy (file: /p/b)"), {"a": 6, "b": 2}, (), {"a": 44})
    three = [(n, "d" * 5, f"/p/{n}") for n in "abc"]
    assert budget_catalog(three, 36) == CodexCatalog(("- a: (file: /p/a)", "- b: (file: /p/b)"),
                                                     {"a": 0, "b": 0, "c": 0}, ("c",), {"a": 5, "b": 5, "c": 5})
    # characters are code points, not bytes
    wide = [("n\u00e9", "\u00e9" * 20, "/p/\u00e9")]
    assert budget_catalog(wide, len("- n\u00e9: (file: /p/\u00e9)\n") + 5).lines == ("- n\u00e9: \u00e9\u00e9\u00e9\u00e9 (file: /p/\u00e9)",)
    assert budget_catalog([("a", "\u00e9" * 10, "/p/a")], 29).lines == ("- a: " + "\u00e9" * 10 + " (file: /p/a)",)


def test_codex_budget_catalog_in_tokens_fills_the_last_token():
    items = [("a", "x" * 50, "/p/a")]  # 69 bytes + newline = 70 -> 18 tokens
    assert budget_catalog(items, 18, "tokens").truncated == {}
    assert budget_catalog(items, 17, "tokens").lines == ("- a: " + "x" * 49 + " (file: /p/a)",)  # 68 bytes
    wide = [("a", "\u00e9" * 20, "/p/a")]  # two bytes a character
    assert budget_catalog(wide, 12, "tokens").lines == ("- a: " + "\u00e9" * 14 + " (file: /p/a)",)  # 47 bytes


def test_codex_roots_table_labels_and_absolute_paths():
    d = CodexDialect(budget=8000, system_skills=False)

    def body(text: str) -> list[str]:
        return text.split("### Skill roots\n", 1)[1].split("\n</skills_instructions>")[0].splitlines()

    rec = _codex_record("a", "A.", root="/ws/BOX")
    assert body(d.render_catalog([rec], roots=["/ws/BOX/"])) == [
        "- `r0` = `/ws/BOX/`", "### Available skills", "- a: A. (file: r0/a/SKILL.md)"]
    slashed = _codex_record("a", "A.", root="/ws/BOX/")
    assert body(d.render_catalog([slashed], roots=["/ws/BOX"])) == [
        "- `r0` = `/ws/BOX`", "### Available skills", "- a: A. (file: r0/a/SKILL.md)"]
    assert body(d.render_catalog([rec], roots=["/elsewhere"])) == [
        "### Available skills", "- a: A. (file: /ws/BOX/a/SKILL.md)"]
    hidden = [("sys", "d", "/sysX/")]
    assert body(d.render_catalog([rec], roots=["/sysX/", "/ws/BOX"], hidden=hidden)) == [
        "- `r0` = `/sysX/`", "- `r1` = `/ws/BOX`", "### Available skills", "- a: A. (file: r1/a/SKILL.md)"]
    assert ".system" not in d.render_catalog([rec])


def test_codex_hidden_skills_outside_the_table_cost_their_absolute_path():
    # hidden line "- sys: (file: /sys/root/sys/SKILL.md)" = 38 with its newline; "- a: A. (file: r0/a/SKILL.md)" = 30
    rec = _codex_record("a", "A.", root="/ws/BOX")
    for budget, line in ((68, "- a: A. (file: r0/a/SKILL.md)"), (67, "- a: A (file: r0/a/SKILL.md)")):
        text = CodexDialect(budget=budget).render_catalog([rec], roots=["/ws/BOX"], hidden=[("sys", "", "/sys/root")])
        assert text.splitlines()[-2] == line


def test_codex_table_costs_nothing_under_a_character_budget_and_little_under_a_token_budget():
    rec = _codex_record("a", "A.", root="/ws/BOX")
    line = "- a: A. (file: r0/a/SKILL.md)"
    for budget, shown in ((30, line), (29, "- a: A (file: r0/a/SKILL.md)"), (28, "- a: (file: r0/a/SKILL.md)")):
        text = CodexDialect(budget=budget, system_skills=False).render_catalog([rec], roots=["/ws/BOX"])
        assert text.splitlines()[-2] == shown
    # a short roots table costs fewer tokens than the absolute-path header: the budget is whole
    tokens = -(-len(line + "\n") // 4)
    text = CodexDialect(context_window=tokens * 50, system_skills=False).render_catalog([rec], roots=["/ws/BOX"])
    assert text.splitlines()[-2] == line


def test_opencode_lists_by_declared_name_and_a_later_copy_of_a_name_wins():
    def named(folder: str, name: str, root_index: int = 0) -> SkillRecord:
        return replace(record(folder, f"{folder} copy."), frontmatter={"name": name, "description": f"{folder} copy."},
                       root_index=root_index)

    chosen = DIALECTS["opencode"].order([named("zz", "aa"), named("bb", "bb"), named("cc", "bb", 1)])
    assert [(r.folder, r.frontmatter["name"]) for r in chosen] == [("zz", "aa"), ("cc", "bb")]


def test_claude_code_first_line_cap_is_100_utf16_units():
    # the release: `k.length > 100 ? k.substring(0, 97) + "..." : k` (capture case listing-fallbacks)
    def text(first: str) -> str:
        rec = replace(record("x"), frontmatter={"name": "x"}, body=f"\n{first}\nmore\n")
        return ClaudeCodeDialect().report(rec).entry.removeprefix("- x: ")

    assert text("a" * 100) == "a" * 100
    assert text("a" * 101) == "a" * 97 + "..."
    assert text("\U0001f600" * 50) == "\U0001f600" * 50  # 100 units
    assert text("## " + "b" * 100) == "b" * 100


def test_claude_code_an_unlisted_skill_does_not_end_the_listing():
    hidden = record("a-hidden", "x", **{"disable-model-invocation": True})
    assert [r.folder for r in ClaudeCodeDialect().order([hidden, record("b"), record("c")])] == ["b", "c"]


def test_skill_tool_catalog_shows_no_description_that_is_not_a_string():
    assert DIALECTS["skill-tool"].catalog_entry(record("a", 42)) == "- a: "


def test_codex_default_roots_put_the_system_root_after_the_home_roots(monkeypatch):
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setenv("HOME", "/hhX/")
    recs = [_codex_record("a", "A.", root="/ws/.agents/skills"),
            replace(_codex_record("b", "B.", root="/hhX/.agents/skills"), root_index=1),
            replace(_codex_record("c", "C.", root="/ws2/.agents/skills"), root_index=2)]
    text = CodexDialect().render_catalog(recs)
    assert text.split("### Skill roots\n")[1].split("\n### Available")[0].splitlines() == [
        "- `r0` = `/ws/.agents/skills`", "- `r1` = `/hhX/.agents/skills`", "- `r2` = `/hhX/.codex/skills/.system`",
        "- `r3` = `/ws2/.agents/skills`"]


def test_codex_default_roots_when_home_is_the_file_system_root(monkeypatch):
    # every root is then in the home folder: the system root comes last
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.setenv("HOME", "/")
    text = CodexDialect().render_catalog([_codex_record("a", "A.", root="/ws/.agents/skills")])
    assert text.split("### Skill roots\n")[1].split("\n### Available")[0].splitlines() == [
        "- `r0` = `/ws/.agents/skills`", "- `r1` = `/.codex/skills/.system`"]


def test_codex_default_roots_with_hidden_skills_in_two_roots():
    rec = _codex_record("a", "A.", root="/s1")
    hidden = [("h1", "d", "/s1"), ("h2", "d", "/s2")]
    text = CodexDialect(budget=8000).render_catalog([rec], hidden=hidden)
    assert text.split("### Skill roots\n")[1].split("\n### Available")[0].splitlines() == ["- `r0` = `/s1`"]
    assert text.splitlines()[-2] == "- a: A. (file: r0/a/SKILL.md)"


def test_codex_hidden_skills_in_the_table_cost_their_short_path():
    # hidden "- sys: (file: r0/sys/SKILL.md)" = 31 with its newline; "- a: A. (file: r1/a/SKILL.md)" = 30
    rec = _codex_record("a", "A.", root="/ws/BOX")
    text = CodexDialect(budget=61).render_catalog([rec], roots=["/sysX/", "/ws/BOX"], hidden=[("sys", "", "/sysX/")])
    assert text.splitlines()[-2] == "- a: A. (file: r1/a/SKILL.md)"


def test_codex_characters_are_code_points_in_warnings_and_when_dropping():
    recs = [_codex_record("a", "\u00e9" * 50), _codex_record("b", "y" * 10)]
    (a, b) = CodexDialect(budget=92, system_skills=False).catalog_warnings(recs)
    assert (a.actual, b.actual) == (134, 134)
    three = [(n, "d" * 5, f"/p/{n}") for n in ("\u00e9", "b", "c")]
    assert budget_catalog(three, 36).omitted == ("c",)


def test_gemini_a_later_root_replaces_an_earlier_skill_of_the_same_name():
    first = replace(record("a", "First."), frontmatter={"name": "x", "description": "First."})
    later = replace(record("b", "Later."), frontmatter={"name": "x", "description": "Later."}, root_index=1)
    assert [r.folder for r in DIALECTS["gemini"].order([first, later])] == ["b"]


def test_claude_codes_project_folder_is_told_by_a_project_skill_only():
    # ${CLAUDE_PROJECT_DIR} (capture case project-dir): the session's folder, known from a project
    # skill's place; a user skill's session could be anywhere, so the preview leaves it as written.
    import os

    from skill_lsp.engine.render.claude_code import project_folder, substitute

    assert project_folder("/p/repo/.claude/skills/x") == "/p/repo"
    assert project_folder("/p/repo/.claude/skills/group/x") == "/p/repo"
    assert project_folder(os.path.expanduser("~/.claude/skills/x")) is None
    assert project_folder("/p/repo/.agents/skills/x") is None
    assert substitute("at ${CLAUDE_PROJECT_DIR}/a and ${CLAUDE_EFFORT}", "", "/s", project_dir="/p") == "at /p/a and medium"
    assert substitute("at ${CLAUDE_PROJECT_DIR}", "", "/s") == "at ${CLAUDE_PROJECT_DIR}"
