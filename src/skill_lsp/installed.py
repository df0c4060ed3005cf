"""The harness releases installed on this machine, beside the ones skill-lsp's facts were proven on.

A harness that is found on PATH is asked its version (`claude --version`, ...) once per process,
with a time limit, in a clean environment: no network variables are needed for `--version`.
A program found inside the folder being checked is never run (a repository could ship a
`claude` of its own and a PATH that reaches it).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from functools import lru_cache

from .engine.datarecord import datarecord
from .engine.discovery import is_inside
from .engine.harness import HARNESSES

# Harness -> the command its release installs (npm packages of capture/pins.toml).
COMMANDS: dict[str, str] = {
    "claude-code": "claude",
    "codex": "codex",
    "opencode": "opencode",
    "copilot": "copilot",
    "gemini": "gemini",
}
TIMEOUT_S = 10.0
_VERSION = re.compile(r"(?<![\w.])v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)")


@datarecord(frozen=True, slots=True)
class Installed:
    harness: str
    command: str
    path: str | None  # None: not on PATH
    version: str | None  # None: not found, or it did not say
    problem: str = ""  # why the version is unknown

    @property
    def proven(self) -> str:
        """The release the facts were proven on ("" when only documented)."""
        h = HARNESSES[self.harness]
        if h.proof != "captured":
            return ""
        return _VERSION.search(h.version).group(1) if _VERSION.search(h.version) else h.version  # type: ignore[union-attr]

    @property
    def differs(self) -> bool:
        return bool(self.version and self.proven and self.version != self.proven)

    def note(self) -> str:
        """One sentence for output: what is installed against what was proven."""
        title = HARNESSES[self.harness].title
        if self.path is None:
            return f"{title}: not installed (`{self.command}` is not on PATH)"
        if self.version is None:
            return f"{title}: {self.path} ({self.problem or 'its version is unknown'})"
        if self.differs:
            return (f"{title} {self.version} is installed ({self.path}); skill-lsp's facts were proven on "
                    f"{self.proven}: check yours with `skill-lsp capture --harness {self.harness}`")
        return f"{title} {self.version} is installed ({self.path}), the release skill-lsp's facts were proven on"

    def to_json(self) -> dict:
        return {"harness": self.harness, "command": self.command, "path": self.path, "version": self.version,
                "proven": self.proven or None, "differs": self.differs, "problem": self.problem or None}


def parse_version(output: str) -> str | None:
    """The first version number of a `--version` output ("2.1.332 (Claude Code)", "codex-cli 0.171.0")."""
    m = _VERSION.search(output)
    return m.group(1) if m else None


def detect(harnesses: Iterable[str] | None = None, *, avoid: Iterable[str] = ()) -> list[Installed]:
    """What is installed of each known harness (all by default); never runs a program inside ``avoid``."""
    names = [h for h in (harnesses or COMMANDS) if h in COMMANDS]
    fence = tuple(os.path.realpath(a) for a in avoid)
    return [_detect(h, os.environ.get("PATH", ""), fence) for h in names]


@lru_cache(maxsize=64)
def _detect(harness: str, path_var: str, avoid: tuple[str, ...]) -> Installed:
    command = COMMANDS[harness]
    found = shutil.which(command, path=path_var)
    if found is None:
        return Installed(harness, command, None, None)
    real = os.path.realpath(found)
    if any(is_inside(real, a) for a in avoid):
        return Installed(harness, command, found, None, "inside the folder being checked: not run")
    try:
        proc = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=TIMEOUT_S,
                              stdin=subprocess.DEVNULL, env=_quiet_env(), check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return Installed(harness, command, found, None, f"`{command} --version` failed: {exc}")
    version = parse_version(proc.stdout) or parse_version(proc.stderr)
    if version is None:
        return Installed(harness, command, found, None, f"`{command} --version` printed no version")
    return Installed(harness, command, found, version)


def _quiet_env() -> dict[str, str]:
    # Enough to start; no update checks or telemetry on a version query.
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "USERPROFILE", "SYSTEMROOT", "TMPDIR", "TEMP",
                                                         "LANG", "LC_ALL")}
    env.update({"DISABLE_AUTOUPDATER": "1", "CI": "1", "NO_COLOR": "1", "DO_NOT_TRACK": "1"})
    return env
