"""Severity of each rule-depth code per harness, as data.

Keys are today's profiles (skill-tool, agentskills, claude-code, dsh) plus the
harnesses that have no profile yet (codex, copilot): the targets model reads
this table; until it lands, rules look up the active profile. ``"off"`` means
the harness does not read what the rule is about, so the rule stays silent.
A code missing here keeps its RULES default under every profile.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..findings import RULES, Finding, Severity, make

if TYPE_CHECKING:
    from . import Context

# claude-api: skills uploaded to the Claude API / claude.ai (platform.claude.com, Agent Skills overview).
HARNESSES = ("skill-tool", "agentskills", "claude-code", "dsh", "codex", "copilot", "claude-api")


def _row(default: str, **per: str) -> dict[str, str]:
    row = dict.fromkeys(HARNESSES, default)
    row.update({k.replace("_", "-"): v for k, v in per.items()})
    return row


# Fields only Claude Code reads: off elsewhere (skill-tool defers them, agentskills
# rejects them as unknown fields, DSH ignores them).
_CLAUDE_ONLY = {"default": "off", "claude_code": "warning"}

SEVERITY_BY_HARNESS: dict[str, dict[str, str]] = {
    # --- harness field values (rules/harness_values.py) ---
    "UNKNOWN_MODEL": _row(**_CLAUDE_ONLY),
    "AGENT_WITHOUT_FORK": _row(**_CLAUDE_ONLY),
    "INVALID_HOOKS": _row(**_CLAUDE_ONLY),
    "UNKNOWN_TOOL": _row("hint", claude_code="warning", dsh="off"),
    "INVALID_TOOL_PATTERN": _row("hint", claude_code="warning", dsh="off"),
    "UNSCOPED_BASH": _row("off", claude_code="warning"),
    "INVALID_PATHS_GLOB": _row(**_CLAUDE_ONLY),
    # --- description and name (rules/description.py) ---
    "DESCRIPTION_ANGLE_BRACKETS": _row("hint", agentskills="warning", codex="error", claude_api="error"),
    "RESERVED_NAME_WORD": _row("hint", claude_api="error"),
    "VAGUE_NAME": _row("hint"),
    "DESCRIPTION_NO_TRIGGER": _row("hint"),
    "DESCRIPTION_PERSON": _row("hint"),
    # --- body, arguments and security (rules/security.py, rules/arguments.py) ---
    "RISKY_DYNAMIC_COMMAND": _row("off", claude_code="warning"),
    "DYNAMIC_COMMAND_NOT_ALLOWED": _row("off", claude_code="warning"),
    "INVISIBLE_CHARACTERS": _row("warning"),
    "HIDDEN_COMMENT": _row("warning"),
    "SECRET": _row("error"),
    "ARGUMENTS_WITHOUT_HINT": _row("off", claude_code="info", skill_tool="info"),
    "PLACEHOLDER_IN_CODE": _row("off", claude_code="warning"),
    "UNKNOWN_SUBSTITUTION": _row("off", claude_code="warning"),
    # --- files the skill points at (rules/files.py) ---
    "REFERENCE_TOO_DEEP": _row("hint"),
    "UNREFERENCED_FILE": _row("hint"),
    "BACKSLASH_PATH": _row("warning"),
    "PERSONAL_PATH": _row("info"),  # issue 11 audit: 4 of 6 actionable (examples, provenance notes)
    "MISSING_MENTIONED_FILE": _row("hint"),
    "SCRIPT_NO_SHEBANG": _row("warning"),
    "SCRIPT_NOT_EXECUTABLE": _row("hint"),
    # --- Codex agents/openai.yaml (rules/codex_openai_yaml.py) ---
    "INVALID_OPENAI_YAML": _row("warning", codex="warning"),
}


def severity(code: str, profile: str) -> Severity | None:
    """The severity of ``code`` under ``profile``; None when the rule is off there."""
    row = SEVERITY_BY_HARNESS.get(code)
    if row is None:
        return RULES[code].severity
    return Severity.parse(row.get(profile, RULES[code].severity.label))


def emit(ctx: Context, code: str, message: str, start: int, end: int,
         data: dict[str, Any] | None = None) -> Iterator[Finding]:
    """Yield one finding at the active profile's severity, or nothing when the rule is off there."""
    sev = severity(code, ctx.profile.name)
    if sev is not None:
        yield make(code, message, start, end, data, severity=sev)
