"""Issue 11 (precision): findings and command-line behaviour pinned with minimal skills of our own."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run_cli, skill_text, write_skill


def _codes(proc) -> list[str]:
    return [f["code"] for f in json.loads(proc.stdout)["findings"]]


def test_flow_scalars_with_colons_are_valid_yaml(tmp_path: Path):
    # ruamel's libyaml rejected ':' inside flow plain scalars; PyYAML and js-yaml accept them.
    extra = "links: [http://example.com]\ntags: [a:b]\nx: {k: a:b}"
    write_skill(tmp_path / ".agents/skills", "flow", skill_text(name="flow", extra=extra))
    proc = run_cli("check", ".", "--format", "json", "--profile", "agentskills", cwd=tmp_path)
    assert "INVALID_FRONTMATTER" not in _codes(proc)
    assert json.loads(proc.stdout)["summary"]["skills"] == 1
    catalog = run_cli("catalog", ".", cwd=tmp_path)
    assert "flow" in catalog.stdout
    assert run_cli("preview", "flow", cwd=tmp_path).returncode == 0


def test_a_case_variant_of_skill_md_is_an_error_not_zero_skills(tmp_path: Path):
    write_skill(tmp_path, "demo", skill_text(), filename="SKILL.MD")
    for target in (".", "demo", "demo/SKILL.MD"):
        proc = run_cli("check", target, "--color", "never", cwd=tmp_path)
        assert proc.returncode == 1, target
        assert "error SKILL_FILE_CASE 'SKILL.MD' is not 'SKILL.md'" in proc.stdout
        assert proc.stdout.splitlines()[-1] == "1 error in 1 of 1 skill"
