"""Findings: what every rule returns, and the one table of codes.

A finding is a plain record (code, severity, message, span in code point offsets,
fix data). The CLI, the server and the tests all consume these; only the server's
converter turns them into LSP diagnostics.
"""

from __future__ import annotations

from enum import IntEnum

from .datarecord import datarecord, field

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
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


@datarecord(frozen=True, slots=True)
class Related:
    """A location in another (or the same) file that explains a finding."""

    path: str
    start: int
    end: int
    message: str


@datarecord(frozen=True, slots=True)
class Finding:
    """One problem a rule found: its code, severity, message and span in the document."""

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
    # By index, not Severity(severity): the enum's call was a fifth of unpickling a reopened
    # workspace's cached results.
    return Finding(code, _SEVERITIES[severity], message, start, end, data, related, tags)


_SEVERITIES = (None, *Severity)  # by LSP number


@datarecord(frozen=True)
class Rule:
    """A rule code's catalogue entry: default severity, title and what it checks."""

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
             "The file does not start with a `---` line, so it has no name and no description. Every harness skips it. "
             "The message says when a comment stands above the `---` block, or the fields stand at the top with no "
             "`---` lines around them.",
             ("insert frontmatter", "move the comment below the frontmatter", "put the fields between `---` lines")),
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
             "`name` and `description` are required by every spec. Claude Code and Codex use the folder name when `name` is missing (information when they are the only targets); the others leave the skill out.",
             ("insert the field",)),
        Rule("EMPTY_FIELD", E, "Field is empty", "INVALID_FRONTMATTER",
             "`name` and `description` must be non-empty strings."),
        Rule("INVALID_TYPE", E, "Field has the wrong type", "INVALID_FRONTMATTER",
             "The value's YAML type does not match the field (for example a list where a string is required, or a string where a boolean is expected).",
             ("allowed-tools list to a space-separated string",)),
        Rule("TOO_LONG", E, "Field exceeds its length limit", "INVALID_FRONTMATTER",
             "name ≤ 64, description ≤ 1,024, compatibility ≤ 500, argument-hint ≤ 200 characters (code points).",
             ("shorten the name to a kebab-case suggestion",)),
        Rule("NAME_INVALID", E, "Name is not lowercase kebab-case", "INVALID_FRONTMATTER",
             "The name must be lowercase letters, digits and single hyphens, with no hyphen at either end. The `agentskills` profile follows skills-ref (NFKC, any Unicode letter or digit); the others use `^[a-z0-9]+(-[a-z0-9]+)*$`. "
             "Beside a NAME_MISMATCH on the same name, where the folder's name is valid (the fix of either), only the "
             "more severe of the two is reported, NAME_INVALID at equal severity; ignoring or suppressing one shows the other.",
             ("convert to lowercase kebab-case",)),
        Rule("NAME_SPOOFABLE", E, "Name contains invisible or bidirectional characters", "INVALID_FRONTMATTER",
             "Zero-width and bidi control characters make two different names look identical, so a skill can impersonate another.",
             ("remove the invisible characters",)),
        Rule("NAME_MISMATCH", E, "Name does not match the folder", "NAME_MISMATCH",
             "Spec error code. The frontmatter `name` must equal the skill folder's name (compared after NFKC). The skill tool, skills-ref and Copilot (VS Code) leave the skill out (error); Claude Code lists it under the folder name (warning); Codex, OpenCode, Gemini CLI and DeepSeek Harness do not compare them (information). The severity is the worst among the targets. A skill outside every root a harness reads, at `<group>/<folder>/` and named `<group>-<folder>` (`skills/matrix/debug-app` named `matrix-debug-app`), is named as an installer that flattens the groups installs it: an information for every target. Beside a "
             "NAME_INVALID on the same name only the more severe is reported (see NAME_INVALID).",
             ("set name to the folder name", "rename the folder")),
        # --- other fields ---
        Rule("UNKNOWN_FIELD", W, "Unknown field: rejected by the target, or a likely misspelling", None,
             "`agentskills` (skills-ref) rejects every field outside its six, so that profile reports each one (error). "
             "The other targets ignore unknown fields (the skill tool preserves them, Claude Code never shows them to the model), "
             "so a custom key such as `category` or `author` is reported nowhere; only a likely misspelling of a field "
             "(`descripton`, `allowed_tools`, `licence`: rapidfuzz ratio >= 80 or at most two edits) is a warning, "
             "because the field the author meant silently does nothing. A field in another language "
             "(`description_zh`, `name-ja`) is a catalogue's display field, not a misspelling; nor is a key whose value could "
             "not be the near field's (`models: [a, b]` beside `model`, `agentic: false` beside `agent`, `contact: x@y` "
             "beside `context`, which only takes `fork`).",
             ("rename to the field meant", "move under metadata")),
        Rule("DEFERRED_FIELD", I, "Field deferred by the skill-tool spec", None,
             "Spec 000 §4.4 defers these Claude Code fields to v1.1: context, agent, hooks, model, effort, paths, shell, when_to_use. The skill tool keeps them but does not act on them."),
        Rule("CAMELCASE_FIELD", W, "camelCase spelling of a kebab-case field", None,
             "`disableModelInvocation`, `userInvocable`, `allowedTools`, ... are not the documented spellings. DeepSeek Harness rejects them; other harnesses ignore them.",
             ("use the kebab-case spelling",)),
        Rule("INVALID_VALUE", W, "Value not allowed for this field", None,
             "The value is outside the field's documented set (for example `effort`, `context`, `shell`, `model`), or a boolean spelled as a string.",
             ("write the boolean unquoted", "separate allowed-tools with spaces")),
        Rule("INVALID_VERSION", W, "Version is not semver", None,
             "`version` should be a semantic version such as `1.2.0` or `2.1.3-beta` (spec 000 §4.2). "
             "`1.0` and `2` are accepted, quoted or not, and a full version after a `v` (`v1.2.0`): no harness "
             "reads `version` (the skill tool keeps it as metadata) and semver tools read them as `1.0.0`, `2.0.0` "
             "and `1.2.0`. An unquoted number that YAML changes (`1.10` reads as 1.1) is reported."),
        Rule("UNKNOWN_LICENSE", W, "License is neither SPDX nor a bundled file", None,
             "`license` should be an SPDX identifier (MIT, Apache-2.0) or the name of a license file bundled in the skill. "
             "An identifier with words around it (`MIT license`, `Apache-2.0 (see NOTICE)`) or spaces for its hyphens "
             "(`Apache 2.0`, `CC BY-NC-SA 4.0`), a statement that the skill has no open license (`Proprietary`, "
             "`All rights reserved`) and a sentence naming a "
             "license file of the skill or of a folder above it (`SEE LICENSE IN LICENSE`) are accepted. No harness "
             "reads `license`: information, a warning under `agentskills`."),
        Rule("METADATA_NOT_STRING", W, "Metadata value is not a string", None,
             "`metadata` maps strings to strings in the agentskills spec. skills-ref turns other values into Python reprs "
             "(`{'a': 1}`); the skill tool keeps them verbatim and no captured harness rejects the skill, so this is a "
             "hint, a warning under `agentskills`. A list or a map (`triggers: [a, b]`), which no fix could make one "
             "string, is reported only under `agentskills`.",
             ("quote the value",)),
        Rule("INVALID_ARGUMENTS", E, "Malformed arguments declaration", "INVALID_FRONTMATTER",
             "`arguments` declares named arguments (spec 000 §4.3): a mapping of argument name to an optional mapping with `type`, `required`, `description`. Claude Code also accepts a string or list of names."),
        # --- body ---
        Rule("TRAILING_WHITESPACE", H, "Trailing whitespace", None,
             "Lines should not end in whitespace; exactly two spaces (a Markdown hard line break) are allowed. "
             "A hint: the model reads the same instructions either way, and on skills this project never tuned on "
             "every sampled warning was a whitespace-only line or a single space an author would not edit for "
             "(issue 26). "
             "Lines inside fenced and indented code blocks are not checked, as markdownlint's MD009 does by default "
             "(`code_blocks: false`): some languages need the space and the model reads code verbatim.",
             ("trim this line", "trim all lines")),
        Rule("NESTED_FENCE", W, "Code block closed by a fence nested inside it", None,
             "A fenced code block holds a fence line with an info string, of its own character and at least its "
             "length (```` ```bash ```` inside ```` ```markdown ````): such a line never closes a block, so the first "
             "bare fence after it, meant for the inner block, closes the outer one. The rest of the template is read "
             "as Markdown (its links as links, its headings as the skill's) and the fence meant to close the "
             "template opens a block that swallows the text after it; editors and GitHub show it so, and the model "
             "reads fences that no longer pair. Open and close the outer block with a longer fence (four backticks "
             "around three). Links, paths and trailing whitespace in the spilled template are not reported: they "
             "would be inside the block. Not reported where the blocks meant are unclear: when a count of the "
             "fences (one with an info string opens, a bare one closes) never closes the outer block, and for a "
             "block opened by a bare fence just after a block with an info string closed (the template may hold a "
             "bare block of its own). Once a block closed early, the blocks after it are reported when it is fixed.",
             ("open and close it with a longer fence",)),
        Rule("ABSOLUTE_LINK", W, "Absolute link", None,
             "Links must be relative to the skill folder (`/x`, `file://`, `C:\\`, `~/` break as soon as the skill is installed elsewhere). "
             "`/plugin:skill` is a slash-command reference to another skill, not a path, and is not reported.",
             ("make it relative",)),
        Rule("BROKEN_LINK", W, "Link target not found", None,
             "The relative link (percent-decoded) points at no file in the skill folder. Not reported: a placeholder "
             "target (`[Smith et al.](url)`, `[x](link)`), a template (`task.{id}.md`, `<file>.md`), a glob the model "
             "expands (`references/setup/*.md`), a path into a hidden folder of the user's project (`.wiki/x.md`), "
             "and a link leaving a skill folder reached through a symbolic link (`.codex-marketplace/x/skills` "
             "linked to `plugins/x/skills`) that resolves from the folder's real path, as the system resolves `..` "
             "and as Codex shows the skill. Where one file of the skill differs only in letter case or in `-` for `_` "
             "(`ANTI-PATTERNS.md` for `ANTI_PATTERNS.md`), the message names it and a fix links it; so for a link "
             "leaving the folder whose path with one `..` more or fewer exists (a link counted from the wrong folder).",
             ("link the file spelled otherwise",)),
        Rule("LINK_OUTSIDE_SKILL", I, "Link leaves the skill folder", None,
             "A relative link climbs out of the skill folder with `..` to a file that exists. It resolves in this repository "
             "and inside a plugin installed whole, but not where the skill folder is installed alone. Information, not a "
             "warning. A link into another skill (its SKILL.md, its folder or a file it holds) is not reported: a "
             "reference between skills of one collection, as in a \"route to\" table, not a file this skill needs "
             "beside it (on the corpus nearly every link leaving a skill pointed at a sibling skill, issue 11 audit). "
             "A target that does not exist is BROKEN_LINK. A file linked again is reported at its first link only. In a Claude "
             "Code plugin (`.claude-plugin/` beside its `skills/` folder) a file the plugin holds is not reported: the plugin "
             "is installed whole. Nor is a link from a skill in a root a harness reads (`.claude/skills/<name>/`, "
             "`.agents/skills/<name>/`): the harness loads it where it is, so the link resolves."),
        Rule("BODY_TOO_LONG", W, "Body over 500 lines", None,
             "The agentskills spec recommends keeping SKILL.md under 500 lines; move detail into references/. "
             "Reported past 550 lines: within 10 % nobody restructures a skill (issue 26 held-out audit). A "
             "hint below 750 lines (1.5 times the recommendation), a warning from there: two held-out audits "
             "found every sampled body under 1.5 times noise and every one over it worth splitting, and the "
             "informations it then gave under 1.5 times stayed noise in the audits after. A body over this "
             "and SKILL_TOO_LARGE's recommendation gets one of the two, for the measure further over its own, "
             "naming the other."),
        Rule("SKILL_TOO_LARGE", W, "Instructions over the recommended size", None,
             "The agentskills spec recommends instructions under 5,000 tokens. The count is an offline estimate, so "
             "only more than 10 % over (5,500) is reported: a hint below 7,500 (1.5 times the recommendation), "
             "a warning from there, as for BODY_TOO_LONG, which reports a body over both where its lines are "
             "further over."),
        # --- discovery and workspace ---
        Rule("SHADOWED", W, "Skill shadowed by a higher-precedence root", None,
             "Another skill of the same name lives in another root, and a target harness that reads both roots lists "
             "that copy instead (Copilot CLI keeps .github/skills before .agents/skills before .claude/skills; Gemini "
             "CLI .agents/skills before .gemini/skills: their listing decisions, as `preview` shows them). A warning "
             "when no target loads this copy; an information naming who lists which copy when some target reads only "
             "this one (Claude Code reads .claude/skills alone). Under the skill-tool contract, and for roots no "
             "harness reads, the root listed first in `roots` wins. "
             "The `skills/` root of a Claude Code plugin (`.claude-plugin/` beside it) takes no part: Claude Code "
             "names its skills `plugin:name` when the plugin is installed."),
        Rule("LISTING_BUDGET", W, "Listed by name only (or dropped) past a harness's listing budget", None,
             "The harness's catalog has a size budget, and this skill comes after it ran out: Claude Code and "
             "Copilot CLI list it by name only (the model sees no description, so it rarely picks it), Codex cuts "
             "its description or drops the entry. The message names the harness, the budget and what uses it up; "
             "shorten the descriptions of the skills before it, or leave some out of the root the harness reads "
             "(engine/decisions.py; proven against Claude Code 2.1.332 by the capture case listing-budget and "
             "Copilot CLI 1.0.102 by many-skills). It weighs every skill of the workspace, so `check` reports it; "
             "in the editor, hover on `name` or `description` and the code lens say the same, live."),
        Rule("DUPLICATE_NAME", W, "Two skills share a name", None,
             "Two skill folders in one root declare the same name; which one a harness loads depends on directory order. "
             "Reported on each, naming three of the others in the message and ten in related information."),
        Rule("UNKNOWN_SKILL", H, "Mention of a skill that does not exist", None,
             "A `/name` invocation, `$name` mention or `Skill(name)` rule names no skill in the workspace but is a few "
             "edits away from one that exists (a likely typo). Mentions of names nothing resembles are not reported: "
             "they may be built-in commands or skills installed elsewhere. Not reported either: the harnesses' "
             "built-in commands and skills (`/help`, `/compact`, `/security-review`), commands the plugin or project "
             "defines (`commands/NAME.md`, `.claude/commands/`, `.gemini/commands/`, `.codex/prompts/`), HTTP routes "
             "(`GET /users`, a line naming an endpoint or route) and query options (`$filter`, `$top`). A hint: on "
             "skills this project never tuned on, the near misses left were mostly commands of other tools "
             "(issue 26).",
             ("replace with a suggested name",)),
        Rule("OUTSIDE_WORKSPACE", E, "Skill resolves outside every root", "OUTSIDE_WORKSPACE",
             "Spec error code. The skill folder or its SKILL.md resolves (symlink, `..`) outside every configured root, "
             "so the skill tool refuses it. A skill folder that is a symbolic link is listed and activated by Claude "
             "Code, Codex, OpenCode, Gemini CLI and Copilot CLI (capture case skill-links): for those targets the "
             "finding is an info naming them, and previews, catalogs and listing decisions read the skill through "
             "the link, as the releases do, also when it leads out of the workspace (read only: the file out there "
             "is neither checked nor written, and a link into a sensitive folder stays unread)."),
        Rule("SENSITIVE", E, "Skill lives in a sensitive path", "SENSITIVE",
             "Spec error code. The skill folder matches a sensitive pattern (default `**/.env/**`, `**/secrets/**`); the skill tool refuses to activate it, "
             "and skill-lsp reads no file there. Claude Code, Codex, OpenCode, Gemini CLI and Copilot CLI list and activate such a skill "
             "(capture case sensitive-folder): for those targets the finding is an information naming them; previews and catalogs "
             "leave the skill out all the same."),
        Rule("SKILL_FILE_CASE", E, "Skill file is a case variant of SKILL.md", None,
             "The folder holds `SKILL.MD` (or `Skill.md`, ...) but no `SKILL.md`. The harnesses look for the exact name: "
             "on a case-sensitive file system (Linux) Claude Code 2.1.332, Codex 0.171.0, OpenCode 1.18.33, Gemini CLI "
             "core 0.61.0 and Copilot CLI 1.0.102 list only `SKILL.md`, not `skill.md`, `Skill.md`, `SKILL.MD` or "
             "`skill.MD` (capture case skill-file-names); on macOS and Windows the lookup happens to succeed. skill-lsp "
             "reports the file and does not read it; the listing decisions say which harness never finds it. A `skill.md` "
             "all in lowercase is read, as skills-ref (the agentskills target) reads it, and reported where a target's "
             "harness never finds it."),
        Rule("IO_ERROR", E, "SKILL.md cannot be read", "IO_ERROR",
             "Spec error code. SKILL.md is not a regular file (a directory, FIFO, socket, device), is unreadable, or is a symlink loop."),
        # --- rule depth (issue 12): severity per harness in harness/data.py RULE_LEVELS ---
        Rule("UNKNOWN_MODEL", W, "Model is not a Claude Code alias or model id", None,
             "Claude Code resolves `model:` to an alias (`inherit`, `sonnet`, `opus`, `haiku`, `opusplan`, `default`, optionally `[1m]`) or a full model id (`claude-opus-4-5`, Bedrock and Vertex spellings) — the same values as `--model` (anthropics/claude-code CHANGELOG). Anything else is not a model. Source: anthropics/claude-code CHANGELOG.md (model aliases, full model ids in `model:`).",
             ("use the suggested alias",)),
        Rule("AGENT_WITHOUT_FORK", W, "`agent` without `context: fork`", None,
             "`agent` picks the subagent type only when the skill runs forked (`context: fork`); without it the skill runs inline and `agent` is ignored. Source: Claude Code skills documentation (frontmatter reference), CHANGELOG (\"skills not honoring `context: fork` and `agent`\" fix).",
             ("insert context: fork",)),
        Rule("FORK_NEEDS_SETTING", I, "`context: fork` needs VS Code's skill tool setting", None,
             "VS Code runs a `context: fork` skill in a subagent only with the setting `github.copilot.chat.skillTool.enabled` on; otherwise its editor warns \"The 'context: fork' attribute requires the skill tool to be enabled\". The lint cannot see the setting, so it says so once, as information, for the `vscode` target only. Source: microsoft/vscode@047238f9fe src/vs/workbench/contrib/chat/common/promptSyntax/languageProviders/promptValidator.ts validateSkillAttributes (source read, not captured: documented, not verified)."),
        Rule("INVALID_HOOKS", W, "Hooks do not have the shape Claude Code reads", None,
             "Skill hooks are `EVENT: [{matcher, hooks: [{type, command|prompt|url, timeout}]}]`. The event must be one Claude Code dispatches (PreToolUse, PostToolUse, Stop, SessionStart, ... — each added in a CHANGELOG entry), the handler type one of command, prompt, agent, http, mcp_tool, with the key that type needs, and `timeout` a positive number. Source: anthropics/claude-code CHANGELOG.md (hook events and types), hooks documentation.",
             ("use the suggested hook event",)),
        Rule("UNKNOWN_TOOL", W, "Tool name is a near miss of a Claude Code tool", None,
             "A name in `allowed-tools` that differs from a built-in tool only by case or a typo (`Grepp`, `bash`) matches nothing: permission rules are case-sensitive, so the tool is not pre-approved. Unknown names that are not near misses stay silent (new tools arrive often); `mcp__server__tool` names are accepted. Source: Claude Code permissions documentation (tool names); documented, not verified against a release.",
             ("use the suggested tool name",)),
        Rule("INVALID_TOOL_PATTERN", W, "Malformed tool rule", None,
             "A tool rule is `Name` or `Name(pattern)` with one balanced pair of parentheses (`Bash(git status:*)`). Unbalanced or empty parentheses make the rule match nothing. Source: Claude Code permission rule syntax."),
        Rule("UNSCOPED_BASH", W, "Unscoped Bash on a model-invocable skill", None,
             "`allowed-tools: Bash` (or `Bash(*)`) pre-approves every shell command while the skill runs, and a skill without `disable-model-invocation: true` can be activated by the model on its own. Scope it (`Bash(git diff:*)`) or make the skill user-only. Source: Claude Code skills documentation (allowed-tools grants permission while the skill is active)."),
        Rule("INVALID_PATHS_GLOB", W, "Malformed `paths` glob", None,
             "`paths` globs gate automatic activation to matching files. Unbalanced brackets or braces, absolute paths and backslashes never match a project-relative path (CHANGELOG: malformed bracket patterns in skill paths broke file reads). Source: anthropics/claude-code CHANGELOG.md."),
        Rule("DESCRIPTION_ANGLE_BRACKETS", W, "`<` or `>` in the description", None,
             "Codex's skill validator and Anthropic's skill-creator validator (`quick_validate.py` in openai/skills and anthropics/skills) refuse a description containing `<` or `>`; the Claude API refuses XML tags in a description (platform.claude.com, Agent Skills overview). Claude Code and Codex themselves load and list the skill with the brackets as written (Codex 0.171.0 probed with `<issue-number>` in backticks, `> 95%` and `<b>` tags), so it is a warning where the validator is the target (agentskills), an information for Codex (its skill-creator validates a skill it writes; Codex lists any) and silent elsewhere (two held-out audits read 24 such hints for other targets: 23 were usage placeholders such as `/capture <url>` in skills no validator sees)."),
        Rule("RESERVED_NAME_WORD", H, "Name contains `claude` or `anthropic`", None,
             "Skills uploaded to the Claude API or claude.ai may not use the reserved words `anthropic` or `claude` in their name (platform.claude.com, Agent Skills overview; documented, not verified). Claude Code and other harnesses load such skills. Not reported for a Claude Code plugin's skill, installed with its plugin, never uploaded alone."),
        Rule("VAGUE_NAME", H, "Vague skill name", None,
             "Names such as `helper`, `utils`, `tools`, `data`, `files` say nothing about the task; Anthropic's skill authoring best practices recommend naming the activity (`processing-pdfs`)."),
        Rule("DESCRIPTION_NO_TRIGGER", H, "Description has no trigger clause", None,
             "The agentskills spec and Anthropic's best practices ask the description to say what the skill does and when to use it (\"Use when ...\"); the model picks skills by this text. Skipped when `when_to_use` is set. The clause is also taken in Japanese, Chinese and Korean (`…などで使用`, `用于…`, `…할 때 사용`)."),
        Rule("DESCRIPTION_PERSON", H, "Description in the first or second person", None,
             "The description is injected into the model's prompt; Anthropic's best practices ask for the third person (\"Processes Excel files\", not \"I can help you\" or \"You can use this\"). Quoted speech (trigger phrases, an `<example>` dialogue) is someone else's voice and is not judged."),
        Rule("RISKY_DYNAMIC_COMMAND", W, "Risky `!` dynamic-context command", None,
             "Claude Code runs every `` !`command` `` (at a line start or after a space or tab, code fences included) and every `` ```! `` fence in a skill body when the skill is invoked, in the session's working folder with `$ARGUMENTS` and `${CLAUDE_SKILL_DIR}` already substituted, and puts the output (stdout and stderr; `(Bash completed with no output)` when empty) in its place before the model sees the skill; a command that exits non-zero makes the Skill tool fail and nothing of the skill reaches the model (verified: capture claude-code@2.1.332 case dynamic-context). Other harnesses pass the text unchanged (captured: Codex, OpenCode, Gemini CLI, Copilot CLI). Downloads piped into a shell, `sudo`, `rm -rf`, writes outside the skill folder, `chmod 777`, a script run by a path relative to the session's folder (`./scripts/x.sh`, not `${CLAUDE_SKILL_DIR}/scripts/x.sh`) and a script named for a side effect (deploy, publish, migrate…) are reported, under the default target too: the syntax exists only in Claude Code, so a skill that uses it is written for it; hover and preview list every command."),
        Rule("DYNAMIC_COMMAND_NOT_ALLOWED", W, "`!` command not permitted by allowed-tools", None,
             "The skill declares `allowed-tools` but no `Bash` rule covers a `!` command in its body. Claude Code 2.1.332 checks each command before running it: one its read-only check passes (seen: `echo`, `printf`, `ls`, `pwd`, `date`, `cat`, `head`, `tail`, `wc`, `sort`, `tr`, `cut`, `grep`, `find`, `test`, `which`, `uname`, `hostname`, `git log`, `git status`, `git diff`, `git show`, `git rev-parse`, `git rev-list`, `git remote -v`, `git branch --show-current`, `git branch -r`, alone or joined by `|`, `&&`, `||` or `;`, reading a file with `<`, errors sent to /dev/null) runs without a rule and is not reported; any other (seen: `touch`, also under `Bash(*:*)`, `mkdir`, `npm`, `git version`, `gh`, `awk`, a `>` redirection, a nested `$(…)`, `find … -exec`) fails with \"Shell command permission check failed\" and, under `-p`, the Skill tool refuses the whole skill (verified: capture claude-code@2.1.332, `-p` only; an interactive session may ask instead, not verified)."),
        Rule("INVISIBLE_CHARACTERS", W, "Invisible or bidirectional characters", None,
             "Zero-width spaces (a lone one in the body is not reported: it hides nothing), bidi overrides and isolates (Trojan Source), the word joiner, a stray BOM or Unicode tag characters in the body or description: the model reads them, a reviewer does not see them. Joiners and direction marks next to non-ASCII text (emoji, Arabic, Indic scripts) are left alone.",
             ("delete the invisible characters",)),
        Rule("HIDDEN_COMMENT", W, "Instruction hidden in an HTML comment", None,
             "HTML comments are invisible in rendered Markdown but harnesses pass the body to the model verbatim. A comment that tells the model to ignore instructions, keep something from the user, or fetch/send data is reported."),
        Rule("SECRET", E, "Secret in the skill", None,
             "An API key, token or private key (AWS, GitHub, Anthropic, OpenAI, Slack, Google, Stripe, PEM private keys) is pasted into SKILL.md. Everyone who installs the skill gets it. The message shows only the first characters; placeholders (`xxxx`, `EXAMPLE`, `your-key`, `REPLACE…`, a run of counting characters such as `abcde` or `12345`, one character six times) are skipped."),
        Rule("ARGUMENTS_WITHOUT_HINT", I, "Arguments used without `argument-hint`", None,
             "The body uses `$ARGUMENTS`, two different `$N`, or a lone `$N` with no other dollar amount in the body, but the frontmatter has no `argument-hint`; Claude Code and the skill tool show the hint in the slash menu so the user knows what to pass (spec 000 §4.2; CHANGELOG: argument-hint). A `$N` is taken for a price, not an argument, where the prose names an amount no placeholder looks like (`$50`, `$0.99`, `$1-3M`) or money is around it (a range, a unit, `~$5`, a money word on its line), nor where it opens inline math (`$2^n$`, `$4 \\leq x < 8$`).",
             ("insert a placeholder argument-hint",)),
        Rule("PLACEHOLDER_IN_CODE", W, "`$N` inside a code block", None,
             "Claude Code substitutes `$0`, `$1`, ... (0-based: `$0` is the first argument) everywhere in the body, code blocks included, when the skill is run with arguments; an unmatched one is kept verbatim (CHANGELOG). In a skill that takes arguments, `awk '{print $2}'` then prints the third argument. Reported only for skills that take arguments (`argument-hint`, `arguments` or `$ARGUMENTS`). Write `\\$1` (CHANGELOG: `\\$` escape syntax).",
             ("escape as \\$N",)),
        Rule("UNKNOWN_SUBSTITUTION", W, "Unknown `${CLAUDE_...}` substitution", None,
             "Claude Code substitutes `${CLAUDE_SKILL_DIR}`, `${CLAUDE_SESSION_ID}`, `${CLAUDE_EFFORT}` (the turn's effort level), `${CLAUDE_PROJECT_DIR}` (the session's folder; capture cases effort-level, project-dir) and plugin variables in skill content; any other `${CLAUDE_*}` or `${SKILL_*}` stays literal (CHANGELOG entries adding each variable). Not reported: a variable the body itself sets, a `${SKILL_*}` name that is not a folder's, and the environment variables Claude Code documents for hooks and settings (`${CLAUDE_ENV_FILE}`, `${CLAUDE_CONFIG_DIR}`, every `${CLAUDE_CODE_*}`), which a skill about them names as they are."),
        Rule("REFERENCE_TOO_DEEP", H, "Reference more than one level deep", None,
             "The agentskills spec: \"References should ideally be only one level deep from the root\" (Best practices, avoid deep nesting). A link or path to `references/a/b.md` is reported, under the `agentskills` profile only: on the corpus every sampled finding was a deliberate nested layout (docs/precision-rules.md)."),
        Rule("UNREFERENCED_FILE", H, "Bundled file never mentioned", None,
             "A file in scripts/, references/ or assets/ is never named in SKILL.md (by path, name, or a folder holding it). The model only opens files the body points it to, so the file is dead weight (agentskills spec, progressive disclosure). Only files directly in those folders; a mention in an index in references/ counts. Not reported: a script's tests (`x.test.ts`, `test_x.py`) and the package manifests and lock files a package manager reads (`package.json`, `requirements.txt`). A hint for `agentskills` and `claude-code` (25 % actionable on the corpus: docs/precision-rules.md), off elsewhere."),
        Rule("BACKSLASH_PATH", W, "Backslash in a skill-relative path", None,
             "`scripts\\lint.py` names a file called `scripts\\lint.py` on macOS and Linux. Skill paths are `/`-separated (agentskills spec: relative paths). "
             "Not reported in a Windows command (a PowerShell, cmd or bat block, a line with a cmdlet, `$env:` or a drive "
             "letter) or in an example the prose marks as one to avoid (`✗`, `Avoid`, `Don't`, `Bad`).",
             ("use forward slashes",)),
        Rule("PERSONAL_PATH", I, "Path into one person's home folder", None,
             "`/Users/alice/...`, `/home/bob/...` or `C:\\Users\\carol\\...` exist only on the author's machine. Placeholder names (`user`, `you`, `runner`, ...) are skipped. "
             "Information: on the corpus a third were worked examples or provenance notes nobody would edit (issue 11 audit)."),
        Rule("MISSING_MENTIONED_FILE", W, "Body names a bundled file that does not exist", None,
             "The body sends the model to `references/…`, `scripts/…`, `assets/…` or `templates/…` (in prose, inline "
             "code or a shell block) but the file is neither in the skill folder nor relative to a folder above it "
             "(a plugin's or project's own folder). The model will try to open it and fail. Not reported where the "
             "path is not meant to exist yet or is an example: a line that creates, saves or generates it, says "
             "e.g., if, may or your, holds `<…>`, `{…}`, `…` or a folder tree; a generic name (`scripts/example.py`); "
             "a JSON, YAML or Markdown sample; a counter-example; a line that names other files of the project or the "
             "sibling skill the path belongs to, or offers the same file in another form that is there (`x.json` or "
             "`x.md`); skills about writing skills; a link (BROKEN_LINK's). A warning when "
             "a sibling skill has the file (the path is written from the wrong skill) or the line tells the model to "
             "use it (\"See …\", \"Load …\", \"Run …\"); a hint otherwise. Measured on held-out skills "
             "(docs/precision.md)."),
        Rule("SCRIPT_NO_SHEBANG", W, "Script run directly has no shebang", None,
             "A code block runs `scripts/x` (or `./scripts/x`) as a command, but the file has no `#!` line, so the shell cannot start it. Run it through its interpreter or add a shebang. A `#!` line after a UTF-8 byte order mark is named as such: the system reads the two first bytes only. "
             "Only blocks in a shell language (or none) are read, and not a block that draws a diagram or a folder tree."),
        Rule("SCRIPT_NOT_EXECUTABLE", H, "Script run directly is not executable", None,
             "A code block runs `scripts/x` as a command, the file has a shebang but no execute bit. `chmod +x` it and commit the mode."),
        # --- recall (issue 26): defects a peer caught or every tool missed ---
        Rule("DESCRIPTION_PLACEHOLDER", W, "Description is a template placeholder", None,
             "The description still holds a template's words (`[TODO: …]`, `<description>`, \"Describe what this "
             "skill does…\", \"Replace with description…\"). The model picks skills by the description alone, so "
             "this skill is never chosen for the right task."),
        Rule("DESCRIPTION_STUB", W, "Description names a topic, not a task", None,
             "A description under 40 characters with no trigger clause (\"Spreadsheet utilities.\") says neither "
             "what the skill does nor when to use it; the model picks skills by this text. Descriptions in scripts "
             "that pack a sentence into few characters (CJK) are not judged by length. A description that only says "
             "the name again (`Git Worktree Manager` for git-worktree-manager, `Skill: git-combine-commits`) is one "
             "too, whatever its length."),
        Rule("NOT_A_TOOL", W, "`allowed-tools` entry is no tool", None,
             "A capitalised word such as `Shell`, `Terminal`, `Browser` or `FileSystem` is no tool name in any "
             "harness (Claude Code: Bash, WebFetch, Read…; Copilot CLI and OpenCode: lowercase `shell`, `bash`; "
             "Gemini CLI: snake_case), so the entry pre-approves nothing. The message names the tool meant."),
        Rule("FORK_WITHOUT_TASK", W, "`context: fork` on a skill with no task", None,
             "Claude Code runs a `context: fork` skill in a subagent whose prompt is the skill body; a body of "
             "guidelines (no numbered steps, no heading naming a procedure, no `$ARGUMENTS`, no `!` command) gives "
             "the subagent nothing to do (Claude Code skills documentation: fork only makes sense for skills with "
             "explicit instructions; documented, not verified). `context` exists only in Claude Code, so a skill "
             "that sets it is checked under every target but those that ignore it."),
        Rule("MISSING_SCRIPT", W, "Command runs a script that does not exist", None,
             "A command in a shell code block runs `scripts/…` (directly, or through python, bash, node…) but the "
             "file is neither in the skill folder nor relative to a folder above it (a plugin's or project's "
             "`scripts/`). The command fails when the model runs it. Skills about writing skills are not checked "
             "(their paths are examples), nor a block the paragraph above gives to the user's repository (\"the "
             "repository's scripts\", \"in your project, run:\")."),
        Rule("NESTED_REFERENCE", H, "Reference reached only through another reference", None,
             "SKILL.md names `references/a.md`, which sends the model on to `references/b.md` that SKILL.md never "
             "names. Anthropic's skill authoring best practices keep references one level deep from SKILL.md: the "
             "model may preview a nested file in part. A hint: an index file in references/ is a deliberate layout "
             "for some authors, and one whose lines are mostly links to three or more other Markdown files (a "
             "generated API reference, a section's README) is not reported: SKILL.md could not name each page."),
        Rule("DESCRIPTION_OVERLAP", W, "Two skills' descriptions are near-identical", None,
             "Two skills of one workspace have descriptions a model cannot tell apart: both of 8 words or more, the "
             "same text, or at most one content word apart with a rapidfuzz token-sort ratio of 90 or more, and the "
             "differing word is not part of either skill's name (`Automate 21risk tasks` in `21risk-automation`). "
             "The model picks one of them at random for the same request. Reported on each, naming three of the others "
             "in the message and ten in related information and `data.others` (`data.more` counts the rest). Not "
             "compared: skills of the same name (copies) and skills in two different roots (each root is read by "
             "its own harnesses); skills under a test folder outside the roots. Incremental and exact: each "
             "description is found by hash lookups of its word set (docs/precision.md)."),
        Rule("INVALID_OPENAI_YAML", W, "Codex `agents/openai.yaml` value ignored", None,
             "Codex reads `agents/openai.yaml` beside SKILL.md (openai/codex, codex-rs skills loader): `interface` (display_name ≤ 64, short_description and default_prompt ≤ 1,024, icon_small/icon_large relative under assets/, brand_color `#RRGGBB`), `dependencies.tools[]` (type and value required; description, transport, command, url) and `policy` (allow_implicit_invocation boolean, products list). It fails open: invalid YAML or a wrong type drops the whole file, a bad value drops the value, unknown keys are ignored (reported only where one looks like a misspelt known key: authors keep keys of their own tooling there). Reported on the SKILL.md's first line with the YAML line number."),
        # --- suppressions (engine/suppress.py) ---
        Rule("UNUSED_SUPPRESSION", W, "Suppression that silences nothing", None,
             "A `# skill-lsp: ignore[CODE, ...]` comment in the frontmatter names a code with no finding to "
             "silence (on its line, or in the file for a comment on a line of its own), a code that does not "
             "exist, or a code twice; or a `# skill-lsp:` comment is not `ignore[...]`. As ruff's RUF100: a "
             "stale suppression would hide the next real finding. Codes that are off in this run (not selected, "
             "ignored, severity off) are not reported, nor anything while the frontmatter does not parse. "
             "The safe fix removes what is unused.",
             ("remove the unused suppression",)),
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


# How safe a fix is (edits.Fix.applicability): here, so a report counts them without loading the fixes.
SAFE, UNSAFE, DISPLAY_ONLY = "safe", "unsafe", "display-only"
APPLICABILITIES = (SAFE, UNSAFE, DISPLAY_ONLY)

NOTE_KEY = "harnesses"  # data key holding the harness sentence appended to a message


def with_note(f: Finding, severity: Severity, note: str) -> Finding:
    """``f`` at ``severity``, its message followed by what the target harnesses do ("; Codex ignores it")."""
    if not note:
        return f.with_severity(severity) if severity != f.severity else f
    data = dict(f.data or {})
    data[NOTE_KEY] = note
    return Finding(f.code, severity, f"{f.message}; {note}", f.start, f.end, data, f.related, f.tags)


def qualifier(data: object) -> str | None:
    """What a harness effect may be keyed by beyond the finding's code (``CODE:qualifier``): the
    field, else the kind of YAML error, else the reason."""
    if not isinstance(data, dict):
        return None
    value = data.get("field") or data.get("yaml") or data.get("reason")
    return value if isinstance(value, str) else None


def base_message(f: Finding) -> str:
    """The message without the harness sentence (what the skill tool itself would say)."""
    note = f.data.get(NOTE_KEY) if isinstance(f.data, dict) else None
    if note and f.message.endswith(f"; {note}"):
        return f.message[: -len(note) - 2]
    return f.message
