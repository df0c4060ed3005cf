"""Parameter validation of the ``skill`` tool (spec §2, §2.1)."""

from __future__ import annotations

from collections.abc import Mapping

from ..lazyre import lazy_re
from .results import ToolError

__all__ = [
    "KNOWN_PARAM_ALIASES",
    "SKILL_NAME_RE",
    "MAX_NAME_LENGTH",
    "validate_params",
    "is_skill_name",
]

MAX_NAME_LENGTH = 64
SKILL_NAME_RE = lazy_re(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_VALID_KEYS = ("name", "arguments")

_USE_NAME = "Use 'name' instead."
_IMPLICIT = "Just call skill({name}); activation is implicit."
_USE_ARGUMENTS = "Use 'arguments' instead."
_SESSION = "Skill context is session-scoped; no per-call override."
_RELOAD = "Skills load once per session; edit the skill file and restart the session to refresh."
_FORK = "Subagent-forked skills are deferred to v1.1."
_PATHS = "Auto-activation gating on file paths is deferred to v1.1."
_BY_NAME = "Skills dispatch by 'name', not path; the harness owns discovery."

_ALIAS_NOTES: dict[str, str] = {
    "skill": _USE_NAME,
    "skill_name": _USE_NAME,
    "name_of_skill": _USE_NAME,
    "slug": _USE_NAME,
    "invoke": _IMPLICIT,
    "activate": _IMPLICIT,
    "run": _IMPLICIT,
    "args": _USE_ARGUMENTS,
    "args_string": _USE_ARGUMENTS,
    "input": _USE_ARGUMENTS,
    "params": _USE_ARGUMENTS,
    "parameters": _USE_ARGUMENTS,
    "context": _SESSION,
    "session": _SESSION,
    "reload": _RELOAD,
    "fresh": _RELOAD,
    "force_reload": _RELOAD,
    "refresh": _RELOAD,
    "fork": _FORK,
    "subagent": _FORK,
    "isolated": _FORK,
    "paths": _PATHS,
    "scope_paths": _PATHS,
    "model": "Model override is a harness concern, not a tool parameter.",
    "effort": "Effort override is a harness concern, not a tool parameter.",
    "file": _BY_NAME,
    "file_path": _BY_NAME,
    "skill_path": _BY_NAME,
    "dir": _BY_NAME,
}

#: parameter -> complete pushback message (reference wording).
KNOWN_PARAM_ALIASES: dict[str, str] = {
    key: f"unknown parameter '{key}'. {note}" for key, note in _ALIAS_NOTES.items()
}


def is_skill_name(value: object) -> bool:
    return isinstance(value, str) and SKILL_NAME_RE.fullmatch(value) is not None


def _unknown_key_message(key: object) -> str:
    return f"unknown parameter '{key}'. The skill tool accepts only 'name' and 'arguments'."


def validate_params(params: object) -> tuple[str, str | dict[str, str] | None] | ToolError:
    """Validate raw tool-call params.

    Returns ``(name, arguments)`` (``arguments`` is ``None`` when omitted) or an
    ``INVALID_PARAM`` :class:`ToolError` whose message joins every issue with ``"; "``.
    Alias and unknown-key pushback is reported on its own, before the schema
    checks, as the reference does.
    """
    if not isinstance(params, Mapping):
        return ToolError("INVALID_PARAM", "params must be an object with a 'name' string")
    pushback: list[str] = []
    for key in params:
        if key in _VALID_KEYS:
            continue
        alias = KNOWN_PARAM_ALIASES.get(key) if isinstance(key, str) else None
        pushback.append(alias if alias is not None else _unknown_key_message(key))
    if pushback:
        return ToolError("INVALID_PARAM", "; ".join(pushback), {"params": sorted(map(str, params))})

    issues: list[str] = []
    name = params.get("name")
    if "name" not in params or name is None:
        issues.append("name is required")
    elif not isinstance(name, str):
        issues.append("name must be a string")
    else:
        # Like the reference's validation pipe, every failing check is reported.
        if len(name) < 1:
            issues.append("name must not be empty")
        if len(name) > MAX_NAME_LENGTH:
            issues.append(f"name exceeds {MAX_NAME_LENGTH} chars")
        if SKILL_NAME_RE.fullmatch(name) is None:
            issues.append("name must be lowercase-kebab-case (/^[a-z0-9]+(-[a-z0-9]+)*$/)")

    arguments = params.get("arguments")
    if "arguments" in params and arguments is not None:
        if isinstance(arguments, Mapping):
            bad = [
                k for k, v in arguments.items() if not isinstance(k, str) or not isinstance(v, str)
            ]
            if bad:
                issues.append("arguments must be a string or an object whose values are strings")
            else:
                arguments = dict(arguments)
        elif not isinstance(arguments, str):
            issues.append("arguments must be a string or an object whose values are strings")
    if issues:
        return ToolError("INVALID_PARAM", "; ".join(issues))
    assert isinstance(name, str)
    return name, arguments  # type: ignore[return-value]
