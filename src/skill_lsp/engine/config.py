"""One frozen settings object, from defaults, a config file and editor options.

Order (later wins): defaults < `[tool.skill-lsp]` in pyproject.toml or
`.skill-lsp.toml` < initializationOptions < workspace/configuration. Invalid
values are reported by name and replaced by the default, never fatal.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from typing import Any

from .findings import RULES, Severity
from .harness import HARNESSES, project_roots
from .profiles import DEFAULT_PROFILE
from .targets import parse as parse_targets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DIALECT_NAMES = ("skill-tool", "dsh", "agentskills", "claude-code", "codex", "opencode", "gemini", "copilot")
# Roots scanned when none are configured, in precedence order (lower index wins a name):
# the roots skill-lsp has always scanned first, then every project root a harness reads
# (engine/harness/data.py). `skills` is a repository of skills (plugins, collections):
# no harness reads it, but it is where such repositories keep them.
DEFAULT_ROOTS: tuple[str, ...] = tuple(dict.fromkeys(
    (".agents/skills", ".claude/skills", ".skills", "skills") + project_roots()))
DEFAULT_SENSITIVE = ("**/.env/**", "**/secrets/**")


@dataclass(frozen=True)
class Settings:
    profile: str = DEFAULT_PROFILE  # the lint's fallback target when none is set or inferred
    targets: tuple[str, ...] = ()  # empty: inferred per skill from its root (engine/targets.py)
    roots: tuple[str, ...] = ()  # empty: DEFAULT_ROOTS that exist
    dialect: str = "skill-tool"
    severity: dict[str, Severity | None] = field(default_factory=dict)  # None = off
    check_links: bool = True
    sensitive_patterns: tuple[str, ...] = DEFAULT_SENSITIVE
    debounce_ms: int = 50
    inlay_hints: bool = False  # catalog cost per dialect at the end of the description line
    # The roots were set by the user's own editor settings, which may name folders outside the
    # workspace (a shared skills folder). Roots from a repository's config never may.
    roots_from_user: bool = False

    def resolved_roots(self, workspace: str) -> list[str]:
        """Absolute roots in precedence order (configured, or the defaults that exist), each
        resolving inside the workspace unless the user's own settings named it."""
        return [p for p, why in self._roots(workspace) if why is None]

    def refused_roots(self, workspace: str) -> list[str]:
        """Why each configured or default root that leads outside the workspace is not read."""
        return [why for _, why in self._roots(workspace) if why is not None]

    def _roots(self, workspace: str) -> list[tuple[str, str | None]]:
        if self.roots:
            paths = [os.path.normpath(os.path.join(workspace, r)) for r in self.roots]
        else:
            paths = [os.path.normpath(p) for p in (os.path.join(workspace, r) for r in DEFAULT_ROOTS)
                     if os.path.isdir(p)]
        if self.roots and self.roots_from_user:
            return [(p, None) for p in paths]
        home = os.path.realpath(workspace)
        out: list[tuple[str, str | None]] = []
        for raw, p in zip(self.roots or [os.path.relpath(p, workspace) for p in paths], paths, strict=True):
            real = os.path.realpath(p)
            if real == home or real.startswith(home.rstrip(os.sep) + os.sep):
                out.append((p, None))
            elif self.roots:
                out.append((p, f"root '{raw}' resolves to {real}, outside the workspace {home}: a repository's "
                               "configuration cannot point outside it (name such a folder in your editor's "
                               "user settings)"))
            else:
                out.append((p, f"{raw} is a link to {real}, outside the workspace {home}: not read (name it "
                               "in your editor's user settings to check it)"))
        return out


# Settings that no longer do anything, accepted silently so older editor configs keep
# working. hideBuiltinDuplicates hid findings whose fixes only skill-lsp offers, and
# VS Code's own checks did not cover them (`compatibility: ""` showed nothing at all).
RETIRED_KEYS = frozenset({"hide-builtin-duplicates", "hideBuiltinDuplicates"})

# TOML / LSP spellings of every key.
_KEYS = {
    "profile": "profile",
    "targets": "targets",
    "roots": "roots",
    "dialect": "dialect",
    "severity": "severity",
    "check-links": "check_links",
    "checkLinks": "check_links",
    "sensitive-patterns": "sensitive_patterns",
    "sensitivePatterns": "sensitive_patterns",
    "debounce-ms": "debounce_ms",
    "debounceMs": "debounce_ms",
    "inlay-hints": "inlay_hints",
    "inlayHints": "inlay_hints",
}


def _str_list(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("expected a list of strings")


def _convert(attr: str, value: Any) -> Any:
    if attr == "profile":
        # An alias for a single target (the four historical profiles and every harness name).
        if not isinstance(value, str) or value not in HARNESSES:
            raise ValueError(f"expected one of {', '.join(HARNESSES)}")
        return value
    if attr == "targets":
        if not isinstance(value, (str, list, tuple)):
            raise ValueError("expected a list of target names")
        return parse_targets(value)
    if attr == "dialect":
        if value not in DIALECT_NAMES:
            raise ValueError(f"expected one of {', '.join(DIALECT_NAMES)}")
        return value
    if attr in ("roots", "sensitive_patterns"):
        return _str_list(value)
    if attr in ("check_links", "inlay_hints"):
        if not isinstance(value, bool):
            raise ValueError("expected true or false")
        return value
    if attr == "debounce_ms":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 10_000:
            raise ValueError("expected an integer from 0 to 10000")
        return value
    if attr == "severity":
        if not isinstance(value, dict):
            raise ValueError("expected a table of CODE = severity")
        out: dict[str, Severity | None] = {}
        for code, sev in value.items():
            if code not in RULES:
                raise ValueError(f"unknown rule code {code!r}")
            try:
                out[code] = Severity.parse(str(sev))
            except ValueError:
                raise ValueError(f"{code}: expected error, warning, information, hint or off") from None
        return out
    raise ValueError("unknown setting")


def merge(base: Settings, raw: dict[str, Any] | None, source: str, *,
          user: bool = False) -> tuple[Settings, list[str]]:
    """Apply a raw mapping onto ``base``; returns the settings and one message per bad key.

    ``user``: the mapping is the user's own editor settings (its roots may lead outside
    the workspace); a repository's config file is not.
    """
    if not raw:
        return base, []
    if not isinstance(raw, dict):
        return base, [f"{source}: settings must be a table/object; defaults used"]
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        attr = _KEYS.get(key)
        if attr is None and key in RETIRED_KEYS:
            continue
        if attr is None:
            problems.append(f"{source}: unknown setting '{key}' ignored")
            continue
        if value is None or (attr == "targets" and value in ("", [], ())):
            continue  # unset (an editor's empty default): keep inferring
        try:
            changes[attr] = _convert(attr, value)
        except ValueError as exc:
            problems.append(f"{source}: invalid '{key}' ({exc}); using the default")
    if "roots" in changes:
        changes["roots_from_user"] = user
    if "profile" in changes and "targets" not in changes:
        changes["targets"] = (changes["profile"],)  # `profile = "x"` means `targets = ["x"]`
    return replace(base, **changes), problems


def find_config_file(start: str) -> str | None:
    """`.skill-lsp.toml` or a pyproject.toml with `[tool.skill-lsp]` in ``start`` or above.

    The search stops at the first folder holding `.git` (the repository root), so
    checking one SKILL.md deep in a repository still finds the repository's config.
    """
    folder = os.path.abspath(start)
    while True:
        for name in (".skill-lsp.toml", "pyproject.toml"):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                if name == "pyproject.toml":
                    try:
                        with open(path, "rb") as fh:
                            if "skill-lsp" not in tomllib.load(fh).get("tool", {}):
                                continue
                    except (OSError, tomllib.TOMLDecodeError):
                        continue
                return path
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):
            return None
        folder = parent


def load_file(path: str, base: Settings | None = None) -> tuple[Settings, list[str]]:
    base = base or Settings()
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return base, [f"{path}: cannot read config ({exc}); defaults used"]
    if os.path.basename(path) == "pyproject.toml":
        data = data.get("tool", {}).get("skill-lsp", {})
    elif "tool" in data and "skill-lsp" in data.get("tool", {}):
        data = data["tool"]["skill-lsp"]
    return merge(base, data, path)


def load_workspace(workspace: str, explicit: str | None = None) -> tuple[Settings, list[str]]:
    path = explicit or find_config_file(workspace)
    if path is None:
        return Settings(), []
    return load_file(path)
