"""Checking skills: one document, one file on disk, or a set of skills with cross-skill rules.

The CLI and the language server both go through these functions, so a finding
in the terminal and in the editor is the same finding.
"""

from __future__ import annotations

import os
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from . import document, rules
from .config import BUILTIN_DUPLICATES, Settings
from .discovery import Location, ReadError, read_skill_file
from .findings import RULES, Finding, Related, make
from .profiles import PROFILES
from .text import SourceText
from .yamlnodes import resolve_scalar

# Tool errors that keep a skill out of a harness's catalog (spec 000 §5.2).
BLOCKING = frozenset({"INVALID_FRONTMATTER", "NAME_MISMATCH", "IO_ERROR", "OUTSIDE_WORKSPACE", "SENSITIVE"})


@dataclass(slots=True)
class SkillResult:
    path: str  # SKILL.md
    doc: document.SkillDocument | None
    findings: list[Finding]
    location: Location | None = None
    cross: list[Finding] = field(default_factory=list)  # shadowing / duplicates, set by link_skills
    src: SourceText | None = None  # kept when ``doc`` is dropped (results sent between processes)
    _name: str | None = None
    _anchor: tuple[int, int] | None = None

    def slim(self) -> SkillResult:
        """The same result without the parsed document (cheap to pickle)."""
        return SkillResult(self.path, None, self.findings, self.location, self.cross,
                           self.doc.src if self.doc is not None else self.src, self.name, self.anchor)

    @property
    def all_findings(self) -> list[Finding]:
        return sorted(self.findings + self.cross, key=lambda f: (f.start, f.end, f.code))

    @property
    def folder(self) -> str:
        return os.path.basename(os.path.dirname(self.path))

    @property
    def name(self) -> str:
        """Catalog identity: the frontmatter name when it is a non-empty string, else the folder."""
        if self._name is not None:
            return self._name
        if self.doc is not None and self.doc.frontmatter_ok:
            entry = self.doc.entries.get("name")
            if entry is not None and entry.value.target().kind == "scalar":
                value = resolve_scalar(entry.value.target())
                if isinstance(value, str) and value.strip():
                    return unicodedata.normalize("NFKC", value.strip())
        return self.folder

    @property
    def anchor(self) -> tuple[int, int]:
        """Span of the `name` value (or the first line) to hang a cross-skill finding on."""
        if self._anchor is not None:
            return self._anchor
        doc = self.doc
        if doc is not None and doc.frontmatter_ok and "name" in doc.entries:
            v = doc.entries["name"].value
            return v.start, max(v.end, v.start)
        if doc is not None:
            return 0, doc.src.line_end(0)
        return 0, 0

    @property
    def blocking_error(self) -> Finding | None:
        """The first finding that keeps the skill from activating under the skill-tool contract."""
        for f in self.findings:
            if RULES[f.code].tool_error in BLOCKING:
                return f
        return None


def context_for(settings: Settings, skill_dir: str | None) -> rules.Context:
    lister = (lambda: rules.list_skill_files(skill_dir)) if skill_dir else None
    return rules.Context(profile=PROFILES[settings.profile], check_links=settings.check_links, list_files=lister)


def check_text(text: str, path: str, settings: Settings, *, on_disk: bool = True,
               decode_issue: document.DecodeIssue | None = None) -> tuple[document.SkillDocument, list[Finding]]:
    """Parse and check one SKILL.md text. ``on_disk`` enables folder-relative checks (links, license files)."""
    doc = document.parse(text, path, decode_issue)
    ctx = context_for(settings, os.path.dirname(path) if on_disk and path else None)
    return doc, apply_settings(rules.check(doc, ctx), settings)


def apply_settings(findings: list[Finding], settings: Settings, *, builtin_overlap: bool = False) -> list[Finding]:
    """Per-code severity overrides; 'off' drops the finding."""
    out = []
    hide = builtin_overlap and settings.hide_builtin_duplicates
    for f in findings:
        if hide and f.code in BUILTIN_DUPLICATES:
            continue
        if f.code in settings.severity:
            sev = settings.severity[f.code]
            if sev is None:
                continue
            f = f.with_severity(sev)
        out.append(f)
    return out


def _decode_prefix(data: bytes, size: int) -> tuple[str, document.DecodeIssue | None]:
    if size > len(data):
        # Cut at READ_LIMIT may split a character: drop the incomplete tail only.
        for k in range(4):
            try:
                (data[: len(data) - k] if k else data).decode("utf-8")
                data = data[: len(data) - k] if k else data
                break
            except UnicodeDecodeError:
                continue
    return document.decode(data)


def check_file(path: str, settings: Settings, location: Location | None = None) -> SkillResult:
    """Read and check one SKILL.md on disk. Read failures and fence problems are findings."""
    if location is not None and location.problem is not None:
        code, message = location.problem
        return SkillResult(path, None, apply_settings([make(code, message, 0, 0)], settings), location)
    try:
        data, size = read_skill_file(path)
    except ReadError as exc:
        return SkillResult(path, None, apply_settings([make(exc.code, exc.message, 0, 0)], settings), location)
    text, issue = _decode_prefix(data, size)
    doc, findings = check_text(text, path, settings, decode_issue=issue)
    if size > len(data):
        doc.full_length = max(doc.full_length, size)
        if not any(f.code == "FILE_TOO_LARGE" for f in findings):
            end = len(doc.text)
            findings.extend(apply_settings([make("FILE_TOO_LARGE", f"file is {size:,} bytes; only the first "
                                                 f"{len(data):,} bytes are analysed", max(0, end - 1), end)], settings))
    return SkillResult(path, doc, findings, location)




def link_skills(results: list[SkillResult], settings: Settings) -> None:
    """Cross-skill findings among skills in configured roots: shadowing and duplicate names.

    Lower root index wins; an invalid skill never displaces a valid one (it is not
    in the catalog at all), so only catalog-eligible skills compete.
    """
    groups: dict[str, list[SkillResult]] = defaultdict(list)
    for r in results:
        r.cross = []
        if r.location is None or r.location.root_index < 0 or r.blocking_error is not None:
            continue
        groups[r.name].append(r)
    for name, members in groups.items():
        if len(members) < 2:
            continue
        members.sort(key=lambda r: (r.location.root_index, r.path))  # type: ignore[union-attr]
        best = members[0].location.root_index  # type: ignore[union-attr]
        winners = [m for m in members if m.location.root_index == best]  # type: ignore[union-attr]
        for w in winners:
            others = [o for o in winners if o is not w]
            if others:
                s, e = w.anchor
                rel = tuple(Related(o.path, *o.anchor, f"also named '{name}'") for o in others)
                where = ", ".join(os.path.relpath(o.path, os.path.dirname(w.path)) for o in others)
                w.cross.append(make("DUPLICATE_NAME", f"another skill in the same root is also named '{name}' ({where})",
                                    s, e, {"name": name}, related=rel))
        for loser in members:
            if loser in winners:
                continue
            w = winners[0]
            s, e = loser.anchor
            loser.cross.append(make(
                "SHADOWED",
                f"skill '{name}' is shadowed by {w.path} (root {w.location.root_index} wins over root "  # type: ignore[union-attr]
                f"{loser.location.root_index}); harnesses never load this copy",  # type: ignore[union-attr]
                s, e, {"name": name, "winner": w.path}, related=(Related(w.path, *w.anchor, "the skill that wins"),),
                tags=("unnecessary",)))
    for r in results:
        r.cross = apply_settings(r.cross, settings)


def fix_all_text(text: str, path: str, settings: Settings, *, on_disk: bool = True, max_passes: int = 5) -> str:
    """Apply every safe fix until none is left (a fixpoint, so a second run changes nothing)."""
    from .fixes import apply_edits, safe_edits  # noqa: PLC0415

    for _ in range(max_passes):
        doc, findings = check_text(text, path, settings, on_disk=on_disk)
        edits = safe_edits(doc, findings)
        if not edits:
            break
        new = apply_edits(text, edits)
        if new == text:
            break
        text = new
    return text
