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
    from .context import Context

# claude-api: skills uploaded to the Claude API / claude.ai (platform.claude.com, Agent Skills overview).
HARNESSES = ("skill-tool", "agentskills", "claude-code", "dsh", "codex", "copilot", "claude-api",
             "opencode", "gemini", "goose", "openhands", "vscode")


def _row(default: str, **per: str) -> dict[str, str]:
    row = dict.fromkeys(HARNESSES, default)
    row.update({k.replace("_", "-"): v for k, v in per.items()})
    return row


# Fields only Claude Code reads: off elsewhere (skill-tool defers them, agentskills
# rejects them as unknown fields, DSH ignores them).
_CLAUDE_ONLY = {"default": "off", "claude_code": "warning"}

SEVERITY_BY_HARNESS: dict[str, dict[str, str]] = {
    # --- frontmatter values no harness acts on (rules/fields.py); issue 26 held-out audit ---
    # skills-ref turns a nested value into a Python repr; the skill tool keeps it verbatim; no
    # captured harness rejects the skill.
    "METADATA_NOT_STRING": _row("hint", agentskills="warning"),
    # No harness reads `license`; the held-out findings were "MIT license", npm's "SEE LICENSE IN
    # LICENSE" and copied template text (now accepted); what is left is for catalogs.
    "UNKNOWN_LICENSE": _row("info", agentskills="warning"),
    # --- harness field values (rules/harness_values.py) ---
    "UNKNOWN_MODEL": _row(**_CLAUDE_ONLY),
    "AGENT_WITHOUT_FORK": _row(**_CLAUDE_ONLY),
    "INVALID_HOOKS": _row(**_CLAUDE_ONLY),
    "UNKNOWN_TOOL": _row("hint", claude_code="warning", dsh="off"),
    "INVALID_TOOL_PATTERN": _row("hint", claude_code="warning", dsh="off"),
    "UNSCOPED_BASH": _row("off", claude_code="warning"),
    "INVALID_PATHS_GLOB": _row(**_CLAUDE_ONLY),
    # VS Code's editor warns when its skill tool setting is off; the lint cannot see the setting.
    "FORK_NEEDS_SETTING": _row("off", vscode="info"),
    # --- description and name (rules/description.py) ---
    "DESCRIPTION_ANGLE_BRACKETS": _row("hint", agentskills="warning", codex="error", claude_api="error"),
    "RESERVED_NAME_WORD": _row("hint", claude_api="error"),
    "VAGUE_NAME": _row("hint"),
    # agentskills spec and Claude Code's docs ask for a "when to use" clause; 70 % of the corpus
    # lacks one, so the hint is kept to those targets (docs/precision-rules.md).
    "DESCRIPTION_NO_TRIGGER": _row("off", agentskills="hint", claude_code="hint"),
    "DESCRIPTION_PERSON": _row("hint"),
    "DESCRIPTION_PLACEHOLDER": _row("warning"),
    "DESCRIPTION_STUB": _row("warning"),
    "NOT_A_TOOL": _row("warning"),
    # `context` exists only in Claude Code: a skill that sets it is written for it (the skill tool
    # defers the field, spec 000 §4.4); harnesses that ignore the field run the skill inline.
    "FORK_WITHOUT_TASK": _row("warning", agentskills="off", dsh="off", codex="off", opencode="off", gemini="off",
                              goose="off", openhands="off"),
    # --- body, arguments and security (rules/security.py, rules/arguments.py) ---
    # `!` commands exist only in Claude Code: a skill that writes one is written for it, so the default
    # target reports too (issue 26: a peer caught `!`./scripts/deploy.sh``); other harnesses pass the text on.
    "RISKY_DYNAMIC_COMMAND": _row("off", claude_code="warning", skill_tool="warning"),
    "DYNAMIC_COMMAND_NOT_ALLOWED": _row("off", claude_code="warning"),
    "INVISIBLE_CHARACTERS": _row("warning"),
    "HIDDEN_COMMENT": _row("warning"),
    "SECRET": _row("error"),
    "ARGUMENTS_WITHOUT_HINT": _row("off", claude_code="info", skill_tool="info"),
    "PLACEHOLDER_IN_CODE": _row("off", claude_code="warning"),
    "UNKNOWN_SUBSTITUTION": _row("off", claude_code="warning"),
    # --- files the skill points at (rules/files.py) ---
    # The guidance is the agentskills spec's; on the corpus every sampled finding was a deliberate
    # nested layout (docs/precision-rules.md), so other profiles stay quiet.
    "REFERENCE_TOO_DEEP": _row("off", agentskills="hint"),
    # 25 % and 21 % actionable on the corpus (docs/precision-rules.md): hints, and only for the
    # targets that read bundled files by path (agentskills' progressive disclosure, Claude Code).
    "UNREFERENCED_FILE": _row("off", agentskills="hint", claude_code="hint"),
    "BACKSLASH_PATH": _row("warning"),
    "PERSONAL_PATH": _row("info"),  # issue 11 audit: 4 of 6 actionable (examples, provenance notes)
    "MISSING_MENTIONED_FILE": _row("warning"),
    "MISSING_SCRIPT": _row("warning"),
    "NESTED_REFERENCE": _row("hint"),
    "SCRIPT_NO_SHEBANG": _row("warning"),
    "SCRIPT_NOT_EXECUTABLE": _row("hint"),
    # --- Codex agents/openai.yaml (rules/codex_openai_yaml.py) ---
    "INVALID_OPENAI_YAML": _row("warning", codex="warning"),
}


def severity(code: str, targets: tuple[str, ...] | str) -> Severity | None:
    """The worst severity of ``code`` among the target harnesses; None when every one is off."""
    names = (targets,) if isinstance(targets, str) else targets
    key = (code, names)
    if key not in _CACHE:
        row = SEVERITY_BY_HARNESS.get(code)
        default = RULES[code].severity.label
        labels = [default] if row is None else [row.get(t, default) for t in names]
        found = [s for s in map(Severity.parse, labels) if s is not None]
        _CACHE[key] = min(found) if found else None  # Severity counts as LSP does: ERROR is 1
    return _CACHE[key]


_CACHE: dict[tuple[str, tuple[str, ...]], Severity | None] = {}


def _targets(ctx: Context) -> tuple[str, ...]:
    return ctx.profile.targets or (ctx.profile.name,)


def active(ctx: Context, *codes: str) -> bool:
    """Whether any of ``codes`` reports under the targets (skip the work otherwise)."""
    targets = _targets(ctx)
    return any(severity(c, targets) is not None for c in codes)


def emit(ctx: Context, code: str, message: str, start: int, end: int,
         data: dict[str, Any] | None = None) -> Iterator[Finding]:
    """Yield one finding at the active profile's severity, or nothing when the rule is off there."""
    sev = severity(code, _targets(ctx))
    if sev is not None:
        yield make(code, message, start, end, data, severity=sev)
