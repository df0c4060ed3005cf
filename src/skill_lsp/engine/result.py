"""One checked skill: its document (or the positions findings need), findings, location and the
cross-skill findings added later. What the CLI prints, the server publishes and renderers list."""

from __future__ import annotations

import os

from . import document, suppress
from .config import Settings
from .datarecord import datarecord, field
from .discovery import Location
from .findings import Finding
from .harness import HARNESSES
from .links import classify, may_leave_folder, relative_path
from .mentions import Mention
from .mentions import extract as mentions_of
from .suppress import Suppressions
from .text import PositionTable, SourceText
from .unicodetext import nfkc
from .yamlnodes import resolve_scalar

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True

if TYPE_CHECKING:
    from .edits import Fix

# The skill-tool contract decides activation in previews (spec 000 §5.2); who else lists
# the skill is engine/listing's question.
_SKILL_TOOL = HARNESSES["skill-tool"]


def fixes_key(f: Finding) -> tuple[str, int, int, str]:
    """Where ``SkillResult.fixes`` keeps a finding's fixes."""
    return (f.code, f.start, f.end, f.message)


@datarecord(slots=True)
class SkillResult:
    """One checked skill: document or positions, findings and its place in the workspace."""

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
    _suppressions: Suppressions | None = None  # kept when ``doc`` is dropped
    # Each finding's fixes by (code, start, end, message), built from ``doc`` before a worker drops
    # it (``workspace.check_job`` for JSON output): the parent then need not parse the text again.
    fixes: dict[tuple[str, int, int, str], list[Fix]] | None = None
    # Findings as `check --format json` writes them, with their best fix's applicability, written
    # by the worker that checked the skill (``findingjson.prerendered``); their fixes are then not
    # kept in ``fixes``.
    rendered: list[tuple[Finding, str, str | None]] | None = None

    def slim(self, *, keep_text: bool = True, outside: bool = True) -> SkillResult:
        """The same result without the parsed document.

        ``keep_text=False`` replaces the text by a table of the positions that
        findings and cross-skill rules need (what a worker process sends back).
        ``outside=False``: without the link targets outside the folder (``outside`` is then
        empty), which only a server watching the disk asks for.
        """
        src: SourceText | PositionTable | None = self.doc.src if self.doc is not None else self.src
        mentions = self.mentions
        if not keep_text and isinstance(src, SourceText):
            # Positions of names and mentions too: references and rename reach closed files.
            offsets = {o for f in self.findings for o in (f.start, f.end)} | set(self.anchor)
            offsets |= {o for f in self.findings for r in f.related if r.path == self.path for o in (r.start, r.end)}
            offsets |= {o for m in mentions for o in (m.start, m.end)}
            if self.suppressions is not None:
                offsets |= self.suppressions.offsets()  # where an unused one is reported
            for menu in (self.fixes or {}).values():  # the edits of fixes built ahead
                offsets |= {o for fix in menu for e in fix.edits for o in (e.start, e.end)}
            src = PositionTable(src, offsets)
        return SkillResult(self.path, None, self.findings, self.location, self.cross, src, self.name, self.anchor,
                           self.graph, mentions, self.name_span, self.description, self.outside if outside else (),
                           self.suppressions,
                           self.fixes, self.rendered)

    @property
    def suppressions(self) -> Suppressions | None:
        """The `# skill-lsp: ignore[...]` comments of its frontmatter (None: none)."""
        return suppress.scan(self.doc) if self.doc is not None else self._suppressions

    def shown(self, settings: Settings, scope: str = "all") -> list[Finding]:
        """What is reported of this skill under ``settings``: ``suppress.shown`` of every finding."""
        sup = self.suppressions
        if sup is None and not settings.selection and not settings.per_file_ignores:
            return suppress.one_name_finding(self.all_findings)  # nothing else to filter (the common case)
        return suppress.shown(self.findings + self.cross + self.graph, sup, settings, self.path, scope)

    @property
    def reportable(self) -> bool:
        """Whether anything may be reported (findings, or suppressions that may be unused)."""
        return bool(self.findings or self.cross or self.graph or self.suppressions)

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
                    return nfkc(value.strip())
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


def _outside_targets(doc: document.SkillDocument) -> tuple[str, ...]:
    """Absolute paths of the body's relative link targets that leave the skill folder."""
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
