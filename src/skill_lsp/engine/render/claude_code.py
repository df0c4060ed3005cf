"""``claude-code``: Claude Code, proven against the 2.1.332 release (tests/golden/harness).

Catalog: ``The following skills are available for use with the Skill tool:``,
a blank line, then one ``- folder: text`` line per skill (``- folder (name): text``
when the frontmatter name differs from the folder).  The text is the
description (or, without one, the first body line: a heading's text, cut at
100 characters; ``Skill`` for an empty body) and `` - when_to_use`` (any value
as JavaScript's ``String()`` gives it);
runs of newlines and tabs become one space, ``<`` and ``>`` are escaped, and
it is cut at 1,535 characters + ``…``.  Activation: the tool result
``Launching skill: <folder>`` and a separate text block ``Base directory for
this skill: <dir>`` + blank line + the body with leading whitespace removed
and arguments substituted as the release does.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from skill_lsp.engine.activation.jsstr import js_string, js_trim, utf16_len, utf16_slice
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import NotFoundResult, OkResult
from skill_lsp.engine.listing import record_listing

from ..lenient import fields, text_value
from .base import BudgetWarning, Dialect, unsubstituted_body

__all__ = ["ClaudeCodeDialect", "MAX_LISTING_DESCRIPTION_CHARS", "substitute", "split_arguments"]

MAX_LISTING_DESCRIPTION_CHARS = 1536
_HEADER = "The following skills are available for use with the Skill tool:"
#: Stand-in for the session id a real run substitutes for ${CLAUDE_SESSION_ID}.
PREVIEW_SESSION_ID = "00000000-0000-4000-8000-000000000000"
_PLACEHOLDER = re.compile(r"(\\?)\$(?:ARGUMENTS\[(\d+)\]|(ARGUMENTS)|(\d+))")
_LINE_BREAKS = re.compile(r"[\r\n\t]+")
#: A Markdown heading's text (JavaScript's `.` stops at any line terminator).
_HEADING = re.compile(r"#+\s+(\S[^\n\r\u2028\u2029]*)", re.UNICODE)
MAX_FIRST_LINE_CHARS = 100


def split_arguments(arguments: str) -> list[str]:
    """Shell-style split (quotes removed); unbalanced quotes fall back to whitespace."""
    try:
        return shlex.split(arguments)
    except ValueError:
        return arguments.split()


def substitute(body: str, arguments: str, skill_dir: str, session_id: str = PREVIEW_SESSION_ID) -> str:
    """The body as Claude Code hands it over: placeholders replaced, else ``ARGUMENTS:`` appended."""
    parts = split_arguments(arguments)
    found = False

    def one(m: re.Match[str]) -> str:
        nonlocal found
        found = True
        escaped, index, whole, position = m.groups()
        if escaped:
            return m.group(0)[1:]  # \$ARGUMENTS stays literal, without the backslash
        if whole:
            return arguments
        n = int(index if index is not None else position)
        return parts[n] if n < len(parts) else m.group(0)

    out = _PLACEHOLDER.sub(one, body)
    out = out.replace("${CLAUDE_SKILL_DIR}", skill_dir).replace("${CLAUDE_SESSION_ID}", session_id)
    if not found and arguments:
        out += f"\n\nARGUMENTS: {arguments}"
    return out


def _first_line(body: str) -> str:
    """What the release lists for a skill without a description (capture case
    listing-fallbacks): the first non-blank line, a heading's text without its
    marker, over 100 UTF-16 units cut to 97 + ``...``; ``Skill`` for a blank body."""
    for line in body.split("\n"):
        text = js_trim(line)
        if text:
            heading = _HEADING.fullmatch(text)
            text = heading.group(1) if heading else text
            return text if utf16_len(text) <= MAX_FIRST_LINE_CHARS else utf16_slice(text, MAX_FIRST_LINE_CHARS - 3) + "..."
    return "Skill"


def listing_text(record: SkillRecord) -> str:
    """Description (or first body line) and when_to_use, as one listing line."""
    fm = fields(record)
    description = fm.get("description")
    text = description.strip() if isinstance(description, str) else ""
    if not text:
        # No usable description: the first line of the body (of the whole file when
        # there is no closed frontmatter block).
        text = _first_line(record.body if fm or not record.text else record.text)
    when = fm.get("when_to_use")
    when = None if when is None else js_string(when)  # a list reads "first,second"
    if when:
        text = f"{text} - {when}"
    return _LINE_BREAKS.sub(" ", text).replace("<", "&lt;").replace(">", "&gt;")


def listed(records: Sequence[SkillRecord]) -> list[SkillRecord]:
    """Who Claude Code lists (engine.listing), in its order: roots in the order
    given, folder names case-insensitively within a root; the first folder name wins."""
    seen: set[str] = set()
    out = []
    for r in sorted(records, key=lambda r: (r.root_index, r.folder.casefold(), r.folder)):
        if r.folder in seen or not record_listing(r, "claude-code").listed:
            continue
        seen.add(r.folder)
        out.append(r)
    return out


class ClaudeCodeDialect(Dialect):
    name = "claude-code"
    label = "Claude Code 2.1.332"
    harness = "claude-code"

    def includes(self, record: SkillRecord) -> bool:
        return self.listing(record).listed

    def order(self, records):  # type: ignore[no-untyped-def]
        return listed(list(records))

    def render_ok(self, result: OkResult) -> str:
        arguments = result.arguments if isinstance(result.arguments, str) else ""
        body = substitute(unsubstituted_body(result), arguments, result.dir)
        return f"Base directory for this skill: {result.dir}\n\n{body.lstrip()}"

    def tool_result(self, result: OkResult) -> str:
        """The ``Skill`` tool's own result; the body follows as a separate block."""
        return f"Launching skill: {result.dir.rstrip('/').rsplit('/', 1)[-1]}"

    def render_not_found(self, result: NotFoundResult) -> str:
        return f"Unknown skill: {result.name}"

    def activation_record(self, records: Sequence[SkillRecord], name: str) -> SkillRecord | None:
        """The ``Skill`` tool takes the listed key: the folder name."""
        return next((r for r in listed(records) if r.folder == name), None)

    def catalog_entry(self, record: SkillRecord) -> str:
        declared = text_value(fields(record).get("name"))
        return self._entry(record, bool(declared) and declared != record.folder)

    def _entry(self, record: SkillRecord, show_declared: bool) -> str:
        text = listing_text(record)
        if len(text) > MAX_LISTING_DESCRIPTION_CHARS:
            text = text[: MAX_LISTING_DESCRIPTION_CHARS - 1] + "\u2026"
        label = record.folder
        if show_declared:
            label = f"{record.folder} ({text_value(fields(record).get('name'))})"
        return f"- {label}: {text}"

    def render_catalog(self, records: Sequence[SkillRecord]) -> str:
        chosen = listed(records)
        # A declared name is shown only by the first skill claiming it, and never when
        # it is another listed skill's folder name.
        claimed = {r.folder for r in chosen}
        lines = []
        for r in chosen:
            declared = text_value(fields(r).get("name"))
            shown = bool(declared) and declared != r.folder and declared not in claimed
            if shown:
                claimed.add(declared or "")
            lines.append(self._entry(r, shown))
        return "\n".join([_HEADER, "", *lines]) if lines else ""

    def entry_warnings(self, record: SkillRecord) -> list[BudgetWarning]:
        if not self.includes(record):
            return []
        text = listing_text(record)
        if len(text) <= MAX_LISTING_DESCRIPTION_CHARS:
            return []
        return [
            BudgetWarning(
                self.name,
                "claude-code-listing-cap",
                f"description + when_to_use is {len(text)} chars; Claude Code lists at most {MAX_LISTING_DESCRIPTION_CHARS} per skill",
                MAX_LISTING_DESCRIPTION_CHARS,
                len(text),
                kept=text[: MAX_LISTING_DESCRIPTION_CHARS - 1],
                cut=text[MAX_LISTING_DESCRIPTION_CHARS - 1 :],
            )
        ]
