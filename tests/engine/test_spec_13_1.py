"""Spec 000 §13.1 acceptance items on parsing and discovery (6-11, 26-30), at the engine level.

Each test builds a workspace in tmp_path and goes through the same path as
`skill-lsp check` / `preview` / `catalog`: discovery -> check_file -> link_skills
-> preview.records_for -> preview.catalog / preview.activate.
"""

from __future__ import annotations

import os
from pathlib import Path

from helpers import codes, only, skill_text, write_skill
from skill_lsp.engine import preview
from skill_lsp.engine.activation import ErrorResult, OkResult
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import scan_roots
from skill_lsp.engine.workspace import SkillResult, check_file, link_skills

ROOTS = (".agents/skills", ".claude/skills")


def workspace(ws: Path, settings: Settings | None = None) -> tuple[Settings, list[SkillResult], list]:
    settings = settings or Settings(roots=ROOTS)
    roots = settings.resolved_roots(str(ws))
    results = [check_file(loc.path, settings, loc) for loc in scan_roots(roots, settings.sensitive_patterns)]
    link_skills(results, settings)
    return settings, results, preview.records_for(results, len(roots))


def activate(ws: Path, name: str, settings: Settings | None = None):
    settings, _, records = workspace(ws, settings)
    return preview.activate(records, settings, name=name)


def catalog_names(ws: Path) -> list[str]:
    _, _, records = workspace(ws)
    _, entries = preview.catalog(records, "skill-tool")
    return [e["name"] for e in entries]


def test_13_1_item_06_name_mismatch(tmp_path: Path):
    # As the reference registry keys it (its own test activates "bar"): the folder's name is
    # listed, with no description, and activating it returns the error; "foo" is unknown.
    write_skill(tmp_path / ".agents/skills", "bar", skill_text(name="foo"))
    _, (r,), _ = workspace(tmp_path)
    assert codes(r.findings) == ["NAME_MISMATCH"]
    result = activate(tmp_path, "bar")
    assert isinstance(result, ErrorResult) and result.code == "NAME_MISMATCH"
    assert activate(tmp_path, "foo").kind == "not_found"
    assert catalog_names(tmp_path) == ["bar"]


def test_13_1_item_07_malformed_yaml(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", "---\nname: demo\ndescription: Use when: x\n---\nbody\n")
    _, (r,), _ = workspace(tmp_path)
    assert codes(r.findings) == ["INVALID_FRONTMATTER"]
    result = activate(tmp_path, "demo")
    assert isinstance(result, ErrorResult) and result.code == "INVALID_FRONTMATTER"


def test_13_1_item_08_missing_description(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", "---\nname: demo\n---\nbody\n")
    _, (r,), _ = workspace(tmp_path)
    f = only(r.findings, "MISSING_FIELD")
    assert f.data["field"] == "description"  # data also names the targets that list it anyway
    result = activate(tmp_path, "demo")
    assert isinstance(result, ErrorResult) and result.code == "INVALID_FRONTMATTER"
    assert catalog_names(tmp_path) == ["demo"]  # listed with no description, as the reference registry lists it


def test_13_1_item_09_unknown_field_hooks_is_preserved(tmp_path: Path):
    text = skill_text(extra="hooks:\n  PreToolUse:\n    - matcher: Bash\nx-custom: kept")
    write_skill(tmp_path / ".agents/skills", "demo", text)
    _, (r,), _ = workspace(tmp_path)
    assert all(f.severity.label in ("info", "hint") for f in r.findings)  # parses; nothing blocks
    result = activate(tmp_path, "demo")
    assert isinstance(result, OkResult)
    assert result.frontmatter["hooks"] == {"PreToolUse": [{"matcher": "Bash"}]}
    assert result.frontmatter["x-custom"] == "kept"


def test_13_1_item_10_dotdot_escape_is_outside_workspace(tmp_path: Path):
    write_skill(tmp_path / "elsewhere", "demo", skill_text())
    (tmp_path / ".agents/skills").mkdir(parents=True)
    os.symlink(os.path.join("..", "..", "elsewhere", "demo"), tmp_path / ".agents/skills/demo")
    _, (r,), _ = workspace(tmp_path)
    assert codes(r.findings) == ["OUTSIDE_WORKSPACE"]
    assert r.doc is None
    result = activate(tmp_path, "demo")
    assert isinstance(result, ErrorResult) and result.code == "OUTSIDE_WORKSPACE"


def test_13_1_item_11_sensitive_pattern(tmp_path: Path):
    settings = Settings(roots=("team/secrets/skills",))
    write_skill(tmp_path / "team/secrets/skills", "demo", skill_text())
    _, (r,), _ = workspace(tmp_path, settings)
    assert codes(r.findings) == ["SENSITIVE"]
    result = activate(tmp_path, "demo", settings)
    assert isinstance(result, ErrorResult) and result.code == "SENSITIVE"


def test_13_1_item_26_allowed_tools_string_form(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(extra='allowed-tools: "Read, Grep"'))
    _, (r,), _ = workspace(tmp_path)
    assert r.findings == []
    result = activate(tmp_path, "demo")
    assert isinstance(result, OkResult)
    assert list(result.allowed_tools) == ["Read", "Grep"]
    assert result.frontmatter["allowed-tools"] == ["Read", "Grep"]


def test_13_1_item_27_allowed_tools_array_form(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(extra="allowed-tools:\n  - Read\n  - Bash(git:*)"))
    _, (r,), _ = workspace(tmp_path)
    assert r.findings == []
    result = activate(tmp_path, "demo")
    assert isinstance(result, OkResult)
    assert list(result.allowed_tools) == ["Read", "Bash(git:*)"]


def test_13_1_item_28_name_collision_lower_root_index_wins(tmp_path: Path):
    project = write_skill(tmp_path / ".agents/skills", "demo", skill_text(body="project copy\n")).parent
    user = write_skill(tmp_path / ".claude/skills", "demo", skill_text(body="user copy\n")).parent
    _, (winner, loser), records = workspace(tmp_path)
    assert winner.cross == []
    f = only(loser.cross, "SHADOWED")
    assert f.related[0].path == winner.path
    _, entries = preview.catalog(records, "skill-tool")
    assert [(e["name"], e["path"]) for e in entries] == [("demo", winner.path)]
    result = activate(tmp_path, "demo")
    assert isinstance(result, OkResult)
    assert result.body == "project copy\n"
    assert result.dir == str(project)
    assert str(user) in result.shadowed


def test_13_1_item_28_higher_index_never_wins_even_when_listed_first(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text(body="project copy\n"))
    write_skill(tmp_path / ".claude/skills", "demo", skill_text(body="user copy\n"))
    settings, _, records = workspace(tmp_path)
    result = preview.activate(list(reversed(records)), settings, name="demo")
    assert isinstance(result, OkResult) and result.body == "project copy\n"


def test_13_1_item_29_folder_without_skill_md_is_silently_absent(tmp_path: Path):
    write_skill(tmp_path / ".agents/skills", "demo", skill_text())
    broken = tmp_path / ".agents/skills/broken"
    (broken / "scripts").mkdir(parents=True)
    (broken / "README.md").write_text("# not a skill\n")
    _, results, _ = workspace(tmp_path)
    assert [r.folder for r in results] == ["demo"]
    assert all(r.findings == [] for r in results)
    assert catalog_names(tmp_path) == ["demo"]


def test_13_1_item_30_crlf(tmp_path: Path):
    text = skill_text(extra="license: MIT\nmetadata:\n  owner: me", body="# Title\n\nLine one.\nLine two.\n",
                      nl="\r\n")
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")
    write_skill(tmp_path / ".agents/skills", "demo", text)
    _, (r,), _ = workspace(tmp_path)
    assert r.findings == []
    assert r.doc is not None and r.doc.frontmatter_values() == {
        "name": "demo", "description": "Does a thing. Use when testing.", "license": "MIT",
        "metadata": {"owner": "me"}}
    result = activate(tmp_path, "demo")
    assert isinstance(result, OkResult)
    assert result.frontmatter["metadata"] == {"owner": "me"}
    assert result.body == "# Title\r\n\r\nLine one.\r\nLine two.\r\n"
