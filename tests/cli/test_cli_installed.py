"""The harness the user has installed: found on PATH, asked its version, compared with the release
skill-lsp's facts were proven on (`skill-lsp harnesses`, the preview header, JSON)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from tests.helpers import run_cli, write_skill

SKILL = "---\nname: demo\ndescription: Does a thing. Use when testing.\n---\n# Demo\n"


def fake(bindir: Path, command: str, output: str, marker: Path | None = None) -> None:
    bindir.mkdir(parents=True, exist_ok=True)
    exe = bindir / command
    touch = f"touch {marker}\n" if marker else ""
    exe.write_text(f"#!/bin/sh\n{touch}echo '{output}'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)


def env_with(bindir: Path) -> dict[str, str]:
    return {"PATH": f"{bindir}{os.pathsep}/usr/bin:/bin"}


def test_harnesses_says_what_is_installed_and_what_differs(tmp_path: Path):
    bindir = tmp_path / "bin"
    fake(bindir, "claude", "2.2.0 (Claude Code)")
    fake(bindir, "codex", "codex-cli 0.171.0")
    proc = run_cli("harnesses", cwd=tmp_path, env=env_with(bindir))
    assert proc.returncode == 0, proc.stderr
    tail = proc.stdout.split("Installed here:\n", 1)[1]
    assert (f"  ! Claude Code 2.2.0 is installed ({bindir / 'claude'}); skill-lsp's facts were proven on 2.1.332: "
            "check yours with `skill-lsp capture --harness claude-code`") in tail
    assert f"  Codex 0.171.0 is installed ({bindir / 'codex'}), the release skill-lsp's facts were proven on" in tail
    assert "  OpenCode: not installed (`opencode` is not on PATH)" in tail
    data = json.loads(run_cli("harnesses", "--format", "json", cwd=tmp_path, env=env_with(bindir)).stdout)
    by = {i["harness"]: i for i in data["installed"]}
    assert by["claude-code"] == {"harness": "claude-code", "command": "claude", "path": str(bindir / "claude"),
                                 "version": "2.2.0", "proven": "2.1.332", "differs": True, "problem": None}
    assert by["codex"]["differs"] is False and by["opencode"]["path"] is None


def test_the_preview_header_warns_of_a_newer_release(tmp_path: Path):
    bindir = tmp_path / "bin"
    fake(bindir, "claude", "2.2.0 (Claude Code)")
    ws = tmp_path / "ws"
    write_skill(ws / ".claude" / "skills", "demo", SKILL)
    proc = run_cli("preview", "demo", "--dialect", "claude-code", cwd=ws, env=env_with(bindir))
    assert proc.returncode == 0, proc.stderr
    assert "skill-lsp: note: Claude Code 2.2.0 is installed" in proc.stderr
    assert "2.2.0" not in proc.stdout  # stdout stays exactly what the harness sends
    data = json.loads(run_cli("preview", "demo", "--dialect", "claude-code", "--format", "json", cwd=ws,
                              env=env_with(bindir)).stdout)
    assert data["installed"]["version"] == "2.2.0" and data["installed"]["differs"] is True
    cat = run_cli("catalog", ".", "--dialect", "claude-code", cwd=ws, env=env_with(bindir))
    assert "skill-lsp: note: Claude Code 2.2.0 is installed" in cat.stderr
    same = run_cli("preview", "demo", "--dialect", "claude-code", cwd=ws, env=env_with(tmp_path / "none"))
    assert "note: Claude Code" not in same.stderr


def test_a_program_inside_the_checked_folder_is_never_run(tmp_path: Path):
    ws = tmp_path / "ws"
    write_skill(ws / ".claude" / "skills", "demo", SKILL)
    marker = tmp_path / "ran"
    fake(ws / "bin", "claude", "9.9.9 (Claude Code)", marker)
    proc = run_cli("preview", "demo", "--dialect", "claude-code", cwd=ws, env=env_with(ws / "bin"))
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()
    assert "9.9.9" not in proc.stderr
