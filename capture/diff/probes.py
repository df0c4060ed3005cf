"""Probes: one rule of a release asked many times in one run, its answers stored for the tests.

``python -m capture diff --probe arguments`` activates one skill per argument string on the
pinned Claude Code (every placeholder form in the body), stores what the release sent under
tests/golden/probes/claude-code@<version>/arguments.json, and prints where skill-lsp's
substitution differs. tests/engine/test_claude_code_arguments.py compares skill-lsp with the
stored answers, so a change to the splitting is checked against the release without running it.

``--probe plugin`` loads a Claude Code plugin (``--plugin-dir``) whose skills also sit in the
project root and prints what the release lists of each (``--write`` keeps the probe's entries,
never the release's own skills, under plugin-skills.json). ``--probe plugin-layouts`` loads 61
plugins one at a time (paths in plugin.json with and without `./`, folders its `skills` names, a
SKILL.md at the plugin's root) and keeps what the release listed of each and what calling its
skills sent (plugin-layouts.json).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

from skill_lsp.capture import drivers

from ..drivers import pinned
from ..install import Pin, pins
from ..layout import REPO
from .grammar import Skill
from .workspace import lay_out

PROBES = REPO / "tests" / "golden" / "probes"


def _lay_out(base: Path, files: dict[str, str]) -> None:
    """Write each of ``files`` (a path below ``base`` -> its text), making its folders."""
    for rel, text in files.items():
        (base / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / rel).write_text(text, encoding="utf-8")


def _skills(root: str, skills: dict[str, str]) -> dict[str, str]:
    """``skills`` (folder -> SKILL.md text) as files below ``root``, for :func:`_lay_out`."""
    return {f"{root}/{folder}/SKILL.md": text for folder, text in skills.items()}


def _activations(got: drivers.Run, ws: Path, home: Path) -> list[dict]:
    """A run's activations as stored: the workspace and the home folder written `<ws>` and `<home>`."""
    return [{"skill": a.skill, "arguments": a.arguments, "tool_result": a.tool_result,
             "text": None if a.text is None else a.text.replace(str(ws), "<ws>").replace(str(home), "<home>")}
            for a in got.activations]


def _store(pin: Pin, name: str, data: dict, *, ascii_only: bool = False) -> None:
    dest = PROBES / pin.label / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(data, indent=1, ensure_ascii=ascii_only) + "\n", encoding="utf-8")

BODY = ("0=[$0] 1=[$1] 2=[$2] A0=[$ARGUMENTS[0]] A1=[$ARGUMENTS[1]] ALL=[$ARGUMENTS] X=[$1x] T=[$10] "
        "U=[$1_] D=[$1-] AX=[$ARGUMENTS[0]x] AW=[$ARGUMENTSx] Z=[$0a] E=[\\$1]\n")
ARGUMENTS = [
    "one two", '"a b" c', "'a b' c", 'a "b', "a 'b", "$HOME x", "${HOME}", "a;b", "a | b", "a && b", "*.md",
    "a\\ b", "a  b", " lead", "trail ", "a\tb", "x=1 y=2", "$1", "$ARGUMENTS", "(a) [b]", "`cmd`", "$(date)",
    'a\\"b', '""', "''", "a#b", "~/x", "a # b", "a>b c", "a<b", "a>>b", "a 2>&1 b", "{a,b}", "a=$b", '"$HOME"',
    "'$HOME'", "a\\nb", "!x y", 'a"b"c d', "x'y'z w", "a!b c", "x !y", "a ! b", "(a b) c", "; a b", "a; b c",
    "a 2> b", "a & b", "a || b", "a |& b", "x `y` z", "`y`z w", "a`b` c", "a\\!b", "a <(b) c", "a >& b", "&& a",
    "a ;; b", "!", "a\n b", "\u00e9 \u00fc", "\U0001f600 smile", "a $(x y) b", "", "--flag=x y",
    # command substitution with $( ): where it opens a word, and what follows it
    "a $(x) b", "$(x y)", "$(x y) b", "a $(x y)", "a b $(x y) c", "a$(x y) b", "$(x) y", 'a "$(x y)" b',
    "a $((1 + 2)) b", "a ${X} b", "a $(x", "a $x) b", "a $HOME b", "a ${X}y b", "a y${X} b", "a $((1))x b",
    "a b) c", "$x) b",
]


def arguments_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    skills = [Skill("ws", ".claude/skills", f"p{i:02d}",
                    {"SKILL.md": f"---\nname: p{i:02d}\ndescription: argument probe\n---\n{BODY}".encode()},
                    None, f"p{i:02d}", a) for i, a in enumerate(ARGUMENTS)]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = lay_out(skills, Path(tmp) / "p")
        got = drivers.run("claude-code", pinned(pin), ws, home, [(s.folder, s.arguments) for s in skills], {})
    from skill_lsp.engine.render.claude_code import substitute  # noqa: PLC0415

    rows = []
    differ = 0
    for a, act in zip(ARGUMENTS, got.activations, strict=True):
        text = act.text or ""
        body = text.split("\n\n", 1)[1] if "\n\n" in text else text
        mine = substitute(BODY, a, "/x")
        if body != mine:
            differ += 1
            print(f"{a!r}:\n  release:   {body!r}\n  skill-lsp: {mine!r}", file=sys.stderr)
        rows.append({"arguments": a, "release": body})
    print(f"arguments probe: {differ} of {len(rows)} differ", file=sys.stderr)
    if write:
        dest = PROBES / pin.label / "arguments.json"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(json.dumps({"body": BODY, "note": "what Claude Code sent for BODY activated with each "
                                    "argument string (python -m capture diff --probe arguments)", "rows": rows},
                                   indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


# Skills of a Claude Code plugin (`<plugin>/.claude-plugin/plugin.json`, `<plugin>/skills/*`), as
# `--plugin-dir` loads one, each beside the same file as a project skill (`.claude/skills/p-<folder>`):
# what the release lists of each (capture/diff/FINDINGS.md says what it showed).
PLUGIN = "probe-plugin"
PLUGIN_SKILLS = {
    "fmt-tables": "---\nname: fmt-tables\ndescription: Formats tables. Use when a table is ragged.\n---\nBody.\n",
    "Misnamed": "---\nname: other-name\ndescription: Its name is not its folder's. Use when probing.\n---\nBody.\n",
    "nameless": "---\ndescription: No name field. Use when probing.\n---\nBody.\n",
    "undescribed": "---\nname: undescribed\n---\nFirst body line stands in.\n",
    "no-frontmatter": "# Heading\n\nA body without frontmatter.\n",
    "bad-yaml": "---\nname: bad-yaml\ndescription: Has: a colon: twice\n---\nBody.\n",
    "effort-max": "---\nname: effort-max\ndescription: Declares an effort. Use when probing.\neffort: max\n---\nBody.\n",
    "effort-high": "---\nname: effort-high\ndescription: Declares an effort. Use when probing.\neffort: high\n---\nBody.\n",
    "effort-low": "---\nname: effort-low\ndescription: Declares an effort. Use when probing.\neffort: low\n---\nBody.\n",
    "with-agent": "---\nname: with-agent\ndescription: Declares an agent. Use when probing.\nagent: Explore\n---\nBody.\n",
    "with-tools": "---\nname: with-tools\ndescription: Declares tools. Use when probing.\nallowed-tools: Bash\n---\nBody.\n",
    "quoted": "---\nname: quoted\ndescription: \"Quoted: with a colon.\"\n---\nBody.\n",
    "empty-description": "---\nname: empty-description\ndescription: \"\"\n---\nBody line.\n",
    "UPPER": "---\nname: UPPER\ndescription: An uppercase name. Use when probing.\n---\nBody.\n",
}


def plugin_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        plugin = ws / PLUGIN
        (plugin / ".claude-plugin").mkdir(parents=True)
        home.mkdir()
        (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": PLUGIN, "version": "0.1.0"}) + "\n",
                                                               encoding="utf-8")
        for folder, text in PLUGIN_SKILLS.items():
            for where in (plugin / "skills" / folder, ws / ".claude" / "skills" / f"p-{folder}"):
                where.mkdir(parents=True)
                (where / "SKILL.md").write_text(text.replace(f"name: {folder}\n", f"name: p-{folder}\n")
                                                if where.name.startswith("p-") else text, encoding="utf-8")
        got = drivers.run("claude-code", [*pinned(pin), "--plugin-dir", str(plugin)], ws, home,
                          [("fmt-tables", "")], {})
    # Only the probe's entries are kept: the release's own skills are never stored.
    entries = drivers.claude_entries(got.catalog)
    rows = {folder: {"plugin": next((e for e in entries if e.startswith(f"- {PLUGIN}:{folder}")), None),
                     "project": next((e for e in entries if e.startswith(f"- p-{folder}")), None)}
            for folder in PLUGIN_SKILLS}
    for folder, row in rows.items():
        print(f"{folder}: plugin {row['plugin']!r}; project {row['project']!r}", file=sys.stderr)
    if write:
        dest = PROBES / pin.label / "plugin-skills.json"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(json.dumps({"plugin": PLUGIN, "note": "the catalog entries Claude Code lists for the skills "
                                    "of a plugin loaded with --plugin-dir (python -m capture diff --probe plugin)",
                                    "skills": PLUGIN_SKILLS, "entries": rows}, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    return 0


# A plugin whose folder and manifest names differ, beside project skills: which name prefixes its
# skills, where they sort among the project's, how the `Skill` tool is called for one and what an
# activation hands the model (the plugin's variables filled or not).
PLUGIN_FOLDER, PLUGIN_MANIFEST = "dir-name", "manifest-name"
PLUGIN_ORDER = {
    "zeta": "---\nname: zeta\ndescription: Sorts last. Use when probing.\n---\nBody.\n",
    "alpha": ("---\nname: alpha\ndescription: Sorts first. Use when probing.\n---\n"
              "root=[${CLAUDE_PLUGIN_ROOT}] data=[${CLAUDE_PLUGIN_DATA}] dir=[${CLAUDE_SKILL_DIR}] "
              "project=[${CLAUDE_PROJECT_DIR}] args=[$ARGUMENTS]\n"),
    "Beta": "---\nname: Beta\ndescription: Upper case. Use when probing.\n---\nB $0.\n",
    "a_b": "---\nname: a_b\ndescription: Underscore. Use when probing.\n---\nBody.\n",
    # Declared names holding the plugin's prefix, another prefix, and the listed key itself.
    "one": f"---\nname: {PLUGIN_MANIFEST}:one-x\ndescription: Own prefix. Use when probing.\n---\nOne.\n",
    "two": "---\nname: other:two-x\ndescription: Other prefix. Use when probing.\n---\nTwo.\n",
    "three": f"---\nname: {PLUGIN_MANIFEST}:three\ndescription: Its key. Use when probing.\n---\nThree.\n",
}
PROJECT_ORDER = ("aa-first", "mm-middle", "zz-last", "nn-named")  # nn-named declares `mm-declared`
PLUGIN_CALLS = [(f"{PLUGIN_MANIFEST}:alpha", "one two"), ("alpha", ""), (f"{PLUGIN_FOLDER}:alpha", ""),
                (f"{PLUGIN_MANIFEST}:Beta", "x"), ("mm-middle", ""), (f"{PLUGIN_MANIFEST}:one-x", ""),
                ("mm-declared", ""), ("other:two-x", "")]


def plugin_names_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        plugin = ws / PLUGIN_FOLDER
        home.mkdir()
        project = {folder: f"---\nname: {'mm-declared' if folder == 'nn-named' else folder}\ndescription: A project "
                           "skill. Use when probing.\n---\nBody.\n" for folder in PROJECT_ORDER}
        _lay_out(ws, {f"{PLUGIN_FOLDER}/.claude-plugin/plugin.json":
                      json.dumps({"name": PLUGIN_MANIFEST, "version": "0.1.0"}) + "\n",
                      **_skills(f"{PLUGIN_FOLDER}/skills", PLUGIN_ORDER), **_skills(".claude/skills", project)})
        got = drivers.run("claude-code", [*pinned(pin), "--plugin-dir", str(plugin)], ws, home, PLUGIN_CALLS, {})
    mine = set(PLUGIN_ORDER) | set(PROJECT_ORDER)
    # Only the probe's entries are kept: the release's own skills are never stored.
    entries = [e for e in drivers.claude_entries(got.catalog or "")
               if any(e.startswith((f"- {n}", f"- {PLUGIN_FOLDER}:{n}", f"- {PLUGIN_MANIFEST}:{n}")) for n in mine)]
    print("entries in order:", *entries, sep="\n  ", file=sys.stderr)
    rows = _activations(got, ws, home)
    for row in rows:
        print(f"activation {row}", file=sys.stderr)
    if write:
        _store(pin, "plugin-names.json", {
            "plugin_folder": PLUGIN_FOLDER, "manifest_name": PLUGIN_MANIFEST,
            "note": "a plugin loaded with --plugin-dir beside project skills: its entries in listing order and its "
                    "activations (python -m capture diff --probe plugin-names)",
            "skills": PLUGIN_ORDER, "entries": entries, "activations": rows})
    return 0


# Plugins laid out as plugin.json and the folders beside it may lay them out, each loaded alone with
# `--plugin-dir`: which path spellings in plugin.json keep the plugin from loading (the manifest's
# schema wants `./` before a path), and what is listed of a SKILL.md at the plugin's root (none of
# the release's own skills are kept).
def _skill(name: str | None, description: str | None = "Root skill.", body: str = "Body.\n") -> str:
    lines = ([f"name: {name}"] if name is not None else []) + (
        [f"description: {description}"] if description is not None else [])
    return "---\n" + "".join(f"{line}\n" for line in lines) + "---\n" + body


def _command(description: str) -> str:
    return f"---\ndescription: {description}\n---\nDo it.\n"


_AGENT = "---\nname: x\ndescription: An agent.\n---\nHi\n"
_ROOT_BODY = ("dir=[${CLAUDE_SKILL_DIR}] root=[${CLAUDE_PLUGIN_ROOT}] project=[${CLAUDE_PROJECT_DIR}] "
              "args=[$ARGUMENTS]\n")


def _manifest_case(**fields: object) -> dict:
    """A plugin of one skill, one command and one agent whose plugin.json holds ``fields``."""
    return {"folder": "pm", "files": {".claude-plugin/plugin.json": json.dumps({"name": "pm", **fields}) + "\n",
                                      "skills/s1/SKILL.md": _skill("s1", "Skill one."),
                                      "commands/c1.md": _command("Command one."), "agents/x.md": _AGENT}}


def _paths_case(skills: object, folders: list[str], **files: str) -> dict:
    """A plugin whose plugin.json `skills` is ``skills``, with a skill in each of ``folders``."""
    laid = {".claude-plugin/plugin.json": json.dumps({"name": "pq", "skills": skills}) + "\n",
            **{f"{f}/SKILL.md": _skill(f.rsplit("/", 1)[-1], f"Skill at {f}.") for f in folders}, **files}
    return {"folder": "pq", "files": laid}


PLUGIN_LAYOUTS: dict[str, dict] = {
    # plugin.json's paths, each field as a string or a list
    "skills-bare": _manifest_case(skills="skills/s1"),
    "skills-bare-list": _manifest_case(skills=["skills/s1"]),
    "skills-dot-list": _manifest_case(skills=["./skills/s1"]),
    "skills-mixed-list": _manifest_case(skills=["./skills/s1", "skills/s1"]),
    "skills-dot": _manifest_case(skills="."),
    "skills-dot-slash": _manifest_case(skills="./"),
    "skills-parent": _manifest_case(skills="../pm/skills/s1"),
    "skills-absolute": _manifest_case(skills="/tmp"),
    "skills-number": _manifest_case(skills=[5]),
    "skills-null": _manifest_case(skills=None),
    "skills-object": _manifest_case(skills={"a": "./skills/s1"}),
    "commands-bare": _manifest_case(commands="commands/c1.md"),
    "commands-bare-list": _manifest_case(commands=["commands"]),
    "commands-dot": _manifest_case(commands="./commands/c1.md"),
    "commands-dot-folder": _manifest_case(commands=["./commands"]),
    "commands-bare-source": _manifest_case(commands={"c9": {"source": "commands/c1.md"}}),
    "agents-bare": _manifest_case(agents="agents/x.md"),
    "agents-bare-list": _manifest_case(agents=["clerk-setup"]),
    "agents-dot": _manifest_case(agents=["./agents/x.md"]),
    "agents-dot-folder": _manifest_case(agents="./agents"),
    "agents-upper-md": _manifest_case(agents="./agents/x.MD"),
    "output-styles-bare": _manifest_case(outputStyles="styles"),
    "themes-bare": _manifest_case(themes=["themes"]),
    "workflows-bare": _manifest_case(workflows="workflows"),
    "hooks-bare": _manifest_case(hooks="hooks.json"),
    "hooks-dot-not-json": _manifest_case(hooks="./hooks.txt"),
    "mcp-bare": _manifest_case(mcpServers="mcp.json"),
    "lsp-bare": _manifest_case(lspServers="lsp.json"),
    "monitors-bare": _manifest_case(monitors="monitors.json"),
    "experimental-themes-bare": _manifest_case(experimental={"themes": "themes"}),
    "author-string": _manifest_case(author="Someone"),
    "version-number": _manifest_case(version=1),
    # a SKILL.md at the plugin's root
    "root": {"folder": "fold-a", "files": {
        ".claude-plugin/plugin.json": '{"name": "pa"}\n', "SKILL.md": _skill("rootname", body=_ROOT_BODY),
        "commands/zeta.md": _command("Command zeta."), "commands/alpha.md": _command("Command alpha.")},
        "calls": [("pa:rootname", "one two"), ("rootname", ""), ("fold-a", ""), ("pa:fold-a", "")]},
    "root-nameless": {"folder": "fold.b", "files": {
        ".claude-plugin/plugin.json": '{"name": "pb"}\n', "SKILL.md": _skill(None)},
        "calls": [("pb:fold-b", ""), ("pb:fold.b", ""), ("fold.b", ""), ("fold-b", "")]},
    "root-skills-folder-empty": {"folder": "fold-c", "files": {
        ".claude-plugin/plugin.json": '{"name": "pc"}\n', "SKILL.md": _skill("rootname"), "skills/.keep": ""}},
    "root-skills-folder": {"folder": "fold-d", "files": {
        ".claude-plugin/plugin.json": '{"name": "pd"}\n', "SKILL.md": _skill("rootname"),
        "skills/s1/SKILL.md": _skill("s1", "Skill one.")}},
    "root-declared-root": {"folder": "fold-e", "files": {
        ".claude-plugin/plugin.json": '{"name": "pe", "skills": ["./"]}\n', "SKILL.md": _skill("mm"),
        "skills/zz/SKILL.md": _skill("zz", "Skill zz."), "skills/aa/SKILL.md": _skill("aa", "Skill aa.")}},
    "root-declared-dot": {"folder": "fold-f", "files": {
        ".claude-plugin/plugin.json": '{"name": "pf", "skills": "."}\n', "SKILL.md": _skill("rootname")}},
    "root-declared-empty": {"folder": "fold-g", "files": {
        ".claude-plugin/plugin.json": '{"name": "pg", "skills": []}\n', "SKILL.md": _skill("rootname")}},
    "root-odd-name": {"folder": "fold-h", "files": {
        ".claude-plugin/plugin.json": '{"name": "ph"}\n', "SKILL.md": _skill("Root Name.v2")},
        "calls": [("ph:Root-Name-v2", ""), ("Root Name.v2", ""), ("Root-Name-v2", "")]},
    "root-dotted-name": {"folder": "fold-i", "files": {
        ".claude-plugin/plugin.json": '{"name": "pi"}\n', "SKILL.md": _skill("a.b")}},
    "root-own-prefix": {"folder": "fold-j", "files": {
        ".claude-plugin/plugin.json": '{"name": "pj"}\n', "SKILL.md": _skill("pj:inner")},
        "calls": [("pj:inner", ""), ("inner", "")]},
    "root-other-prefix": {"folder": "fold-k", "files": {
        ".claude-plugin/plugin.json": '{"name": "pk"}\n', "SKILL.md": _skill("other:x")},
        "calls": [("pk:other-x", ""), ("pk:other:x", ""), ("other:x", ""), ("other-x", "")]},
    "root-undescribed": {"folder": "fold-l", "files": {
        ".claude-plugin/plugin.json": '{"name": "pl"}\n', "SKILL.md": _skill("rootname", None),
        "commands/c1.md": _command("Command one.")}},
    "root-named-like-command": {"folder": "fold-m", "files": {
        ".claude-plugin/plugin.json": '{"name": "pn"}\n', "SKILL.md": _skill("alpha"),
        "commands/alpha.md": _command("Command alpha.")}},
    "root-no-manifest-name": {"folder": "fold-n", "files": {
        ".claude-plugin/plugin.json": '{"version": "1.0.0"}\n', "SKILL.md": _skill("rootname")}},
    # folders plugin.json's `skills` names beside `skills/`: a skill's folder, or a folder of skills
    "paths-subset": _paths_case(["./skills/s1"], ["skills/s1", "skills/s2"]),
    "paths-folder": _paths_case(["./custom"], ["custom/b", "custom/a", "skills/s1"]),
    "paths-folder-slash": _paths_case("./custom/", ["custom/a", "skills/s1"]),
    "paths-skill": _paths_case(["./custom/a"], ["custom/a", "custom/b", "skills/s1"]),
    "paths-deep": _paths_case(["./plugins/x/skills/y"], ["plugins/x/skills/y", "skills/s1"]),
    "paths-two": _paths_case(["./one", "./two/t1"], ["one/o1", "two/t1", "two/t2"]),
    "paths-order": _paths_case(["./b", "./a"], ["a/a1", "b/b1", "skills/zz", "skills/aa"]),
    "paths-nested": _paths_case(["./custom"], ["custom/g/inner", "custom/a"]),
    "paths-folder-with-own": _paths_case(["./custom"], ["custom", "custom/a"]),
    "paths-same-name": _paths_case(["./custom"], ["skills/s1", "custom/s1"]),
    "paths-missing": _paths_case(["./nope"], ["skills/s1"]),
    "paths-file": _paths_case(["./SKILL.md"], ["skills/s1"], **{"SKILL.md": _skill("rootname")}),
    "paths-twice": _paths_case(["./custom", "./custom/a"], ["custom/a"]),
    "paths-bare": _paths_case(["custom"], ["custom/a", "skills/s1"]),
    "skill-folder-dotted": {"folder": "fold-o", "files": {
        ".claude-plugin/plugin.json": '{"name": "po"}\n', "skills/a.b/SKILL.md": _skill("a.b", "Dotted folder."),
        "skills/c d/SKILL.md": _skill(None, "Spaced folder."), "skills/one/SKILL.md": _skill("uno", "Named.")},
        "calls": [("po:a-b", ""), ("po:a.b", ""), ("a.b", ""), ("a-b", ""), ("c d", ""), ("c-d", ""), ("one", ""),
                  ("uno", ""), ("po:uno", "")]},
}


def plugin_layouts_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    out = {}
    for case, spec in PLUGIN_LAYOUTS.items():
        with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
            ws, home = Path(tmp) / "ws", Path(tmp) / "home"
            home.mkdir()
            plugin = ws / spec["folder"]
            _lay_out(plugin, spec["files"])
            calls = spec.get("calls") or [("none-such", "")]
            got = drivers.run("claude-code", [*pinned(pin), "--plugin-dir", str(plugin)], ws, home, calls, {})
        manifest = json.loads(spec["files"][".claude-plugin/plugin.json"])
        prefix = f"- {manifest.get('name') or spec['folder']}:"
        # Only the probe's entries are kept: the release's own skills are never stored.
        entries = [e for e in drivers.claude_entries(got.catalog or "") if e.startswith(prefix)]
        rows = _activations(got, ws, home) if spec.get("calls") else []
        print(f"{case}: {entries}", file=sys.stderr)
        for row in rows:
            print(f"  activation {row}", file=sys.stderr)
        out[case] = {**spec, "calls": calls if spec.get("calls") else [], "entries": entries, "activations": rows}
    if write:
        _store(pin, "plugin-layouts.json", {
            "note": "plugins loaded alone with --plugin-dir <folder>: what the release lists of each (its entries "
                    "under the plugin's prefix, in order) and what calling a skill sent (python -m capture diff "
                    "--probe plugin-layouts)", "plugins": out})
    return 0


# Commands beside skills: a project's `.claude/commands/**/*.md` and a plugin's `commands/`, which
# Claude Code lists among the skills (harness/claude_commands.py says what the probe showed).
COMMANDS = {
    ".claude/skills/a-skill/SKILL.md": "---\nname: a-skill\ndescription: Skill a.\n---\nB\n",
    ".claude/skills/m-skill/SKILL.md": "---\nname: m-skill\ndescription: Skill m.\n---\nSkill m body\n",
    ".claude/skills/z-skill/SKILL.md": "---\nname: z-skill\ndescription: Skill z.\n---\nB\n",
    ".claude/commands/b-cmd.md": ("---\ndescription: Cmd b.\n---\nBody b $ARGUMENTS proj=[${CLAUDE_PROJECT_DIR}] "
                                  "dir=[${CLAUDE_SKILL_DIR}] root=[${CLAUDE_PLUGIN_ROOT}]\n"),
    ".claude/commands/a-cmd.md": "---\ndescription: Cmd a.\n---\nBody a\n",
    ".claude/commands/m-skill.md": "---\ndescription: Named like a skill.\n---\nBody m\n",
    ".claude/commands/hidden.md": "---\ndescription: Hidden.\ndisable-model-invocation: true\n---\nBody h\n",
    ".claude/commands/blank.md": "\n\n# Heading line\nText\n",
    ".claude/commands/p1.md": "---\ndescription: Colon declared.\nname: p:x\n---\nB\n",
    ".claude/commands/p2.md": "---\ndescription: Plain declared.\nname: other-name\n---\nB\n",
    ".claude/commands/p3.md": "---\ndescription: With when.\nwhen_to_use: When needed\n---\nB\n",
    ".claude/commands/Zed.md": "---\ndescription: Upper.\n---\nB\n",
    ".claude/commands/_u.md": "---\ndescription: Underscore.\n---\nB\n",
    ".claude/commands/bad.md": "---\ndescription: Has: a colon: twice\n---\nB\n",
    ".claude/commands/a/b/c.md": "---\ndescription: Deep.\n---\nB\n",
    ".claude/commands/.hid.md": "---\ndescription: Dot file.\n---\nB\n",
    ".claude/commands/UPPER.MD": "---\ndescription: Upper extension.\n---\nB\n",
    # Ordered by name, as localeCompare orders them: `review` before `review-pr`, `a:x` after `a-c:x`.
    ".claude/commands/review.md": "---\ndescription: Cmd review.\n---\nB\n",
    ".claude/commands/review-pr.md": "---\ndescription: Cmd review-pr.\n---\nB\n",
    ".claude/commands/a.md": "---\ndescription: Cmd a alone.\n---\nB\n",
    ".claude/commands/A.md": "---\ndescription: Cmd A alone.\n---\nB\n",
    ".claude/commands/a_b.md": "---\ndescription: Cmd a_b.\n---\nB\n",
    ".claude/commands/a-b.md": "---\ndescription: Cmd a-b.\n---\nB\n",
    ".claude/commands/a.b.md": "---\ndescription: Cmd a.b.\n---\nB\n",
    ".claude/commands/a-c/x.md": "---\ndescription: Cmd a-c:x.\n---\nB\n",
    ".claude/commands/a/x.md": "---\ndescription: Cmd a:x.\n---\nB\n",
    ".claude/commands/notes.txt": "---\ndescription: Not markdown.\n---\nB\n",
    "kit/.claude-plugin/plugin.json": '{"name": "kit"}\n',
    "kit/skills/k-skill/SKILL.md": "---\nname: k-skill\ndescription: Plugin skill.\n---\nPS\n",
    "kit/commands/c-cmd.md": ("---\ndescription: Plugin cmd c.\n---\nPC $ARGUMENTS root=[${CLAUDE_PLUGIN_ROOT}] "
                              "data=[${CLAUDE_PLUGIN_DATA}] dir=[${CLAUDE_SKILL_DIR}]\n"),
    "kit/commands/z-cmd.md": "---\ndescription: Plugin cmd z.\n---\nPZ\n",
    "kit/commands/q1.md": "---\ndescription: Plugin other.\nname: other\n---\nQ1\n",
    "kit/commands/q2.md": "---\ndescription: Plugin own prefix.\nname: kit:own\n---\nQ2\n",
    "kit/commands/sub/q3.md": "---\ndescription: Plugin nested.\n---\nQ3\n",
    # A plugin's by file name, `.md` with it: `review-pr.md` before `review.md`.
    "kit/commands/review.md": "---\ndescription: Plugin review.\n---\nB\n",
    "kit/commands/review-pr.md": "---\ndescription: Plugin review-pr.\n---\nB\n",
    # A folder named before the folder's first file is walked before the files, the others after
    # them; a declared name in a folder is shown with the folders' prefix too.
    "kit/commands/aa/x.md": "---\ndescription: Plugin folder before the files.\n---\nB\n",
    "kit/commands/ns/a.md": "---\ndescription: Plugin ns path name.\nname: ns:a\n---\nB\n",
    "kit/commands/ns/b.md": "---\ndescription: Plugin ns plugin prefix.\nname: kit:x\n---\nB\n",
    "kit/commands/ns/c.md": "---\ndescription: Plugin ns full prefix.\nname: kit:ns:c\n---\nB\n",
    "kit/commands/ns/deep/e.md": "---\ndescription: Plugin ns deeper.\n---\nB\n",
}
COMMAND_CALLS = [("b-cmd", "x y"), ("m-skill", ""), ("kit:c-cmd", "z"), ("p:x", ""), ("other-name", ""),
                 ("kit:own", ""), ("kit:other", ""), ("a:b:c", ""), ("kit:ns:ns:a", ""), ("kit:ns:kit:x", "")]


def commands_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        home.mkdir()
        _lay_out(ws, COMMANDS)
        got = drivers.run("claude-code", [*pinned(pin), "--plugin-dir", str(ws / "kit")], ws, home, COMMAND_CALLS, {})
    # The probe's own entries, not the release's built-in skills: each holds a description above.
    texts = {line.split("description: ", 1)[1] for text in COMMANDS.values() for line in text.split("\n")
             if line.startswith("description: ")} | {"Heading line"}
    entries = [e for e in drivers.claude_entries(got.catalog or "")
               if e.split(": ", 1)[-1].split(" - ")[0] in texts or e.endswith(": Has: a colon: twice")]
    print("entries in order:", *entries, sep="\n  ", file=sys.stderr)
    rows = _activations(got, ws, home)
    for row in rows:
        print(f"activation {row}", file=sys.stderr)
    budget = _commands_budget(pin)
    print(f"listing budget with commands: {sum(': ' not in e for e in budget)} entries by name only", file=sys.stderr)
    if write:
        _store(pin, "commands.json", {
            "note": "commands beside skills, a plugin's loaded with --plugin-dir kit: the entries Claude Code lists, "
                    "in order, and what calling each sent (python -m capture diff --probe commands)",
            "files": COMMANDS, "entries": entries, "activations": rows,
            "budget": {"skills": BUDGET_SKILLS, "commands": BUDGET_COMMANDS, "entries": budget}})
    return 0


# The skills of capture case listing-budget but its last eight, and eight commands of 1,182-character
# descriptions after them: past the budget, commands too are listed by name only.
BUDGET_SKILLS = 18
BUDGET_COMMANDS = {f"c{i}.md": f"---\ndescription: {'Command text ' * 90}end {i}.\n---\nBody\n" for i in range(8)}


def _commands_budget(pin) -> list[str]:  # type: ignore[no-untyped-def]
    cases = REPO / "capture" / "cases" / "listing-budget" / "skills"
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        home.mkdir()
        for folder in sorted(p.name for p in cases.iterdir())[:BUDGET_SKILLS]:
            shutil.copytree(cases / folder, ws / ".claude" / "skills" / folder)
        _lay_out(ws / ".claude" / "commands", BUDGET_COMMANDS)
        got = drivers.run("claude-code", pinned(pin), ws, home, [("c0", "")], {})
    mine = {f"- {n}" for n in sorted(p.name for p in cases.iterdir())[:BUDGET_SKILLS]} | {
        f"- {n[:-3]}" for n in BUDGET_COMMANDS}
    return [e for e in drivers.claude_entries(got.catalog or "") if e.split(":", 1)[0] in mine or e in mine]


# `paths` spellings on project skills and on a plugin's skills (the capture case conditional-paths
# holds 15 others): which keep the skill out of the catalog as a conditional skill.
PATHS = {"p1": '["**/*"]', "p2": '"**/*"', "p3": '["**/*.md"]', "p4": '["*"]', "p5": '["**"]', "p6": '"**/**"',
         "p7": '["./**"]', "p8": '"**/*, src/**"', "p9": '["**/**", "/**"]'}
PLUGIN_PATHS = {"k1": '["**/*"]', "k2": '["src/**"]'}


def paths_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        home.mkdir()

        def skill(folder: str, value: str) -> str:
            return f"---\nname: {folder}\ndescription: D {folder}.\npaths: {value}\n---\nB\n"

        _lay_out(ws, {"kit/.claude-plugin/plugin.json": '{"name": "kit"}\n',
                      **_skills(".claude/skills", {f: skill(f, v) for f, v in PATHS.items()}),
                      **_skills("kit/skills", {f: skill(f, v) for f, v in PLUGIN_PATHS.items()})})
        got = drivers.run("claude-code", [*pinned(pin), "--plugin-dir", str(ws / "kit")], ws, home, [("p1", "")], {})
    listed = sorted(e[2:].split(":")[0] if e.startswith("- p") else e[2:].split(": ")[0]
                    for e in drivers.claude_entries(got.catalog or "") if e.startswith(("- p", "- kit:")))
    listed = [n for n in listed if n in PATHS or n.removeprefix("kit:") in PLUGIN_PATHS]
    print("listed:", listed, file=sys.stderr)
    if write:
        _store(pin, "paths.json", {"note": "which `paths` spellings leave a skill listed (unconditional): project "
                                           "skills and a plugin's (python -m capture diff --probe paths)",
                                   "project": PATHS, "plugin": PLUGIN_PATHS, "listed": listed})
    return 0


# Joiners and variation selectors in a listed description: where the listing keeps them (inside an
# emoji or a conjunct) and where it makes them a space (found by real skills' `🛡️` in capture diff
# --real seed 10).
JOINERS = {
    "j01": "x\U0001F6E1\uFE0Fy", "j02": "a\uFE0Fb", "j03": "x\U0001F468\u200D\U0001F469\u200D\U0001F467y",
    "j04": "a\u200Bb", "j05": "x\u2764\uFE0Fy", "j06": "x1\uFE0F\u20E3y", "j07": "a\u034Fb",
    "j08": "x\U0001F3F3\uFE0F\u200D\U0001F308y", "j09": "a\u200Db", "j10": "x \uFE0Fy", "j11": "\u6F22\uFE00z",
    "j12": "a\u00ADb", "j13": "a\u2060b", "j14": "x\U0001F6E1\uFE0F\uFE0Fy", "j15": "a\u200Cb",
    "j16": "\u0915\u094D\u200D\u0937", "j17": "x\U0001F3F4\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007Fy",
    "j18": "x\U0001F469\U0001F3FD\u200D\U0001F4BBy", "j19": "x\u263A\uFE0Fy", "j20": "x#\uFE0F\u20E3y",
    "j21": "a\u200D\U0001F642", "j22": "\U0001F642\u200Db", "j23": "x\u00A9\uFE0Fy", "j24": "x\U0001F642\uFE0Ey",
    "j25": "\u0915\u094D\u200C\u0937", "j26": "x\U000E0067y",
}


def joiners_probe(write: bool) -> int:
    pin = pins()["claude-code"]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        home.mkdir()
        _lay_out(ws, _skills(".claude/skills", {folder: f"---\nname: {folder}\ndescription: {json.dumps(text)}\n---\nB\n"
                                                for folder, text in JOINERS.items()}))
        got = drivers.run("claude-code", pinned(pin), ws, home, [("j01", "")], {})
    listed = {e[2:].split(": ", 1)[0]: e.split(": ", 1)[1] for e in drivers.claude_entries(got.catalog or "")
              if e[2:].split(": ", 1)[0] in JOINERS}
    from skill_lsp.engine.render.claude_code import sanitize  # noqa: PLC0415

    for folder, text in JOINERS.items():
        mine = sanitize(text)
        print(f"{folder}: {'same' if listed.get(folder) == mine else 'DIFF'} release {ascii(listed.get(folder))} "
              f"skill-lsp {ascii(mine)}", file=sys.stderr)
    if write:
        _store(pin, "joiners.json", {"note": "descriptions holding joiners and variation selectors, and what the "
                                             "listing shows of each (python -m capture diff --probe joiners)",
                                     "descriptions": JOINERS, "listed": listed}, ascii_only=True)
    return 0


# Names the Skill tool does not know, beside project skills close to them, built-in commands and
# their aliases: what the release answers for each (`Unknown skill: x. Did you mean y?`). Folder ->
# frontmatter lines of each project skill.
UNKNOWN_SKILLS = {
    "deploy-app": "description: Deploys the app.", "deploy-api": "description: Deploys the API.",
    "tables": "description: Formats tables.", "review-pr": "description: Reviews a pull request.",
    "btx": "description: One letter from a built-in command.", "Mixed_Case": "description: A folder with capitals.",
    "zz": "description: A two-letter name.", "Tab": "description: Capital T.", "tab": "description: Small t.",
    "folder-one": "name: declared-one\ndescription: A declared name.",
    "hidden-one": "description: Hidden from the model.\ndisable-model-invocation: true",
    "menu-only": "description: Not for the user.\nuser-invocable: false",
    "paths-one": "description: Conditional.\npaths: src/**",
}
UNKNOWN_CALLS = [
    "deploy-ap", "deploy-apx", "deploy-a", "dpeloy-app", "tabels", "table", "tablesxx", "tablesxxx", "review",
    "review-p", "reveiw-pr", "btw2", "btz", "bt", "clea", "cleaar", "compac", "hlep", "qui", "quitt", "cos", "undo1",
    "setings", "peer", "xyzzy-unknown", "Bad_Name", "foo:bar", "kit:deploy-app", "Deploy-App", "DEPLOY-APP",
    "mixed_case", "Mixed_Cas", "z", "zzz", "a", "ab", "skill", "skils", "code-reviw", "dataviz2", "securty-review",
    "ini", "loops", "memroy", "exit2", "stats2", "deploy app", "", "x" * 60, "xab", "declared-on", "folder-on",
    "declared-one", "hidden-on", "menu-onl", "paths-on", "deploy-app ", " deploy-app",
]
# Names the release's commands, their aliases and its built-in skills may have (its bundle's command
# table, keybinding names among them): each called with a `9` after it, one edit away, says whether
# the Skill tool suggests it.
MAYBE_COMMANDS = [
    "reset", "new", "checkup", "continue", "access", "add-dir", "advisor", "agents", "allowed-tools", "alt",
    "android", "app", "artifacts", "auto-mode-setup", "autocompact", "autofix-pr", "background", "bashes", "batch",
    "bg", "branch", "break-reminder", "breaks", "brief", "btw", "bug", "cd", "checkpoint", "claude-api", "clear",
    "cloud-plugins", "cmd", "code-review", "color", "command", "compact", "config", "context", "control", "copy",
    "cost", "crm", "crmsh", "ctrl", "daemon", "dataviz", "debug", "design-consent", "design-login", "design-revoke",
    "desktop", "diff", "doctor", "downtime", "effort", "exit", "export", "extra-usage", "fast", "feedback",
    "fewer-permission-prompts", "focus", "fork", "goal", "heapdump", "help", "hooks", "ide", "import", "init",
    "insights", "install", "install-github-app", "install-slack-app", "ios", "keybindings", "keybindings-help",
    "list-agents", "login", "logout", "loop", "marketplace", "mcp", "memory", "memory-pause", "mobile", "model",
    "name", "opt", "option", "output-style", "passes", "pause-memory", "pcmk", "peers", "permissions", "plan",
    "plugin", "plugin-authoring", "plugins", "powerup", "pr-comments", "privacy-settings", "pro-trial-expired",
    "project", "quit", "radio", "rate-limit-options", "rc", "recap", "release-notes", "reload-plugins",
    "reload-skills", "remote", "remote-control", "remote-env", "rename", "restart", "resume", "review", "rewind",
    "routines", "run", "sandbox", "schedule", "scroll-speed", "security-review", "session", "settings",
    "setup-bedrock", "setup-vertex", "simplify", "skill-doctor", "skills", "stats", "status", "statusline",
    "stickers", "stop", "subtask", "super", "tasks", "team-onboarding", "teleport", "terminal-setup", "theme",
    "toggle-memory", "tp", "tui", "ultraplan", "ultrareview", "undo", "update", "update-config", "upgrade", "usage",
    "usage-credits", "use-case", "version", "vim", "voice", "web-setup", "wellbeing", "win", "workflow-authoring",
    "workflows",
]


def _tie_calls(candidates: tuple[str, ...], skills: list[str]) -> list[str]:
    """For each two suggestions the Skill tool might choose between (within four edits of each
    other), a name as many edits (one or two) from both and farther from every other name: which
    of the two the release suggests tells their order. Deterministic: the same names each run."""
    from rapidfuzz.distance import OSA  # noqa: PLC0415

    everything = [*candidates, *skills]
    alphabet = "abcdefghijklmnopqrstuvwxyz-9"

    def edits(s: str) -> list[str]:
        out = {s[:i] + c + s[i + k:] for i in range(len(s) + 1) for c in alphabet for k in (0, 1) if i + k <= len(s)}
        out |= {s[:i] + s[i + 1:] for i in range(len(s))} | {s[:i] + s[i + 1] + s[i] + s[i + 2:] for i in range(len(s) - 1)}
        out.discard(s)
        return sorted(out)

    calls = []
    for i, a in enumerate(sorted(candidates)):
        for b in sorted(candidates)[i + 1:]:
            d = OSA.distance(a, b)
            if d > 4:
                continue
            near = edits(a)
            pool = [(1, s) for s in near] + ([(2, t) for s in near if OSA.distance(s, b) == d - 1 for t in edits(s)]
                                             if d >= 2 else [])
            for want, s in pool:
                if s and OSA.distance(s, a) == want == OSA.distance(s, b) and not any(
                        o not in (a, b) and OSA.distance(s, o) <= want for o in everything):
                    calls.append(s)
                    break
    return calls


def unknown_names_probe(write: bool) -> int:
    from skill_lsp.engine.harness.data import CLAUDE_CODE_SUGGESTED  # noqa: PLC0415

    pin = pins()["claude-code"]
    calls = [*UNKNOWN_CALLS, *(f"{n}9" for n in MAYBE_COMMANDS),
             *_tie_calls(CLAUDE_CODE_SUGGESTED, list(UNKNOWN_SKILLS))]
    answers: dict[str, str | None] = {}
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        home.mkdir()
        _lay_out(ws, _skills(".claude/skills", {folder: f"---\n{fields}\n---\nB\n"
                                                for folder, fields in UNKNOWN_SKILLS.items()}))
        for at in range(0, len(calls), 250):  # a run answers at most 400 calls
            chunk = calls[at:at + 250]
            got = drivers.run("claude-code", pinned(pin), ws, home, [(n, "") for n in chunk], {})
            for name, act in zip(chunk, got.activations, strict=True):
                answers[name] = act.tool_result
    for name, said in answers.items():
        print(f"{name!r}: {said!r}", file=sys.stderr)
    print(f"unknown-names probe: {len(answers)} calls", file=sys.stderr)
    if write:
        _store(pin, "unknown-names.json", {"note": "what the Skill tool answered for each name beside the project "
                                                   "skills (python -m capture diff --probe unknown-names)",
                                           "skills": UNKNOWN_SKILLS, "answers": answers})
    return 0
