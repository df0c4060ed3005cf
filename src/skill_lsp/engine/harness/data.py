"""The harnesses skill-lsp knows, one record per release, each fact with its source.

Kept as Python rather than TOML: a fact and its source sit side by side, the
type checker sees every field, and nothing has to be loaded at start-up.

Sources are written as ``capture: <harness>@<version> <case>`` (a run of the real
release against a recording endpoint, see docs/harnesses.md), ``<repo> <path>``
(the harness's published source) or ``docs: <where>`` (documentation only).
"""

from __future__ import annotations

from ..findings import RULES, Severity
from .model import SAME_NAME, SURROGATE_ESCAPES, Effect, Fact, Flag, Harness, Root

# Fields of the agentskills spec (003) and of Claude Code's skills documentation.
SPEC_FIELDS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")
CLAUDE_FIELDS = ("when_to_use", "argument-hint", "model", "agent", "arguments", "disallowed-tools", "paths",
                 "disable-model-invocation", "user-invocable", "background", "effort", "context", "shell", "hooks")
DEFERRED_FIELDS = ("context", "agent", "hooks", "model", "effort", "paths", "shell", "when_to_use")

_SPEC000 = "spec 000 (skill-tool-design-spec.md)"
_SKILLS_REF = "agentskills/agentskills skills-ref/src/skills_ref/validator.py (skills-ref 0.1.1)"
_DSH = "@deepseek-ai/dsh-skill skill-filesystem (references-survey §3.3)"
_CC = "capture: claude-code@2.1.332"
_CODEX_SRC = "openai/codex codex-rs/core-skills/src/loader.rs"
_CODEX = "capture: codex@0.171.0"
_OPENCODE_SRC = "anomalyco/opencode packages/opencode/src/skill/index.ts"
_GEMINI_SRC = "google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts, skillManager.ts"
# VS Code agent mode, read (not run: its model endpoint needs a signed-in Copilot Chat) at one commit.
VSCODE_COMMIT = "047238f9fe1b7661362b3f27cfbddd503339cb1b"
_VSC = f"microsoft/vscode@{VSCODE_COMMIT[:10]} src/vs/workbench/contrib/chat/common/promptSyntax/"
_VSC_CHECK = _VSC + "languageProviders/promptValidator.ts"
_VSC_ATTRS = _VSC + "languageProviders/promptFileAttributes.ts skillAttributes"
_VSC_LOAD = _VSC + "service/promptsServiceImpl.ts computeSkillDiscoveryInfo"
_VSC_ROOTS = "microsoft/vscode@0783120be1 src/vs/workbench/contrib/chat/common/promptSyntax/config/" \
             "promptFileLocations.ts DEFAULT_SKILL_SOURCE_FOLDERS"
_READ_NOT_RUN = "source read, not captured"
_COPILOT = "capture: copilot@1.0.102"
_NO_METADATA = "inferred: without parsed frontmatter there is no name or description to list"


def _structure(source: str = _NO_METADATA, file_names: str = "") -> dict[str, Effect]:
    """A file that cannot be read or parsed is never listed (every harness, unless it says otherwise).
    ``file_names``: the proof that it reads no other spelling of the file than ``skill_files``."""
    out = {code: Effect("skips", "cannot read it and leaves it out", source)
           for code in ("INVALID_ENCODING", "IO_ERROR", "MISSING_FRONTMATTER", "INVALID_FRONTMATTER",
                        "FRONTMATTER_LIMIT")}
    out["SKILL_FILE_CASE"] = Effect("skips", "looks for the exact name SKILL.md and never finds this file",
                                    file_names or "documented, not verified")
    return out


def _bom(release: str, action: str) -> Effect:
    """Capture case bom-start: a SKILL.md opening with a UTF-8 byte order mark, beside one without."""
    note = {"skips": "skips a SKILL.md that starts with a byte order mark (U+FEFF)",
            "ignores": "reads a SKILL.md that starts with a byte order mark as if the mark were not there"}[action]
    return Effect(action, note, f"capture: {release} case bom-start")


def _links(release: str) -> str:
    """Capture case skill-links: folders linked from elsewhere in the workspace and from outside it are listed
    and activated like any other."""
    return f"capture: {release} case skill-links"


def _followed_link(release: str) -> dict[str, Effect]:
    """Capture case skill-links: a skill folder that is a symbolic link (OUTSIDE_WORKSPACE with the reason
    "link" under the skill-tool contract) is listed and activated like any other."""
    return {"OUTSIDE_WORKSPACE:link": Effect("ignores", "lists the skill through the link",
                                             f"capture: {release} case skill-links")}


def _duplicate_keys(verb: str, source: str) -> dict[str, Effect]:
    """A key given twice: proven for `name` and `description` (a nested key was not captured)."""
    effect = Effect("skips", f"{verb} (its YAML parser rejects a key given twice)", source)
    return {"DUPLICATE_KEY:name": effect, "DUPLICATE_KEY:description": effect}


def _yaml11(release: str) -> str:
    """Capture case yaml-line-breaks: NEL, LS and PS inside plain, quoted and block scalars. A YAML 1.1
    parser folds or ends the line there; YAML 1.2 (Claude Code, Gemini CLI, OpenCode) keeps them."""
    return f"capture: {release} case yaml-line-breaks"


def _names_case(release: str) -> str:
    """Capture case skill-file-names: the release lists SKILL.md only (not skill.md, Skill.md, SKILL.MD, skill.MD)."""
    return f"capture: {release} case skill-file-names"


def _lenient(source: str) -> dict[str, Effect]:
    """Invalid YAML is read as `key: value` lines; an unclosed block or a non-mapping is not."""
    return {
        "INVALID_FRONTMATTER": Effect("changes", "falls back to reading `key: value` lines", source, Severity.ERROR),
        "INVALID_FRONTMATTER:unclosed": Effect("skips", "cannot read it and leaves it out", source),
        "INVALID_FRONTMATTER:not-mapping": Effect("skips", "cannot read it and leaves it out", _NO_METADATA),
    }


def _yaml_kinds(release: str, lenient: tuple[str, ...],
                note: str = "reads its `key: value` lines all the same") -> dict[str, Effect]:
    """Capture case invalid-yaml-kinds: a harness whose YAML parser rejects invalid frontmatter and leaves
    the skill out, except for the ``lenient`` kinds of error (rules/structure.py ``_yaml_kind``), which it
    reads as `key: value` lines, and for values holding ': ' (``_colon``)."""
    source = f"capture: {release} case invalid-yaml-kinds"
    out = {"INVALID_FRONTMATTER": Effect("skips", "cannot parse its YAML and leaves it out", source)}
    for kind in lenient:
        out[f"INVALID_FRONTMATTER:{kind}"] = Effect("changes", note, source, Severity.ERROR)
    out["INVALID_FRONTMATTER:unclosed"] = Effect("skips", "cannot read it and leaves it out", source)
    return out


def _colon(release: str, note: str) -> dict[str, Effect]:
    """Capture case invalid-yaml-kinds (skill colon-in-plain): one-line values holding ': ' that the
    harness's second reading takes as written (rules/structure.py gives the kind `colon` only where
    each such reader does: engine/colonreads.py). Invalid YAML still, which strict readers refuse:
    a warning. Where one of them reads otherwise (`colon-misread`) each harness keeps its grading
    of such values before the readers were asked."""
    return {"INVALID_FRONTMATTER:colon": Effect("changes", note, f"capture: {release} case invalid-yaml-kinds")}


def _compatibility(release: str) -> dict[str, Effect]:
    """Capture case compatibility-types: `compatibility` as a block mapping (a real plugin's, found by
    capture diff --real seed 19), a flow list, a number or a string over the spec's 500 characters (a
    real one of 540, seed 20) is listed and loaded as a short string is."""
    return {f"{code}:compatibility": Effect("ignores", "lists and loads it all the same",
                                            f"capture: {release} case compatibility-types")
            for code in ("INVALID_TYPE", "TOO_LONG")}


def _sensitive(release: str) -> dict[str, Effect]:
    """A skill folder named like `secrets`: the release lists and activates it (capture case
    sensitive-folder; found by capture diff --real seed 16, held-out k-codepoet/my-claude-plugins),
    which the skill tool's contract refuses and skill-lsp does not read (its sensitive patterns)."""
    return {"SENSITIVE": Effect("ignores", "lists and activates it all the same; skill-lsp reads no file there, so "
                                "it checks and previews nothing of it", f"capture: {release} case sensitive-folder")}


# --- Rule-depth severities -------------------------------------------------------------------
# How severe each rule-depth code is for a skill written for each harness: skill-lsp's grading of what
# the harness does with what the rule is about ("off": it does not read it, so the rule stays silent).
# Code-major so one code's grading reads on one line; each record below carries its column
# (Harness.rule_levels). A code missing here keeps its RULES default for every harness.

_HARNESS_NAMES = ("skill-tool", "agentskills", "claude-code", "codex", "opencode", "gemini", "copilot", "vscode",
                  "dsh", "goose", "openhands")


def _levels_row(default: str, **per: str) -> dict[str, str]:
    row = dict.fromkeys(_HARNESS_NAMES, default)
    row.update({k.replace("_", "-"): v for k, v in per.items()})
    return row


# Fields only Claude Code reads: off elsewhere (skill-tool defers them, agentskills
# rejects them as unknown fields, DSH ignores them).
_CLAUDE_ONLY_LEVELS = {"default": "off", "claude_code": "warning"}

RULE_LEVELS: dict[str, dict[str, str]] = {
    # --- frontmatter values no harness acts on (rules/fields.py); issue 26 held-out audit ---
    # skills-ref turns a nested value into a Python repr; the skill tool keeps it verbatim; no
    # captured harness rejects the skill.
    "METADATA_NOT_STRING": _levels_row("hint", agentskills="warning"),
    # No harness reads `license`; the held-out findings were "MIT license", npm's "SEE LICENSE IN
    # LICENSE" and copied template text (now accepted); what is left is for catalogs.
    "UNKNOWN_LICENSE": _levels_row("info", agentskills="warning"),
    # --- harness field values (rules/harness_values.py) ---
    "UNKNOWN_MODEL": _levels_row(**_CLAUDE_ONLY_LEVELS),
    "AGENT_WITHOUT_FORK": _levels_row(**_CLAUDE_ONLY_LEVELS),
    "INVALID_HOOKS": _levels_row(**_CLAUDE_ONLY_LEVELS),
    "UNKNOWN_TOOL": _levels_row("hint", claude_code="warning", dsh="off"),
    "INVALID_TOOL_PATTERN": _levels_row("hint", claude_code="warning", dsh="off"),
    "UNSCOPED_BASH": _levels_row("off", claude_code="warning"),
    "INVALID_PATHS_GLOB": _levels_row(**_CLAUDE_ONLY_LEVELS),
    # VS Code's editor warns when its skill tool setting is off; the lint cannot see the setting.
    "FORK_NEEDS_SETTING": _levels_row("off", vscode="info"),
    # --- description and name (rules/description.py) ---
    # A validator's refusal, not the harness's: Codex 0.171.0 loads and lists the brackets as written.
    # Silent where no validator of the target refuses it: two held-out audits read 24 such hints, 23 noise
    # (usage placeholders `<url>`, "> 5 tool calls" in skills never uploaded nor validated). For Codex an
    # information: its skill-creator's validator refuses them, Codex itself lists them (the latest audit:
    # 4 of 4 such warnings noise, "> 5 tool calls" and `<external>` in skills Codex loads as written).
    "DESCRIPTION_ANGLE_BRACKETS": _levels_row("off", agentskills="warning", codex="info"),
    "RESERVED_NAME_WORD": _levels_row("hint"),
    "VAGUE_NAME": _levels_row("hint"),
    # agentskills spec and Claude Code's docs ask for a "when to use" clause; 70 % of the corpus
    # lacks one, so the hint is kept to those targets (docs/precision-rules.md).
    "DESCRIPTION_NO_TRIGGER": _levels_row("off", agentskills="hint", claude_code="hint"),
    "DESCRIPTION_PERSON": _levels_row("hint"),
    "DESCRIPTION_PLACEHOLDER": _levels_row("warning"),
    "DESCRIPTION_STUB": _levels_row("warning"),
    "NOT_A_TOOL": _levels_row("warning"),
    # `context` exists only in Claude Code: a skill that sets it is written for it (the skill tool
    # defers the field, spec 000 §4.4); harnesses that ignore the field run the skill inline.
    "FORK_WITHOUT_TASK": _levels_row("warning", agentskills="off", dsh="off", codex="off", opencode="off", gemini="off",
                              goose="off", openhands="off"),
    # --- body, arguments and security (rules/security.py, rules/arguments.py) ---
    # `!` commands exist only in Claude Code: a skill that writes one is written for it, so the default
    # target reports too (issue 26: a peer caught `!`./scripts/deploy.sh``); other harnesses pass the text on.
    "RISKY_DYNAMIC_COMMAND": _levels_row("off", claude_code="warning", skill_tool="warning"),
    "DYNAMIC_COMMAND_NOT_ALLOWED": _levels_row("off", claude_code="warning"),
    "INVISIBLE_CHARACTERS": _levels_row("warning"),
    "HIDDEN_COMMENT": _levels_row("warning"),
    "SECRET": _levels_row("error"),
    "ARGUMENTS_WITHOUT_HINT": _levels_row("off", claude_code="info", skill_tool="info"),
    "PLACEHOLDER_IN_CODE": _levels_row("off", claude_code="warning"),
    "UNKNOWN_SUBSTITUTION": _levels_row("off", claude_code="warning"),
    # --- files the skill points at (rules/files.py) ---
    # The guidance is the agentskills spec's; on the corpus every sampled finding was a deliberate
    # nested layout (docs/precision-rules.md), so other profiles stay quiet.
    "REFERENCE_TOO_DEEP": _levels_row("off", agentskills="hint"),
    # 25 % and 21 % actionable on the corpus (docs/precision-rules.md): hints, and only for the
    # targets that read bundled files by path (agentskills' progressive disclosure, Claude Code).
    "UNREFERENCED_FILE": _levels_row("off", agentskills="hint", claude_code="hint"),
    "BACKSLASH_PATH": _levels_row("warning"),
    "PERSONAL_PATH": _levels_row("info"),  # issue 11 audit: 4 of 6 actionable (examples, provenance notes)
    "MISSING_MENTIONED_FILE": _levels_row("warning"),
    "MISSING_SCRIPT": _levels_row("warning"),
    # Two audits of unseen repositories (15 each): 14 of 15 sampled hints were chains by design (an
    # index, a page that sends on to another), one was wrong, none asked for a change: as for
    # REFERENCE_TOO_DEEP, the agentskills profile (Anthropic's best practices) alone keeps it.
    "NESTED_REFERENCE": _levels_row("off", agentskills="hint"),
    "SCRIPT_NO_SHEBANG": _levels_row("warning"),
    "SCRIPT_NOT_EXECUTABLE": _levels_row("hint"),
    # --- Codex agents/openai.yaml (rules/codex_openai_yaml.py) ---
    "INVALID_OPENAI_YAML": _levels_row("warning", codex="warning"),
}


def _levels(harness: str) -> dict[str, str]:
    """``harness``'s column of RULE_LEVELS."""
    return {code: row[harness] for code, row in RULE_LEVELS.items()}


def _skill_tool_effects() -> dict[str, Effect]:
    # Spec 000 §3.4/§5.2: every error the tool reports keeps the skill out of the catalog.
    blocking = {"INVALID_FRONTMATTER", "NAME_MISMATCH", "IO_ERROR", "OUTSIDE_WORKSPACE", "SENSITIVE"}
    out = {code: Effect("skips", f"refuses it ({r.tool_error})", f"{_SPEC000} §3.4, §5.2")
           for code, r in RULES.items() if r.tool_error in blocking}
    out["UNKNOWN_FIELD"] = Effect("ignores", "preserves it but does not act on it", f"{_SPEC000} §4.4, §14")
    out["SKILL_FILE_CASE"] = Effect("skips", "looks for the exact name SKILL.md and never finds this file",
                                    f"{_SPEC000} §5.1")
    return out


SKILL_TOOL = Harness(
    rule_levels=_levels("skill-tool"),
    name="skill-tool", title="the skill tool", version="spec 000 v1", proof="source",
    summary="The cross-language skill tool of spec 000 (its TS and Rust reference implementations).",
    roots=(Root(".skills", "project", f"{_SPEC000} §5.1 (the session declares its roots; example)"),),
    skill_files=("SKILL.md",), depth=1,
    reads=SPEC_FIELDS + ("version", "argument-hint", "disable-model-invocation", "user-invocable", "arguments"),
    deferred=DEFERRED_FIELDS, unknown="preserves", any_root=True,
    unknown_note="'{key}' is not defined by the skill-tool spec; it is preserved but has no effect",
    name_rule="required; ASCII `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 64; must equal the folder (NAME_MISMATCH)",
    description_rule="required; at most 1,024 characters (INVALID_FRONTMATTER beyond)",
    listing="one entry per skill folder in a root whose SKILL.md opens with `---`, under the folder's name "
            "(lower root index wins); a skill it rejects is listed with no description and activating it "
            "returns the error (its reference registry; spec §5.2 says omitted)",
    listing_budget="none specified",
    arguments="string: $ARGUMENTS, $ARGUMENTS[N] (0-based), $N (1-based); object: ${name}, $ARGUMENTS = sorted k=v",
    hidden_by=(Flag("disable-model-invocation", "yaml-true", f"{_SPEC000} §4.4"),),
    effects=_skill_tool_effects(),
    sources=(_SPEC000, "NOTES.md §2 (reference implementation)"),
)

AGENTSKILLS = Harness(
    rule_levels=_levels("agentskills"),
    name="agentskills", title="skills-ref", version="skills-ref 0.1.1", proof="source",
    summary="The agentskills.io specification and its reference validator skills-ref (command `agentskills`).",
    roots=(),  # a validator: it reads the folder it is given, never a root of its own
    skill_files=("SKILL.md", "skill.md"), depth=1,
    reads=SPEC_FIELDS, unknown="rejects", any_root=True,
    unknown_note="unexpected field '{key}': the agentskills spec allows only name, description, license, "
                 "allowed-tools, metadata and compatibility",
    unicode_names=True, tools_form="string",
    name_rule="required; NFKC, lowercase Unicode letters, digits and hyphens, at most 64; must equal the folder",
    description_rule="required; at most 1,024 characters",
    listing="`to-prompt`: <available_skills> with <name>, <description>, <location> per skill",
    listing_budget="none",
    arguments="none (no skill tool)",
    effects={
        **_structure(_SKILLS_REF, _SKILLS_REF),
        **{code: Effect("rejects", "rejects it", _SKILLS_REF)
           for code in ("MISSING_FIELD", "EMPTY_FIELD", "TOO_LONG", "NAME_INVALID", "NAME_MISMATCH")},
        "UNKNOWN_FIELD": Effect("rejects", "rejects it (Unexpected fields in frontmatter)", _SKILLS_REF),
    },
    sources=(_SKILLS_REF, "docs: agentskills.io/specification"),
)

CLAUDE_CODE = Harness(
    rule_levels=_levels("claude-code"),
    name="claude-code", title="Claude Code", version="2.1.332", proof="captured",
    summary="Anthropic's Claude Code CLI (closed source; facts from captures of the npm release).",
    roots=(Root(".claude/skills", "project", f"{_CC} (does not read .agents/skills)"),
           Root("~/.claude/skills", "user", _CC)),
    wins=("~/.claude/skills", ".claude/skills"),
    wins_source=f"{_CC} case same-name-two-roots (the user's copy is listed, the project's not)",
    skill_files=("SKILL.md",), depth=1,
    reads=SPEC_FIELDS + CLAUDE_FIELDS,
    unknown_note="'{key}' is not a Claude Code skill field; Claude Code ignores it and never shows it to the model",
    free_arguments=True,
    name_rule="optional (the folder name is used); listed even when it differs from the folder "
              "(`- folder (name): …`) or is uppercase",
    description_rule="description + when_to_use (joined with ' - ') listed up to 1,535 characters + '…'; "
                     "< and > escaped, newlines become spaces",
    listing="inside <system-reminder>: `- name: description` lines",
    listing_budget="a share of the context window (skillListingBudgetFraction, about 1 %), counted in terminal "
                   "columns (a wide character 2, a zero-width one 0)",
    arguments="$ARGUMENTS, $ARGUMENTS[N] (0-based), $0 = first argument, $1 = second (shell-style split); "
              "$name of each name `arguments` declares (a list's strings, a string's words; a map names none) = "
              "the argument at its place, empty past the last (cases named-arguments*); "
              "${CLAUDE_SKILL_DIR}, ${CLAUDE_SESSION_ID}; no placeholder: `ARGUMENTS: <args>` appended",
    hidden_by=(Flag("disable-model-invocation", "string-true", f"{_CC} case claude-flag-spellings (26 spellings)"),),
    conditional_paths=f"{_CC} case conditional-paths (15 spellings; found by capture diff --real); an "
                      "activated skill's `@notes.txt` turns a `paths: ['*']` skill on (probe of capture diff "
                      "--real seed 6)",
    mismatch_listed_as="{folder} ({name})",  # capture: claude-code@2.1.332 case name-mismatch
    plugins=f"{_CC} probes plugin and plugin-names of capture diff (a plugin loaded with --plugin-dir)",
    bom=_bom("claude-code@2.1.332", "ignores"),
    follows_links=_links("claude-code@2.1.332"),
    last_duplicate_wins=f"{_CC} cases empty-and-duplicate-fields, invalid-yaml-kinds",
    non_string="js-string", non_string_source=f"{_CC} case non-string-values",
    quoted_retry=f"{_CC} (read from the release; 8,750 generated frontmatters agree on Bun 1.4.5)",
    effects={
        **_followed_link("claude-code@2.1.332"),
        **_structure(_CC, _names_case("claude-code@2.1.332")),
        "MISSING_FRONTMATTER": Effect("changes", "lists it with the first line of the body as its description",
                                      f"{_CC} case missing-fields", Severity.ERROR),
        "INVALID_FRONTMATTER": Effect("changes", "parses it again with each one-line value holding ': ' or a "
                                      "character YAML reserves quoted, else reads no field (unclosed: lists the "
                                      "first line)", f"{_CC} cases broken-frontmatter, invalid-yaml-kinds, "
                                      "invalid-yaml-retried", Severity.ERROR),
        "INVALID_FRONTMATTER:reserved": Effect("changes", "quotes the value and reads it as written",
                                               f"{_CC} case invalid-yaml-retried"),
        **{f"INVALID_FRONTMATTER:{kind}": Effect(
            "changes", "reads none of its fields: lists it with the first line of the body as its description",
            f"{_CC} case invalid-yaml-kinds", Severity.ERROR) for kind in ("colon-continued", "unclosed-quote")},
        **_colon("claude-code@2.1.332", "quotes the value and reads it as written"),
        "INVALID_TYPE:argument-hint": Effect("ignores", "lists and loads it all the same, the hint not in what "
                                             "the model sees", f"{_CC} case copilot-argument-hint (a flow list, a "
                                             "number)"),
        "INVALID_TYPE:when_to_use": Effect("changes", "lists it with the value as JavaScript writes it after the "
                                           "description (a list's items joined by ',')",
                                           f"{_CC} cases copilot-argument-hint, non-string-values"),
        **_sensitive("claude-code@2.1.332"),
        **_compatibility("claude-code@2.1.332"),
        "UNKNOWN_FIELD": Effect("ignores", "ignores it and never shows it to the model",
                                "anthropics/claude-code#13005"),
        "NAME_MISMATCH": Effect("changes", "lists it under the folder name (`- folder (name): …`)",
                                f"{_CC} case name-mismatch"),
        "NAME_INVALID": Effect("ignores", "lists the name as written", f"{_CC} case uppercase-name"),
        "MISSING_FIELD:name": Effect("ignores", "uses the folder name", "docs: code.claude.com skills (name optional)"),
        "TOO_LONG:description": Effect("changes", "lists 1,535 characters and '…'", f"{_CC} case long-description"),
    },
    facts=(
        Fact("dynamic context", "runs each `` !`command` `` (at a line start or after a space or tab, inside code "
             "fences too) and each `` ```! `` fence when the skill is invoked, in the session's working folder, "
             "after substituting $ARGUMENTS and ${CLAUDE_SKILL_DIR}; the output (stdout and stderr, or `(Bash "
             "completed with no output)`) replaces it in what the model reads. `a!`x``, `(!`x`)`, `! `x``, "
             "`!``x`` and `~~~!` fences stay text", f"{_CC} case dynamic-context"),
        Fact("dynamic context permission", "checks each command before running it: read-only ones (seen: echo, "
             "printf, ls, pwd, date, cat, head, wc, git log, git status) need no rule; others (seen: touch, mkdir, "
             "npm, a `>` redirection) need an allowed-tools Bash rule, else under -p the Skill tool fails with "
             "'Shell command permission check failed for pattern …' and the model gets none of the skill",
             f"{_CC} case dynamic-context-denied; single-command probes run with the rig (not stored)"),
        Fact("dynamic context failure", "fails the Skill tool ('Shell command failed for pattern …' with the "
             "command's stderr) when a command exits non-zero; the model gets none of the skill",
             f"{_CC} probes run with the rig (`ls` of a missing folder; not stored)"),
        Fact("commands", "lists the commands of `.claude/commands/**/*.md` after the skills (one named like a "
             "skill left out) and those of a plugin (plugin.json's `commands`, else its `commands/` folder) before "
             "its skills (a skill named like one left out), as skills are listed (description, for a project's "
             "command else its first body line; when_to_use), named by their path with `:` between folders "
             "(`a:b:c`); one hidden by disable-model-invocation, a plugin's without a description and a link to a "
             "file are left out; they share the listing budget; calling one hands over its body alone (its plugin's "
             "variables and the session's folder filled, `${CLAUDE_SKILL_DIR}` as written). skill-lsp's "
             "Claude Code catalog and preview list and send them so. Not modelled: a plugin's `workflows/*.js` "
             "(listed too), and a plugin whose `dependencies` are not installed (not loaded)",
             f"{_CC} probe commands of capture diff (tests/golden/probes); 409 plugins and project folders of 41 "
             "unseen repositories loaded with --plugin-dir"),
        Fact("skill names", "takes the folder name, a plugin's `plugin:folder` or a declared name (shown beside "
             "the folder or not, as `spaced name`) in its Skill tool, and names the skill as called in its result",
             f"{_CC} cases mention-names, same-name-paths; probe plugin-names"),
        Fact("unknown names", "answers a name it finds nothing by with `Unknown skill: x`, adding `Did you mean "
             "kit:x? Invoke it by that full name.` for the one plugin skill or command whose key ends in `:x`, else "
             "`Did you mean y?` for the first name at most two edits away with the fewest (the skills it loads, by "
             "declared name else folder, in listing order; then its commands, their aliases and its built-in "
             "skills); an empty name is `Invalid skill format: `",
             f"{_CC} probe unknown-names (821 calls); probes plugin-layouts, commands"),
        Fact("quoted values", "reads no field of a frontmatter whose quoted value runs onto a line not indented "
             "past its key, the closing quote's line included (Bun.YAML refuses it; one space or a tab more is "
             "taken): the folder names the skill and the first body line describes it",
             f"{_CC} case quoted-continuation (found by capture diff --real, seed 11)"),
    ),
    sources=(_CC, "docs: code.claude.com/docs/en/skills", "anthropics/claude-code#34063, #13005"),
)

CODEX = Harness(
    rule_levels=_levels("codex"),
    name="codex", title="Codex", version="0.171.0", proof="captured",
    summary="OpenAI's Codex CLI (codex-rs).",
    roots=(Root(".agents/skills", "project", f"{_CODEX_SRC} repo_agents_skill_roots",
                "every folder from the project root (.git) down to the working folder"),
           Root(".codex/skills", "project", f"{_CODEX_SRC} skill_roots_from_layer_stack_inner (project config layer)"),
           Root("~/.agents/skills", "user", f"{_CODEX_SRC} ($HOME/.agents/skills)"),
           Root("~/.codex/skills", "user", f"{_CODEX_SRC} ($CODEX_HOME/skills, deprecated)"),
           Root("~/.codex/skills/.system", "system", f"{_CODEX_SRC} system_cache_root_dir"),
           Root("/etc/codex/skills", "admin", _CODEX_SRC)),
    every_copy="capture: codex@0.171.0 case same-name-two-roots (the user's and the project's copy both listed)",
    skill_files=("SKILL.md",), depth=6,
    reads=("name", "description", "metadata"),
    unknown_note="Codex ignores '{key}'",
    name_rule="optional (the folder name is used); whitespace collapsed; at most 64; never compared with the "
              "folder; uppercase kept",
    description_rule="whitespace collapsed to single spaces; over 1,024 characters listed as 1,021 + '...'",
    listing="<skills_instructions>: `### Skill roots` table, then `- name: description (file: rN/…/SKILL.md)`, "
            "ordered by scope (system, admin, repo, user) then name; a skill whose agents/openai.yaml sets "
            "policy.allow_implicit_invocation: false is left out (a `$name` mention still loads it; case "
            "codex-implicit-invocation)",
    listing_budget="a share of the model's context window",
    arguments="none: a `$name` mention injects the whole SKILL.md",
    bom=_bom("codex@0.171.0", "skips"),
    follows_links=_links("codex@0.171.0"),
    yaml11_breaks=_yaml11("codex@0.171.0"),
    libyaml="capture: codex@0.171.0 differential tester, seed 2026 (its binary holds serde_yaml 0.9.34 on "
            "unsafe-libyaml 0.2.11: tabs between words listed, a block scalar line opening with a tab left out)",
    non_string="text", non_string_source=f"{_CODEX} case non-string-values",
    scalar_repair="openai/codex codex-rs/core-skills/src/loader.rs repair_frontmatter_scalar_fields; capture: "
                  "codex@0.171.0 case invalid-yaml-kinds and the differential tester, seed 2026",
    effects={
        **_followed_link("codex@0.171.0"),
        **_structure(_CODEX_SRC, _names_case("codex@0.171.0")),
        **_yaml_kinds("codex@0.171.0", ("colon-misread", "unclosed-flow", "reserved"),
                      note="quotes the value and parses the YAML again (when that fails too, it leaves the "
                           "skill out)"),
        **_colon("codex@0.171.0", "quotes the value and reads it as written"),
        **_sensitive("codex@0.171.0"),
        **_compatibility("codex@0.171.0"),
        "UNKNOWN_FIELD": Effect("ignores", "ignores it", f"{_CODEX_SRC} SkillFrontmatter"),
        "INVALID_TYPE:description": Effect("skips", "leaves it out", f"{_CODEX} case broken-frontmatter"),
        "EMPTY_FIELD:description": Effect("skips", "leaves it out", f"{_CODEX} case missing-fields"),
        **_duplicate_keys("leaves it out", f"{_CODEX} case empty-and-duplicate-fields"),
        "NAME_MISMATCH": Effect("ignores", "lists it under its frontmatter name", f"{_CODEX} case name-mismatch"),
        "NAME_INVALID": Effect("ignores", "lists the name as written", f"{_CODEX} case uppercase-name"),
        "MISSING_FIELD:name": Effect("ignores", "uses the folder name", f"{_CODEX_SRC} default_skill_name"),
        "MISSING_FIELD:description": Effect("skips", "leaves it out", f"{_CODEX_SRC} validate_len"),
        "TOO_LONG:name": Effect("skips", "leaves it out", f"{_CODEX_SRC} validate_len (MAX_NAME_LEN 64)"),
        "TOO_LONG:description": Effect("changes", "lists 1,021 characters and '...'", f"{_CODEX} case long-description"),
    },
    sources=(_CODEX, _CODEX_SRC, "openai/codex codex-rs/core-skills/src/render.rs"),
)

OPENCODE = Harness(
    rule_levels=_levels("opencode"),
    name="opencode", title="OpenCode", version="1.18.33", proof="captured",
    summary="OpenCode (opencode-ai).",
    roots=(Root(".opencode/skills", "project", f"{_OPENCODE_SRC} OPENCODE_SKILL_PATTERN (config folders)"),
           Root(".opencode/skill", "project", f"{_OPENCODE_SRC} OPENCODE_SKILL_PATTERN"),
           Root(".claude/skills", "project", f"{_OPENCODE_SRC} EXTERNAL_DIRS", "from the working folder up to the worktree"),
           Root(".agents/skills", "project", f"{_OPENCODE_SRC} EXTERNAL_DIRS", "from the working folder up to the worktree"),
           Root("~/.config/opencode/skills", "user", f"{_OPENCODE_SRC} config.directories()"),
           Root("~/.claude/skills", "user", f"{_OPENCODE_SRC} EXTERNAL_DIRS"),
           Root("~/.agents/skills", "user", f"{_OPENCODE_SRC} EXTERNAL_DIRS")),
    skill_files=("SKILL.md",), depth=64,
    reads=("name", "description"),
    unknown_note="OpenCode ignores '{key}'",
    name_rule="required string; never compared with the folder; of two skills with the same name one is kept, "
              "which one changing from run to run",
    description_rule="required string; no length limit",
    listing="system prompt: two prose lines, then <available_skills> with <skill><name/><description/><location/> "
            "per skill, ordered with localeCompare",
    listing_budget="none",
    arguments="none: the skill tool takes only a name; $ARGUMENTS reaches the model unchanged",
    bom=_bom("opencode@1.18.33", "ignores"),
    follows_links=_links("opencode@1.18.33"),
    non_string="strings", non_string_source="capture: opencode@1.18.33 case non-string-values", yaml_dates=True,
    # the differential tester, seed 2026: its skill tool loads by name a skill its catalog leaves out
    tool_loads=("MISSING_FIELD:description",),
    facts=(
        Fact(SAME_NAME, "keeps one of two skills with the same name, and which one changes from run to run (it "
             "reads its roots in parallel; a later one it reads replaces the earlier)",
             "the differential tester: the same workspace run twice by its shrinker (seed 2026; "
             "capture/diff/FINDINGS.md)"),
    ),
    matter_retry="opencode 1.18.33 ConfigMarkdown.parse and sanitize with gray-matter 4.0.3 and js-yaml 3 safeLoad, "
                 "read in the release's bundle (bin/opencode); its reader run in node on generated frontmatters "
                 "(tests/engine/test_opencode_reading.py) and the differential tester, seed 2026",
    effects={
        **_followed_link("opencode@1.18.33"),
        **_structure(_OPENCODE_SRC, _names_case("opencode@1.18.33")),
        **_yaml_kinds("opencode@1.18.33", ("colon-misread", "tab")),
        **_colon("opencode@1.18.33", "reads its `key: value` lines all the same"),
        **_sensitive("opencode@1.18.33"),
        **_compatibility("opencode@1.18.33"),
        "UNKNOWN_FIELD": Effect("ignores", "ignores it", f"{_OPENCODE_SRC} Info.pick(name, description)"),
        **{f"INVALID_TYPE:{key}": Effect("skips", "leaves it out (name and description must be strings)",
                                         "capture: opencode@1.18.33 case broken-frontmatter")
           for key in ("name", "description")},
        "EMPTY_FIELD:name": Effect("changes", "lists it with an empty <name>",
                                   "capture: opencode@1.18.33 case empty-and-duplicate-fields"),
        **_duplicate_keys("leaves it out", "capture: opencode@1.18.33 cases empty-and-duplicate-fields, "
                          "gen-opencode-skill-listing-invalid-yaml-duplicate-key"),
        "NAME_MISMATCH": Effect("ignores", "lists it under its frontmatter name", f"{_OPENCODE_SRC} add()"),
        "NAME_INVALID": Effect("ignores", "lists the name as written", f"{_OPENCODE_SRC} z.string()"),
        "TOO_LONG": Effect("ignores", "has no length limit", f"{_OPENCODE_SRC} z.string()"),
        "MISSING_FIELD": Effect("skips", "leaves it out", f"{_OPENCODE_SRC} safeParse"),
    },
    sources=(_OPENCODE_SRC, "capture: opencode@1.18.33"),
)

GEMINI = Harness(
    rule_levels=_levels("gemini"),
    name="gemini", title="Gemini CLI", version="@google/gemini-cli-core 0.61.0", proof="captured",
    summary="Google's Gemini CLI (skills from @google/gemini-cli-core).",
    roots=(Root(".gemini/skills", "project", f"{_GEMINI_SRC} getProjectSkillsDir", "trusted folders only"),
           Root(".agents/skills", "project", f"{_GEMINI_SRC} getProjectAgentSkillsDir (wins over .gemini/skills)",
                "trusted folders only"),
           Root("~/.gemini/skills", "user", f"{_GEMINI_SRC} getUserSkillsDir"),
           Root("~/.agents/skills", "user", f"{_GEMINI_SRC} getUserAgentSkillsDir")),
    wins=(".agents/skills", ".gemini/skills", "~/.agents/skills", "~/.gemini/skills"),
    wins_source="capture: gemini@0.61.0 case same-name-two-roots (roots read user then project, .gemini/skills then "
                ".agents/skills; a later root's copy replaces an earlier one)",
    skill_files=("SKILL.md",), depth=1,
    reads=("name", "description"),
    unknown_note="Gemini CLI ignores '{key}'",
    name_rule="required string; `: \\ / < > * ? \" |` replaced by '-'; never compared with the folder; "
              "a later root replaces an earlier skill of the same name",
    description_rule="required string; no length limit",
    listing="`# Available Agent Skills` prose, then <available_skills> with indented <skill> blocks",
    listing_budget="none",
    arguments="none: activate_skill takes only a name",
    bom=_bom("gemini@0.61.0", "skips"),
    follows_links=_links("gemini@0.61.0"),
    last_duplicate_wins="capture: gemini@0.61.0 cases empty-and-duplicate-fields, invalid-yaml-kinds",
    non_string="line", non_string_source="capture: gemini@0.61.0 case non-string-values",
    line_reader="gemini-cli-core 0.61.0 dist/src/skills/skillLoader.js parseFrontmatter, read in the release; "
                "49,998 of 50,000 generated SKILL.md files read as its loader reads them in node (js-yaml 4.1.1)",
    effects={
        **_followed_link("gemini@0.61.0"),
        **_structure(_GEMINI_SRC, _names_case("gemini@0.61.0")),
        **_lenient(f"{_GEMINI_SRC} parseSimpleFrontmatter; capture: gemini@0.61.0 case broken-frontmatter"),
        **_colon("gemini@0.61.0", "reads its `key: value` lines all the same"),
        "EMPTY_FIELD:name": Effect("changes", "lists it with an empty <name>",
                                   "capture: gemini@0.61.0 case empty-and-duplicate-fields"),
        **_sensitive("gemini@0.61.0"),
        **_compatibility("gemini@0.61.0"),
        "UNKNOWN_FIELD": Effect("ignores", "ignores it", f"{_GEMINI_SRC} parseFrontmatter"),
        "NAME_MISMATCH": Effect("ignores", "lists it under its frontmatter name", f"{_GEMINI_SRC} loadSkillFromFile"),
        "NAME_INVALID": Effect("changes", "lists the name with : \\ / < > * ? \" | replaced by '-'",
                               f"{_GEMINI_SRC} sanitizedName"),
        "TOO_LONG": Effect("ignores", "has no length limit", f"{_GEMINI_SRC} loadSkillFromFile"),
        "MISSING_FIELD": Effect("skips", "leaves it out", f"{_GEMINI_SRC} parseFrontmatter"),
    },
    sources=(_GEMINI_SRC, "capture: gemini@0.61.0 (gemini-cli-core called in node)"),
)

#: GitHub Copilot CLI 1.0.102: the name it lists (the folder's when none is given), trimmed, must match this
#: in full, else the skill is not loaded (Harness.name_pattern; capture: copilot@1.0.102 probe names).
COPILOT_NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.: -]{0,63}"
#: The folders its activation's related-files walk does not enter, at any depth, by exact name (capture:
#: copilot@1.0.102 probe related-files: `Build`, `lib`, `tmp`, `.github` are entered).
COPILOT_SKIPPED_FOLDERS: tuple[str, ...] = (
    ".git", "node_modules", "dist", "build", "out", ".cache", "coverage", ".nyc_output", "__pycache__", "target",
    "bin", "obj", ".venv", "venv", "vendor", ".next", ".nuxt")
#: A folder below the skill folder with more direct entries than this (files, folders, links and skipped ones
#: all count) is summarized, not entered (probes related-files-2: 50 entered, 51 and 52 summarized).
COPILOT_SUMMARIZED_OVER = 50
#: Files listed at most; a 101st found adds `...and more files (listing truncated)` (probe: 100 files, no line).
COPILOT_RELATED_FILES_CAP = 100
#: Folders below the skill folder are entered down to this depth (case deep-folders: files of d1/…/d10
#: listed, of d11 and below not; capture diff --real: a GitLab include cache 13 folders deep).
COPILOT_MAX_DEPTH = 10

COPILOT = Harness(
    rule_levels=_levels("copilot"),
    name="copilot", title="GitHub Copilot CLI", version="1.0.102", proof="captured",
    summary="GitHub Copilot CLI (@github/copilot); VS Code agent mode is the `vscode` target.",
    # The first copy of a name wins in this order (probe: one name in every root; .github, then .agents, then
    # .claude, then the user roots).
    roots=(Root(".github/skills", "project", f"{_COPILOT} probe precedence (its copy of a name wins)"),
           Root(".agents/skills", "project", f"{_COPILOT} probe precedence (before .claude/skills)"),
           Root(".claude/skills", "project", f"{_COPILOT} probe precedence (before the user roots)"),
           Root("~/.copilot/skills", "user", _COPILOT),
           Root("~/.agents/skills", "user", f"{_COPILOT} (not ~/.claude/skills)")),
    wins=(".github/skills", ".agents/skills", ".claude/skills", "~/.copilot/skills", "~/.agents/skills"),
    wins_source=f"{_COPILOT} probe precedence (the roots above, in their order)",
    skill_files=("SKILL.md",), depth=64, into_skills=False,  # capture: copilot@1.0.102 case nested-folders
    reads=("name", "description", "license", "compatibility", "metadata", "argument-hint", "user-invocable",
           "disable-model-invocation", "context", "agents", "hooks"),
    unknown_note="'{key}' is not read by GitHub Copilot; it ignores it",
    name_rule="optional (the folder name is used); a string; trimmed, it must match "
              "`[A-Za-z0-9][A-Za-z0-9_.: -]*` and be at most 64 characters (the folder name too), else the skill "
              "is not loaded; each run of spaces is listed as '-'; never compared with the folder; the first copy "
              "of a name wins (.github, .agents, .claude, then ~/.copilot, ~/.agents)",
    description_rule="optional (the first three body lines that are not headings are used); a string of at "
                     "most 1,024 UTF-16 code units, else the skill is not loaded",
    listing="<available_skills> with <skill><name/><description/><location>project|user</location></skill>; "
            "past the budget the rest are named on one `Additional skills available` line",
    listing_budget="about 15,000 characters of <skill> blocks, built-in skills (listed last) included",
    arguments="none: the skill tool takes only a name; the body is not substituted",
    hidden_by=(Flag("disable-model-invocation", "not-false", f"{_COPILOT} case copilot-flag-spellings (26 spellings)"),),
    bom=_bom("copilot@1.0.102", "ignores"),
    follows_links=_links("copilot@1.0.102"),
    yaml11_breaks=_yaml11("copilot@1.0.102"),
    libyaml=f"{_COPILOT} probe tabs (22 frontmatters with tabs: listed or left out as PyYAML's libyaml 0.2.6 "
            "binding parses them, every one)",
    non_string="strings", non_string_source=f"{_COPILOT} case non-string-values",
    name_pattern=COPILOT_NAME_PATTERN,
    name_pattern_source=f"{_COPILOT} probe names (21 names: `_x`, `-x`, `.x`, `x!y`, `x/y`, `x@y`, a tab or a "
                        "no-break space inside, é, 65 characters and the folder names `_fold` and `ümlaut` left "
                        "out; `a b`, `x_y.z:w`, `9nine`, 64 characters, surrounding spaces and tabs listed)",
    utf16_lengths=f"{_COPILOT} probe description-utf16 (1,000 x and 12 emoji listed, 13 emoji left out; 1,024 é "
                  "listed)",
    last_newline=f"{_COPILOT}: the differential tester (`|`, `|+`, `>`, `>-` last and before another key; a "
                 "1,024-character `|` block running to `---` listed, held-out seed 9001)",
    effects={
        **_followed_link("copilot@1.0.102"),
        **_structure(f"{_COPILOT} case broken-frontmatter", _names_case("copilot@1.0.102")),
        "INVALID_FRONTMATTER:not-mapping": Effect("changes", "reads no fields from it: lists it under the folder name",
                                                  f"{_COPILOT} case invalid-yaml-kinds", Severity.ERROR),
        **_sensitive("copilot@1.0.102"),
        **_compatibility("copilot@1.0.102"),
        "UNKNOWN_FIELD": Effect("ignores", "ignores it", f"{_COPILOT} case missing-fields"),
        "NAME_MISMATCH": Effect("ignores", "lists it under its frontmatter name", f"{_COPILOT} case name-mismatch"),
        "NAME_INVALID": Effect("ignores", "lists a name of ASCII letters, digits, `_ . : -` and spaces as written "
                               "(each run of spaces as '-'); a name with any other character is not loaded",
                               f"{_COPILOT} case invalid-names; probe names"),
        "NAME_INVALID:name-pattern": Effect("skips", "does not load it: its name holds a character other than ASCII "
                                            "letters, digits, `_ . : -` and spaces, or starts with one of `_ . : -`",
                                            f"{_COPILOT} probe names; case invalid-names"),
        "TOO_LONG:name": Effect("skips", "does not load it (over 64 characters once trimmed)",
                                f"{_COPILOT} probe names"),
        "INVALID_TYPE:user-invocable": Effect("skips", "does not load it (user-invocable must be a YAML boolean)",
                                              f"{_COPILOT} probe user-invocable (true, True, false, FALSE loaded; "
                                              "'true', yes, on, 1, ~, \"\", [x] not)"),
        "INVALID_VALUE:user-invocable": Effect("skips", "does not load it (user-invocable must be a YAML boolean)",
                                               f"{_COPILOT} probe user-invocable"),
        "INVALID_TYPE:argument-hint": Effect("skips", "does not load it (argument-hint must be a string)",
                                             f"{_COPILOT} case copilot-argument-hint (a flow list, a number; "
                                             "found by capture diff --real)"),
        "INVALID_TYPE:allowed-tools": Effect("skips", "does not load it (allowed-tools must be a string or a list "
                                             "of strings; no value, a number, a boolean, a map or a list holding "
                                             "one of them is not)", f"{_COPILOT} case allowed-tools-types (found by "
                                             "capture diff --real)"),
        "MISSING_FIELD:name": Effect("ignores", "uses the folder name", f"{_COPILOT} case missing-fields"),
        "MISSING_FIELD:description": Effect("changes", "lists the first three body lines that are not headings "
                                            "as its description", f"{_COPILOT} cases missing-fields, listing-fallbacks"),
        "EMPTY_FIELD:name": Effect("skips", "does not load it", f"{_COPILOT} case empty-and-duplicate-fields"),
        **_duplicate_keys("does not load it", f"{_COPILOT} cases empty-and-duplicate-fields, "
                          "gen-copilot-skill-listing-invalid-yaml-duplicate-key"),
        "INVALID_TYPE:name": Effect("skips", "does not load it (name and description must be strings)",
                                    f"{_COPILOT} case broken-frontmatter"),
        "INVALID_TYPE:description": Effect("skips", "does not load it (name and description must be strings)",
                                           f"{_COPILOT} case broken-frontmatter"),
        "TOO_LONG:description": Effect("skips", "does not load it (over 1,024 UTF-16 code units)",
                                       f"{_COPILOT} case long-description-1100; probe description-utf16"),
    },
    facts=(
        Fact("related files", "lists the skill folder's files in an activation, not SKILL.md: a walk in directory-"
             "read order that skips the folders " + ", ".join(COPILOT_SKIPPED_FOLDERS) + ", symbolic links and "
             f"any-case skill.md; a folder of more than {COPILOT_SUMMARIZED_OVER} entries is not entered but "
             "listed under `Summarized directories:` with its count (`(1,825 items)`: thousands separated by commas); after "
             f"{COPILOT_RELATED_FILES_CAP} files it stops (`...and more files (listing truncated)`); folders "
             f"more than {COPILOT_MAX_DEPTH} deep are not entered; then sorted by path components",
             f"{_COPILOT} probes related-files, related-files-2, item-counts, case deep-folders"),
        Fact("activation body", "hands over the body with each CRLF as LF (a lone CR is kept)",
             f"{_COPILOT} probe related-files"),
        Fact(SURROGATE_ESCAPES, "does not load a skill whose frontmatter holds a `\\u` or `\\U` escape of a "
             "surrogate code point (U+D800 to U+DFFF) in a double-quoted scalar, in any value or key, a pair such "
             "as `\"\\ud83c\\udfdb\"` too: its YAML parser (libyaml) refuses the escape; `\"\\U0001F3DB\"`, the "
             "character itself and a single-quoted, plain or block value load",
             f"{_COPILOT} case copilot-surrogate-escapes (found by capture diff --real)"),
    ),
    sources=(_COPILOT,),
)

def _vsc(action: str, note: str, source: str, severity: Severity | None = None) -> Effect:
    return Effect(action, note + " (documented, not verified)", source, severity)


VSCODE = Harness(
    rule_levels=_levels("vscode"),
    name="vscode", title="VS Code agent mode", version=f"microsoft/vscode@{VSCODE_COMMIT[:10]}", proof="source",
    verified=False,
    summary="GitHub Copilot in VS Code (agent mode) and the checks VS Code's editor runs on a SKILL.md; read in "
            f"VS Code's source at commit {VSCODE_COMMIT}, not run (it needs a signed-in Copilot Chat).",
    roots=(Root(".github/skills", "project", _VSC_ROOTS),
           Root(".agents/skills", "project", _VSC_ROOTS),
           Root(".claude/skills", "project", _VSC_ROOTS),
           Root("~/.copilot/skills", "user", _VSC_ROOTS),
           Root("~/.agents/skills", "user", _VSC_ROOTS),
           Root("~/.claude/skills", "user", f"{_VSC_ROOTS} (read here, unlike the Copilot CLI)")),
    skill_files=("SKILL.md",), depth=1,
    reads=("name", "description", "argument-hint", "user-invocable", "disable-model-invocation", "license",
           "compatibility", "metadata", "context"),
    flags=("allowed-tools",), unknown="flags",
    unknown_note="'{key}' is not a VS Code skill attribute: VS Code's editor fades it as not supported and agent "
                 "mode ignores it (documented, not verified)",
    name_rule="optional (the folder name is used; editor warning); `<…>` tags removed, cut to 64 characters; "
              "listed under the folder name when it differs (editor warning); editor error for characters other "
              "than a-z, 0-9 and '-'; the first copy of a name wins (workspace, personal, plugin, extension)",
    description_rule="optional for loading (editor warning when missing, error when empty or not a string); "
                     "`<…>` tags removed; cut to 1,024 characters",
    listing="not verified (the request that lists skills needs a signed-in Copilot Chat)",
    listing_budget="not verified",
    arguments="not verified (`argument-hint` is shown in the / menu)",
    hidden_by=(Flag("disable-model-invocation", "yaml-true", _VSC_ATTRS),),
    mismatch_listed_as="{folder}",
    effects={
        "UNKNOWN_FIELD": _vsc("ignores", "ignores it; its editor fades it as not supported (a hint)",
                              f"{_VSC_CHECK} checkForInvalidArguments; {_VSC_ATTRS}"),
        "NAME_MISMATCH": _vsc("changes", "lists it under the folder name; its editor warns that the name should "
                              "match the folder", f"{_VSC_LOAD}; {_VSC_CHECK} validateSkillAttributes"),
        "NAME_INVALID": _vsc("warns", "shows an editor error for characters other than a-z, 0-9 and '-' (hyphen "
                             "placement is not checked)", f"{_VSC_CHECK} validateSkillAttributes; "
                             "VALID_SKILL_NAME_REGEX /^[a-z0-9-]+$/ of promptFileLocations.ts, read in a built copy "
                             "of VS Code (that file is not stored at this commit)", Severity.ERROR),
        "MISSING_FIELD:name": _vsc("warns", "uses the folder name; its editor warns 'Skill should provide a name'",
                                   f"{_VSC_LOAD}; {_VSC_CHECK} validateSkillAttributes"),
        "MISSING_FIELD:description": _vsc("warns", "lists it without a description; its editor warns 'Skill "
                                          "should provide a description'",
                                          f"{_VSC_LOAD}; {_VSC_CHECK} validateSkillAttributes"),
        "EMPTY_FIELD": _vsc("warns", "shows an editor error (the attribute must not be empty)",
                            f"{_VSC_CHECK} validateName, validateDescription", Severity.ERROR),
        "INVALID_TYPE:name": _vsc("warns", "shows an editor error (the name must be a string)",
                                  f"{_VSC_CHECK} validateName", Severity.ERROR),
        "INVALID_TYPE:description": _vsc("warns", "shows an editor error (the description must be a string)",
                                         f"{_VSC_CHECK} validateDescription", Severity.ERROR),
        "TOO_LONG:name": _vsc("changes", "cuts it to 64 characters (then lists the folder name when they differ)",
                              f"{_VSC_LOAD} truncateAgentSkillName"),
        "TOO_LONG:description": _vsc("changes", "lists the first 1,024 characters",
                                     f"{_VSC_LOAD} truncateAgentSkillDescription"),
    },
    facts=(
        Fact("context: fork", "its editor warns unless the setting github.copilot.chat.skillTool.enabled is on "
             "(\"The 'context: fork' attribute requires the skill tool to be enabled\"); with it, the skill runs "
             "in a subagent", f"{_VSC_CHECK} validateSkillAttributes; {_VSC_ATTRS} (context)", _READ_NOT_RUN),
        Fact("editor diagnostics", "checks every SKILL.md it opens: an attribute outside argument-hint, "
             "compatibility, context, description, disable-model-invocation, license, metadata, name and "
             "user-invocable is a faded hint (allowed-tools, model and the other Claude Code fields included); "
             "user-invocable and disable-model-invocation must be an unquoted true or false (error); an empty "
             "argument-hint is a warning; a missing description with user-invocable: false or "
             "disable-model-invocation: false is an error", f"{_VSC_CHECK}; {_VSC_ATTRS}", _READ_NOT_RUN),
        Fact("tags in name and description", "removes `<…>` tags from the name and the description before "
             "listing", f"{_VSC_LOAD} sanitizeAgentSkillText", _READ_NOT_RUN),
        Fact("same name twice", "keeps the first skill of a name: workspace, then personal, plugin and extension "
             "skills", f"{_VSC_LOAD} getSkillPriority", _READ_NOT_RUN),
        Fact("agent skills setting", "finds no skills at all while its agent skills setting (PromptsConfig."
             "USE_AGENT_SKILLS) is off", _VSC + "service/promptsServiceImpl.ts findAgentSkills", _READ_NOT_RUN),
    ),
    sources=(_VSC_CHECK, _VSC_ATTRS, _VSC_LOAD, _VSC_ROOTS),
)

DSH = Harness(
    rule_levels=_levels("dsh"),
    name="dsh", title="DeepSeek Harness", version="@deepseek-ai/dsh-skill", proof="source",
    summary="DeepSeek Harness (DSH) skill-filesystem and skill tool (spec 001).",
    roots=(Root(".dsh/skills", "project", f"{_DSH} rank 100"),
           Root(".agents/skills", "project", f"{_DSH} rank 200"),
           Root("~/.dsh/skills", "user", f"{_DSH} rank 400"),
           Root("~/.agents/skills", "user", f"{_DSH} rank 500")),
    wins=(".dsh/skills", ".agents/skills", "~/.dsh/skills", "~/.agents/skills"),
    wins_source=f"{_DSH}: root ranks, lower wins (100 .dsh/skills, 200 .agents/skills, 400 ~/.dsh/skills, "
                "500 ~/.agents/skills)",
    skill_files=("SKILL.md",), depth=1,
    reads=("name", "description", "metadata", "disable-model-invocation", "user-invocable", "whenToUse", "license",
           "compatibility", "allowed-tools"),
    unknown_note="'{key}' is ignored by DeepSeek Harness",
    string_booleans=True,
    name_rule="required; ASCII kebab-case; never compared with the folder",
    description_rule="required; catalog cuts to catalogDescriptionMaxLength (default 500) ending in '...'",
    listing="<system-reminder> with <available_skills> and ``- `name`: description`` lines, sorted",
    listing_budget="per description (catalogDescriptionMaxLength, default 500)",
    arguments="none",
    hidden_by=(Flag("disable-model-invocation", "yaml-true", _DSH),),
    effects={
        **_structure(_DSH, _DSH),
        "UNKNOWN_FIELD": Effect("ignores", "ignores it", _DSH),
        "CAMELCASE_FIELD": Effect("skips", "rejects the skill (invalid invocation frontmatter)", _DSH),
        "NAME_MISMATCH": Effect("ignores", "does not compare the name with the folder", _DSH),
        "NAME_INVALID": Effect("skips", "leaves it out (invalid skill name)", _DSH),
        "MISSING_FIELD": Effect("skips", "leaves it out (frontmatter requires name and description)", _DSH),
        "EMPTY_FIELD": Effect("skips", "leaves it out (frontmatter requires name and description)", _DSH),
    },
    sources=(_DSH, "spec 001 (001_*.txt)"),
)

GOOSE = Harness(
    rule_levels=_levels("goose"),
    name="goose", title="Goose", version="", proof="documented",
    summary="Block's goose agent (documented only).",
    roots=(Root(".goose/skills", "project", "docs: dyoshikawa/rulesync#1115"),
           Root(".agents/skills", "project", "docs: dyoshikawa/rulesync#1115"),
           Root(".claude/skills", "project", "docs: block/goose using-skills.md"),
           Root("~/.claude/skills", "user", "docs: block/goose using-skills.md"),
           Root("~/.config/agents/skills", "user", "docs: block/goose using-skills.md"),
           Root("~/.config/goose/skills", "user", "docs: block/goose using-skills.md")),
    skill_files=("SKILL.md",), depth=1,
    reads=("name", "description"),
    unknown_note="Goose ignores '{key}'",
    name_rule="documented: must match the folder", description_rule="documented: required",
    listing="not verified", listing_budget="not verified", arguments="not verified",
    sources=("docs: block/goose documentation/docs/guides/context-engineering/using-skills.md",),
)

OPENHANDS = Harness(
    rule_levels=_levels("openhands"),
    name="openhands", title="OpenHands", version="", proof="documented",
    summary="OpenHands (AgentSkills with optional keyword triggers; documented only).",
    roots=(Root(".agents/skills", "project", "docs: agentskills.io cross-client path; docs.openhands.dev/overview/skills"),),
    skill_files=("SKILL.md",), depth=1,
    reads=("name", "description", "triggers"),
    unknown_note="OpenHands ignores '{key}'",
    name_rule="documented: agentskills rules", description_rule="documented: required",
    listing="documented: an available-skills catalog of names and descriptions",
    listing_budget="not verified", arguments="not verified",
    sources=("docs: docs.openhands.dev/overview/skills",),
)

HARNESSES: dict[str, Harness] = {
    h.name: h for h in (SKILL_TOOL, AGENTSKILLS, CLAUDE_CODE, CODEX, OPENCODE, GEMINI, COPILOT, VSCODE, DSH, GOOSE,
                        OPENHANDS)
}


# Built-in skills each captured release lists beside the user's, as numbers only (their text is
# never stored): they take part of the listing budget. From tests/golden/harness/<h>@<v>/builtins.json.
#: Codex 0.171.0 system skills: (name, description characters, (index, UTF-8 width) of multi-byte ones).
CODEX_BUILTINS: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...] = (
    ("imagegen", 570, ()),
    ("openai-docs", 624, ()),
    ("skill-creator", 106, ()),
    ("skill-installer", 225, ()),
)
#: GitHub Copilot CLI 1.0.102 built-ins, listed after the user's skills: (name, <skill> block characters).
COPILOT_BUILTINS: tuple[tuple[str, int], ...] = (
    ("customize-cloud-agent", 443),
    ("github-pr-media", 324),
)
#: Names of Claude Code 2.1.332's own commands: a skill declaring one is listed under its folder name
#: alone (the release shows `- folder (name)` only when looking the name up finds that skill). Found
#: by two probes of the release: claude-reserved-names (33 hidden of 40 tried) and
#: claude-command-names (40 hidden of 78 other command names its bundle and documentation give; the others are
#: commands it does not enable here). A command the bundle names in another form is not known.
CLAUDE_CODE_COMMAND_NAMES = frozenset({
    "help", "clear", "compact", "config", "doctor", "login", "memory", "model", "permissions", "status", "mcp",
    "agents", "hooks", "resume", "export", "exit", "context", "usage", "ide", "release-notes", "add-dir",
    "statusline", "rewind", "output-style", "batch", "debug", "insights", "tasks", "plugin", "skills", "theme",
    "feedback", "terminal-setup",
    # claude-command-names
    "auto-mode-setup", "autocompact", "background", "branch", "btw", "bug", "cd", "color", "copy", "diff",
    "effort", "fast", "focus", "fork", "goal", "heapdump", "init", "keybindings", "list-agents", "logout",
    "mobile", "passes", "plan", "powerup", "pro-trial-expired", "radio", "recap", "reload-plugins",
    "reload-skills", "rename", "scroll-speed", "setup-bedrock", "setup-vertex", "stickers", "subtask",
    "team-onboarding", "tui", "workflow-launch-exec", "workflows", "sandbox"})
#: What Claude Code 2.1.332's Skill tool may suggest for a name it does not know, after the
#: project's skills: its commands, their aliases and its built-in skills, in the order it tries
#: them (probe unknown-names: each name with a `9` after it, and for each two that a name can be as
#: near to, one such name; the order holds all 599 answers). The first fewest edits away wins.
CLAUDE_CODE_SUGGESTED: tuple[str, ...] = (
    "add-dir", "agents", "allowed-tools", "android", "auto-mode-setup", "autocompact", "background", "batch",
    "checkpoint", "checkup", "claude-api", "code-review", "compact", "dataviz", "debug", "doctor", "feedback",
    "fewer-permission-prompts", "heapdump", "keybindings", "keybindings-help", "list-agents", "loop",
    "marketplace", "output-style", "permissions", "plugin-authoring", "powerup", "pro-trial-expired",
    "release-notes", "reload-plugins", "reload-skills", "review", "run", "branch", "fork", "btw", "cd", "clear",
    "color", "config", "context", "continue", "effort", "reset", "new", "copy", "diff", "bg", "exit", "memory",
    "quit", "fast", "focus", "help", "ide", "init", "insights", "mcp", "ios", "mobile", "model", "plugin",
    "plugins", "rename", "name", "resume", "rewind", "recap", "scroll-speed", "security-review", "settings",
    "setup-bedrock", "setup-vertex", "simplify", "skills", "stickers", "subtask", "status", "statusline",
    "team-onboarding", "terminal-setup", "theme", "tui", "bug", "undo", "cost", "export", "sandbox",
    "update-config", "usage", "passes", "stats", "plan", "goal", "hooks", "login", "logout", "peers", "tasks",
    "bashes", "radio", "workflow-authoring", "workflows",
)
#: Past the listing budget all keep their full lines but `security-review`, which is listed by name
#: only when what is left of the budget cannot hold its line; it is served before the user's skills
#: (capture case listing-budget; the differential tester; render/claude_code.py).
CLAUDE_CODE_SHORTENED_BUILTINS = frozenset({"security-review"})
#: Claude Code 2.1.332 built-ins: (name, listing line characters), listed after the user's skills. A
#: user's skill named like one replaces it, line and columns (capture cases builtin-names,
#: builtin-replaced-budget).
CLAUDE_CODE_BUILTINS: tuple[tuple[str, int], ...] = (
    ("claude-api", 1171),
    ("code-review", 850),
    ("dataviz", 1447),
    ("fewer-permission-prompts", 191),
    ("init", 67),
    ("keybindings-help", 248),
    ("loop", 344),
    ("plugin-authoring", 275),
    ("run", 368),
    ("security-review", 90),
    ("simplify", 188),
    ("update-config", 707),
    ("workflow-authoring", 252),
)


# Slash commands the harnesses build in (issue 26: UNKNOWN_SKILL called `/help` a typo of a skill).
# Claude Code 2.1.332: every `type:"local"|"local-jsx"|"prompt", name:"…"` record of the released
# binary's command table (read from the release, not run), plus commands its documentation and
# earlier releases name (cost, review, vim, pr-comments, bashes). Codex, Gemini CLI, OpenCode and
# Copilot CLI: their documented built-in commands (documented, not verified).
CLAUDE_CODE_COMMANDS = frozenset((
    "access add-dir advisor agents artifacts auto-mode-setup autocompact autofix-pr background branch brief btw bug "
    "cd clear cloud-plugins color compact config context copy daemon design-consent design-login design-revoke "
    "desktop diff doctor effort exit export extra-usage fast feedback focus fork goal heapdump help hooks ide import "
    "init insights install install-github-app install-slack-app list-agents login logout mcp memory mobile model "
    "output-style passes pause-memory permissions plan plugin powerup privacy-settings pro-trial-expired project "
    "radio rate-limit-options recap release-notes reload-plugins reload-skills remote-control remote-env rename "
    "restart resume rewind sandbox scroll-speed session setup-bedrock setup-vertex skill-doctor skills status "
    "statusline stickers stop subtask tasks team-onboarding teleport terminal-setup theme todos tui ultraplan "
    "ultrareview upgrade usage usage-credits use-case version voice web-setup wellbeing workflow-launch-exec "
    "workflows cost review vim pr-comments bashes quit").split())
OTHER_HARNESS_COMMANDS = frozenset((
    # Codex
    "approvals new undo mention prompts status diff compact init model quit review logout mcp "
    # Gemini CLI
    "about auth chat compress copy directory docs editor extensions privacy restore settings setup-github stats "
    "theme tools vim "
    # OpenCode
    "connect details editor export help init models new redo sessions share themes unshare undo "
    # Copilot CLI
    "agent clear cwd delegate feedback login logout mcp model reset-allowed-tools session usage user").split())
HARNESS_COMMANDS = CLAUDE_CODE_COMMANDS | OTHER_HARNESS_COMMANDS
