"""The pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit.

`pre-commit try-repo` clones this repository (with uncommitted changes), builds
the hook's virtualenv from it (pip, packages from the index only) and runs the
hooks on a scratch git repository holding one broken skill. Skipped when
pre-commit is missing, except under CI=true where that is a failure.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import require
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
BROKEN = (
    "---\n"
    "name: pdf-toolkit\n"
    "description: Extracts text from PDF files. Use when the user asks about a PDF.   \n"
    "---\n\n# PDF\n\nRun the extractor.\n"
)


def pre_commit() -> list[str]:
    try:
        import pre_commit  # noqa: F401, PLC0415
    except ImportError:
        require(False, "pre-commit", "pip install -e '.[test]'")
    if not shutil.which("git"):
        pytest.fail("git is missing", pytrace=False)
    return [sys.executable, "-m", "pre_commit"]


def scratch_repo(path: Path) -> Path:
    skill = path / "skills" / "pdf-tools" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(BROKEN, encoding="utf-8", newline="\n")
    (path / "README.md").write_text("# not a skill: the hooks must not see this\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", "-b", "main"], cwd=path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=path, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "scratch"], cwd=path, check=True)
    return skill


def test_hook_definitions() -> None:
    hooks = {h["id"]: h for h in YAML(typ="safe").load(ROOT / ".pre-commit-hooks.yaml")}
    assert set(hooks) == {"skill-lsp", "skill-lsp-fix"}
    assert hooks["skill-lsp"]["entry"] == "skill-lsp check --force-exclude"
    assert hooks["skill-lsp-fix"]["entry"] == "skill-lsp check --fix --force-exclude"
    for hook in hooks.values():
        assert hook["files"] == r"(?i)(^|/)skill\.md$"
        assert hook["language"] == "python" and hook["require_serial"] is True
        files = re.compile(hook["files"])
        assert [p for p in ("SKILL.md", "a/skill.md", "a/Skill.MD", "a/myskill.md", "README.md", "a/SKILL.md.bak")
                if files.search(p)] == ["SKILL.md", "a/skill.md", "a/Skill.MD"]


def test_try_repo_reports_and_fixes(tmp_path: Path) -> None:
    cmd = pre_commit()
    work = tmp_path / "work"
    work.mkdir()
    skill = scratch_repo(work)
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), PRE_COMMIT_COLOR="never")
    env.pop("VIRTUAL_ENV", None)

    check = subprocess.run(
        [*cmd, "try-repo", str(ROOT), "skill-lsp", "--all-files", "--verbose"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )
    out = check.stdout + check.stderr
    assert check.returncode == 1, out
    assert "skills/pdf-tools/SKILL.md:2:7: error NAME_MISMATCH" in out, out
    assert "TRAILING_WHITESPACE" in out, out
    assert "README.md" not in out.split("hook id: skill-lsp", 1)[-1], out
    assert skill.read_text(encoding="utf-8") == BROKEN  # the check hook writes nothing

    fix = subprocess.run(
        [*cmd, "try-repo", str(ROOT), "skill-lsp-fix", "--all-files", "--verbose"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )
    out = fix.stdout + fix.stderr
    assert fix.returncode == 1, out  # NAME_MISMATCH has no safe fix: still reported
    assert "NAME_MISMATCH" in out and "TRAILING_WHITESPACE" not in out.replace(
        "skills/pdf-tools/SKILL.md: fixed 1 finding (TRAILING_WHITESPACE)", ""), out
    fixed = skill.read_text(encoding="utf-8")
    assert fixed == BROKEN.replace("PDF.   \n", "PDF.\n")


def test_changed_files_only_still_see_the_whole_workspace(tmp_path: Path) -> None:
    """pre-commit passes only the changed files: a duplicate of an unchanged skill is still
    reported, skill.md is linted, and nothing is reported on the files not passed."""
    cmd = pre_commit()
    work = tmp_path / "work"
    work.mkdir()
    scratch_repo(work)
    for folder, name, filename in (("other", "pdf-toolkit", "SKILL.md"), ("lower", "lower", "skill.md")):
        d = work / "skills" / folder
        d.mkdir(parents=True)
        (d / filename).write_text(f"---\nname: {name}\ndescription: Another copy. Use when testing.\n---\nBody   \n",
                                  encoding="utf-8")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"), PRE_COMMIT_COLOR="never")
    env.pop("VIRTUAL_ENV", None)
    run = subprocess.run(
        [*cmd, "try-repo", str(ROOT), "skill-lsp", "--verbose", "--files", "skills/other/SKILL.md",
         "skills/lower/skill.md", "README.md"],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    # skills/other is named pdf-toolkit, as skills/pdf-tools/SKILL.md (unchanged, not passed) is.
    assert "skills/other/SKILL.md:2:7: warning DUPLICATE_NAME" in out and "(../pdf-tools/SKILL.md)" in out, out
    assert "skills/lower/skill.md:5:5: hint TRAILING_WHITESPACE" in out, out
    assert "skills/pdf-tools/SKILL.md:" not in out, out  # context, not reported
    assert "in 2 of 2 skills" in out, out
