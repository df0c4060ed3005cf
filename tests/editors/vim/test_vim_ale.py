"""Real Vim 9 + ALE (Debian vim-nox, vim-ale) in tmux, reading the screen.

Vim starts with the vimrc block of docs/editors.md ("Vim 9 (ALE)") and a SKILL.md
whose name differs from its folder; the real `skill-lsp serve` is found on PATH,
as a user would have it. The test reads the terminal with `tmux capture-pane`:
ALE's sign on line 2 and, with the cursor there, the echoed
"[skill-lsp] NAME_MISMATCH: …" line. ALE ignores the skill-lsp linter except in
SKILL.md buffers (read from `:ALEInfoToFile`).

Skipped when vim, ALE or tmux is missing, unless CI=true or
SKILL_LSP_REQUIRE_EDITORS=1, when that is a failure (editors/ci-setup.sh installs them).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from helpers import MISMATCHED_SKILL, docs_editor_block, editor_missing

HERE = Path(__file__).resolve().parent
TIMEOUT = float(os.environ.get("SKILL_LSP_EDITOR_TIMEOUT", "60"))
ALE_DIRS = [Path("/usr/share/vim/vimfiles/pack/dist-bundle/opt/ale")]


@pytest.fixture(scope="module")
def vim() -> str:
    path = shutil.which("vim")
    if not path:
        editor_missing("vim is not installed (apt-get install vim-nox vim-ale)")
    assert path
    if not shutil.which("tmux"):
        editor_missing("tmux is not installed (apt-get install tmux)")
    if not any((d / "plugin" / "ale.vim").is_file() for d in ALE_DIRS):
        editor_missing("ALE is not installed (apt-get install vim-ale)")
    probe = subprocess.run(
        [path, "-Nu", "NONE", "-i", "NONE", "-es", "+redir! >/dev/stdout",
         "+echo v:version has('job') has('channel')", "+redir END", "+qa!"],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
    )
    fields = probe.stdout.split()
    if len(fields) != 3 or int(fields[0]) < 900 or fields[1:] != ["1", "1"]:
        editor_missing(f"{path} is not Vim 9 with +job +channel: {probe.stdout!r}")
    return path


class Screen:
    """A Vim in its own tmux server (socket in the test's temp dir)."""

    def __init__(self, vim: str, workdir: Path, vimrc: Path, home: Path, file: str, sock: Path) -> None:
        self.sock = str(sock)
        bindir = Path(sys.executable).parent
        if not (bindir / "skill-lsp").exists():
            editor_missing(f"no skill-lsp beside {sys.executable} (pip install -e .)")
        env = f"env HOME={home} PATH={bindir}:{os.environ.get('PATH', '/usr/bin:/bin')} TERM=xterm-256color"
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "vim", "-x", "160", "-y", "30", "-c", str(workdir),
                  f"{env} {vim} -Nu {vimrc} -i NONE {file}")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, text=True, timeout=30, check=True).stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "vim")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "vim", *keys)

    def wait_for(self, what: str, pred: Callable[[str], bool]) -> str:
        deadline = time.monotonic() + TIMEOUT
        screen = ""
        while time.monotonic() < deadline:
            screen = self.text()
            if pred(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}")

    def close(self) -> None:
        try:
            self.keys("Escape", ":qa!", "Enter")
            time.sleep(0.3)
        except subprocess.SubprocessError:
            pass
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def screen(vim: str, tmp_path: Path) -> Iterator[Callable[[str], Screen]]:
    ws = tmp_path / "ws"
    skill = ws / "skills" / "pdf-tools" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(MISMATCHED_SKILL, encoding="utf-8")
    (ws / "README.md").write_text("# Notes\n\nname: not a skill\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=ws, check=True)
    vimrc = tmp_path / "vimrc"
    vimrc.write_text(docs_editor_block("Vim 9 (ALE)", "vim"), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    started: list[Screen] = []

    def start(file: str) -> Screen:
        s = Screen(vim, ws, vimrc, home, file, tmp_path / f"tmux-{len(started)}.sock")
        started.append(s)
        return s

    yield start
    for s in started:
        s.close()


def test_ale_shows_name_mismatch(screen: Callable[[str], Screen]) -> None:
    s = screen("skills/pdf-tools/SKILL.md")
    # ALE's error sign (">>") in the sign column of the name line.
    s.wait_for("the error sign on line 2", lambda t: any(line.startswith(">>name: pdf-toolkit") for line in t.splitlines()))
    s.keys("2G")
    shown = s.wait_for("the echoed finding", lambda t: "[skill-lsp] NAME_MISMATCH:" in t)
    last = [line for line in shown.splitlines() if line.strip()][-1]
    assert last.startswith("[skill-lsp] NAME_MISMATCH: frontmatter 'name' (\"pdf-toolkit\")"), shown
    assert '"pdf-tools"' in last, shown


def ignored_linters(s: Screen, info: Path) -> str:
    s.keys(f":ALEInfoToFile {info}", "Enter")
    deadline = time.monotonic() + TIMEOUT
    text = ""
    while time.monotonic() < deadline and "Ignored Linters:" not in text:
        time.sleep(0.2)
        text = info.read_text() if info.is_file() else ""
    line = next((ln for ln in text.splitlines() if ln.strip().startswith("Ignored Linters:")), None)
    assert line is not None, text
    return line


def test_ale_runs_skill_lsp_only_for_skill_files(screen: Callable[[str], Screen], tmp_path: Path) -> None:
    readme = screen("README.md")
    readme.wait_for("the README", lambda t: "name: not a skill" in t)
    assert "'skill-lsp'" in ignored_linters(readme, tmp_path / "readme-info.txt")
    skill = screen("skills/pdf-tools/SKILL.md")
    skill.wait_for("the SKILL.md", lambda t: "name: pdf-toolkit" in t)
    assert "skill-lsp" not in ignored_linters(skill, tmp_path / "skill-info.txt")


def test_ale_code_action_fixes_the_name(screen: Callable[[str], Screen], tmp_path: Path) -> None:
    # ALE sends the diagnostics back without their `source`: the server matches code and range.
    s = screen("skills/pdf-tools/SKILL.md")
    s.wait_for("the error sign on line 2", lambda t: any(line.startswith(">>name: pdf-toolkit") for line in t.splitlines()))
    s.keys("2G")
    s.wait_for("the echoed finding", lambda t: "[skill-lsp] NAME_MISMATCH:" in t)
    s.keys(":ALECodeAction", "Enter")
    menu = s.wait_for("the code action menu", lambda t: "Set name to the folder name 'pdf-tools'" in t)
    choice = next(line.split(")", 1)[0].strip() for line in menu.splitlines()
                  if "Set name to the folder name 'pdf-tools'" in line)
    s.keys(choice, "Enter")
    s.wait_for("the fixed name", lambda t: any(line.endswith("name: pdf-tools") for line in t.splitlines()))
    s.keys(":w", "Enter")
    skill = tmp_path / "ws" / "skills" / "pdf-tools" / "SKILL.md"
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and "name: pdf-tools\n" not in skill.read_text(encoding="utf-8"):
        time.sleep(0.2)
    assert "name: pdf-tools\n" in skill.read_text(encoding="utf-8")
