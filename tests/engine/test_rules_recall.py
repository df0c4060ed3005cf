"""Issue 26: recall on defects a peer caught or every tool missed, and the precision fixes the
held-out tune half asked for. Each rule on both sides: a small skill with the defect, and clean
skills (written here, in the shapes real skills take) it stays quiet on."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from helpers import check, skill_text, write_skill
from skill_lsp.engine.config import Settings
from skill_lsp.engine.discovery import scan_roots
from skill_lsp.engine.findings import Severity
from skill_lsp.engine.overlap import OverlapIndex
from skill_lsp.engine.skillgraph import link_mentions
from skill_lsp.engine.workspace import (
    SkillIndex,
    check_file,
    check_text,
    index_description,
    link_skills,
)

W, H = Severity.WARNING, Severity.HINT
COVERED: set[str] = set()


def covers(*names: str):
    COVERED.update(names)
    return lambda fn: fn


def codes_of(text: str, code: str, profile: str = "skill-tool", folder: str = "demo") -> list[str]:
    _, fs = check(text, folder=folder, profile=profile)
    return [f.code for f in fs if f.code == code]


def on_disk(tmp_path: Path, text: str, files: dict[str, str] | None = None, folder: str = "demo",
            profile: str = "skill-tool"):
    p = write_skill(tmp_path, folder, text)
    for rel, content in (files or {}).items():
        f = tmp_path / folder / rel if not rel.startswith("/") else Path(rel)
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content)
    r = check_file(str(p), Settings(profile=profile))
    return r.doc, r.findings


# --------------------------------------------------------------------- description placeholder and stub

@covers("DESCRIPTION_PLACEHOLDER")
@pytest.mark.parametrize("description", [
    "'[TODO: describe what this skill does]'",
    "<description>",
    "Describe what this skill does and when to use it.",
    "Replace with a description of the skill and when to use it.",
    "Brief description of what this skill does.",
    "'TODO'",
    "'{{description}}'",
    "Repl\u200bace with a description of the skill.",  # an invisible character hides nothing
])
def test_a_template_placeholder_left_as_the_description(description):
    _, fs = check(skill_text(description=description))
    f = next(f for f in fs if f.code == "DESCRIPTION_PLACEHOLDER")
    assert f.severity is W and "placeholder" in f.message and "when to use it" in f.message


@pytest.mark.parametrize("description", [
    "Creates Todoist tasks from meeting notes. Use when the user asks to capture action items.",
    "Moves cards through Todo, In Progress and Done. Use when a task changes state.",
    "Describes database schemas as diagrams. Use when asked to document a schema.",
    "Replaces deprecated API calls with their successors. Use when upgrading the SDK.",
])
def test_real_descriptions_with_template_words_are_not_placeholders(description):
    assert codes_of(skill_text(description=description), "DESCRIPTION_PLACEHOLDER") == []


@covers("DESCRIPTION_STUB")
@pytest.mark.parametrize("description", ["Spreadsheet utilities.", "PDF tools", "Helpers", "Git helper scripts"])
def test_a_topic_instead_of_a_description(description):
    _, fs = check(skill_text(description=description))
    f = next(f for f in fs if f.code == "DESCRIPTION_STUB")
    assert f.severity is W and "Use when" in f.message


@pytest.mark.parametrize("description", [
    "Git Worktree Manager", "'**Git Worktree Manager**'", "'Skill: git-worktree-manager'", "git worktree manager skill",
])
def test_a_description_that_only_says_the_name_again(description):
    text = skill_text(name="git-worktree-manager", description=description)
    _, fs = check(text, folder="git-worktree-manager")
    assert [f.severity for f in fs if f.code == "DESCRIPTION_STUB"] == [W]


@pytest.mark.parametrize("name, description", [
    ("git-worktree-manager", "Manages git worktrees."),
    ("git-worktree-manager", "Git worktree manager for parallel branches."),
    ("instagram-cli", "Instagram CLI helper for posting"),
])
def test_a_description_saying_more_than_the_name_is_no_restatement(name, description):
    _, fs = check(skill_text(name=name, description=description), folder=name)
    assert "DESCRIPTION_STUB" not in [f.code for f in fs]


@pytest.mark.parametrize("description", [
    "Send an email.",  # short, but it says what the skill does
    "Read and write Google Docs.",
    "Use for spreadsheet utilities.",  # a trigger
    "表計算のユーティリティ。",  # CJK packs a sentence into few characters
    "d",  # a test stub of one letter
    "Formats Markdown tables so columns line up. Use when a table is ragged.",
])
def test_short_descriptions_that_say_what_they_do_are_not_stubs(description):
    assert codes_of(skill_text(description=description), "DESCRIPTION_STUB") == []


# --------------------------------------------------------------------- allowed-tools entries that are no tool

@covers("NOT_A_TOOL")
def test_an_allowed_tools_entry_that_is_no_tool():
    doc, fs = check(skill_text(extra="allowed-tools: Read Shell Grep"))
    f = next(f for f in fs if f.code == "NOT_A_TOOL")
    assert doc.text[f.start:f.end] == "Shell" and f.severity is W
    assert "Bash" in f.message and f.data == {"tool": "Shell", "meant": "Bash in Claude Code, shell in Copilot CLI"}


@pytest.mark.parametrize("tools", ["Read Grep Bash(git log:*)", "mcp__github__search Read", "WebFetch WebSearch",
                                   "Skill(deploy) Read", "NewToolFromTomorrow"])
def test_real_tools_and_unknown_names_are_not_flagged(tools):
    assert codes_of(skill_text(extra=f"allowed-tools: {tools}"), "NOT_A_TOOL") == []


# --------------------------------------------------------------------- context: fork with no task

GUIDELINES = "\n# API conventions\n\n- Use camelCase for JSON fields.\n- Return 404 for a missing resource.\n"


@covers("FORK_WITHOUT_TASK")
@pytest.mark.parametrize("profile", ["skill-tool", "claude-code"])
def test_a_forked_skill_of_guidelines_has_no_task(profile):
    doc, fs = check(skill_text(extra="context: fork", body=GUIDELINES), profile=profile)
    f = next(f for f in fs if f.code == "FORK_WITHOUT_TASK")
    assert doc.text[f.start:f.end] == "fork" and f.severity is W and "Remove 'context: fork'" in f.message


@pytest.mark.parametrize("body", [
    "\n# Review\n\n1. Read the diff.\n2. List the risks.\n",
    "\n## Steps\n\n- Read the diff\n- Report\n",
    "\nReview $ARGUMENTS against the conventions below.\n",
    "\n## Workflow\n\nRead, then write.\n",
    "\nChanged files: !`git diff --name-only`\n",
    # In Chinese, and numbered headings (unseen16 lazygophers/ccplugin: two wrong warnings).
    "\n## 后台执行段 (worker 执行)\n\n扫描全部会话记录。\n",
    "\n### 1. 定工作目录\n\n先读详情。\n\n### 2. 定位现状\n\n再改。\n",
])
def test_a_forked_skill_with_a_task_is_fine(body):
    assert codes_of(skill_text(extra="context: fork", body=body), "FORK_WITHOUT_TASK") == []


def test_a_forked_skill_using_its_named_arguments_has_a_task():
    body = "\nClose subtask $sid of task $tid.\n"
    assert codes_of(skill_text(extra="context: fork\narguments: [tid, sid]", body=body), "FORK_WITHOUT_TASK",
                    "claude-code") == []
    assert codes_of(skill_text(extra="context: fork\narguments: [tid, sid]", body="\nBe careful.\n"),
                    "FORK_WITHOUT_TASK", "claude-code") == ["FORK_WITHOUT_TASK"]


@pytest.mark.parametrize("profile", ["agentskills", "dsh", "codex"])
def test_fork_without_task_is_off_where_context_means_nothing(profile):
    assert codes_of(skill_text(extra="context: fork", body=GUIDELINES), "FORK_WITHOUT_TASK", profile) == []


def test_guidelines_without_fork_are_fine():
    assert codes_of(skill_text(body=GUIDELINES), "FORK_WITHOUT_TASK") == []


# --------------------------------------------------------------------- lone $1, local scripts in ! commands

def test_a_lone_positional_argument_without_a_hint():
    _, fs = check(skill_text(body="\nDeploy the service named $1 to staging.\n"), profile="claude-code")
    assert [f.code for f in fs] == ["ARGUMENTS_WITHOUT_HINT"]
    assert check(skill_text(body="\nDeploy $1.\n", extra="argument-hint: '[service]'"), profile="claude-code")[1] == []
    assert codes_of(skill_text(body="\nThe plan costs $1 a day.\n"), "ARGUMENTS_WITHOUT_HINT", "claude-code") == []


@pytest.mark.parametrize("command, why", [
    ("./scripts/deploy.sh", "relative to the session's working folder"),
    ("bash scripts/setup.sh", "relative to the session's working folder"),
    ("${CLAUDE_SKILL_DIR}/scripts/publish.py", "named for a side effect"),
])
def test_a_dynamic_command_that_runs_a_local_script(command, why):
    _, fs = check(skill_text(body=f"\nStatus: !`{command}`\n"))
    f = next(f for f in fs if f.code == "RISKY_DYNAMIC_COMMAND")
    assert why in f.message


@pytest.mark.parametrize("command", ["git status --short", "${CLAUDE_SKILL_DIR}/scripts/summary.sh",
                                     "cat ${CLAUDE_SKILL_DIR}/references/api.md", "date"])
def test_dynamic_commands_that_read_state_are_not_risky(command):
    assert codes_of(skill_text(body=f"\nStatus: !`{command}`\n"), "RISKY_DYNAMIC_COMMAND") == []


# --------------------------------------------------------------------- files the body names that do not exist

@covers("MISSING_SCRIPT")
def test_a_fenced_command_runs_a_script_that_does_not_exist(tmp_path):
    body = "\n```bash\npython scripts/analyze.py data.csv\n./scripts/report.sh\n```\n"
    doc, fs = on_disk(tmp_path, skill_text(body=body), {"scripts/report.sh": "#!/bin/sh\n"})
    missing = [f for f in fs if f.code == "MISSING_SCRIPT"]
    assert [doc.text[f.start:f.end] for f in missing] == ["scripts/analyze.py"]
    assert missing[0].severity is W and "fails" in missing[0].message


def test_a_script_run_through_the_skill_folder_written_out_is_checked(tmp_path):
    # Unseen13 kouko/monkey-skills: the setup script the block runs is not bundled; the bare
    # `./scripts/x.sh` beside it is the project's.
    body = ("\n```bash\ncommand -v uv || sh ${CLAUDE_SKILL_DIR}/scripts/setup.sh\n./scripts/validate.sh\n"
            "uv run ${CLAUDE_SKILL_DIR}/scripts/ta.py\n```\n")
    doc, fs = on_disk(tmp_path, skill_text(body=body), {"scripts/ta.py": "x\n"})
    assert [doc.text[f.start:f.end] for f in fs if f.code == "MISSING_SCRIPT"] == ["scripts/setup.sh"]


def test_a_script_of_a_sibling_skill_is_named(tmp_path):
    (tmp_path / "charts" / "scripts").mkdir(parents=True)
    (tmp_path / "charts" / "scripts" / "plot.py").write_text("print(1)\n")
    body = "\n```bash\npython scripts/plot.py\n```\n"
    _, fs = on_disk(tmp_path, skill_text(body=body), {"scripts/other.py": "x"})
    assert "sibling skill 'charts'" in next(f for f in fs if f.code == "MISSING_SCRIPT").message


@pytest.mark.parametrize("body, files", [
    ("\n```bash\npython scripts/analyze.py\n```\n", {"scripts/analyze.py": "x"}),  # there
    ("\n```bash\nnode scripts/migrate.js\n```\n", {}),  # the user's project script: no scripts/ bundled
    ("\n```python\n# scripts/analyze.py\nprint(1)\n```\n", {"scripts/x.py": "x"}),  # a caption of a sample
    ("\n```bash\npython ${CLAUDE_PLUGIN_ROOT}/scripts/analyze.py\n```\n", {"scripts/x.py": "x"}),
    ("\n```\nmy-skill/\n├── scripts/analyze.py\n```\n", {"scripts/x.py": "x"}),  # a folder tree
    # The block runs the skill's own script through its folder; the bare one is the project's
    # (unseen15 eworthing/agent-skills: "Use project-local validators").
    ("\n```bash\nbash <skill-path>/scripts/x.sh docs\n./scripts/validate.sh\n```\n", {"scripts/x.sh": "x"}),
    # The paragraph above gives the block to the user's repository (unseen19 ruicore/codex-skills).
    ("\nPrefer the repository's existing scripts. In ai-signal-radar,\nrun:\n\n```bash\npython scripts/update_indexes.py\n```\n",
     {"scripts/validate.py": "x"}),
    ("\nIn your project, run:\n```bash\npython scripts/update_indexes.py\n```\n", {"scripts/validate.py": "x"}),
])
def test_commands_that_are_fine(tmp_path, body, files):
    _, fs = on_disk(tmp_path, skill_text(body=body), files)
    assert [f.code for f in fs if f.code in ("MISSING_SCRIPT", "MISSING_MENTIONED_FILE")] == []


def test_a_script_of_the_plugin_above_the_skill_is_found(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "build.sh").write_text("#!/bin/sh\n")
    body = "\n```bash\nbash scripts/build.sh\n```\n"
    _, fs = on_disk(tmp_path / "skills", skill_text(body=body), {"scripts/x.sh": "x"})
    assert [f.code for f in fs if f.code == "MISSING_SCRIPT"] == []


def test_prose_that_sends_the_model_to_missing_references(tmp_path):
    body = ("\nFor the schema, read references/schema.md before you query.\n"
            "Style rules are in `references/style.md`.\n")
    doc, fs = on_disk(tmp_path, skill_text(body=body), {"references/style.md": "x"})
    missing = [f for f in fs if f.code == "MISSING_MENTIONED_FILE"]
    assert [doc.text[f.start:f.end] for f in missing] == ["references/schema.md"]


@pytest.mark.parametrize("body", [
    "\nCreate references/notes.md with what you learned.\n",  # the model makes it
    "\nSave the chart to assets/chart.png.\n",
    "\nFor example, `references/your-topic.md`.\n",
    "\nDon't point at references/old.md any more.\n",  # a counter-example
    "\nSee the other skill's `references/shared.md`.\n",
    "\nSee [the guide](references/guide.md).\n",  # a link: BROKEN_LINK's
])
def test_paths_that_need_not_exist(tmp_path, body):
    _, fs = on_disk(tmp_path, skill_text(body=body), {"assets/logo.png": "x"})
    assert [f.code for f in fs if f.code == "MISSING_MENTIONED_FILE"] == []


def test_skills_about_writing_skills_name_example_files(tmp_path):
    text = skill_text(name="skill-writer", description="Helps create new skills. Use when authoring a skill.",
                      body="\nPut long material in references/api.md and load it on demand.\n")
    _, fs = on_disk(tmp_path, text, folder="skill-writer")
    assert [f.code for f in fs if f.code == "MISSING_MENTIONED_FILE"] == []


# --------------------------------------------------------------------- reference chains

@covers("NESTED_REFERENCE")
def test_a_reference_reached_only_through_another(tmp_path):
    body = "\nRead `references/index.md` first.\n"
    files = {"references/index.md": "See [details](details.md).\n", "references/details.md": "x\n"}
    doc, fs = on_disk(tmp_path, skill_text(body=body), files, profile="agentskills")
    f = next(f for f in fs if f.code == "NESTED_REFERENCE")
    assert f.severity is H and f.data == {"path": "references/index.md", "nested": "references/details.md"}
    # Anthropic's best practices: only the agentskills profile reports it (unseen audits: chains by design).
    _, fs = on_disk(tmp_path / "default", skill_text(body=body), files)
    assert [f.code for f in fs if f.code == "NESTED_REFERENCE"] == []


def test_pages_reached_through_an_index_are_by_design(tmp_path):
    # A file that is mostly links to pages: SKILL.md cannot name each (unseen generated API references).
    pages = "# Repos\n\n" + "".join(f"- [op {i}](ops/op{i}.md)\n" for i in range(3))
    files = {"references/repos.md": pages, **{f"references/ops/op{i}.md": "x\n" for i in range(3)}}
    _, fs = on_disk(tmp_path, skill_text(body="\nRead `references/repos.md` first.\n"), files, profile="agentskills")
    assert [f.code for f in fs if f.code == "NESTED_REFERENCE"] == []
    # A page that names three others among its prose is no index.
    files["references/repos.md"] = pages + "".join(f"Prose line {i}.\n" for i in range(4))
    _, fs = on_disk(tmp_path / "prose", skill_text(body="\nRead `references/repos.md` first.\n"), files,
                    profile="agentskills")
    assert [f.data["nested"] for f in fs if f.code == "NESTED_REFERENCE"] == ["references/ops/op0.md"]


def test_references_all_named_from_skill_md_are_one_level(tmp_path):
    body = "\nRead `references/index.md`, then `references/details.md`.\n"
    files = {"references/index.md": "See [details](details.md).\n", "references/details.md": "x\n"}
    _, fs = on_disk(tmp_path, skill_text(body=body), files)
    assert [f.code for f in fs if f.code == "NESTED_REFERENCE"] == []


# --------------------------------------------------------------------- description overlap

SAME = "Reviews pull requests for security problems and risky changes. Use when asked to review a PR."


def _workspace(tmp_path: Path, skills: dict[str, str]):
    root = tmp_path / ".agents/skills"
    for name, description in skills.items():
        write_skill(root, name, skill_text(name, description=description))
    settings = Settings()
    results = [check_file(loc.path, settings, loc) for loc in scan_roots([str(root)], settings.sensitive_patterns)]
    link_skills(results, settings)
    return results, settings


@covers("DESCRIPTION_OVERLAP")
def test_two_skills_a_model_cannot_tell_apart(tmp_path):
    results, _ = _workspace(tmp_path, {
        "pr-review": SAME,
        "review-pr": SAME.replace("risky changes", "risky code changes"),  # one word more
        "deploy": "Deploys the app to staging. Use when the user asks to ship a build.",
    })
    by = {r.name: [f for f in r.cross if f.code == "DESCRIPTION_OVERLAP"] for r in results}
    assert [len(by[n]) for n in ("pr-review", "review-pr", "deploy")] == [1, 1, 0]
    f = by["pr-review"][0]
    assert "'review-pr'" in f.message and f.severity is W
    assert [r.path for r in f.related] == [str(tmp_path / ".agents/skills/review-pr/SKILL.md")]


@pytest.mark.parametrize("a, b", [
    ("Deploys the service to staging and checks its health. Use when asked to ship.",
     "Deploys the service to production and checks its health. Use when asked to ship."),  # two words differ
    ("Automate Zendesk tasks via the helpdesk API. Always search tools first for current schemas.",
     "Automate Intercom tasks via the helpdesk API. Always search tools first for current schemas."),
    ("Short one.", "Short one."),  # too short to judge
])
def test_descriptions_a_model_can_tell_apart(tmp_path, a, b):
    results, _ = _workspace(tmp_path, {"zendesk": a, "intercom": b})
    assert [f.code for r in results for f in r.cross if f.code == "DESCRIPTION_OVERLAP"] == []


def test_copies_of_one_skill_are_not_overlaps(tmp_path):
    for root in (".claude/skills", ".agents/skills"):
        write_skill(tmp_path / root, "pr-review", skill_text("pr-review", description=SAME))
    settings = Settings()
    locs = scan_roots([str(tmp_path / ".claude/skills"), str(tmp_path / ".agents/skills")], settings.sensitive_patterns)
    results = [check_file(loc.path, settings, loc) for loc in locs]
    link_skills(results, settings)
    assert [f.code for r in results for f in r.cross if f.code == "DESCRIPTION_OVERLAP"] == []


def test_overlap_follows_edits_incrementally(tmp_path):
    results, settings = _workspace(tmp_path, {"pr-review": SAME, "review-pr": SAME, "deploy": "Deploys. " * 9})
    index = SkillIndex(settings)
    index.rebuild(results)
    by = {r.name: r for r in results}
    assert any(f.code == "DESCRIPTION_OVERLAP" for f in by["review-pr"].cross)
    # review-pr gets its own description: both findings go, and pr-review is reported as touched.
    p = by["review-pr"].path
    Path(p).write_text(skill_text("review-pr", description="Summarises a PR for release notes. Use when writing notes."))
    touched = index.put(check_file(p, settings, by["review-pr"].location))
    assert by["pr-review"].path in touched
    assert not any(f.code == "DESCRIPTION_OVERLAP" for r in index.results.values() for f in r.cross)
    # Back again: both reported; then removing one clears the other.
    Path(p).write_text(skill_text("review-pr", description=SAME))
    index.put(check_file(p, settings, by["review-pr"].location))
    assert sum(f.code == "DESCRIPTION_OVERLAP" for r in index.results.values() for f in r.cross) == 2
    assert index.remove(p) == {by["pr-review"].path}
    assert not any(f.code == "DESCRIPTION_OVERLAP" for r in index.results.values() for f in r.cross)


def test_the_overlap_index_compares_only_candidates_sharing_a_rare_word():
    idx = OverlapIndex()
    for i in range(50):
        idx.add(f"/s{i}", f"s{i}", f"Handles topic{i} records and writes a summary report for the team each week.")
    assert idx.overlaps == {}  # each differs in its own topic word
    idx.add("/dup", "dup", "Handles topic7 records and writes a summary report for the team each week.")
    assert idx.of("/dup") == ["/s7"] and idx.of("/s7") == ["/dup"]


def test_the_overlap_index_answers_as_comparing_every_pair():
    """Random adds, replacements and removals of descriptions drawn from a few templates (many the
    same text, kept as a class; others a word apart, kept as pairs), names that repeat and three
    roots: ``of``, ``head`` and ``overlapping`` after each step equal a comparison of every pair."""
    from skill_lsp.engine.overlap import _comparable, _Entry, similar  # noqa: PLC0415

    r = random.Random(2612)
    base = "Handles billing records and writes a summary report for the finance team"
    texts = [base, base + " weekly", base + " monthly", "Short text", base.replace("billing", "payroll"),
             "Scaffolded skill, describe what it does here please and when to use it"]
    for _ in range(40):
        idx = OverlapIndex()
        live: dict[str, tuple[str, str, str | None]] = {}
        for _step in range(r.randrange(5, 40)):
            path = f"/s{r.randrange(25)}"
            if path in live and r.random() < 0.25:
                idx.remove(path)
                del live[path]
            else:
                live[path] = (f"n{r.randrange(12)}", r.choice(texts), r.choice((None, "a", "b")))
                idx.add(path, *live[path])
            entries = {p: _Entry(*v) for p, v in live.items()}
            want = {p: sorted(o for o in live if o != p and _comparable(e, entries[o]) and similar(e, entries[o]))
                    for p, e in entries.items()}
            assert {p: idx.of(p) for p in live} == want
            assert idx.overlapping() == sorted(p for p, others in want.items() if others)
            k = r.randrange(1, 4)
            assert {p: idx.head(p, k) for p in live} == {p: (others[:k], len(others)) for p, others in want.items()}


def test_one_letter_words_count_as_words_but_not_as_content():
    from skill_lsp.engine.overlap import _Entry  # noqa: PLC0415

    for text in ("Handles billing x records 7 and writes a summary report", "Handles billing ü records é and writes"
                 " a summary report", "Handles billing records and writes a summary report"):
        e = _Entry("n", text)
        assert e.content == {"handles", "billing", "records", "writes", "summary", "report"}, text
        assert e.words == len(text.split())


def test_the_overlap_index_keeps_shared_keys_and_empties_on_removal():
    # Three descriptions whose word sets are one word apart share "less one word" keys: each bucket
    # holds every skill that needs it, whatever the order of adding and removing.
    base = "Handles billing records and writes a summary report for the finance team"
    texts = {"/a": base, "/b": base + " weekly", "/c": base + " monthly", "/d": base + " weekly"}
    idx = OverlapIndex()
    for path, text in texts.items():
        idx.add(path, path[1:], text)
    assert idx.of("/a") == ["/b", "/c", "/d"] and idx.of("/b") == ["/a", "/d"]
    idx.remove("/a")
    assert idx.of("/b") == ["/d"] and idx.of("/c") == []
    idx.add("/a", "a", base)
    assert idx.of("/c") == ["/a"]
    for path in ("/d", "/b", "/c", "/a"):
        idx.remove(path)
    assert (idx.entries, idx.overlaps, dict(idx._whole), idx._less, idx._same, idx._tally, idx._ordered) == ({}, {}, {}, {}, {}, {}, {})


# --------------------------------------------------------------------- precision fixes from the tune half

def test_backslash_paths_in_powershell_and_counter_examples_are_left_alone():
    body = ("\n```powershell\nImport-Module .\\scripts\\tools.psm1\n```\n\n"
            "Run `Import-Module .\\scripts\\other.psm1` on Windows.\n\n"
            "✗ Avoid: scripts\\helper.py\n\n✓ Use: scripts/helper.py\n")
    assert codes_of(skill_text(body=body), "BACKSLASH_PATH") == []
    assert codes_of(skill_text(body="\nRun scripts\\helper.py next.\n"), "BACKSLASH_PATH") == ["BACKSLASH_PATH"]


def test_a_diagram_naming_a_script_is_no_run(tmp_path):
    p = write_skill(tmp_path, "demo", skill_text(body="\n```\n┌────────┐\nscripts/run.py ──> out\n```\n"))
    (p.parent / "scripts").mkdir()
    (p.parent / "scripts" / "run.py").write_text("print(1)\n")
    r = check_file(str(p), Settings())
    assert [f.code for f in r.findings if f.code.startswith("SCRIPT_")] == []


@pytest.mark.parametrize("key", ["sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCD",
                                 "sk-proj-REPLACE_WITH_A_REAL_KEY_0000000000000000",
                                 "ghp_1234567890abcdefghijklmnopqrstuvwxyz12"])
def test_placeholder_keys_are_no_secret(key):
    assert codes_of(skill_text(body=f"\nexport KEY={key}\n"), "SECRET") == []


def test_a_real_looking_key_is_still_a_secret():
    assert codes_of(skill_text(body="\nKEY=sk-ant-api03-Zq8Lr2Wm9Xk4Tv7Np3Hs6Jd1Fb5Gc0Ye8Ua2Ri\n"), "SECRET") == ["SECRET"]


def _mentions(tmp_path: Path, body: str, extra_files: dict[str, str] | None = None):
    root = tmp_path / "plugin" / "skills"
    write_skill(root, "deploy", skill_text("deploy"))
    write_skill(root, "caller", skill_text("caller", body=body))
    for rel, content in (extra_files or {}).items():
        (tmp_path / "plugin" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "plugin" / rel).write_text(content)
    settings = Settings()
    results = [check_file(loc.path, settings, loc) for loc in scan_roots([str(root)], settings.sensitive_patterns)]
    link_mentions(results, settings)
    return [f for r in results for f in r.graph]


def test_unknown_skill_is_a_hint_and_skips_commands_routes_and_builtins(tmp_path):
    assert [f.severity for f in _mentions(tmp_path, "\nRun `/deplyo` now.\n")] == [H]
    # `/help` is Claude Code's; `/deploys` a command of the plugin; `/deply` an HTTP route.
    body = "\nType `/help`. Run `/deploys`. Call GET `/deply` for status.\n"
    assert _mentions(tmp_path, body, {"commands/deploys.md": "x\n"}) == []


def test_a_plugin_skill_and_a_project_copy_do_not_shadow_each_other(tmp_path):
    (tmp_path / ".claude-plugin").mkdir()
    for root in (".claude/skills", "skills"):
        write_skill(tmp_path / root, "review", skill_text("review"))
    settings = Settings()
    locs = scan_roots([str(tmp_path / ".claude/skills"), str(tmp_path / "skills")], settings.sensitive_patterns)
    results = [check_file(loc.path, settings, loc) for loc in locs]
    link_skills(results, settings)
    assert [f.code for r in results for f in r.cross] == []
    (tmp_path / ".claude-plugin").rmdir()  # no plugin: the project copy wins, the other is shadowed
    link_skills(results, settings)
    assert [f.code for r in results for f in r.cross] == ["SHADOWED"]


def test_glob_links_and_installed_files_are_not_missing(tmp_path):
    # Issue 26 (test half): a glob link hands the model a pattern; "Installed scripts" are the project's.
    body = ("\nTopics: [references/setup/*.md](references/setup/*.md).\n\nInstalled scripts include:\n"
            "- `scripts/xcbuild.sh`\n\nSee [references/gone.md](references/gone.md).\n")
    _, fs = on_disk(tmp_path, skill_text(body=body), {"references/setup/a.md": "x", "scripts/install.sh": "x"})
    assert [(f.code, f.data.get("path") if f.data else None) for f in fs
            if f.code in ("BROKEN_LINK", "MISSING_MENTIONED_FILE")] == [("BROKEN_LINK", "references/gone.md")]


def test_a_page_named_skill_md_without_frontmatter_is_no_skill(tmp_path):
    from skill_lsp.engine.discover import discover  # noqa: PLC0415

    (tmp_path / ".wiki" / "wiki").mkdir(parents=True)
    (tmp_path / ".wiki" / "wiki" / "skill.md").write_text("---\nconcept: skill\n---\n# What a skill is\n")
    (tmp_path / "notes" / "x").mkdir(parents=True)
    (tmp_path / "notes" / "x" / "skill.md").write_text("---\nname: x\ndescription: Does x. Use when asked.\n---\n")
    inv = discover(str(tmp_path), Settings())
    assert [loc.path for loc in inv.loose] == [str(tmp_path / "notes" / "x" / "skill.md")]


def test_a_bare_mention_is_a_hint_and_a_copy_table_is_not_the_skills(tmp_path):
    body = ("\n- `references/schema.md` - table definitions\n\n"
            "| from | to |\n|---|---|\n| `core/scripts/check.sh` | `scripts/check.sh` |\n")
    _, fs = on_disk(tmp_path, skill_text(body=body), {"scripts/other.sh": "x"})
    assert [(f.data["path"], f.severity) for f in fs if f.code == "MISSING_MENTIONED_FILE"] == [
        ("references/schema.md", H)]


def test_copies_for_two_harnesses_under_two_names_are_not_overlaps(tmp_path):
    write_skill(tmp_path / ".claude/skills", "conventions", skill_text("conventions", description=SAME))
    write_skill(tmp_path / ".agents/skills", "repo-conventions", skill_text("repo-conventions", description=SAME))
    settings = Settings()
    locs = scan_roots([str(tmp_path / ".claude/skills"), str(tmp_path / ".agents/skills")], settings.sensitive_patterns)
    results = [check_file(loc.path, settings, loc) for loc in locs]
    link_skills(results, settings)
    assert [f.code for r in results for f in r.cross] == []


def test_agents_is_not_a_misspelling_of_agent():
    assert codes_of(skill_text(extra="agents:\n  - claude-code"), "UNKNOWN_FIELD", "claude-code") == []


def _checked_by_folder(top) -> dict:
    """Every skill a search of ``top`` finds, checked where it was found, by its folder's name."""
    from skill_lsp.commands.targets import collect  # noqa: PLC0415

    t = collect([str(top)], None, None)
    results = [check_file(loc.path, t.settings, loc) for loc in t.locations + t.loose]
    return {os.path.basename(os.path.dirname(r.path)): r for r in results}


def test_skills_in_a_test_folder_outside_the_roots_are_test_data(tmp_path):
    write_skill(tmp_path / "tests" / "golden", "html_multi", skill_text("golden-html-multi"))
    write_skill(tmp_path / ".claude" / "skills", "real", skill_text("real-skill"))
    by = _checked_by_folder(tmp_path)
    assert [(f.code, f.severity) for f in by["html_multi"].findings] == [("NAME_MISMATCH", Severity.INFO)]
    assert [(f.code, f.severity) for f in by["real"].findings] == [("NAME_MISMATCH", Severity.WARNING)]


def test_skills_in_an_archive_folder_outside_the_roots_are_retired_copies(tmp_path):
    """Unseen ptreezh/sscisubagent-skills (archive/skills_copy/) and nathanvale/claude-code-config
    (skills/archive/): old copies nobody installs. A skill called `archive` is a skill."""
    write_skill(tmp_path / "archive" / "skills_copy", "old", skill_text("old-name"))
    write_skill(tmp_path / "skills" / "Archived", "older", skill_text("older-name"))
    write_skill(tmp_path / "skills", "archive", skill_text("archive-tool"))
    by = _checked_by_folder(tmp_path)
    for folder in ("old", "older"):
        (f,) = by[folder].findings
        assert (f.code, f.severity) == ("NAME_MISMATCH", Severity.INFO)
        assert f.message.endswith("; the file is under an archive folder and no root holds it, so it is reported as "
                                  "a retired copy")
    assert [(f.code, f.severity) for f in by["archive"].findings] == [("NAME_MISMATCH", Severity.ERROR)]


def test_skills_in_a_template_folder_outside_the_roots_are_templates(tmp_path):
    """Unseen20 Presto-io/Presto-Agent-Skills (templates/skill/, `name: "<skill-name>"`) and unseen17's
    submissions `_template`: a skeleton copied and renamed before use. In a root it is a skill."""
    write_skill(tmp_path / "templates", "skill", skill_text("x-skill"))
    write_skill(tmp_path / "submissions", "_template", skill_text("my-skill"))
    write_skill(tmp_path / ".claude" / "skills", "template", skill_text("template-skill"))
    by = _checked_by_folder(tmp_path)
    for folder in ("skill", "_template"):
        (f,) = by[folder].findings
        assert (f.code, f.severity) == ("NAME_MISMATCH", Severity.INFO)
        assert f.message.endswith("in a template folder and no root holds it, so it is reported as a template")
    assert [f.severity for f in by["template"].findings if f.code == "NAME_MISMATCH"] != [Severity.INFO]


def test_skills_among_another_skills_examples_are_examples(tmp_path):
    """A SKILL.md in a skill's examples/ (or templates/, assets/, references/, evals/) folder is what
    the skill makes or fills (unseen huashu-nuwa/examples/*/SKILL.md); one below an examples/ folder
    that is no skill's is a skill."""
    write_skill(tmp_path / "maker", "maker", skill_text("maker"))
    write_skill(tmp_path / "maker" / "maker" / "examples", "sample", skill_text("not-sample"))
    write_skill(tmp_path / "examples", "demo", skill_text("not-demo"))
    by = _checked_by_folder(tmp_path)
    (example,) = by["sample"].findings
    assert (example.code, example.severity) == ("NAME_MISMATCH", Severity.INFO)
    assert example.message.endswith("the file is in the folder of the skill 'maker', among its examples, and no "
                                    "root holds it, so it is reported as an example")
    assert [(f.code, f.severity) for f in by["demo"].findings] == [("NAME_MISMATCH", Severity.ERROR)]


def test_a_skill_file_without_frontmatter_under_a_test_folder_is_test_data_not_a_fragment(tmp_path):
    """Unseen19 mackysoft/agent-skills: `tests/Fixtures/SkillBundle/generated/x/SKILL.md` (no skills/
    folder above) was called a fragment; under a test folder it is test data. Outside one it stays a
    fragment."""
    for folder in (tmp_path / "tests" / "Fixtures" / "generated" / "x", tmp_path / "drafts" / "y"):
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"# {folder.name}\n\nBody.\n", encoding="utf-8")
    by = _checked_by_folder(tmp_path)
    (fixture,) = by["x"].findings
    assert (fixture.code, fixture.severity) == ("MISSING_FRONTMATTER", Severity.INFO)
    assert fixture.message.endswith("under a test folder and no root holds it, so it is reported as test data")
    (fragment,) = by["y"].findings
    assert fragment.message.endswith("so it may be a fragment rather than a skill")


def test_a_workspace_inside_a_folder_named_test_is_not_test_data(tmp_path):
    from skill_lsp.commands.targets import collect  # noqa: PLC0415

    ws = tmp_path / "test" / "repo"
    write_skill(ws / "plugin", "x", skill_text("not-x"))
    t = collect([str(ws)], None, None)
    (r,) = [check_file(loc.path, t.settings, loc) for loc in t.locations + t.loose]
    assert [(f.code, f.severity) for f in r.findings] == [("NAME_MISMATCH", Severity.ERROR)]


def test_a_path_the_line_gives_to_a_named_sibling_skill(tmp_path):
    (tmp_path / "api" / "references").mkdir(parents=True)
    (tmp_path / "api" / "references" / "files.md").write_text("x\n")
    body = "\nSee the `api` skill's guide, `api` `references/files.md`, for retention.\n"
    _, fs = on_disk(tmp_path, skill_text(body=body), {"references/events.md": "x"})
    assert [f.code for f in fs if f.code == "MISSING_MENTIONED_FILE"] == []


# Unseen choplin/my-agent-skills, kouko/monkey-skills, HsinPu/Autoverse-Ai-Agent-Skills: the sentence
# names the skill that owns the file a line or two above the path (14 wrong warnings of 17 sampled).
@pytest.mark.parametrize("body", [
    "Load the `demo-base` skill. Read its\n`references/forces.md` before choosing.\n",
    "- see `demo-base` skill\n  (`references/forces.md`)\n",
    "After the worktree is ready, apply `other-kit`'s\n`references/forces.md`. Then go on.\n",
    "- **TypeScript**: 見 `demo-base` Skill 內的 `references/forces.md`\n",
])
def test_a_path_whose_sentence_names_the_skill_owning_it(tmp_path, body):
    (tmp_path / "demo-base" / "references").mkdir(parents=True)
    (tmp_path / "demo-base" / "references" / "forces.md").write_text("x\n")
    _, fs = on_disk(tmp_path, skill_text(body="\n" + body), {"references/events.md": "x"})
    assert [f.code for f in fs if f.code == "MISSING_MENTIONED_FILE"] == []


@pytest.mark.parametrize("body", [
    # The skill named is this one, or the owner is named in another list item or paragraph.
    "Load the `demo` skill. Read its\n`references/forces.md` before choosing.\n",
    "- see `demo-base` skill for the model\n- read `references/forces.md`\n",
    "Use the `demo-base` skill.\n\nRead `references/forces.md` before choosing.\n",
])
def test_a_missing_path_whose_sentence_names_no_other_owner(tmp_path, body):
    _, fs = on_disk(tmp_path, skill_text(body="\n" + body), {"references/events.md": "x"})
    assert [f.code for f in fs if f.code == "MISSING_MENTIONED_FILE"] == ["MISSING_MENTIONED_FILE"]


def test_the_readers_own_file_in_a_guide_is_no_missing_file(tmp_path):
    body = "\nRun `shellcheck scripts/my-hook.sh` and read `scripts/your_setup.sh` first.\n"
    _, fs = on_disk(tmp_path, skill_text(body=body), {"scripts/lint.sh": "#!/bin/sh\n"})
    assert [f.code for f in fs if f.code in ("MISSING_MENTIONED_FILE", "MISSING_SCRIPT")] == []


def test_a_description_index_filled_as_results_come_gives_the_same_findings(tmp_path):
    skills = {"pr-review": SAME, "review-pr": SAME, "triage-pr": SAME.replace("risky changes", "risky code changes"),
              "deploy": "Deploys the app to staging. Use when the user asks to ship a build."}
    results, settings = _workspace(tmp_path, skills)
    want = {r.path: sorted((f.code, f.message) for f in r.cross) for r in results}
    fresh = [check_file(r.path, settings, r.location) for r in results]
    early = OverlapIndex()
    early.add("/gone/SKILL.md", "gone", SAME)  # a result the scan dropped later: not in the index
    for r in reversed(fresh[1:]):  # in another order, and one result left for rebuild to add
        index_description(early, r)
    index = SkillIndex(settings)
    index.rebuild(fresh, overlap=early)
    assert {r.path: sorted((f.code, f.message) for f in r.cross) for r in fresh} == want
    assert index.overlap is early and "/gone/SKILL.md" not in early.entries
    assert sum(f.code == "DESCRIPTION_OVERLAP" for r in fresh for f in r.cross) == 3


def test_placement_matters_wherever_placed_changes_a_finding(tmp_path):
    """The open buffer's shortcut (``placement_matters``) may only skip the location where
    ``placed`` would change nothing: test data, an example, a fragment, and a skill in a root."""
    from skill_lsp.commands.targets import collect  # noqa: PLC0415
    from skill_lsp.engine.workspace import placed, placement_matters  # noqa: PLC0415

    write_skill(tmp_path / "tests" / "fixtures", "fix", skill_text("not-fix"))
    write_skill(tmp_path / "maker", "maker", skill_text("maker"))
    write_skill(tmp_path / "maker" / "maker" / "examples", "sample", skill_text("not-sample"))
    write_skill(tmp_path / "docs" / "flavors", "frag", "# Fragment\n")
    write_skill(tmp_path / ".claude" / "skills", "real", skill_text("not-real"))
    write_skill(tmp_path / ".claude" / "skills", "fine", skill_text("fine"))
    write_skill(tmp_path / ".devin" / "skills", "native", "# Devin reads this whole\n")
    write_skill(tmp_path / ".devin" / "skills", "tools", skill_text("tools", extra="allowed-tools:\n  - read"))
    t = collect([str(tmp_path)], None, None)
    changed = {}
    for loc in t.locations + t.loose:
        r = check_file(loc.path, t.settings, None)  # unplaced, as an open buffer's check_text gives them
        changed[os.path.basename(loc.dir)] = placed(r.findings, loc.path, loc) != r.findings
        if changed[os.path.basename(loc.dir)]:
            assert placement_matters(r.findings, loc.path), loc.path
    assert changed == {"fix": True, "sample": True, "frag": True, "real": False, "fine": False, "maker": False,
                       "native": True, "tools": False}
    assert not placement_matters(check_file(str(tmp_path / ".claude/skills/real/SKILL.md"), t.settings).findings,
                                 str(tmp_path / ".claude/skills/real/SKILL.md"))


def _codes_by_place(top, code: str | None = None) -> dict[str, list[str]]:
    """The codes (``code`` only, when given) of each skill under ``top``, by its path relative to it,
    as `check` places and grades them."""
    from skill_lsp.commands.targets import collect  # noqa: PLC0415

    t = collect([str(top)], None, None)
    return {os.path.relpath(loc.path, top): sorted(f.code for f in check_file(loc.path, t.settings, loc).findings
                                                   if code is None or f.code == code)
            for loc in t.locations + t.loose}


def test_a_devin_skill_is_graded_by_devins_documented_format(tmp_path):
    """`.devin/skills/<name>/SKILL.md`: Devin CLI documents the frontmatter as optional and its tools
    as lowercase names; no modelled harness reads that root. Elsewhere both findings stay."""
    for root in (".devin/skills", "docs/.devin/skills", ".windsurf/skills"):
        write_skill(tmp_path / root, "plain", "# Plain\n\nDo the thing.\n")
        write_skill(tmp_path / root, "review", skill_text("review", extra="allowed-tools:\n  - read\n  - grep"))
    got = _codes_by_place(tmp_path)
    for root in (".devin/skills", "docs/.devin/skills"):
        assert got[f"{root}/plain/SKILL.md"] == [] and "UNKNOWN_TOOL" not in got[f"{root}/review/SKILL.md"]
    assert got[".windsurf/skills/plain/SKILL.md"] == ["MISSING_FRONTMATTER"]
    assert got[".windsurf/skills/review/SKILL.md"].count("UNKNOWN_TOOL") == 2


def test_a_skill_written_for_devin_keeps_its_tool_names_outside_claude_codes_roots(tmp_path):
    """Devin CLI's `triggers: [user, model]` marks a skill written for it (unseen newkub/devin-skills,
    744 skills at the top of the repository): its tools `read`, `grep` are Devin's, not near misses
    of Claude Code's. In Claude Code's root the hint stays: that harness reads them as its own."""
    devin = skill_text("review", extra="triggers: ['user', 'model']\nallowed-tools: ['read', 'grep']")
    plain = skill_text("review", extra="allowed-tools: ['read', 'grep']")
    write_skill(tmp_path / "skills", "review", devin)
    write_skill(tmp_path / "other", "review", plain)
    write_skill(tmp_path / ".claude" / "skills", "review", devin)
    got = _codes_by_place(tmp_path, "UNKNOWN_TOOL")
    assert got["skills/review/SKILL.md"] == []
    assert got["other/review/SKILL.md"] == ["UNKNOWN_TOOL"] * 2
    assert got[".claude/skills/review/SKILL.md"] == ["UNKNOWN_TOOL"] * 2


def test_a_claude_code_plugin_skill_has_no_deferred_claude_code_fields(tmp_path):
    """Claude Code lists a plugin's skills as it lists project skills (probe: capture diff --probe
    plugin) and reads `effort` and `agent`: the skill tool's DEFERRED_FIELD is noise there (unseen
    newkayak12/claude-skills: 35). Without `.claude-plugin/` beside `skills/` it stays; an open
    buffer of the plugin's skill is checked as the file."""
    text = skill_text("ship", extra="effort: max\nagent: Explore")
    write_skill(tmp_path / "kit" / "skills", "ship", text)
    (tmp_path / "kit" / ".claude-plugin").mkdir()
    write_skill(tmp_path / "loose" / "skills", "ship", text)
    got = _codes_by_place(tmp_path, "DEFERRED_FIELD")
    assert got["kit/skills/ship/SKILL.md"] == []
    assert got["loose/skills/ship/SKILL.md"] == ["DEFERRED_FIELD"] * 2
    _, buffer = check_text(text, str(tmp_path / "kit" / "skills" / "ship" / "SKILL.md"), Settings())
    assert [f.code for f in buffer if f.code == "DEFERRED_FIELD"] == []
