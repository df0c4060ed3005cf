"""The workspace index (engine/workspace.SkillIndex): what the server holds for one folder.

Every edit, new file, rename and deletion goes through put/remove; each test checks
the cross-skill findings the index then holds against a full recheck of the same
files (link_skills), and which other files it says must be republished.
"""

from __future__ import annotations

import os
from pathlib import Path

from helpers import codes, skill_text, write_skill
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import Location, scan_roots
from skill_lsp.engine.findings import Severity
from skill_lsp.engine.workspace import SkillIndex, SkillResult, check_file, link_skills

ROOTS = ("a", "b")


class Workspace:
    """Skills under ``tmp/a`` and ``tmp/b`` (roots 0 and 1), checked as the server checks them."""

    def __init__(self, tmp: Path, settings: Settings | None = None) -> None:
        self.tmp = tmp
        self.settings = settings or Settings(roots=ROOTS)

    def write(self, rel: str, text: str) -> str:
        root, folder = rel.split("/")
        return str(write_skill(self.tmp / root, folder, text))

    def result(self, rel: str) -> SkillResult:
        root, folder = rel.split("/")
        path = str(self.tmp / root / folder / "SKILL.md")
        loc = Location(os.path.dirname(path), path, ROOTS.index(root), str(self.tmp / root))
        return check_file(path, self.settings, loc).slim()

    def all(self) -> list[SkillResult]:
        locs = scan_roots(self.settings.resolved_roots(str(self.tmp)), self.settings.sensitive_patterns)
        return [check_file(loc.path, self.settings, loc).slim() for loc in locs]

    def path(self, rel: str) -> str:
        root, folder = rel.split("/")
        return str(self.tmp / root / folder / "SKILL.md")

    def rel(self, paths: set[str]) -> set[str]:
        return {os.path.relpath(os.path.dirname(p), self.tmp) for p in paths}


def findings(index: SkillIndex, ws: Workspace) -> dict[str, list[str]]:
    return {os.path.relpath(os.path.dirname(p), ws.tmp): codes(r.cross) for p, r in sorted(index.results.items())}


def from_scratch(ws: Workspace) -> dict[str, list[str]]:
    """The cross-skill findings a full recheck of the files on disk gives."""
    results = ws.all()
    link_skills(results, ws.settings)
    return {os.path.relpath(os.path.dirname(r.path), ws.tmp): codes(r.cross) for r in sorted(results, key=lambda r: r.path)}


def three_demos(tmp_path: Path) -> tuple[Workspace, SkillIndex]:
    """`demo` twice in root a, once in root b, and a broken skill in b: indexed."""
    ws = Workspace(tmp_path)
    ws.write("a/demo", skill_text("demo"))
    ws.write("a/copy", skill_text("demo"))
    ws.write("b/demo", skill_text("demo"))
    ws.write("b/broken", "# no frontmatter\n")
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    return ws, index


def test_rebuild_links_every_skill(tmp_path: Path):
    ws, index = three_demos(tmp_path)
    assert findings(index, ws) == from_scratch(ws) == {
        "a/copy": ["DUPLICATE_NAME"], "a/demo": ["DUPLICATE_NAME"], "b/broken": [], "b/demo": ["SHADOWED"]}
    # Rebuilding again starts over: no finding twice, none left from before.
    os.remove(ws.path("a/copy"))
    os.rmdir(os.path.dirname(ws.path("a/copy")))
    index.rebuild(ws.all())
    assert findings(index, ws) == from_scratch(ws) == {"a/demo": [], "b/broken": [], "b/demo": ["SHADOWED"]}
    # Later edits see the rebuilt groups only.
    assert index.put(ws.result("b/demo")) == set()
    assert findings(index, ws)["b/demo"] == ["SHADOWED"]


def test_a_new_skill_with_a_taken_name(tmp_path: Path):
    ws = Workspace(tmp_path)
    ws.write("a/demo", skill_text("demo"))
    ws.write("a/solo", skill_text("solo"))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    ws.write("a/copy", skill_text("demo"))
    touched = index.put(ws.result("a/copy"))
    assert ws.rel(touched) == {"a/demo"}  # gains DUPLICATE_NAME; the new file is published anyway
    assert findings(index, ws) == from_scratch(ws) == {
        "a/copy": ["DUPLICATE_NAME"], "a/demo": ["DUPLICATE_NAME"], "a/solo": []}
    # A copy in a later root is shadowed; the winner does not change.
    ws.write("b/demo", skill_text("demo"))
    assert index.put(ws.result("b/demo")) == set()
    assert findings(index, ws) == from_scratch(ws)
    assert codes(index.results[ws.path("b/demo")].cross) == ["SHADOWED"]


def test_an_edit_that_keeps_the_name_where_it_was_touches_no_other(tmp_path: Path):
    """Body edits keep every cross-skill finding (taken over, not recomputed); an edit that moves
    the `name` line moves the related information the others hold, and republishes them."""
    desc = "Reviews pull requests for risky changes and writes a summary for the whole team."
    ws = Workspace(tmp_path)
    for rel in ("a/demo", "a/copy", "a/same"):
        ws.write(rel, skill_text("demo" if rel != "a/same" else "same", description=desc))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())

    def related(rel: str) -> list[tuple[str, str, int, int]]:
        return [(f.code, os.path.relpath(r.path, tmp_path), r.start, r.end) for f in index.results[ws.path(rel)].cross
                for r in f.related]

    before = related("a/copy") + related("a/same")
    ws.write("a/demo", skill_text("demo", description=desc, body="\n# Body\n\nMore words.\n"))
    assert index.put(ws.result("a/demo")) == set()
    assert findings(index, ws) == from_scratch(ws) == {
        "a/copy": ["DUPLICATE_NAME", "DESCRIPTION_OVERLAP"], "a/demo": ["DUPLICATE_NAME", "DESCRIPTION_OVERLAP"],
        "a/same": ["DESCRIPTION_OVERLAP"]}
    assert related("a/copy") + related("a/same") == before
    # A comment above `name:` moves its span: both others point at the new place.
    ws.write("a/demo", "---\n# moved\n" + skill_text("demo", description=desc)[4:])
    assert ws.rel(index.put(ws.result("a/demo"))) == {"a/copy", "a/same"}
    demo = ws.path("a/demo")
    moved = [(code, start) for code, path, start, _ in related("a/copy") + related("a/same") if path == "a/demo/SKILL.md"]
    assert moved == [(code, start + 8) for code, path, start, _ in before if path == "a/demo/SKILL.md"]
    assert index.results[demo].anchor == (18, 22)


def test_renaming_a_skill_moves_it_between_name_groups(tmp_path: Path):
    ws = Workspace(tmp_path)
    ws.write("a/demo", skill_text("demo"))
    ws.write("a/copy", skill_text("demo"))
    ws.write("a/other", skill_text("other"))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    # copy: demo -> other. demo loses its duplicate, other gains one.
    ws.write("a/copy", skill_text("other"))
    touched = index.put(ws.result("a/copy"))
    assert ws.rel(touched) == {"a/demo", "a/other"}
    assert findings(index, ws) == from_scratch(ws) == {
        "a/copy": ["DUPLICATE_NAME"], "a/demo": [], "a/other": ["DUPLICATE_NAME"]}
    # copy: other -> copy (its own folder name): other loses its duplicate.
    ws.write("a/copy", skill_text("copy"))
    assert ws.rel(index.put(ws.result("a/copy"))) == {"a/other"}
    assert findings(index, ws) == from_scratch(ws) == {"a/copy": [], "a/demo": [], "a/other": []}


def test_an_edit_that_keeps_the_name_touches_no_other_file(tmp_path: Path):
    ws = Workspace(tmp_path)
    ws.write("a/demo", skill_text("demo"))
    ws.write("a/copy", skill_text("demo"))
    ws.write("b/demo", skill_text("demo"))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    before = findings(index, ws)
    ws.write("a/copy", skill_text("demo", description="Does a thing better. Use when testing."))
    assert index.put(ws.result("a/copy")) == set()
    assert findings(index, ws) == before == from_scratch(ws)
    assert index.results[ws.path("a/copy")].description == "Does a thing better. Use when testing."


def test_a_skill_that_breaks_leaves_the_catalog(tmp_path: Path):
    ws = Workspace(tmp_path)
    ws.write("a/demo", skill_text("demo"))
    ws.write("b/demo", skill_text("demo"))
    ws.write("b/copy", skill_text("demo"))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    assert findings(index, ws) == {"a/demo": [], "b/copy": ["DUPLICATE_NAME"], "b/demo": ["DUPLICATE_NAME", "SHADOWED"]}
    # The winner loses its description: it is in no catalog, so b/demo is no longer shadowed.
    ws.write("a/demo", "---\nname: demo\n---\n")
    touched = index.put(ws.result("a/demo"))
    assert ws.rel(touched) == {"b/demo"}
    assert findings(index, ws) == from_scratch(ws) == {
        "a/demo": [], "b/copy": ["DUPLICATE_NAME"], "b/demo": ["DUPLICATE_NAME"]}
    # The same file, still broken, arriving with findings from an older link: they are dropped.
    stale = ws.result("b/demo")
    stale.cross = list(index.results[ws.path("b/demo")].cross)
    broken = ws.result("a/demo")
    broken.cross = list(stale.cross)
    assert index.put(broken) == set()
    assert index.results[ws.path("a/demo")].cross == []
    # Fixed again: it shadows b/demo once more.
    ws.write("a/demo", skill_text("demo"))
    assert ws.rel(index.put(ws.result("a/demo"))) == {"b/demo"}
    assert findings(index, ws) == from_scratch(ws)


def test_removing_a_skill(tmp_path: Path):
    ws, index = three_demos(tmp_path)
    path = ws.path("a/copy")
    os.remove(path)
    assert ws.rel(index.remove(path)) == {"a/demo"}
    assert path not in index.results
    assert findings(index, ws) == from_scratch(ws) == {"a/demo": [], "b/broken": [], "b/demo": ["SHADOWED"]}
    # The winner goes: the copy in root b is the only one left.
    os.remove(ws.path("a/demo"))
    assert ws.rel(index.remove(ws.path("a/demo"))) == {"b/demo"}
    assert findings(index, ws) == {"b/broken": [], "b/demo": []}
    # A skill in no name group, and a path the index never held.
    broken = ws.path("b/broken")
    assert index.remove(broken) == set() and broken not in index.results
    assert index.remove(str(tmp_path / "a" / "never" / "SKILL.md")) == set()
    assert findings(index, ws) == {"b/demo": []}
    # Added back, it shadows the copy in root b again.
    ws.write("a/demo", skill_text("demo"))
    assert ws.rel(index.put(ws.result("a/demo"))) == {"b/demo"}
    assert findings(index, ws) == {"a/demo": [], "b/demo": ["SHADOWED"]}


def test_a_fresh_index_links_what_is_put(tmp_path: Path):
    ws = Workspace(tmp_path)
    ws.write("a/demo", skill_text("demo"))
    ws.write("a/copy", skill_text("demo"))
    index = SkillIndex(ws.settings)
    assert index.put(ws.result("a/demo")) == set()
    assert ws.rel(index.put(ws.result("a/copy"))) == {"a/demo"}
    assert findings(index, ws) == {"a/copy": ["DUPLICATE_NAME"], "a/demo": ["DUPLICATE_NAME"]}


def test_index_findings_follow_the_severity_settings(tmp_path: Path):
    ws = Workspace(tmp_path, Settings(roots=ROOTS, severity={"DUPLICATE_NAME": Severity.ERROR,
                                                              "UNKNOWN_SKILL": Severity.HINT}))
    ws.write("a/demo", skill_text("demo"))
    ws.write("a/user", skill_text("user", body="\nRun `/deom` first.\n"))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    assert [(f.code, f.severity) for f in index.results[ws.path("a/user")].graph] == [("UNKNOWN_SKILL", Severity.HINT)]
    ws.write("a/copy", skill_text("demo"))
    index.put(ws.result("a/copy"))
    assert [(f.code, f.severity) for f in index.results[ws.path("a/demo")].cross] == [("DUPLICATE_NAME", Severity.ERROR)]


def test_mentions_follow_puts_and_removes(tmp_path: Path):
    ws = Workspace(tmp_path)
    ws.write("a/deploy", skill_text("deploy"))
    ws.write("a/user", skill_text("user", body="\nRun `/deploy` first.\n"))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    user = ws.path("a/user")
    assert [(p, m.name) for p, m in index.graph.mentions_of(index.results, "deploy")] == [(user, "deploy")]
    # The mention becomes a typo of a skill that exists.
    ws.write("a/user", skill_text("user", body="\nRun `/deploi` first.\n"))
    assert index.put(ws.result("a/user")) == set()
    assert codes(index.results[user].graph) == ["UNKNOWN_SKILL"]
    assert index.graph.mentions_of(index.results, "deploy") == []
    # deploy renamed to deploi: the mention resolves, and user is republished.
    ws.write("a/deploy", skill_text("deploi"))
    assert ws.rel(index.put(ws.result("a/deploy"))) == {"a/user"}
    assert index.results[user].graph == []
    # deploi removed: nothing near is left, so no finding (and nothing to republish).
    assert index.remove(ws.path("a/deploy")) == set()
    assert index.results[user].graph == []
    # The mentioning file itself goes: nothing else changes.
    assert index.remove(user) == set()
    assert index.graph.mentions_of(index.results, "deploi") == []


def test_removing_a_path_the_index_never_held_changes_nothing(tmp_path: Path):
    ws = Workspace(tmp_path)
    ws.write("a/demo", skill_text("demo"))
    ws.write("a/user", skill_text("user", body="\nSee [demo](../demo/SKILL.md) and run `/demo`.\n"))
    index = SkillIndex(ws.settings)
    index.rebuild(ws.all())
    demo = ws.path("a/demo")
    folder = os.path.dirname(demo)
    # Another file in a skill's folder (a lowercase skill.md the index did not pick) goes away.
    assert index.remove(os.path.join(folder, "skill.md")) == set()
    assert set(index.results) == {demo, ws.path("a/user")}
    assert index.graph.dirs.get(folder) == demo  # link navigation still finds the skill
    assert index.graph.definitions("demo") == [demo]
    assert [m.kind for _, m in index.graph.mentions_of(index.results, "demo", demo)] == ["link", "slash"]
