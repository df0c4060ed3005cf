"""Batches of real skills: folders copied from repositories, for ``python -m capture diff --real``.

Generated skills hold what the grammar thought of; real ones hold what authors write (long
descriptions near the budgets, reference trees, scripts, YAML the grammar never drew). Each
skill folder is copied as it is into the harness's own project root, then the release and
skill-lsp are compared on it exactly as on a generated batch.

What is left out, and why:
- A folder holding another ``SKILL.md`` below it (the nested skill would be a second skill that
  no verdict owns); files over ``MAX_FILE`` bytes, folders over ``MAX_FOLDER`` in all (the layout
  is what both sides read, so a dropped file changes nothing compared); ``.git``; links (a
  generated batch tests them).
- A folder whose name another sampled skill already took (duplicate names are the grammar's).
- Claude Code activations of a skill that runs shell commands when invoked (`` !`cmd` ``, a
  `` ```! `` fence) or declares hooks: the release would run a stranger's commands here.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

from .grammar import Batch, Skill, _roots

MAX_FILE = 512 * 1024
MAX_FOLDER = 8 * 1024 * 1024
SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".venv", "venv"})
#: Arguments handed to every other activation: words, a quoted pair, a `$`.
ARGUMENTS = 'first "second third" $4'

_RUNS_COMMANDS = re.compile(rb"(?:^|[ \t])!`|^[ \t]*(?:```|~~~)!", re.M)
_HOOKS = re.compile(rb"^hooks[ \t]*:", re.M)
_NAME = re.compile(rb"^name:[ \t]*['\"]?(.*?)['\"]?[ \t]*\r?$", re.M)
_SPACES = re.compile(r"\s+")


def skill_folders(top: Path) -> list[Path]:
    """Every folder under ``top`` holding a ``SKILL.md`` and no other one below it, sorted."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        if "SKILL.md" in filenames:
            found.append(Path(dirpath))
    found.sort()
    return [f for i, f in enumerate(found)
            if not (i + 1 < len(found) and found[i + 1].is_relative_to(f))]


def read_folder(folder: Path) -> dict[str, bytes] | None:
    """The folder's regular files (relative path -> bytes), or None when it is too large."""
    files: dict[str, bytes] = {}
    total = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            p = Path(dirpath) / name
            if p.is_symlink() or not p.is_file() or p.stat().st_size > MAX_FILE:
                continue
            data = p.read_bytes()
            total += len(data)
            if total > MAX_FOLDER:
                return None
            files[p.relative_to(folder).as_posix()] = data
    return files if "SKILL.md" in files else None


def _frontmatter(data: bytes) -> bytes:
    if not data.startswith(b"---"):
        return b""
    end = data.find(b"\n---", 3)
    return data[:end] if end > 0 else data


def _call(harness: str, folder: str, data: bytes) -> str | None:
    """The name to activate the skill by, as the grammar chooses it: the folder for Claude Code,
    the declared name elsewhere (the folder when there is none), as Copilot CLI lists it there (each
    run of whitespace one '-': `MindList Protocol` is `MindList-Protocol`, seed 11; called by the name
    as written, the release and skill-lsp both found nothing); None when activating it here would run
    its commands."""
    head = _frontmatter(data)
    if harness == "claude-code":
        return None if _RUNS_COMMANDS.search(data) or _HOOKS.search(head) else folder
    m = _NAME.search(head)
    name = m.group(1).decode("utf-8", "replace").strip() if m else ""
    if harness == "copilot":
        name = _SPACES.sub("-", name)
    return name or folder


def batches(tops: list[Path], harness: str, seed: int, count: int, size: int) -> list[Batch]:
    """``count`` real skills drawn (seeded) from the repositories ``tops``, in batches of ``size``."""
    r = random.Random(f"real/{seed}")
    folders = [f for top in tops for f in skill_folders(top)]
    r.shuffle(folders)
    _, (where, root) = _roots(harness)
    picked: list[Skill] = []
    taken: set[str] = set()
    for folder in folders:
        if len(picked) >= count:
            break
        name = folder.name
        if name in taken:
            continue
        files = read_folder(folder)
        if files is None:
            continue
        taken.add(name)
        repo = next(t.name for t in tops if folder.is_relative_to(t))
        arguments = ARGUMENTS if len(picked) % 2 else ""
        picked.append(Skill(where, root, name, files, None, _call(harness, name, files["SKILL.md"]),
                            arguments, ("real", f"repo:{repo}")))
    return [Batch(harness, seed, i // size, picked[i:i + size]) for i in range(0, len(picked), size)]
