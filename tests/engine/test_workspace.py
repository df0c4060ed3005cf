"""Checking skills on disk and across skills (engine/workspace.py): what one result says about
its skill, what check_file reports for files it cannot or may only partly read, and the
cross-skill findings (DUPLICATE_NAME, SHADOWED) of a set of roots."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from helpers import check, codes, only, rng, skill_text, write_skill
from skill_lsp.engine import discovery
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import Location, scan_roots
from skill_lsp.engine.findings import Related, Severity, make
from skill_lsp.engine.text import PositionTable, SourceText
from skill_lsp.engine.workspace import (
    RELATED_MAX,
    SkillResult,
    check_file,
    check_job,
    check_text,
    context_for,
    fix_all_text,
    link_skills,
    profile_for,
    targets_for,
)

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741


def scan(ws: Path, *roots: str, settings: Settings | None = None) -> dict[str, SkillResult]:
    """The linked results of ``roots`` under ``ws``, by path relative to ``ws``."""
    settings = settings or Settings(roots=roots)
    locs = scan_roots(settings.resolved_roots(str(ws)), settings.sensitive_patterns)
    results = [check_file(loc.path, settings, loc) for loc in locs]
    link_skills(results, settings)
    return {os.path.relpath(r.path, ws): r for r in results}


def cross(results: dict[str, SkillResult]) -> dict[str, list[str]]:
    return {p: codes(r.cross) for p, r in results.items()}


def result_of(text: str, folder: str = "demo") -> SkillResult:
    path = f"/virtual/{folder}/SKILL.md"
    doc, findings = check(text, folder=folder, path=path)
    return SkillResult(path, doc, findings)


# --------------------------------------------------------------------- one result


def test_name_is_the_frontmatter_name_normalised_else_the_folder():
    assert result_of(skill_text("demo"), folder="x").name == "demo"
    assert result_of(skill_text("'  demo  '"), folder="x").name == "demo"
    # NFKC: the fullwidth spelling is the same catalog identity.
    assert result_of(skill_text("\uff44\uff45\uff4d\uff4f"), folder="x").name == "demo"
    # Through an alias to a scalar.
    assert result_of("---\ndescription: &n demo\nname: *n\n---\n", folder="x").name == "demo"
    for not_a_name in ("'   '", "[demo]", "123", ""):
        assert result_of(skill_text(not_a_name), folder="fallback").name == "fallback", not_a_name
    assert result_of("---\nname: a: b\n---\n", folder="fallback").name == "fallback"  # YAML error
    assert result_of("# no frontmatter\n", folder="fallback").name == "fallback"


def test_name_span_and_anchor():
    r = result_of(skill_text("demo"))
    assert r.name_span == r.anchor == (10, 14)
    quoted = result_of(skill_text("'demo'"))
    assert quoted.name_span == quoted.anchor == (10, 16)  # quotes included
    # `name:` with no value: no span to rename, the anchor is the empty spot after the key.
    empty = result_of("---\nname:\ndescription: x\n---\n")
    assert empty.name_span is None
    assert empty.anchor == (9, 9)
    # No name: cross-skill findings hang on the first line.
    nameless = result_of("---\ndescription: x\n---\n")
    assert nameless.name_span is None
    assert nameless.anchor == (0, 3)
    broken = result_of("---\nname: a: b\ndescription: x\n---\n")
    assert broken.name_span is None
    assert broken.anchor == (0, 3)
    assert result_of("# Title here\n").anchor == (0, 12)


def test_description_is_one_line():
    r = result_of(skill_text(description="|\n  Two lines,\n    spaced   out.  "))
    assert r.description == "Two lines, spaced out."
    assert result_of(skill_text(description="[1, 2]")).description == ""
    assert result_of("---\nname: demo\n---\n").description == ""
    assert result_of("---\nname: a: b\ndescription: text\n---\n").description == ""


def test_all_findings_are_in_document_order():
    r = result_of(skill_text("demo"))
    r.findings = [make("BROKEN_LINK", "b", 40, 45), make("NAME_MISMATCH", "n", 10, 14)]
    r.cross = [make("DUPLICATE_NAME", "d", 10, 14), make("SHADOWED", "s", 10, 12)]
    r.graph = [make("UNKNOWN_SKILL", "u", 30, 36)]
    assert [(f.code, f.start, f.end) for f in r.all_findings] == [
        ("SHADOWED", 10, 12), ("DUPLICATE_NAME", 10, 14), ("NAME_MISMATCH", 10, 14),
        ("UNKNOWN_SKILL", 30, 36), ("BROKEN_LINK", 40, 45)]


def test_blocking_error_is_the_first_finding_the_skill_tool_rejects():
    assert result_of(skill_text()).blocking_error is None
    # Warnings first, then the errors that keep the skill out: the first one is reported.
    r = result_of(skill_text("demo"))
    r.findings = [make("UNKNOWN_FIELD", "u", 0, 1), make("NAME_MISMATCH", "n", 10, 14), make("MISSING_FIELD", "m", 0, 3)]
    assert r.blocking_error is r.findings[1]
    real = result_of("---\nlicence: MIT\nname: demo\n---\n", folder="other")
    assert codes(real.findings) == ["MISSING_FIELD", "UNKNOWN_FIELD", "NAME_MISMATCH"]
    assert real.blocking_error is real.findings[0]
    warn_only = result_of(skill_text("demo", extra="licence: MIT"))
    assert warn_only.findings and warn_only.blocking_error is None


def test_mentions_are_found_once_and_kept_without_the_document():
    r = result_of(skill_text("demo", body="\nRun `/deploy` then $review-code.\n"))
    names = [(m.name, m.kind) for m in r.mentions]
    assert names == [("deploy", "slash"), ("review-code", "dollar")]
    assert r.mentions is r.mentions
    assert [(m.name, m.kind) for m in r.slim().mentions] == names


def test_slim_keeps_everything_but_the_document():
    text = skill_text("demo", description="|\n  Does  a\n  thing.", body="\nRun `/deploy`.\n")
    r = result_of(text)
    link = SkillResult(r.path, r.doc, r.findings)
    link.cross = list(r.findings)
    link.graph = list(r.findings)
    for keep_text in (True, False):
        s = link.slim(keep_text=keep_text)
        assert s.doc is None
        assert (s.path, s.findings, s.cross, s.graph, s.location) == (link.path, link.findings, link.cross,
                                                                        link.graph, link.location)
        assert (s.name, s.anchor, s.name_span, s.description) == ("demo", (10, 14), (10, 14), "Does a thing.")
        assert [(m.name, m.start) for m in s.mentions] == [(m.name, m.start) for m in link.mentions]
        # A second slim (what the server does to a slim result) changes nothing.
        again = s.slim(keep_text=keep_text)
        assert (again.name, again.anchor, again.name_span, again.description) == ("demo", (10, 14), (10, 14),
                                                                                  "Does a thing.")
        assert again.src is s.src
    assert isinstance(link.slim().src, SourceText) and link.slim().src.text == text


def test_slim_without_text_still_places_findings_names_and_mentions():
    text = ("---\nname: demo\nname: demo\ndescription: \u00e9t\u00e9 d\u00e9j\u00e0\n---\n\n"
            "# \u00c9tape\n\nUse `/deploy` and [x](missing.md).\n")
    path = "/virtual/demo/SKILL.md"
    doc, findings = check(text, path=path)
    r = SkillResult(path, doc, findings)
    dup = only(findings, "DUPLICATE_KEY")
    assert dup.related and dup.related[0].path == path
    s = r.slim(keep_text=False)
    assert isinstance(s.src, PositionTable)
    offsets = {o for f in findings for o in (f.start, f.end)} | set(r.anchor)
    offsets |= {o for o in (dup.related[0].start, dup.related[0].end)}
    offsets |= {o for m in r.mentions for o in (m.start, m.end)}
    assert r.mentions and len(offsets) > 4
    for o in offsets:
        assert s.src.position(o) == doc.src.position(o), o
    # Related spans in other files are not this file's positions.
    other = SkillResult(path, doc, [make("DUPLICATE_KEY", "d", 14, 18, related=(Related("/elsewhere/SKILL.md", 40, 41, "x"),))])
    assert 40 not in other.slim(keep_text=False).src
    # Slimming a slim result keeps its table.
    assert s.slim(keep_text=False).src is s.src


# --------------------------------------------------------------------- settings and targets


def test_targets_come_from_settings_then_the_root_then_the_profile():
    claude = "/ws/.claude/skills/demo/SKILL.md"
    assert "claude-code" in targets_for(Settings(), claude)
    assert targets_for(Settings(), "/ws/x/demo/SKILL.md") == ("skill-tool",)
    assert targets_for(Settings(), None) == ("skill-tool",)
    assert targets_for(Settings(profile="codex"), None) == ("codex",)
    assert targets_for(Settings(targets=("codex",)), claude) == ("codex",)
    assert profile_for(Settings(), claude).name_mismatch_severity == "warning"
    assert profile_for(Settings(), None).name_mismatch_severity == "error"


def test_context_for_a_skill_folder_or_file():
    ctx = context_for(Settings(check_links=False), "/ws/.claude/skills/demo")
    assert ctx.skill_dir == "/ws/.claude/skills/demo"
    assert "claude-code" in ctx.profile.targets
    assert ctx.check_links is False
    assert context_for(Settings(), None, "/ws/.claude/skills/demo/SKILL.md").skill_dir is None
    assert "claude-code" in context_for(Settings(), None, "/ws/.claude/skills/demo/SKILL.md").profile.targets
    loose = context_for(Settings(), "")
    assert loose.skill_dir is None and loose.profile.targets == ("skill-tool",) and loose.check_links is True


def test_check_text_checks_links_only_on_disk(tmp_path: Path):
    text = skill_text(body="\nSee [the guide](references/guide.md).\n")
    path = str(write_skill(tmp_path, "demo", text))
    assert "BROKEN_LINK" in codes(check_text(text, path, Settings())[1])
    assert "BROKEN_LINK" not in codes(check_text(text, path, Settings(), on_disk=False)[1])
    assert "BROKEN_LINK" not in codes(check_text(text, path, Settings(check_links=False))[1])
    (tmp_path / "demo" / "references").mkdir()
    (tmp_path / "demo" / "references" / "guide.md").write_text("# Guide\n")
    assert "BROKEN_LINK" not in codes(check_text(text, path, Settings())[1])
    # Without a path nothing is on disk and the targets fall back to the profile.
    assert check_text(text, "", Settings())[1] == []


def test_check_text_infers_the_targets_from_the_path_on_disk_or_not():
    text = skill_text("demo")
    for on_disk in (True, False):
        # Claude Code lists a misnamed skill under its folder name: a warning, not an error.
        _, found = check_text(text, "/ws/.claude/skills/other/SKILL.md", Settings(), on_disk=on_disk)
        assert [(f.code, f.severity) for f in found] == [("NAME_MISMATCH", W)]
        _, found = check_text(text, "/ws/other/SKILL.md", Settings(), on_disk=on_disk)
        assert [(f.code, f.severity) for f in found] == [("NAME_MISMATCH", E)]


def test_severity_overrides_change_or_drop_findings_and_keep_the_rest():
    text = skill_text("demo", extra="licence: MIT", body="\nSee [x](missing.md).\n")
    base = check(text, folder="other")[1]
    assert [(f.code, f.severity) for f in base] == [("NAME_MISMATCH", E), ("UNKNOWN_FIELD", W)]
    # The first finding off, the second one changed.
    got = check(text, folder="other", settings=Settings(severity={"NAME_MISMATCH": None, "UNKNOWN_FIELD": I}))[1]
    assert [(f.code, f.severity, f.message) for f in got] == [("UNKNOWN_FIELD", I, base[1].message)]
    kept = check(text, folder="other", settings=Settings(severity={"BROKEN_LINK": None}))[1]
    assert kept == base


# --------------------------------------------------------------------- check_file


def test_a_location_problem_is_the_only_finding(tmp_path: Path):
    p = write_skill(tmp_path, "demo", skill_text())
    loc = Location(str(p.parent), str(p), 0, str(tmp_path), ("SENSITIVE", "Refusing to activate skill"))
    r = check_file(str(p), Settings(), loc)
    assert r.doc is None and r.location is loc
    assert [(f.code, f.severity, f.message, f.start, f.end) for f in r.findings] == [
        ("SENSITIVE", E, "Refusing to activate skill", 0, 0)]
    quiet = check_file(str(p), Settings(severity={"SENSITIVE": W}), loc)
    assert [(f.code, f.severity) for f in quiet.findings] == [("SENSITIVE", W)]
    assert check_file(str(p), Settings(severity={"SENSITIVE": None}), loc).findings == []
    # Nothing was read: the result knows only the folder.
    assert (r.name, r.anchor, r.name_span, r.description, r.mentions) == ("demo", (0, 0), None, "", [])


def test_an_unreadable_skill_file_is_an_io_error(tmp_path: Path):
    (tmp_path / "demo" / "SKILL.md").mkdir(parents=True)
    path = str(tmp_path / "demo" / "SKILL.md")
    loc = Location(str(tmp_path / "demo"), path, 0, str(tmp_path))
    r = check_file(path, Settings(), loc)
    f = only(r.findings, "IO_ERROR")
    assert (f.severity, f.start, f.end, f.message) == (E, 0, 0, "SKILL.md is a directory, not a regular file")
    assert r.doc is None and r.location is loc and r.blocking_error is f
    assert check_file(path, Settings(severity={"IO_ERROR": W}), loc).findings[0].severity is W


def test_missing_frontmatter_outside_any_skills_folder_is_a_possible_fragment(tmp_path: Path):
    text = "# Template\n\nFill this in.\n"
    frag = write_skill(tmp_path / "docs" / "flavors", "basic", text)
    loc = Location(str(frag.parent), str(frag), -1, str(tmp_path))
    f = only(check_file(str(frag), Settings(), loc).findings, "MISSING_FRONTMATTER")
    assert f.severity is I
    assert f.message.endswith("; no skills/ folder holds it in this workspace, where harnesses look, "
                              "so it may be a fragment rather than a skill")
    plain = only(check_file(str(frag), Settings()).findings, "MISSING_FRONTMATTER")
    assert plain.severity is E and f.message.startswith(plain.message) and plain.message != f.message
    # Under skills/ or skill/ (at any depth above the skill folder) a harness finds it: still an error.
    for folder in ("skills", "skill", "skills/team"):
        p = write_skill(tmp_path / "pkg" / folder, "basic", text)
        got = check_file(str(p), Settings(), Location(str(p.parent), str(p), -1, str(tmp_path)))
        assert [(f.code, f.severity) for f in got.findings] == [("MISSING_FRONTMATTER", E)], folder
    # The skill folder itself being named skills/ does not count.
    p = write_skill(tmp_path / "other", "skills", text)
    got = check_file(str(p), Settings(), Location(str(p.parent), str(p), -1, str(tmp_path)))
    assert only(got.findings, "MISSING_FRONTMATTER").severity is I
    # In a configured root it is a skill, whatever the folder names.
    got = check_file(str(frag), Settings(), Location(str(frag.parent), str(frag), 0, str(tmp_path)))
    assert only(got.findings, "MISSING_FRONTMATTER").severity is E


def test_missing_frontmatter_among_skills_with_frontmatter_is_an_error(tmp_path: Path):
    # A repository whose top holds its skills (unseen majq1990/opencode-skills): one of 67 without
    # frontmatter is a skill no harness loads, not a fragment. Beside other fragments it still is one.
    for name in ("alpha", "beta"):
        write_skill(tmp_path / "repo", name, f"---\nname: {name}\ndescription: A skill. Use when asked.\n---\n")
    p = write_skill(tmp_path / "repo", "auditor", "# Skill Security Auditor\n\n- **Name**: auditor\n")
    got = check_file(str(p), Settings(), Location(str(p.parent), str(p), -1, str(tmp_path)))
    assert only(got.findings, "MISSING_FRONTMATTER").severity is E
    for name in ("one", "two"):
        write_skill(tmp_path / "flavors", name, "<!-- fragment -->\n# Part\n")
    p = write_skill(tmp_path / "flavors", "three", "# Part\n")
    got = check_file(str(p), Settings(), Location(str(p.parent), str(p), -1, str(tmp_path)))
    assert only(got.findings, "MISSING_FRONTMATTER").severity is I
    # The answer follows the folder's entries (a server keeps it by the folder's modification).
    for name in ("four", "five"):
        write_skill(tmp_path / "flavors", name, f"---\nname: {name}\ndescription: A skill. Use when asked.\n---\n")
    got = check_file(str(p), Settings(), Location(str(p.parent), str(p), -1, str(tmp_path)))
    assert only(got.findings, "MISSING_FRONTMATTER").severity is E


def test_a_fragment_keeps_its_other_findings(tmp_path: Path):
    p = write_skill(tmp_path / "docs", "basic", "# Template\n\nSee [x](missing.md).\n")
    got = check_file(str(p), Settings(), Location(str(p.parent), str(p), -1, str(tmp_path)))
    assert [(f.code, f.severity) for f in got.findings] == [("MISSING_FRONTMATTER", I), ("BROKEN_LINK", W)]


def test_a_file_over_the_read_limit_is_analysed_in_part(tmp_path: Path, monkeypatch):
    head = skill_text("demo").encode() + b"x" * 9
    limit = len(head) + 1
    monkeypatch.setattr(discovery, "READ_LIMIT", limit)
    p = write_skill(tmp_path, "demo", head + "\u20ac more text after the limit\n".encode() * 50)
    size = p.stat().st_size
    r = check_file(str(p), Settings())
    assert r.doc is not None
    # The euro sign straddles the limit: its first byte is dropped, not reported as bad UTF-8.
    assert r.doc.text == head.decode()
    assert r.doc.full_length == size and r.doc.truncated
    f = only(r.findings, "FILE_TOO_LARGE")
    assert f.message == f"file is {size:,} bytes; only the first {limit} bytes are analysed"
    assert (f.severity, f.start, f.end) == (W, len(r.doc.text) - 1, len(r.doc.text))
    assert codes(r.findings) == ["FILE_TOO_LARGE"]
    assert check_file(str(p), Settings(severity={"FILE_TOO_LARGE": None})).findings == []


@pytest.mark.parametrize(("char", "cut"), [(c, n) for c in ("\u00e9", "\u20ac", "\U0001f600")
                                           for n in range(1, len(c.encode()))])
def test_a_character_cut_by_the_read_limit_is_dropped(tmp_path: Path, monkeypatch, char: str, cut: int):
    encoded = char.encode()
    head = skill_text("demo").encode()
    monkeypatch.setattr(discovery, "READ_LIMIT", len(head) + cut)
    p = write_skill(tmp_path, "demo", head + encoded * 3)
    r = check_file(str(p), Settings())
    assert r.doc is not None and r.doc.text == head.decode()
    assert codes(r.findings) == ["FILE_TOO_LARGE"]


def test_bad_bytes_before_a_cut_character_are_still_reported(tmp_path: Path, monkeypatch):
    head = skill_text("demo").encode() + b"x\x80"
    monkeypatch.setattr(discovery, "READ_LIMIT", len(head) + 3)
    p = write_skill(tmp_path, "demo", head + "\U0001f600 tail\n".encode())
    assert "INVALID_ENCODING" in codes(check_file(str(p), Settings()).findings)
    # Invalid bytes at the very end of the part read are reported too.
    monkeypatch.setattr(discovery, "READ_LIMIT", len(head))
    assert "INVALID_ENCODING" in codes(check_file(str(p), Settings()).findings)


def test_a_file_that_itself_ends_inside_a_character_is_bad_utf8(tmp_path: Path):
    # Read whole (under the limit): nothing was cut, so the broken last character is the file's.
    p = write_skill(tmp_path, "demo", skill_text("demo").encode() + "\u20ac".encode()[:2])
    r = check_file(str(p), Settings())
    assert codes(r.findings) == ["INVALID_ENCODING"]


def test_a_file_cut_before_its_first_character(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(discovery, "READ_LIMIT", 2)
    p = write_skill(tmp_path, "demo", "\u20ac" + skill_text())
    r = check_file(str(p), Settings())
    assert r.doc is not None and r.doc.text == ""
    assert (only(r.findings, "FILE_TOO_LARGE").start, only(r.findings, "FILE_TOO_LARGE").end) == (0, 0)


def test_a_text_over_the_analysis_limit_has_one_size_finding(tmp_path: Path, monkeypatch):
    from skill_lsp.engine.document import MAX_ANALYSED_CHARS  # noqa: PLC0415

    head = skill_text("demo").encode()
    line = b"Plain words in a long skill.\n"
    body = line * (MAX_ANALYSED_CHARS // len(line) + 10)
    monkeypatch.setattr(discovery, "READ_LIMIT", len(head) + len(body) - len(line))
    p = write_skill(tmp_path, "demo", head + body)
    f = only(check_file(str(p), Settings()).findings, "FILE_TOO_LARGE")
    assert "characters" in f.message  # the rule's own finding, not the read limit's


# --------------------------------------------------------------------- cross-skill findings


def test_duplicate_names_in_one_root_point_at_each_other(tmp_path: Path):
    write_skill(tmp_path / "a", "demo", skill_text("demo"))
    write_skill(tmp_path / "a", "copy", skill_text("demo"))
    write_skill(tmp_path / "a", "third", skill_text("demo"))
    write_skill(tmp_path / "a", "solo", skill_text("solo"))
    results = scan(tmp_path, "a")
    assert cross(results) == {"a/copy/SKILL.md": ["DUPLICATE_NAME"], "a/demo/SKILL.md": ["DUPLICATE_NAME"],
                              "a/solo/SKILL.md": [], "a/third/SKILL.md": ["DUPLICATE_NAME"]}
    demo = results["a/demo/SKILL.md"]
    f = demo.cross[0]
    assert f.message == "another skill in the same root is also named 'demo' (../copy/SKILL.md, ../third/SKILL.md)"
    assert (f.severity, f.start, f.end, f.data, f.tags) == (W, 10, 14, {"name": "demo"}, ())
    assert [(r.path, r.start, r.end, r.message) for r in f.related] == [
        (str(tmp_path / "a" / p), 10, 14, "also named 'demo'") for p in ("copy/SKILL.md", "third/SKILL.md")]


def test_a_large_group_is_named_in_part(tmp_path: Path):
    """Fourteen copies, then fourteen skills sharing one template description: each finding names
    three others in its message and RELATED_MAX in related information, and counts the rest (a
    group of N made N findings of N entries each: 1,250 such skills made a 490 MB report)."""
    names = [f"s{i:02}" for i in range(14)]
    for n in names:
        write_skill(tmp_path / "a", n, skill_text("demo"))
        write_skill(tmp_path / "b", n, skill_text(n, description="Scaffolded skill, describe what it does here please."))
    results = scan(tmp_path, "a", "b")
    dup = only(results["a/s00/SKILL.md"].cross, "DUPLICATE_NAME")
    assert dup.message == ("another skill in the same root is also named 'demo' (../s01/SKILL.md, ../s02/SKILL.md, "
                           "../s03/SKILL.md and 10 more)")
    assert [r.path for r in dup.related] == [str(tmp_path / "a" / n / "SKILL.md") for n in names[1:1 + RELATED_MAX]]
    over = only(results["b/s13/SKILL.md"].cross, "DESCRIPTION_OVERLAP")
    assert over.message.startswith("the description is nearly the same as that of 's00' (../s00/SKILL.md), "
                                   "'s01' (../s01/SKILL.md), 's02' (../s02/SKILL.md) and 10 more: ")
    shown = [str(tmp_path / "b" / n / "SKILL.md") for n in names[:RELATED_MAX]]
    assert [r.path for r in over.related] == shown
    assert over.data == {"others": shown, "more": 13 - RELATED_MAX}


def test_a_skill_in_a_later_root_is_shadowed_by_the_first(tmp_path: Path):
    write_skill(tmp_path / "a", "demo", skill_text("demo"))
    write_skill(tmp_path / "b", "demo", skill_text("demo", extra="license: MIT"))
    write_skill(tmp_path / "c", "demo", skill_text("demo"))
    results = scan(tmp_path, "a", "b", "c")
    winner = results["a/demo/SKILL.md"]
    assert winner.cross == []
    for index, rel in ((1, "b/demo/SKILL.md"), (2, "c/demo/SKILL.md")):
        f = only(results[rel].cross, "SHADOWED")
        assert f.message == (f"skill 'demo' is shadowed by {winner.path} (root 0 wins over root {index}); "
                             "harnesses never load this copy")
        assert (f.severity, f.start, f.end) == (W, 10, 14)
        assert f.data == {"name": "demo", "winner": winner.path}
        assert f.related == (Related(winner.path, 10, 14, "the skill that wins"),)
        assert f.tags == ("unnecessary",)


def test_a_skill_linked_into_a_later_root_is_not_shadowed_by_itself(tmp_path: Path):
    """`.claude/skills/x -> ../../.agents/skills/x` for the harnesses that read one of the two
    roots (unseen b-mendoza/agent-skills): one folder, no copy left unloaded. A real copy still is."""
    write_skill(tmp_path / "a", "demo", skill_text("demo"))
    write_skill(tmp_path / "a", "copied", skill_text("copied"))
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "demo").symlink_to(tmp_path / "a" / "demo", target_is_directory=True)
    write_skill(tmp_path / "b", "copied", skill_text("copied"))
    results = scan(tmp_path, "a", "b")
    assert cross(results) == {"a/demo/SKILL.md": [], "a/copied/SKILL.md": [], "b/demo/SKILL.md": [],
                              "b/copied/SKILL.md": ["SHADOWED"]}


def test_the_winner_is_the_first_root_whatever_the_order_of_the_results(tmp_path: Path):
    write_skill(tmp_path / "a", "demo", skill_text("demo"))
    write_skill(tmp_path / "b", "demo", skill_text("demo"))
    settings = Settings(roots=("a", "b"))
    locs = scan_roots(settings.resolved_roots(str(tmp_path)), settings.sensitive_patterns)
    results = [check_file(loc.path, settings, loc) for loc in reversed(locs)]
    link_skills(results, settings)
    assert [codes(r.cross) for r in results] == [["SHADOWED"], []]


def test_duplicates_in_a_later_root_and_shadowing_together(tmp_path: Path):
    # Root a: demo and its fullwidth twin (both valid after NFKC); root b: demo and a misnamed copy.
    write_skill(tmp_path / "a", "demo", skill_text("demo"))
    write_skill(tmp_path / "a", "\uff44\uff45\uff4d\uff4f", skill_text("demo"))
    write_skill(tmp_path / "b", "demo", skill_text("demo"))
    write_skill(tmp_path / "b", "misnamed", skill_text("demo"))
    results = scan(tmp_path, "a", "b")
    assert cross(results) == {
        "a/demo/SKILL.md": ["DUPLICATE_NAME"],
        "a/\uff44\uff45\uff4d\uff4f/SKILL.md": ["DUPLICATE_NAME"],
        "b/demo/SKILL.md": ["DUPLICATE_NAME", "SHADOWED"],
        # Misnamed: in the same root as a duplicate, but in no catalog, so never shadowed.
        "b/misnamed/SKILL.md": ["DUPLICATE_NAME"],
    }
    assert results["b/demo/SKILL.md"].cross[1].data["winner"] == results["a/demo/SKILL.md"].path


def test_an_invalid_skill_neither_shadows_nor_is_shadowed(tmp_path: Path):
    write_skill(tmp_path / "a", "misnamed", skill_text("demo"))  # NAME_MISMATCH: not in the catalog
    write_skill(tmp_path / "b", "demo", skill_text("demo"))
    write_skill(tmp_path / "c", "misnamed", skill_text("demo"))
    write_skill(tmp_path / "a", "nodesc", "---\nname: nodesc\n---\n")
    write_skill(tmp_path / "b", "nodesc", "---\nname: nodesc\ndescription: Here.\n---\n")
    write_skill(tmp_path / "b", "other", "---\nname: nodesc\n---\n")
    results = scan(tmp_path, "a", "b", "c")
    # A skill the skill tool rejects for another reason is left out of every cross-skill rule.
    assert all(r.cross == [] for r in results.values()), cross(results)


def test_skills_outside_the_roots_take_no_part(tmp_path: Path):
    a = write_skill(tmp_path / "a", "demo", skill_text("demo"))
    b = write_skill(tmp_path / "b", "demo", skill_text("demo"))
    results = [check_file(str(a), Settings()), check_file(str(b), Settings())]
    link_skills(results, Settings())
    assert [r.cross for r in results] == [[], []]
    loose = [check_file(str(p), Settings(), Location(str(p.parent), str(p), -1, str(tmp_path))) for p in (a, b)]
    link_skills(loose, Settings())
    assert [r.cross for r in loose] == [[], []]


def test_link_skills_replaces_earlier_cross_findings(tmp_path: Path):
    write_skill(tmp_path / "a", "demo", skill_text("demo"))
    p = write_skill(tmp_path / "b", "demo", skill_text("demo"))
    results = scan(tmp_path, "a", "b")
    settings = Settings(roots=("a", "b"))
    link_skills(list(results.values()), settings)
    assert cross(results)["b/demo/SKILL.md"] == ["SHADOWED"]
    # The copy breaks: it leaves the catalog, so its old finding goes.
    p.write_text("---\nname: demo\n---\n")
    loc = results["b/demo/SKILL.md"].location
    results["b/demo/SKILL.md"] = check_file(str(p), settings, loc)
    results["b/demo/SKILL.md"].cross = [make("SHADOWED", "stale", 10, 14)]
    link_skills(list(results.values()), settings)
    assert cross(results) == {"a/demo/SKILL.md": [], "b/demo/SKILL.md": []}


def test_cross_findings_follow_the_severity_settings(tmp_path: Path):
    write_skill(tmp_path / "a", "demo", skill_text("demo"))
    write_skill(tmp_path / "a", "copy", skill_text("demo"))
    write_skill(tmp_path / "b", "demo", skill_text("demo"))
    settings = Settings(roots=("a", "b"), severity={"DUPLICATE_NAME": Severity.ERROR, "SHADOWED": None})
    results = scan(tmp_path, settings=settings)
    assert [(f.code, f.severity) for f in results["a/demo/SKILL.md"].cross] == [("DUPLICATE_NAME", E)]
    assert results["b/demo/SKILL.md"].cross == []


# --------------------------------------------------------------------- the worker's job


def test_check_job_is_check_file_without_the_document(tmp_path: Path):
    write_skill(tmp_path / "a", "demo", skill_text("other", body="\n\u00c9tape: run `/deploy`.\n"))
    settings = Settings(roots=("a",))
    (loc,) = scan_roots(settings.resolved_roots(str(tmp_path)), settings.sensitive_patterns)
    full = check_file(loc.path, settings, loc)
    for keep_text in (True, False):
        r = pickle.loads(pickle.dumps(check_job((loc, settings, keep_text))))
        assert r.doc is None and r.location == loc and r.path == loc.path
        assert r.findings == full.findings and codes(r.findings) == ["NAME_MISMATCH"]
        assert (r.name, r.anchor, r.description) == ("other", full.anchor, full.description)
        assert [(m.name, m.start) for m in r.mentions] == [("deploy", full.mentions[0].start)]
        assert isinstance(r.src, SourceText) is keep_text
        f = r.findings[0]
        assert (r.src.position(f.start), r.src.position(f.end)) == rng(full.doc, f) == ((1, 6), (1, 11))
    flagged = Location(loc.dir, loc.path, 0, loc.root, ("SENSITIVE", "no"))
    assert codes(check_job((flagged, settings, False)).findings) == ["SENSITIVE"]


# --------------------------------------------------------------------- fix all


def test_fix_all_quotes_every_unquoted_colon_however_many():
    # YAML reports one unquoted colon at a time, so each pass quotes one value; five passes
    # once left the rest, and a second run changed the file again.
    notes = [f"step{i}: run part {i}: then check" for i in range(12)]
    text = "---\nname: demo\ndescription: Does a thing: well. Use when testing.\n" + "\n".join(notes) + "\n---\n"
    fixed = fix_all_text(text, "/virtual/demo/SKILL.md", Settings(), on_disk=False)
    assert fixed.count('"') == 2 * 13
    assert 'step11: "run part 11: then check"' in fixed
    assert check(fixed)[1] == []
    assert fix_all_text(fixed, "/virtual/demo/SKILL.md", Settings(), on_disk=False) == fixed
    # One pass quotes them all: the parser reports one at a time, the pass finds the rest.
    assert fix_all_text(text, "/virtual/demo/SKILL.md", Settings(), max_passes=1).count('"') == 2 * 13


def test_fix_all_leaves_a_value_with_a_hash_to_the_parser():
    # ' #' may start a comment: such a value is quoted only when the parser reports it, one per pass.
    text = ("---\nname: demo\ndescription: Use when testing.\nb: three: four\n"
            "a: one: two # note: kept\n---\n")
    once = fix_all_text(text, "/virtual/demo/SKILL.md", Settings(), on_disk=False, max_passes=1)
    assert 'b: "three: four"' in once and "a: one: two # note: kept" in once
    fixed = fix_all_text(text, "/virtual/demo/SKILL.md", Settings(), on_disk=False)
    assert 'a: "one: two # note: kept"' in fixed and check(fixed)[1] == []


def test_fix_all_of_many_unquoted_values_takes_few_passes():
    # 800 values once took 800 full re-checks (25-69 s): the quoting pass and one to confirm.
    lines = "".join(f"k{i}: part {i}: more\n" for i in range(800))
    text = "---\nname: demo\ndescription: Use when testing.\n" + lines + "---\n"
    fixed = fix_all_text(text, "/virtual/demo/SKILL.md", Settings(), on_disk=False, max_passes=2)
    assert fixed.count('"') == 2 * 800 and check(fixed)[1] == []
