"""Listing decisions: what each harness does with each skill (engine/decisions.py), from the same
dialects the catalog preview renders."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from skill_lsp.engine.config import Settings
from skill_lsp.engine.decisions import (
    CUT,
    LISTED,
    NAME_ONLY,
    NOT_READ,
    SHADOWED,
    SKIPPED,
    decide,
    skill_decisions,
)
from skill_lsp.engine.preview import records_for
from skill_lsp.engine.workspace import check_file

REPO = Path(__file__).resolve().parents[2]
BUDGET_CASE = REPO / "capture" / "cases" / "listing-budget" / "skills"


def _records(root: Path, rels: list[str], roots: int = 1):
    results = []
    for rel in rels:
        for md in sorted((root / rel).glob("*/SKILL.md")):
            results.append(check_file(str(md), Settings()))
    return records_for(results, roots)


def _write(root: Path, rel: str, folder: str, text: str) -> None:
    d = root / rel / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(text, encoding="utf-8")


def test_past_claude_codes_budget_later_skills_are_listed_by_name_only(tmp_path: Path):
    # The capture case listing-budget: the release listed b23 and b24 by name only, b25 (short) in full.
    shutil.copytree(BUDGET_CASE, tmp_path / ".claude" / "skills")
    got = {Path(d.path).parent.name: d for d in decide(_records(tmp_path, [".claude/skills"]), "claude-code")}
    assert sorted(n for n, d in got.items() if d.state == NAME_ONLY) == ["b23", "b24"]
    assert got["b25"].state == LISTED and got["b20"].state == LISTED
    text = got["b23"].sentence()
    assert text.startswith("Claude Code 2.1.332 lists this skill by name only: its listing budget (30,136 columns")
    assert "the 13 built-in skills and the 23 skills before it" in text
    # Other harnesses have no such budget on these 26 skills.
    assert {d.state for d in decide(_records(tmp_path, [".claude/skills"]), "opencode")} == {LISTED}


def test_past_copilots_budget_later_skills_are_listed_by_name_only(tmp_path: Path):
    # The capture case many-skills: Copilot CLI 1.0.102 listed skill-00..26 in blocks, the rest by name.
    shutil.copytree(REPO / "capture" / "cases" / "many-skills" / "skills", tmp_path / ".github" / "skills")
    got = {Path(d.path).parent.name: d for d in decide(_records(tmp_path, [".github/skills"]), "copilot")}
    assert sorted(n for n, d in got.items() if d.state == LISTED) == [f"skill-{i:02}" for i in range(27)]
    assert sorted(n for n, d in got.items() if d.state == NAME_ONLY) == [f"skill-{i:02}" for i in range(27, 48)]
    assert got["skill-27"].sentence().startswith(
        "GitHub Copilot CLI 1.0.102 lists this skill by name only: its listing budget (15,000 characters) "
        "is used up by the 27 skills listed before it")


def test_each_state_with_its_reason(tmp_path: Path):
    good = "---\nname: {n}\ndescription: Does {n}. Use when testing.\n---\nbody\n"
    _write(tmp_path, ".claude/skills", "alpha", good.format(n="alpha"))
    _write(tmp_path, ".claude/skills", "long", good.format(n="long").replace("Does long.", "x" * 1700))
    _write(tmp_path, ".claude/skills", "broken", good.format(n="broken").replace(
        "---\nbody", "disable-model-invocation: true\n---\nbody"))
    _write(tmp_path, ".agents/skills", "elsewhere", good.format(n="elsewhere"))
    recs = _records(tmp_path, [".claude/skills", ".agents/skills"], 2)
    got = {Path(d.path).parent.name: d for d in decide(recs, "claude-code")}
    assert got["alpha"].state == LISTED and got["alpha"].seen
    assert got["long"].state == CUT and got["long"].kept == 1535 and got["long"].seen
    assert got["broken"].state == SKIPPED and not got["broken"].seen
    assert "disable-model-invocation: true keeps it out of the model's catalog" in got["broken"].sentence()
    assert got["elsewhere"].state == NOT_READ
    assert got["elsewhere"].sentence() == "Claude Code 2.1.332 does not read .agents/skills (skills there are never loaded)"
    assert got["alpha"].to_json()["text"] == "Claude Code 2.1.332 lists this skill"


def test_a_source_folder_beside_a_root_the_harness_reads_is_not_read(tmp_path: Path):
    # capture diff --plugins on the held-out unseen22 matrix-os: Claude Code 2.1.332, run in a project
    # with .claude/skills and skills/, lists the former alone. Without a root it reads, a source
    # folder's skills are previewed as installed.
    good = "---\nname: {n}\ndescription: Does {n}. Use when testing.\n---\nbody\n"
    _write(tmp_path, "skills", "source", good.format(n="source"))
    alone = {Path(d.path).parent.name: d for d in decide(_records(tmp_path, ["skills"]), "claude-code")}
    assert alone["source"].state == LISTED
    _write(tmp_path, ".claude/skills", "project", good.format(n="project"))
    got = {Path(d.path).parent.name: d for d in decide(_records(tmp_path, [".claude/skills", "skills"], 2),
                                                      "claude-code")}
    assert got["project"].state == LISTED and got["source"].state == NOT_READ
    assert got["source"].sentence() == ("Claude Code 2.1.332 does not read skills/ in a project where it reads its "
                                        "own folders (a source folder: its skills are listed once installed into "
                                        "one of its roots)")
    # A project with Claude Code's commands and no skill root of its own: its commands alone
    # (capture diff --plugins, the held-out unseen23 jwynia/agent-skills).
    other = tmp_path / "commands-only"
    _write(other, "skills", "source", good.format(n="source"))
    (other / ".claude" / "commands").mkdir(parents=True)
    (other / ".claude" / "commands" / "plan.md").write_text("Plan the work.\n", encoding="utf-8")
    records = _records(other, ["skills"])
    assert [d.state for d in decide(records, "claude-code")] == [LISTED]
    assert [d.state for d in decide(records, "claude-code", str(other))] == [NOT_READ]
    # Codex reads no root of this project: the source folder is previewed as installed.
    codex = {Path(d.path).parent.name: d.state for d in decide(_records(tmp_path, [".claude/skills", "skills"], 2),
                                                               "codex")}
    assert codex == {"project": NOT_READ, "source": LISTED}


def test_one_name_in_two_roots_is_shadowed_with_its_winner(tmp_path: Path):
    text = "---\nname: same\ndescription: Does it. Use when testing.\n---\nbody\n"
    _write(tmp_path, ".claude/skills", "same", text)
    _write(tmp_path, ".github/skills", "same", text)
    recs = _records(tmp_path, [".github/skills", ".claude/skills"], 2)
    states = sorted((Path(d.path).parts[-3], d.state) for d in decide(recs, "copilot"))
    assert [s for _, s in states].count(SHADOWED) == 1 and [s for _, s in states].count(LISTED) == 1
    (loser,) = [d for d in decide(recs, "copilot") if d.state == SHADOWED]
    assert loser.winner is not None and loser.winner.endswith("same/SKILL.md")
    assert loser.sentence().startswith("GitHub Copilot CLI 1.0.102 lists another skill of the same name instead (")


def test_where_the_release_does_not_settle_the_copy_the_decision_says_so(tmp_path: Path):
    # OpenCode's scan is parallel: the differential tester's second run of one workspace kept the other copy.
    _write(tmp_path, ".opencode/skills", "a", "---\nname: same\ndescription: A.\n---\nbody\n")
    _write(tmp_path, ".claude/skills", "b", "---\nname: same\ndescription: B.\n---\nbody\n")
    recs = _records(tmp_path, [".opencode/skills", ".claude/skills"], 2)
    (loser,) = [d for d in decide(recs, "opencode") if d.state == SHADOWED]
    assert "which one changes from run to run" in loser.sentence()
    assert "this preview lists the other one" in loser.sentence()


def _scan(root: Path, settings: Settings, slim: bool):
    from skill_lsp.engine.discover import discover

    inv = discover(str(root), settings)
    results = [check_file(loc.path, settings, loc) for loc in inv.locations]
    return [r.slim(keep_text=False) for r in results] if slim else results


def test_one_skills_decisions_agree_with_the_whole_listing_from_an_index_without_documents(tmp_path: Path):
    """skill_decisions (hover, code lens) from results without documents, as a scan index holds
    them: the budget case's decisions are the whole catalog's, skill by skill."""
    shutil.copytree(BUDGET_CASE, tmp_path / ".claude" / "skills")
    settings = Settings(roots=(".claude/skills", ".agents/skills"))
    full = _scan(tmp_path, settings, slim=False)
    whole = {d.path: d for d in decide(records_for(full, 2), "claude-code")}
    slim = _scan(tmp_path, settings, slim=True)
    assert all(r.doc is None for r in slim)
    for r in slim:
        mine = [d for d in skill_decisions(r.path, slim, settings) if d.dialect == "claude-code"]
        assert mine == [whole[r.path]], r.path
    assert sum(whole[r.path].state == NAME_ONLY for r in slim) == 2


def test_one_skills_decisions_name_the_copy_that_wins(tmp_path: Path):
    good = "---\nname: {n}\ndescription: Does {n}. Use when testing.\n---\nbody\n"
    _write(tmp_path, ".claude/skills", "alpha", good.format(n="alpha"))
    _write(tmp_path, ".claude/skills", "beta", good.format(n="beta"))
    _write(tmp_path, ".claude/skills", "alpha-copy", good.format(n="alpha"))
    settings = Settings()
    results = _scan(tmp_path, settings, slim=True)
    copy = str(tmp_path / ".claude/skills/alpha-copy/SKILL.md")
    got = {d.dialect: d for d in skill_decisions(copy, results, settings)}
    # Copilot keeps the first of two skills named alike; Claude Code lists skills by folder.
    assert got["copilot"].state == SHADOWED and got["copilot"].winner == "../alpha/SKILL.md"
    assert got["claude-code"].state == LISTED
    beta = skill_decisions(str(tmp_path / ".claude/skills/beta/SKILL.md"), results, settings)
    assert beta and {d.state for d in beta} == {LISTED}
    assert skill_decisions(str(tmp_path / "nowhere/SKILL.md"), results, settings) == []


def test_a_target_read_from_documentation_alone_has_no_decision(tmp_path: Path):
    # VS Code agent mode and Goose are targets without a modelled listing: a hover on a workspace
    # targeting them asked for a dialect that does not exist (ValueError).
    _write(tmp_path, ".claude/skills", "alpha", "---\nname: alpha\ndescription: Does alpha. Use when testing.\n---\nx\n")
    settings = Settings(targets=("vscode", "claude-code", "goose"))
    results = _scan(tmp_path, settings, slim=True)
    got = skill_decisions(str(tmp_path / ".claude/skills/alpha/SKILL.md"), results, settings)
    assert [(d.dialect, d.state) for d in got] == [("claude-code", LISTED)]


def test_a_linked_skill_folder_is_listed_by_the_harnesses_that_follow_links_but_never_read(tmp_path: Path,
                                                                                           monkeypatch):
    # Capture case skill-links: all five releases list and activate a skill folder that is a link, inside
    # the workspace or outside it. skill-lsp's fence does not read it; the decision says what the harness does.
    import os

    from skill_lsp.engine import discovery
    from skill_lsp.engine.preview import catalog_view

    good = "---\nname: {n}\ndescription: Does {n}. Use when testing.\n---\nbody\n"
    _write(tmp_path, "outside", "far", good.format(n="far"))
    roots = [str(tmp_path / "ws" / rel) for rel in (".claude/skills", ".agents/skills")]
    for root in roots:
        _write(Path(root), ".", "plain", good.format(n="plain"))
        os.symlink(tmp_path / "outside" / "far", Path(root) / "far")
    opened: list[str] = []
    real = discovery.read_skill_file
    monkeypatch.setattr("skill_lsp.engine.workspace.read_skill_file", lambda p: opened.append(p) or real(p))
    recs = records_for([check_file(loc.path, Settings(), loc)
                        for loc in discovery.scan_roots(roots, Settings().sensitive_patterns)], 2)
    assert len(recs) == 4 and not any("far" in p for p in opened)
    for dialect in ("claude-code", "codex", "opencode", "gemini", "copilot"):
        got = {Path(d.path).parent.name: d for d in decide(recs, dialect) if d.state != NOT_READ}
        assert got["far"].state == LISTED and got["far"].seen, dialect
        assert "its folder is a link, which" in got["far"].sentence()
        assert "(not read by skill-lsp: Skill directory is outside all configured workspace roots" in got["far"].reason
        # Not among the catalog's skips: the harness lists it (skill-lsp cannot show its entry).
        assert [s for s in catalog_view(recs, dialect)[2] if "outside all configured" in s["reason"]] == []
    # The skill tool's contract refuses it.
    assert {Path(d.path).parent.name: d for d in decide(recs, "skill-tool")}["far"].state == SKIPPED


def test_claude_code_leaves_a_skill_with_file_patterns_out_until_a_file_matches(tmp_path: Path):
    # The capture case conditional-paths (found by `capture diff --real` on a real skill): Claude Code
    # 2.1.332 keeps a skill whose `paths` names file patterns out of its catalog and its Skill tool.
    shutil.copytree(REPO / "capture" / "cases" / "conditional-paths" / "skills", tmp_path / ".claude" / "skills")
    got = {Path(d.path).parent.name: d for d in decide(_records(tmp_path, [".claude/skills"]), "claude-code")}
    assert sorted(n for n, d in got.items() if d.state == SKIPPED) == [
        "paths-any-file", "paths-list", "paths-mixed", "paths-star", "paths-string", "paths-two", "paths-unmatched"]
    assert got["paths-list"].sentence() == (
        "Claude Code lists this skill only once a file matching its paths (- src/**) is read, edited or "
        "@-mentioned (an activated skill's `@file` counts): a conditional skill")
    # The other releases read no `paths`.
    assert {d.state for d in decide(_records(tmp_path, [".claude/skills"]), "opencode")} == {LISTED}


def test_path_patterns_as_claude_code_reads_them():
    from skill_lsp.engine.listing import path_patterns

    assert path_patterns("src/**, lib/*.py ,") == ["src/**", "lib/*.py"]
    assert path_patterns(["src/**", 5, " ** ", "/**", ""]) == ["src/**"]
    assert path_patterns("  ") == [] and path_patterns(5) == [] and path_patterns(None) == []
    assert path_patterns({"a": "src/**"}) == [] and path_patterns("**/*") == ["**/*"]


def test_codex_leaves_a_skill_without_implicit_invocation_out_of_its_catalog(tmp_path: Path):
    # The capture case codex-implicit-invocation (found by `capture diff --real`: 15 real skills):
    # `policy.allow_implicit_invocation: false` keeps a skill out of the catalog unless something
    # else in agents/openai.yaml makes Codex ignore the whole file; a `$name` mention still loads it.
    shutil.copytree(REPO / "capture" / "cases" / "codex-implicit-invocation" / "skills", tmp_path / ".agents" / "skills")
    recs = _records(tmp_path, [".agents/skills"])
    got = {Path(d.path).parent.name: d for d in decide(recs, "codex")}
    assert sorted(n for n, d in got.items() if d.state == SKIPPED) == ["explicit-only", "false-and-bad-color"]
    assert got["explicit-only"].sentence() == (
        "Codex leaves it out of its catalog: agents/openai.yaml sets policy.allow_implicit_invocation: false "
        "(a $name mention still loads it)")
    from skill_lsp.engine.render import get_dialect

    assert get_dialect("codex").activation_record(recs, "explicit-only") is not None


def test_the_budget_pass_reads_a_checked_skill_as_checking_it_again_would(tmp_path: Path):
    """`check`'s listing budgets take each slim result's document again without checking it again
    (workspace.with_document): the same document and findings as check_file's."""
    from skill_lsp.engine.discovery import READ_LIMIT, Location
    from skill_lsp.engine.workspace import check_job, with_document

    settings = Settings()
    texts = {"plain": "---\nname: plain\ndescription: Plain skill. Use when asked.\n---\n\nBody.\n",
             "bom": "\ufeff---\nname: bom\ndescription: With a mark. Use when asked.\n---\n\nBody  \n",
             "broken": "---\nname: broken\ndescription: a: b\n---\n",
             "big": "---\nname: big\ndescription: Large. Use when asked.\n---\n\n" + "x" * (READ_LIMIT + 10)}
    for folder, text in texts.items():
        _write(tmp_path, "skills", folder, text)
        md = str(tmp_path / "skills" / folder / "SKILL.md")
        loc = Location(str(tmp_path / "skills" / folder), md, 0, str(tmp_path / "skills"))
        again, fresh = with_document(check_job((loc, settings, True)), settings), check_file(md, settings, loc)
        assert again.doc is not None and fresh.doc is not None
        assert (again.doc.text, again.doc.bom, again.doc.full_length) == (fresh.doc.text, fresh.doc.bom,
                                                                         fresh.doc.full_length)
        assert [(f.code, f.start, f.end, f.message) for f in again.findings] == \
               [(f.code, f.start, f.end, f.message) for f in fresh.findings]
    refused = Location(str(tmp_path / "x"), str(tmp_path / "x" / "SKILL.md"), 0, str(tmp_path), ("IO_ERROR", "gone"))
    assert with_document(check_job((refused, settings, True)), settings).doc is None


def _pairs():
    from itertools import permutations  # noqa: PLC0415

    from skill_lsp.engine.harness import HARNESSES  # noqa: PLC0415
    from skill_lsp.engine.render import DIALECTS  # noqa: PLC0415

    for name in DIALECTS:
        h = HARNESSES[name]
        project = [r.path for r in h.roots if r.scope == "project"] if not h.any_root else []
        yield from ((name, a, b) for a, b in permutations(project, 2))


@pytest.mark.parametrize(("harness", "first", "second"), list(_pairs()))
def test_shadowed_findings_agree_with_the_listing_decisions(tmp_path: Path, harness: str, first: str, second: str):
    """One name in two project roots of a harness, its only target: SHADOWED falls on the copy the
    harness's listing (the catalog preview's) leaves out, and names the copy it lists. The finding
    reads the harness's facts (``Harness.wins``), the listing its dialect."""
    from skill_lsp.commands.targets import collect  # noqa: PLC0415
    from skill_lsp.engine.workspace import link_skills  # noqa: PLC0415

    (tmp_path / ".skill-lsp.toml").write_text(f'targets = ["{harness}"]\n')
    for root in (first, second):
        _write(tmp_path, root, "demo", f"---\nname: demo\ndescription: The copy in {root}. Use when testing.\n---\nx\n")
    t = collect([str(tmp_path)], None, None)
    results = [check_file(loc.path, t.settings, loc) for loc in t.locations + t.loose]
    link_skills(results, t.settings)
    roots = 1 + max(r.location.root_index for r in results)
    decided = {d.path: d for d in decide(records_for(results, roots), harness)}
    for r in results:
        d = decided[r.path]
        shadowed = [f for f in r.cross if f.code == "SHADOWED"]
        assert bool(shadowed) == (d.state == SHADOWED and "changes from run to run" not in d.reason), (r.path, d)
        if shadowed:
            assert os.path.relpath(shadowed[0].data["winner"], os.path.dirname(r.path)) == d.winner
