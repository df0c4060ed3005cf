"""How each harness reads a SKILL.md where they differ: YAML line breaks, a key given twice,
a name or description that is not a string, a skill folder that is a link.

Every function answers from the harness record's facts (engine/harness) and the checked
document; nothing here decides whether a skill is listed (engine/listing does, from these).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import document
from .activation.jsstr import js_string
from .datarecord import replace
from .findings import RULES, base_message
from .gemini_frontmatter import read_document
from .harness import HARNESSES, Harness
from .lazyre import lazy_re
from .opencode_frontmatter import read_document as read_opencode_document
from .result import SkillResult
from .yamlnodes import YAML11_BREAKS, resolve_scalar, to_python
from .yamlreads import read_by

if TYPE_CHECKING:
    from .activation.records import SkillRecord


def record_read_by(record: SkillRecord, harness: Harness | str | None) -> SkillRecord:
    """``record`` with its frontmatter as ``harness`` parses it (:func:`read_by`); itself when the same."""
    h = HARNESSES.get(harness) if isinstance(harness, str) else harness
    checked = record.checked
    doc = getattr(checked, "doc", None)
    if h is None or doc is None:
        return record
    record = _followed(record, h) or record
    theirs = read_by(doc, h)
    values = record.frontmatter if theirs is doc else theirs.frontmatter_values()
    if h.last_duplicate_wins and theirs.duplicates and theirs.frontmatter_ok and theirs.root is not None:
        # A key given twice: the last value, in the first one's place (a JavaScript object's assignment).
        values = {}
        for k, v in theirs.root.target().items:
            if k.target().kind == "scalar":
                values[k.target().value] = to_python(v)
    if h.line_reader:
        # Its own reader (gemini_frontmatter.py) gives both fields, or none: then it lists no skill.
        read = read_document(theirs)
        if (values.get("name"), values.get("description")) != (read.name, read.description):
            values = dict(values)
            for key, value in (("name", read.name), ("description", read.description)):
                if value is None:
                    values.pop(key, None)
                else:
                    values[key] = value
    elif h.matter_retry:
        # Its own reader (opencode_frontmatter.py): the strings it reads; no other value of the two.
        oc = read_opencode_document(theirs)
        if (values.get("name"), values.get("description")) != (oc.name, oc.description):
            values = dict(values)
            for key, value in (("name", oc.name), ("description", oc.description)):
                if value is None:
                    values.pop(key, None)
                else:
                    values[key] = value
    elif h.non_string and theirs.frontmatter_ok and any(
            k in values and not isinstance(values[k], str) for k in ("name", "description")):
        values = dict(values)
        for key in ("name", "description"):
            if key in values and not isinstance(values[key], str):
                got = value_read_by(h, theirs, key)
                if isinstance(got, str):
                    values[key] = got
                else:
                    del values[key]
    if theirs is doc and values is record.frontmatter:
        return record
    return replace(record, frontmatter=values, checked=replace(checked, doc=theirs))  # type: ignore[type-var]


def record_error(result: SkillResult) -> tuple[str, str] | None:
    """The skill-tool contract's (code, message) for a checked skill: what keeps it from activating."""
    blocking = result.blocking_error
    if blocking is None:
        return None
    return RULES[blocking.code].tool_error or "INVALID_FRONTMATTER", base_message(blocking)


def _followed(record: SkillRecord, h: Harness) -> SkillRecord | None:
    """A skill folder that is a link, read through it (``preview.read_through_links``), as a harness
    that follows links sees it: the skill-tool contract's OUTSIDE_WORKSPACE lifted."""
    checked = record.checked
    if (not h.follows_links or record.error is None or record.error[0] != "OUTSIDE_WORKSPACE"
            or getattr(checked, "doc", None) is None or not os.path.islink(record.dir)):
        return None
    return replace(record, error=record_error(checked))  # type: ignore[arg-type]


def records_read_by(records: Sequence[SkillRecord], harness: Harness | str | None) -> list[SkillRecord]:
    return [record_read_by(r, harness) for r in records]


SKIP = object()  # value_read_by: the harness keeps the skill out for this value
# A YAML 1.1 timestamp (js-yaml's default schema resolves it to a Date).
_DATE = lazy_re(r"\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?"
                   r"(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?")


def value_read_by(h: Harness, doc: document.SkillDocument, key: str) -> object:
    """The string ``h`` reads for the top-level ``key`` (``Harness.non_string``): the text, None when
    it reads nothing (absent), or SKIP when the value keeps the skill out."""
    entry = doc.entries.get(key)
    if entry is None:
        return None
    node = entry.value.target()
    value = resolve_scalar(node) if node.kind == "scalar" else None
    if isinstance(value, str):
        if h.yaml_dates and node.style == "" and node.tag is None and _DATE.fullmatch(value):
            return SKIP
        return value
    mode = h.non_string
    if mode == "js-string":
        return None if value is None else js_string(value)
    if mode == "text":
        if node.kind == "scalar":
            return None if value is None else doc.text[node.start:node.end].strip()
        written = doc.text[node.start:node.end].strip()
        # A flow map is read as its text when Codex's repair quotes it, for the `: ` it holds (case
        # non-string-values: `{k: v}`); `{{NAME}}`, valid YAML alone, stays a map and keeps the
        # skill out (held-out seed 16: two template skills).
        if node.kind == "map" and node.style == "{":
            from .codex_frontmatter import quotes  # noqa: PLC0415 - only a value of another type gets here

            if quotes(written):
                return written
        return SKIP
    if mode == "line":
        read = read_document(doc)
        return read.name if key == "name" else read.description if key == "description" else None
    return SKIP if mode == "strings" else value


def block_runs_to_the_end(text: str | None, key: str, *, keep_only: bool = False, yaml11: bool = False) -> bool:
    """Whether ``key`` is a block scalar (``|`` / ``>``; with ``keep_only``, ``|+`` / ``>+``) whose
    lines run to the closing ``---``: a harness that parses the frontmatter without the newline
    before that line (gray-matter's ``\\n---``, Copilot CLI's reader) reads one trailing newline
    less of it (js-yaml adds a clipped block's newline at the end of its input all the same; a
    clipped block followed by a blank line keeps it with any parser; with ``yaml11``, a last line
    ending in NEL, LS or PS is followed by one: held-out seed 9002, Copilot CLI)."""
    if not text:
        return False
    lines = text.replace("\r\n", "\n").split("\n")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if end is None:
        return False
    start = next((i for i in range(1, end) if lines[i].startswith(f"{key}:")), None)
    if start is None:
        return False
    header = lines[start][len(key) + 1:].strip()
    keep = "+" in header.split("#", 1)[0]
    if not header.startswith(("|", ">")) or keep_only and not keep:
        return False
    last = lines[end - 1]
    if yaml11:
        last = last[max(last.rfind(c) for c in YAML11_BREAKS) + 1:]
    if not keep and not last.strip():
        return False  # held-out seed 9001, batch 5
    return all(not ln.strip() or ln[:1] in (" ", "\t") for ln in lines[start + 1:end])


def without_last_newline(h: Harness, text: str | None, value: object) -> object:
    """A description ``value`` from the SKILL.md ``text``, one trailing newline shorter where ``h``
    parses the frontmatter without the newline before its closing line (``Harness.last_newline``)."""
    if (h.last_newline and isinstance(value, str) and value.endswith("\n")
            and block_runs_to_the_end(text, "description", yaml11=bool(h.yaml11_breaks))):
        return value[:-1]
    return value


def description_read(h: Harness, doc: document.SkillDocument) -> object:
    """:func:`value_read_by` of the description, as :func:`without_last_newline` leaves it."""
    return without_last_newline(h, doc.text, value_read_by(h, doc, "description"))
