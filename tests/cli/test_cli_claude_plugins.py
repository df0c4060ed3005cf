"""Claude Code plugins' skills against what the pinned release did with them.

tests/golden/probes/claude-code@<version>/ holds two probes of the release with a plugin loaded by
`--plugin-dir` (`python -m capture diff --probe plugin --write`, `--probe plugin-names --write`):
plugin-skills.json, the entry it lists for each of 14 plugin skills beside the same file as a
project skill; plugin-names.json, a plugin whose folder and manifest names differ beside project
skills, with its listing order and eight activations (by key, folder name and declared name). Here the same folders are laid out again and
`skill-lsp catalog` / `preview` must say what the release said.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers import REPO, run_cli, write_skill

PROBES = next((REPO / "tests/golden/probes").glob("claude-code@*"))
SKILLS = json.loads((PROBES / "plugin-skills.json").read_text(encoding="utf-8"))
NAMES = json.loads((PROBES / "plugin-names.json").read_text(encoding="utf-8"))


def _plugin(root: Path, manifest: dict | str | None, skills: dict[str, str]) -> None:
    (root / ".claude-plugin").mkdir(parents=True)
    if manifest is not None:
        text = manifest if isinstance(manifest, str) else json.dumps(manifest)
        (root / ".claude-plugin" / "plugin.json").write_text(text, encoding="utf-8")
    for folder, text in skills.items():
        (root / "skills" / folder).mkdir(parents=True)
        (root / "skills" / folder / "SKILL.md").write_text(text, encoding="utf-8")


def _catalog(ws: Path) -> list[str]:
    proc = run_cli("catalog", ".", "--dialect", "claude-code", cwd=ws)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split("\n")[2:]


def test_every_probed_plugin_skill_is_listed_or_left_out_as_the_release_did(tmp_path: Path):
    plugin = SKILLS["plugin"]
    _plugin(tmp_path / plugin, {"name": plugin, "version": "0.1.0"}, SKILLS["skills"])
    for folder, text in SKILLS["skills"].items():
        write_skill(tmp_path / ".claude/skills", f"p-{folder}", text.replace(f"name: {folder}\n", f"name: p-{folder}\n"))
    lines = _catalog(tmp_path)
    for folder, row in SKILLS["entries"].items():
        mine = [line for line in lines if line.startswith((f"- {plugin}:{folder}:", f"- {plugin}:{folder} ("))]
        assert mine == ([row["plugin"]] if row["plugin"] else []), folder
        assert row["project"] in lines, folder
    # Left out without a description: no field, an empty one, no frontmatter.
    assert {f for f, row in SKILLS["entries"].items() if row["plugin"] is None} == {
        "undescribed", "no-frontmatter", "empty-description"}


def _names_workspace(ws: Path) -> None:
    _plugin(ws / NAMES["plugin_folder"], {"name": NAMES["manifest_name"], "version": "0.1.0"}, NAMES["skills"])
    for folder in ("aa-first", "mm-middle", "zz-last", "nn-named"):
        name = "mm-declared" if folder == "nn-named" else folder
        write_skill(ws / ".claude/skills", folder,
                    f"---\nname: {name}\ndescription: A project skill. Use when probing.\n---\nBody.\n")


def test_the_manifest_names_the_plugin_and_its_skills_follow_the_projects(tmp_path: Path):
    """Declared names too: `kit:x` stays, `other:x` becomes `kit:other:x`, `kit:<folder>` is not shown."""
    _names_workspace(tmp_path)
    assert _catalog(tmp_path) == NAMES["entries"]


@pytest.mark.parametrize("row", [pytest.param(r, id=r["skill"]) for r in NAMES["activations"]])
def test_activations_send_what_the_release_sent(tmp_path: Path, row: dict):
    ws, home = tmp_path / "ws", tmp_path / "home"
    _names_workspace(ws)
    home.mkdir()
    env = {"HOME": str(home)}
    args = ["preview", row["skill"], "--dialect", "claude-code", "--workspace", ".", "--format", "json"]
    proc = run_cli(*args, *(["--arguments", row["arguments"]] if row["arguments"] else []), cwd=ws, env=env)
    got = json.loads(proc.stdout)
    if not row["tool_result"].startswith("Launching skill: "):
        assert got["kind"] != "ok"  # the folder's name as a prefix finds nothing
        assert got["text"] == row["tool_result"].removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")
        return
    # The session's folder is not the skill's to tell for a plugin (the preview leaves the variable
    # as written); the release ran in the workspace.
    want = row["text"].replace("<ws>", str(ws)).replace("<home>", str(home))
    want = want.replace(f"project=[{ws}]", "project=[${CLAUDE_PROJECT_DIR}]")
    assert got["text"] == want


@pytest.mark.parametrize(("manifest", "listed"), [
    (None, "folder-only:alpha"),  # no plugin.json: the plugin's folder names it
    ({"name": "a.b"}, "a.b:alpha"),
    ({"name": "Upper"}, "Upper:alpha"),
    ({"name": "x", "description": 5}, "x:alpha"),
    ({"version": "1.0.0"}, None),  # no name: the plugin does not load
    ({"name": ""}, None),
    ({"name": 5}, None),
    ({"name": "a b"}, None),
    ({"name": "a/b"}, None),
    ({"name": "a:b"}, None),
    ("not json", None),
    (["name"], None),
])
def test_what_plugin_json_must_give_for_the_plugin_to_load(tmp_path: Path, manifest, listed):
    # Probed on 2.1.332 with --plugin-dir (see capture/diff/FINDINGS.md).
    _plugin(tmp_path / "folder-only", manifest,
            {"alpha": "---\nname: alpha\ndescription: A. Use when probing.\n---\nBody\n"})
    write_skill(tmp_path / ".claude/skills", "proj", "---\nname: proj\ndescription: P.\n---\nBody\n")
    proc = run_cli("catalog", ".", "--dialect", "claude-code", "--format", "json", cwd=tmp_path)
    out = json.loads(proc.stdout)
    names = [e["name"] for e in out["entries"] if e["included"]]
    if listed is None:
        assert names == ["proj"]
        (skip,) = [s for s in out["skipped"] if s["path"].endswith("alpha/SKILL.md")] or [
            d for d in out["decisions"] if d["path"].endswith("alpha/SKILL.md")]
        assert "does not load the plugin" in json.dumps(skip)
    else:
        assert sorted(names) == sorted([listed, "proj"])  # entries come sorted by name, not in listing order
        assert f"- {listed}: A. Use when probing." in out["text"]


def test_other_harnesses_do_not_list_a_plugins_skills(tmp_path: Path):
    _names_workspace(tmp_path)
    write_skill(tmp_path / ".agents/skills", "shared", "---\nname: shared\ndescription: S.\n---\nBody\n")
    proc = run_cli("catalog", ".", "--dialect", "codex", "--format", "json", cwd=tmp_path)
    assert [e["name"] for e in json.loads(proc.stdout)["entries"]] == ["shared"]


def test_a_plugins_folder_name_alone_yields_to_project_and_built_in_skills(tmp_path: Path):
    # Probed on 2.1.332 (--plugin-dir, not stored: the built-in's text is the release's): `alpha`
    # activates the project's alpha beside kit:alpha, `security-review` the built-in beside
    # kit:security-review, and both plugin skills are listed.
    _plugin(tmp_path / "kit", {"name": "kit"}, {
        f: f"---\nname: {f}\ndescription: Mine {f}.\n---\nPlugin body\n" for f in ("alpha", "security-review", "solo")})
    write_skill(tmp_path / ".claude/skills", "alpha", "---\nname: alpha\ndescription: Project alpha.\n---\nProject body\n")
    lines = _catalog(tmp_path)
    assert lines == ["- alpha: Project alpha.", "- kit:alpha: Mine alpha.",
                     "- kit:security-review: Mine security-review.", "- kit:solo: Mine solo."]

    def preview(name: str) -> dict:
        proc = run_cli("preview", name, "--dialect", "claude-code", "--workspace", ".", "--format", "json", cwd=tmp_path)
        return json.loads(proc.stdout)

    assert preview("alpha")["text"].endswith("\n\nProject body\n")
    assert preview("kit:alpha")["text"].endswith("\n\nPlugin body\n")
    assert preview("solo")["text"].endswith("/kit/skills/solo\n\nPlugin body\n")
    assert "Plugin body" not in json.dumps(preview("security-review"))


def test_paths_spellings_and_a_plugins_skills_as_the_release_lists_them(tmp_path: Path):
    """tests/golden/probes/claude-code@<version>/paths.json (`capture diff --probe paths --write`):
    `**/**` names every file as `**` does, `**/*` and `./**` are patterns; a plugin's skill is
    listed whatever its `paths` says."""
    probe = json.loads((PROBES / "paths.json").read_text(encoding="utf-8"))
    for folder, value in probe["project"].items():
        write_skill(tmp_path / ".claude/skills", folder, f"---\nname: {folder}\ndescription: D {folder}.\npaths: {value}\n---\nB\n")
    _plugin(tmp_path / "kit", {"name": "kit"}, {
        folder: f"---\nname: {folder}\ndescription: D {folder}.\npaths: {value}\n---\nB\n"
        for folder, value in probe["plugin"].items()})
    listed = sorted(line[2:].split(": ")[0] for line in _catalog(tmp_path))
    assert listed == probe["listed"]


def test_plugin_json_commands_take_the_place_of_the_commands_folder(tmp_path: Path):
    # Unseen motlin/claude-code-plugins' java plugin and mwguerra/claude-code-plugins' reverb-specialist,
    # loaded by the release with --plugin-dir: of a command and a skill of one name the command is
    # listed; plugin.json's `commands` names the commands loaded, in its order, and a command of the
    # folder it leaves out lets the skill of its name be listed.
    _plugin(tmp_path / "java", {"name": "java", "commands": ["./commands/zed.md", "./commands/fix.md"]},
            {f: f"---\nname: {f}\ndescription: Skill {f}.\n---\nB\n" for f in ("fix", "left", "alpha")})
    (tmp_path / "java" / "commands").mkdir()
    for f in ("fix", "left", "zed"):
        (tmp_path / "java" / "commands" / f"{f}.md").write_text(f"---\ndescription: Command {f}.\n---\nB\n",
                                                                encoding="utf-8")
    assert _catalog(tmp_path) == ["- java:zed: Command zed.", "- java:fix: Command fix.", "- java:alpha: Skill alpha.",
                                  "- java:left: Skill left."]


# tests/golden/probes/claude-code@<version>/plugin-layouts.json (`capture diff --probe plugin-layouts
# --write`): plugins loaded alone with --plugin-dir, what the release listed of each and what calling
# a skill sent.
LAYOUTS = json.loads((PROBES / "plugin-layouts.json").read_text(encoding="utf-8"))["plugins"]


def _layout(ws: Path, case: str) -> Path:
    spec = LAYOUTS[case]
    plugin = ws / spec["folder"]
    for rel, text in spec["files"].items():
        (plugin / rel).parent.mkdir(parents=True, exist_ok=True)
        (plugin / rel).write_text(text, encoding="utf-8")
    return plugin


@pytest.mark.parametrize("case", list(LAYOUTS))
def test_plugin_layouts_are_listed_as_the_release_listed_them(tmp_path: Path, case: str):
    """A path in plugin.json without `./` keeps the plugin from loading; a SKILL.md at the plugin's
    root is `<plugin>:<declared name>` after its commands, unless a skills/ folder is beside it."""
    plugin = _layout(tmp_path, case)
    assert _catalog(tmp_path) == LAYOUTS[case]["entries"]
    if "SKILL.md" in LAYOUTS[case]["files"]:
        # The plugin's own folder as the workspace, as `capture diff --plugins` runs skill-lsp.
        assert _catalog(plugin) == LAYOUTS[case]["entries"]


def test_the_layouts_probe_holds_what_the_model_is_pinned_to():
    loaded = {case for case, spec in LAYOUTS.items() if spec["entries"]}
    assert {"skills-bare", "skills-bare-list", "agents-bare-list", "commands-bare", "hooks-bare"}.isdisjoint(loaded)
    assert {"skills-dot-list", "agents-dot", "commands-dot", "author-string"} <= loaded
    assert LAYOUTS["root"]["entries"][-1] == "- pa:rootname: Root skill."
    assert LAYOUTS["root-skills-folder-empty"]["entries"] == []
    assert LAYOUTS["root-declared-root"]["entries"][-1] == "- pe:mm: Root skill."


@pytest.mark.parametrize(("case", "row"), [pytest.param(case, row, id=f"{case}-{row['skill']}")
                                           for case, spec in LAYOUTS.items() for row in spec["activations"]])
def test_plugin_layout_activations_send_what_the_release_sent(tmp_path: Path, case: str, row: dict):
    ws, home = tmp_path / "ws", tmp_path / "home"
    _layout(ws, case)
    home.mkdir()
    # Run beside the workspace: a name that is a path there (the plugin's folder) is previewed as a path.
    args = ["preview", row["skill"], "--dialect", "claude-code", "--workspace", str(ws), "--format", "json"]
    proc = run_cli(*args, *(["--arguments", row["arguments"]] if row["arguments"] else []), cwd=tmp_path,
                   env={"HOME": str(home)})
    got = json.loads(proc.stdout)
    if not row["tool_result"].startswith("Launching skill: "):
        assert got["kind"] != "ok", got  # a folder's name, a declared name's other spelling
        # What the Skill tool answered, the name it suggested included.
        assert got["text"] == row["tool_result"].removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")
        return
    want = row["text"].replace("<ws>", str(ws)).replace("<home>", str(home))
    assert got["text"] == want.replace(f"project=[{ws}]", "project=[${CLAUDE_PROJECT_DIR}]")
    assert got["result"]["name"] == row["tool_result"].removeprefix("Launching skill: ")


@pytest.mark.parametrize(("manifest", "reason"), [
    # Unseen AgentWorkers/skills: grahac/botsee and veeramanikandanr48/clerk-auth, of which the
    # release listed nothing.
    ({"name": "botsee", "skills": ["skills/botsee"]}, '"skills" path "skills/botsee" does not start with "./"'),
    ({"name": "clerk-auth", "agents": ["clerk-setup"]}, '"agents" path "clerk-setup" does not start with "./"'),
    ({"name": "kit", "agents": "./agents"}, '"agents" path "./agents" does not end in ".md"'),
    ({"name": "kit", "experimental": {"themes": "themes"}}, '"experimental.themes" path "themes" does not start'),
    ({"name": "kit", "version": 1}, '"version" is not a string'),
])
def test_a_plugin_json_path_without_dot_slash_keeps_the_plugin_out_with_its_reason(tmp_path: Path, manifest, reason):
    _plugin(tmp_path / "kit", manifest, {"alpha": "---\nname: alpha\ndescription: A.\n---\nBody\n"})
    (tmp_path / "kit" / "commands").mkdir()
    (tmp_path / "kit" / "commands" / "go.md").write_text("---\ndescription: Go.\n---\nB\n", encoding="utf-8")
    proc = run_cli("catalog", ".", "--dialect", "claude-code", "--format", "json", cwd=tmp_path)
    out = json.loads(proc.stdout)
    assert [e["name"] for e in out["entries"] if e["included"]] == []
    assert ":go" not in out["text"]
    said = json.dumps([*out["skipped"], *out["decisions"]], ensure_ascii=False)
    assert "does not load the plugin" in said and reason.replace('"', '\\"') in said


def test_a_refused_plugins_folder_lists_nothing_and_says_why(tmp_path: Path):
    """Unseen heymegabyte/claude-skills: plugin.json names its skill folders without `./`, so the
    release loads no plugin and lists nothing, where `catalog` on the folder listed the nine skills
    it holds elsewhere (below a named folder that is a skill itself, and in `.devin/skills`)."""
    _plugin(tmp_path, {"name": "kit", "skills": ["01-one", "02-suite"]}, {})
    for folder in ("01-one", "02-suite", "02-suite/inner", ".devin/skills/other"):
        write_skill(tmp_path / os.path.dirname(folder), os.path.basename(folder),
                    f"---\nname: {os.path.basename(folder)}\ndescription: Skill {folder}.\n---\nB\n")
    proc = run_cli("catalog", ".", "--dialect", "claude-code", "--format", "json", cwd=tmp_path)
    out = json.loads(proc.stdout)
    assert [e["name"] for e in out["entries"] if e["included"]] == []
    reasons = {row["name"]: row["reason"] for row in out["skipped"]}
    assert set(reasons) == {"01-one", "02-suite"}
    assert all('"skills" path "01-one" does not start with "./"' in why for why in reasons.values())
    # Loaded, the same plugin lists the folders it names as its skills, in its order.
    (tmp_path / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "kit", "skills": ["./02-suite",
                                                                                                   "./01-one"]}))
    assert _catalog(tmp_path) == ["- kit:02-suite: Skill 02-suite.", "- kit:01-one: Skill 01-one."]


def test_a_root_skill_md_beside_a_skills_folder_is_left_out_with_its_reason(tmp_path: Path):
    _layout(tmp_path, "root-skills-folder")
    proc = run_cli("catalog", ".", "--dialect", "claude-code", "--format", "json", cwd=tmp_path)
    out = json.loads(proc.stdout)
    assert [e["name"] for e in out["entries"] if e["included"]] == ["pd:s1"]
    said = json.dumps([*out["skipped"], *out["decisions"]])
    assert "a SKILL.md at its root is loaded only when no skills/ folder is beside it" in said
