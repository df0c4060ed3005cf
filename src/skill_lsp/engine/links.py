"""What a Markdown link destination is and where it leads, without reading the disk.

Shared by the body rules, the skill graph's link mentions and a result's outside targets:
it sits below all of them.
"""

from __future__ import annotations

import posixpath

from .document import SkillDocument
from .lazyre import lazy_re

_SCHEME = lazy_re(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_WINDOWS_ABS = lazy_re(r"^(?:[A-Za-z]:[\\/]|\\\\)")


# `/plugin:skill`: how Claude Code names a plugin's skill as a slash command; a link to
# it points at a skill, not a file (UiPath's skills cross-link this way).
_SLASH_COMMAND = lazy_re(r"^/[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$")


def classify(target: str) -> str:
    """'url' | 'absolute' | 'anchor' | 'relative' | 'command' for a link destination."""
    if not target or target.startswith("#"):
        return "anchor"
    if _SLASH_COMMAND.match(target):
        return "command"
    if _WINDOWS_ABS.match(target):
        return "absolute"
    if target.startswith("file:"):
        return "absolute"
    if _SCHEME.match(target):
        return "url"
    if target.startswith(("/", "~/", "~\\")) or target == "~":
        return "absolute"
    return "relative"


# Placeholders harnesses replace with the skill folder before the model reads the body:
# Claude Code `${CLAUDE_SKILL_DIR}` (render/claude_code.py), OpenClaw `{baseDir}`.
_SKILL_DIR_PLACEHOLDER = lazy_re(r"^(?:\$\{CLAUDE_SKILL_DIR\}|\{baseDir\})/+")


def unquote(text: str) -> str:
    """Percent-decoding (urllib.parse imported only when a target holds a '%')."""
    if "%" not in text:
        return text
    from urllib.parse import unquote as _unquote  # noqa: PLC0415

    return _unquote(text)


def relative_path(target: str) -> str:
    """Percent-decoded path part of a relative link, '/'-separated and normalised.

    A leading skill-folder placeholder is dropped: the rest is relative to the skill.
    """
    if not (target.startswith((".", "$", "{")) or target.endswith("/") or "/." in target or "//" in target
            or "#" in target or "?" in target or "%" in target or "\\" in target):
        return target  # already what the steps below would make of it (most targets)
    path = target.split("#", 1)[0].split("?", 1)[0]
    path = unquote(path).replace("\\", "/")
    path = _SKILL_DIR_PLACEHOLDER.sub("", path)
    return posixpath.normpath(path) if path else ""


def absolute_to_relative(target: str, skill_dir: str) -> str | None:
    """The relative form of an absolute link that points inside the skill folder."""
    path = target
    if path.startswith("file://"):
        path = unquote(path[len("file://"):])
    path = path.replace("\\", "/")
    base = skill_dir.replace("\\", "/").rstrip("/") + "/"
    if path.startswith(base):
        rel = path[len(base):]
        return rel or None
    return None


# Every raw "](" destination and "]:" definition destination, wherever it stands: a
# superset of the targets the CommonMark parse finds (definitions in list items too).
_RAW_TARGET = lazy_re(r"\](?:\(\s*<?([^\s)>]*)|:[ \t]*(?:\r\n|\r|\n)?[ \t]*<?(\S*))")


def may_leave_folder(doc: SkillDocument) -> bool:
    """Whether a link target in the body could lead out of the skill folder ('../').

    A cheap, conservative gate for the exact parse: raw targets with escapes,
    entities or percent-encoding count, since the parse may decode them into '../'.
    """
    hit = doc.memo.get("may_leave_folder")
    if hit is None:
        hit = doc.memo["may_leave_folder"] = _may_leave(doc.body_text)
    return hit


# "](" or "]:": the search jumps from one ']' to the next at C speed, where two `in` tests
# walked the whole body each.
_BRACKET_THEN = lazy_re(r"\][(:]")


def has_link_syntax(body: str) -> bool:
    """Whether ``body`` holds "](" (an inline link) or "]:" (a reference definition)."""
    return _BRACKET_THEN.search(body) is not None


def _may_leave(body: str) -> bool:
    if not has_link_syntax(body):
        return False
    if ".." not in body and "\\" not in body and "&" not in body and "%" not in body:
        return False  # no target can hold '..' or decode into it
    for m in _RAW_TARGET.finditer(body):
        raw = m.group(1) if m.group(1) is not None else m.group(2)
        if not raw or (".." not in raw and "\\" not in raw and "&" not in raw and "%" not in raw):
            continue
        if "\\" in raw or "&" in raw or "%" in raw:
            return True
        if classify(raw) == "relative":
            path = relative_path(raw)
            if path == ".." or path.startswith("../"):
                return True
    return False
