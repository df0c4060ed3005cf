"""Real Emacs 28 + eglot (Debian emacs-nox, elpa-eglot, elpa-markdown-mode) in --batch.

Emacs loads the configuration block of docs/editors.md ("Emacs (eglot)") as its
init file, visits a SKILL.md whose name differs from its folder, and
eglot_driver.el prints the Flymake diagnostics that eglot received from the real
`skill-lsp serve` (found on PATH, as a user would have it). The configuration's
`eglot-workspace-configuration` sets TRAILING_WHITESPACE to "hint", so seeing it
as an eglot-note proves the settings reached the server too.

Skipped when Emacs, eglot or markdown-mode is missing, unless CI=true or
SKILL_LSP_REQUIRE_EDITORS=1, when that is a failure (editors/ci-setup.sh installs them).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import MISMATCHED_SKILL, docs_editor_block, editor_missing

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "eglot_driver.el"
TIMEOUT = float(os.environ.get("SKILL_LSP_EDITOR_TIMEOUT", "60"))


@pytest.fixture(scope="module")
def emacs() -> str:
    path = shutil.which("emacs")
    if not path:
        editor_missing("emacs is not installed (apt-get install emacs-nox elpa-eglot elpa-markdown-mode)")
    assert path
    probe = subprocess.run(
        [path, "--batch", "-q", "--eval", "(package-activate-all)", "--eval",
         "(progn (require 'eglot) (require 'markdown-mode) (princ emacs-version))"],
        capture_output=True, text=True, timeout=60,
    )
    if probe.returncode != 0:
        editor_missing(f"eglot or markdown-mode is missing: {probe.stderr.strip()[-300:]}")
    if int(probe.stdout.split(".")[0]) < 28:
        editor_missing(f"Emacs {probe.stdout} is older than 28")
    return path


def server_bin_dir() -> str:
    here = Path(sys.executable).parent
    if not (here / "skill-lsp").exists():
        editor_missing(f"no skill-lsp beside {sys.executable} (pip install -e .)")
    return str(here)


def run_emacs(emacs: str, tmp_path: Path, file: Path, connect_wait: float | None = None) -> subprocess.CompletedProcess[str]:
    init = tmp_path / "init.el"
    init.write_text(docs_editor_block("Emacs (eglot)", "elisp"), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = dict(
        os.environ,
        HOME=str(home),
        PATH=f"{server_bin_dir()}{os.pathsep}{os.environ.get('PATH', '')}",
        SKILL_LSP_TEST_FILE=str(file),
        SKILL_LSP_TEST_TIMEOUT=str(int(TIMEOUT)),
        SKILL_LSP_TEST_CONNECT_WAIT=str(connect_wait if connect_wait is not None else int(TIMEOUT)),
    )
    # --batch -q: no user init; package-activate-all does what an interactive
    # start does before the init file (Debian's elpa-* packages are packages).
    return subprocess.run(
        [emacs, "--batch", "-q", "--eval", "(package-activate-all)", "-l", str(init), "-l", str(DRIVER)],
        cwd=file.parent, env=env, capture_output=True, text=True, timeout=TIMEOUT + 60,
    )


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    skill = ws / "skills" / "pdf-tools" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(MISMATCHED_SKILL, encoding="utf-8")
    (ws / "README.md").write_text("# Notes\n\nNot a skill.   \n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)  # the project root eglot uses
    return ws


def test_eglot_shows_name_mismatch(emacs: str, workspace: Path, tmp_path: Path) -> None:
    proc = run_emacs(emacs, tmp_path, workspace / "skills" / "pdf-tools" / "SKILL.md")
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr[-3000:]
    assert "MODE markdown-mode" in out, out
    assert "SERVER ws" in out, out
    diags = [line for line in out.splitlines() if line.startswith("DIAG ")]
    assert any(
        line.startswith("DIAG 2 eglot-error skill-lsp [NAME_MISMATCH]:") and '"pdf-tools"' in line for line in diags
    ), out
    # The docs' eglot-workspace-configuration made TRAILING_WHITESPACE a hint.
    assert "DIAG 3 eglot-note skill-lsp [TRAILING_WHITESPACE]: trailing whitespace" in diags, out


def test_eglot_not_started_for_other_markdown(emacs: str, workspace: Path, tmp_path: Path) -> None:
    # The SKILL.md case connects in about a second; 5 s without a connection is enough here.
    proc = run_emacs(emacs, tmp_path, workspace / "README.md", connect_wait=5)
    assert "MODE markdown-mode" in proc.stdout, proc.stdout + proc.stderr[-2000:]
    assert "SERVER none" in proc.stdout, proc.stdout
    assert "DIAG" not in proc.stdout
