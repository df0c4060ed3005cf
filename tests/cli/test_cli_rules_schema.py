"""`skill-lsp rules` and `skill-lsp schema`, and docs/rules.md kept in sync with the generator.

docs/rules.md is exactly ``skill-lsp rules --format markdown``. Regenerate it with

    skill-lsp rules --format markdown > docs/rules.md

or ``python tests/golden/regen.py --write`` (which shows the diff first).
"""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from helpers import REPO, run_cli
from skill_lsp.commands.rules import render_markdown
from skill_lsp.commands.schema import build_schema
from skill_lsp.engine.findings import RULES
from skill_lsp.engine.fixes import FIX_SAFETY, has_fixes
from skill_lsp.engine.profiles import FIELDS
from skill_lsp.engine.targets import PROFILES

DOC = REPO / "docs" / "rules.md"


def github_slug(heading: str) -> str:
    """GitHub's heading anchor: lowercase, punctuation other than - and _ dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_docs_rules_md_is_the_generator_output():
    out = render_markdown()
    assert DOC.read_text(encoding="utf-8") == out, \
        "docs/rules.md drifted: run `skill-lsp rules --format markdown > docs/rules.md`"


def test_cli_markdown_output_equals_docs_rules_md():
    proc = run_cli("rules", "--format", "markdown")
    assert proc.returncode == 0
    assert proc.stdout == DOC.read_text(encoding="utf-8")


def test_every_code_has_an_anchor_equal_to_its_lowercase_code():
    text = DOC.read_text(encoding="utf-8")
    slugs = [github_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)]
    for code in RULES:
        assert slugs.count(code.lower()) == 1, code
        assert f"](#{code.lower()})" in text  # the table links to it


def test_markdown_table_carries_severity_title_tool_error_and_fixes():
    text = DOC.read_text(encoding="utf-8")
    for code, rule in RULES.items():
        row = next(line for line in text.splitlines() if line.startswith(f"| [`{code}`]"))
        assert f"| {rule.severity.label} |" in row
        assert rule.title in row
        if rule.tool_error:
            assert f"`{rule.tool_error}`" in row
        for fix in rule.fixes:
            assert fix in row
        assert row.endswith(f" | {', '.join(FIX_SAFETY[code][0]) if code in FIX_SAFETY else 'none'} |")
        assert rule.doc in text


def test_every_code_with_fixes_says_how_safe_they_are():
    """ruff's "Fix safety": each code whose findings have fixes says which are safe, unsafe or
    display-only and why, and the table agrees with the fix builders."""
    text = DOC.read_text(encoding="utf-8")
    for code, rule in RULES.items():
        assert has_fixes(code) == (code in FIX_SAFETY) == bool(rule.fixes), code
        section = text.split(f"### {code}\n", 1)[1].split("\n### ", 1)[0]
        if code in FIX_SAFETY:
            kinds, why = FIX_SAFETY[code]
            assert f"Fix safety: {', '.join(kinds)}. {why}" in section
        else:
            assert "Fix safety" not in section
    assert "BACKSLASH_PATH" in FIX_SAFETY and "example the prose marks as what not to do" in FIX_SAFETY["BACKSLASH_PATH"][1]


def test_markdown_has_notes_for_every_profile():
    text = DOC.read_text(encoding="utf-8")
    for name in PROFILES:
        assert f"### Profile `{name}`" in text
    assert "NFKC" in text


def test_rules_json_lists_every_rule_and_profile():
    proc = run_cli("rules", "--format", "json")
    data = json.loads(proc.stdout)
    assert [r["code"] for r in data["rules"]] == list(RULES)
    nm = next(r for r in data["rules"] if r["code"] == "NAME_MISMATCH")
    assert nm == {"code": "NAME_MISMATCH", "severity": "error", "title": RULES["NAME_MISMATCH"].title,
                  "toolError": "NAME_MISMATCH", "doc": RULES["NAME_MISMATCH"].doc,
                  "fixes": list(RULES["NAME_MISMATCH"].fixes), "anchor": "name_mismatch",
                  "fixSafety": {"applicability": ["unsafe", "display-only"], "why": FIX_SAFETY["NAME_MISMATCH"][1]}}
    assert [p["name"] for p in data["profiles"]] == list(PROFILES)
    agentskills = next(p for p in data["profiles"] if p["name"] == "agentskills")
    assert agentskills["unknownSeverity"] == "error" and agentskills["unicodeNames"] is True


def test_rules_text_has_one_line_per_code():
    out = run_cli("rules").stdout
    starts = [line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")]
    assert starts[: len(RULES)] == list(RULES)
    assert "Profiles:" in out


# --------------------------------------------------------------------- schema


@pytest.fixture(scope="module")
def schema() -> dict:
    proc = run_cli("schema")
    assert proc.returncode == 0
    return json.loads(proc.stdout)


def test_schema_is_a_valid_json_schema(schema: dict):
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema == build_schema()


def test_schema_covers_every_field(schema: dict):
    assert set(schema["properties"]) == set(FIELDS)
    assert schema["required"] == ["name", "description"]
    assert schema["additionalProperties"] is True
    for key, field in FIELDS.items():
        prop = schema["properties"][key]
        assert field.summary in prop["description"]
        if field.limit is not None:
            assert prop["maxLength"] == field.limit
        if field.kind == "enum":
            assert prop["enum"] == list(field.values)
        if field.kind == "boolean":
            assert prop["type"] == "boolean"


@pytest.mark.parametrize("fm", [
    {"name": "demo", "description": "d"},
    {"name": "demo", "description": "d", "allowed-tools": "Read Grep", "metadata": {"a": "b"}, "version": "1.2.0",
     "license": "MIT", "compatibility": "Python 3.10+", "x-unknown": [1, 2]},
    {"name": "demo", "description": "d", "allowed-tools": ["Read"], "effort": "high", "context": "fork",
     "arguments": {"path": {"type": "string", "required": True, "description": "p"}, "mode": None},
     "disable-model-invocation": True, "user-invocable": False, "paths": ["**/*.py"], "hooks": {}},
])
def test_schema_accepts_valid_frontmatter(schema: dict, fm: dict):
    jsonschema.validate(fm, schema, cls=jsonschema.Draft202012Validator)


@pytest.mark.parametrize("fm", [
    {"description": "d"},
    {"name": "Demo", "description": "d"},
    {"name": "demo", "description": ""},
    {"name": "demo", "description": "d" * 1025},
    {"name": "demo", "description": "d", "metadata": {"n": 3}},
    {"name": "demo", "description": "d", "effort": "extreme"},
    {"name": "demo", "description": "d", "user-invocable": "yes"},
    {"name": "demo", "description": "d", "version": "v1"},
    {"name": "demo", "description": "d", "allowed-tools": {"a": "b"}},
])
def test_schema_rejects_invalid_frontmatter(schema: dict, fm: dict):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(fm, schema, cls=jsonschema.Draft202012Validator)
