"""The files OpenCode's skill tool lists (render/ripgrep.py, render/opencode.py sample_files).

OpenCode 1.18.33 runs ``rg --no-config --files --hidden --glob=!**/SKILL.md --glob=!**/.git/** .``
in the skill's folder and writes a .gitignore into each config folder when it starts. The
expected sets below are what ripgrep 13 printed for these trees; where ``rg`` is installed,
a seeded set of random trees is compared with it directly (RG_SEEDS=3000: 3,000 agreed).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from skill_lsp.engine.render.opencode import sample_files
from skill_lsp.engine.render.ripgrep import files

RG = shutil.which("rg")
RG_ARGS = ["--no-config", "--files", "--hidden", "--glob=!**/SKILL.md", "--glob=!**/.git/**", "."]


def _touch(root: Path, *rels: str) -> None:
    for rel in rels:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x\n", encoding="utf-8")


def _rel(skill: Path, paths: list[str]) -> set[str]:
    return {os.path.relpath(p, skill).replace(os.sep, "/") for p in paths}


def _rg(skill: Path) -> set[str]:
    assert RG
    out = subprocess.run([RG, *RG_ARGS], cwd=skill, capture_output=True, text=True, timeout=30).stdout
    return {line.removeprefix("./") for line in out.splitlines() if line}


def _repo(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    return ws


def test_opencode_config_gitignore_hides_node_modules_in_a_repository(tmp_path: Path):
    ws = _repo(tmp_path)
    skill = ws / ".opencode" / "skills" / "a"
    _touch(skill, "SKILL.md", "node_modules/x.js", "package.json", "sub/y.txt", ".hidden", "sub/SKILL.md",
           "sub/.git/config", "bun.lock", "scripts/run.sh")
    # No .opencode/.gitignore yet: OpenCode writes one when it starts.
    assert _rel(skill, sample_files(str(skill))) == {"sub/y.txt", ".hidden", "scripts/run.sh"}
    # Outside a config folder the same files are all listed.
    other = ws / ".claude" / "skills" / "a"
    _touch(other, "SKILL.md", "node_modules/x.js", "package.json")
    assert _rel(other, sample_files(str(other))) == {"node_modules/x.js", "package.json"}
    # A skill that is a repository of its own: the .gitignore above its root no longer applies.
    (skill / ".git").mkdir()
    assert _rel(skill, sample_files(str(skill))) == {"sub/y.txt", ".hidden", "scripts/run.sh", "node_modules/x.js",
                                                     "package.json", "bun.lock"}


def test_gitignore_applies_only_inside_a_repository_and_ignore_files_always(tmp_path: Path):
    ws = tmp_path / "plain"
    skill = ws / "skills" / "a"
    _touch(skill, "SKILL.md", "dist/out.js", "notes.log", "keep.log")
    (ws / ".gitignore").write_text("dist/\n", encoding="utf-8")
    (skill / ".ignore").write_text("*.log\n!keep.log\n", encoding="utf-8")
    assert _rel(skill, list(files(str(skill), skip_names=frozenset({"SKILL.md"})))) == {
        "dist/out.js", "keep.log", ".ignore"}
    (ws / ".git").mkdir()
    assert _rel(skill, list(files(str(skill), skip_names=frozenset({"SKILL.md"})))) == {"keep.log", ".ignore"}


def test_links_are_left_out(tmp_path: Path):
    skill = tmp_path / "a"
    _touch(skill, "SKILL.md", "sub/y.txt")
    os.symlink("sub/y.txt", skill / "link.txt")
    os.symlink("sub", skill / "linkdir")
    assert _rel(skill, sample_files(str(skill))) == {"sub/y.txt"}


def test_at_most_ten_files(tmp_path: Path):
    skill = tmp_path / "a"
    _touch(skill, "SKILL.md", *(f"f{i:02}.txt" for i in range(14)))
    assert len(sample_files(str(skill))) == 10


_NAMES = ["a.txt", "b.log", "node_modules", "dist", "build", ".env", "keep.log", "x.py", "sub", "deep"]
_PATTERNS = ["*.log", "!keep.log", "node_modules", "/dist", "dist/", "sub/*.txt", "**/deep/**", ".env",
             "build", "!build/keep.txt", "x.py", "# comment", "", "sub/", "*.txt", "!a.txt", "[ab].txt", "?.py",
             "sub/**", "/sub/", "d*", "[!x]*.py", "deep/", "**/node_modules/**", "k/sub", "!sub/", "\\#x", "*.log  "]


@pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not installed")
@pytest.mark.parametrize("seed", range(int(os.environ.get("RG_SEEDS", "40"))))
def test_random_trees_agree_with_ripgrep(tmp_path: Path, seed: int):
    rnd = random.Random(seed)
    ws = tmp_path / "ws"
    skill = ws / "s" / "k"
    rels = {"SKILL.md"}
    for _ in range(rnd.randint(3, 14)):
        depth = rnd.randint(1, 3)
        rels.add("/".join(rnd.choice(_NAMES[2:]) for _ in range(depth - 1)) + ("/" if depth > 1 else "")
                 + rnd.choice(_NAMES))
    for rel in sorted(rels):
        try:
            _touch(skill, rel)
        except (FileExistsError, NotADirectoryError, IsADirectoryError):
            pass  # a name used as both a file and a folder: keep the first
    if rnd.random() < 0.7:
        (ws / ".git").mkdir(parents=True)
    for where in (ws, ws / "s", skill, skill / "sub"):
        if where.is_dir() and rnd.random() < 0.5:
            kind = rnd.choice([".gitignore", ".ignore", ".rgignore"])
            (where / kind).write_text("\n".join(rnd.sample(_PATTERNS, rnd.randint(1, 4))) + "\n", encoding="utf-8")
    ours = _rel(skill, list(files(str(skill), skip_names=frozenset({"SKILL.md"}))))
    assert ours == _rg(skill)


def test_a_linked_skill_folder_takes_the_ignore_files_above_its_real_path(tmp_path: Path):
    # ripgrep's working folder is the link's target: `.opencode/.gitignore` is not above it
    # (differential tester, seed 2026, batch 12: the release lists node_modules/pkg/index.js).
    ws = _repo(tmp_path)
    real = ws / "linked" / "a"
    _touch(real, "SKILL.md", "node_modules/pkg/index.js", "assets/logo.txt")
    (ws / ".opencode" / "skills").mkdir(parents=True)
    link = ws / ".opencode" / "skills" / "a"
    os.symlink(real, link)
    got = sample_files(str(link))
    assert _rel(link, got) == {"node_modules/pkg/index.js", "assets/logo.txt"}
    assert all(p.startswith(str(link) + os.sep) for p in got)
