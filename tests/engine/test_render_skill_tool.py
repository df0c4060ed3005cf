from __future__ import annotations

import sys
from pathlib import Path

from skill_lsp.engine.activation import AlreadyLoadedResult, ErrorResult, NotFoundResult, ToolError
from skill_lsp.engine.render import DIALECTS, catalog_report, render_result
from skill_lsp.engine.render.skill_tool import serialize_frontmatter

sys.path.insert(0, str(Path(__file__).parent / "fixtures_render"))
from render_helpers import ALREADY, DIR, DISABLED, NOT_FOUND, ok, record  # noqa: E402

D = DIALECTS["skill-tool"]


def test_ok_golden():
    assert render_result(ok()) == (
        f'<skill name="pdf-tools" dir="{DIR}">\n'
        "<frontmatter>\n"
        "name: pdf-tools\n"
        'description: "Extract text from PDFs."\n'
        "</frontmatter>\n"
        "<instructions>\n"
        "\n# PDF tools\n\nRun `scripts/extract.py`.\n"
        "\n</instructions>\n"
        "<resources>\n"
        "scripts/extract.py\n"
        "references/spec.md\n"
        "</resources>\n"
        "</skill>\n"
        f'(Skill "pdf-tools" activated. Body is 38 bytes. Scripts available via bash({DIR}/scripts/<name>). '
        f"References via read({DIR}/references/<name>).)"
    )


def test_ok_empty_parts_dropped():
    out = D.render(ok(body="", frontmatter={}, resources=(), bytes=0))
    assert out == (
        f'<skill name="pdf-tools" dir="{DIR}">\n<frontmatter>\n</frontmatter>\n<instructions>\n</instructions>\n</skill>\n'
        f'(Skill "pdf-tools" activated. Body is 0 bytes. Scripts available via bash({DIR}/scripts/<name>). '
        f"References via read({DIR}/references/<name>).)"
    )


def test_frontmatter_serialisation_rules():
    fm = {
        "name": "a-b",
        "version": "1.0.0",
        "n": 3,
        "f": 1.5,
        "whole": 2.0,
        "yes": True,
        "none": None,
        "empty-list": [],
        "tools": ["Read", "Bash(git log:*)", 1, None, True],
        "empty-map": {},
        "metadata": {"owner": "team", "deep": {"k": "v w"}},
        "multi": "line one\nline two",
        "quoted": 'has "quotes" and é\t',
    }
    assert serialize_frontmatter(fm) == (
        "name: a-b\n"
        "version: 1.0.0\n"
        "n: 3\n"
        "f: 1.5\n"
        "whole: 2\n"
        "yes: true\n"
        "none:\n"
        "empty-list: []\n"
        'tools: [Read, "Bash(git log:*)", 1, null, true]\n'
        "empty-map: {}\n"
        "metadata:\n"
        "  owner: team\n"
        "  deep:\n"
        '    k: "v w"\n'
        "multi: |\n"
        "  line one\n"
        "  line two\n"
        'quoted: "has \\"quotes\\" and é\\t"'
    )
    # JS `$` would not accept a trailing newline: a value ending in \n is a block.
    assert serialize_frontmatter({"k": "abc\n"}) == "k: |\n  abc\n  "


def test_already_loaded_both_forms():
    assert (
        D.render(ALREADY)
        == '(Skill "pdf-tools" is already active in this session. No new content was added.)'
    )
    assert D.render(AlreadyLoadedResult(name="x", at_turn=0)) == (
        '(Skill "x" is already active in this session. Body was loaded at turn 0. No new content was added.)'
    )


def test_not_found_and_error():
    assert D.render(NOT_FOUND) == (
        '(No skill matches "pdf-tool". Did you mean: pdf-tools? Run with a listed name from the catalog.)'
    )
    assert (
        D.render(NotFoundResult(name="q"))
        == '(No skill matches "q". Check the catalog for installed skill names.)'
    )
    assert D.render(DISABLED) == (
        'Error [DISABLED]: skill "pdf-tools" has disable-model-invocation: true; only user-initiated activation is allowed'
    )
    assert D.render(ErrorResult(ToolError("IO_ERROR", "x"))) == "Error [IO_ERROR]: x"


def test_catalog_entry_report():
    rep = catalog_report(record(), "skill-tool")
    assert rep.entry == "- pdf-tools: Extract text from PDFs."
    assert rep.chars == 36 and rep.tokens == 9 and rep.warnings == () and rep.included


def test_other_values_are_written_as_their_text():
    from decimal import Decimal

    assert serialize_frontmatter({"k": Decimal("1.50"), "nested": {"d": Decimal("2")}}) == "k: 1.50\nnested:\n  d: 2"
