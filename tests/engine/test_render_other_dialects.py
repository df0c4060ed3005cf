from __future__ import annotations

import sys
from pathlib import Path

import pytest

from skill_lsp.engine.render import DIALECTS, get_dialect, render_catalog
from skill_lsp.engine.render.codex import budget_catalog

sys.path.insert(0, str(Path(__file__).parent / "fixtures_render"))
from render_helpers import DIR, NOT_FOUND, ok, record  # noqa: E402


def test_registry():
    assert list(DIALECTS) == [
        "skill-tool",
        "dsh",
        "agentskills",
        "claude-code",
        "codex",
        "opencode",
        "gemini",
        "copilot",
    ]
    with pytest.raises(ValueError):
        get_dialect("nope")


def test_claude_code_golden_and_cap():
    D = DIALECTS["claude-code"]
    assert (
        D.render(ok())
        == f"Base directory for this skill: {DIR}\n\n# PDF tools\n\nRun `scripts/extract.py`.\n"
    )
    # Proven against Claude Code 2.1.332: only leading whitespace is trimmed, and
    # arguments without a placeholder are appended.
    assert D.render(ok(arguments="x y")).endswith("`scripts/extract.py`.\n\n\nARGUMENTS: x y")
    assert render_catalog(
        [record("b", "Bee."), record("a", "Ay.", when_to_use="When A.")], "claude-code"
    ) == (
        "The following skills are available for use with the Skill tool:\n\n- a: Ay. - When A.\n- b: Bee."
    )
    rep = D.report(record("big", "d" * 1500, when_to_use="w" * 100))
    (w,) = rep.warnings
    assert w.code == "claude-code-listing-cap" and w.actual == 1603 and w.limit == 1536
    assert rep.entry == "- big: " + "d" * 1500 + " - " + "w" * 32 + "\u2026"
    assert len(w.cut) == 1603 - 1535
    assert not D.report(record("h", "x", **{"disable-model-invocation": True})).included


@pytest.mark.parametrize(("when", "cut"), [(533, False), (534, True)])
def test_claude_code_cap_is_exact(when: int, cut: bool):
    # description (1000) + " - " + when_to_use: 1536 characters are listed whole, 1537 are not.
    rep = DIALECTS["claude-code"].report(record("cap", "d" * 1000, when_to_use="w" * when))
    assert bool(rep.warnings) is cut
    assert (("w" * when) in rep.entry) is not cut
    assert len(rep.entry) <= len("- cap: ") + 1536


def test_codex_golden():
    D = DIALECTS["codex"]
    assert D.render(ok()) == (
        "<skill>\n<name>pdf-tools</name>\n<path>/ws/.skills/pdf-tools/SKILL.md</path>\n"
        "---\nname: pdf-tools\ndescription: Extract text from PDFs.\n---\n# PDF tools\n\n</skill>"
    )
    assert (
        D.catalog_entry(record())
        == "- pdf-tools: Extract text from PDFs. (file: /ws/.skills/pdf-tools/SKILL.md)"
    )


def test_codex_budget_truncates_descriptions_before_dropping():
    items = [("a", "x" * 50, "/p/a"), ("b", "y" * 10, "/p/b")]
    full = budget_catalog(items, 1000)
    assert full.truncated == {} and full.omitted == ()
    # minimum lines: "- a: (file: /p/a)" = 17 chars + newline each -> 36; 20 left.
    cut = budget_catalog(items, 56)
    assert cut.omitted == ()
    assert cut.lines == ("- a: " + "x" * 9 + " (file: /p/a)", "- b: " + "y" * 9 + " (file: /p/b)")
    assert cut.truncated == {"a": 41, "b": 1}
    assert sum(len(line) + 1 for line in cut.lines) <= 56
    dropped = budget_catalog(items, 20)
    assert dropped.lines == ("- a: (file: /p/a)",) and dropped.omitted == ("b",)
    D = type(DIALECTS["codex"])(budget=92, system_skills=False)
    recs = [record("a", "x" * 50), record("b", "y" * 10)]
    codes = [w.code for w in D.catalog_warnings(recs)]
    assert codes == ["codex-description-truncated", "codex-description-truncated"]
    assert [w.code for w in type(D)(budget=40, system_skills=False).catalog_warnings(recs)] == [
        "codex-description-truncated",
        "codex-skill-dropped",
    ]


def test_opencode_golden():
    D = DIALECTS["opencode"]
    assert D.render(ok()) == (
        '<skill_content name="pdf-tools">\n'
        "# Skill: pdf-tools\n"
        "\n"
        "# PDF tools\n\nRun `scripts/extract.py`.\n"
        "\n"
        "Base directory for this skill: /ws/.skills/pdf-tools\n"
        "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\n"
        "Note: file list is sampled.\n"
        "\n"
        "<skill_files>\n"
        f"<file>{DIR}/scripts/extract.py</file>\n"
        f"<file>{DIR}/references/spec.md</file>\n"
        "</skill_files>\n"
        "</skill_content>"
    )
    assert D.render(NOT_FOUND) == 'Skill "pdf-tool" not found. Available skills: pdf-tools'


def test_gemini_golden():
    D = DIALECTS["gemini"]
    # Gemini CLI hands over what follows the frontmatter in the file (gemini_frontmatter.py), JS-trimmed.
    whole = "---\nname: pdf-tools\ndescription: Extract text from PDFs.\n---\n\n# PDF tools\n\nRun `scripts/extract.py`.\n"
    assert D.render(ok(source_text=whole)) == (
        '<activated_skill name="pdf-tools">\n'
        "  <instructions>\n"
        "    # PDF tools\n\nRun `scripts/extract.py`.\n"
        "  </instructions>\n"
        "\n"
        "  <available_resources>\n"
        "    Showing up to 200 items (files + folders).\n\n"
        "/ws/.skills/pdf-tools/\n"
        "├───references/\n│   └───spec.md\n"
        "└───scripts/\n    └───extract.py\n"
        "  </available_resources>\n"
        "</activated_skill>"
    )
    assert render_catalog([record()], "gemini") == (
        "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and "
        "receive its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n"
        "<available_skills>\n  <skill>\n    <name>pdf-tools</name>\n    <description>Extract text from PDFs.</description>\n"
        "    <location>/ws/.skills/pdf-tools/SKILL.md</location>\n  </skill>\n</available_skills>"
    )


@pytest.mark.parametrize("name", list(DIALECTS))
def test_every_dialect_renders_every_kind(name):
    from render_helpers import ALREADY, DISABLED

    D = DIALECTS[name]
    for result in (ok(), ALREADY, NOT_FOUND, DISABLED):
        assert isinstance(D.render(result), str) and D.render(result)
    rep = D.report(record())
    assert rep.dialect == name and rep.chars == len(rep.entry) and rep.tokens > 0


def test_codex_system_skills_share_the_budget():
    # Codex 0.171.0 lists its four system skills first (numbers in engine.harness.data,
    # capture case many-skills): with them, a budget that fits the user's skills alone cuts.
    D = type(DIALECTS["codex"])(budget=2500)
    recs = [record("a", "x" * 900), record("b", "y" * 900)]
    alone = type(D)(budget=2500, system_skills=False)
    assert alone.catalog_warnings(recs) == []
    assert {w.code for w in D.catalog_warnings(recs)} == {"codex-description-truncated"}
    text = D.render_catalog(recs)
    assert "imagegen" not in text and "/.codex/skills/.system`" in text  # counted and in the table, not shown


@pytest.mark.parametrize("block, value, listed", [
    ("|+", "two\n\n", "two\n"),       # keep: one newline less (differential tester, seed 2026)
    (">+", "two\n\n\n", "two\n\n"),
    ("|2+", "two\n\n", "two\n"),
    ("|", "two\n", "two\n"),       # clip: js-yaml adds the newline at the end of its input
    (">", "two\n", "two\n"),
    ("|-", "two", "two"),
])
def test_opencode_keep_block_description_ending_the_frontmatter_keeps_one_newline_less(block, value, listed):
    # gray-matter hands js-yaml the text up to "\n---" (OpenCode 1.18.33).
    from skill_lsp.engine.datarecord import replace
    lines = value.rstrip("\n")
    text = f"---\nname: pdf-tools\ndescription: {block}\n  {lines}\n" + "\n" * (len(value) - len(lines) - 1) + "---\nBody\n"
    r = replace(record(description=value), text=text)
    assert f"<description>{listed}</description>" in DIALECTS["opencode"].catalog_entry(r)
    # Followed by another key, the block keeps what YAML gives it.
    later = replace(r, text=text.replace("---\nBody", "license: MIT\n---\nBody"))
    assert f"<description>{value}</description>" in DIALECTS["opencode"].catalog_entry(later)
