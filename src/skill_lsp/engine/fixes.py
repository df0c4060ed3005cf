"""Fixes derived from a finding's code and data (never from its message).

Edits are minimal text replacements that keep comments, quoting and key order.
Each fix has an applicability, as in ruff:

- safe: mechanical and meaning-preserving; `check --fix` and the editor's fix-all apply it;
- unsafe: offered one by one as a quick-fix, applied by the CLI only with `--unsafe-fixes`;
- display-only: a folder rename, which the CLI never performs (the editor offers it as a
  quick-fix where the client can rename folders).

A fix its builder calls safe stays safe only when none of its edits touches code, raw HTML
or an example of what not to do (engine/protected.py); ``fixes_for`` downgrades it
otherwise, so the CLI, fix-all and the quick-fix menu all get the same answer.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable

from . import markdown, protected
from .datarecord import replace
from .depth_fixes import BUILDERS as DEPTH_BUILDERS
from .document import SkillDocument, parse
from .edits import DISPLAY_ONLY, SAFE, UNSAFE, Edit, Fix, _line_span, _newline, yaml_string
from .findings import Finding
from .frontmatter import bare_fields, late_frontmatter
from .lazyre import lazy_re
from .profiles import FIELDS
from .rules.bodyscan import code_blocks
from .rules.name import ASCII_NAME
from .yamlnodes import to_python


def _replace_value(doc: SkillDocument, key: str, new: str) -> Edit | None:
    entry = doc.entries.get(key)
    if entry is None:
        return None
    v = entry.value
    # Only name fixes replace a value, and only a non-empty name has them.
    return Edit(v.start, v.end, new) if v.end > v.start else None


def _trim(doc: SkillDocument, f: Finding) -> list[Fix]:
    text = doc.text
    whole = Fix("Trim trailing whitespace", (Edit(f.start, f.end, ""),), safe=True, preferred=True)
    if f.start >= _body_start(doc) and ("\f" in text[f.start:f.end] or "\v" in text[f.start:f.end]
                                        or text[f.start - 1:f.start] == "\\"
                                        or text[f.start - 1:f.start] == "\r" and text[f.end:f.end + 1] == "\n"):
        # Markdown does not count a form or line tab as blank: a line of them continues a
        # paragraph, which trimmed they would end. A backslash left last breaks the line. A blank
        # line between a CR and a LF, trimmed, is gone: the two make one line end (generated
        # bodies found all three).
        return [_unsafe(whole, "markdown")]
    if (doc.split is not None and f.start > doc.body_start and text.endswith("  ", f.start, f.end)
            and text[f.start - 1] not in "\r\n" and _breaks_the_line(doc, f.end)):
        # Two spaces or more before the line end break the line in Markdown (the rule lets exactly
        # two be): trimmed to two, the page renders the same; trimmed whole, the break is gone.
        return [Fix("Trim trailing whitespace to the two spaces of a line break", (Edit(f.start, f.end - 2, ""),),
                    safe=True, preferred=True),
                _unsafe(whole, "markdown")]
    return [whole]


def _breaks_the_line(doc: SkillDocument, end: int) -> bool:
    """Whether the body's Markdown breaks the line whose trailing spaces end at ``end`` (its line
    end), as pyromark says. Without it, or where the next line holds a form feed or line tab
    (pulldown-cmark takes them for blanks, CommonMark does not: `#<VT>x` is no heading there):
    whether a line with text follows (a paragraph may go on there)."""
    src = doc.src
    nxt = src.line_of(end) + 1
    if nxt >= src.line_count:
        return False
    line = src.line_text(nxt)
    breaks = doc.memo.get("hard-breaks", False)
    if breaks is False:
        breaks = doc.memo["hard-breaks"] = markdown.hard_breaks(doc.body_text, doc.body_start)
    if breaks is not None and "\f" not in line and "\v" not in line:
        return any(s < end <= e for s, e in breaks)  # type: ignore[attr-defined]
    return bool(line.strip())


def _name_mismatch(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    folder, name = data.get("folder", ""), data.get("name", "")
    out = []
    edit = _replace_value(doc, "name", yaml_string(folder)) if folder else None
    if edit is not None:
        out.append(Fix(f"Set name to the folder name '{folder}'", (edit,), preferred=True))
    if name and os.sep not in name and "/" not in name and ASCII_NAME.match(name):
        # Only to a valid name: renaming 'x/' to 'My Skill/' trades one error for another.
        parent = os.path.dirname(doc.skill_dir)
        out.append(Fix(f"Rename the folder to '{name}'", (), rename=(doc.skill_dir, os.path.join(parent, name))))
    return out


def _name_suggestion(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    out = []
    suggestion = data.get("suggestion")
    if suggestion:
        edit = _replace_value(doc, "name", yaml_string(suggestion))
        if edit is not None:
            title = (f"Set name to the folder name '{suggestion}'" if suggestion == data.get("folder")
                     else f"Change name to '{suggestion}'")
            out.append(Fix(title, (edit,), preferred=True))
    folder = data.get("folder")
    if folder and folder != suggestion and re.match(r"^[a-z0-9]+(-[a-z0-9]+)*$", folder):
        edit = _replace_value(doc, "name", folder)
        if edit is not None:
            out.append(Fix(f"Set name to the folder name '{folder}'", (edit,)))
    return out


def _absolute_link(doc: SkillDocument, f: Finding) -> list[Fix]:
    rel = (f.data or {}).get("relative")
    if not rel:
        return []
    bracketed = f.start > 0 and doc.text[f.start - 1] == "<"
    target = rel if bracketed else rel.replace(" ", "%20")
    return [Fix(f"Make the link relative ('{target}')", (Edit(f.start, f.end, target),), safe=True, preferred=True)]


def _unquoted_colon(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    if data.get("yaml") == "reserved":
        return _reserved(doc, data)
    if data.get("reason") != "unquoted-colon":
        return []
    value = str(data["value"])
    start, end = int(data["valueStart"]), int(data["valueEnd"])
    nl = _newline(doc)
    quoted = json.dumps(value, ensure_ascii=False)
    block = ">-" + "".join(f"{nl}  {line}" for line in _wrap(value))
    quote = Fix("Quote the value", (Edit(start, end, quoted),), safe=True, preferred=True)
    if not _quoting_holds(doc, str(data.get("key", "")), value, start, end, quoted):
        quote = _unsafe(quote, "yaml")
    elif run_in_field(value):
        quote = _unsafe(quote, "field")
    return [quote, Fix("Turn the value into a block scalar", (Edit(start, end, block),))]


def _reserved(doc: SkillDocument, data: dict) -> list[Fix]:
    """A one-line value opening with a character YAML reserves, quoted: the string Claude Code's
    second reading takes (``rules.structure``), now what every parser reads."""
    value = str(data["value"])
    start, end = int(data["valueStart"]), int(data["valueEnd"])
    quoted = json.dumps(value, ensure_ascii=False)
    if not _quoting_holds(doc, str(data["key"]), value, start, end, quoted):
        return []
    return [Fix("Quote the value", (Edit(start, end, quoted),), safe=True, preferred=True)]


# A skill field's name and its colon inside a value: `…?version: 2.0.0` where a file's line breaks
# were lost (unseen ptreezh/sscisubagent-skills: eight descriptions garbled by a wrong encoding,
# each with the next line's field run into it). Quoted whole, the field would become text.
_RUN_IN = lazy_re("(?<![\\w-])(?:" + "|".join(sorted(FIELDS, key=len, reverse=True))
                  + r"|author|tags|title|category)\s*:(?:[ \t]|$)")


def run_in_field(value: str) -> bool:
    """Whether ``value`` holds what reads as another field (`version: 2.0.0`): quoting it whole
    would keep that field's text in the value, where the author meant a field of its own."""
    return _RUN_IN.search(value) is not None


def _quoting_holds(doc: SkillDocument, key: str, value: str, start: int, end: int, quoted: str) -> bool:
    """Whether the frontmatter, ``quoted`` put in place of the value, reads the value whole under its
    key, or fails only past the next key: lines the value did not take (indented ones after a blank
    line, unseen thcjp/hermes-skills: `  - item` under `description: … 核心能力:`) would be left
    behind, the YAML still broken and the value cut short."""
    after = parse(doc.text[:start] + quoted + doc.text[end:], doc.path)
    if after.frontmatter_ok:
        return after.value(key.strip("\"'")) == value
    err = after.yaml_error
    if err is None or after.split is None:
        return False
    src = after.src
    line = src.line_of(start + len(quoted))
    following = next((n for n in range(line + 1, src.line_of(after.split.close_start))
                      if src.line_text(n)[:1] not in ("", " ", "\t", "#")), None)
    return following is not None and err.offset >= src.line_start(following)


def colon_quote_edits(doc: SkillDocument) -> list[Edit]:
    """The "Quote the value" edit of every top-level plain value holding ': ' (fix-all's one pass)."""
    from .rules.structure import unquoted_colons  # noqa: PLC0415

    # A value another field ran into is left as it is (``run_in_field``).
    found = [(str(c["key"]), str(c["value"]), int(c["valueStart"]), int(c["valueEnd"]))  # type: ignore[call-overload]
             for c in unquoted_colons(doc) if not run_in_field(str(c["value"]))]
    edits = [Edit(start, end, json.dumps(value, ensure_ascii=False)) for _, value, start, end in found]
    after = parse(apply_edits(doc.text, edits), doc.path) if edits else None
    if after is not None and after.frontmatter_ok and all(after.value(key.strip("\"'")) == value
                                                          for key, value, _, _ in found):
        return edits  # all of them at once read every value whole (one parse, not one a value)
    return [e for e, (key, value, start, end) in zip(edits, found, strict=True)
            if _quoting_holds(doc, key, value, start, end, e.text)]


def _wrap(text: str, width: int = 78) -> list[str]:
    words = text.split(" ")
    lines, cur = [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return lines


def _stringify(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def _metadata_value(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    if not data.get("fixable"):
        return []
    raw = doc.text[f.start:f.end]
    # Offered, not applied by --fix: the repository's own tools may read the type (unseen
    # peterbamuhigire/srs-skills validates `portable: true` as a boolean; 158 files).
    return [Fix(f"Quote the value ({json.dumps(raw)})", (Edit(f.start, f.end, json.dumps(raw, ensure_ascii=False)),),
                preferred=True)]


def _unknown_field(doc: SkillDocument, f: Finding) -> list[Fix]:
    meant = (f.data or {}).get("suggestion")
    out = []
    if meant and meant not in doc.entries:
        out.append(Fix(f"Rename to '{meant}'", (Edit(f.start, f.end, meant),), preferred=True))
    return out + _move_to_metadata(doc, f)


def _move_to_metadata(doc: SkillDocument, f: Finding) -> list[Fix]:
    key = (f.data or {}).get("field")
    entry = doc.entries.get(key) if key else None
    if entry is None or key == "metadata":
        return []
    value = _stringify(to_python(entry.value))
    nl = _newline(doc)
    s, e = _line_span(doc, entry.key_node.start, max(entry.value.end, entry.key_node.end))
    remove = Edit(s, e, "")
    meta = doc.entries.get("metadata")
    line = f"  {yaml_string(str(key))}: {json.dumps(value, ensure_ascii=False)}{nl}"
    if meta is not None and meta.value.target().kind == "map" and meta.value.style == "" and not meta.value.is_alias:
        if any(k.target().value == key for k, _ in meta.value.target().items):
            return []
        _, me = _line_span(doc, meta.value.start, meta.value.end)
        indent = doc.src.position(meta.value.start)[1]
        line = " " * indent + line.lstrip(" ")
        add = Edit(me, me, line)
    elif meta is None:
        sp = doc.split
        assert sp is not None
        add = Edit(sp.close_start, sp.close_start, f"metadata:{nl}{line}")
    else:
        return []
    edits = (remove, add) if remove.start < add.start else (add, remove)
    return [Fix(f"Move '{key}' under metadata", edits)]


def _camel_case(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    new = data.get("replacement")
    if not new or new in doc.entries:
        return []
    return [Fix(f"Rename to '{new}'", (Edit(f.start, f.end, new),), safe=True, preferred=True)]


def _boolean_string(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    if "boolean" not in data:
        return []
    word = "true" if data["boolean"] else "false"
    return [Fix(f"Write {word} as a YAML boolean", (Edit(f.start, f.end, word),), safe=True, preferred=True)]


def _tools_form(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    key = data.get("field", "allowed-tools")
    entry = doc.entries.get(key)
    if entry is None:
        return []
    if data.get("convert") == "to-string" and entry.value.target().kind == "seq":
        items = [str(to_python(i)) for i in entry.value.target().items]
        colon = doc.text.find(":", entry.key_node.end)
        new = " " + yaml_string(" ".join(items))
        end = entry.value.end
        while end > colon + 1 and doc.text[end - 1] in " \t\r\n":
            end -= 1  # a block sequence's span runs to the next key's line; keep that line break
        return [Fix("Write allowed-tools as a space-separated string", (Edit(colon + 1, end, new),),
                    safe=True, preferred=True)]
    if data.get("convert") == "commas-to-spaces":
        value = to_python(entry.value)
        if isinstance(value, str):
            # The skill tool's own splitter: commas inside `Bash(a,b)` stay put.
            from .activation.frontmatter import normalize_allowed_tools  # noqa: PLC0415

            parts = normalize_allowed_tools(value)
            assert isinstance(parts, list)
            return [Fix("Separate tools with spaces", (Edit(f.start, f.end, yaml_string(" ".join(parts))),),
                        safe=True, preferred=True)]
    return []


def _insert_field(doc: SkillDocument, f: Finding) -> list[Fix]:
    field = (f.data or {}).get("field")
    sp = doc.split
    if sp is None or not sp.closed or field not in ("name", "description"):
        return []
    nl = _newline(doc)
    at = doc.src.line_starts[1] if doc.src.line_count > 1 else len(doc.text)
    if field == "name":
        value = (f.data or {}).get("folder") or "my-skill"
        text = f"name: {yaml_string(value)}{nl}"
    else:
        text = f'description: "Describe what this skill does and when to use it."{nl}'
        if "name" in doc.entries:
            _, at = _line_span(doc, doc.entries["name"].key_node.start, doc.entries["name"].value.end)
    return [Fix(f"Insert '{field}'", (Edit(at, at, text),), preferred=True)]


def _insert_frontmatter(doc: SkillDocument, f: Finding) -> list[Fix]:
    kind = (f.data or {}).get("fix")
    if kind == "move-comment":
        return _move_comment(doc)
    if kind == "fence-fields":
        return _fence_fields(doc)
    nl = _newline(doc)
    name = doc.folder or "my-skill"
    text = (f"---{nl}name: {yaml_string(name)}{nl}"
            f'description: "Describe what this skill does and when to use it."{nl}---{nl}')
    at = 1 if doc.text.startswith("\ufeff") else 0
    return [Fix("Insert frontmatter", (Edit(at, at, text),), preferred=True)]


def _move_comment(doc: SkillDocument) -> list[Fix]:
    """The comment above the frontmatter (and the blank lines after it) moved to the body's start:
    every byte kept."""
    late = late_frontmatter(doc.text)
    if late is None:
        return []
    start, end, below = late
    return [Fix("Move the comment below the frontmatter",
                (Edit(start, end, ""), Edit(below, below, doc.text[start:end])), preferred=True)]


def _fence_fields(doc: SkillDocument) -> list[Fix]:
    """`---` lines around the `key: value` lines at the top."""
    end = bare_fields(doc.text)
    if end is None:
        return []
    nl = _newline(doc)
    at = 1 if doc.text.startswith("\ufeff") else 0
    closing = f"---{nl}" if doc.text[end - 1:end] == "\n" else f"{nl}---{nl}"
    return [Fix("Put the fields between `---` lines", (Edit(at, at, f"---{nl}"), Edit(end, end, closing)),
                preferred=True)]


def _unknown_skill(doc: SkillDocument, f: Finding) -> list[Fix]:
    names = (f.data or {}).get("candidates") or []
    return [Fix(f"Change to '{n}'", (Edit(f.start, f.end, n),), preferred=i == 0 and len(names) == 1)
            for i, n in enumerate(names) if isinstance(n, str)]


def _unused_suppression(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    start, end, text = data["fix"]
    if not (0 <= int(start) <= int(end) <= len(doc.text)):
        return []
    codes = [c for c in data.get("codes", []) if isinstance(c, str)]
    title = (f"Remove {', '.join(codes)} from the suppression" if text else
             "Remove the unused suppression" if codes else "Remove the comment")
    return [Fix(title, (Edit(int(start), int(end), str(text)),), safe=True, preferred=True)]


_BUILDERS: dict[str, Callable[[SkillDocument, Finding], list[Fix]]] = {
    "UNUSED_SUPPRESSION": _unused_suppression,
    "UNKNOWN_SKILL": _unknown_skill,
    "TRAILING_WHITESPACE": _trim,
    "NAME_MISMATCH": _name_mismatch,
    "NAME_INVALID": _name_suggestion,
    "NAME_SPOOFABLE": _name_suggestion,
    "TOO_LONG": lambda d, f: _name_suggestion(d, f) if (f.data or {}).get("field") == "name" else [],
    "ABSOLUTE_LINK": _absolute_link,
    "INVALID_FRONTMATTER": _unquoted_colon,
    "METADATA_NOT_STRING": _metadata_value,
    "UNKNOWN_FIELD": _unknown_field,
    "CAMELCASE_FIELD": _camel_case,
    "INVALID_VALUE": lambda d, f: _boolean_string(d, f) or _tools_form(d, f),
    "INVALID_TYPE": _tools_form,
    "MISSING_FIELD": _insert_field,
    "MISSING_FRONTMATTER": _insert_frontmatter,
}


def _builder(code: str) -> Callable[[SkillDocument, Finding], list[Fix]] | None:
    builder = _BUILDERS.get(code)
    if builder is None:
        builder = DEPTH_BUILDERS.get(code)
    return builder


def has_fixes(code: str) -> bool:
    """Whether findings of ``code`` can have fixes at all (most codes have none)."""
    return _builder(code) is not None


def fixes_for(doc: SkillDocument, finding: Finding) -> list[Fix]:
    builder = _builder(finding.code)
    if builder is None:
        return []
    try:
        fixes = builder(doc, finding)
    except (KeyError, ValueError, TypeError, IndexError):
        return []  # stale data never breaks a code-action request
    fixes = [guard(doc, fix) for fix in fixes]
    if finding.code in _DELETIONS and finding.start < _body_start(doc):
        fixes = [_keeps_the_yaml(doc, fix, finding.code) for fix in fixes]
    elif finding.code == "INVISIBLE_CHARACTERS":
        fixes = [_keeps_the_markdown(doc, _keeps_the_links(doc, fix)) for fix in fixes]
    return fixes


def _body_start(doc: SkillDocument) -> int:
    return doc.split.body_start if doc.split is not None else 0


def guard(doc: SkillDocument, fix: Fix) -> Fix:
    """``fix``, downgraded to unsafe (and not preferred) when an edit touches protected text."""
    if not fix.safe:
        return fix
    body = _body_start(doc)
    for e in fix.edits:
        if e.end < body or (e.end == body and e.start < body):
            continue  # frontmatter: YAML, never code or an example
        span = protected.covering(doc, e.start, e.end)
        if span is not None:
            return _unsafe(fix, span.kind)
    return fix


def _unsafe(fix: Fix, kind: str) -> Fix:
    return replace(fix, safe=False, preferred=False, unsafe_because=kind,
                   title=f"{fix.title} (unsafe: {protected.REASONS[kind]})")


# Safe fixes that only delete characters nobody reads: in the frontmatter, the YAML must read the
# same without them. A zero-width space before a value's opening quote makes the value a plain
# string, quotes and backslashes included; deleted, the value is a quoted string, its escapes
# read (and a stray quote inside it no longer parses): held-out fuzzing found both.
_DELETIONS = frozenset({"INVISIBLE_CHARACTERS", "TRAILING_WHITESPACE", "UNUSED_SUPPRESSION"})


def _keeps_the_yaml(doc: SkillDocument, fix: Fix, code: str = "") -> Fix:
    """``fix``, downgraded to unsafe when the frontmatter (which parsed) reads otherwise after it
    than without the deleted characters: another structure, another value, or no parse at all.
    Trailing whitespace: otherwise than with each line of each value trimmed (taking every space
    out of the values hid two words joined: `"a\\  ⏎ b"` trimmed leaves an escaped line break)."""
    if not fix.safe or not doc.frontmatter_ok or not fix.edits:
        return fix
    after = parse(apply_edits(doc.text, list(fix.edits)), doc.path)
    if code == "TRAILING_WHITESPACE":
        def read(value: object) -> object:
            return _each_string(value, lambda s: "\n".join(line.rstrip(" \t") for line in s.split("\n")))
    else:
        gone = {c for e in fix.edits for c in doc.text[e.start:e.end]}

        def read(value: object) -> object:
            return _without(value, gone)
    same = after.frontmatter_ok and read(after.frontmatter_values()) == read(doc.frontmatter_values())
    return fix if same else _unsafe(fix, "yaml")


def _keeps_the_links(doc: SkillDocument, fix: Fix) -> Fix:
    """``fix``, downgraded to unsafe when it edits a link's destination: there the characters are
    part of the path, and deleted, the link names another file (one outside the skill, found by
    held-out fuzzing: `.<U+FEFF>./../references/x.md`)."""
    if not fix.safe:
        return fix
    for e in fix.edits:
        if any(link.kind != "reference" and link.target_start < max(e.end, e.start + 1) and e.start < link.target_end
               for link in doc.links):
            return _unsafe(fix, "link")
    return fix


def _keeps_the_markdown(doc: SkillDocument, fix: Fix) -> Fix:
    """``fix``, downgraded to unsafe when the body may read otherwise after it. Markdown is made of
    punctuation, whitespace and line starts: a deletion between two of those may join them into
    syntax (`` `<U+FEFF>``bash `` into a fence, ``!<U+2060>`cmd` `` into a command Claude Code
    runs, ``[x]<U+2060>(y)`` into a link, ``*<U+FEFF> y*`` out of emphasis), and so may one after
    '<' or '&' (``<<U+FEFF>https://x>`` into an autolink): only one next to a letter may be safe.
    Even then (``<x<U+FEFF>-->`` is a tag without it) the body is read again: its code blocks as
    the rules see them and its rendered page must stay the same. Held-out fuzzing on disk found
    the fence; generated junctions the rest."""
    if not fix.safe or not fix.edits:
        return fix
    text = doc.text
    for e in fix.edits:
        before = text[e.start - 1] if e.start > 0 else "\n"
        after = text[e.end] if e.end < len(text) else "\n"
        if not (before.isalpha() or after.isalpha()) or before in "<&":
            return _unsafe(fix, "markdown")  # after '<' or '&' an autolink, tag or entity opens
    gone = {c for e in fix.edits for c in text[e.start:e.end]}
    if _body_shape(parse(apply_edits(text, list(fix.edits)), doc.path), gone) == _body_shape(doc, gone):
        return fix
    return _unsafe(fix, "markdown")


def _body_shape(doc: SkillDocument, gone: set[str]) -> tuple[object, object]:
    """What the rules and a reader see of ``doc``'s body, without the characters of ``gone``:
    the fenced code blocks, and the page rendered."""
    text = doc.text
    page = markdown.html(doc.body_text) if doc.split is not None else ""
    return [_without(text[s:e], gone) for s, e in code_blocks(doc)], _without(page, gone)


def _without(value: object, gone: set[str]) -> object:
    """``value`` with the characters of ``gone`` taken out of every string in it."""
    return _each_string(value, lambda s: "".join(c for c in s if c not in gone) if gone.intersection(s) else s)


def _each_string(value: object, change: Callable[[str], str]) -> object:
    """``value`` (YAML read as Python: strings, mappings, lists, scalars) with ``change`` made to
    every string in it, keys included."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {_each_string(k, change): _each_string(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_each_string(v, change) for v in value]
    return value


def chosen_fix(fixes: list[Fix], *, unsafe: bool = False) -> Fix | None:
    """The fix `check --fix` applies from a finding's menu: its safe one; with ``unsafe``, else
    the preferred unsafe one, or the only one. Folder renames never (display-only)."""
    for fix in fixes:
        if fix.applicability == SAFE:
            return fix
    if not unsafe:
        return None
    menu = [f for f in fixes if f.applicability == UNSAFE and f.edits]
    preferred = [f for f in menu if f.preferred]
    if len(preferred) == 1:
        return preferred[0]
    return menu[0] if len(menu) == 1 else None


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (overlapping ones after the first are dropped)."""
    chosen: list[Edit] = []
    last_end = -1
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < last_end:
            continue
        chosen.append(e)
        last_end = max(e.end, e.start)
    out = text
    for e in reversed(chosen):
        out = out[:e.start] + e.text + out[e.end:]
    return out


def safe_edits(doc: SkillDocument, findings: list[Finding], *, unsafe: bool = False) -> list[Edit]:
    """The edits of every finding's chosen fix (``chosen_fix``)."""
    edits: list[Edit] = []
    for f in findings:
        fix = chosen_fix(fixes_for(doc, f), unsafe=unsafe)
        if fix is not None:
            edits.extend(fix.edits)
    return edits


# --- what docs/rules.md says about each code's fixes ---------------------------------------

_GUARDED = ("It becomes unsafe where it would edit code (a code block, inline code, a `<code>` element), raw "
            "HTML or an HTML comment, or an example the prose marks as what not to do (✗, ❌, \"Avoid\", "
            "\"Don't\", \"Bad:\", \"Wrong:\" in a heading, label, line or table row): there the text is meant "
            "literally, so `check --fix` and fix-all leave it and the editor offers the fix as an unsafe "
            "quick-fix.")

_YAML_GUARDED = ("In the frontmatter it is unsafe where the YAML would read otherwise than without the deleted "
                 "characters (a zero-width space before a value's opening quote makes the quotes part of a plain "
                 "value; deleted, the value is quoted and its escapes are read).")
_LINK_GUARDED = ("It is unsafe in a link's destination too, where the characters are part of the path it names, "
                 "and in the body wherever the Markdown may read otherwise without them: between two marks of "
                 "punctuation, whitespace or a line start, which the deletion would join (`` `<U+FEFF>``bash `` "
                 "into a fence, ``!<U+2060>`cmd` `` into a command), after `<` or `&` (an autolink, a tag), or "
                 "where the body read again has other fenced code blocks or renders another page.")

# Per code with fixes: the applicabilities its menu holds, and why (ruff's "Fix safety").
FIX_SAFETY: dict[str, tuple[tuple[str, ...], str]] = {
    "MISSING_FRONTMATTER": ((UNSAFE,), "The inserted frontmatter holds a placeholder description the author "
                            "has to write."),
    "INVALID_FRONTMATTER": ((SAFE, UNSAFE), "Quoting keeps the value's characters exactly and makes the YAML "
                            "parse; it is unsafe where the value holds what reads as another field "
                            "(`…?version: 2.0.0`, a line break lost), which quoting would turn into text. "
                            "Turning it into a block scalar re-wraps the text, so it is only offered."),
    "MISSING_FIELD": ((UNSAFE,), "The inserted name (the folder's) or description (a placeholder) is a guess the "
                      "author confirms."),
    "INVALID_TYPE": ((SAFE,), "The space-separated string names the same tools as the list."),
    "TOO_LONG": ((UNSAFE,), "A shorter name changes how users and other skills invoke the skill."),
    "NAME_INVALID": ((UNSAFE,), "A new name changes how users and other skills invoke the skill."),
    "NAME_SPOOFABLE": ((UNSAFE,), "A new name changes how users and other skills invoke the skill."),
    "NAME_MISMATCH": ((UNSAFE, DISPLAY_ONLY), "Which of the name and the folder is right is the author's call. "
                      "Renaming the folder is display-only: the CLI never moves folders; the editor offers it "
                      "where the client can rename folders."),
    "UNKNOWN_FIELD": ((UNSAFE,), "The field meant is a guess by spelling; moving a field under `metadata` "
                      "changes where harnesses read it."),
    "CAMELCASE_FIELD": ((SAFE,), "The documented spelling of the same field."),
    "INVALID_VALUE": ((SAFE,), "`\"true\"` to `true`, commas to spaces: the same value in the form harnesses read."),
    "METADATA_NOT_STRING": ((UNSAFE,), "Quoting keeps the value's characters and makes it the string every "
                            "harness expects, but a number or a boolean becomes a string for every other reader "
                            "too (a repository's own validator may require the boolean)."),
    "TRAILING_WHITESPACE": ((SAFE, UNSAFE), "Whitespace at the end of a prose line changes nothing a reader or "
                            "the model sees. Where Markdown breaks the line at two spaces or more, the safe fix keeps "
                            "two; removing them all is only offered. A line of a form feed or line tab (Markdown "
                            "does not count it blank), blanks after a backslash (left last, it breaks the line) and a "
                            "blank line between a CR and a LF (trimmed, the lines join) are only offered too. " + _GUARDED + " " + _YAML_GUARDED),
    "ABSOLUTE_LINK": ((SAFE,), "The relative link names the same file. " + _GUARDED),
    "UNKNOWN_SKILL": ((UNSAFE,), "The skill meant is a guess by spelling."),
    "BROKEN_LINK": ((UNSAFE,), "The file meant is a guess: the one file of the skill whose path differs only "
                    "in letter case or in `-` for `_`, or for a link leaving the folder the same path with one "
                    "`..` more or fewer."),
    "UNKNOWN_MODEL": ((UNSAFE,), "The model meant is a guess by spelling."),
    "UNKNOWN_TOOL": ((UNSAFE,), "The tool meant is a guess by spelling."),
    "INVALID_HOOKS": ((UNSAFE,), "The hook event meant is a guess by spelling."),
    "AGENT_WITHOUT_FORK": ((UNSAFE,), "`context: fork` changes how the skill runs (in a forked agent)."),
    "ARGUMENTS_WITHOUT_HINT": ((UNSAFE,), "The inserted hint is a placeholder the author has to write."),
    "PLACEHOLDER_IN_CODE": ((UNSAFE,), "Escaping `$N` changes the code the model reads."),
    "NESTED_FENCE": ((UNSAFE,), "Where the author meant the block to end is a count of the fences after it (one "
                     "with an info string opens, a bare one closes); a bare fence that opened a block inside the "
                     "template would end the count early, and the longer fence would then hold the wrong lines."),
    "INVISIBLE_CHARACTERS": ((SAFE,), "Deleting characters nobody can see changes nothing a reader sees in "
                             "prose. " + _GUARDED + " " + _YAML_GUARDED + " " + _LINK_GUARDED),
    "BACKSLASH_PATH": ((SAFE,), "`scripts/x.py` is the file the author meant on every system. " + _GUARDED),
    "UNUSED_SUPPRESSION": ((SAFE,), "A YAML comment that silences nothing: removing it changes no finding and "
                           "nothing a harness reads (unsafe where the YAML would read otherwise without it)."),
}


def fix_safety(code: str) -> tuple[tuple[str, ...], str]:
    """(applicabilities, sentence) for docs; ((), "") for a code without fixes."""
    return FIX_SAFETY.get(code, ((), ""))
