"""Server state: open documents, workspace folders with their settings and skill index.

Open SKILL.md texts live here, not in pygls's workspace: pygls splits lines with
str.splitlines (which breaks at U+2028 and form feeds) and reads never-opened
URIs from disk. Nothing here imports lsprotocol.
"""

from __future__ import annotations

import os

from ..engine import discovery, pathglobs
from ..engine.config import Settings, load_workspace, merge
from ..engine.datarecord import datarecord, field
from ..engine.discover import Inventory
from ..engine.document import SkillDocument
from ..engine.findings import Finding
from ..engine.workspace import SkillIndex, SkillResult, check_text, placed, placement_matters


@datarecord(slots=True)
class OpenDoc:
    uri: str
    path: str | None  # None for non-file URIs (untitled buffers)
    version: int
    text: str
    language_id: str = ""


@datarecord(slots=True)
class Analysis:
    version: int
    doc: SkillDocument
    findings: list[Finding]  # document findings (no cross-skill ones)
    settings: Settings


@datarecord(slots=True)
class Folder:
    path: str
    uri: str
    file_settings: Settings = field(default_factory=Settings)
    settings: Settings = field(default_factory=Settings)
    problems: list[str] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)
    index: SkillIndex | None = None
    scanned: bool = False
    inventory: Inventory | None = None  # set by the scan (``discover()``)
    walking: bool = False  # a scan's discovery walk is listing this folder's tree
    # Diagnostics a scan's workers already wrote as JSON: path -> (the result they are of, text);
    # taken (and dropped) by the first publish of that very result.
    rendered: dict = field(default_factory=dict)
    # Activation records of closed skills for listing decisions: path -> (index result, settings, record).
    records: dict = field(default_factory=dict)
    # Paths whose diagnostics a scan still owed the client when a newer scan took over: that scan
    # had put its index in place, so the next one's "what the client has" is not the index for them.
    owed: set[str] = field(default_factory=set)

    def load_file_settings(self) -> None:
        self.file_settings, self.problems = load_workspace(self.path)

    def apply(self, init_options: dict | None, client: dict | None) -> list[str]:
        """defaults < config file < initializationOptions < workspace/configuration."""
        settings, problems = self.file_settings, list(self.problems)
        # Globs set in the editor are relative to the workspace folder.
        anchor = self.path or None
        settings, p1 = merge(settings, init_options or {}, "initializationOptions", anchor=anchor, user=True)
        settings, p2 = merge(settings, client or {}, "workspace/configuration skillLsp", anchor=anchor, user=True)
        self.settings = settings
        self.roots = settings.resolved_roots(self.path)
        return problems + p1 + p2 + settings.refused_roots(self.path)

    def classify(self, path: str) -> discovery.Location | None:
        """Where a SKILL.md belongs in this folder's inventory, as the scan (and `check .`) would put it."""
        inv = self.inventory
        excluded = self.settings.exclude + self.settings.extend_exclude
        if (inv is None or inv.roots != self.roots or inv.sensitive != self.settings.sensitive_patterns
                or inv.excluded != excluded):
            inv = Inventory(os.path.normpath(self.path), self.roots, self.settings.sensitive_patterns,
                            ignored=inv.ignored if inv is not None else frozenset(), excluded=excluded)
        return inv.classify(path)

    def excludes(self, path: str) -> bool:
        """Whether `exclude` / `extend-exclude` leave ``path`` out of this folder (no diagnostics)."""
        if not (self.settings.exclude or self.settings.extend_exclude) or not self.path:
            return False
        return pathglobs.matches(path, self.settings.excluded, self.path)


class State:
    def __init__(self) -> None:
        self.docs: dict[str, OpenDoc] = {}
        self.analyses: dict[str, Analysis] = {}
        self.folders: list[Folder] = []
        self.default = Folder(path="", uri="")
        self.init_options: dict = {}
        self.client_settings: dict[str, dict] = {}

    def folder_for(self, path: str | None) -> Folder:
        if path is not None:
            best = None
            for f in self.folders:
                if discovery.is_inside(path, f.path) and (best is None or len(f.path) > len(best.path)):
                    best = f
            if best is not None:
                return best
        return self.default

    def analyse(self, od: OpenDoc) -> Analysis:
        """Check an open document (cached per version and settings)."""
        folder = self.folder_for(od.path)
        cached = self.analyses.get(od.uri)
        if cached is not None and cached.version == od.version and cached.settings is folder.settings:
            return cached
        path = od.path or ""
        on_disk = od.path is not None and os.path.isdir(os.path.dirname(od.path))
        doc, findings = check_text(od.text, path, folder.settings, on_disk=on_disk)
        if on_disk and folder.path and placement_matters(findings, path):
            # Graded by its place as the scan grades the file (test data, an example, a fragment);
            # the location is asked for only where it can change a finding (not on most keystrokes).
            findings = placed(findings, path, folder.classify(path))
        analysis = Analysis(od.version, doc, findings, folder.settings)
        self.analyses[od.uri] = analysis
        return analysis

    def result_for(self, od: OpenDoc, analysis: Analysis) -> SkillResult:
        """The open document as a SkillResult for the folder's index (its location from the inventory)."""
        folder = self.folder_for(od.path)
        loc = folder.classify(od.path) if od.path is not None and folder.path else None
        if loc is not None and loc.problem is not None:
            loc = discovery.Location(loc.dir, loc.path, loc.root_index, loc.root, real=loc.real)  # the buffer is what is checked
        return SkillResult(od.path or od.uri, analysis.doc, analysis.findings, loc)
