"""The peer linters the benchmarks measure (agnix, skillsaw; pinned and installed by .ci/run)
flag the sample workspace's clear-cut broken skills as errors, as skill-lsp does.

A peer upgrade that changes these verdicts shows here, not silently in a benchmark table.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from helpers import REPO, require, run_cli

PINS = {"agnix": "pip install agnix==0.59.3", "skillsaw": "pip install skillsaw==0.22.0"}
# Skill folder -> the error skill-lsp reports; every tool refuses these skills.
CLEAR_CUT = {
    ".claude/skills/unquoted-colon": "INVALID_FRONTMATTER",  # YAML error
    ".claude/skills/unclosed-frontmatter": "INVALID_FRONTMATTER",
    ".claude/skills/no-frontmatter": "MISSING_FRONTMATTER",
    ".claude/skills/spoofed-name": "NAME_SPOOFABLE",  # U+200B in the name
    ".claude/skills/latin1-encoded": "INVALID_ENCODING",
}


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("peers") / "sample-workspace"
    shutil.copytree(REPO / "sample-workspace", dest, symlinks=True)
    return dest


def peer(name: str) -> str:
    exe = shutil.which(name) or str(Path(sys.executable).parent / name)
    require(os.path.exists(exe), name, PINS[name])
    return exe


def skill_lsp_errors(ws: Path) -> dict[str, set[str]]:
    data = json.loads(run_cli("check", ".", "--format", "json", "--fail-on", "never", cwd=ws).stdout)
    out: dict[str, set[str]] = defaultdict(set)
    for f in data["findings"]:
        if f["severity"] == "error":
            out[os.path.relpath(os.path.dirname(f["path"]), ws)].add(f["code"])
    return out


def test_skill_lsp_errors_on_the_clear_cut_skills(sample: Path):
    errors = skill_lsp_errors(sample)
    assert {folder: code for folder, code in CLEAR_CUT.items() if code in errors[folder]} == CLEAR_CUT


def test_agnix_errors_on_the_clear_cut_skills(sample: Path):
    proc = subprocess.run([peer("agnix"), ".", "--format", "json"], cwd=sample, capture_output=True, text=True,
                          timeout=120)
    errors = {os.path.dirname(d["file"]) for d in json.loads(proc.stdout)["diagnostics"] if d["level"] == "error"}
    assert set(CLEAR_CUT) <= errors, set(CLEAR_CUT) - errors


def test_skillsaw_errors_on_the_clear_cut_skills_and_the_same_name_mismatches(sample: Path):
    proc = subprocess.run([peer("skillsaw"), "lint", ".", "--format", "json", "--no-progress"], cwd=sample,
                          capture_output=True, text=True, timeout=120)
    violations = json.loads(proc.stdout)["violations"]
    errors = {os.path.dirname(v["file_path"]) for v in violations if v["severity"] == "error"}
    assert set(CLEAR_CUT) <= errors, set(CLEAR_CUT) - errors
    mismatched = {os.path.dirname(v["file_path"]) for v in violations
                  if v["rule_id"] == "agentskill-name" and "does not match directory name" in v["message"]}
    ours = {folder for folder, codes in skill_lsp_errors(sample).items() if "NAME_MISMATCH" in codes}
    assert mismatched == {".claude/skills/name-mismatch", ".claude/skills/helper-copy"}
    # A badly formed name beside its folder ("Academic Citation Mapper" in citation-mapper/) is
    # reported once, as invalid, as skillsaw does (its NAME_MISMATCH left out: one fix ends both).
    assert ours == mismatched
