"""Does harness H list this skill, and if it skips it, why.

Answered from the harness's facts alone: the root it lives in, the findings
the harness treats as blocking (the rules run as if H were the only target), and
the fields that hide a skill from the model's catalog. Below the renderers (they
take these answers) and above the rules (it runs them); it never calls the
workspace checker.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import TYPE_CHECKING

from . import document, rules
from .activation.jsstr import js_string, js_trim
from .claude_frontmatter import read as read_claude_frontmatter
from .claude_frontmatter import same_block
from .datarecord import datarecord
from .discovery import is_inside
from .findings import base_message
from .findings import qualifier as qualifier_of
from .gemini_frontmatter import line_values, read_document
from .harness import (
    BLOCKING_ACTIONS,
    HARNESSES,
    SAME_NAME,
    SURROGATE_ESCAPES,
    Harness,
    not_read,
    reads_root,
)
from .harness.claude_plugin import plugin_of
from .lazyre import lazy_re
from .lenient import simple_frontmatter
from .opencode_frontmatter import NOT_STRING
from .opencode_frontmatter import read_document as read_opencode_document
from .readings import SKIP, description_read, read_by, value_read_by
from .result import SkillResult
from .rules.fields import MAX_DESCRIPTION
from .targets import view
from .yamlnodes import Node, resolve_scalar

if TYPE_CHECKING:
    from .activation.records import SkillRecord


@datarecord(frozen=True, slots=True)
class Listing:
    harness: str
    listed: bool
    reason: str | None = None  # why it is skipped (None when listed)
    name: str | None = None  # the name the harness lists it under


def _lenient_values(text: str) -> dict[str, str]:
    return simple_frontmatter(text) or {}


def _non_string(h: Harness, doc: document.SkillDocument) -> Listing | None:
    """A `name` or `description` that is not a YAML string, as ``h`` reads it: None when that keeps it listed."""
    for key in ("name", "description"):
        entry = doc.entries.get(key)
        if entry is None:
            continue
        read = value_read_by(h, doc, key)
        if read is SKIP:
            written = doc.text[entry.value.start:entry.value.end].strip() or "(empty)"
            return Listing(h.name, False, f"{h.title} keeps it out: its '{key}' ({written}) is not a string "
                                          f"({h.non_string_source})")
        if read is None and h.blocks("MISSING_FIELD", key):
            effect = h.effect("MISSING_FIELD", key)
            assert effect is not None
            return Listing(h.name, False, f"{h.title} {effect.note}: its '{key}' is not a string, so it has none")
    return None


def listing(result: SkillResult, harness: Harness | str, *, roots: bool = True, tool: bool = False,
            loaded: bool = False) -> Listing:
    """Whether ``harness`` lists the checked skill ``result`` (its document must be present).

    ``roots=False`` leaves out the question of the root (the caller already chose the roots
    the harness reads, e.g. a dialect given the records of those roots). ``tool=True`` asks
    whether its skill tool loads the skill by name instead: what keeps a skill out of the
    catalog only (``Harness.tool_loads``) does not count then. ``loaded=True`` asks whether the
    harness loads it at all: a flag that only hides it from the model (``Harness.hidden_by``) does
    not count then.
    """
    h = HARNESSES[harness] if isinstance(harness, str) else harness
    skill_dir = os.path.dirname(result.path)
    if roots and not h.any_root and reads_root(h, skill_dir) is False:
        return Listing(h.name, False, not_read(h, skill_dir))
    level = _level(result, skill_dir)
    if level > max(1, h.depth):
        where = "in its roots only" if h.depth <= 1 else f"at most {h.depth} folders below its roots"
        return Listing(h.name, False, f"{h.title} looks for skill folders {where}; this one is {level} folders "
                                      "below its root")
    if level > 1 and not h.into_skills and _inside_a_skill(result, skill_dir):
        return Listing(h.name, False, f"{h.title} does not look for skills inside another skill's folder")
    base = result.path.replace("\\", "/").rsplit("/", 1)[-1]  # a Windows path too
    if base not in h.skill_files:
        # skill.md and other spellings (capture case skill-file-names): the harness opens the exact name.
        return Listing(h.name, False, f"{h.title} reads only {' or '.join(h.skill_files)}, never {base}: it "
                                      "does not find this skill")
    for f in result.findings:
        if f.code in ("OUTSIDE_WORKSPACE", "SENSITIVE", "IO_ERROR"):
            return Listing(h.name, False, f.message)
    plugin = plugin_of(skill_dir) if h.plugins else None
    if plugin is not None and plugin.name is None:
        return Listing(h.name, False, f"{h.title} does not load the plugin this skill belongs to: {plugin.problem}")
    doc = result.doc
    if doc is None:
        # Read failures returned above; a slim result (worker output) carries no document to judge.
        raise ValueError(f"{result.path}: listing needs the checked document (use check_file, not a slim result)")
    doc = read_by(doc, h)
    if doc.bom and h.bom is not None and h.bom.action in BLOCKING_ACTIONS:
        return Listing(h.name, False, f"{h.title} {h.bom.note}")
    if h.scalar_repair and doc.yaml_error is not None:
        effect = h.effect("INVALID_FRONTMATTER", None)
        note = effect.note if effect is not None else "leaves it out"
        return Listing(h.name, False, f"{h.title} {note}, also with its one-line values holding ': ' quoted "
                                      f"({h.scalar_repair.split(';')[0]})")
    refused = _surrogate_escape(h, doc)
    if refused is not None:
        return refused
    ctx = rules.Context(profile=view((h.name,)), check_links=False)
    if h.line_reader:
        return _read_by_line_reader(h, doc, ctx)
    if h.matter_retry:
        return _read_by_matter_retry(h, doc, ctx, tool)
    if h.non_string and doc.frontmatter_ok:
        skipped = _non_string(h, doc)
        if skipped is not None:
            return skipped
    lenient = False
    for f in rules.check(doc, ctx):
        qualifier = qualifier_of(f.data)
        if h.non_string and qualifier in ("name", "description") and f.code in ("INVALID_TYPE", "EMPTY_FIELD") \
                and not isinstance(doc.value(qualifier), str):
            continue  # read as _non_string says
        if f.code == "TOO_LONG" and qualifier == "description" and h.last_newline:
            value = description_read(h, doc)
            if isinstance(value, str) and len(value) <= MAX_DESCRIPTION:
                continue  # its last newline is not read
        if h.blocks(f.code, qualifier) and not (tool and f"{f.code}:{qualifier}" in h.tool_loads):
            effect = h.effect(f.code, qualifier)
            assert effect is not None
            return Listing(h.name, False, f"{h.title} {effect.note}: {base_message(f)}")
        lenient = lenient or f.code == "INVALID_FRONTMATTER"
    if lenient:
        # The YAML failed and the harness read `key: value` lines instead: what it requires
        # must be among those lines.
        values = _lenient_values(doc.text)
        for key in ("name", "description"):
            value = values.get(key)
            code = "MISSING_FIELD" if value is None else "EMPTY_FIELD" if not value.strip() else None
            if code is not None and h.blocks(code, key):
                effect = h.effect(code, key)
                assert effect is not None
                return Listing(h.name, False, f"{h.title} {effect.note}: no '{key}' in the `key: value` lines it "
                                              f"reads when the YAML fails")
    refused = _name_refused(h, doc, result.folder) or _utf16_too_long(h, doc)
    if refused is not None:
        return refused
    # Claude Code's reader (claude_frontmatter.py) reads what skill-lsp's parse reads when that
    # succeeded on the same block; else its own way.
    theirs = (read_claude_frontmatter(doc.text).fields
              if h.quoted_retry and not (doc.frontmatter_ok and same_block(doc.text)) else None)
    if h.conditional_paths and plugin is None:  # a plugin's skill is never conditional (probe paths)
        value = theirs.get("paths") if theirs is not None else doc.value("paths") if doc.frontmatter_ok else None
        if path_patterns(value):
            entry = doc.entries.get("paths") if doc.frontmatter_ok else None
            written = doc.text[entry.value.start:entry.value.end].strip() if entry is not None else js_string(value)
            return Listing(h.name, False, f"{h.title} lists this skill only once a file matching its paths "
                                          f"({' '.join(written.split())}) is read, edited or @-mentioned (an activated "
                                          "skill's `@file` counts): a conditional skill")
    for flag in () if loaded else h.hidden_by:
        if theirs is not None:
            if flag.key not in theirs:
                continue
            value = theirs[flag.key]
            scalar = not isinstance(value, (list, dict))
            hidden = flag.hides(value if scalar else None, scalar=scalar)
            entry = doc.entries.get(flag.key) if doc.frontmatter_ok else None
            written = (doc.text[entry.value.start:entry.value.end].strip() if entry is not None
                       else js_string(value) if scalar else "a list or a map") or "(empty)"
        elif doc.frontmatter_ok:
            entry = doc.entries.get(flag.key)
            if entry is None:
                continue
            node = entry.value.target()
            scalar = node.kind == "scalar"
            hidden = flag.hides(resolve_scalar(node) if scalar else None, scalar=scalar)
            written = doc.text[entry.value.start:entry.value.end].strip() or "(empty)"
        else:
            value = _lenient_values(doc.text).get(flag.key) if lenient else None
            hidden = value is not None and flag.hides(resolve_scalar(Node("scalar", 0, 0, value=value)))
            written = value or "(empty)"
        if hidden:
            return Listing(h.name, False, f"{flag.key}: {written} keeps it out of the model's catalog")
    name = result.name
    if plugin is not None:
        assert plugin.name is not None
        if not _described(doc, theirs):
            return Listing(h.name, False, f"{h.title} leaves a plugin's skill without a description out (a project "
                                          "skill would get the first line of its body)")
        folder = f"{plugin.name}:{result.folder}"
        return Listing(h.name, True, None, folder if name == result.folder else
                       h.mismatch_listed_as.format(name=f"{plugin.name}:{name}", folder=folder))
    if name != result.folder:
        name = h.mismatch_listed_as.format(name=name, folder=result.folder)
    return Listing(h.name, True, None, name)


def _described(doc: document.SkillDocument, theirs: dict | None) -> bool:
    """Whether the description Claude Code reads (``theirs``: its own reading, where it reads the
    frontmatter apart from skill-lsp's parse) holds more than whitespace."""
    return described(theirs.get("description") if theirs is not None
                     else doc.value("description") if doc.frontmatter_ok else None)


def described(value: object) -> bool:
    """Whether a description Claude Code read holds more than whitespace; a number or a boolean is
    read as JavaScript's String() of it."""
    if isinstance(value, (bool, int, float)):
        value = js_string(value)
    return isinstance(value, str) and bool(js_trim(value))


def path_patterns(value: object) -> list[str]:
    """The file patterns a `paths` value holds for Claude Code (capture case conditional-paths, probe
    paths): a string split at commas, or a list's strings; trimmed, empty ones and those matching
    every file (`**`, `/**`, `**/**`: `**` once a final `/**` is taken off) left out; `**/*` and
    `./**` are patterns. A number, a map or nothing holds none."""
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list):
        items = [v for v in value if isinstance(v, str)]
    else:
        return []
    return [p for p in (i.strip() for i in items) if p and p.removesuffix("/**") not in ("", "**")]


# Findings about reading the frontmatter, which a harness with its own reader (Harness.line_reader)
# answers itself.
_READER_DECIDES = frozenset({"MISSING_FRONTMATTER", "INVALID_FRONTMATTER", "MISSING_FIELD", "EMPTY_FIELD",
                             "INVALID_TYPE"})


def _read_by_line_reader(h: Harness, doc: document.SkillDocument, ctx: rules.Context) -> Listing:
    for f in rules.check(doc, ctx):
        if f.code in _READER_DECIDES:
            continue
        qualifier = qualifier_of(f.data)
        if h.blocks(f.code, qualifier):
            effect = h.effect(f.code, qualifier)
            assert effect is not None
            return Listing(h.name, False, f"{h.title} {effect.note}: {base_message(f)}")
    read = read_document(doc)
    if not read.block:
        return Listing(h.name, False, f"{h.title} finds no frontmatter and leaves it out: the file must open with "
                                      "`---` and a line break, and a line starting with `---` must end the block "
                                      f"({h.line_reader.split(',')[0]})")
    if not read.skill:
        names = line_values(read.text)
        missing = [k for k, v in zip(("name", "description"), names, strict=True) if v is None]
        effect = h.effect("MISSING_FIELD", missing[0] if missing else "name")
        note = effect.note if effect is not None else "leaves it out"
        what = " and ".join(f"'{k}'" for k in missing) or "'name' and 'description'"
        return Listing(h.name, False, f"{h.title} {note}: no {what} it reads (not a string in the YAML, and no "
                                      "such `key:` line its line reader takes when the YAML gives none)")
    return Listing(h.name, True, None, read.listed_name)


def _name_refused(h: Harness, doc: document.SkillDocument, folder: str) -> Listing | None:
    """The name ``h`` lists (the `name` string, else the folder name), trimmed, against its
    ``name_pattern``: a Listing when that keeps the skill out, else None."""
    if not h.name_pattern:
        return None
    value = value_read_by(h, doc, "name") if doc.frontmatter_ok else None
    name = (value if isinstance(value, str) and value.strip() else folder).strip()
    if not h.refuses_name(name):
        return None
    what = "its name" if isinstance(value, str) and value.strip() else "its folder name (it gives no name)"
    return Listing(h.name, False, f"{h.title} does not load it: {what} '{name}' does not match "
                                  f"`{h.name_pattern}` ({h.name_pattern_source})")


# A `\u` or `\U` escape of a surrogate code point (U+D800 to U+DFFF) that no backslash escapes.
_SURROGATE_ESCAPE = lazy_re(r"(?<!\\)(?:\\\\)*(\\(?:u|U0000)[dD][89a-fA-F][0-9a-fA-F]{2})")


def _surrogate_escape(h: Harness, doc: document.SkillDocument) -> Listing | None:
    """A double-quoted scalar (a key too) holding a surrogate escape, where ``h``'s YAML parser refuses
    it (fact SURROGATE_ESCAPES): a Listing that says so, else None. Single-quoted, plain and block
    scalars hold no escapes, nor does a comment."""
    fact = h.fact(SURROGATE_ESCAPES)
    if fact is None or doc.root is None or "\\" not in doc.text:
        return None
    todo = [doc.root]
    while todo:
        node = todo.pop()
        if node.alias_of is not None:
            continue  # its target is visited where it is written
        if node.kind == "scalar":
            m = _SURROGATE_ESCAPE.search(doc.text, node.start, node.end) if node.style == '"' else None
            if m is not None:
                line = doc.text.count("\n", 0, m.start(1)) + 1
                return Listing(h.name, False, f"{h.title} does not load it: the double-quoted `{m.group(1)}` on line "
                                              f"{line} escapes a surrogate code point, which its YAML parser (libyaml) "
                                              f"refuses, even as half of a pair ({fact.source})")
            continue
        for item in node.items:
            todo.extend(item if isinstance(item, tuple) else (item,))
    return None


def _utf16_too_long(h: Harness, doc: document.SkillDocument) -> Listing | None:
    """A description within the TOO_LONG limit in characters that ``h`` counts over it in UTF-16 units."""
    effect = h.effect("TOO_LONG", "description")
    if not h.utf16_lengths or effect is None or effect.action not in BLOCKING_ACTIONS or not doc.frontmatter_ok:
        return None
    value = description_read(h, doc)
    if not isinstance(value, str) or len(value) > MAX_DESCRIPTION:
        return None  # the rule's own TOO_LONG decided
    units = len(value.encode("utf-16-le", "surrogatepass")) // 2  # a lone surrogate is one unit
    if units <= MAX_DESCRIPTION:
        return None
    return Listing(h.name, False, f"{h.title} {effect.note}: its description is {len(value):,} characters but "
                                  f"{units:,} UTF-16 code units ({h.utf16_lengths})")


_MATTER_DECIDES = _READER_DECIDES | {"DUPLICATE_KEY", "FRONTMATTER_LIMIT"}


def _read_by_matter_retry(h: Harness, doc: document.SkillDocument, ctx: rules.Context, tool: bool) -> Listing:
    """OpenCode's reader (opencode_frontmatter.py) decides what reading the frontmatter decides."""
    for f in rules.check(doc, ctx):
        if f.code in _MATTER_DECIDES:
            continue
        qualifier = qualifier_of(f.data)
        if h.blocks(f.code, qualifier):
            effect = h.effect(f.code, qualifier)
            assert effect is not None
            return Listing(h.name, False, f"{h.title} {effect.note}: {base_message(f)}")
    read = read_opencode_document(doc)
    source = h.matter_retry.split(",")[0]
    if not read.front:
        return Listing(h.name, False, f"{h.title} finds no frontmatter and leaves it out: the file must open with "
                                      f"`---` ({source})")
    if read.data is None:
        return Listing(h.name, False, f"{h.title} cannot parse its YAML, not even with `key: a: b` lines made block "
                                      f"scalars, and leaves it out ({source})")
    for key in ("name", "description"):
        if read.data.get(key, "") is NOT_STRING:
            return Listing(h.name, False, f"{h.title} leaves it out: its YAML gives '{key}' as no string ({source})")
    if read.name is None:
        effect = h.effect("MISSING_FIELD", "name")
        note = effect.note if effect is not None else "leaves it out"
        return Listing(h.name, False, f"{h.title} {note}: no 'name' in the YAML it reads ({source})")
    if read.description is None and not (tool and "MISSING_FIELD:description" in h.tool_loads):
        effect = h.effect("MISSING_FIELD", "description")
        note = effect.note if effect is not None else "leaves it out"
        return Listing(h.name, False, f"{h.title} {note}: no 'description' in the YAML it reads ({source})")
    return Listing(h.name, True, None, read.name)


def _level(result: SkillResult, skill_dir: str) -> int:
    """How many folders below its root the skill folder is (1: directly in it; 1 when not known)."""
    root = result.location.root if result.location is not None else None
    if not root or result.location is None or result.location.root_index < 0 or not is_inside(skill_dir, root):
        return 1
    rel = os.path.relpath(skill_dir, root)
    return 1 if rel == "." else rel.count(os.sep) + 1


def _inside_a_skill(result: SkillResult, skill_dir: str) -> bool:
    """Whether a folder between the skill's root and its folder holds a SKILL.md of its own."""
    root = result.location.root if result.location is not None else None
    if not root:
        return False
    folder = os.path.dirname(skill_dir)
    while folder != root and is_inside(folder, root) and folder != os.path.dirname(folder):
        if os.path.isfile(os.path.join(folder, "SKILL.md")):
            return True
        folder = os.path.dirname(folder)
    return False


def unread_link(h: Harness | None, path: str, error: tuple[str, str] | None) -> str | None:
    """Why ``h`` lists a skill skill-lsp does not read: its folder is a symbolic link the harness
    follows (capture case skill-links) and skill-lsp's fence keeps out (OUTSIDE_WORKSPACE). None
    otherwise. Only the link itself is looked at, never what it leads to."""
    if h is None or not h.follows_links or error is None or error[0] != "OUTSIDE_WORKSPACE":
        return None
    if not os.path.islink(os.path.dirname(path)):
        return None  # a SKILL.md that leads out of its folder, or a `..` path: not what was proven
    return f"its folder is a link, which {h.title} follows (not read by skill-lsp: {error[1]})"


_SEEN: dict[tuple[str, str, str, bool, bool, bool], Listing] = {}


@lru_cache(maxsize=1024)
def _memo(harness: str, path: str, text: str, loaded: bool = False) -> Listing:
    # A record built in memory: its text parsed as a SKILL.md that is not on disk. listing()
    # runs the rules for the harness itself; the result's own findings only name read failures.
    return listing(SkillResult(path, document.parse(text, path), []), harness, roots=False, loaded=loaded)


def _text_of(record: SkillRecord) -> str:
    """The SKILL.md a record stands for: its text, else its frontmatter (JSON values are YAML) and body."""
    if record.text is not None:
        return record.text
    if not record.frontmatter:
        return record.body
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in record.frontmatter.items()]
    return "---\n" + "\n".join(lines) + "\n---\n" + record.body


def record_listing(record: SkillRecord, harness: Harness | str, *, tool: bool = False,
                   loaded: bool = False) -> Listing:
    """:func:`listing` for an activation record, the root aside (a dialect is given the roots' records).

    Records made by ``preview.record_for`` carry their checked result; others are checked
    from their text (cached by text, so a hover over eight dialects checks it once each).
    """
    h = harness.name if isinstance(harness, Harness) else harness
    checked = record.checked
    doc = getattr(checked, "doc", None)
    if doc is not None:
        # A catalog asks several times per skill (order, sizes, skipped): once per text is enough.
        key = (h, record.path, doc.text, doc.bom, tool, loaded)
        got = _SEEN.get(key)
        if got is None:
            got = listing(checked, h, roots=False, tool=tool, loaded=loaded)  # type: ignore[arg-type]
            if len(_SEEN) >= 8192:
                _SEEN.clear()
            _SEEN[key] = got
        return got
    if record.error is not None and record.error[0] in ("IO_ERROR", "SENSITIVE", "OUTSIDE_WORKSPACE"):
        return Listing(h, False, record.error[1])
    return _memo(h, record.path, _text_of(record), loaded)


def shadowed_reason(h: Harness | None, label: str) -> str:
    """Why a skill another of its name is listed instead of is not listed; where the release does
    not settle which copy it keeps (a ``SAME_NAME`` fact), that, rather than a winner."""
    unsettled = h.fact(SAME_NAME) if h is not None else None
    if unsettled is not None:
        return f"{label} {unsettled.text}: this preview lists the other one"
    return f"{label} lists another skill of the same name instead"
