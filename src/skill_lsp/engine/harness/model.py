"""What one harness release does with a skill: roots, files, fields, names, caps.

Every fact carries the source it rests on: a capture of the real release
(``capture: …``), a line of the harness's source (``repo path``), or its
documentation (then the harness is "documented, not verified"). The lint
(:mod:`..targets`), the default roots and ``skill-lsp harnesses`` all read these
records; nothing else in the engine names a harness.
"""

from __future__ import annotations

import re

from ..datarecord import datarecord, field
from ..findings import Severity

# What a harness does when a finding's condition holds, and the severity that follows.
#   skips   - the skill is left out of the catalog (and cannot be activated)
#   rejects - a validator reports an error, the skill is refused
#   changes - the skill is listed, but not as written (truncated, renamed, ...)
#   warns   - the harness shows a warning and still lists the skill
#   ignores - the harness does not look at it; no visible effect
ACTIONS: dict[str, Severity] = {
    "skips": Severity.ERROR,
    "rejects": Severity.ERROR,
    "changes": Severity.WARNING,
    "warns": Severity.WARNING,
    "ignores": Severity.INFO,
}
BLOCKING_ACTIONS = frozenset({"skips", "rejects"})


@datarecord(frozen=True)
class Root:
    """A folder whose immediate subfolders (or deeper, when ``depth`` > 1) hold skills."""

    path: str  # relative to the project, or "~/..." for the user's home
    scope: str  # "project" | "user" | "system" | "admin"
    source: str
    note: str = ""  # a condition, e.g. "inside a git repository"

    @property
    def project(self) -> bool:
        return self.scope == "project"


#: How a release reads the value of a field that keeps a skill out of the model's catalog
#: (``Flag.reads``), and the words ``skill-lsp harnesses`` shows for it.
FLAG_READINGS: dict[str, str] = {
    "yaml-true": "when it is the YAML boolean true",
    # JavaScript's String(value).toLowerCase(): YAML 1.2 true/True/TRUE give "true", 1 gives "1";
    # a list or a mapping never hides.
    "string-true": "when its text, lowercased, is true, yes, on or 1 (quoted or not)",
    "not-false": "unless it is the YAML boolean false (any other value, null and \"false\" included, hides it)",
}
_STRING_TRUE = frozenset({"true", "yes", "on", "1"})

#: How a release reads a `name` or `description` whose YAML value is not a string (``Harness.non_string``).
NON_STRING_READINGS: dict[str, str] = {
    # JavaScript's String() of the YAML 1.2 value: 0x1F is "31", .inf "Infinity"; a list, a mapping or
    # null counts as absent.
    "js-string": "a number or boolean as JavaScript's String() gives it; a list, mapping or null as absent",
    # serde: any scalar, and a flow mapping, is taken as its text as written; a list keeps the skill out.
    "text": "a scalar or a flow mapping as its text as written (0x1F, .inf, {k: v}); a list keeps the skill out",
    # the line's text after `key:`, as its fallback line parser reads it
    "line": "the text after `key:` on its lines, as written (~, [a, b], {k: v})",
    # only strings: anything else, null and (OpenCode) a date included, keeps the skill out
    "strings": "only a string: a number, boolean, list, mapping or null keeps the skill out",
}


def _js_string(value: object) -> str:
    """JavaScript's String() of a YAML 1.2 scalar's value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@datarecord(frozen=True)
class Flag:
    """A field that, set, keeps the skill out of the model's catalog (the user may still invoke it)."""

    key: str
    reads: str  # a key of FLAG_READINGS
    source: str

    def hides(self, value: object, *, scalar: bool = True) -> bool:
        """Whether the field's value (YAML 1.2 core resolution; ``scalar`` False for a list or
        mapping) keeps the skill out."""
        if self.reads == "not-false":
            return not (scalar and value is False)
        if not scalar:
            return False
        if self.reads == "string-true":
            return _js_string(value).lower() in _STRING_TRUE
        return value is True

    @property
    def rule(self) -> str:
        return f"`{self.key}` {FLAG_READINGS[self.reads]}"


@datarecord(frozen=True)
class Effect:
    """What the harness does about one finding code (or ``CODE:field``)."""

    action: str  # a key of ACTIONS
    note: str  # third person singular verb phrase: "lists it under the folder name"
    source: str
    severity: Severity | None = None  # overrides the action's severity when the code needs finer grading

    def level(self) -> Severity:
        return self.severity if self.severity is not None else ACTIONS[self.action]


#: Fact topic: which of two skills with the same name the harness keeps is not fixed (the listing
#: decisions and previews say so instead of naming a winner).
SAME_NAME = "same name"
#: Fact topic: a YAML escape of a surrogate code point (U+D800 to U+DFFF) in a double-quoted scalar of
#: the frontmatter keeps the skill out, a pair included (its YAML parser, libyaml, refuses the escape).
SURROGATE_ESCAPES = "surrogate escapes"


@datarecord(frozen=True)
class Fact:
    """A behaviour that is not one finding's effect: dynamic context, what an editor validates, ..."""

    topic: str  # "dynamic context", "editor diagnostics", ...
    text: str  # third person singular verb phrase, like Effect.note
    source: str
    status: str = ""  # "" when the harness's proof covers it; else e.g. "source read, not captured"

    @property
    def shown(self) -> str:
        """The status as output shows it: a fact not proven against the release is "documented, not verified"."""
        return "documented, not verified" if self.status else "verified"


@datarecord(frozen=True)
class Harness:
    """Every fact skill-lsp holds about one harness release, each with its source."""

    name: str  # target name, as in `--target` and `targets = [...]`
    title: str  # as written in messages ("Claude Code")
    version: str  # the release the facts were proven against, or "" when documented only
    proof: str  # "captured" | "source" | "documented"
    summary: str
    roots: tuple[Root, ...]
    skill_files: tuple[str, ...]  # file names it reads, in preference order
    depth: int  # folder levels below a root searched for skill files (1: immediate subfolders)
    reads: tuple[str, ...]  # frontmatter fields it acts on
    deferred: tuple[str, ...] = ()  # recognised, kept, not acted on
    # what it does with any other field: "ignores" | "rejects" | "preserves" | "flags" (ignores it, and its
    # editor marks it as unsupported: the lint reports it too)
    unknown: str = "ignores"
    unknown_note: str = ""  # sentence for UNKNOWN_FIELD; "{key}" is replaced
    unicode_names: bool = False  # NFKC + any Unicode letter or digit (skills-ref)
    string_booleans: bool = False  # "yes"/"on"/"1" count as booleans (DSH)
    tools_form: str = "any"  # "string" where only the space-separated string is specified
    free_arguments: bool = False  # `arguments` may be a string or a list of names (Claude Code)
    name_rule: str = ""  # words, for `skill-lsp harnesses`
    description_rule: str = ""
    listing: str = ""  # how the catalog is built and cut
    listing_budget: str = ""
    arguments: str = ""  # argument syntax of its skill tool
    hidden_by: tuple[Flag, ...] = ()  # fields that, set, keep the skill out of the model's catalog
    any_root: bool = False  # the caller configures its roots (a session, a validator's argument)
    # False: the facts come from reading the source of a release that was not run here; output
    # says "documented, not verified" and the target is only checked for when asked for.
    verified: bool = True
    mismatch_listed_as: str = "{name}"  # how a skill whose name differs from its folder is listed
    # What it does with a SKILL.md that starts with a UTF-8 byte order mark ("skips", or "ignores":
    # reads it as if the mark were not there); None when not known (skill-lsp reads past it).
    bom: Effect | None = None
    # The proof that it lists a skill folder that is a symbolic link, wherever it leads (inside the
    # workspace or outside it); "" when not known (skill-lsp's own fence then decides).
    follows_links: str = ""
    # The proof that its YAML parser breaks lines at NEL, LS and PS (U+0085, U+2028, U+2029) as YAML
    # 1.1 does; "" when it reads them as ordinary characters (YAML 1.2, skill-lsp's own reading).
    yaml11_breaks: str = ""
    # The proof that it parses the frontmatter with libyaml (serde_yaml's unsafe-libyaml): where PyYAML's pure
    # parser and libyaml differ (tabs between words, after `key:`, before a comment; a block scalar line that
    # starts with a tab), libyaml's verdict is read (readings.read_by); "" when it parses as skill-lsp does.
    libyaml: str = ""
    # The proof that it reads the frontmatter with Claude Code's own reader (its block regex, Bun.YAML,
    # a second parse with values quoted when the YAML fails: engine/claude_frontmatter.py); "" when it
    # parses the block as skill-lsp does.
    quoted_retry: str = ""
    # The proof that it reads the frontmatter with Gemini CLI's own reader (its block regex, js-yaml 4,
    # its line reader when the YAML fails or gives no string name and description:
    # engine/gemini_frontmatter.py); "" when it parses the block as skill-lsp does.
    line_reader: str = ""
    # The proof that it reads the frontmatter with OpenCode's own reader (gray-matter's split, js-yaml 3's
    # safeLoad, a second parse with `key: a: b` lines made block scalars when the YAML fails:
    # engine/opencode_frontmatter.py); "" when it parses the block as skill-lsp does.
    matter_retry: str = ""
    # The proof that, when its YAML parser refuses the frontmatter, it quotes one-line values holding
    # `: ` (or opening with `[`, `{`, `@`, a backtick and invalid alone) and parses once more, leaving
    # the skill out when that fails too (engine/codex_frontmatter.py); "" when it makes no such repair.
    scalar_repair: str = ""
    # CODE:field effects that keep a skill out of its catalog but not from its skill tool, which
    # loads it by name.
    tool_loads: tuple[str, ...] = ()
    # Whether it looks for skills inside another skill's folder (depth > 1; capture case nested-folders).
    into_skills: bool = True
    # The proof that, of a top-level key given twice, it reads the last value ("" when it reads the first
    # or skips the skill: DUPLICATE_KEY effects).
    last_duplicate_wins: str = ""
    # How it reads a `name` or `description` that YAML does not give as a string (NON_STRING_READINGS);
    # "" when the INVALID_TYPE effects alone decide.
    non_string: str = ""
    non_string_source: str = ""
    yaml_dates: bool = False  # a plain YYYY-MM-DD value is a date, not a string (js-yaml's default schema)
    # A pattern the name it lists (the `name` string, else the folder name), trimmed, must match in full,
    # else it leaves the skill out; "" when it lists any name. name_pattern_source: its proof.
    name_pattern: str = ""
    name_pattern_source: str = ""
    # The proof that it counts a description's length in UTF-16 code units (as JavaScript does: a
    # character beyond U+FFFF counts two) against the TOO_LONG:description limit; "" when in characters.
    utf16_lengths: str = ""
    # The proof that it parses the frontmatter without the newline before its closing `---`, so a
    # block scalar description running to that line is one newline shorter, also for its length
    # limit (readings.block_runs_to_the_end); "" when it parses the whole block.
    last_newline: str = ""
    # The proof that a `paths` field holding a file pattern (a string, split at commas, or a list of
    # strings; `**` and `/**` match every file and count for none) makes the skill conditional: not
    # loaded, listed or found by its skill tool until a file matching it is read or edited; "" when
    # it does not read `paths`.
    conditional_paths: str = ""
    # The proof that it lists the skills of a Claude Code plugin (`<plugin>/skills/<folder>`,
    # `.claude-plugin/` beside them; engine/claude_plugin.py) as `<plugin>:<folder>`, leaves out one
    # without a description and loads none when plugin.json cannot name the plugin; "" when not.
    plugins: str = ""
    # Of one name in two of its roots, the copy it lists: root paths in the order a copy wins (the first
    # one wins); wins_source: the proof. every_copy: the proof that it lists every copy instead (Codex).
    # Neither: unknown, or unsettled (a SAME_NAME fact).
    wins: tuple[str, ...] = ()
    wins_source: str = ""
    every_copy: str = ""
    effects: dict[str, Effect] = field(default_factory=dict)  # finding code (or CODE:field) -> effect
    # Rule-depth code -> severity label for skills written for it ("off": silent); data.RULE_LEVELS' column.
    rule_levels: dict[str, str] = field(default_factory=dict)
    facts: tuple[Fact, ...] = ()  # behaviours beyond the findings' effects
    flags: tuple[str, ...] = ()  # agentskills spec fields it reports as unsupported (the lint then does too)
    sources: tuple[str, ...] = ()  # where the facts above come from

    def refuses_name(self, name: str) -> bool:
        """Whether the name it lists (trimmed) is outside ``name_pattern``, so it does not load the skill."""
        return bool(self.name_pattern) and re.fullmatch(self.name_pattern, name.strip()) is None

    def fact(self, topic: str) -> Fact | None:
        return next((f for f in self.facts if f.topic == topic), None)

    def hides(self, fields: dict) -> bool:
        """Whether a frontmatter read as a dict sets a field that keeps the skill out of the model's
        catalog (``hidden_by``)."""
        for flag in self.hidden_by:
            if flag.key in fields:
                value = fields[flag.key]
                scalar = not isinstance(value, (list, dict))
                if flag.hides(value if scalar else None, scalar=scalar):
                    return True
        return False

    @property
    def activates_hidden(self) -> bool:
        """Whether asking its skill tool by name loads a skill with disable-model-invocation: it reads
        no field that hides a skill (capture case hidden-by-name)."""
        return not self.hidden_by

    @property
    def documented_only(self) -> bool:
        return self.proof == "documented"

    @property
    def checked_by_default(self) -> bool:
        """Whether a skill in one of its roots is checked for it when no targets are configured."""
        return self.proof != "documented" and self.verified

    @property
    def proven(self) -> str:
        """The version proven, or "documented, not verified"."""
        if self.proof == "documented":
            return "documented, not verified"
        if not self.verified:
            return f"documented, not verified (source read at {self.version}, not captured)"
        if self.proof == "source":
            return f"{self.version} (source read, not captured)" if self.version else "source read, not captured"
        return self.version

    def effect(self, code: str, field_name: str | None = None) -> Effect | None:
        if field_name is not None:
            hit = self.effects.get(f"{code}:{field_name}")
            if hit is not None:
                return hit
        return self.effects.get(code)

    def blocks(self, code: str, field_name: str | None = None) -> bool:
        e = self.effect(code, field_name)
        return e is not None and e.action in BLOCKING_ACTIONS
