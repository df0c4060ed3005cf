"""Findings: what every rule returns, and the one table of codes.

A finding is a plain record (code, severity, message, span in code point offsets,
fix data). The CLI, the server and the tests all consume these; only the server's
converter turns them into LSP diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any


class Severity(IntEnum):
    # Numbered as LSP numbers them, so conversion is an identity.
    ERROR = 1
    WARNING = 2
    INFO = 3
    HINT = 4

    @property
    def label(self) -> str:
        return _LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Severity | None:
        """'error' / 'warning' / 'information' / 'info' / 'hint' -> Severity; 'off' -> None."""
        t = text.strip().lower()
        if t == "off":
            return None
        for sev, names in _NAMES.items():
            if t in names:
                return sev
        raise ValueError(text)


_LABELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "info", Severity.HINT: "hint"}
_NAMES = {
    Severity.ERROR: ("error",),
    Severity.WARNING: ("warning", "warn"),
    Severity.INFO: ("information", "info"),
    Severity.HINT: ("hint",),
}


@dataclass(frozen=True, slots=True)
class Related:
    """A location in another (or the same) file that explains a finding."""

    path: str
    start: int
    end: int
    message: str


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    severity: Severity
    message: str
    start: int
    end: int
    data: dict[str, Any] | None = None
    related: tuple[Related, ...] = ()
    # "unnecessary" / "deprecated", mapped to LSP DiagnosticTag by the server.
    tags: tuple[str, ...] = ()

    def with_severity(self, severity: Severity) -> Finding:
        return Finding(self.code, severity, self.message, self.start, self.end, self.data, self.related, self.tags)

    def __reduce__(self) -> tuple:
        # Worker processes send thousands of these: a flat tuple pickles several times
        # faster than the default slots state (and the severity as a plain int).
        return (_finding, (self.code, int(self.severity), self.message, self.start, self.end, self.data,
                           self.related, self.tags))


def _finding(code: str, severity: int, message: str, start: int, end: int, data: dict[str, Any] | None,
             related: tuple[Related, ...], tags: tuple[str, ...]) -> Finding:
    return Finding(code, Severity(severity), message, start, end, data, related, tags)


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    severity: Severity
    title: str
    # The skill-tool error (spec 000 §3.4) a harness reports for this finding, if any.
    tool_error: str | None = None
    doc: str = ""
    fixes: tuple[str, ...] = field(default=())


E, W, I, H = Severity.ERROR, Severity.WARNING, Severity.INFO, Severity.HINT  # noqa: E741

RULES: dict[str, Rule] = {
    r.code: r
    for r in (
        # --- file and frontmatter structure (stage 1) ---
        Rule("INVALID_ENCODING", E, "File is not valid UTF-8", "IO_ERROR",
             "Harnesses read SKILL.md as UTF-8. Invalid bytes, a UTF-16 byte-order mark or NUL bytes make them skip or garble the skill."),
        Rule("FILE_TOO_LARGE", W, "File exceeds the analysis limit", None,
             "skill-lsp analyses the first 1 MiB of a SKILL.md. The rest is not checked; a skill this large costs a model far too much context anyway."),
        Rule("MISSING_FRONTMATTER", E, "No frontmatter", "INVALID_FRONTMATTER",
             "The file does not start with a `---` line, so it has no name and no description. Every harness skips it.",
             ("insert frontmatter",)),
        Rule("INVALID_FRONTMATTER", E, "Frontmatter does not parse", "INVALID_FRONTMATTER",
             "Spec error code. The frontmatter is not closed by a `---` line, is not valid YAML, or is not a mapping. Field rules do not run until it parses (one root cause, one finding). The most common real cause is an unquoted `: ` inside a value.",
             ("quote the value", "turn the value into a block scalar")),
        Rule("FRONTMATTER_LIMIT", E, "Frontmatter too large, deep or alias-heavy", "INVALID_FRONTMATTER",
             "The frontmatter exceeds a safety limit (256 KiB, nesting depth 64, or alias expansion of 10,000 nodes). It is not analysed further."),
        Rule("DUPLICATE_KEY", E, "Duplicate key", "INVALID_FRONTMATTER",
             "A key appears twice in one mapping. YAML forbids it; parsers disagree on which value wins (strictyaml rejects the file, js-yaml throws, others keep the last)."),
        Rule("YAML_TAG", W, "Explicit YAML tag", None,
             "An explicit tag such as `!!python/object` is never constructed by skill-lsp, and harnesses either reject it or read the value as a plain string."),
        # --- name ---
        Rule("MISSING_FIELD", E, "Required field missing", "INVALID_FRONTMATTER",
             "`name` and `description` are required by every spec and harness.", ("insert the field",)),
        Rule("EMPTY_FIELD", E, "Field is empty", "INVALID_FRONTMATTER",
             "`name` and `description` must be non-empty strings."),
        Rule("INVALID_TYPE", E, "Field has the wrong type", "INVALID_FRONTMATTER",
             "The value's YAML type does not match the field (for example a list where a string is required, or a string where a boolean is expected).",
             ("allowed-tools list to a space-separated string",)),
        Rule("TOO_LONG", E, "Field exceeds its length limit", "INVALID_FRONTMATTER",
             "name ≤ 64, description ≤ 1,024, compatibility ≤ 500, argument-hint ≤ 200 characters (code points).",
             ("shorten the name to a kebab-case suggestion",)),
        Rule("NAME_INVALID", E, "Name is not lowercase kebab-case", "INVALID_FRONTMATTER",
             "The name must be lowercase letters, digits and single hyphens, with no hyphen at either end. The `agentskills` profile follows skills-ref (NFKC, any Unicode letter or digit); the others use `^[a-z0-9]+(-[a-z0-9]+)*$`.",
             ("convert to lowercase kebab-case",)),
        Rule("NAME_SPOOFABLE", E, "Name contains invisible or bidirectional characters", "INVALID_FRONTMATTER",
             "Zero-width and bidi control characters make two different names look identical, so a skill can impersonate another.",
             ("remove the invisible characters",)),
        Rule("NAME_MISMATCH", E, "Name does not match the folder", "NAME_MISMATCH",
             "Spec error code. The frontmatter `name` must equal the skill folder's name (compared after NFKC). The skill tool and skills-ref refuse the skill (error); Claude Code warns and loads it (warning in the `claude-code` profile); DeepSeek Harness does not check it (information in `dsh`).",
             ("set name to the folder name", "rename the folder")),
        # --- other fields ---
        Rule("UNKNOWN_FIELD", I, "Field not defined by the profile", None,
             "The field is not defined by the active profile. `agentskills` (skills-ref) rejects it (error); the skill tool preserves it; Claude Code ignores it and never shows it to the model.",
             ("move under metadata",)),
        Rule("DEFERRED_FIELD", I, "Field deferred by the skill-tool spec", None,
             "Spec 000 §4.4 defers these Claude Code fields to v1.1: context, agent, hooks, model, effort, paths, shell, when_to_use. The skill tool keeps them but does not act on them."),
        Rule("CAMELCASE_FIELD", W, "camelCase spelling of a kebab-case field", None,
             "`disableModelInvocation`, `userInvocable`, `allowedTools`, ... are not the documented spellings. DeepSeek Harness rejects them; other harnesses ignore them.",
             ("use the kebab-case spelling",)),
        Rule("INVALID_VALUE", W, "Value not allowed for this field", None,
             "The value is outside the field's documented set (for example `effort`, `context`, `shell`, `model`), or a boolean spelled as a string.",
             ("write the boolean unquoted", "separate allowed-tools with spaces")),
        Rule("INVALID_VERSION", W, "Version is not semver", None,
             "`version` should be a semantic version such as `1.2.0` or `2.1.3-beta` (spec 000 §4.2)."),
        Rule("UNKNOWN_LICENSE", W, "License is neither SPDX nor a bundled file", None,
             "`license` should be an SPDX identifier (MIT, Apache-2.0) or the name of a license file bundled in the skill."),
        Rule("METADATA_NOT_STRING", W, "Metadata value is not a string", None,
             "`metadata` maps strings to strings. skills-ref turns other values into Python reprs (`{'a': 1}`); other tools reject them.",
             ("quote the value",)),
        Rule("INVALID_ARGUMENTS", E, "Malformed arguments declaration", "INVALID_FRONTMATTER",
             "`arguments` declares named arguments (spec 000 §4.3): a mapping of argument name to an optional mapping with `type`, `required`, `description`. Claude Code also accepts a string or list of names."),
        # --- body ---
        Rule("TRAILING_WHITESPACE", W, "Trailing whitespace", None,
             "Lines should not end in whitespace; exactly two spaces (a Markdown hard line break) are allowed.",
             ("trim this line", "trim all lines")),
        Rule("ABSOLUTE_LINK", W, "Absolute link", None,
             "Links must be relative to the skill folder (`/x`, `file://`, `C:\\`, `~/` break as soon as the skill is installed elsewhere).",
             ("make it relative",)),
        Rule("BROKEN_LINK", W, "Link target not found", None,
             "The relative link (percent-decoded) points at no file in the skill folder."),
        Rule("LINK_OUTSIDE_SKILL", W, "Link leaves the skill folder", None,
             "A relative link climbs out of the skill folder with `..`. Harnesses install the skill folder alone, so the target will be missing."),
        Rule("BODY_TOO_LONG", W, "Body over 500 lines", None,
             "The agentskills spec recommends keeping SKILL.md under 500 lines; move detail into references/."),
        Rule("SKILL_TOO_LARGE", W, "Instructions over the recommended size", None,
             "The agentskills spec recommends instructions under 5,000 tokens (estimated offline)."),
        # --- discovery and workspace ---
        Rule("SHADOWED", W, "Skill shadowed by a higher-precedence root", None,
             "A skill with the same name lives in a root with lower index; harnesses load that one and never this one."),
        Rule("DUPLICATE_NAME", W, "Two skills share a name", None,
             "Two skill folders in one root declare the same name; which one a harness loads depends on directory order."),
        Rule("UNKNOWN_SKILL", W, "Mention of a skill that does not exist", None,
             "A `/name` invocation, `$name` mention or `Skill(name)` rule names no skill in the workspace but is a few "
             "edits away from one that exists (a likely typo). Mentions of names nothing resembles are not reported: "
             "they may be built-in commands or skills installed elsewhere.",
             ("replace with a suggested name",)),
        Rule("OUTSIDE_WORKSPACE", E, "Skill resolves outside every root", "OUTSIDE_WORKSPACE",
             "Spec error code. The skill folder or its SKILL.md resolves (symlink, `..`) outside every configured root. The target is never read."),
        Rule("SENSITIVE", E, "Skill lives in a sensitive path", "SENSITIVE",
             "Spec error code. The skill folder matches a sensitive pattern (default `**/.env/**`, `**/secrets/**`); the skill tool refuses to activate it."),
        Rule("IO_ERROR", E, "SKILL.md cannot be read", "IO_ERROR",
             "Spec error code. SKILL.md is not a regular file (a directory, FIFO, socket, device), is unreadable, or is a symlink loop."),
    )
}


def rule(code: str) -> Rule:
    return RULES[code]


def make(code: str, message: str, start: int, end: int, data: dict[str, Any] | None = None,
         *, severity: Severity | None = None, related: tuple[Related, ...] = (),
         tags: tuple[str, ...] = ()) -> Finding:
    """Build a finding with the code's default severity unless one is given."""
    return Finding(code, severity if severity is not None else RULES[code].severity, message,
                   start, end, data, related, tags)
