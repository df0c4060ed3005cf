"""Completion: frontmatter keys and values per profile, and file paths in the body."""

from __future__ import annotations

import os

from lsprotocol import types as t

from ...engine import cursor as cur
from ...engine.profiles import FIELDS, Profile
from ...engine.rules import list_skill_files
from ...engine.rules.harness_values import HOOK_EVENTS, MODEL_ALIASES
from ...engine.spdx import ids as spdx_ids
from ...engine.workspace import profile_for
from .. import convert
from ..server import SkillLanguageServer, guarded
from ..services.docs import field_doc

TOOLS = ("Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS", "Bash", "WebFetch", "WebSearch", "Task",
         "TodoWrite", "NotebookEdit", "NotebookRead")
TOOL_PATTERNS = ("Bash(git:*)", "Bash(git log:*)", "Bash(npm run:*)", "Bash(npx:*)", "Bash(python:*)",
                 "Bash(uv run:*)", "Bash(make:*)", "Bash(gh:*)", "Bash(docker:*)", "Bash(ls:*)")
COMMON_LICENSES = ("MIT", "Apache-2.0", "BSD-3-Clause", "BSD-2-Clause", "ISC", "GPL-3.0-only", "GPL-3.0-or-later",
                   "LGPL-3.0-only", "MPL-2.0", "AGPL-3.0-only", "Unlicense", "CC0-1.0", "CC-BY-4.0")


def _snippets(ls: SkillLanguageServer) -> bool:
    td = ls.client_capabilities.text_document
    c = td.completion if td else None
    return bool(c and c.completion_item and c.completion_item.snippet_support)


def _markup(text: str) -> t.MarkupContent:
    return t.MarkupContent(kind=t.MarkupKind.Markdown, value=text)


def _item(label: str, rng: t.Range, kind: t.CompletionItemKind, detail: str = "", doc: str = "",
          insert: str | None = None, snippet: bool = False, sort: str | None = None) -> t.CompletionItem:
    return t.CompletionItem(
        label=label, kind=kind, detail=detail or None, documentation=_markup(doc) if doc else None,
        text_edit=t.TextEdit(range=rng, new_text=insert if insert is not None else label),
        insert_text_format=t.InsertTextFormat.Snippet if snippet else t.InsertTextFormat.PlainText,
        sort_text=sort, filter_text=label,
    )


def _present_keys(text: str, yaml_start: int, yaml_end: int) -> set[str]:
    keys = set()
    for line in text[yaml_start:yaml_end].splitlines():
        m = cur._KEY_LINE.match(line)
        if m and line[:1] not in (" ", "\t"):
            keys.add(m.group(1))
    return keys


def _keys(ls, analysis, c: cur.Cursor, rng: t.Range, profile: Profile) -> list[t.CompletionItem]:
    sp = analysis.doc.split
    present = _present_keys(analysis.doc.text, sp.yaml_start, sp.yaml_end)
    snippets = _snippets(ls)
    items = []
    order = list(profile.known) + [k for k in profile.deferred if k not in profile.known]
    for i, key in enumerate(order):
        if key in present and key != c.prefix:
            continue
        f = FIELDS.get(key)
        if f is None:
            continue
        if snippets:
            sep = "" if f.snippet.startswith("\n") else " "
            insert = f"{key}:{sep}{f.snippet}"
        else:
            insert = f"{key}: "
        items.append(_item(key, rng, t.CompletionItemKind.Property, detail=f.summary.split(".")[0],
                           doc=field_doc(f, profile), insert=insert, snippet=snippets, sort=f"{i:02d}"))
    return items


def _values(ls, od, analysis, c: cur.Cursor, rng: t.Range, profile: Profile) -> list[t.CompletionItem]:
    key = c.key or ""
    f = FIELDS.get(key)
    out: list[t.CompletionItem] = []
    value_kind = t.CompletionItemKind.Value
    if key == "name" and od.path:
        folder = os.path.basename(os.path.dirname(od.path))
        out.append(_item(folder, rng, value_kind, "the folder name (required to match)"))
    elif f is not None and f.kind == "boolean":
        out += [_item("true", rng, value_kind), _item("false", rng, value_kind)]
    elif key == "license":
        files = _skill_files(od)
        for name in sorted(x for x in files if x.split("/")[-1].upper().startswith(("LICENSE", "LICENCE", "COPYING"))):
            out.append(_item(name, rng, t.CompletionItemKind.File, "bundled license file", sort="0"))
        prefix = c.prefix.lower()
        for i, lid in enumerate(COMMON_LICENSES):
            out.append(_item(lid, rng, value_kind, "SPDX", sort=f"1{i:02d}"))
        if prefix:
            for lid in spdx_ids():
                if lid.lower().startswith(prefix) and lid not in COMMON_LICENSES:
                    out.append(_item(lid, rng, value_kind, "SPDX", sort="2" + lid))
    elif key in ("allowed-tools", "disallowed-tools"):
        for i, tool in enumerate(TOOLS + TOOL_PATTERNS):
            out.append(_item(tool, rng, t.CompletionItemKind.Function, "tool" if "(" not in tool else "Bash pattern",
                             sort=f"{i:02d}"))
    elif key == "model":
        for i, v in enumerate(MODEL_ALIASES):
            out.append(_item(v, rng, t.CompletionItemKind.EnumMember, "Claude Code model alias", sort=f"{i:02d}"))
    elif f is not None and f.values:
        for i, v in enumerate(f.values):
            out.append(_item(v, rng, t.CompletionItemKind.EnumMember, f.key, sort=f"{i:02d}"))
    elif key == "version":
        out.append(_item("1.0.0", rng, value_kind, "semantic version"))
    return out


def _skill_files(od) -> frozenset[str]:
    if od.path is None or not os.path.isdir(os.path.dirname(od.path)):
        return frozenset()
    return list_skill_files(os.path.dirname(od.path), limit=2000)


def _paths(od, c: cur.Cursor, rng: t.Range) -> list[t.CompletionItem]:
    files = _skill_files(od)
    prefix = c.prefix.lstrip("./")
    out = []
    for path in sorted(files):
        if path in ("SKILL.md", "skill.md") or not path.startswith(prefix.rsplit("/", 1)[0] if "/" in prefix else ""):
            continue
        kind = t.CompletionItemKind.Folder if path.endswith("/") else t.CompletionItemKind.File
        out.append(_item(path, rng, kind, "folder" if path.endswith("/") else "file in this skill"))
    return out


def register(server: SkillLanguageServer) -> None:
    @server.feature(t.TEXT_DOCUMENT_COMPLETION,
                    t.CompletionOptions(trigger_characters=[":", " ", "/", "(", "-"], resolve_provider=False))
    @guarded(t.CompletionList(is_incomplete=False, items=[]))
    def completion(ls: SkillLanguageServer, params: t.CompletionParams) -> t.CompletionList:
        got = ls.analysis(params.text_document.uri)
        empty = t.CompletionList(is_incomplete=False, items=[])
        if got is None:
            return empty
        od, analysis = got
        src = analysis.doc.src
        enc = ls.encoding
        offset = convert.offset(src, params.position, enc)
        c = cur.locate(analysis.doc, offset)
        rng = convert.range_(src, c.start, c.end, enc)
        # The same targets the diagnostics use: configured, else inferred from the skill's root.
        profile = profile_for(analysis.settings, od.path)
        if c.kind == "key":
            items = _keys(ls, analysis, c, rng, profile)
        elif c.kind == "value":
            items = _values(ls, od, analysis, c, rng, profile)
        elif c.kind == "hook-event":
            items = [_item(e, rng, t.CompletionItemKind.Event, "Claude Code hook event", sort=f"{i:02d}")
                     for i, e in enumerate(HOOK_EVENTS)]
        elif c.kind == "path":
            items = _paths(od, c, rng)
        else:
            items = []
        return t.CompletionList(is_incomplete=c.kind == "value" and c.key == "license", items=items)
