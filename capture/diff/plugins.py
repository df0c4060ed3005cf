"""Claude Code plugins of real repositories against the release: ``python -m capture diff --plugins REPO...``.

Each Claude Code plugin (a folder holding `.claude-plugin/plugin.json` beside `skills/` or
`commands/`, or whose plugin.json names `skills`) is copied alone into a fresh workspace, its
`hooks` folders left out so none of its programs run, and loaded by the pinned Claude Code with
`--plugin-dir`. The entries the release lists under the plugin's prefix (its skills and its
commands, in order) are compared with what `skill-lsp catalog --dialect claude-code` lists on the
same copy. Each folder holding `.claude/commands` is copied whole and run as the session's folder
(no plugin loaded); there the entries of its plugins are set aside on skill-lsp's side, as the
release did not load them.

Every difference is written to ``--out``/plugins.json with both lists; nothing of the release's own
skills is kept. A plugin with `dependencies` is left out (not installed, they keep it from loading
when run alone), and a plugin's `workflows/*.js` are listed by the release but not modelled
(capture/diff/FINDINGS.md).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from skill_lsp.capture import drivers
from skill_lsp.engine.harness.data import CLAUDE_CODE_BUILTINS, CLAUDE_CODE_COMMAND_NAMES

from ..drivers import pinned
from ..install import pins


def _key(entry: str) -> str:
    return entry[2:].split(": ", 1)[0].split(" (", 1)[0]


def _catalog(folder: Path, home: Path) -> list[str]:
    proc = subprocess.run([sys.executable, "-m", "skill_lsp", "catalog", "--dialect", "claude-code", "--format",
                           "json", "."], cwd=folder, capture_output=True, text=True, env={**os.environ, "HOME": str(home)},
                          check=False)
    return [line for line in json.loads(proc.stdout)["text"].split("\n")[2:] if line]


def _manifest(path: Path) -> dict:
    """plugin.json as an object ({} when it cannot be read as one)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _name(manifest: Path) -> str | None:
    name = _manifest(manifest).get("name")
    return name if isinstance(name, str) else None


def _copy(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)
    for hooks in list(dst.rglob("hooks")):
        if hooks.is_dir() and not hooks.is_symlink():
            shutil.rmtree(hooks, ignore_errors=True)


def run(repos: list[Path], out: Path, seed: int, count: int) -> int:
    pin = pins()["claude-code"]
    builtin = {name for name, _ in CLAUDE_CODE_BUILTINS} | set(CLAUDE_CODE_COMMAND_NAMES)
    plugins = sorted({m.parent.parent for repo in repos for m in repo.rglob(".claude-plugin/plugin.json")
                      if (m.parent.parent / "skills").is_dir() or (m.parent.parent / "commands").is_dir()
                      or "skills" in _manifest(m)})
    # A plugin that needs others (`dependencies`) does not load when run alone: the release lists
    # none of it, which says nothing of skill-lsp (two held-out unseen23 plugins).
    alone = [p for p in plugins if not _manifest(p / ".claude-plugin" / "plugin.json").get("dependencies")]
    for p in sorted(set(plugins) - set(alone)):
        print(f"skip plugin {p} (its dependencies are not installed: not loaded alone)", file=sys.stderr)
    plugins = alone
    random.Random(seed).shuffle(plugins)
    projects = sorted({c.parent.parent for repo in repos for c in repo.rglob(".claude/commands") if c.is_dir()})
    rows, agree = [], 0
    for kind, src in [*(("plugin", p) for p in plugins[:count]), *(("project", p) for p in projects)]:
        with tempfile.TemporaryDirectory(prefix="plugins-", dir="/tmp", ignore_cleanup_errors=True) as tmp:
            ws, home = Path(tmp) / "ws", Path(tmp) / "home"
            home.mkdir()
            if kind == "plugin":
                ws.mkdir()
                here = ws / src.name
                _copy(src, here)
                argv = [*pinned(pin), "--plugin-dir", str(here)]
            else:
                _copy(src, ws)
                here, argv = ws, pinned(pin)
            mine = _catalog(here, home)
            try:
                got = drivers.run("claude-code", argv, ws, home, [("none-such", "")], {})
            except Exception as exc:  # noqa: BLE001 - one plugin that will not run is a row, not the end
                rows.append({"kind": kind, "path": str(src), "error": str(exc)[:500]})
                print(f"ERROR {src}", file=sys.stderr)
                continue
            entries = drivers.claude_entries(got.catalog or "")
            if kind == "plugin":
                theirs = [e for e in entries if ":" in _key(e)]
            else:
                names = {n for m in ws.rglob(".claude-plugin/plugin.json") if (n := _name(m))}
                mine = [m for m in mine if not any(_key(m).startswith(f"{n}:") for n in names)]
                own = {_key(m) for m in mine}
                theirs = [e for e in entries if _key(e) not in builtin or _key(e) in own]
        same = theirs == mine
        agree += same
        print(f"{'ok  ' if same else 'DIFF'} {kind} {src} ({len(mine)} entries)", file=sys.stderr)
        if not same:
            rows.append({"kind": kind, "path": str(src), "release": theirs, "skill_lsp": mine})
    total = min(count, len(plugins)) + len(projects)
    out.mkdir(parents=True, exist_ok=True)
    (out / "plugins.json").write_text(json.dumps({"release": pin.label, "seed": seed, "folders": total, "agree": agree,
                                                  "differences": rows}, indent=1, ensure_ascii=False) + "\n",
                                      encoding="utf-8")
    print(f"{pin.label}: {agree} of {total} plugins and project folders listed alike ({out / 'plugins.json'})",
          file=sys.stderr)
    return 0 if agree == total else 1
