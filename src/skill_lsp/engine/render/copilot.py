"""``copilot``: GitHub Copilot CLI, proven against ``@github/copilot`` 1.0.102 (tests/golden/harness).

Catalog (system prompt): ``<available_skills>`` with one ``<skill>`` block per
skill — ``<name>``, ``<description>`` (XML-escaped: ``& < > " '``) and
``<location>`` (``project`` or ``user``, not a path) — until the blocks reach
the listing budget.  Activation: the ``skill`` tool's result is one sentence;
the skill follows as a separate ``<skill-context>`` message with the base
directory, the skill's other files, and the body as written (no substitution).
VS Code's agent mode (``computeAutomaticInstructions.ts``) is another
renderer, not captured.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from skill_lsp.engine.activation.jsstr import JS_WHITESPACE, JS_WS
from skill_lsp.engine.activation.records import SkillRecord
from skill_lsp.engine.activation.results import ErrorResult, NotFoundResult, OkResult
from skill_lsp.engine.harness.data import (
    COPILOT,
    COPILOT_BUILTINS,
    COPILOT_MAX_DEPTH,
    COPILOT_RELATED_FILES_CAP,
    COPILOT_SKIPPED_FOLDERS,
    COPILOT_SUMMARIZED_OVER,
)
from skill_lsp.engine.listing import record_listing
from skill_lsp.engine.readings import without_last_newline
from skill_lsp.engine.ruststr import rust_trim

from ..datarecord import datarecord
from ..lazyre import lazy_re
from .base import BudgetWarning, Dialect, unsubstituted_body

_LEADING_BLANK_LINES = lazy_re(f"^{JS_WS}*\n")
# What Copilot CLI masks as ****** in a skill's content (capture case copilot-credential-masking:
# 80 probed lines; found by capture diff --real). Only these forms were seen masked; its full list
# is compiled into the release. \b as JavaScript reads it (ASCII word characters).
_VALUE = "[^" + re.escape(JS_WHITESPACE) + ";'\"]+"
_CREDENTIALS = (
    lazy_re(f"(?a)\\bBearer{JS_WS}+{_VALUE}"),  # blanks and line breaks, then up to a blank, ; ' or "
    lazy_re(f"(?ai)\\b(?:password|pwd)=(?:\"[^\"]+\"|{_VALUE})"),  # a quoted value, not an empty one
    # A command's `-Password x` / `-pwd "x y"` flag with the blanks before it (line breaks too): the
    # value quoted (across lines) or up to a blank, ; ' or " (capture case copilot-password-flags: 49
    # lines; found by capture diff --real seed 20).
    lazy_re(f"(?ai){JS_WS}+-(?:password|pwd){JS_WS}+(?:\"[^\"]+\"|{_VALUE})"),
    lazy_re(r"(?a)\bgh[opsur]_[A-Za-z0-9]{36}\b"),
    # A URL's user and password, each of ASCII letters, digits and `!$%&'()*+,;=._~-` (the password
    # `:` too): any other character, `[password]` included, leaves it as written (capture case
    # copilot-url-credentials: every printable character in each; found by capture diff --real seed 14).
    lazy_re(r"[A-Za-z][A-Za-z0-9+.-]*://[A-Za-z0-9!$%&'()*+,;=._~-]+:[A-Za-z0-9!$%&'()*+,;=:._~-]+@"),
    # A JWT: its header (base64 of '{"alg":') and at least one character more, up to the same stops as
    # Bearer's value (capture case copilot-jwt-tails: 64 lines; found by capture diff --real seed 11).
    lazy_re(f"(?a)\\beyJhbGciOi{_VALUE}"),
)
MASK = "******"


def mask_credentials(text: str) -> str:
    """``text`` as Copilot CLI hands it to the model: what looks like a credential as ******."""
    for pattern in _CREDENTIALS:
        text = pattern.sub(MASK, text)
    return text


__all__ = ["CopilotDialect", "RelatedFiles", "listed", "related_files"]

#: Listing budget over the ``<skill>`` blocks and the newlines between them: 48 blocks of
#: ~536 characters were cut after 27 (between 14,519 and 15,030 characters); the blocks
#: after the first that does not fit are left out, built-in skills (listed last) included.
LISTING_BUDGET_CHARS = 15_000
#: A description made from the body is cut to this many UTF-16 code units.
SUMMARY_UNITS = 1024
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def _escape(text: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _body_summary(body: str) -> str:
    """What the release lists for a skill without a description (capture case
    listing-fallbacks): the first three non-blank lines that are not headings
    (nothing that starts with ``#``), trimmed as Rust trims (NEL and U+3000 go, a byte order
    mark and U+200B stay: capture case body-summary-chars) and joined by spaces, then cut to
    1,024 UTF-16 code units, a character that would cross the cut left out whole (capture case
    copilot-body-summary-cut)."""
    lines = [text for text in (rust_trim(line) for line in body.split("\n")) if text and not text.startswith("#")]
    summary = " ".join(lines[:3])
    if len(summary) <= SUMMARY_UNITS // 2:
        return summary  # no character takes more than two units
    units = 0
    for i, ch in enumerate(summary):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > SUMMARY_UNITS:
            return summary[:i]
    return summary


_SPACES = lazy_re(r"\s+")


def _name(record: SkillRecord) -> str | None:
    """The name as listed: trimmed, each run of whitespace one '-' (probed: `a  b` -> `a-b`,
    ` lead` -> `lead`, `x-y z` -> `x-y-z`; capture/diff/FINDINGS.md)."""
    value = record.frontmatter.get("name", record.folder)
    if not isinstance(value, str) or not value:
        return None
    return _SPACES.sub("-", value.strip()) or None


def _description(record: SkillRecord) -> str | None:
    if "description" not in record.frontmatter:
        return _body_summary(record.body)
    value = record.frontmatter["description"]
    if not isinstance(value, str):
        return None
    # A block scalar running to `---` loses one trailing newline (fact last_newline); other values
    # are as YAML gives them (probed: `|`, `|+`, `>`, `>-` last and before another key).
    return str(without_last_newline(COPILOT, record.text, value))


def loads(record: SkillRecord) -> bool:
    """Whether the release loads the skill (engine.listing: parsed frontmatter,
    string name and description, a description of at most 1,024 characters, model
    invocation not disabled)."""
    return record_listing(record, "copilot").listed


def _is_user(record: SkillRecord, home: str | None) -> bool:
    top = (home or str(Path.home())).rstrip("/") + "/"
    return (record.root.rstrip("/") + "/").startswith(top)


def _precedence(record: SkillRecord, home: str | None) -> int:
    """Where the record's root stands in the release's root order (``data.COPILOT.roots``: .github,
    .agents, .claude, ~/.copilot, ~/.agents); a root it does not read comes after them."""
    root = record.root.replace("\\", "/").rstrip("/")
    found = [i for i, r in enumerate(COPILOT.roots) if root.endswith("/" + r.path.removeprefix("~/"))]
    if len(found) > 1:  # .agents/skills: the project's or the user's
        user = _is_user(record, home)
        found = [i for i in found if (COPILOT.roots[i].scope == "user") == user] or found
    return found[0] if found else len(COPILOT.roots)


def listed(records: Sequence[SkillRecord], home: str | None = None) -> list[SkillRecord]:
    """Who Copilot lists, in its order: the first skill of a name wins (roots in the harness
    record's order, then by ``root_index``, folders by code point within a root). Project skills
    are then sorted by name (code point) across their roots, and user skills follow, root by
    root, each by name (probed with names that differ from their folders; capture case
    every-root for the user roots; probe precedence for which copy wins)."""
    seen: set[str] = set()
    out = []
    for r in sorted(records, key=lambda r: (_precedence(r, home), r.root_index, r.folder)):
        name = _name(r) or r.folder
        if name in seen or not loads(r):
            continue
        seen.add(name)
        out.append(r)

    def key(r: SkillRecord) -> tuple[int, int, str]:
        user = _is_user(r, home)
        return (int(user), r.root_index if user else 0, _name(r) or r.folder)

    return sorted(out, key=key)


def _same_name(shown: Sequence[SkillRecord], name: str) -> list[SkillRecord]:
    """The listed skills whose name is ``name`` but for case (Copilot CLI looks names up so)."""
    return [r for r in shown if (_name(r) or "").lower() == name.lower()]


@datarecord(frozen=True, slots=True)
class RelatedFiles:
    """What an activation lists of the skill's other files (``related_files``)."""

    files: list[str]  # absolute paths, sorted by path components
    summarized: list[tuple[str, int]]  # (folder relative to the skill folder, its direct entries)
    truncated: bool  # more files than COPILOT_RELATED_FILES_CAP were found

    def text(self) -> str:
        out = ""
        if self.summarized:
            out += "Summarized directories:\n" + "".join(f"  - {rel}/ ({n:,} items)\n" for rel, n in self.summarized)
        if self.files:
            out += "Related files (use view tool to read):\n" + "".join(f"  - {f}\n" for f in self.files)
            if self.truncated:
                out += "  ...and more files (listing truncated)\n"
        return out + "\n" if out else ""


def related_files(skill_dir: str) -> RelatedFiles:
    """The release's walk of the skill folder (data.COPILOT_* facts): depth first in directory-read
    order, no links, no any-case skill.md, no skipped folders, none below COPILOT_MAX_DEPTH; a folder below
    the skill folder with more than COPILOT_SUMMARIZED_OVER entries summarized instead of entered; stopped
    when a file past COPILOT_RELATED_FILES_CAP is found; then sorted by path components."""
    found: list[str] = []
    summarized: list[tuple[str, int]] = []
    truncated = False

    def walk(folder: str, rel: str, names: list[str], depth: int) -> bool:
        nonlocal truncated
        for n in names:
            path = os.path.join(folder, n)
            sub = f"{rel}{n}"
            if os.path.islink(path) or n.lower() == "skill.md":
                continue
            if os.path.isdir(path):
                if n in COPILOT_SKIPPED_FOLDERS or depth >= COPILOT_MAX_DEPTH:
                    continue
                try:
                    inside = os.listdir(path)  # counted, and walked when not summarized: listed once
                except OSError:
                    continue
                if len(inside) > COPILOT_SUMMARIZED_OVER:
                    summarized.append((sub, len(inside)))
                elif not walk(path, sub + "/", inside, depth + 1):
                    return False
            elif os.path.isfile(path):
                if len(found) >= COPILOT_RELATED_FILES_CAP:
                    truncated = True
                    return False
                found.append(sub)
        return True

    try:
        top = os.listdir(skill_dir)
    except OSError:
        top = []
    walk(skill_dir, "", top, 0)
    return RelatedFiles([os.path.join(skill_dir, rel) for rel in sorted(found, key=lambda r: r.split("/"))],
                        sorted(summarized, key=lambda s: s[0].split("/")), truncated)


class CopilotDialect(Dialect):
    name = "copilot"
    label = "GitHub Copilot CLI 1.0.102"
    harness = "copilot"

    def __init__(self, home: str | None = None) -> None:
        # Skills under the home folder are "user" skills; the rest "project".
        self.home = home

    def _scope(self, record: SkillRecord) -> str:
        return "user" if _is_user(record, self.home) else "project"

    def includes(self, record: SkillRecord) -> bool:
        return loads(record)

    def order(self, records):  # type: ignore[no-untyped-def]
        return listed(list(records), self.home)

    def activation_record(self, records: Sequence[SkillRecord], name: str) -> SkillRecord | None:
        # A name asked in another case finds the skill (the differential tester: `audit-69x15` loads
        # `Audit-69X15`, seed 2026; six more on seed 9001); two listed names that differ only in
        # case find neither (``ambiguous``).
        same = _same_name(listed(records, self.home), name)
        if len(same) > 1:
            return None
        return next((r for r in same if _name(r) == name), same[0] if same else None)

    def ambiguous(self, records: Sequence[SkillRecord], name: str) -> list[str]:
        """The listed names ``name`` matches when it matches more than one (they differ only in
        case): Copilot CLI activates none of them and answers `Skill "ab" is ambiguous. Use one
        of: Ab, ab`, even for an exact name (capture case copilot-ambiguous-names)."""
        same = _same_name(listed(records, self.home), name)
        return [_name(r) or r.folder for r in same] if len(same) > 1 else []

    def render_error(self, result: ErrorResult) -> str:
        if result.error.code == "AMBIGUOUS":
            return result.error.message  # the release's own words (``ambiguous``)
        return super().render_error(result)

    def catalog_entry(self, record: SkillRecord) -> str:
        return (
            "<skill>\n"
            f"  <name>{_escape(_name(record) or record.folder)}</name>\n"
            f"  <description>{_escape(_description(record) or '')}</description>\n"
            f"  <location>{self._scope(record)}</location>\n"
            "</skill>"
        )

    def _budgeted(self, records: Sequence[SkillRecord], hidden: Sequence[tuple[str, int]] | None
                  ) -> tuple[list[str], list[str], list[SkillRecord]]:
        """The blocks shown, the names listed after them by name only, and the user's skills among those."""
        if hidden is None:
            hidden = COPILOT_BUILTINS
        entries: list[str] = []
        left_out: list[str] = []
        cut: list[SkillRecord] = []
        used = 0
        candidates: list[tuple[str, str, SkillRecord | None]] = [
            (_name(r) or r.folder, self.catalog_entry(r), r) for r in listed(records, self.home)]
        candidates += [(name, "x" * chars, None) for name, chars in hidden]
        for name, entry, record in candidates:
            cost = len(entry) + (1 if used else 0)
            if left_out or used + cost > LISTING_BUDGET_CHARS:
                left_out.append(name)
                if record is not None:
                    cut.append(record)
                continue
            used += cost
            if record is not None:
                entries.append(entry)
        return entries, left_out, cut

    def render_catalog(self, records: Sequence[SkillRecord], hidden: Sequence[tuple[str, int]] | None = None) -> str:
        """``hidden``: ``(name, block chars)`` of skills listed after these that take part of the
        budget but whose blocks are not shown; default: the release's built-ins
        (``COPILOT_BUILTINS``, numbers recorded from 1.0.102)."""
        entries, left_out, _ = self._budgeted(records, hidden)
        if left_out:
            entries.append(f"Additional skills available (invoke by name): {', '.join(left_out)}")
        return "\n".join(["<available_skills>", *entries, "</available_skills>"])

    def catalog_warnings(self, records: Sequence[SkillRecord]) -> list[BudgetWarning]:
        out = super().catalog_warnings(records)
        entries, _, cut = self._budgeted(records, None)
        for r in cut:
            out.append(BudgetWarning(
                self.name, "copilot-name-only",
                f"{self.label} lists this skill by name only: its listing budget ({LISTING_BUDGET_CHARS:,} "
                f"characters) is used up by the {len(entries)} skill{'s' if len(entries) != 1 else ''} "
                "listed before it", LISTING_BUDGET_CHARS, 0, path=r.path))
        return out

    def tool_result(self, result: OkResult) -> str:
        name = _SPACES.sub("-", result.name.strip()) or result.name
        return f'Skill "{name}" loaded successfully. Follow the instructions in the skill context.'

    def render_ok(self, result: OkResult) -> str:
        if os.path.isdir(result.dir):
            related = related_files(result.dir).text()
        else:
            files = [f"{result.dir}/{r}" for r in result.resources if not r.rsplit("/", 1)[-1].startswith("(... ")]
            related = RelatedFiles(files, [], False).text()
        # Each CRLF handed over as LF; a lone CR is kept (capture: copilot@1.0.102 probe related-files).
        # Blank lines before the first text go, blanks included (a line of one space: capture diff
        # --real), the first text line's indentation stays (case body-whitespace).
        body = _LEADING_BLANK_LINES.sub("", unsubstituted_body(result).replace("\r\n", "\n"), count=1)
        name = _SPACES.sub("-", result.name.strip()) or result.name  # as listed
        return mask_credentials(f'<skill-context name="{name}">\nBase directory for this skill: {result.dir}\n\n'
                                f"{related}{body}\n</skill-context>")

    def render_not_found(self, result: NotFoundResult) -> str:
        return f'Skill "{result.name}" not found. Available skills: {", ".join(result.siblings)}'
