"""Frontmatter fields and the profiles that decide which of them a target accepts.

One table drives validation, completion, hover and the JSON schema. A profile
names the harness(es) that will load the skill; the specs disagree on unknown
fields, name charset and booleans (NOTES.md §1), so those are profile settings.
"""

from __future__ import annotations

from .datarecord import datarecord, field
from .findings import Finding, Severity, qualifier, with_note
from .harness.data import CLAUDE_FIELDS as _CLAUDE_FIELDS
from .harness.data import DEFERRED_FIELDS as _DEFERRED_FIELDS
from .harness.data import SPEC_FIELDS as _SPEC_FIELDS

# Field kinds: "string", "boolean", "mapping", "tools", "arguments", "list-or-string", "enum", "hooks"


@datarecord(frozen=True)
class Field:
    """A frontmatter field a target knows, with its kind and summary."""

    key: str
    kind: str
    summary: str
    limit: int | None = None  # max length in code points
    values: tuple[str, ...] = ()  # documented values for enums
    snippet: str = ""  # LSP snippet body for the value


FIELDS: dict[str, Field] = {
    f.key: f
    for f in (
        Field("name", "string", "Skill identifier: lowercase letters, digits and single hyphens; must equal the folder name.",
              64, snippet="${1:name}"),
        Field("description", "string", "What the skill does AND when to use it. Drives catalog discovery and the model's choice to activate.",
              1024, snippet="${1:What it does. Use when ...}"),
        Field("license", "string", "SPDX identifier (MIT, Apache-2.0) or the name of a license file bundled in the skill.", snippet="${1:MIT}"),
        Field("compatibility", "string", "Environment requirements, e.g. `Requires Python 3.10+`.",
              500, snippet="${1:Requires Python 3.10+}"),
        Field("metadata", "mapping", "Arbitrary string → string map for client-specific properties (version, author, ...).", snippet="\n  ${1:key}: ${2:value}"),
        Field("allowed-tools", "tools", "Tools the skill expects to use, e.g. `Read Grep Bash(git:*)`: a space-separated string in the agentskills spec (experimental); the skill tool and Claude Code also take a list. Advisory: pre-approves nothing in the skill tool.",
              snippet="${1:Read Grep Bash(git:*)}"),
        Field("version", "string", "Semantic version of the skill (`1.2.0`).", snippet="${1:1.0.0}"),
        Field("argument-hint", "string", "Hint shown in slash menus, e.g. `[path] [--fix]`.", 200, snippet='"${1:[path]}"'),
        Field("disable-model-invocation", "boolean", "When true only the user can activate the skill (`/name`); the model cannot.", snippet="${1|true,false|}"),
        Field("user-invocable", "boolean", "When false the skill is hidden from slash menus (model-only).", snippet="${1|false,true|}"),
        Field("arguments", "arguments", "Named arguments for `${name}` substitution: a mapping of name → {type, required, description}. Claude Code also takes a string or list of names.", snippet="\n  ${1:path}:\n    required: ${2|true,false|}"),
        Field("when_to_use", "string", "Extra routing text shown next to the description (counts toward Claude Code's 1,536-character listing cap).", snippet="${1:Use when ...}"),
        Field("model", "string", "Model override while the skill runs (`sonnet`, `opus`, `haiku`, `inherit` or a model id).",
              values=("inherit", "sonnet", "opus", "haiku"), snippet="${1|inherit,sonnet,opus,haiku|}"),
        Field("effort", "enum", "Reasoning effort while the skill runs.", values=("low", "medium", "high", "xhigh", "max"), snippet="${1|low,medium,high,xhigh,max|}"),
        Field("context", "enum", "`fork` runs the skill in a forked subagent context.", values=("fork",), snippet="fork"),
        Field("agent", "string", "Subagent type for `context: fork` (Explore, Plan, general-purpose, or a custom agent).",
              values=("Explore", "Plan", "general-purpose"), snippet="${1|general-purpose,Explore,Plan|}"),
        Field("shell", "enum", "Shell for `!` command injection in the body.", values=("bash", "powershell"), snippet="${1|bash,powershell|}"),
        Field("paths", "list-or-string", "Glob patterns that gate automatic activation to matching files.", snippet="\n  - ${1:**/*.py}"),
        Field("hooks", "hooks", "Skill-scoped hooks (PreToolUse, PostToolUse, ...).",
              snippet="\n  ${1:PreToolUse}:\n    - matcher: ${2:Bash}"),
        Field("disallowed-tools", "tools", "Tools the skill must not use.", snippet="${1:Bash}"),
        Field("background", "boolean", "Run the skill in the background.", snippet="${1|true,false|}"),
        Field("whenToUse", "string", "DeepSeek Harness's camelCase routing text (not shown in its catalog).", snippet="${1:Use when ...}"),
    )
}

# Field groups live with the harness facts; re-exported for existing importers.
SPEC_FIELDS, CLAUDE_FIELDS, DEFERRED_FIELDS = _SPEC_FIELDS, _CLAUDE_FIELDS, _DEFERRED_FIELDS

# camelCase spellings people write, and the documented key.
CAMEL_CASE = {
    "disableModelInvocation": "disable-model-invocation",
    "userInvocable": "user-invocable",
    "modelInvocable": "disable-model-invocation",
    "allowedTools": "allowed-tools",
    "argumentHint": "argument-hint",
    "disallowedTools": "disallowed-tools",
    "whenToUse": "when_to_use",
}


@datarecord(frozen=True)
class Profile:
    """What the lint expects of a skill for a set of target harnesses (built by :func:`..targets.view`).

    The four historical profiles are the views of one target each.
    """

    name: str
    title: str
    known: tuple[str, ...]  # fields some target reads
    deferred: tuple[str, ...] = ()  # recognised but not acted on
    unknown_severity: str = "info"  # severity of UNKNOWN_FIELD
    unicode_names: bool = False  # skills-ref: NFKC + any Unicode letter/digit
    string_booleans: bool = False  # DSH: "true"/"yes"/"on"/"1" ... count as booleans
    tools_form: str = "any"  # "string" where only the space-separated string is specified
    camel_case_severity: str = "warning"
    # The skill tool and skills-ref refuse a misnamed skill; Claude Code lists it under the
    # folder name; DeepSeek Harness, Codex, OpenCode and Gemini do not compare them.
    name_mismatch_severity: str = "error"
    targets: tuple[str, ...] = ()
    free_arguments: bool = False  # `arguments` may also be a string or a list of names
    unknown_note: str = ""  # UNKNOWN_FIELD message, "{key}" replaced
    # CODE or CODE:field -> severity and the sentence naming what the targets do
    severities: dict[str, Severity] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def unknown_message(self, key: str) -> str:
        return self.unknown_note.format(key=key)

    def adjust(self, f: Finding) -> Finding:
        """A finding at the targets' severity, naming the harnesses where they differ."""
        if f.code == "UNKNOWN_FIELD" and isinstance(f.data, dict) and "suggestion" in f.data:
            return f  # a likely misspelling: a warning whatever the targets do with unknown fields
        if f.code == "NAME_MISMATCH" and isinstance(f.data, dict) and "group" in f.data:
            return f  # named as installed, outside every root (rules/name.py): an information for every target
        fld = qualifier(f.data)
        key = f"{f.code}:{fld}" if fld is not None and f"{f.code}:{fld}" in self.severities else f.code
        sev = self.severities.get(key)
        if sev is None:
            return f
        note = self.notes.get(key, "")
        if len(self.targets) < 2 and f.code in ("UNKNOWN_FIELD", "CAMELCASE_FIELD"):
            note = ""  # one target: the message already says what it does
        return with_note(f, sev, note)


DEFAULT_PROFILE = "skill-tool"

# DSH's accepted boolean spellings (skill-filesystem).
DSH_TRUE = ("true", "yes", "on", "1")
DSH_FALSE = ("false", "no", "off", "0")
