"""A generated batch on disk: laid out for a run, or written as a stored capture case."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from .grammar import Batch, Skill


def _write_files(folder: Path, files: dict[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        p = folder / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def _place(skill: Skill, top: Path) -> None:
    """Write ``skill`` under ``top`` (which holds ws/, home/ and outside/)."""
    where = top / skill.where / skill.root / skill.folder
    if skill.link is None:
        _write_files(where, skill.files)
        return
    # The files live elsewhere; the skill folder is a relative symlink to them.
    flat = skill.folder.replace("/", "--")
    real = top / "ws" / "linked" / flat if skill.link == "inside" else top / "outside" / flat
    _write_files(real, skill.files)
    where.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(os.path.relpath(real, where.parent), where, target_is_directory=True)


def lay_out(skills: list[Skill], top: Path) -> tuple[Path, Path]:
    """The skills under ``top``/ws and ``top``/home (``top``/outside for links leading out): (ws, home)."""
    if top.exists():
        shutil.rmtree(top)
    ws, home = top / "ws", top / "home"
    ws.mkdir(parents=True)
    home.mkdir(parents=True)
    for s in skills:
        _place(s, top)
    # Codex reads repo-scope skills only inside a git repository.
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    return ws, home


def _toml_str(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    for ch in [chr(c) for c in range(0x20)] + ["\x7f"]:
        out = out.replace(ch, f"\\u{ord(ch):04x}")
    return f'"{out}"'


def write_case(batch: Batch, skills: list[Skill], call: tuple[str, str], folder: Path, about: str,
               disagrees: str | None, every: list[str]) -> None:
    """``skills`` as a stored capture case for ``batch.harness`` (the other harnesses skip it)."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    tmp = folder / ".lay"
    lay_out(skills, tmp)
    for part in ("ws", "home", "outside"):
        src = tmp / part
        if not src.is_dir():
            continue
        dest = folder / ("workspace" if part == "ws" else part)
        shutil.copytree(src, dest, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        if not any(dest.iterdir()):
            dest.rmdir()
    shutil.rmtree(tmp)
    lines = [f"about = {_toml_str(about)}", f"skill = {_toml_str(call[0])}"]
    if call[1]:
        lines.append(f"arguments = {_toml_str(call[1])}")
    lines.append(f"generated = {_toml_str(f'python -m capture diff --seed {batch.seed} (batch {batch.name}), shrunk')}")
    lines.append("")
    lines.append("[skip]")
    for h in every:
        if h != batch.harness:
            lines.append(f'{_toml_str(h)} = "generated for {batch.harness} by the differential tester"')
    if disagrees:
        lines += ["", "[disagrees]", f"{_toml_str(batch.harness)} = {_toml_str(disagrees)}"]
    (folder / "case.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
