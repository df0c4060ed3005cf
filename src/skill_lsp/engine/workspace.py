"""Checking skills: one document, one file on disk, or a set of skills with cross-skill rules.

The CLI and the language server both go through these functions, so a finding
in the terminal and in the editor is the same finding.
"""

from __future__ import annotations

import dataclasses
import os
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from . import document, rules
from .config import Settings
from .discovery import Location, ReadError, read_skill_file
from .findings import Finding, Related, Severity, make
from .harness import HARNESSES
from .mentions import Mention
from .mentions import extract as mentions_of
from .profiles import Profile
from .skillgraph import SkillGraph
from .targets import for_skill, view
from .text import PositionTable, SourceText
from .yamlnodes import resolve_scalar

# The skill-tool contract decides activation in previews (spec 000 §5.2); who else lists
# the skill is engine/harness.listing's question.
_SKILL_TOOL = HARNESSES["skill-tool"]


@dataclass(slots=True)
class SkillResult:
    path: str  # SKILL.md
    doc: document.SkillDocument | None
    findings: list[Finding]
    location: Location | None = None
    cross: list[Finding] = field(default_factory=list)  # shadowing / duplicates, set by link_skills
    src: SourceText | PositionTable | None = None  # kept when ``doc`` is dropped
    _name: str | None = None
    _anchor: tuple[int, int] | None = None
    graph: list[Finding] = field(default_factory=list)  # mentions of unknown skills, set by skillgraph
    _mentions: list[Mention] | None = None
    _name_span: tuple[int, int] | None = None  # the `name` value, when the frontmatter has one
    _description: str | None = None
    _outside: tuple[str, ...] | None = None

    def slim(self, *, keep_text: bool = True) -> SkillResult:
        """The same result without the parsed document.

        ``keep_text=False`` replaces the text by a table of the positions that
        findings and cross-skill rules need (what a worker process sends back).
        """
        src: SourceText | PositionTable | None = self.doc.src if self.doc is not None else self.src
        mentions = self.mentions
        if not keep_text and isinstance(src, SourceText):
            # Positions of names and mentions too: references and rename reach closed files.
            offsets = {o for f in self.findings for o in (f.start, f.end)} | set(self.anchor)
            offsets |= {o for f in self.findings for r in f.related if r.path == self.path for o in (r.start, r.end)}
            offsets |= {o for m in mentions for o in (m.start, m.end)}
            src = PositionTable(src, offsets)
        return SkillResult(self.path, None, self.findings, self.location, self.cross, src, self.name, self.anchor,
                           self.graph, mentions, self.name_span, self.description, self.outside)

    @property
    def outside(self) -> tuple[str, ...]:
        """Paths outside the skill folder its body links to (what a change there can affect)."""
        if self._outside is None:
            self._outside = _outside_targets(self.doc) if self.doc is not None else ()
        return self._outside

    @property
    def name_span(self) -> tuple[int, int] | None:
        """Span of the `name` value (quotes included), or None without one."""
        doc = self.doc
        if doc is None:
            return self._name_span
        if doc.frontmatter_ok and "name" in doc.entries:
            v = doc.entries["name"].value
            if v.end > v.start:
                return v.start, v.end
        return None

    @property
    def description(self) -> str:
        """The description as one line (empty when missing or not a string)."""
        if self.doc is None:
            return self._description or ""
        value = self.doc.value("description") if self.doc.frontmatter_ok else None
        return " ".join(value.split()) if isinstance(value, str) else ""

    @property
    def mentions(self) -> list[Mention]:
        """Mentions of other skills in this file (kept when the document is dropped)."""
        if self._mentions is None:
            self._mentions = mentions_of(self.doc) if self.doc is not None else []
        return self._mentions

    @property
    def all_findings(self) -> list[Finding]:
        return sorted(self.findings + self.cross + self.graph, key=lambda f: (f.start, f.end, f.code))

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
            if _SKILL_TOOL.blocks(f.code):
                return f
        return None


def targets_for(settings: Settings, skill_md: str | None) -> tuple[str, ...]:
    """The targets a SKILL.md is checked for: configured, else inferred from its root, else the profile."""
    return for_skill(settings.targets, settings.profile, os.path.dirname(skill_md) if skill_md else None)


def profile_for(settings: Settings, skill_md: str | None) -> Profile:
    return view(targets_for(settings, skill_md))


def context_for(settings: Settings, skill_dir: str | None, skill_md: str | None = None) -> rules.Context:
    where = skill_md or (os.path.join(skill_dir, "SKILL.md") if skill_dir else None)
    return rules.Context(profile=profile_for(settings, where), check_links=settings.check_links,
                         skill_dir=skill_dir or None)


def check_text(text: str, path: str, settings: Settings, *, on_disk: bool = True,
               decode_issue: document.DecodeIssue | None = None,
               seen: dict[str, bool] | None = None) -> tuple[document.SkillDocument, list[Finding]]:
    """Parse and check one SKILL.md text. ``on_disk`` enables folder-relative checks (links, license files).

    ``seen`` receives every path existence the checks looked up (relative to the skill
    folder) and what they found: what a cached result depends on beyond its folder.
    """
    doc = document.parse(text, path, decode_issue)
    ctx = context_for(settings, os.path.dirname(path) if on_disk and path else None, path or None)
    if seen is not None:
        ctx._exists = seen
    return doc, apply_settings(rules.check(doc, ctx), settings)


def apply_settings(findings: list[Finding], settings: Settings) -> list[Finding]:
    """Per-code severity overrides; 'off' drops the finding."""
    out = []
    for f in findings:
        if f.code in settings.severity:
            sev = settings.severity[f.code]
            if sev is None:
                continue
            f = f.with_severity(sev)
        out.append(f)
    return out


def _decode_prefix(data: bytes, size: int) -> tuple[str, document.DecodeIssue | None]:
    if size > len(data):
        # The read limit may cut the last character in two: drop that part only. A bad byte
        # that is no such part (a stray continuation byte) stays and is INVALID_ENCODING.
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.reason == "unexpected end of data":
                data = data[:exc.start]
    return document.decode(data)


def check_file(path: str, settings: Settings, location: Location | None = None,
               seen: dict[str, bool] | None = None) -> SkillResult:
    """Read and check one SKILL.md on disk. Read failures and fence problems are findings.

    ``seen``: as for ``check_text``.
    """
    if location is not None and location.problem is not None:
        code, message = location.problem
        return SkillResult(path, None, apply_settings([make(code, message, 0, 0)], settings), location)
    try:
        data, size = read_skill_file(path)
    except ReadError as exc:
        return SkillResult(path, None, apply_settings([make(exc.code, exc.message, 0, 0)], settings), location)
    text, issue = _decode_prefix(data, size)
    doc, findings = check_text(text, path, settings, decode_issue=issue, seen=seen)
    if location is not None and location.root_index < 0 and not _under_a_skills_folder(path):
        findings = [_fragment(f) if f.code == "MISSING_FRONTMATTER" else f for f in findings]
    if size > len(data):
        doc.full_length = max(doc.full_length, size)
        if not any(f.code == "FILE_TOO_LARGE" for f in findings):
            end = len(doc.text)
            findings.extend(apply_settings([make("FILE_TOO_LARGE", f"file is {size:,} bytes; only the first "
                                                 f"{len(data):,} bytes are analysed", max(0, end - 1), end)], settings))
    return SkillResult(path, doc, findings, location)




def _outside_targets(doc: document.SkillDocument) -> tuple[str, ...]:
    """Absolute paths of the body's relative link targets that leave the skill folder."""
    from .rules.body import classify, may_leave_folder, relative_path  # noqa: PLC0415 - rules import this module's peers

    # The raw scan spares the Markdown parse where no target can leave ('...' in prose,
    # '../' in code blocks): 600 of the corpus's 3,223 skills were parsed for this alone.
    if not doc.path or doc.body_start >= len(doc.text) or not may_leave_folder(doc):
        return ()
    out = set()
    for link in doc.links:
        if classify(link.target) == "relative":
            rel = relative_path(link.target)
            if rel == ".." or rel.startswith("../"):
                out.add(os.path.normpath(os.path.join(doc.skill_dir, rel)))
    return tuple(sorted(out))


def _under_a_skills_folder(path: str) -> bool:
    """Whether a folder named skills/ or skill/ holds the skill: every harness's discovery
    pattern has one (.claude/skills/*, plugins' skills/*, OpenCode's {skill,skills}/**)."""
    parts = os.path.normpath(os.path.dirname(os.path.dirname(path))).split(os.sep)
    return any(p in ("skills", "skill") for p in parts)


def _fragment(f: Finding) -> Finding:
    # Found only by the recursive search, where no harness looks: a template or fragment
    # named SKILL.md (issue 11 audit: UiPath's skill-flavors/), not a skill to fix.
    return dataclasses.replace(f, severity=Severity.INFO, message=f.message + "; no harness discovers this "
                               "file (no skills/ folder above it), so it may be a fragment rather than a skill")


def _member(r: SkillResult) -> bool:
    """Takes part in cross-skill rules: in a configured root, and valid or only misnamed."""
    if r.location is None or r.location.root_index < 0:
        return False
    err = r.blocking_error
    return err is None or err.code == "NAME_MISMATCH"


def _link_group(name: str, members: list[SkillResult], settings: Settings) -> None:
    """Cross-skill findings inside one name group (members already cleared)."""
    members.sort(key=lambda r: (r.location.root_index, r.path))  # type: ignore[union-attr]
    by_root: dict[int, list[SkillResult]] = defaultdict(list)
    for m in members:
        by_root[m.location.root_index].append(m)  # type: ignore[union-attr]
    for same in by_root.values():
        if len(same) < 2:
            continue
        for w in same:
            others = [o for o in same if o is not w]
            rel = tuple(Related(o.path, *o.anchor, f"also named '{name}'") for o in others)
            where = ", ".join(os.path.relpath(o.path, os.path.dirname(w.path)) for o in others)
            w.cross.extend(apply_settings([make(
                "DUPLICATE_NAME", f"another skill in the same root is also named '{name}' ({where})",
                *w.anchor, {"name": name}, related=rel)], settings))
    valid = [m for m in members if m.blocking_error is None]
    if len(valid) < 2:
        return
    winner = valid[0]
    for loser in valid[1:]:
        if loser.location.root_index == winner.location.root_index:  # type: ignore[union-attr]
            continue
        loser.cross.extend(apply_settings([make(
            "SHADOWED",
            f"skill '{name}' is shadowed by {winner.path} (root {winner.location.root_index} wins over root "  # type: ignore[union-attr]
            f"{loser.location.root_index}); harnesses never load this copy",  # type: ignore[union-attr]
            *loser.anchor, {"name": name, "winner": winner.path},
            related=(Related(winner.path, *winner.anchor, "the skill that wins"),), tags=("unnecessary",))],
            settings))


def check_job(job: tuple[Location, Settings, bool]) -> SkillResult:
    """Worker-process entry (picklable by reference): check one skill, return it slim."""
    loc, settings, keep_text = job
    return check_file(loc.path, settings, loc).slim(keep_text=keep_text)


def link_skills(results: list[SkillResult], settings: Settings) -> None:
    """Cross-skill findings among skills in configured roots: duplicate names and shadowing.

    Lower root index wins; an invalid skill never displaces a valid one (it is not
    in the catalog at all), so only valid skills shadow or are shadowed.
    """
    groups: dict[str, list[SkillResult]] = defaultdict(list)
    for r in results:
        r.cross = []
        if _member(r):
            groups[r.name].append(r)
    for name, members in groups.items():
        if len(members) > 1:
            _link_group(name, members, settings)


class SkillIndex:
    """The skills of one workspace by path, with cross-skill findings kept up to date incrementally.

    Replacing one skill recomputes only the name groups it left and joined, so an
    edit costs O(group) instead of O(workspace).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.results: dict[str, SkillResult] = {}
        self._groups: dict[str, set[str]] = defaultdict(set)
        self._name_of: dict[str, str] = {}
        self.graph = SkillGraph(settings)

    def rebuild(self, results: list[SkillResult]) -> None:
        self.results = {r.path: r for r in results}
        self._groups = defaultdict(set)
        self._name_of = {}
        link_skills(results, self.settings)
        for r in results:
            if _member(r):
                self._groups[r.name].add(r.path)
                self._name_of[r.path] = r.name
        self.graph.rebuild(self.results)

    def _relink(self, names: set[str]) -> set[str]:
        touched: set[str] = set()
        for name in names:
            members = [self.results[p] for p in self._groups.get(name, ())]
            before = {m.path: m.cross for m in members}
            for m in members:
                m.cross = []
            if len(members) > 1:
                _link_group(name, members, self.settings)
            touched.update(m.path for m in members if m.cross != before[m.path])
        return touched

    def put(self, result: SkillResult) -> set[str]:
        """Add or replace a skill; returns the other paths whose cross-skill findings changed."""
        path = result.path
        names = set()
        old = self._name_of.pop(path, None)
        if old is not None:
            self._groups[old].discard(path)
            names.add(old)
        prev = self.results.get(path)
        result.cross = []
        self.results[path] = result
        if _member(result):
            self._groups[result.name].add(path)
            self._name_of[path] = result.name
            names.add(result.name)
        touched = self._relink(names)
        touched |= self.graph.update(self.results, path, prev, result)
        return touched - {path}

    def remove(self, path: str) -> set[str]:
        old = self._name_of.pop(path, None)
        prev = self.results.pop(path, None)
        touched = self.graph.update(self.results, path, prev, None) if prev is not None else set()
        if old is None:
            return touched - {path}
        self._groups[old].discard(path)
        return (self._relink({old}) | touched) - {path}


def fix_all_text(text: str, path: str, settings: Settings, *, on_disk: bool = True,
                 max_passes: int | None = None, unsafe: bool = False) -> str:
    """Apply every safe fix until none is left (a fixpoint, so a second run changes nothing).

    ``unsafe`` (`check --unsafe-fixes`) applies unsafe fixes too (fixes.chosen_fix).

    A fix may reveal the next one (YAML reports one unquoted colon at a time, so each pass
    quotes one value): passes go on while the text changes. The default bound, one pass per
    line and a few more, is beyond any such chain; it only stops fixes that undo each other.
    """
    from .fixes import apply_edits, safe_edits  # noqa: PLC0415

    if max_passes is None:
        max_passes = text.count("\n") + 5
    for _ in range(max_passes):
        doc, findings = check_text(text, path, settings, on_disk=on_disk)
        edits = safe_edits(doc, findings, unsafe=unsafe)
        if not edits:
            break
        new = apply_edits(text, edits)
        if new == text:
            break
        text = new
    return text
