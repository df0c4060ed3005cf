"""Where a harness release's command is: a pinned install folder, or the user's PATH."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

#: The command each harness installs, and how its npm package is called.
COMMANDS = {"claude-code": "claude", "codex": "codex", "opencode": "opencode", "copilot": "copilot",
            "gemini": "gemini"}
PACKAGES = {"claude-code": "@anthropic-ai/claude-code", "codex": "@openai/codex", "opencode": "opencode-ai",
            "copilot": "@github/copilot", "gemini": "@google/gemini-cli-core"}
_VERSION = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?")


@dataclass(frozen=True)
class Release:
    harness: str
    version: str  # "" when it could not be told
    argv: tuple[str, ...]  # what starts it (Gemini CLI: node and the gemini-cli-core package folder)
    where: str  # for messages


def pinned_argv(harness: str, install_dir: Path) -> list[str]:
    """The native binary inside an npm install folder of the pinned package (the rig's layout)."""
    nm = install_dir / "node_modules"
    return {
        "claude-code": lambda: [str(nm / "@anthropic-ai" / "claude-code-linux-x64" / "claude")],
        "codex": lambda: [str(nm / "@openai" / "codex-linux-x64" / "vendor" / "x86_64-unknown-linux-musl"
                              / "bin" / "codex")],
        "opencode": lambda: [str(nm / "opencode-linux-x64" / "bin" / "opencode")],
        "copilot": lambda: [str(nm / "@github" / "copilot-linux-x64" / "copilot")],
        "gemini": lambda: ["node", str(nm / "@google" / "gemini-cli-core")],
    }[harness]()


def _version_of(argv: list[str]) -> str:
    try:
        proc = subprocess.run([*argv, "--version"], capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})
    except (OSError, subprocess.SubprocessError):
        return ""
    m = _VERSION.search(proc.stdout or proc.stderr or "")
    return m.group(0) if m else ""


def _package_version(folder: Path) -> str:
    import json  # noqa: PLC0415

    try:
        return str(json.loads((folder / "package.json").read_text(encoding="utf-8")).get("version", ""))
    except (OSError, ValueError):
        return ""


def _gemini_core(path: str | None) -> Path | None:
    """The @google/gemini-cli-core folder: given, or the one beside a `gemini` command on PATH."""
    if path:
        p = Path(path)
        for cand in (p, p / "node_modules" / "@google" / "gemini-cli-core"):
            if (cand / "dist" / "src" / "skills" / "skillManager.js").is_file():
                return cand
        return None
    exe = shutil.which("gemini")
    if exe is None:
        return None
    real = Path(os.path.realpath(exe))
    for parent in real.parents:
        for cand in (parent / "node_modules" / "@google" / "gemini-cli-core",
                     parent / "gemini-cli-core"):
            if (cand / "dist" / "src" / "skills" / "skillManager.js").is_file():
                return cand
        if parent.name == "node_modules":
            break
    return None


def installed(harness: str, command: str | None = None) -> Release | None:
    """The release of ``harness`` the user has: ``command`` (a path or a name on PATH), else the
    harness's usual command on PATH. None when there is none."""
    if harness not in COMMANDS:
        raise ValueError(f"unknown harness {harness!r}; known: {', '.join(COMMANDS)}")
    if harness == "gemini":
        core = _gemini_core(command)
        if core is None:
            return None
        node = shutil.which("node")
        if node is None:
            return None
        return Release(harness, _package_version(core), (node, str(core)), str(core))
    exe = shutil.which(command or COMMANDS[harness])
    if exe is None:
        return None
    return Release(harness, _version_of([exe]), (exe,), exe)
