"""Files the skill points at (rules/files.py): backslash and personal paths, nesting depth,
mentioned files that are missing, scripts run directly, and bundled files nothing names --
code, severity per target, exact range, message and data, and silence (issue 15)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from helpers import check, rng, skill_text, write_skill
from skill_lsp.engine.config import Settings
from skill_lsp.engine.findings import Severity, base_message
from skill_lsp.engine.rules.context import IS_FILE, listings_kept, observe
from skill_lsp.engine.workspace import check_file

W, INFO, H = Severity.WARNING, Severity.INFO, Severity.HINT


def skill(body: str) -> str:
    return skill_text(name="deploy", description="Deploys the app. Use when asked.", body=body)


def found(body: str, code: str, profile: str = "claude-code"):
    doc, fs = check(skill(body), folder="deploy", profile=profile)
    return doc, [f for f in fs if f.code == code]


def on_disk(tmp_path: Path, body: str, files: dict[str, str] | None = None, *, profile: str = "claude-code",
            modes: dict[str, int] | None = None, code: str | None = None, check_links: bool = True):
    p = write_skill(tmp_path, "deploy", skill(body))
    for rel, content in (files or {}).items():
        f = p.parent / rel
        if rel.endswith("/"):
            f.mkdir(parents=True, exist_ok=True)
            continue
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content)
        os.chmod(f, (modes or {}).get(rel, 0o644))
    r = check_file(str(p), Settings(profile=profile, check_links=check_links))
    fs = r.findings if code is None else [f for f in r.findings if f.code == code]
    return r.doc, fs


def span(doc, f) -> str:
    return doc.text[f.start:f.end]


# --------------------------------------------------------------------- backslash paths


def test_backslash_paths_get_the_forward_slash_form():
    doc, fs = found("\nRun .\\scripts\\lint.py and references\\a\\b.md. Not x\\scripts\\y or scripts\\.\n",
                    "BACKSLASH_PATH")
    assert [(span(doc, f), f.data) for f in fs] == [
        (".\\scripts\\lint.py", {"replacement": "./scripts/lint.py"}),
        ("references\\a\\b.md", {"replacement": "references/a/b.md"})]
    assert rng(doc, fs[0]) == ((4, 4), (4, 21))
    assert base_message(fs[0]) == ("'.\\scripts\\lint.py' uses backslashes; write './scripts/lint.py' (harnesses on macOS "
                                   "and Linux read '\\' as part of the file name)")
    assert all(f.severity is W for f in fs)


@pytest.mark.parametrize("folder", ["scripts", "references", "reference", "assets", "templates", "examples"])
def test_each_resource_folder_name(folder):
    doc, [f] = found(f"\nOpen {folder}\\a.md now.\n", "BACKSLASH_PATH")
    assert span(doc, f) == f"{folder}\\a.md"


def test_backslash_paths_into_every_folder_at_once():
    names = ["scripts", "references", "reference", "assets", "templates", "examples"]
    doc, fs = found("\n" + " ".join(f"{n}\\a.md" for n in names) + "\n", "BACKSLASH_PATH")
    assert [span(doc, f) for f in fs] == [f"{n}\\a.md" for n in names]


@pytest.mark.parametrize("body", ["\nA \\ alone and scripts/x.py.\n", "\nC:\\tools\\bin\\x.exe\n",
                                  "\nEscaped \\\\scripts\\\\x\n",
                                  # A Windows program or a virtual environment's Scripts folder on the line
                                  "\nRun: `.venv\\Scripts\\python.exe scripts\\utils\\batch.py .tmp\\images.json`\n",
                                  "\nRun tool.exe scripts\\x.py\n",
                                  "\nRun `venv\\Scripts\\activate; python scripts\\x.py`\n"])
def test_no_backslash_path(body):
    assert found(body, "BACKSLASH_PATH")[1] == []


# --------------------------------------------------------------------- personal paths


def test_home_folders_of_real_people_are_info():
    body = ("\nSee C:\\Users\\terry\\x and /home/mallory/x and /Users/Dev/x and /home/ab and "
            "https://h.com/Users/bob/x, x/home/joe/y, -v ~/.aws:/home/app/.aws, /home/user/q.\n")
    doc, fs = found(body, "PERSONAL_PATH")
    assert [(span(doc, f), f.data) for f in fs] == [("C:\\Users\\terry", {"path": "C:\\Users\\terry"}),
                                                    ("/home/mallory", {"path": "/home/mallory"})]
    assert all(f.severity is INFO for f in fs)
    assert base_message(fs[1]) == ("'/home/mallory' is one person's home folder; it does not exist where the skill is "
                                   "installed (use a path relative to the skill or ~)")
    assert rng(doc, fs[0]) == ((4, 4), (4, 18))


def test_a_personal_path_at_the_start_of_the_body():
    doc, [f] = found("/Users/terry/notes.md\n", "PERSONAL_PATH")
    assert rng(doc, f) == ((4, 0), (4, 12))


def test_the_same_home_folder_twice_is_reported_twice():
    doc, fs = found("\n/home/terry/a and /home/terry/b\n", "PERSONAL_PATH")
    assert [rng(doc, f) for f in fs] == [((4, 0), (4, 11)), ((4, 18), (4, 29))]


def test_every_one_of_three_home_folders_is_reported():
    doc, fs = found("\n/home/terry/a, /home/mallory/b and /home/oscar/c\n", "PERSONAL_PATH")
    assert [span(doc, f) for f in fs] == ["/home/terry", "/home/mallory", "/home/oscar"]


def test_a_windows_home_folder_at_the_start_of_the_body_needs_its_drive():
    assert found(":\\Users\\terry\\x\n", "PERSONAL_PATH")[1] == []


# --------------------------------------------------------------------- depth


def test_paths_two_folders_deep_into_a_resource_folder_are_hints_under_agentskills():
    body = ("\nSee `references/a/b/c.md` and [x](./references/a/b.md#s) and [y](scripts/x/y.sh) and "
            "[z](assets/a.png) and [w](references/a/b.md) and [v](references/a/b.md).\n")
    doc, fs = found(body, "REFERENCE_TOO_DEEP", profile="agentskills")
    assert [(span(doc, f), f.data) for f in fs] == [
        ("references/a/b/c.md", {"path": "references/a/b/c.md"}),
        ("./references/a/b.md#s", {"path": "./references/a/b.md"}),
        ("scripts/x/y.sh", {"path": "scripts/x/y.sh"}),
        ("references/a/b.md", {"path": "references/a/b.md"})]
    assert base_message(fs[0]) == ("'references/a/b/c.md' is 3 folders below SKILL.md; the agentskills spec keeps "
                                   "references one level deep so the model finds them")
    assert "is 2 folders below" in fs[1].message
    assert all(f.severity is H for f in fs)


@pytest.mark.parametrize("body, path", [("\n[y](scripts/x/y.sh)\n", "scripts/x/y.sh"),
                                        ("\n[z](assets/icons/a.png)\n", "assets/icons/a.png")])
def test_a_deep_path_into_one_resource_folder_alone(body, path):
    _, fs = found(body, "REFERENCE_TOO_DEEP", profile="agentskills")
    assert [f.data for f in fs] == [{"path": path}]


def test_a_deep_reference_definition_is_a_hint():
    doc, [f] = found("\nSee [db].\n\n[db]: <references/db/schema.md>\n", "REFERENCE_TOO_DEEP", profile="agentskills")
    assert rng(doc, f) == ((6, 7), (6, 30))


@pytest.mark.parametrize("body", [
    "\nSee [x](https://h/references/a/b.md) and [y](../references/a/b.md).\n",
    "\nSee [t](templates/a/b.md) and `examples/a/b.md` and [r](references/a.md).\n",
    "\n```\n[x](references/a/b.md)\n`references/a/b/c.md`\n```\n",
    "\nSee references/a/b.md in prose.\n",
])
def test_no_depth_hint(body):
    assert found(body, "REFERENCE_TOO_DEEP", profile="agentskills")[1] == []


@pytest.mark.parametrize("profile", ["skill-tool", "claude-code", "dsh", "codex"])
def test_depth_is_an_agentskills_hint_only(profile):
    assert found("\n[x](references/a/b.md)\n", "REFERENCE_TOO_DEEP", profile=profile)[1] == []


# --------------------------------------------------------------------- mentioned files


def test_a_mentioned_file_missing_from_a_bundled_folder(tmp_path: Path):
    body = ("\nRun `scripts/extract.py`, `./scripts/missing.py`, `${CLAUDE_SKILL_DIR}/scripts/gone.sh` and "
            "`scripts/sub/../extract.py`; see `assets/logo.png`.\n")
    doc, fs = on_disk(tmp_path, body, {"scripts/extract.py": "print(1)\n"}, code="MISSING_MENTIONED_FILE")
    assert [(span(doc, f), f.data) for f in fs] == [("scripts/missing.py", {"path": "scripts/missing.py"}),
                                                    ("scripts/gone.sh", {"path": "scripts/gone.sh"})]
    assert base_message(fs[0]) == ("the body sends the model to 'scripts/missing.py', which is not in the skill folder "
                                   "(nor in a folder above it); add the file or fix the path")
    # A warning wherever the skill is used (issue 26): the model is sent to a file that is not there.
    assert all(f.severity is W for f in fs)


def test_a_file_offered_in_another_form_that_is_there_is_not_missing(tmp_path: Path):
    # "read x.json or x.md" (unseen onescience-ai/OneSkills): the model finds the .md.
    body = "\n- Read `./assets/meta.json` or `./assets/meta.md` first.\n- Read `./assets/data.json`.\n"
    doc, fs = on_disk(tmp_path, body, {"assets/meta.md": "x", "assets/other.md": "x"}, code="MISSING_MENTIONED_FILE")
    assert [span(doc, f) for f in fs] == ["assets/data.json"]


def test_a_file_of_the_skill_a_command_names_is_not_missing(tmp_path: Path):
    body = "\nConsult `/core:bees`'s `references/catalog.md` for the list.\nSee `references/mine.md`.\n"
    doc, fs = on_disk(tmp_path, body, {"references/other.md": "x"}, code="MISSING_MENTIONED_FILE")
    assert [span(doc, f) for f in fs] == ["references/mine.md"]


def test_a_file_of_a_plugins_skill_named_before_it_is_not_missing(tmp_path: Path):
    # Unseen14 galaykos/cc-marketplace: "a row in / `orchestration:delegation-contracts`
    # `references/role-floors.md`", the file of that plugin's skill, hard-wrapped onto the next line.
    body = ("\n`spec-adversary` carries a row in\n`orchestration:delegation-contracts` `references/role-floors.md`, "
            "so dispatch it.\n\nSee `references/mine.md` and `a:b`, `references/too.md`.\n")
    doc, fs = on_disk(tmp_path, body, {"references/other.md": "x"}, code="MISSING_MENTIONED_FILE")
    assert [span(doc, f) for f in fs] == ["references/mine.md", "references/too.md"]


def test_a_file_a_plugins_skill_owns_by_its_is_not_missing(tmp_path: Path):
    # Unseen20 laurigates/claude-plugins: "see `agent-patterns-plugin:parallel-agent-dispatch` §
    # Concurrent rate-limit risk⏎and its `references/failure-recovery.md`".
    body = ("\nFor the recovery routine, see\n`agent-patterns-plugin:parallel-agent-dispatch` § Concurrent rate-limit "
            "risk\nand its `references/failure-recovery.md` section.\n\nSee `references/mine.md`: its limits.\n")
    doc, fs = on_disk(tmp_path, body, {"references/other.md": "x"}, code="MISSING_MENTIONED_FILE")
    assert [span(doc, f) for f in fs] == ["references/mine.md"]


def test_a_file_of_a_skill_named_as_one_is_not_missing(tmp_path: Path):
    # Unseen15 eworthing/agent-skills: a table cell and a list item name another skill, not in the
    # repository, and its files (in the item's next lines); the names end in `-skill`.
    body = ("\n| Need | Skill |\n|---|---|\n| Glass | `swiftui-expert-skill` (`references/liquid-glass.md`) |\n\n"
            "## Related\n\n- `swiftui-expert-skill` (community) — the API surface\n"
            "  (`references/latest-apis.md`, `references/macos-scenes.md`)\n- `swift-concurrency` (community)\n\n"
            "See `references/mine.md` and `swift-tools` (`references/too.md`).\n")
    doc, fs = on_disk(tmp_path, body, {"references/other.md": "x"}, code="MISSING_MENTIONED_FILE")
    assert [span(doc, f) for f in fs] == ["references/mine.md", "references/too.md"]


def test_a_name_standing_for_any_file_is_not_missing(tmp_path: Path):
    # Unseen15 TestAny-io: "读取 Prompt: references/prompts/0X-xxx.md" beside 01-…, 02-… files.
    body = "\n1. Read the prompt: references/prompts/0X-xxx.md\n2. Read references/prompts/09-editor.md\n"
    doc, fs = on_disk(tmp_path, body, {"references/prompts/01-scout.md": "x"}, code="MISSING_MENTIONED_FILE")
    assert [span(doc, f) for f in fs] == ["references/prompts/09-editor.md"]


def test_mentioned_files_are_not_checked_with_link_checks_off(tmp_path: Path):
    assert on_disk(tmp_path, "\nRun `scripts/missing.py`.\n", {"scripts/extract.py": "x"}, check_links=False,
                   code="MISSING_MENTIONED_FILE")[1] == []


@pytest.mark.parametrize("profile", ["skill-tool", "dsh"])
def test_mentioned_files_are_checked_for_every_target(tmp_path: Path, profile):
    assert [f.code for f in on_disk(tmp_path, "\nRun `scripts/missing.py`.\n", {"scripts/extract.py": "x"},
                                    profile=profile, code="MISSING_MENTIONED_FILE")[1]] == ["MISSING_MENTIONED_FILE"]


def test_an_unsaved_buffer_has_no_folder_to_check():
    assert found("\nRun `scripts/missing.py`.\n", "MISSING_MENTIONED_FILE")[1] == []


# --------------------------------------------------------------------- scripts run directly


def test_scripts_run_directly_need_a_shebang_and_the_execute_bit(tmp_path: Path):
    body = ("\n```bash\n./scripts/deploy.sh staging\n$ scripts/check.sh\n${CLAUDE_SKILL_DIR}/scripts/ok.sh\n"
            "python scripts/report.py\nscripts/deploy.sh again\n```\n\nOr run `{baseDir}/scripts/lint.sh`.\n")
    files = {"scripts/deploy.sh": "echo deploy\n", "scripts/check.sh": "#!/bin/sh\necho ok\n",
             "scripts/ok.sh": "#!/bin/sh\n", "scripts/report.py": "print(1)\n", "scripts/lint.sh": "echo lint\n"}
    modes = {"scripts/deploy.sh": 0o755, "scripts/check.sh": 0o644, "scripts/ok.sh": 0o755,
             "scripts/lint.sh": 0o755}
    doc, fs = on_disk(tmp_path, body, files, modes=modes)
    got = [(f.code, span(doc, f), f.data, f.severity) for f in fs if f.code.startswith("SCRIPT_")]
    # A code block runs a script (docs/rules.md); inline code in prose only names it.
    assert got == [("SCRIPT_NO_SHEBANG", "scripts/deploy.sh", {"path": "scripts/deploy.sh"}, W),
                   ("SCRIPT_NOT_EXECUTABLE", "scripts/check.sh", {"path": "scripts/check.sh"}, H)]
    assert base_message(fs[[f.code for f in fs].index("SCRIPT_NO_SHEBANG")]) == (
        "the body runs 'scripts/deploy.sh' directly but it has no '#!' line; the shell cannot tell which interpreter "
        "to use (add e.g. #!/usr/bin/env python3 or run it through its interpreter)")
    assert base_message(fs[[f.code for f in fs].index("SCRIPT_NOT_EXECUTABLE")]) == (
        "the body runs 'scripts/check.sh' directly but it is not executable; run chmod +x scripts/check.sh "
        "(and commit the mode)")
    assert rng(doc, [f for f in fs if f.code == "SCRIPT_NO_SHEBANG"][0]) == ((5, 2), (5, 19))


def test_a_byte_order_mark_before_the_shebang_is_named(tmp_path: Path):
    files = {"scripts/bom.sh": "\ufeff#!/bin/bash\necho x\n", "scripts/bom-only.sh": "\ufeffecho x\n"}
    modes = {"scripts/bom.sh": 0o755, "scripts/bom-only.sh": 0o755}
    doc, fs = on_disk(tmp_path, "\n```\nscripts/bom.sh\nscripts/bom-only.sh\n```\n", files, modes=modes)
    got = [(f.code, f.data) for f in fs if f.code.startswith("SCRIPT_")]
    assert got == [("SCRIPT_NO_SHEBANG", {"path": "scripts/bom.sh", "bom": True}),
                   ("SCRIPT_NO_SHEBANG", {"path": "scripts/bom-only.sh"})]
    assert "its '#!' line comes after a UTF-8 byte order mark" in base_message(fs[0])


def test_a_one_byte_script_has_no_shebang(tmp_path: Path):
    doc, fs = on_disk(tmp_path, "\n```\nscripts/x.sh\n```\n", {"scripts/x.sh": "#"}, modes={"scripts/x.sh": 0o755})
    assert [f.code for f in fs if f.code.startswith("SCRIPT_")] == ["SCRIPT_NO_SHEBANG"]


@pytest.mark.parametrize("body", [
    "\nRun scripts/x.sh in prose.\n",  # not code
    "\n```\nbash scripts/x.sh\n```\n",  # through an interpreter
    "\n```\nscripts/x.shell\n```\n",  # another name
    "\n```\nscripts/missing.sh\n```\n",  # nothing there
    "\n```\nscripts/dir\n```\n",  # a folder
    "\nRun `python scripts/x.sh`.\n",
    "\nRun `scripts/x.sh` first.\nscripts/x.sh again, in prose.\n",  # a prose line after inline code
])
def test_scripts_not_run_directly_or_not_there(tmp_path: Path, body):
    files = {"scripts/x.sh": "echo x\n", "scripts/dir/": ""}
    _, fs = on_disk(tmp_path, body, files, modes={"scripts/x.sh": 0o755})
    assert [f.code for f in fs if f.code.startswith("SCRIPT_")] == []


def test_a_script_that_cannot_be_opened_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # A socket where the script should be: it exists and is no folder, but open() fails (for root too).
    body = "\n```\nscripts/x.sh\nscripts/y.sh\n```\n"
    p = write_skill(tmp_path, "deploy", skill(body))
    (p.parent / "scripts").mkdir()
    (p.parent / "scripts" / "y.sh").write_text("echo y\n")
    with socket.socket(socket.AF_UNIX) as sock:
        monkeypatch.chdir(p.parent / "scripts")  # a short socket path: AF_UNIX paths are limited to ~100 bytes
        sock.bind("x.sh")
        r = check_file(str(p), Settings(profile="claude-code"))
    assert [(f.code, f.data) for f in r.findings if f.code.startswith("SCRIPT_")] == [
        ("SCRIPT_NO_SHEBANG", {"path": "scripts/y.sh"})]


def test_script_rules_need_a_bundled_scripts_folder():
    assert [f for f in found("\n```\nscripts/x.sh\n```\n", "SCRIPT_NO_SHEBANG")[1]] == []


# --------------------------------------------------------------------- bundled files nothing names


def test_bundled_files_nothing_names_are_hints_on_the_opening_fence(tmp_path: Path):
    body = "\nRun `scripts/extract.py`. Style: see the `glossary` file.\n"
    files = {"scripts/extract.py": "x", "scripts/helper.py": "x", "references/glossary.md": "see style.md\n",
             "references/style.md": "x", "assets/logo.png": "x", "assets/.hidden": "x", "scripts/cache.pyc": "x",
             "assets/icons/": ""}
    doc, fs = on_disk(tmp_path, body, files, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "scripts/helper.py"}, {"path": "assets/logo.png"}]
    assert base_message(fs[0]) == ("'scripts/helper.py' is never mentioned in SKILL.md, a file it names or an index "
                                   "in references/; the model only opens files the body points it to")
    assert all(rng(doc, f) == ((0, 0), (0, 3)) and f.severity is H for f in fs)


def test_a_file_a_named_file_names_is_reached(tmp_path: Path):
    # Unseen kouko/monkey-skills: SKILL.md sends the model to `protocols/d1.md`, which names a
    # reference; oaustegard/claude-skills: the script the body runs imports its helper.
    body = "\nFollow `protocols/d1.md`, then run `scripts/featuremap.py`.\n"
    files = {"protocols/d1.md": "Ground it in references/grounding.md.\n", "references/grounding.md": "x",
             "scripts/featuremap.py": "from staleness import check\n", "scripts/staleness.py": "x",
             "scripts/unused.py": "x", "references/alone.md": "x"}
    _, fs = on_disk(tmp_path, body, files, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "scripts/unused.py"}, {"path": "references/alone.md"}]


def test_a_file_a_page_beside_skill_md_names_is_reached(tmp_path: Path):
    # Held-out unseen23 copies of a PDF skill: "read forms.md", whose text names the form scripts;
    # unseen22 arkhe: a script run as ${CLAUDE_SKILL_DIR}/scripts/x.py imports its helper.
    body = "\nTo fill a form, read forms.md. Run `python3 ${CLAUDE_SKILL_DIR}/scripts/scan.py`.\n"
    files = {"forms.md": "Run scripts/fill_fields.py.\n", "scripts/fill_fields.py": "x",
             "scripts/scan.py": "from link_checker import check\n", "scripts/link_checker.py": "x",
             "scripts/unused.py": "x"}
    _, fs = on_disk(tmp_path, body, files, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "scripts/unused.py"}]


@pytest.mark.parametrize("body", [
    "\nSee logo.png.\n",  # the name
    "\nSee assets/logo.png.\n",  # the path
    "\nThe logo file.\n",  # the stem, four letters or more
    "\nEverything in `assets/` is yours.\n",  # the folder itself
])
def test_ways_a_body_names_a_bundled_file(tmp_path: Path, body):
    assert on_disk(tmp_path, body, {"assets/logo.png": "x"}, code="UNREFERENCED_FILE")[1] == []


@pytest.mark.parametrize("body", [
    "\nSee assets/icons/ and myassets/ and assets/-x and assets/.x\n",  # other folders and files
    "\nA log file.\n",  # 'log' is no stem of logo
    "\nSee x_assets/ and assets/a.\n",
])
def test_near_misses_leave_a_bundled_file_unnamed(tmp_path: Path, body):
    _, fs = on_disk(tmp_path, body, {"assets/logo.png": "x"}, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "assets/logo.png"}]


def test_a_short_stem_is_not_enough(tmp_path: Path):
    _, fs = on_disk(tmp_path, "\nUse the run tool.\n", {"scripts/run.sh": "x"}, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "scripts/run.sh"}]


@pytest.mark.parametrize("text, anchor", [
    ("# Deploy\n\nRun it.\n", (0, 8)),  # no frontmatter: the first line
    ("\n# Deploy\n", (0, 1)),  # an empty first line: one character, never an empty range
])
def test_a_skill_without_frontmatter_anchors_on_its_first_line(tmp_path: Path, text: str, anchor: tuple[int, int]):
    p = write_skill(tmp_path, "deploy", text)
    (p.parent / "assets").mkdir()
    (p.parent / "assets" / "logo.png").write_text("x")
    r = check_file(str(p), Settings(profile="claude-code"))
    [f] = [f for f in r.findings if f.code == "UNREFERENCED_FILE"]
    assert (f.start, f.end) == anchor


@pytest.mark.parametrize("profile", ["skill-tool", "dsh", "codex"])
def test_unreferenced_files_are_off_where_no_target_reads_them(tmp_path: Path, profile):
    assert on_disk(tmp_path, "\nNothing.\n", {"assets/logo.png": "x"}, profile=profile,
                   code="UNREFERENCED_FILE")[1] == []


def test_a_scripts_tests_are_never_unreferenced(tmp_path: Path):
    """Unseen17 FunnyQ/cc-plugins: `scripts/x.test.ts` beside each script it runs (76 hints)."""
    files = {"scripts/run.ts": "x", "scripts/run.test.ts": "x", "scripts/lint.spec.js": "x", "scripts/test_io.py": "x",
             "scripts/io_test.go": "x", "scripts/conftest.py": "x", "scripts/helper.ts": "x", "scripts/latest.py": "x"}
    fs = on_disk(tmp_path, "\nRun `bun scripts/run.ts`.\n", files, code="UNREFERENCED_FILE")[1]
    assert sorted(f.data["path"] for f in fs) == ["scripts/helper.ts", "scripts/latest.py"]


def test_a_script_folders_package_manifests_are_never_unreferenced(tmp_path: Path):
    """Unseen19 newkayak12/claude-skills: `scripts/package.json` and its lock file beside the scripts a
    package manager installs for; the model never opens them. A data file of the same kind is reported."""
    files = {"scripts/package.json": "{}", "scripts/package-lock.json": "{}", "scripts/requirements.txt": "x",
             "scripts/__init__.py": "", "scripts/run.js": "x", "assets/config.json": "{}"}
    fs = on_disk(tmp_path, "\nRun `node scripts/run.js`.\n", files, code="UNREFERENCED_FILE")[1]
    assert sorted(f.data["path"] for f in fs) == ["assets/config.json"]


def test_only_the_resource_folders_are_listed(tmp_path: Path):
    assert on_disk(tmp_path, "\nNothing.\n", {"templates/a.md": "x", "examples/b.md": "x", "notes.md": "x"},
                   code="UNREFERENCED_FILE")[1] == []


# --------------------------------------------------------------------- edges of the scans above


def test_mentions_outside_a_code_block_count_when_the_body_has_one():
    body = "\nSee `references/a/b/c.md`.\n\n```\nmake\n```\n"
    doc, fs = found(body, "REFERENCE_TOO_DEEP", profile="agentskills")
    assert [span(doc, f) for f in fs] == ["references/a/b/c.md"]


def test_a_deep_link_with_two_anchors_and_one_embedding_a_url():
    body = "\n[m](references/mirror/https://x.y/spec.md) and [x](references/a/b.md#s#t)\n"
    doc, fs = found(body, "REFERENCE_TOO_DEEP", profile="agentskills")
    assert [f.data for f in fs] == [{"path": "references/a/b.md"}]


def _siblings(tmp_path: Path) -> Path:
    """deploy names two files it lacks; `guides` holds one of them, the other siblings neither."""
    p = write_skill(tmp_path, "deploy", skill("\nSee `references/guide.md` and `references/setup.md`.\n"))
    (p.parent / "references").mkdir()
    (tmp_path / "guides" / "references").mkdir(parents=True)
    (tmp_path / "guides" / "references" / "guide.md").write_text("x")
    (tmp_path / "empty" / "references").mkdir(parents=True)  # the folder, not the file
    (tmp_path / "scripts-only" / "scripts").mkdir(parents=True)
    (tmp_path / "notes.txt").write_text("a file beside the skills")
    return p


@pytest.mark.parametrize(("kept", "recorded"), [(False, True), (True, True), (True, False)])
def test_a_missing_file_a_sibling_skill_holds_is_said_to_be_there(tmp_path: Path, kept: bool, recorded: bool):
    p = _siblings(tmp_path)
    seen: dict = {}
    listings_kept(kept)  # as in a `check` run: each sibling listed once
    try:
        # Not recorded (no result cache): which siblings hold each name is found once for the run.
        r = check_file(str(p), Settings(profile="claude-code"), seen=seen if recorded else None)
    finally:
        listings_kept(False)
    fs = [f for f in r.findings if f.code == "MISSING_MENTIONED_FILE"]
    assert [(span(r.doc, f), f.severity) for f in fs] == [("references/guide.md", W), ("references/setup.md", W)]
    assert "it is in the sibling skill 'guides', which the model does not look in" in base_message(fs[0])
    assert "(nor in a folder above it)" in base_message(fs[1])
    if not recorded:
        return
    # Every lookup the result depends on is recorded as the disk answers it now: a kept result is
    # checked again against these (resultcache), listed siblings or not.
    assert all(observe(str(p.parent), key) == value for key, value in seen.items())
    assert (IS_FILE + "../scripts-only/references/setup.md" in seen) is not kept
    if kept:  # skipped by its listing: what the result depends on is the folder it lacks
        assert seen["../scripts-only/references"] is False
        (tmp_path / "scripts-only" / "references").mkdir()
        assert observe(str(p.parent), "../scripts-only/references") is True


def test_a_missing_file_in_a_missing_subfolder_of_a_bundled_folder(tmp_path: Path):
    doc, fs = on_disk(tmp_path, "\nRun `scripts/sub/missing.py`.\n", {"scripts/extract.py": "x"},
                      code="MISSING_MENTIONED_FILE")
    assert [f.data for f in fs] == [{"path": "scripts/sub/missing.py"}]


def test_script_runs_after_a_missing_script_or_a_folder_are_checked(tmp_path: Path):
    body = "\n```\nscripts/missing.sh\nscripts/dir\nscripts/x.sh\n```\n"
    _, fs = on_disk(tmp_path, body, {"scripts/x.sh": "echo x\n", "scripts/dir/": ""}, modes={"scripts/x.sh": 0o755})
    assert [(f.code, f.data) for f in fs if f.code.startswith("SCRIPT_")] == [
        ("SCRIPT_NO_SHEBANG", {"path": "scripts/x.sh"})]


def test_a_prose_line_after_a_code_block_is_not_a_script_run(tmp_path: Path):
    body = "\n```\nmake\n```\nscripts/x.sh is run by make.\n"
    _, fs = on_disk(tmp_path, body, {"scripts/x.sh": "echo x\n"}, modes={"scripts/x.sh": 0o755})
    assert [f.code for f in fs if f.code.startswith("SCRIPT_")] == []


@pytest.mark.parametrize("body", [
    "\nUse run.sh.\n",  # the name alone, its stem too short to count
    "\nEverything in `scripts/` is yours; see scripts/lib/ too.\n",  # the folder, then a path in it
    "\nscripts/lib/, scripts/ and scripts/bin/\n",  # the folder between two paths
])
def test_more_ways_a_body_names_a_bundled_file(tmp_path: Path, body):
    assert on_disk(tmp_path, body, {"scripts/run.sh": "x"}, code="UNREFERENCED_FILE")[1] == []


@pytest.mark.parametrize("body", [
    "\nAll in scripts/ here.\n",
    "\nThe last word is scripts/",  # at the very end of the text
])
def test_the_folder_named_in_prose(tmp_path: Path, body):
    assert on_disk(tmp_path, body, {"scripts/run.sh": "x"}, code="UNREFERENCED_FILE")[1] == []


def test_a_stem_is_the_name_without_its_last_extension(tmp_path: Path):
    _, fs = on_disk(tmp_path, "\nThe report archive.\n", {"assets/report.tar.gz": "x"}, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "assets/report.tar.gz"}]


@pytest.mark.parametrize("index", [
    "assets/ holds the images",  # the folder opens the index, which ends without a line break
    "See (assets/).\n",
])
def test_an_index_naming_the_folder_reaches_its_files(tmp_path: Path, index):
    _, fs = on_disk(tmp_path, "\nRead the index.\n", {"references/index.md": index, "assets/logo.png": "x"},
                    code="UNREFERENCED_FILE")
    assert fs == []


def test_an_absolute_path_in_an_index_is_not_the_folder(tmp_path: Path):
    _, fs = on_disk(tmp_path, "\nRead the index.\n", {"references/index.md": "/assets/ is served by the app\n",
                                                       "assets/logo.png": "x"}, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "assets/logo.png"}]


def test_only_markdown_files_in_references_are_indexes(tmp_path: Path):
    files = {"assets/notes.md": "logo.png\n", "references/list.txt": "logo.png\n", "assets/logo.png": "x"}
    _, fs = on_disk(tmp_path, "\nSee the notes and the list.\n", files, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "assets/logo.png"}]


def test_an_index_is_read_up_to_64_kib(tmp_path: Path):
    files = {"references/guide.md": "x" * (64 * 1024) + "\nlogo.png\n", "assets/logo.png": "x"}
    _, fs = on_disk(tmp_path, "\nRead the guide.\n", files, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "assets/logo.png"}]


def test_an_index_with_invalid_utf8_is_read(tmp_path: Path):
    p = write_skill(tmp_path, "deploy", skill("\nRead the guide.\n"))
    (p.parent / "references").mkdir()
    (p.parent / "references" / "guide.md").write_bytes(b"caf\xe9: logo.png\n")
    (p.parent / "assets").mkdir()
    (p.parent / "assets" / "logo.png").write_text("x")
    r = check_file(str(p), Settings(profile="claude-code"))
    assert [f for f in r.findings if f.code == "UNREFERENCED_FILE"] == []


def test_at_most_200_indexes_are_read(tmp_path: Path):
    # Held-out unseen22 ai-elements: 48 pages, each naming its example; the 21st page counts now.
    files = {f"references/idx{i:03}.md": "nothing\n" for i in range(200)}
    files["references/idx020.md"] = "logo.png\n"
    files["references/idx200.md"] = "icon.png\n"
    files["assets/logo.png"] = files["assets/icon.png"] = "x"
    body = "\nRead " + ", ".join(f"idx{i:03}" for i in range(201)) + ".\n"
    _, fs = on_disk(tmp_path, body, files, code="UNREFERENCED_FILE")
    assert [f.data for f in fs] == [{"path": "assets/icon.png"}]


def test_index_pages_are_read_up_to_two_mebibytes(tmp_path: Path):
    files = {f"references/big{i:02}.md": "x" * 60_000 + "\n" for i in range(40)}  # 2.4 MB before the last
    files["references/zz.md"] = "icon.png\n"
    files["assets/icon.png"] = "x"
    _, fs = on_disk(tmp_path, "\nRead the big pages.\n", files, code="UNREFERENCED_FILE")
    assert [f.data["path"] for f in fs if f.data["path"].startswith("assets/")] == ["assets/icon.png"]
    for i in range(34, 40):
        del files[f"references/big{i:02}.md"]
    _, fs = on_disk(tmp_path / "again", "\nRead the big pages.\n", files, code="UNREFERENCED_FILE")
    assert [f.data["path"] for f in fs if f.data["path"].startswith("assets/")] == []  # 2.04 MB before it: read


def test_at_most_500_files_of_a_folder_are_listed(tmp_path: Path):
    files = {f"assets/img{i:03}.png": "" for i in range(501)}
    _, fs = on_disk(tmp_path, "\nNothing named.\n", files, code="UNREFERENCED_FILE")
    assert len(fs) == 500


def test_compiled_python_is_not_a_bundled_file(tmp_path: Path):
    assert on_disk(tmp_path, "\nNothing named.\n", {"scripts/x.pyc": "", "scripts/y.pyo": ""},
                   code="UNREFERENCED_FILE")[1] == []


def test_the_anchor_is_the_opening_fence_after_a_byte_order_mark(tmp_path: Path):
    # An editor buffer keeps the BOM in its text (a file read from disk drops it).
    text = "\ufeff" + skill("\nNothing named.\n")
    p = write_skill(tmp_path, "deploy", text)
    (p.parent / "assets").mkdir()
    (p.parent / "assets" / "logo.png").write_text("x")
    doc, fs = check(text, path=str(p), on_disk=True, profile="claude-code")
    [f] = [f for f in fs if f.code == "UNREFERENCED_FILE"]
    assert (f.start, f.end) == (1, 4) and doc.text[f.start:f.end] == "---"


def test_named_dirs_is_every_folder_name_followed_by_a_slash():
    import random

    from skill_lsp.engine import document
    from skill_lsp.engine.rules.bodyscan import body_of
    from skill_lsp.engine.rules.files import _NAMED_DIRS, named_dirs

    r = random.Random(28)
    words = ["references", "reference", "scripts", "assets", "templates", "s", "/", "x", "script", "asset", " ",
             "references/", "./", "\\", "template"]
    for _ in range(3000):
        body = "".join(r.choice(words) for _ in range(r.randint(0, 8)))
        doc = document.parse(f"---\nname: x\ndescription: y\n---\n{body}", "")
        assert named_dirs(doc, body_of(doc)) == {d for d in _NAMED_DIRS if d + "/" in body_of(doc)}, body


def test_home_folder_candidates_are_every_marker_found():
    import random

    from skill_lsp.engine.rules.files import _home_starts

    r = random.Random(28)
    parts = ["/Users/", "/home/", ":\\Users\\", "C", "/", "Users", "home", "x", "\\"]
    for _ in range(5000):
        body = "".join(r.choice(parts) for _ in range(r.randint(0, 6)))
        want = set()
        for marker in ("/Users/", "/home/", ":\\Users\\"):
            at = body.find(marker)
            while at >= 0:
                start = at - 1 if marker[0] == ":" else at
                if start >= 0:
                    want.add(start)
                at = body.find(marker, at + 1)
        assert set(_home_starts(body)) == want, body
