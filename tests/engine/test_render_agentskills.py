from __future__ import annotations

import sys
from pathlib import Path

from skill_lsp.engine.activation import NotFoundResult
from skill_lsp.engine.datarecord import replace
from skill_lsp.engine.render import DIALECTS
from skill_lsp.engine.render.agentskills import to_prompt

sys.path.insert(0, str(Path(__file__).parent / "fixtures_render"))
from render_helpers import DIR, NOT_FOUND, ok, record  # noqa: E402

D = DIALECTS["agentskills"]


def test_ok_golden():
    assert D.render(ok()) == (
        '<skill_content name="pdf-tools">\n'
        "# PDF tools\n\nRun `scripts/extract.py`.\n"
        f"Skill directory: {DIR}\n"
        "Relative paths in this skill are relative to the skill directory.\n"
        "\n"
        "<skill_resources>\n"
        "  <file>scripts/extract.py</file>\n"
        "  <file>references/spec.md</file>\n"
        "</skill_resources>\n"
        "</skill_content>"
    )
    assert D.render(ok(resources=())).endswith(
        "Relative paths in this skill are relative to the skill directory.\n</skill_content>"
    )


def test_catalog_golden_escaped():
    rec = record("my-skill", 'Use <foo> & "bar" it\'s')
    assert to_prompt([rec]) == (
        "<available_skills>\n<skill>\n<name>\nmy-skill\n</name>\n<description>\n"
        "Use &lt;foo&gt; &amp; &quot;bar&quot; it&#x27;s\n"
        "</description>\n<location>\n/ws/.skills/my-skill/SKILL.md\n</location>\n</skill>\n</available_skills>"
    )
    assert D.render_catalog([]) == "<available_skills>\n</available_skills>"
    assert D.render_catalog([record("z"), record("a")]).index("<name>\nz\n") < D.render_catalog(
        [record("z"), record("a")]
    ).index("<name>\na\n")  # to_prompt keeps the given order


def test_not_found_and_report():
    assert D.render(NOT_FOUND) == 'Skill "pdf-tool" not found. Did you mean: pdf-tools?'
    rep = D.report(record())
    assert rep.entry.startswith("<skill>\n<name>\npdf-tools\n</name>") and rep.chars == len(
        rep.entry
    )
    assert not D.report(record(description="")).included


def test_who_to_prompt_can_read():
    # read_properties wants a non-empty string name and description; it never compares the
    # name with the folder (skills-ref 0.1.1 parser.py)
    mismatch = replace(record("alpha", "A."), error=("NAME_MISMATCH", "name differs from the folder"))
    assert D.includes(mismatch)
    assert not D.includes(replace(record("beta", "B."), error=("INVALID_FRONTMATTER", "NAME_MISMATCH")))
    empty = replace(record("gamma", "G."), frontmatter={"name": "", "description": "G."})
    assert not D.includes(empty)
    # no name at all (read_properties: "Missing required field"): not listed, shown under the folder
    nameless = replace(record("epsilon", "E."), frontmatter={"description": "E."})
    assert not D.includes(nameless) and D.report(nameless).entry.startswith("<skill>\n<name>\nepsilon\n</name>")
    assert not D.includes(record("delta", ["a list"]))
    assert D.report(record("delta", ["a list"])).entry.split("\n")[4:7] == ["<description>", "", "</description>"]


def test_location_names_the_file_found():
    lower = replace(record(), path="/ws/.skills/pdf-tools/skill.md")
    assert D.catalog_entry(lower).split("\n")[-3] == "/ws/.skills/pdf-tools/skill.md"
    assert D.catalog_entry(replace(record(), path="")).split("\n")[-3] == "/ws/.skills/pdf-tools/SKILL.md"


def test_activation_keeps_the_body_but_its_outer_line_breaks():
    got = D.render(ok(body="\n    indented code\nXylophone\n\n", resources=('say "hi".sh', "a&b.md")))
    assert got.split("\n")[1:3] == ["    indented code", "Xylophone"]
    assert D.render(ok(body="\nXylophone X\n")).split("\n")[1] == "Xylophone X"
    assert '  <file>say "hi".sh</file>' in got and "  <file>a&amp;b.md</file>" in got
    two = NotFoundResult(name="pdf", siblings=("pdf-tools", "pdf-merge"))
    assert D.render(two) == 'Skill "pdf" not found. Did you mean: pdf-tools, pdf-merge?'
