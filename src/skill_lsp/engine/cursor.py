"""What the cursor is on, for completion and hover -- line-based, so it works while
the YAML is half-typed and does not parse."""

from __future__ import annotations

from .datarecord import datarecord
from .document import SkillDocument
from .lazyre import lazy_re

_KEY_LINE = lazy_re(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:")
_LINK_TARGET = lazy_re(r"\]\(\s*<?([^)\s>]*)$")
_RESOURCE_PATH = lazy_re(r"(?:^|[\s`'\"(\[])((?:scripts|references|assets)/[^\s`'\")\]]*)$")


@datarecord(frozen=True, slots=True)
class Cursor:
    kind: str  # "key" | "value" | "metadata-key" | "hook-event" | "path" | "body" | "none"
    key: str | None = None  # the field whose value is being edited
    prefix: str = ""  # typed so far (what completion filters on)
    start: int = 0  # offsets to replace with a completion
    end: int = 0
    in_list: bool = False  # a `- item` under the key


def in_frontmatter(doc: SkillDocument, offset: int) -> bool:
    sp = doc.split
    if sp is None or not sp.has_frontmatter:
        return False
    return sp.yaml_start <= offset <= sp.yaml_end


def locate(doc: SkillDocument, offset: int) -> Cursor:
    src = doc.src
    line = src.line_of(offset)
    ls = src.line_start(line)
    before = src.text[ls:offset]
    after_end = src.line_end(line)
    if in_frontmatter(doc, offset):
        m = _KEY_LINE.match(before)
        if before[:1] not in (" ", "\t", "-"):
            if m is None:
                word = before.strip()
                return Cursor("key", prefix=word, start=ls, end=ls + len(src.text[ls:after_end].split(":")[0].rstrip()))
            value_start = ls + m.end()
            while value_start < offset and src.text[value_start] in " \t":
                value_start += 1
            return Cursor("value", key=m.group(1), prefix=src.text[value_start:offset], start=value_start,
                          end=max(offset, _token_end(src.text, offset, after_end)))
        # Indented: a list item or a nested key; find the owning top-level key.
        owner = None
        for prev in range(line - 1, src.line_of(doc.split.yaml_start) - 1, -1):  # type: ignore[union-attr]
            pm = _KEY_LINE.match(src.line_text(prev))
            if pm is not None and src.line_text(prev)[:1] not in (" ", "\t"):
                owner = pm.group(1)
                break
        stripped = before.lstrip(" \t")
        if stripped.startswith("-"):
            item = stripped[1:].lstrip(" ")
            return Cursor("value", key=owner, prefix=item, start=offset - len(item),
                          end=max(offset, _token_end(src.text, offset, after_end)), in_list=True)
        if owner == "metadata" and ":" not in stripped:
            return Cursor("metadata-key", key=owner, prefix=stripped, start=offset - len(stripped), end=offset)
        if owner == "hooks" and ":" not in stripped and len(before) - len(stripped) <= 2:
            return Cursor("hook-event", key=owner, prefix=stripped, start=offset - len(stripped), end=offset)
        return Cursor("none")
    sp = doc.split
    if sp is not None and (not sp.has_frontmatter or sp.closed) and offset >= doc.body_start:
        m2 = _LINK_TARGET.search(before) or _RESOURCE_PATH.search(before)
        if m2 is not None:
            prefix = m2.group(1)
            return Cursor("path", prefix=prefix, start=offset - len(prefix),
                          end=max(offset, _path_end(src.text, offset, after_end)))
        return Cursor("body")
    return Cursor("none")


def _token_end(text: str, offset: int, limit: int) -> int:
    end = offset
    while end < limit and text[end] not in " \t,]":
        end += 1
    return end


def _path_end(text: str, offset: int, limit: int) -> int:
    end = offset
    while end < limit and text[end] not in " \t)>`'\"]":
        end += 1
    return end


def key_at(doc: SkillDocument, offset: int) -> tuple[str, int, int] | None:
    """The top-level frontmatter key whose key or value holds ``offset`` (key, key start, key end)."""
    if not doc.frontmatter_ok:
        return None
    for key, entry in doc.entries.items():
        k, v = entry.key_node, entry.value
        if k.start <= offset <= k.end or (v.end > v.start and v.start <= offset <= v.end):
            return key, k.start, k.end
    return None
