"""The Claude Code plugin a skill belongs to: `<plugin>/skills/<folder>/SKILL.md` with a
`<plugin>/.claude-plugin/` folder.

Claude Code 2.1.332 (probes `plugin` and `plugin-names` of `python -m capture diff`, a plugin
loaded with `--plugin-dir`) lists such a skill as `<name>:<folder>`, where the name is
`.claude-plugin/plugin.json`'s `name` or, without that file, the plugin's folder name. When
plugin.json cannot give a name (not JSON, not an object, no string `name`, an empty one, one
holding a space, a path separator, `:` or a control character) the plugin does not load, and
none of its skills with it. Other fields of plugin.json that its schema refuses keep it from
loading too; those are not checked here.
"""

from __future__ import annotations

import json
import os
import re
import time
from functools import lru_cache

from ..datarecord import datarecord

TYPE_CHECKING = False  # typing costs a one-skill check its import; type checkers take this as True
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable
    from typing import TypeVar

    _T = TypeVar("_T")
    _K = TypeVar("_K", bound=Hashable)

MANIFEST = os.path.join(".claude-plugin", "plugin.json")
# What the release's manifest schema refuses in a name (read from 2.1.332's bundle: no space, no
# control or bidirectional-formatting character) and what the probe found refused besides.
_REFUSED = re.compile(r"[ /\\:\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@datarecord(frozen=True, slots=True)
class Plugin:
    root: str  # the plugin's folder
    name: str | None  # the prefix of its skills' names; None when Claude Code does not load it
    problem: str = ""  # why it does not load (name None)


def plugin_of(skill_dir: str) -> Plugin | None:
    """The plugin whose `skills/` folder holds ``skill_dir``, or None."""
    skills = os.path.dirname(skill_dir)
    if os.path.basename(skills) != "skills":
        return None
    return plugin_at(os.path.dirname(skills))


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
    return _read(root, stamp)


@lru_cache(maxsize=256)
def _read(root: str, stamp: tuple[int, int] | None) -> Plugin:
    """``root``'s plugin as its manifest stood at ``stamp`` (None: there is none)."""
    if stamp is None:
        return Plugin(root, os.path.basename(root))
    try:
        with open(os.path.join(root, MANIFEST), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        return Plugin(root, None, f"its {MANIFEST} is not JSON ({exc})" if isinstance(exc, ValueError)
                      else f"its {MANIFEST} cannot be read")
    if not isinstance(data, dict):
        return Plugin(root, None, f"its {MANIFEST} is not a JSON object")
    name = data.get("name")
    if not isinstance(name, str):
        return Plugin(root, None, f"its {MANIFEST} gives no string name")
    if not name:
        return Plugin(root, None, f"its {MANIFEST} gives an empty name")
    bad = _REFUSED.search(name)
    if bad is not None:
        what = {" ": "a space", ":": "':'", "/": "'/'", "\\": "'\\'"}.get(bad.group(), "a control character")
        return Plugin(root, None, f"its {MANIFEST} name {json.dumps(name, ensure_ascii=False)} holds {what}")
    return Plugin(root, name)


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
