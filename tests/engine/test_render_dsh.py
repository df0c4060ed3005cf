from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from skill_lsp.engine.activation import AlreadyLoadedResult, ErrorResult, ToolError
from skill_lsp.engine.datarecord import replace
from skill_lsp.engine.render import DIALECTS, BudgetWarning, catalog_report
from skill_lsp.engine.render.dsh import (
    DshDialect,
    catalog_description,
    catalog_digest,
    catalog_entries,
    escape_attr,
    escape_text,
    render_skill_content,
)

sys.path.insert(0, str(Path(__file__).parent / "fixtures_render"))
from render_helpers import ALREADY, DIR, DISABLED, NOT_FOUND, ok, record  # noqa: E402

D = DIALECTS["dsh"]


def test_ok_golden():
    assert D.render(ok()) == (
        '<skill_content name="pdf-tools">\n'
        "<skill_resources>\n"
        f"Base directory for this skill: {DIR}\n"
        "Resolve relative paths mentioned by this skill against the base directory before using them. "
        "Load referenced resources only as needed.\n"
        "</skill_resources>\n"
        "\n"
        "<skill_instructions>\n"
        "# PDF tools\n\nRun `scripts/extract.py`.\n"
        "</skill_instructions>\n"
        "</skill_content>"
    )


def test_already_loaded_replays_no_dedupe():
    assert D.render(AlreadyLoadedResult(name="pdf-tools", previous=ok())) == D.render(ok())
    assert "already active" in D.render(ALREADY)


def test_errors_golden():
    assert D.render(NOT_FOUND) == 'Error: skill "pdf-tool" is unknown or no longer available'
    assert D.render(DISABLED) == 'Error: skill "pdf-tools" is not available for model invocation'
    assert (
        D.render(ErrorResult(ToolError("INVALID_PARAM", "..."), name="Bad Name"))
        == 'Error: invalid skill name "Bad Name"'
    )
    assert (
        D.render(ErrorResult(ToolError("PERMISSION_DENIED", "blocked"), name="x"))
        == "Error: blocked"
    )


def test_escaping():
    assert escape_attr('a&"<>') == "a&amp;&quot;&lt;>"
    assert escape_text('a&"<>') == 'a&amp;"&lt;&gt;'


def test_description_normalisation_js_semantics():
    assert catalog_description("  a \n\t b\u00a0\u3000c\ufeff ") == "a b c"
    assert catalog_description("a\u0085b") == "a\u0085b"  # NEL is not JS whitespace
    assert catalog_description("abcdef", 5) == "ab..."
    assert catalog_description("abcde", 5) == "abcde"
    # UTF-16 length: one emoji is 2 units; slicing can split it like JS does.
    assert catalog_description("😀😀😀", 5) == "😀..."
    assert catalog_description("😀😀😀", 4) == "\ud83d..."
    for bad in (2, 2.5, True, "7"):
        with pytest.raises(ValueError):
            catalog_description("x", bad)  # type: ignore[arg-type]


def test_catalog_golden_and_filters():
    records = [
        record("zeta", "Zed <things> & more"),
        record("alpha", "First."),
        record("off", "x", **{"disable-model-invocation": "on"}),
        record("on-num", "x", **{"disable-model-invocation": 1}),
        record("no-desc", ""),
    ]
    assert catalog_entries(records) == [("alpha", "First."), ("zeta", "Zed <things> & more")]
    assert D.render_catalog(records) == (
        "<system-reminder>\n"
        "A skill is a reusable set of task-specific instructions. The following skills are available in this session:\n"
        "\n"
        "<available_skills>\n"
        "- `alpha`: First.\n"
        "- `zeta`: Zed &lt;things&gt; &amp; more\n"
        "</available_skills>\n"
        "\n"
        "If the user names a skill, or the task clearly matches a skill's description, call the `skill` tool with the "
        "exact skill name before taking task actions. Load all applicable skills, then follow their full instructions. "
        "This catalog contains summaries only; do not infer or follow a skill's instructions until it has been loaded.\n"
        "A user may also invoke a skill directly; its <skill_content> block then appears in this conversation. "
        "Follow it, and do not call the `skill` tool again for that skill.\n"
        "</system-reminder>"
    )
    assert D.render_catalog([]) == ""
    assert D.render_catalog([], update=True).splitlines()[-3] == (
        "No skills are currently available through the `skill` tool. Do not use names from earlier skill catalogs."
    )


def test_digest_formula():
    entries = [("a", 'd "q" é'), ("b", "x")]
    canonical = '["a","d \\"q\\" é"]\n["b","x"]'
    assert catalog_digest(entries) == hashlib.sha256(canonical.encode()).hexdigest()


def test_budget_warning_description_cap():
    long = "word " * 120
    rep = catalog_report(record("big", long), "dsh")
    (w,) = rep.warnings
    assert w.code == "dsh-description-cap" and w.limit == 500 and w.actual == 599
    assert w.kept == catalog_description(long) and w.kept.endswith("...") and len(w.kept) == 500
    assert rep.entry == f"- `big`: {w.kept}"
    hidden = catalog_report(record("h", "x", **{"disable-model-invocation": True}), "dsh")
    assert not hidden.included and hidden.warnings[0].code == "dsh-not-listed"
    assert DshDialect(10).report(record("s", "0123456789ab")).entry == "- `s`: 0123456..."


def test_tool_errors_are_the_spec_sentences():
    # spec 001: `Error: invalid skill name "<name>"`, `Error: skill "<name>" is unknown or no longer
    # available`, `Error: skill "<name>" is not available for model invocation`; anything else
    # (provider text) is wrapped as `Error: <message>`.
    def err(code, name):
        return D.render(ErrorResult(ToolError(code, "provider said no"), name=name))

    assert err("INVALID_PARAM", 42) == 'Error: invalid skill name "42"'
    assert err("INVALID_PARAM", None) == "Error: provider said no"
    assert err("INVALID_PARAM", "ok-name") == "Error: provider said no"
    assert err("DISABLED", "Bad Name") == 'Error: skill "Bad Name" is not available for model invocation'
    assert err("DISABLED", 42) == 'Error: skill "42" is not available for model invocation'
    for code in ("NOT_FOUND", "INVALID_FRONTMATTER"):
        assert err(code, "gone") == 'Error: skill "gone" is unknown or no longer available'


def test_model_invocation_flag_values():
    # NOTES.md: DSH reads true/false, 1/0 and yes/no/on/off as booleans
    for off in (True, 1, "true", "yes", "on", "1"):
        assert not D.includes(record("s", "d", **{"disable-model-invocation": off})), off
    for on in (False, 0, 2, "false", "no", "off", "0", None):
        assert D.includes(record("s", "d", **{"disable-model-invocation": on})), on


def test_a_name_that_differs_from_its_folder_is_still_listed():
    mismatch = replace(record("alpha", "A."), error=("NAME_MISMATCH", "name differs from the folder"))
    broken = replace(record("beta", "B."), error=("INVALID_FRONTMATTER", "NAME_MISMATCH"))
    assert catalog_entries([mismatch, broken]) == [("alpha", "A.")]
    assert D.includes(mismatch) and not D.includes(broken)


def test_catalog_warnings_in_catalog_order():
    long = "word " * 120
    records = [record("zeta", long), record("alpha", long), record("mid", "short"),
               record("hidden", long, **{"disable-model-invocation": True})]
    assert [w.kept is not None for w in D.catalog_warnings(records)] == [True, True]
    assert [r.name for r in D.order(records)] == ["alpha", "mid", "zeta"]


def test_warnings_exactly():
    (hidden,) = D.entry_warnings(record("h", "x", **{"disable-model-invocation": True}))
    assert hidden == BudgetWarning(
        "dsh", "dsh-not-listed",
        "disable-model-invocation: DSH leaves this skill out of the catalog and the skill tool refuses it; "
        "only a /name gesture loads it", 0, 0)
    assert D.entry_warnings(record("fits", "x" * 500)) == []
    normalized = "word " * 119 + "word"  # 599 characters after normalisation
    (cap,) = D.entry_warnings(record("big", "word " * 120))
    assert cap == BudgetWarning(
        "dsh", "dsh-description-cap",
        "description is 599 chars after whitespace normalisation; DSH cuts catalog descriptions to 500",
        500, 599, kept=normalized[:497] + "...", cut=normalized[497:])
    (small,) = DshDialect(10).entry_warnings(record("s", "0123456789ab"))
    assert (small.kept, small.cut, small.limit) == ("0123456...", "789ab", 10)


def test_unknown_resource_base_kind():
    with pytest.raises(ValueError, match="unknown resource base kind 'zip'"):
        render_skill_content("x", "c", resource_base=("zip", "/x"))  # type: ignore[arg-type]
