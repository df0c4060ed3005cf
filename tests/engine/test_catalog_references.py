"""The `agentskills` and `skill-tool` catalogs list what their references list, on odd skills.

* agentskills: skills-ref 0.1.1 (`pip install skills-ref==0.1.1`) run here: `read_properties` per
  folder and `to_prompt` over the listed ones, byte for byte.
* skill-tool: the entries of the reference registry (avifenesh/tools packages/skill, not on npm),
  recorded in fixtures_render/skill_tool_registry_odd.json by fixtures_render/skill_tool_discover.mts.

The skills are tests/odd_skills.py, written into one `.agents/skills` root and taken through
the CLI's path: discovery -> check_file -> records_for -> catalog_view.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import odd_skills
from helpers import require, run_cli
from skill_lsp.engine import preview
from skill_lsp.engine.activation.jsstr import locale_key
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import scan_roots
from skill_lsp.engine.render.skills_ref import read_skill
from skill_lsp.engine.workspace import check_file, link_skills

REGISTRY = json.loads((Path(__file__).parent / "fixtures_render" / "skill_tool_registry_odd.json").read_text("utf-8"))
# The reference reads frontmatter with a line parser of its own; skill-lsp reads YAML (spec
# §4.5: "Parse YAML"). Where they disagree the entry is the same, but only one of them finds
# the frontmatter valid (so only one shows a description) ...
VALIDITY_DIFFERS = {"blank-description", "comment-after", "duplicate-key", "folded-description", "tab-indent",
                    "unquoted-colon"}
# ... or both do and read the description differently (YAML anchors, tags, escapes, `|` clipping).
DESCRIPTION_DIFFERS = {"anchor", "block-description", "quoted", "tagged"}


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("odd")
    odd_skills.write(root / ".agents" / "skills")
    return root


def _records(ws: Path):
    settings = Settings(roots=(".agents/skills",))
    roots = settings.resolved_roots(str(ws))
    results = [check_file(loc.path, settings, loc) for loc in scan_roots(roots, settings.sensitive_patterns)]
    link_skills(results, settings)
    return settings, preview.records_for(results, len(roots))


def _skills_ref():
    require(importlib.util.find_spec("skills_ref") is not None, "skills-ref", "pip install skills-ref==0.1.1")
    from skills_ref.parser import read_properties  # noqa: PLC0415
    from skills_ref.prompt import to_prompt  # noqa: PLC0415

    return read_properties, to_prompt


def _reads(read_properties, d: Path):
    try:
        p = read_properties(d)
    except Exception as exc:  # noqa: BLE001 - a SkillError, or the UnicodeDecodeError it lets through
        return None, type(exc).__name__
    return (p.name, p.description), None


@pytest.mark.parametrize("folder", sorted({f for f, _n, _d in odd_skills.ODD}))
def test_skills_ref_reading_matches_skills_ref(ws: Path, folder: str):
    read_properties, _ = _skills_ref()
    d = ws / ".agents" / "skills" / folder
    expected, failure = _reads(read_properties, d)
    got = read_skill(str(d))
    if expected is None:
        assert got.error is not None, (folder, failure)
    else:
        assert got.error is None and (got.name, got.description) == expected


def test_agentskills_catalog_is_to_prompt_over_what_skills_ref_reads(ws: Path):
    read_properties, to_prompt = _skills_ref()
    _settings, records = _records(ws)
    text, entries, skipped = preview.catalog_view(records, "agentskills")
    listed = [Path(r.dir) for r in records if _reads(read_properties, Path(r.dir))[0] is not None]
    assert len(listed) >= 20 and len(skipped) >= 15  # the set is odd on both sides
    assert text == to_prompt(listed)  # byte for byte, in the catalog's order
    assert {e["path"] for e in entries} == {r.path for r in records if Path(r.dir) in listed}
    # What it leaves out, it says why: skills-ref's own message.
    left = {Path(s["path"]).parent.name: s["reason"] for s in skipped}
    assert set(left) == {r.folder for r in records} - {d.name for d in listed}
    assert "Missing required field in frontmatter: description" in left["no-description"]
    assert "to-prompt fails" in left["flow-list"]
    # The issue-26 case: a name that differs from its folder, or is no valid name, is listed as written.
    assert "<name>\nother-name\n</name>" in text and "<name>\nAcademic Citation Mapper\n</name>" in text


def test_skill_tool_catalog_lists_what_the_reference_registry_lists(ws: Path):
    _settings, records = _records(ws)
    text, entries, skipped = preview.catalog_view(records, "skill-tool")
    ref = REGISTRY["entries"]
    # The same entries, under the folder's name, in the reference's localeCompare order.
    assert [line.split(":", 1)[0][2:] for line in text.split("\n") if line.startswith("- ")] == [e["name"] for e in ref]
    assert sorted((e["name"] for e in ref), key=locale_key) == [e["name"] for e in ref]
    by_name = {e["name"]: e for e in entries}
    validity, description = set(), set()
    for e in ref:
        ours = by_name[e["name"]]
        code = ours.get("error", {}).get("code")
        if code != e["code"]:
            validity.add(e["name"])
        elif code is None and ours["entry"] != f"- {e['name']}: {e['description']}":
            description.add(e["name"])
        elif code is not None:
            assert ours["entry"] == f"- {e['name']}: "  # the registry's empty description
    assert (validity, description) == (VALIDITY_DIFFERS, DESCRIPTION_DIFFERS)
    assert len(ref) - len(validity) - len(description) >= 30
    # Not skills to the reference: no SKILL.md (another name), or no frontmatter.
    assert {Path(s["path"]).parent.name for s in skipped} == {
        "case-variant", "lowercase-file", "no-frontmatter", "empty-file", "fence-trailing-space"}
    assert all(s["reason"] for s in skipped)


def test_a_listed_broken_skill_activates_to_its_error_under_the_folder_name(ws: Path):
    settings, records = _records(ws)
    result = preview.activate(records, settings, name="folder-differs", dialect="skill-tool")
    assert result.kind == "error" and result.error.code == "NAME_MISMATCH"
    result = preview.activate(records, settings, name="display-title", dialect="skill-tool")
    assert result.kind == "error" and result.error.code == "INVALID_FRONTMATTER"
    assert preview.activate(records, settings, name="other-name", dialect="skill-tool").kind == "not_found"


def test_catalog_cli_says_what_it_leaves_out_and_why(ws: Path):
    proc = run_cli("catalog", "--dialect", "skill-tool", ".", cwd=ws)
    assert proc.returncode == 0
    assert "- folder-differs: \n" in proc.stdout
    assert ("# listed by skill-tool with no description (activating it returns NAME_MISMATCH): "
            ".agents/skills/folder-differs/SKILL.md: frontmatter 'name'") in proc.stderr
    assert "# skipped by skill-tool: .agents/skills/no-frontmatter/SKILL.md: no frontmatter" in proc.stderr
    proc = run_cli("catalog", "--dialect", "agentskills", "--format", "json", ".", cwd=ws)
    data = json.loads(proc.stdout)
    assert any(s["path"].endswith("no-name/SKILL.md") and "Missing required field in frontmatter: name" in s["reason"]
               for s in data["skipped"])
    assert any(e["name"] == "other-name" for e in data["entries"])
    proc = run_cli("catalog", "--dialect", "skill-tool", "--format", "json", ".", cwd=ws)
    data = json.loads(proc.stdout)
    (mismatch,) = [e for e in data["entries"] if e["name"] == "folder-differs"]
    assert mismatch["error"]["code"] == "NAME_MISMATCH"
