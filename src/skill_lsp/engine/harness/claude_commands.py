"""The commands Claude Code lists beside the skills: `.claude/commands/**/*.md` of a project (or
the user's folder) and the commands of a plugin.

Claude Code 2.1.332 (probe `commands` of `python -m capture diff`, and 110 plugins and project
folders of unseen repositories loaded by the release) lists each among the skills in its Skill
tool's listing, as a skill is listed: its description (else, for a project's command, the first
line of its body) and `when_to_use`, under its path below the commands folder without `.md`, its
folders joined by `:` (`.claude/commands/a/b/c.md` is `a:b:c`; a plugin's `kit:sub:q3`).

- A project's commands follow the skills, in localeCompare order of their names (`review` before
  `review-pr`, `a-c:x` before `a:x`; probe `commands`).
- A plugin's come before its skills: those plugin.json's `commands` names (a file or a folder,
  or a list of them), in its order, else those of its `commands/` folder; within a folder, in
  localeCompare order, the folders named before its first file, its files, then its other
  folders. One without a description is left out, as a plugin's skill is; of a command and a
  skill of one name, the command is listed.
- A command named like a skill is not listed, nor one that `disable-model-invocation` hides. Only
  files ending in `.md` exactly count, dot-files among them, links to files not.
"""

from __future__ import annotations

import json
import os

from ..datarecord import datarecord
from .claude_plugin import MANIFEST, Plugin, fresh, plugin_at

# A command file larger than this is not read (a listing takes its description, not a book).
_MAX_BYTES = 1 << 20
# Folders never searched for plugins: dependencies, build output, version control.
_NOT_SEARCHED = frozenset({"node_modules", ".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "dist", "build"})


@datarecord(frozen=True, slots=True)
class Command:
    key: str  # the name it is listed and called by
    stem: str  # the file name without `.md`
    path: str
    text: str
    plugin: Plugin | None = None
    rel: str = ""  # its path below the folder it was found in, `/` between folders
    # A plugin's: the place of what named it among plugin.json's `commands` (their number for its
    # `commands/` folder's).
    rank: int = 0
    walk: tuple = ()  # a plugin's: its place in the release's walk of its folder (render/claude_code.py)


def _read(path: str) -> str | None:
    try:
        if os.path.getsize(path) > _MAX_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except OSError:
        return None


def _walk(folder: str) -> list[tuple[list[str], str]]:
    """(folders below ``folder``, file name) of every `.md` file under it, in no particular order
    (the renderer orders them, with localeCompare)."""
    out: list[tuple[list[str], str]] = []
    for here, _dirs, files in os.walk(folder):
        rel = os.path.relpath(here, folder)
        parts = [] if rel == "." else rel.split(os.sep)
        # A link to a file is not read (44 linked commands of one unseen plugin, all to one file
        # the release lists once, under its own name).
        out += [(parts, name) for name in files if name.endswith(".md") and not os.path.islink(os.path.join(here, name))]
    return out


def commands_in(folder: str, plugin: Plugin | None = None) -> list[Command]:
    """The commands of the commands folder ``folder`` (a project's `.claude/commands`, or a plugin's
    when ``plugin`` is given: then those its plugin.json names instead, where it names any); []
    when there are none."""
    prefix = f"{plugin.name}:" if plugin is not None and plugin.name else ""
    out: list[Command] = []
    seen: set[str] = set()
    # plugin.json's `commands` takes the place of the `commands/` folder (unseen motlin/claude-code-plugins'
    # java plugin: of its folder's three commands the release lists the two the list names).
    places: list[str] = (_declared(plugin) if plugin is not None else None) or [folder]
    for rank, place in enumerate(places):
        found: list[tuple[list[str], str]]
        if os.path.isfile(place):
            found = [([], os.path.basename(place))] if place.endswith(".md") else []
            base = os.path.dirname(place)
        elif os.path.isdir(place):
            found, base = _walk(place), place
        else:
            continue
        for parts, name in found:
            path = os.path.normpath(os.path.join(base, *parts, name))
            if path in seen:
                continue
            seen.add(path)
            text = _read(path)
            if text is not None:
                stem = name[:-3]
                out.append(Command(prefix + ":".join([*parts, stem]), stem, path, text, plugin,
                                   "/".join([*parts, name]), rank))
    return out


def _declared(plugin: Plugin) -> list[str] | None:
    """The paths plugin.json's `commands` names (a string or a list of strings), inside the plugin;
    None when it names none."""
    try:
        with open(os.path.join(plugin.root, MANIFEST), encoding="utf-8") as f:
            value = json.load(f).get("commands")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(value, (str, list)):
        return None
    items = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
    root = os.path.realpath(plugin.root)
    out = []
    for item in items:
        path = os.path.normpath(os.path.join(plugin.root, item))
        if os.path.realpath(path) == root or os.path.realpath(path).startswith(root + os.sep):
            out.append(path)
    return out


_UNDER: dict[tuple[str, int], tuple[float, list[Plugin]]] = {}


def plugins_under(workspace: str, depth: int = 6) -> list[Plugin]:
    """The Claude Code plugins (a `.claude-plugin/` folder) at most ``depth`` folders below
    ``workspace``, the workspace itself included, those Claude Code cannot load among them; none
    inside another (an example among a plugin's skills)."""
    return fresh(_UNDER, (workspace, depth), lambda: _plugins_under(workspace, depth))


def _plugins_under(workspace: str, depth: int) -> list[Plugin]:
    out: list[Plugin] = []
    base = workspace.rstrip(os.sep).count(os.sep)
    for here, dirs, _files in os.walk(workspace):
        if ".claude-plugin" in dirs:
            plugin = plugin_at(here)
            if plugin is not None:
                out.append(plugin)
                dirs[:] = []  # a plugin among its skills' examples is not loaded with it
                continue
        if here.count(os.sep) - base >= depth:
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if d not in _NOT_SEARCHED and not (d.startswith(".") and d != ".claude"))
    return out
