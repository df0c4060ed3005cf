"""The commands Claude Code lists beside the skills: `.claude/commands/**/*.md` of a project (or
the user's folder) and `commands/**/*.md` of a plugin.

Claude Code 2.1.332 (probes with the release, capture/diff/FINDINGS.md) lists each among the
skills in its Skill tool's listing, as a skill is listed: its description (else the first line of
its body) and `when_to_use`, under the path below the commands folder without `.md`, its folders
joined by `:` (`.claude/commands/a/b/c.md` is `a:b:c`; a plugin's `kit:sub:q3`). A project's
commands follow the skills, a plugin's come before its skills. A command named like a skill is not
listed, nor one that `disable-model-invocation` hides. Only files ending in `.md` exactly count,
dot-files among them.
"""

from __future__ import annotations

import os

from ..datarecord import datarecord
from .claude_plugin import Plugin

# A command file larger than this is not read (a listing takes its description, not a book).
_MAX_BYTES = 1 << 20


@datarecord(frozen=True, slots=True)
class Command:
    key: str  # the name it is listed and called by
    stem: str  # the file name without `.md`
    path: str
    text: str
    plugin: Plugin | None = None


def commands_in(folder: str, plugin: Plugin | None = None) -> list[Command]:
    """The commands of the commands folder ``folder``, in no particular order; [] when it is none."""
    out: list[Command] = []
    if not os.path.isdir(folder):
        return out
    prefix = f"{plugin.name}:" if plugin is not None and plugin.name else ""
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        rel = os.path.relpath(here, folder)
        parts = [] if rel == "." else rel.split(os.sep)
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            path = os.path.join(here, name)
            try:
                if os.path.getsize(path) > _MAX_BYTES:
                    continue
                with open(path, encoding="utf-8", errors="replace", newline="") as f:
                    text = f.read()
            except OSError:
                continue
            stem = name[:-3]
            out.append(Command(prefix + ":".join([*parts, stem]), stem, path, text, plugin))
    return out
