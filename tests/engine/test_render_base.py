"""What every dialect shares: the registry, proofs, listing verdicts, reports and the lenient reader."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from skill_lsp.engine.datarecord import replace
from skill_lsp.engine.harness import HARNESSES
from skill_lsp.engine.lenient import fields, simple_frontmatter, text_value
from skill_lsp.engine.listing import Listing
from skill_lsp.engine.render import (
    DEFAULT_DIALECT,
    DIALECTS,
    catalog_report,
    get_dialect,
    render_catalog,
    render_result,
)
from skill_lsp.engine.render.proof import Proof, proof

sys.path.insert(0, str(Path(__file__).parent / "fixtures_render"))
from render_helpers import NOT_FOUND, ok, record  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "harness"


def test_module_functions_use_the_named_dialect_and_default_to_the_skill_tool():
    assert DEFAULT_DIALECT == "skill-tool"
    dsh = DIALECTS["dsh"]
    assert get_dialect(dsh) is dsh and get_dialect("dsh") is dsh
    assert render_result(ok(), "dsh") == dsh.render(ok())
    assert render_result(ok()) == DIALECTS["skill-tool"].render(ok())
    assert render_catalog([record()]) == "- pdf-tools: Extract text from PDFs."
    assert catalog_report(record("a", "x"), "dsh").entry == "- `a`: x"
    assert catalog_report(record("a", "x")).entry == "- a: x"
    with pytest.raises(ValueError, match="unknown dialect 'nope'; known: skill-tool, dsh, agentskills"):
        get_dialect("nope")


@pytest.mark.parametrize("kind", ["activation", "catalog"])
def test_captured_dialects_point_at_their_stored_captures(kind):
    for name in ("claude-code", "codex", "opencode", "gemini", "copilot"):
        (folder,) = GOLDEN.glob(f"{name}@*")  # the one pinned release with captures
        got = proof(name, kind)
        assert got.verified and got.proof.startswith(f"capture: {folder.name} (tests/golden/harness/{folder.name})")
        # Only Gemini's catalog order is left open by the release itself (capture/verify).
        caveat = "the order within a root can differ from run to run"
        assert (caveat in got.proof) == (name == "gemini" and kind == "catalog")


def test_uncaptured_dialects_say_what_they_rest_on():
    assert proof("dsh").verified and proof("dsh", "catalog").verified
    assert "dsh-skill 0.1.0-rc.8" in proof("dsh").proof and "dsh-tool-skill" in proof("dsh", "catalog").proof
    assert proof("agentskills", "catalog").verified and not proof("agentskills").verified
    assert proof("skill-tool").verified and not proof("skill-tool", "catalog").verified
    # A documented-only harness and an unknown name are never claimed as verified.
    assert HARNESSES["goose"].proof == "documented"
    for name in ("goose", "nope"):
        assert proof(name) == Proof(False, "documented, not verified")
    for name in DIALECTS:
        for kind in ("activation", "catalog"):
            got = proof(name, kind)
            assert got.verified or got.proof.startswith("documented, not verified")


def test_a_dialect_without_a_harness_lists_by_its_own_rule():
    dsh = DIALECTS["dsh"]
    assert dsh.listing(record()) == Listing("dsh", True, None, "pdf-tools")
    hidden = record("h", "x", **{"disable-model-invocation": True})
    assert dsh.listing(hidden) == Listing("dsh", False, "DeepSeek Harness does not list it")
    broken = replace(record("b"), error=("INVALID_FRONTMATTER", "'description' is missing"))
    assert dsh.listing(broken) == Listing("dsh", False, "'description' is missing")


def test_the_skill_tool_catalog_is_sorted_by_name_one_line_each():
    records = [record("zeta", "Z."), record("alpha", "A."), replace(record("broken"), error=("X", "y"))]
    assert DIALECTS["skill-tool"].render_catalog(records) == "- alpha: A.\n- zeta: Z."


def test_catalog_warnings_gather_the_listed_entries_in_catalog_order():
    cc = DIALECTS["claude-code"]
    big = record("big", "d" * 1600)
    records = [record("small", "s"), big, record("bigger", "d" * 1700),
               record("hidden", "d" * 1700, **{"disable-model-invocation": True})]
    assert [(w.code, w.actual) for w in cc.catalog_warnings(records)] == [
        ("claude-code-listing-cap", 1600), ("claude-code-listing-cap", 1700)]
    assert DIALECTS["skill-tool"].catalog_warnings(records) == []


def test_report_names_the_record_and_measures_its_entry():
    rep = DIALECTS["skill-tool"].report(record("alpha", "A."))
    assert (rep.dialect, rep.name, rep.included, rep.entry, rep.chars) == ("skill-tool", "alpha", True, "- alpha: A.", 11)
    assert rep.tokens > 0 and rep.warnings == ()
    assert not DIALECTS["skill-tool"].report(replace(record("x"), error=("X", "y"))).included


def test_already_loaded_without_a_previous_load_and_errors():
    from skill_lsp.engine.activation import AlreadyLoadedResult, ErrorResult, ToolError

    text = DIALECTS["codex"].render(AlreadyLoadedResult(name="pdf-tools"))
    assert text == '(Skill "pdf-tools" is already active in this session. No new content was added.)'
    err = ErrorResult(ToolError("PERMISSION_DENIED", "blocked here"), name="x")
    assert DIALECTS["codex"].render(err) == "Error [PERMISSION_DENIED]: blocked here"
    with pytest.raises(TypeError, match="not a skill tool result"):
        DIALECTS["codex"].render(NOT_FOUND.name)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- lenient reading


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---\nname: a\ndescription: b\n---\nbody", {"name": "a", "description": "b"}),
        # every line break form (the project splits lines at \n, \r\n and \r)
        ("---\r\nname: a\r\ndescription: b\r\n---\r\nbody", {"name": "a", "description": "b"}),
        ("---\rname: a\rdescription: b\r---\rbody", {"name": "a", "description": "b"}),
        # a fence may carry trailing blanks, never leading ones
        ("--- \nname: a\n---  \n", {"name": "a"}),
        (" ---\nname: a\n---\n", None),
        ("---\nname: a\n ---\n", None),
        ("---\n---\nname: a\n", {}),  # an empty block closes on the second line
        ("---\nname: a\n", None),  # never closed
        ("", None),
        (None, None),
        # indented lines (space or tab) continue the last key; other lines are ignored
        ("---\n  orphan\nname: a\n---\n", {"name": "a"}),
        ("---\nname: a\n  more\n\tand more\n   \nplain words\n---\n", {"name": "a more and more"}),
        ("---\ndescription: Use this: it has: colons\n---\n", {"description": "Use this: it has: colons"}),
        ("---\nk:\n  v\n---\n", {"k": "v"}),
    ],
)
def test_simple_frontmatter(text, expected):
    assert simple_frontmatter(text) == expected


def test_fields_fall_back_to_the_lines_only_when_yaml_failed():
    rec = record("a", "parsed")
    assert fields(rec) == rec.frontmatter
    broken = replace(rec, frontmatter={}, text="---\nname: a\ndescription: x: y\n---\n")
    assert fields(broken) == {"name": "a", "description": "x: y"}
    assert fields(replace(rec, frontmatter={}, text="no frontmatter")) == {}


def test_text_value_is_javascript_string():
    assert [text_value(v) for v in (True, False, 3, 1.5, "s", None, [1], {"a": 1})] == [
        "true", "false", "3", "1.5", "s", None, None, None]
