"""Golden findings for every skill in sample-workspace.

Runs ``python -m skill_lsp check sample-workspace --format json`` from the repo
root and compares ``relative/path:line:col CODE`` lines (1-based, code point
columns, sorted as the CLI prints them) with ``tests/golden/sample-workspace.txt``
exactly.

After an intended change, review the diff and rewrite the golden file::

    python tests/golden/regen.py [--write]
"""

from __future__ import annotations

import json
import os

from goldens import SAMPLE_FINDINGS as GOLDEN
from goldens import sample_findings
from helpers import REPO, run_cli


def current_lines() -> tuple[list[str], dict]:
    proc = run_cli("check", "sample-workspace", "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    lines = []
    for f in data["findings"]:
        path = os.path.relpath(f["path"], REPO).replace(os.sep, "/")
        lines.append(f"{path}:{f['line']}:{f['column']} {f['code']}")
    return lines, data


def test_sample_workspace_findings_match_the_golden_file():
    assert sample_findings() == GOLDEN.read_text(encoding="utf-8"), "see `python tests/golden/regen.py`"


def test_every_bad_sample_skill_has_a_finding_and_every_good_one_none():
    _, data = current_lines()
    with_findings = {os.path.relpath(f["path"], REPO).split("/SKILL.md")[0] for f in data["findings"]}
    skills = {os.path.relpath(s["path"], REPO).split("/SKILL.md")[0] for s in data["skills"]}
    good = {
        "sample-workspace/.agents/skills/api-conventions",
        "sample-workspace/.agents/skills/deploy-preview",
        "sample-workspace/.agents/skills/release-notes",
        "sample-workspace/.claude/skills/pdf-toolkit",
        "sample-workspace/plugins/notes-plugin/skills/meeting-notes",
        "sample-workspace/outside/linked-outside",  # valid on its own; only the root symlink to it is refused
    }
    assert good <= skills
    assert with_findings == skills - good


def test_every_sample_skill_is_described_in_the_readme():
    readme = (REPO / "sample-workspace" / "README.md").read_text(encoding="utf-8")
    _, data = current_lines()
    for s in data["skills"]:
        folder = os.path.relpath(os.path.dirname(s["path"]), REPO / "sample-workspace").replace(os.sep, "/")
        assert f"`{folder}`" in readme, folder
