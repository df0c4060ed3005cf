"""The captured dialects beyond what one capture case shows: results built in memory (no skill
folder on disk), budgets at their exact edge, warnings, and lookups that find nothing.

The texts are the captured formats (tests/golden/harness) applied to inputs no case lays out.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from skill_lsp.engine.activation import NotFoundResult
from skill_lsp.engine.harness.data import COPILOT_BUILTINS
from skill_lsp.engine.render import DIALECTS
from skill_lsp.engine.render.claude_code import ClaudeCodeDialect
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


def test_claude_code_tool_result_names_the_folder():
    cc = ClaudeCodeDialect()
    assert cc.tool_result(ok(dir="/ws/.claude/skills/BOX/")) == "Launching skill: BOX"
    assert cc.tool_result(ok(dir="pdf-tools")) == "Launching skill: pdf-tools"


def test_claude_code_lookups_and_empty_catalog():
    cc = ClaudeCodeDialect()
    assert cc.activation_record([record("a")], "b") is None
    assert cc.render(NotFoundResult(name="b")) == "Unknown skill: b"
    hidden = record("h", "x", **{"disable-model-invocation": True})
    assert cc.render_catalog([hidden]) == "" and cc.render_catalog([]) == ""


def test_claude_code_entry_shows_a_differing_declared_name():
    rec = replace(record("folder-x", "D."), frontmatter={"name": "declared", "description": "D."})
    assert ClaudeCodeDialect().report(rec).entry == "- folder-x (declared): D."
    assert ClaudeCodeDialect().report(record("same", "D.")).entry == "- same: D."


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
                              ("/h", "/hx/.copilot/skills", "project"), ("/h", "/ws/.github/skills", "project")]:
        assert CopilotDialect(home=home).report(replace(rec, root=root)).entry == _block("a", "A.", scope), (home, root)
    home = str(Path.home())
    assert CopilotDialect().report(replace(rec, root=home + "/.copilot/skills")).entry == _block("a", "A.", "user")


def test_copilot_entry_of_a_skill_it_does_not_load():
    odd = replace(record("num"), frontmatter={"name": 123, "description": 42})
    rep = CopilotDialect(home="/h").report(odd)
    assert not rep.included and rep.entry == _block("num", "")
    block = replace(record("b"), frontmatter={"name": "b", "description": "Line one.\nPack the BOX\n\n"})
    assert CopilotDialect(home="/h").report(block).entry == _block("b", "Line one.\nPack the BOX")


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
    late = replace(record("zz-folder", "d" * 1000), frontmatter={"name": "declared-late", "description": "d" * 1000})
    text = CopilotDialect(home="/h").render_catalog([*recs, late], hidden=[])
    assert text.splitlines()[-2] == "Additional skills available (invoke by name): declared-late"


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
