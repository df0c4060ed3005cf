"""One frozen settings object, from defaults, a config file and editor options.

Order (later wins): defaults < `[tool.skill-lsp]` in pyproject.toml or
`.skill-lsp.toml` < initializationOptions < workspace/configuration. ``merge``
reports each invalid value and unknown key by name and keeps the earlier value;
the caller decides: `check` stops with exit 2, the server shows them and goes on.
``KEYS`` is the one table of settings (the schema and the editors' spellings come from it).
"""

from __future__ import annotations

import os
import re
import sys

from . import pathglobs, selection
from .datarecord import datarecord, field, replace
from .findings import RULES, Finding, Severity
from .harness import HARNESSES, project_roots
from .pathglobs import Anchored
from .profiles import DEFAULT_PROFILE
from .selection import Layer
from .targets import parse as parse_targets

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from typing import Any


def _toml():  # only a folder with a config file pays for the TOML parser
    if sys.version_info >= (3, 11):
        import tomllib  # noqa: PLC0415
    else:  # pragma: no cover
        import tomli as tomllib  # noqa: PLC0415
    return tomllib


DIALECT_NAMES = ("skill-tool", "dsh", "agentskills", "claude-code", "codex", "opencode", "gemini", "copilot")
# Roots scanned when none are configured, in precedence order (lower index wins a name):
# the roots skill-lsp has always scanned first, then every project root a harness reads
# (engine/harness/data.py). `skills` is a repository of skills (plugins, collections):
# no harness reads it, but it is where such repositories keep them.
DEFAULT_ROOTS: tuple[str, ...] = tuple(dict.fromkeys(
    (".agents/skills", ".claude/skills", ".skills", "skills") + project_roots()))
DEFAULT_SENSITIVE = ("**/.env/**", "**/secrets/**")


@datarecord(frozen=True)
class Settings:
    """The settings a check runs with (config file, editor and command line merged)."""

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
    # Rule selection, one layer per source that set any of select / extend-select / ignore
    # (engine/selection.py); empty: every rule.
    selection: tuple[Layer, ...] = ()
    per_file_ignores: tuple[tuple[Anchored, tuple[str, ...]], ...] = ()
    exclude: tuple[Anchored, ...] = ()
    extend_exclude: tuple[Anchored, ...] = ()

    @property
    def enabled(self) -> frozenset[str]:
        """The rule codes this run reports (before per-file ignores and suppressions)."""
        return selection.enabled(self.selection)

    @property
    def excluded(self) -> re.Pattern[str] | None:
        """One regex of every `exclude` and `extend-exclude` glob (None: none set)."""
        return pathglobs.compile_all(self.exclude + self.extend_exclude)

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


@datarecord(frozen=True)
class Key:
    """One setting: its TOML spelling, the Settings attribute, the kind of value, and what it does.

    The one table the loader validates with, the JSON Schema of `.skill-lsp.toml` is built from
    (engine/config_schema.py) and the editors' camelCase spellings come from.
    """

    name: str  # TOML spelling (kebab-case)
    attr: str
    # bool | int | enum | str-list | targets | severity | selectors | per-file-ignores | globs
    kind: str
    description: str
    values: tuple[str, ...] = ()  # enum / targets: the allowed names
    default: Any = None  # shown in the schema (None: none shown)
    accumulate: bool = False  # a later source adds to the earlier ones instead of replacing them

    @property
    def camel(self) -> str:
        head, *rest = self.name.split("-")
        return head + "".join(w.capitalize() for w in rest)


SEVERITY_WORDS = ("error", "warning", "warn", "information", "info", "hint", "off")  # Severity.parse's words

KEYS: tuple[Key, ...] = (
    Key("targets", "targets", "targets",
        "Harnesses the skills are checked for. Default: inferred per skill from the root it lives in "
        "(`skill-lsp harnesses`).", tuple(HARNESSES)),
    Key("profile", "profile", "enum", "One target: the same as `targets = [NAME]`.", tuple(HARNESSES)),
    Key("roots", "roots", "str-list",
        "Skill roots in precedence order, relative to the workspace folder (a skill in an earlier root "
        "shadows one of the same name in a later root). Default: every root a harness reads that exists."),
    Key("dialect", "dialect", "enum", "Default dialect of `preview` and `catalog`.", DIALECT_NAMES, "skill-tool"),
    Key("severity", "severity", "severity",
        "Severity per rule code: error, warning, information, hint, or off.", default={}),
    Key("check-links", "check_links", "bool", "Check that relative links in the body point at files.",
        default=True),
    Key("sensitive-patterns", "sensitive_patterns", "str-list",
        "Folder globs where skills are refused (SENSITIVE).", default=list(DEFAULT_SENSITIVE)),
    Key("select", "select", "selectors",
        "Rule codes or prefixes to report, replacing the default (every rule). `NAME` or `NAME_` "
        "selects every code that starts with `NAME_`; `ALL` selects every rule."),
    Key("extend-select", "extend_select", "selectors",
        "Rule codes or prefixes to report in addition to those selected."),
    Key("ignore", "ignore", "selectors",
        "Rule codes or prefixes not to report. When a code is both selected and ignored, the more "
        "specific selector wins (an exact code over a prefix, a longer prefix over a shorter one); "
        "a tie is ignored."),
    Key("per-file-ignores", "per_file_ignores", "per-file-ignores",
        "Rule codes or prefixes not to report in the skills a glob matches (relative to the folder "
        "holding this file; a glob matching a folder covers everything in it).", accumulate=True),
    Key("exclude", "exclude", "globs",
        "Globs of skills and folders to leave out of `check` and the editor's scan (relative to the "
        "folder holding this file). VCS, dependency, virtualenv and git-ignored folders are always "
        "left out."),
    Key("extend-exclude", "extend_exclude", "globs",
        "Globs left out in addition to `exclude` (a later source adds to them instead of replacing "
        "them).", accumulate=True),
    Key("debounce-ms", "debounce_ms", "int", "Editor: milliseconds to wait after a keystroke before checking.",
        default=50),
    Key("inlay-hints", "inlay_hints", "bool",
        "Editor: show the catalog cost per dialect at the end of the description line.", default=False),
)
KEY_BY_NAME = {k.name: k for k in KEYS}

# TOML / LSP spellings of every key.
_KEYS = {**{k.name: k.attr for k in KEYS}, **{k.camel: k.attr for k in KEYS}}
# Keys whose values are globs: anchored to the folder they were set for (see ``merge``).
_GLOB_ATTRS = frozenset({"per_file_ignores", "exclude", "extend_exclude"})


def _str_list(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ValueError("expected a list of strings")


_BY_ATTR = {k.attr: k for k in KEYS}


def _convert(attr: str, value: Any, anchor: str | None = None) -> Any:
    key = _BY_ATTR.get(attr)
    if key is None:
        raise ValueError("unknown setting")
    kind = key.kind
    if attr == "profile":
        # An alias for a single target (the four historical profiles and every harness name).
        if not isinstance(value, str) or value not in HARNESSES:
            raise ValueError(f"expected one of {', '.join(HARNESSES)}")
        return value
    if kind == "targets":
        if not isinstance(value, (str, list, tuple)):
            raise ValueError("expected a list of target names")
        return parse_targets(value)
    if kind == "enum":
        if value not in key.values:
            raise ValueError(f"expected one of {', '.join(key.values)}")
        return value
    if kind == "str-list":
        return _str_list(value)
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError("expected true or false")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value > 10_000:
            raise ValueError("expected an integer from 0 to 10000")
        return value
    if kind == "severity":
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
    if kind == "selectors":
        return selection.parse(value)
    if kind == "globs":
        return tuple(pathglobs.anchor(p, anchor or "") for p in _str_list(value) if p.strip())
    if kind == "per-file-ignores":
        if not isinstance(value, dict):
            raise ValueError('expected a table of "glob" = [CODE, ...]')
        pairs = []
        for pattern, codes in value.items():
            try:
                pairs.append((pathglobs.anchor(pattern, anchor or ""), selection.parse(codes)))
            except ValueError as exc:
                raise ValueError(f"{pattern!r}: {exc}") from None
        return tuple(pairs)
    raise ValueError("unknown setting")  # pragma: no cover - a new kind must be handled here


_SELECTION_ATTRS = ("select", "extend_select", "ignore")


def _unknown(key: str, source: str, toml: bool) -> str:
    """'unknown setting', with the spelling meant when it is close (or the kebab-case of a camelCase key)."""
    import difflib  # noqa: PLC0415 - only a misspelt setting needs it

    if toml:
        camel = next((k.name for k in KEYS if k.camel == key), None)
        close = [camel] if camel else difflib.get_close_matches(key, list(KEY_BY_NAME), n=1, cutoff=0.75)
    else:
        close = difflib.get_close_matches(key, list(_KEYS), n=1, cutoff=0.75)
    return f"{source}: unknown setting '{key}'" + (f" (did you mean '{close[0]}'?)" if close else "")


def merge(base: Settings, raw: dict[str, Any] | None, source: str, *, anchor: str | None = None,
          toml: bool = False, user: bool = False) -> tuple[Settings, list[str]]:
    """Apply a raw mapping onto ``base``; returns the settings and one message per bad key.

    ``anchor``: the folder relative globs (`exclude`, `per-file-ignores`) are relative to (the
    config file's folder, the editor's workspace folder; None: the current folder).
    ``toml``: only the kebab-case spellings are keys (a config file); editors send camelCase too.
    ``user``: the mapping is the user's own editor settings (its roots may lead outside the
    workspace); a repository's config file is not.
    Messages name the source and the key, not what the caller does about them: `check` stops
    (exit 2), the server shows them and keeps the earlier value of those keys.
    """
    if not raw:
        return base, []
    if not isinstance(raw, dict):
        return base, [f"{source}: settings must be a table/object"]
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        attr = (KEY_BY_NAME[key].attr if key in KEY_BY_NAME else None) if toml else _KEYS.get(key)
        if attr is None and key in RETIRED_KEYS:
            continue
        if attr is None:
            problems.append(_unknown(str(key), source, toml))
            continue
        if value is None or (attr in ("targets", "select", "exclude") and value in ("", [], ())):
            # Unset (an editor's empty default): keep inferring the targets, keep the earlier
            # selection (`ignore = ["ALL"]` turns everything off), keep the file's excludes.
            continue
        try:
            changes[attr] = _convert(attr, value, anchor)
        except ValueError as exc:
            problems.append(f"{source}: invalid '{key}': {exc}")
    if "roots" in changes:
        changes["roots_from_user"] = user
    if "profile" in changes and "targets" not in changes:
        changes["targets"] = (changes["profile"],)  # `profile = "x"` means `targets = ["x"]`
    layer = tuple(changes.pop(a, None) for a in _SELECTION_ATTRS)
    if any(layer):
        select, extend, ignore = layer
        changes["selection"] = base.selection + ((select, extend or (), ignore or ()),)
    for attr in ("per_file_ignores", "extend_exclude"):  # later sources add to the earlier ones
        if attr in changes:
            changes[attr] = getattr(base, attr) + changes[attr]
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
                    tomllib = _toml()
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
    tomllib = _toml()
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return base, [f"{path}: cannot read config ({exc})"]
    if os.path.basename(path) == "pyproject.toml":
        data = data.get("tool", {}).get("skill-lsp", {})
    elif "tool" in data and "skill-lsp" in data.get("tool", {}):
        data = data["tool"]["skill-lsp"]
    return merge(base, data, path, anchor=os.path.dirname(os.path.abspath(path)), toml=True)


def load_workspace(workspace: str, explicit: str | None = None) -> tuple[Settings, list[str]]:
    path = explicit or find_config_file(workspace)
    if path is None:
        return Settings(), []
    return load_file(path)


def apply_settings(findings: list[Finding], settings: Settings) -> list[Finding]:
    """Per-code severity overrides; 'off' drops the finding."""
    out = []
    for f in findings:
        if f.code in settings.severity:
            sev = settings.severity[f.code]
            if sev is None:
                continue
            f = f.with_severity(sev)
        out.append(f)
    return out
