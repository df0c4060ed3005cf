"""`skill-lsp harnesses`: what each harness reads, lists and refuses (text, Markdown or JSON).

`docs/harnesses.md` is exactly ``skill-lsp harnesses --format markdown``; regenerate it with

    skill-lsp harnesses --format markdown > docs/harnesses.md

(tests/cli/test_cli_harnesses.py fails when the two drift apart).
"""

from __future__ import annotations

import json
import sys
from argparse import Namespace
from typing import Any

from ..engine.config import DEFAULT_ROOTS
from ..engine.harness import FLAG_READINGS, HARNESSES, NON_STRING_READINGS, Harness
from ..engine.profiles import DEFAULT_PROFILE, FIELDS
from ..engine.targets import infer

REGENERATE = "skill-lsp harnesses --format markdown > docs/harnesses.md"


def field_uses(h: Harness) -> dict[str, str]:
    """Every known field -> what this harness does with it."""
    out = {}
    other = {"ignores": "ignored", "rejects": "rejected", "preserves": "kept, no effect",
             "flags": "ignored, marked unsupported"}[h.unknown]
    for key in FIELDS:
        out[key] = "read" if key in h.reads else "deferred (kept, no effect)" if key in h.deferred else other
    for key in h.reads:
        out.setdefault(key, "read")
    return out


def harness_json(h: Harness) -> dict[str, Any]:
    return {
        "name": h.name,
        "title": h.title,
        "version": h.version,
        "proof": h.proof,
        "proven": h.proven,
        "summary": h.summary,
        "roots": [{"path": r.path, "scope": r.scope, "note": r.note, "source": r.source} for r in h.roots],
        "skillFiles": list(h.skill_files),
        "depth": h.depth,
        "intoSkills": h.into_skills,
        "anyRoot": h.any_root,
        "fields": field_uses(h),
        "unknownFields": h.unknown,
        "nameRule": h.name_rule,
        "descriptionRule": h.description_rule,
        "listing": h.listing,
        "listingBudget": h.listing_budget,
        "arguments": h.arguments,
        "hiddenBy": [f.key for f in h.hidden_by],
        "hiddenWhen": {f.key: {"reading": f.reads, "text": FLAG_READINGS[f.reads], "source": f.source}
                       for f in h.hidden_by},
        "conditionalPaths": h.conditional_paths,
        "plugins": h.plugins,
        "byteOrderMark": None if h.bom is None else {"action": h.bom.action, "note": h.bom.note, "source": h.bom.source},
        "followsLinks": h.follows_links,
        "yaml11LineBreaks": h.yaml11_breaks,
        "libyaml": h.libyaml,
        "quotedRetry": h.quoted_retry,
        "lineReader": h.line_reader,
        "matterRetry": h.matter_retry,
        "lastDuplicateWins": h.last_duplicate_wins,
        "sameNameWins": list(h.wins),
        "sameNameWinsSource": h.wins_source,
        "everyCopy": h.every_copy,
        "namePattern": None if not h.name_pattern else {"pattern": h.name_pattern, "source": h.name_pattern_source},
        "utf16Lengths": h.utf16_lengths,
        "nonString": None if not h.non_string else {"reading": h.non_string, "text": NON_STRING_READINGS[h.non_string],
                                                    "dates": h.yaml_dates, "source": h.non_string_source},
        "verified": h.verified,
        "flags": list(h.flags),
        "facts": [{"topic": f.topic, "text": f.text, "source": f.source, "status": f.shown} for f in h.facts],
        "effects": {k: {"action": e.action, "severity": e.level().label, "note": e.note, "source": e.source}
                    for k, e in h.effects.items()},
        "sources": list(h.sources),
    }


def inferred() -> dict[str, list[str]]:
    """Each default root -> the targets a skill in it is checked for when none are configured."""
    return {root: list(infer(f"/workspace/{root}/a-skill") or (DEFAULT_PROFILE,)) for root in DEFAULT_ROOTS}


def render_json() -> str:
    from ..installed import detect  # noqa: PLC0415 - runs `--version` of what is installed

    return json.dumps({"harnesses": [harness_json(h) for h in HARNESSES.values()], "inferredTargets": inferred(),
                       "installed": [i.to_json() for i in detect()]},
                      ensure_ascii=False, indent=2) + "\n"


def _roots(h: Harness, scope: str) -> str:
    listed = ", ".join(r.path for r in h.roots if (r.scope == "project") == (scope == "project"))
    if h.any_root and scope == "project":
        return f"any it is given{f' (e.g. {listed})' if listed else ''}"
    return listed or "—"


def proof_of(source: str) -> str:
    """What a fact's source proves: a run of the release (a capture case) or nothing beyond its words."""
    if source.startswith("capture:"):
        return f"proven: {source.removeprefix('capture:').strip()}"
    return f"documented, not verified: {source}"


def render_text() -> str:
    lines = []
    for h in HARNESSES.values():
        lines.append(f"{h.name}  {h.title} — {h.proven}")
        lines.append(f"  project roots: {_roots(h, 'project')}")
        lines.append(f"  user roots:    {_roots(h, 'user')}")
        lines.append(f"  files:         {', '.join(h.skill_files)} (depth {h.depth})")
        lines.append(f"  reads:         {', '.join(h.reads)}")
        lines.append(f"  other fields:  {h.unknown}")
        lines.append(f"  name:          {h.name_rule}")
        lines.append(f"  description:   {h.description_rule}")
        lines.append(f"  listing:       {h.listing}")
        lines.append(f"  budget:        {h.listing_budget}")
        lines.append(f"  arguments:     {h.arguments}")
        for key, e in h.effects.items():
            lines.append(f"  {key}: {e.action} — {e.note} [{proof_of(e.source)}]")
        for label, source in _model_facts(h):
            lines.append(f"  {label} [{proof_of(source)}]")
        for f in h.facts:
            lines.append(f"  {f.topic}: {f.text} [{f.shown}]")
        lines.append("")
    lines.append("Targets inferred per root (when none are configured):")
    width = max(len(r) for r in DEFAULT_ROOTS)
    lines += [f"  {root.ljust(width)}  {', '.join(names)}" for root, names in inferred().items()]
    lines += ["  elsewhere: a Claude Code plugin's skill (<plugin>/skills/<name>/ beside .claude-plugin/) claude-code, "
              "any other skill-tool"]
    lines += ["", "Installed here:", *installed_lines()]
    return "\n".join(lines) + "\n"


def _model_facts(h: Harness) -> list[tuple[str, str]]:
    """The record's listing facts that have a source of their own, as (sentence, source)."""
    out = []
    if h.follows_links:
        out.append(("skill folders that are links: listed and activated", h.follows_links))
    if h.bom is not None:
        out.append((f"byte order mark: {h.bom.note}", h.bom.source))
    if h.yaml11_breaks:
        out.append(("YAML: NEL, LS and PS end a line (YAML 1.1)", h.yaml11_breaks))
    if h.libyaml:
        out.append(("YAML: parsed by libyaml (tabs between words and after `key:` taken)", h.libyaml))
    if h.plugins:
        out.append(("a Claude Code plugin's skills: listed as `plugin:folder` after the others, left out "
                    "without a description", h.plugins))
    if h.quoted_retry:
        out.append(("frontmatter: its own reader (a block up to the first ---, tabs taken, a second parse "
                    "with values quoted, no field when that fails)", h.quoted_retry))
    if h.line_reader:
        out.append(("frontmatter: its own reader (`---` and a line break exactly, the block up to the first line "
                    "starting with ---, js-yaml, its line reader when name or description is not a string)",
                    h.line_reader))
    if h.matter_retry:
        out.append(("frontmatter: its own reader (gray-matter: the block up to the first line starting with ---, js-yaml 3, a second "
                    "parse with `key: a: b` lines made block scalars, no skill when that fails)", h.matter_retry))
    if h.non_string:
        out.append((f"name or description not a string: {NON_STRING_READINGS[h.non_string]}", h.non_string_source))
    if h.last_duplicate_wins:
        out.append(("a key given twice: the last value", h.last_duplicate_wins))
    if h.wins:
        out.append((f"one name in two of its roots: lists the copy of the first in {', '.join(h.wins)}", h.wins_source))
    if h.every_copy:
        out.append(("one name in two of its roots: lists every copy", h.every_copy))
    if h.name_pattern:
        out.append((f"name (or folder name), trimmed, must match `{h.name_pattern}`", h.name_pattern_source))
    if h.utf16_lengths:
        out.append(("description length counted in UTF-16 code units", h.utf16_lengths))
    for flag in h.hidden_by:
        out.append((f"left out of the model's catalog: {flag.rule}", flag.source))
    return out


def installed_lines() -> list[str]:
    """One line per harness skill-lsp can ask: what is installed, against the release proven."""
    from ..installed import detect  # noqa: PLC0415 - runs `--version` of what is installed

    return [f"  {'! ' if i.differs else ''}{i.note()}" for i in detect()]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown() -> str:
    out = [
        "# Harnesses",
        "",
        f"<!-- Generated by `{REGENERATE}`. Do not edit by hand. -->",
        "",
        "What each harness does with a skill, as skill-lsp knows it (`src/skill_lsp/engine/harness/data.py`). "
        "Every fact names its source: `capture: <harness>@<version>` is a run of the real release against a "
        "recording model endpoint; a repository path is the harness's published source; `docs:` is "
        "documentation only (the harness is then *documented, not verified*). The lint checks each skill for "
        "its **targets**: `--target a,b` / `targets = [...]`, or `--profile x` / `profile = \"x\"` for one; "
        "by default the harnesses that read the root the skill lives in (a skill of a Claude Code plugin, "
        "`<plugin>/skills/<name>/` beside `<plugin>/.claude-plugin/` or a folder its plugin.json's `skills` "
        "names, for `claude-code`; a skill elsewhere for `skill-tool`). A finding's severity is the worst any target gives it, and its message names what "
        "each target does when they differ.",
        "",
        "| root | targets inferred when none are configured |",
        "|---|---|",
        *(f"| `{root}` | {', '.join(f'`{n}`' for n in names)} |" for root, names in inferred().items()),
        "",
        "| target | harness | proven | project roots | user roots | fields read |",
        "|---|---|---|---|---|---|",
    ]
    for h in HARNESSES.values():
        out.append(f"| `{h.name}` | {_cell(h.title)} | {_cell(h.proven)} | {_cell(_roots(h, 'project'))} | "
                   f"{_cell(_roots(h, 'user'))} | {_cell(', '.join(h.reads))} |")
    out.append("")
    for h in HARNESSES.values():
        out += [f"## `{h.name}`: {h.title}", "", f"{h.summary} Proven: **{h.proven}**.", ""]
        out += ["| root | scope | condition | source |", "|---|---|---|---|"]
        out += [f"| `{r.path}` | {r.scope} | {_cell(r.note)} | {_cell(r.source)} |" for r in h.roots]
        out.append("")
        out += [
            f"- Files: {', '.join(f'`{f}`' for f in h.skill_files)}; searched {h.depth} folder level(s) below a root"
            f"{'' if h.depth <= 1 or h.into_skills else ', not inside another skill folder'}.",
            f"- Fields read: {', '.join(f'`{k}`' for k in h.reads)}; any other field: {h.unknown}.",
        ]
        if h.deferred:
            out.append(f"- Deferred (kept, no effect): {', '.join(f'`{k}`' for k in h.deferred)}.")
        out += [
            f"- Name: {h.name_rule}.",
            f"- Description: {h.description_rule}.",
            f"- Listing: {h.listing}.",
            f"- Listing budget: {h.listing_budget}.",
            f"- Arguments: {h.arguments}.",
        ]
        if h.hidden_by:
            out.append(f"- Left out of the model's catalog: {'; '.join(f.rule for f in h.hidden_by)}.")
        if h.conditional_paths:
            out.append("- Conditional skills: a `paths` field naming file patterns (a string split at commas, or "
                       "a list; `**` and `/**` name every file and count for none) keeps the skill out of the "
                       "catalog and the skill tool until a file matching them is read, edited or @-mentioned (an "
                       f"activated skill's `@file` counts) ({h.conditional_paths}).")
        if h.plugins:
            out.append("- A Claude Code plugin's skills (`<plugin>/skills/<folder>`, `.claude-plugin/` beside): listed "
                       "after the project's and the user's as `<plugin>:<folder>`, `<plugin>` being plugin.json's "
                       "`name` or the plugin's folder; one without a description is left out; no skill loads when "
                       "plugin.json gives no usable name; `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` are "
                       f"filled ({h.plugins}). Each folder plugin.json's `skills` names (`./custom`, `./x/skills/y`) "
                       "adds, after those of `skills/`, in its order: itself when it holds a SKILL.md, else the "
                       "skill folders directly in it; the first of a name wins (capture: claude-code@2.1.332 probe "
                       "plugin-layouts). skill-lsp's catalog and preview show them so, as `--plugin-dir` loads a "
                       "plugin, and list nothing else of a plugin's folder.")
        if h.follows_links:
            out.append(f"- Skill folders that are symbolic links (into the workspace or out of it): listed and "
                       f"activated ({h.follows_links}); skill-lsp does not read those that leave their skill roots.")
        if h.bom is not None:
            out.append(f"- Byte order mark: {h.bom.note} ({h.bom.source}).")
        if h.yaml11_breaks:
            out.append(f"- YAML line breaks: NEL, LS and PS (U+0085, U+2028, U+2029) end a line, as in YAML 1.1 "
                       f"({h.yaml11_breaks}); skill-lsp reads the frontmatter so for this harness.")
        if h.libyaml:
            out.append(f"- YAML parser: libyaml, which takes a tab between words, after `key:` and before a "
                       f"comment and refuses a block scalar whose first line starts with a tab ({h.libyaml}); "
                       f"skill-lsp reads the frontmatter with libyaml for this harness.")
        if h.quoted_retry:
            out.append(f"- Frontmatter reader: the block ends at the first `---` anywhere; tabs are taken as "
                       f"spaces between words; when the YAML fails it is parsed once more with every one-line "
                       f"value holding one of ``{{}}[]*&#!|>%@` `` or `: ` quoted, and no field is read when that "
                       f"fails too ({h.quoted_retry}).")
        if h.line_reader:
            out.append(f"- Frontmatter reader: the file must open with `---` and a line break exactly; the block "
                       f"ends before the first line that starts with `---`, and the body is empty unless a line "
                       f"break follows that `---` at once; the block is loaded with js-yaml 4 (tabs taken, a key "
                       f"given twice or an unknown tag an error, a plain date not a string) and, when that fails "
                       f"or gives no string `name` and `description`, read line by line: `name:` and "
                       f"`description:` lines, indented lines after the description joined with a space, a line "
                       f"holding U+2028 or U+2029 not read ({h.line_reader}).")
        if h.matter_retry:
            out.append(f"- Frontmatter reader: gray-matter's (a leading byte order mark dropped, though the retry below then never changes the text; the file must open "
                       f"with `---`, the block runs to the first line break followed by `---` anywhere, or to the "
                       f"end of the file: then the body is empty), loaded with js-yaml 3 (tabs taken, a key given "
                       f"twice an error, a plain date and `012` or `1:30` not strings); when that fails, once more "
                       f"with each unindented `key: value` line whose unquoted value holds `:` made a `|-` block, "
                       f"and no skill when that fails too ({h.matter_retry}).")
        if h.non_string:
            dates = "; a plain date (2024-01-01) is a date, not a string" if h.yaml_dates else ""
            out.append(f"- A `name` or `description` that is not a YAML string: {NON_STRING_READINGS[h.non_string]}"
                       f"{dates} ({h.non_string_source}).")
        if h.last_duplicate_wins:
            out.append(f"- A key given twice: the last value is read ({h.last_duplicate_wins}).")
        if h.wins:
            out.append(f"- One name in two of its roots: it lists the copy of the root first in "
                       f"{', '.join(f'`{r}`' for r in h.wins)} ({h.wins_source}); SHADOWED and the preview follow it.")
        if h.every_copy:
            out.append(f"- One name in two of its roots: it lists every copy ({h.every_copy}).")
        if h.name_pattern:
            out.append(f"- The name it lists (the folder name when none is given), trimmed, must match "
                       f"`{h.name_pattern}` in full, else the skill is not loaded ({h.name_pattern_source}).")
        if h.utf16_lengths:
            out.append(f"- A description's length is counted in UTF-16 code units ({h.utf16_lengths}).")
        if h.flags:
            out.append(f"- Reported as unsupported (so the lint reports them for this target): "
                       f"{', '.join(f'`{k}`' for k in h.flags)}.")
        if not h.checked_by_default and h.proof != "documented":
            out.append(f"- Not checked for unless asked for (`--target {h.name}`): its facts are not verified.")
        out.append("")
        if h.facts:
            out += ["| behaviour | what it does | status | source |", "|---|---|---|---|"]
            out += [f"| {_cell(f.topic)} | {_cell(f.text)} | {f.shown} | {_cell(f.source)} |" for f in h.facts]
            out.append("")
        if h.effects:
            out += ["| finding | effect | severity | what it does | source |", "|---|---|---|---|---|"]
            for key, e in h.effects.items():
                out.append(f"| `{key}` | {e.action} | {e.level().label} | {_cell(e.note)} | {_cell(e.source)} |")
            out.append("")
        out += ["Sources: " + "; ".join(_cell(s) for s in h.sources) + ".", ""]
    return "\n".join(out)


def render(fmt: str) -> str:
    return {"text": render_text, "markdown": render_markdown, "json": render_json}[fmt]()


def run(args: Namespace) -> int:
    sys.stdout.write(render(getattr(args, "format", "text")))
    return 0
