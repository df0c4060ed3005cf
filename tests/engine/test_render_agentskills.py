from __future__ import annotations

import sys
from pathlib import Path

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
