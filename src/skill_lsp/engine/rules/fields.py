"""Every frontmatter field except `name`: presence, types, limits, values, unknown keys."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from .. import fuzzy
from ..document import Entry, SkillDocument
from ..findings import Finding, Severity, make
from ..harness import HARNESSES
from ..lazyre import lazy_re
from ..profiles import CAMEL_CASE, DSH_FALSE, DSH_TRUE, FIELDS, Field, Profile
from ..spdx import is_spdx
from ..yamlnodes import Node, resolve_scalar
from .context import UP, Context
from .levels import emit, level

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from typing import Any

MAX_DESCRIPTION = 1024  # characters (agentskills spec)

SEMVER = lazy_re(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$"
)
# '1.0' and '2': incomplete but unambiguous (npm's semver.coerce reads them as 1.0.0 and
# 2.0.0) and no harness reads `version`; not worth an author's edit.
_PARTIAL_VERSION = lazy_re(r"^(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$")
_LICENSE_HEAD = lazy_re(r"^([A-Za-z0-9.+-]+)(?:\s+licen[sc]e\b.*|\s*\(.*\)\s*)$", re.I | re.S)
_LICENSE_FILE = lazy_re(r"^(?:LICEN[SC]E|COPYING|NOTICE)(?:[._-][\w.-]*)?$", re.I)
_LICENSE_SPLIT = lazy_re(r"\s+(?:AND|OR|WITH)\s+|[()]")
# What people write for a license that is no open one: a name, as the spec asks (unseen
# thcjp/hermes-skills: 1,807 infos on "Proprietary", each noise).
_STATEMENTS = frozenset(("proprietary", "commercial", "all rights reserved", "unlicensed", "private", "internal",
                         "confidential", "closed source", "closed-source", "copyrighted", "custom"))
# A note after the name: a link, or words in brackets ("Apache 2.0 (https://…)").
_LICENSE_NOTE = lazy_re(r"\s*(?:\([^)]*\)|\bhttps?://\S+)")
_LICENSE_WORDS = lazy_re(r"^[A-Za-z0-9.+-]+(?:\s+(?:AND|OR|WITH)\s+[A-Za-z0-9.+-]+)*$")


def _span(entry: Entry) -> tuple[int, int]:
    """Where a finding about a field's value goes: the value, or the key when there is none or it
    is a block collection (which starts at its first item's key, lines below: the unseen
    newkayak12/claude-skills' `compatibility:` mapping was reported at `recommended:` inside it)."""
    v = entry.value
    if v.end > v.start and not (v.kind in ("map", "seq") and not v.style):
        return v.start, v.end
    return entry.key_node.start, entry.key_node.end


def _describe(node: Node, value: Any) -> str:
    if node.kind == "seq":
        return "a list"
    if node.kind == "map":
        return "a mapping"
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return "a string"


def _string(entry: Entry) -> tuple[str | None, str]:
    """(value, problem) for a field that must be a string."""
    node = entry.value.target()
    value = resolve_scalar(node) if node.kind == "scalar" else None
    if node.kind == "scalar" and isinstance(value, str):
        return value, ""
    return None, _describe(node, value)


def check(doc: SkillDocument, ctx: Context) -> Iterator[Finding]:
    yield from _description(doc)
    profile = ctx.profile
    known = _set_of(profile.known)
    for key, entry in doc.entries.items():
        if key in ("name", "description"):
            continue
        start, end = _span(entry)
        kstart, kend = entry.key_node.start, entry.key_node.end
        if key in CAMEL_CASE and key not in known:
            proper = CAMEL_CASE[key]
            sev = Severity.ERROR if profile.camel_case_severity == "error" else Severity.WARNING
            yield make("CAMELCASE_FIELD", f"frontmatter field \"{key}\" is unsupported; use \"{proper}\"", kstart, kend,
                       {"field": key, "replacement": proper}, severity=sev)
            continue
        if key not in known:
            if key in profile.deferred:
                if ctx.in_claude_plugin():
                    continue  # Claude Code reads the field (probe: `python -m capture diff --probe plugin`)
                yield make("DEFERRED_FIELD", f"'{key}' is a Claude Code field the skill tool defers to v1.1 "
                           "(spec 000 §4.4); it is preserved but has no effect", kstart, kend, {"field": key})
                continue
            if target_rejects_unknown_fields(profile):
                yield make("UNKNOWN_FIELD", profile.unknown_message(key), kstart, kend, {"field": key},
                           severity=Severity.ERROR)
                continue
            # Targets that ignore unknown fields: only a likely misspelling of a field
            # is worth a line (the field the author meant silently does nothing).
            # Custom keys (slug, category, author) were 80 % of all output on the corpus.
            meant = likely_misspelling(key, profile)
            if meant is not None and not _fits(FIELDS.get(meant), entry.value):
                meant = None  # a field of the author's own: its value could not be the other's
            # Only the case apart from the field written beside it (`Name:` over `name:`): the author's
            # own header, not a misspelling.
            if meant is not None and meant in doc.entries and key.lower().replace("_", "-") == meant:
                continue
            if meant is not None:
                yield make("UNKNOWN_FIELD", f"'{key}' is not a skill field; did you mean '{meant}'? "
                           "As written it is ignored", kstart, kend, {"field": key, "suggestion": meant},
                           severity=Severity.WARNING)
            elif target_flags_unknown_fields(profile):
                yield make("UNKNOWN_FIELD", profile.unknown_message(key), kstart, kend, {"field": key},
                           severity=Severity.INFO)
            continue
        spec = FIELDS.get(key)
        if spec is None:
            continue
        yield from _typed(doc, ctx, key, entry, spec.kind, spec.limit, spec.values, start, end)


def _fits(spec: Field | None, node: Node) -> bool:
    """Whether ``node`` could be a value of the field ``spec``: a key near a field's spelling whose
    value could not be that field's is the author's own (unseen AgentWorkers/skills `models: [a, b]`
    beside `model`, `agentic: false` beside `agent`, `contact: x@y` beside `context`; unseen14
    `mode: interactive` beside `model`: 53 "did you mean" warnings, none a misspelling)."""
    if spec is None:
        return True
    node = node.target()
    value = resolve_scalar(node) if node.kind == "scalar" else node
    if value is None:
        return True  # empty: nothing to tell by
    if spec.kind == "boolean":
        return isinstance(value, bool) or str(value).lower() in ("true", "false", "yes", "no")
    if spec.kind == "mapping":
        return node.kind == "map"
    if spec.kind not in ("string", "enum"):
        return True  # tools, lists, arguments, hooks: many shapes
    if node.kind != "scalar" or isinstance(value, bool):
        return False
    text = str(value).strip().lower()
    if spec.kind == "enum":
        return text in {v.lower() for v in spec.values}
    if spec.key == "model":
        # An alias, or an id: ids carry a version or a provider (`claude-sonnet-4-5`, `openai/gpt-5`).
        return text in spec.values or any(c.isdigit() or c in "-/." for c in text)
    return True


@functools.lru_cache(maxsize=64)
def _set_of(fields: tuple[str, ...]) -> frozenset[str]:
    return frozenset(fields)


def target_rejects_unknown_fields(profile: Profile) -> bool:
    """Whether some target refuses a skill that has a field it does not define.

    The view's UNKNOWN_FIELD severity comes from the harness table (engine/harness): an
    error only where a target rejects such a skill (skills-ref, the `agentskills` target).
    """
    return profile.unknown_severity == "error"


def target_flags_unknown_fields(profile: Profile) -> bool:
    """Whether some target's own editor marks every attribute it does not support (VS Code)."""
    return _flags_unknown(profile.targets)


@functools.lru_cache(maxsize=64)
def _flags_unknown(targets: tuple[str, ...]) -> bool:
    # Asked of every custom key (7 a skill on the corpus); the targets are a handful of tuples.
    return any(HARNESSES[t].unknown == "flags" for t in targets if t in HARNESSES)


# Fields of tools outside the harness table, near a skill field by spelling only: VS Code reads
# `agents` (its prompt validator's attributes), not a misspelt `agent` (issue 26, held-out test half).
_OTHER_TOOLS_FIELDS = frozenset(("agents",))
# A field in another language (`description_zh`, `name-en`, `description_zh-CN`): a display field of
# a catalogue beside the one harnesses read, not a misspelling of it (unseen majq1990/opencode-skills:
# 4 of 4 "did you mean 'description'?" warnings misled).
_LOCALIZED = lazy_re(r"[_-](?:en|zh|ja|jp|ko|kr|fr|de|es|it|pt|ru|ar|hi|vi|th|tr|pl|nl|sv|uk|he|cs|fa)"
                     r"(?:[_-](?:[A-Z]{2}|Han[st]|TW|CN|HK))?$")


def likely_misspelling(key: str, profile: Profile) -> str | None:
    """The field ``key`` most likely misspells ('descripton', 'allowed_tools'), or None.

    Keys that are some harness's field as written are not misspellings.
    """
    if key in FIELDS or len(key) < 4:
        return None
    return _misspelt(key, profile.known, profile.deferred)


@functools.lru_cache(maxsize=4096)
def _misspelt(key: str, known: tuple[str, ...], deferred: tuple[str, ...]) -> str | None:
    # Cached: a repository's skills repeat their custom keys (author, version, tags; 7 a skill on
    # the corpus).
    if key.lower() in _OTHER_TOOLS_FIELDS or _LOCALIZED.search(key):
        return None
    return _nearest_field(key.lower().replace("_", "-"), (*known, *deferred))


@functools.lru_cache(maxsize=4096)
def _nearest_field(wanted: str, fields: tuple[str, ...]) -> str | None:
    # Cached: the same custom keys (author, version, tags) recur in every skill of a repository.
    candidates = {f.replace("_", "-"): f for f in fields}
    if wanted in candidates:
        return candidates[wanted]
    fuzzy.load()
    from rapidfuzz import fuzz, process  # noqa: PLC0415 - loaded by the first unknown key
    from rapidfuzz.distance import Levenshtein  # noqa: PLC0415

    match = process.extractOne(wanted, list(candidates), scorer=fuzz.ratio, score_cutoff=80)
    if match is not None:
        return candidates[match[0]]
    if len(wanted) < 6:
        return None
    nearest = min(candidates, key=lambda c: Levenshtein.distance(wanted, c))
    return candidates[nearest] if Levenshtein.distance(wanted, nearest) <= 2 else None


def _description(doc: SkillDocument) -> Iterator[Finding]:
    sp = doc.split
    assert sp is not None
    entry = doc.entries.get("description")
    if entry is None:
        yield make("MISSING_FIELD", "frontmatter missing required field 'description'", sp.open_start, sp.open_end,
                   {"field": "description"})
        return
    start, end = _span(entry)
    value, problem = _string(entry)
    if value is None:
        if problem == "empty (null)":
            yield make("EMPTY_FIELD", "'description' must be a non-empty string", start, end, {"field": "description"})
        else:
            yield make("INVALID_TYPE", f"'description' must be a string, not {problem}", start, end,
                       {"field": "description", "expected": "string"})
        return
    if not value.strip():
        yield make("EMPTY_FIELD", "'description' must be a non-empty string", start, end, {"field": "description"})
        return
    if len(value) > MAX_DESCRIPTION:
        yield make("TOO_LONG", f"'description' is {len(value):,} characters; the limit is 1,024", start, end,
                   {"field": "description", "limit": MAX_DESCRIPTION, "length": len(value)})


def _typed(doc: SkillDocument, ctx: Context, key: str, entry: Entry, kind: str, limit: int | None,
           values: tuple[str, ...], start: int, end: int) -> Iterator[Finding]:
    node = entry.value.target()
    scalar = resolve_scalar(node) if node.kind == "scalar" else None
    if kind == "string" or kind == "enum":
        value, problem = _string(entry)
        if value is None:
            if key == "version" and isinstance(scalar, (int, float)) and not isinstance(scalar, bool):
                # `version: 1.0` reads as the float 1.0: no harness reads `version` and the number
                # says what the author wrote, so nothing to fix (issue 26). `1.10` reads as 1.1: reported.
                written = doc.text[start:end].strip()
                if written != str(scalar) and written != repr(scalar):
                    yield make("INVALID_VERSION", f"'version' {written} is read as the number {scalar}; quote it "
                               f"(\"{written}\") so the version stays as written", start, end, {"field": key})
                return
            yield make("INVALID_TYPE", f"'{key}' must be a string, not {problem}", start, end,
                       {"field": key, "expected": "string"})
            return
        if limit is not None and len(value) > limit:
            yield make("TOO_LONG", f"'{key}' is {len(value):,} characters; the limit is {limit:,}", start, end,
                       {"field": key, "limit": limit, "length": len(value)})
        if key == "compatibility" and not value.strip():
            yield make("EMPTY_FIELD", "'compatibility' must be 1-500 characters", start, end, {"field": key})
        if kind == "enum" and values and value not in values:
            yield make("INVALID_VALUE", f"'{key}' must be one of {', '.join(values)}; got \"{value}\"", start, end,
                       {"field": key, "values": list(values)})
        # A leading `v` is semver's own tools' (node-semver's `valid('v1.0.0')` is `1.0.0`): 39
        # warnings on one unseen repository (rickydwilson-dcs/claude-skills), none an author's edit.
        if key == "version" and not (SEMVER.match(value[1:] if value.startswith("v") else value)
                                     or _PARTIAL_VERSION.match(value)):
            yield make("INVALID_VERSION", f"'version' \"{value}\" is not a semantic version (e.g. 1.2.0)", start, end,
                       {"field": key})
        if key == "license":
            yield from _license(ctx, value, start, end)
        return
    if kind == "boolean":
        if isinstance(scalar, bool) and node.kind == "scalar":
            return
        if node.kind == "scalar" and isinstance(scalar, str):
            low = scalar.strip().lower()
            if ctx.profile.string_booleans and (low in DSH_TRUE or low in DSH_FALSE):
                return
            if low in DSH_TRUE or low in DSH_FALSE:
                yield make("INVALID_VALUE", f"'{key}' is the string \"{scalar}\", not a boolean; write true or false unquoted",
                           start, end, {"field": key, "boolean": low in DSH_TRUE})
                return
        if node.kind == "scalar" and isinstance(scalar, int) and scalar in (0, 1) and ctx.profile.string_booleans:
            return
        value_desc = _describe(node, scalar)
        yield make("INVALID_TYPE", f"frontmatter field \"{key}\" must be a boolean, not {value_desc}", start, end,
                   {"field": key, "expected": "boolean"})
        return
    if kind == "mapping":
        if node.kind == "scalar" and scalar is None:
            return
        if node.kind != "map":
            yield make("INVALID_TYPE", f"'{key}' must be a mapping of string keys to string values, not {_describe(node, scalar)}",
                       start, end, {"field": key, "expected": "mapping"})
            return
        for k, v in node.items:
            vt = v.target()
            vv = resolve_scalar(vt) if vt.kind == "scalar" else None
            if vt.kind != "scalar" or not isinstance(vv, str):
                if vt.kind != "scalar" and level(ctx, "METADATA_NOT_STRING") == Severity.HINT:
                    # A list or a map: no fix keeps it (it is no one string) and only skills-ref's
                    # validator (target agentskills: a warning) makes it a Python repr. Two audits
                    # of unseen repositories read 24 of 24 such hints as noise (`triggers: [...]`).
                    continue
                kk = doc.text[k.start:k.end]
                kt = k.target()
                shown = kt.value if kt.kind == "scalar" else kk  # the key as parsed: no YAML quotes
                fixable = vt.kind == "scalar" and vv is not None
                yield from emit(ctx, "METADATA_NOT_STRING",
                           f"metadata value of '{shown}' is {_describe(vt, vv)}; metadata values must be strings",
                           # An empty value has no span of its own: point at the key instead.
                           *((v.start, v.end) if v.end > v.start else (k.start, max(k.end, k.start + 1))),
                           {"key": kk, "fixable": fixable, "value": doc.text[v.start:v.end] if fixable else None})
        return
    if kind == "tools":
        yield from _tools(ctx, key, node, scalar, start, end)
        return
    if kind == "arguments":
        yield from _arguments(ctx, node, scalar, start, end)
        return
    if kind == "list-or-string":
        if node.kind == "seq" or (node.kind == "scalar" and isinstance(scalar, str)):
            return
        yield make("INVALID_TYPE", f"'{key}' must be a string or a list of strings, not {_describe(node, scalar)}",
                   start, end, {"field": key, "expected": "string or list"})
        return
    if kind == "hooks" and node.kind != "map":
        yield make("INVALID_TYPE", f"'{key}' must be a mapping of hook events, not {_describe(node, scalar)}",
                   start, end, {"field": key, "expected": "mapping"})


def _tools(ctx: Context, key: str, node: Node, scalar: Any, start: int, end: int) -> Iterator[Finding]:
    if node.kind == "scalar" and isinstance(scalar, str):
        if ctx.profile.tools_form == "string" and "," in _outside_parens(scalar):
            yield make("INVALID_VALUE", f"'{key}' is space-separated in the agentskills spec; commas become part of tool names",
                       start, end, {"field": key, "convert": "commas-to-spaces"})
        return
    if node.kind == "seq":
        # A number or a boolean among the names too (`[Read, 5]`: Copilot CLI does not load the
        # skill; capture case allowed-tools-types).
        if any(i.target().kind != "scalar" or not isinstance(resolve_scalar(i.target()), str) for i in node.items):
            yield make("INVALID_TYPE", f"'{key}' must be a list of tool names (strings)", start, end,
                       {"field": key, "expected": "string list"})
            return
        if ctx.profile.tools_form == "string":
            yield make("INVALID_TYPE", f"'{key}' is a list; the agentskills spec defines a space-separated string "
                       "(skills-ref passes lists through unvalidated, other tools reject them)", start, end,
                       {"field": key, "expected": "string", "convert": "to-string"})
        return
    yield make("INVALID_TYPE", f"'{key}' must be a string or a list of tool names, not {_describe(node, scalar)}",
               start, end, {"field": key, "expected": "string or list"})


def _outside_parens(text: str) -> str:
    depth = 0
    out = []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _arguments(ctx: Context, node: Node, scalar: Any, start: int, end: int) -> Iterator[Finding]:
    if ctx.profile.free_arguments and (node.kind == "seq" or isinstance(scalar, str)):
        return
    if node.kind != "map":
        yield make("INVALID_ARGUMENTS", "'arguments' must declare named arguments as a mapping "
                   "(name: {type, required, description})", start, end, {"field": "arguments"})
        return
    for k, v in node.items:
        kt, vt = k.target(), v.target()
        name = kt.value if kt.kind == "scalar" else ""
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
            yield make("INVALID_ARGUMENTS", f"argument name '{name}' cannot be used as ${{{name}}}; use letters, digits and _",
                       k.start, k.end, {"field": "arguments"})
        if vt.kind == "scalar" and resolve_scalar(vt) is None:
            continue
        if vt.kind != "map":
            yield make("INVALID_ARGUMENTS", f"argument '{name}' must be a mapping with type, required or description",
                       v.start, max(v.end, v.start + 1), {"field": "arguments"})
            continue
        for ak, av in vt.items:
            akey = ak.target().value
            aval = resolve_scalar(av.target()) if av.target().kind == "scalar" else None
            if akey == "required" and not isinstance(aval, bool):
                yield make("INVALID_ARGUMENTS", f"'required' of argument '{name}' must be true or false", av.start,
                           max(av.end, av.start + 1), {"field": "arguments"})
            elif akey == "type" and aval not in ("string",):
                yield make("INVALID_ARGUMENTS", f"argument '{name}' has type {aval!r}; named arguments are strings in v1",
                           av.start, max(av.end, av.start + 1), {"field": "arguments"})
            elif akey not in ("type", "required", "description", "default"):
                yield make("INVALID_ARGUMENTS", f"unknown key '{akey}' in argument '{name}' (type, required, description)",
                           ak.start, ak.end, {"field": "arguments"})


def _license(ctx: Context, value: str, start: int, end: int) -> Iterator[Finding]:
    v = value.strip()
    if not v:
        return
    # An SPDX expression first: it needs no folder listing (a scan's first pass lists none for "MIT").
    ids = _LICENSE_SPLIT.split(v)
    if _LICENSE_WORDS.match(v.replace("(", "").replace(")", "")) and all(is_spdx(i) for i in ids if i.strip()):
        return
    # "MIT license", "BSD-3-Clause License", "Apache-2.0 (see NOTICE)": an SPDX id with words around it
    # says which license it is (issue 26: every such finding on the held-out skills was noise).
    head = _LICENSE_HEAD.match(v)
    if head is not None and is_spdx(head.group(1)):
        return
    if _named(v):
        return
    files = ctx.files()
    # Punctuation around a file name goes; "./" only after it (stripping "." first left "/LICENSE").
    if files is not None and any(tok.strip(",;:()").removeprefix("./").strip(".,;:()") in files for tok in v.split()):
        return  # names a bundled file ("LICENSE", "Complete terms in LICENSE.txt", "./LICENSE")
    # "SEE LICENSE IN LICENSE" (npm's form), "Complete terms in LICENSE.txt": a file of the
    # repository the skill ships in, found up the folder tree.
    if ctx.skill_dir is not None and any(_in_ancestors(ctx, tok.strip(",;:()").removeprefix("./").strip(".,;:()"))
                                         for tok in v.split() if _LICENSE_FILE.match(tok.strip(",;:()."))):
        return
    if files is None and "/" not in v and "." in v:
        return  # a file name we cannot check for an unsaved buffer
    where = "a file in the skill folder" if files is not None else "a bundled file"
    yield from emit(ctx, "UNKNOWN_LICENSE", f"license \"{value}\" is neither an SPDX identifier nor {where}", start, end,
               {"field": "license"})


def _named(value: str) -> bool:
    """A license named as people write it: a statement that it is no open one ("Proprietary", "All
    rights reserved."), or an SPDX id written with spaces for its hyphens ("Apache 2.0", "CC BY-NC-SA
    4.0"), either with a link or a note in brackets after it."""
    core = _LICENSE_NOTE.sub("", value).strip(" .,;:-")
    if core.lower() in _STATEMENTS:
        return True
    return " " in core and is_spdx("-".join(core.split()))


def _in_ancestors(ctx: Context, name: str, levels: int = 6) -> bool:
    """Whether ``name`` is a file in the skill folder or one of the folders above it."""
    assert ctx.skill_dir is not None
    return ctx.is_file(name) or any(ctx.is_file_up(up + name) for up in UP[:levels - 1])
