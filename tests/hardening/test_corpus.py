"""Real-corpus invariants over the skill corpus (3,223 real skills; helpers.corpus() finds it:
skipped when absent, failing under CI=true).

* `skill-lsp check` over the whole corpus reports every SKILL.md, without a crash;
* fix-all on a temp copy then re-check: no new finding code per file (beyond what a fixed
  syntax error revealed), and a second fix-all changes nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import corpus
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import read_skill_file
from skill_lsp.engine.document import decode
from skill_lsp.engine.workspace import check_text, fix_all_text

from .fuzzing import new_codes


@pytest.fixture(scope="module")
def root() -> Path:
    return corpus()


def _skill_files(root: Path) -> list[Path]:
    out = []
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            if name in ("SKILL.md", "skill.md"):
                out.append(Path(dirpath) / name)
    return sorted(out)


def test_cli_check_over_the_whole_corpus(root: Path):
    out = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", "--fail-on", "never",
                          str(root)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Traceback" not in out.stderr
    data = json.loads(out.stdout)
    assert sorted(s["path"] for s in data["skills"]) == sorted(str(p) for p in _skill_files(root))
    assert data["summary"]["skills"] == len(data["skills"])


def test_fix_all_on_a_copy_of_the_corpus(tmp_path, root: Path):
    files = _skill_files(root)
    assert len(files) > 1000
    settings = Settings()
    changed = 0
    problems: list[str] = []
    for path in files:
        data, _ = read_skill_file(str(path))
        text, issue = decode(data)
        if issue is not None:
            continue  # --fix never rewrites what it could not decode faithfully
        # A temp copy: folder-relative rules (links, license files) would need the real folder,
        # so the copy keeps the folder name but is checked as not-on-disk, like an unsaved buffer.
        copy = tmp_path / path.parent.name / "SKILL.md"
        _, before = check_text(text, str(copy), settings, on_disk=False)
        fixed = fix_all_text(text, str(copy), settings, on_disk=False)
        if fixed == text:
            continue
        changed += 1
        _, after = check_text(fixed, str(copy), settings, on_disk=False)
        b, a = {f.code for f in before}, {f.code for f in after}
        new = new_codes(b, a)
        if new:
            problems.append(f"{path}: fix-all added {sorted(new)}")
        if fix_all_text(fixed, str(copy), settings, on_disk=False) != fixed:
            problems.append(f"{path}: a second fix-all changed the text")
    assert not problems, "\n".join(problems[:20])
    assert changed > 0  # the corpus has fixable findings: the invariant was exercised
