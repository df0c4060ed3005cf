"""`check FILE...` (what a pre-commit hook runs on the changed files) reports on those files
exactly what `check .` reports on them: the rest of the workspace is read for cross-skill
rules (duplicate names, shadowing, mentions) but neither reported nor fixed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from helpers import REPO, run_cli, skill_text, write_skill


def _findings(proc) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {}
    for f in json.loads(proc.stdout)["findings"]:
        out.setdefault(f["path"], []).append((f["code"], f["line"], f["column"], f["message"]))
    return out


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(REPO / "sample-workspace", ws, symlinks=True)
    return ws


def test_each_file_alone_gets_what_the_whole_check_gives_it(sample: Path):
    whole = _findings(run_cli("check", ".", "--format", "json", "--fail-on", "never", cwd=sample))
    skills = sorted(p for p in whole if p.endswith("SKILL.md") and Path(p).is_file())
    assert len(skills) >= 15
    crossing = 0
    for path in skills:
        rel = str(Path(path).relative_to(sample))
        alone = _findings(run_cli("check", rel, "--format", "json", "--fail-on", "never", cwd=sample))
        assert alone == {path: whole[path]}, rel
        crossing += any(c in ("DUPLICATE_NAME", "SHADOWED", "UNKNOWN_SKILL") for c, *_ in whole[path])
    assert crossing >= 3  # the cross-skill findings were among them


def test_files_given_from_another_folder_find_their_workspace(tmp_path: Path):
    ws = tmp_path / "repo"
    (ws / ".git").mkdir(parents=True)
    write_skill(ws / ".agents" / "skills", "alpha", skill_text(name="alpha"))
    write_skill(ws / ".claude" / "skills", "alpha", skill_text(name="alpha"))
    proc = run_cli("check", str(ws / ".claude" / "skills" / "alpha" / "SKILL.md"), cwd=tmp_path)
    assert "SHADOWED" in proc.stdout and "1 of 1 skill" in proc.stdout


def test_fix_touches_only_the_files_given(tmp_path: Path):
    ws = tmp_path / "repo"
    (ws / ".git").mkdir(parents=True)
    one = write_skill(ws / ".agents" / "skills", "one", skill_text(name="one", body="Text   \n"))
    two = write_skill(ws / ".agents" / "skills", "two", skill_text(name="one", body="Text   \n"))
    before = two.read_text()
    proc = run_cli("check", "--fix", str(one.relative_to(ws)), cwd=ws)
    assert "Text\n" in one.read_text() and two.read_text() == before
    # After the fix the file is linked with the whole workspace again: the duplicate stays.
    assert "DUPLICATE_NAME" in proc.stdout
    assert not any(line.startswith(".agents/skills/two/") for line in proc.stdout.splitlines())


def test_a_file_outside_any_workspace_is_checked_alone(tmp_path: Path):
    f = write_skill(tmp_path / "loose", "solo", skill_text(name="solo"))
    proc = run_cli("check", str(f), cwd=tmp_path)
    assert proc.returncode == 0 and "1 skill" in proc.stdout
