"""Fixes for the rule-depth codes (issue 12), built from each finding's data.

Safe (fix-all): deleting invisible characters, forward slashes in a skill path.
Offered one by one: renames to the suggested tool, model alias or hook event,
inserting `context: fork` or `argument-hint`, escaping `$N` in code, a longer fence for a
block that a nested fence closes early.
"""

from __future__ import annotations

from collections.abc import Callable

from .document import SkillDocument
from .edits import Edit, Fix, _line_span, _newline
from .findings import Finding


def _delete(doc: SkillDocument, f: Finding) -> list[Fix]:
    return [Fix("Delete the invisible characters", (Edit(f.start, f.end, ""),), safe=True, preferred=True)]


def _slashes(doc: SkillDocument, f: Finding) -> list[Fix]:
    new = (f.data or {}).get("replacement")
    if not new or doc.text[f.start:f.end].replace("\\", "/") != new:
        return []
    return [Fix(f"Write '{new}'", (Edit(f.start, f.end, new),), safe=True, preferred=True)]


def _rename(doc: SkillDocument, f: Finding) -> list[Fix]:
    new = (f.data or {}).get("replacement")
    if not new:
        return []
    return [Fix(f"Change to '{new}'", (Edit(f.start, f.end, new),), preferred=True)]


def _insert_after(doc: SkillDocument, key: str, line: str) -> Edit | None:
    entry = doc.entries.get(key)
    if entry is None:
        return None
    _, at = _line_span(doc, entry.key_node.start, max(entry.value.end, entry.key_node.end))
    if at > 0 and doc.text[at - 1] not in "\r\n":
        return None
    return Edit(at, at, line + _newline(doc))


def _fork(doc: SkillDocument, f: Finding) -> list[Fix]:
    if "context" in doc.entries:
        ctx = doc.entries["context"].value
        return [Fix("Set context: fork", (Edit(ctx.start, ctx.end, "fork"),))] if ctx.end > ctx.start else []
    edit = _insert_after(doc, "agent", "context: fork")
    return [Fix("Insert 'context: fork'", (edit,), preferred=True)] if edit else []


def _hint(doc: SkillDocument, f: Finding) -> list[Fix]:
    edit = _insert_after(doc, "description", 'argument-hint: "[arguments]"')
    return [Fix("Insert 'argument-hint'", (edit,))] if edit else []


def _escape(doc: SkillDocument, f: Finding) -> list[Fix]:
    if not doc.text.startswith("$", f.start):
        return []
    return [Fix(f"Escape as \\{doc.text[f.start:f.end]}", (Edit(f.start, f.start, "\\"),))]


def _longer_fence(doc: SkillDocument, f: Finding) -> list[Fix]:
    data = f.data or {}
    fence, meant = data.get("fence"), data.get("meant")
    if not fence or not meant:
        return []
    start, end = meant
    if set(doc.text[f.start:f.end]) != {fence[0]} or set(doc.text[start:end]) != {fence[0]}:
        return []  # the text moved since the check
    return [Fix(f"Open and close the block with {fence}", (Edit(f.start, f.end, fence), Edit(start, end, fence)),
                preferred=True)]


BUILDERS: dict[str, Callable[[SkillDocument, Finding], list[Fix]]] = {
    "INVISIBLE_CHARACTERS": _delete,
    "BACKSLASH_PATH": _slashes,
    "UNKNOWN_TOOL": _rename,
    "UNKNOWN_MODEL": _rename,
    "INVALID_HOOKS": _rename,
    "AGENT_WITHOUT_FORK": _fork,
    "ARGUMENTS_WITHOUT_HINT": _hint,
    "PLACEHOLDER_IN_CODE": _escape,
    "NESTED_FENCE": _longer_fence,
    "BROKEN_LINK": _rename,
}
