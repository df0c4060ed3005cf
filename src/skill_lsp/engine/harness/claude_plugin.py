"""The Claude Code plugin a skill belongs to: `<plugin>/skills/<folder>/SKILL.md` with a
`<plugin>/.claude-plugin/` folder.

Claude Code 2.1.332 (probes `plugin` and `plugin-names` of `python -m capture diff`, a plugin
loaded with `--plugin-dir`) lists such a skill as `<name>:<folder>`, where the name is
`.claude-plugin/plugin.json`'s `name` or, without that file, the plugin's folder name. When
plugin.json cannot give a name (not JSON, not an object, no string `name`, an empty one, one
holding a space, a path separator, `:` or a control character) the plugin does not load, and
none of its skills with it. Other fields of plugin.json that its schema refuses keep it from
loading too (probe `plugin-layouts`): a path of `commands`, `agents`, `skills`, `outputStyles`,
`themes`, `workflows`, `hooks`, `mcpServers`, `lspServers` or `monitors` that does not start with
`./` (`"skills": ["skills/x"]`, `"agents": ["x"]`), an `agents` path not ending in `.md`, a `hooks`
one not ending in `.json`, such a field that is no path or list of paths, a `version` that is not
a string. Others are not checked here.

A SKILL.md at the plugin's root is one of its skills, listed after the others as
`<name>:<declared name, else the plugin's folder name>` (its own `<name>:` prefix taken off, every
character but ASCII letters, digits, `_` and `-` made `-`, as in the folder name of any plugin skill),
when the plugin has no `skills` entry beside it (a folder, even empty) and its plugin.json names no
`skills`, or when plugin.json's `skills` names the root (`.` or `./`).
"""

from __future__ import annotations

import os
import re
import time
from functools import lru_cache

from ..datarecord import datarecord
from ..jsontext import string

TYPE_CHECKING = False  # typing costs a one-skill check its import; type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import TypeVar

    _T = TypeVar("_T")
    _K = TypeVar("_K", bound=Hashable)

MANIFEST = os.path.join(".claude-plugin", "plugin.json")
# What the release's manifest schema refuses in a name (read from 2.1.332's bundle: no space, no
# control or bidirectional-formatting character) and what the probe found refused besides.
_REFUSED = r"[ /\\:\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]"

# The patterns stay strings, compiled by re (and kept in its cache) on first use: a module-level
# re.compile costs every check its start-up (3.5 M instructions for these three), and the harness
# model imports nothing above it (no lazyre).


@datarecord(frozen=True)
class Plugin:
    root: str  # the plugin's folder
    name: str | None  # the prefix of its skills' names; None when Claude Code does not load it
    problem: str = ""  # why it does not load (name None)
    root_skill: bool = False  # whether it loads a SKILL.md at its root as one of its skills
    # The folders plugin.json's `skills` names inside the plugin, in its order (``named``): each a
    # skill's folder or a folder of skills. Kept for a plugin that does not load too, whose skills
    # they are all the same.
    paths: tuple[str, ...] = ()

    def rank(self, skill_dir: str) -> int:
        """Where the release lists a skill of this plugin (probe plugin-layouts): those of its
        `skills/` folder first, then those of each path plugin.json names, in its order."""
        parent = os.path.dirname(skill_dir)
        if parent == os.path.join(self.root, "skills"):
            return 0
        return next((i for i, p in enumerate(self.paths, 1) if p in (skill_dir, parent)), len(self.paths) + 1)


def plugin_skills_folder(folder: str) -> bool:
    """Whether ``folder`` is a Claude Code plugin's `skills/` folder (`.claude-plugin/` beside it),
    asked of the disk each time (a plugin made or removed shows at once)."""
    return os.path.basename(folder) == "skills" and os.path.isdir(os.path.join(os.path.dirname(folder), ".claude-plugin"))


def plugin_of(skill_dir: str) -> Plugin | None:
    """The plugin whose `skills/` folder holds ``skill_dir``, or whose root ``skill_dir`` is; None
    when it is neither. A SKILL.md at the root of a plugin that does not load it (a `skills/` folder
    beside it) belongs to a plugin of no name, which Claude Code does not load."""
    skills = os.path.dirname(skill_dir)
    if os.path.basename(skills) == "skills":
        plugin = plugin_at(os.path.dirname(skills))
        if plugin is not None:
            return plugin
    if os.path.basename(skills) == "skills" and os.path.basename(os.path.dirname(skills)) == ".claude":
        return None  # a project's or the user's skill, whatever its folder holds (capture case codex-plugin-folder)
    plugin = plugin_at(skill_dir)
    if plugin is None:
        return named(skill_dir)
    if plugin.name is None or plugin.root_skill:
        return plugin
    return Plugin(plugin.root, None, "a SKILL.md at its root is loaded only when no skills/ folder is beside it "
                                     'and plugin.json names no "skills", or when its "skills" names "./"')


def named(skill_dir: str, levels: int = 12) -> Plugin | None:
    """The plugin whose plugin.json `skills` names ``skill_dir``, or the folder holding it when that
    folder has no SKILL.md of its own; the nearest plugin above is asked, no other (probe
    plugin-layouts: `"skills": ["./custom"]` lists `custom/a` and `custom/b` beside `skills/`, a
    folder named that holds a SKILL.md is that one skill, one folder down only)."""
    parent = os.path.dirname(skill_dir)
    plugin = around(skill_dir, levels)
    if plugin is not None and (skill_dir in plugin.paths or (
            parent in plugin.paths and parent != plugin.root and not os.path.isfile(os.path.join(parent, "SKILL.md")))):
        return plugin
    return None


def around(skill_dir: str, levels: int = 12) -> Plugin | None:
    """The nearest plugin whose folder holds ``skill_dir`` (not ``skill_dir`` itself), at most
    ``levels`` folders up."""
    root, steps = _nearest(os.path.dirname(skill_dir))
    return plugin_at(root) if root is not None and steps < levels else None


# Folder -> (when, the folder of the nearest plugin at or above it, how many folders up): every
# skill of a workspace outside the harnesses' roots asks (``targets.infer``) and its siblings share
# the answer, where asking each folder up to the root again was 5 % of a scan's check job.
_NEAREST: dict[str, tuple[float, tuple[str | None, int]]] = {}


def _nearest(folder: str) -> tuple[str | None, int]:
    now = time.monotonic()
    if len(_NEAREST) > 8192:
        _NEAREST.clear()
    walked: list[tuple[str, float]] = []  # folders of no plugin, nearest first, and when that was seen
    root: str | None = None
    steps = 0
    while True:
        hit = _NEAREST.get(folder)
        if hit is not None and now - hit[0] < _FRESH_S:
            when, (root, steps) = hit
            break
        found = plugin_at(folder) is not None
        when = _SEEN[folder][0]
        if found:
            root = folder
            _NEAREST[folder] = (when, (root, 0))
            break
        walked.append((folder, when))
        above = os.path.dirname(folder)
        if above == folder:  # the file system's root: no plugin above
            break
        folder = above
    for below, seen in reversed(walked):  # each answer no older than what it was made of
        when, steps = min(when, seen), steps + 1
        _NEAREST[below] = (when, (root, steps))
    return _NEAREST[walked[0][0]][1] if walked else (root, steps)


def forget() -> None:
    """Read every plugin from the disk again at the next question (tests that change one at once)."""
    _SEEN.clear()
    _NEAREST.clear()


def stray(skill_dir: str) -> bool:
    """Whether ``skill_dir`` sits in the folder of a plugin with a plugin.json that does not load it
    as one of its skills (a skill among its docs or templates): a session that loads the plugin
    never lists it (probe plugin-layouts: `"skills": ["./custom/a"]` lists no `custom/b`)."""
    plugin = around(skill_dir)
    return plugin is not None and os.path.isfile(os.path.join(plugin.root, MANIFEST)) and plugin_of(skill_dir) is None


def skill_name(plugin: Plugin, skill_dir: str, declared: Callable[[], object] = lambda: None) -> str:
    """What follows `<plugin>:` in the name of ``plugin``'s skill at ``skill_dir``: its folder's
    name; for the SKILL.md at the plugin's root the name it declares (``declared()``, trimmed, the
    plugin's own prefix taken off), else the plugin folder's name. Every UTF-16 unit but ASCII
    letters, digits, `_` and `-` is made `-` (probe plugin-layouts: folder `a.b` is listed `kit:a-b`,
    `name: Root Name.v2` at the root `kit:Root-Name-v2`)."""
    part = os.path.basename(os.path.normpath(skill_dir))
    if os.path.normpath(skill_dir) == os.path.normpath(plugin.root):
        name = declared()
        if isinstance(name, str):
            part = name.strip(_JS_SPACE).removeprefix(f"{plugin.name}:") or part
    return re.sub(_NOT_IN_NAME, lambda m: "--" if ord(m.group()) > 0xFFFF else "-", part)


_NOT_IN_NAME = r"[^a-zA-Z0-9_-]"
# What JavaScript's trim() takes off (activation/jsstr.py's JS_WHITESPACE; the harness model imports
# nothing above it).
_JS_SPACE = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
             "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff")


# A catalog asks for each skill's plugin in every sort and lookup (thousands of times for a large
# workspace), and for a workspace's plugins once to render and once to decide: an answer is kept
# this long, so a plugin folder made or changed under a running server is seen within it.
_FRESH_S = 2.0


def fresh(table: dict[_K, tuple[float, _T]], key: _K, make: Callable[[], _T]) -> _T:
    """``make()``, or what it gave for ``key`` in ``table`` less than ``_FRESH_S`` ago."""
    now = time.monotonic()
    hit = table.get(key)
    if hit is not None and now - hit[0] < _FRESH_S:
        return hit[1]
    if len(table) > 8192:
        table.clear()
    got = make()
    table[key] = (now, got)
    return got


_SEEN: dict[str, tuple[float, Plugin | None]] = {}


def plugin_at(root: str) -> Plugin | None:
    """The plugin whose folder is ``root`` (a `.claude-plugin/` folder in it), or None."""
    return fresh(_SEEN, root, lambda: _plugin_at(root))


def _plugin_at(root: str) -> Plugin | None:
    if not os.path.isdir(os.path.join(root, ".claude-plugin")):
        return None
    try:
        st = os.stat(os.path.join(root, MANIFEST))
        stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    plugin, names_root = _read(root, stamp)
    if plugin.name is None:
        return plugin
    # Without `skills` in plugin.json, the root's SKILL.md when nothing named `skills` is beside it
    # (probe plugin-layouts: a `skills/` folder holding only `.keep` is enough to leave it out).
    if names_root if names_root is not None else not os.path.exists(os.path.join(root, "skills")):
        return Plugin(root, plugin.name, root_skill=True, paths=plugin.paths)
    return plugin


def _skill_paths(root: str, data: dict) -> tuple[str, ...]:
    """The folders inside ``root`` that plugin.json's `skills` names, written with `./` or not."""
    value = data.get("skills")
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    root = os.path.normpath(root)
    out: list[str] = []
    for item in items:
        if isinstance(item, str) and item and not os.path.isabs(item):
            path = os.path.normpath(os.path.join(root, item))
            if _inside_or_at(path, root) and path not in out:
                out.append(path)
    return tuple(out)


def _inside_or_at(path: str, root: str) -> bool:
    # discovery.is_inside's test: the harness model imports nothing above it (test_engine_purity).
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


@lru_cache(maxsize=256)
def _read(root: str, stamp: tuple[int, int] | None) -> tuple[Plugin, bool | None]:
    """``root``'s plugin as its manifest stood at ``stamp`` (None: there is none), and whether
    plugin.json's `skills` names the plugin's root (None: it has no `skills`)."""
    if stamp is None:
        return Plugin(root, os.path.basename(root)), None
    import json  # noqa: PLC0415 - reading a manifest: most checks have none

    try:
        with open(os.path.join(root, MANIFEST), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        return Plugin(root, None, f"its {MANIFEST} is not JSON ({exc})" if isinstance(exc, ValueError)
                      else f"its {MANIFEST} cannot be read"), None
    if not isinstance(data, dict):
        return Plugin(root, None, f"its {MANIFEST} is not a JSON object"), None
    named_paths = _skill_paths(root, data)
    name = data.get("name")
    if not isinstance(name, str):
        return Plugin(root, None, f"its {MANIFEST} gives no string name", paths=named_paths), None
    if not name:
        return Plugin(root, None, f"its {MANIFEST} gives an empty name", paths=named_paths), None
    bad = re.search(_REFUSED, name)
    if bad is not None:
        what = {" ": "a space", ":": "':'", "/": "'/'", "\\": "'\\'"}.get(bad.group(), "a control character")
        return Plugin(root, None, f"its {MANIFEST} name {string(name)} holds {what}",
                      paths=named_paths), None
    problem = _refused_field(data)
    if problem:
        return Plugin(root, None, f"its {MANIFEST} {problem}", paths=named_paths), None
    if "skills" not in data:
        return Plugin(root, name), None
    skills = data["skills"]
    paths = [skills] if isinstance(skills, str) else skills
    return Plugin(root, name, paths=named_paths), any(os.path.normpath(p) == "." for p in paths)


# plugin.json's fields naming the plugin's files, and the ending its manifest schema wants of a path
# there besides the leading `./` (read from 2.1.332's bundle; probe plugin-layouts). Each takes a
# path or a list of them; `commands` a map of names to {"source": path} too, `skills` `.` too.
_PATHS = {"commands": "", "agents": ".md", "skills": "", "outputStyles": "", "themes": "", "workflows": ""}
# Fields taking a file's path (a string, or strings in a list) or what that file would hold.
_FILES = {"hooks": (".json",), "mcpServers": (".json", ".mcpb", ".dxt"), "lspServers": (".json",),
          "monitors": (".json",)}
_URL = r"[A-Za-z][A-Za-z0-9+.-]*://\S+\.(?:mcpb|dxt)\Z"


def _path_refused(field: str, path: str, endings: tuple[str, ...]) -> str:
    """Why the manifest schema refuses ``path`` in ``field`` ("" when it takes it)."""
    if field == "skills" and path == ".":
        return ""
    if field == "mcpServers" and re.match(_URL, path):
        return ""
    shown = string(path)
    if not path.startswith("./"):
        return f'"{field}" path {shown} does not start with "./"'
    if endings and not path.endswith(endings):
        return f'"{field}" path {shown} does not end in {" or ".join(string(e) for e in endings)}'
    return ""


def _refused_field(data: dict, fields: tuple[str, ...] = (*_PATHS, *_FILES, "experimental")) -> str:
    """Why the manifest schema refuses a path field of ``data`` ("" when it refuses none)."""
    for field in fields:
        if field not in data:
            continue
        value = data[field]
        if field == "experimental":
            # Its themes, output styles and monitors, as at the top (another value counts as none).
            problem = _refused_field(value, ("themes", "outputStyles", "monitors")) if isinstance(value, dict) else ""
            problem = problem.replace('"', '"experimental.', 1)
        elif field in _FILES:
            items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
            problem = next((p for item in items if isinstance(item, str)
                            if (p := _path_refused(field, item, _FILES[field]))), "")
        elif field == "commands" and isinstance(value, dict):
            problem = next((p for entry in value.values() if isinstance(entry, dict)
                            and isinstance(source := entry.get("source"), str)
                            if (p := _path_refused(field, source, ()))), "")
        elif isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            items = [value] if isinstance(value, str) else value
            problem = next((p for item in items if (p := _path_refused(field, item, (_PATHS[field],) if _PATHS[field]
                                                                           else ()))), "")
        else:
            problem = f'"{field}" is not a path or a list of paths'
        if problem:
            return problem
    if "version" in data and not isinstance(data["version"], str):
        return '"version" is not a string'
    return ""


def inside_another(plugin: Plugin, levels: int = 12) -> bool:
    """Whether ``plugin`` sits inside another plugin's folder (an example among its skills), which
    Claude Code does not load with it."""
    up = os.path.dirname(plugin.root)
    for _ in range(levels):
        if plugin_at(up) is not None:
            return True
        parent = os.path.dirname(up)
        if parent == up:
            break
        up = parent
    return False
