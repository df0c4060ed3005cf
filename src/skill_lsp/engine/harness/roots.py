"""Which harness reads the root a skill folder lives in, from the root facts of the records alone."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import lru_cache

from .claude_plugin import plugin_of
from .data import HARNESSES
from .model import Harness


def _tail(root_path: str) -> str:
    return "/" + root_path.removeprefix("~/").lstrip("/")


@lru_cache(maxsize=1)
def _root_table() -> tuple[tuple[str, str, int], ...]:
    """(root tail, harness, depth) for every root of every harness."""
    return tuple((_tail(r.path), h.name, max(1, h.depth)) for h in HARNESSES.values() for r in h.roots)


@lru_cache(maxsize=4096)
def _readers(parent: str) -> frozenset[str] | None:
    """Harnesses reading a skill whose folder sits in ``parent``; None when no known root matches.

    Cached per parent folder: the skills of one root share it.
    """
    ancestors = []
    p = parent
    while p and p != "/":
        ancestors.append(p)
        if "/" not in p:
            break  # a relative path's first folder (rsplit would return it again, for ever)
        p = p.rsplit("/", 1)[0]
    found: set[str] = set()
    for tail, name, depth in _root_table():
        if any(a.endswith(tail) for a in ancestors[:depth]):
            found.add(name)
    return frozenset(found) if found else None


def reads_root(harness: Harness, skill_dir: str) -> bool | None:
    """Whether ``harness`` reads the root ``skill_dir`` lives in; None when no known harness root matches.
    A Claude Code plugin's `skills/` folder is read by a harness that loads plugins (the plugin
    installed, or given with `--plugin-dir`)."""
    if harness.plugins and plugin_of(skill_dir) is not None:
        return True
    readers = _readers(os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/"))
    return None if readers is None else harness.name in readers


# Folders besides its skill roots a harness reads in a project: Claude Code lists the project's
# commands with its skills (harness/claude_commands.py).
_PROJECT_FOLDERS = {"claude-code": (".claude/commands",)}


def session_reader(harness: Harness, dirs: Iterable[str], workspace: str | None = None) -> Callable[[str], bool | None]:
    """``reads_root`` for a session in the workspace holding the skill folders ``dirs``: where
    ``harness`` reads one of their roots, or a folder of ``workspace`` it reads in a project (a
    project it works in), a folder it knows no root of (a source folder such as `skills/`) is not
    read either. Claude Code 2.1.332 in a project with `.claude/skills` and `skills/` lists the
    former alone, and in one with `.claude/commands` and `skills/` its commands alone (capture diff
    --plugins on the held-out unseen22 matrix-os and unseen23 jwynia/agent-skills); with none of
    them, a source folder's skills are previewed as installed."""
    here = any(reads_root(harness, d) is True for d in dirs) or (workspace is not None and any(
        os.path.isdir(os.path.join(workspace, f)) for f in _PROJECT_FOLDERS.get(harness.name, ())))

    def reads(skill_dir: str) -> bool | None:
        got = reads_root(harness, skill_dir)
        return False if got is None and here else got

    return reads


def roots_reading(skill_dir: str, *, documented: bool = False) -> tuple[str, ...]:
    """Names of the harnesses that read the root holding ``skill_dir`` (unverified ones on request)."""
    return _reading(os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/"), documented)


@lru_cache(maxsize=4096)
def _reading(parent: str, documented: bool) -> tuple[str, ...]:
    # Asked twice for every skill checked; the skills of one root share the answer.
    readers = _readers(parent)
    if readers is None:
        return ()
    return tuple(h.name for h in HARNESSES.values() if h.name in readers and (documented or h.checked_by_default))


def label(harness: Harness) -> str:
    """A harness as its findings name it: "Claude Code 2.1.332" when captured, its title otherwise."""
    return f"{harness.title} {harness.version}" if harness.version and harness.proof == "captured" else harness.title


def not_read(harness: Harness, skill_dir: str) -> str:
    """"Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)"; for a
    folder below one of its roots, how deep it looks instead."""
    parent = os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/")
    who = label(harness)
    up = parent
    for level in range(2, 66):
        up = up.rsplit("/", 1)[0] if "/" in up else ""
        if not up:
            break
        tail = next((t for t in (_tail(r.path) for r in harness.roots) if up.endswith(t)), None)
        if tail is not None:
            where = "in its roots only" if harness.depth <= 1 else f"at most {harness.depth} folders below its roots"
            return f"{who} looks for skill folders {where}; this one is {level} folders below {tail.lstrip('/')}"
    root = next((tail.lstrip("/") for tail, _, _ in _root_table() if parent.endswith(tail)), None)
    if root is None:
        # A folder no harness is known to read, in a session where this one reads its own roots.
        return (f"{who} does not read {parent.rsplit('/', 1)[-1]}/ in a project where it reads its own folders "
                "(a source folder: its skills are listed once installed into one of its roots)")
    return f"{who} does not read {root} (skills there are never loaded)"


def in_devin_root(path: str) -> bool:
    """Whether ``path`` (a SKILL.md) is a skill of Devin CLI's project root, `.devin/skills/<name>/`,
    which no modelled harness reads: there the frontmatter is optional (the folder names the
    skill) and tools are named read, grep, glob, exec (docs.devin.ai cli/extensibility/skills;
    documented, not verified: skill-lsp cannot run Devin). Unseen Ryukijano/agent-skills keeps 810
    skills there without frontmatter."""
    if ".devin" not in path:
        return False  # asked of every skill checked outside the roots
    root = os.path.dirname(os.path.dirname(path))
    return os.path.basename(root) == "skills" and os.path.basename(os.path.dirname(root)) == ".devin"


def win_rank(harness: Harness, skill_dir: str) -> int | None:
    """Where the root holding ``skill_dir`` stands in ``harness.wins`` (0: its copy of a name is the one
    listed); None when that root is not there (the harness lists every copy of a name, settles none, or
    does not read the root)."""
    if not harness.wins:
        return None
    home = os.path.expanduser("~").replace(os.sep, "/").rstrip("/")
    up = os.path.dirname(os.path.normpath(skill_dir)).replace(os.sep, "/")
    for _ in range(max(1, harness.depth)):
        for i, root in enumerate(harness.wins):
            if root.startswith("~/"):
                if up == f"{home}/{root[2:]}":
                    return i
            elif up.endswith("/" + root) and up != f"{home}/{root}":
                return i
        if "/" not in up.strip("/"):
            break
        up = up.rsplit("/", 1)[0]
    return None
