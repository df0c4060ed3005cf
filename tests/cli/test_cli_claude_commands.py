"""Claude Code lists commands among the skills: a project's `.claude/commands` and a plugin's
`commands`, laid out as the stored probe of the release laid them out
(tests/golden/probes/claude-code@<version>/commands.json; `python -m capture diff --probe commands
--write` runs it again), and `skill-lsp catalog` lists what the release listed, in its order."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import REPO, run_cli

PROBE = json.loads(next((REPO / "tests/golden/probes").glob("claude-code@*/commands.json")).read_text(encoding="utf-8"))


def _lay_out(ws: Path) -> None:
    for rel, text in PROBE["files"].items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")


def test_the_catalog_lists_commands_where_and_as_the_release_does(tmp_path: Path):
    _lay_out(tmp_path)
    proc = run_cli("catalog", ".", "--dialect", "claude-code", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[2:] == PROBE["entries"]


def test_the_probe_holds_what_the_model_is_pinned_to():
    keys = [e[2:].split(": ", 1)[0].split(" (")[0] for e in PROBE["entries"]]
    assert "hidden" not in keys and "UPPER" not in keys and "notes" not in keys  # hidden, `.MD`, `.txt`
    assert keys.count("m-skill") == 1  # a command named like a skill is not listed
    assert keys.index("z-skill") < keys.index("_u") and keys.index("kit:sub:q3") < keys.index("kit:k-skill")
    # A project's commands by name (`review` before `review-pr`, `a-c:x` before `a:x`), a plugin's by
    # file name (`review-pr.md` before `review.md`).
    assert keys.index("review") < keys.index("review-pr") and keys.index("a-c:x") < keys.index("a:x")
    assert keys.index("kit:review-pr") < keys.index("kit:review")
    # A plugin's folder named before its folder's first file is walked before the files, the others
    # after them; a declared name in a folder takes the folders' prefix too.
    assert keys.index("kit:aa:x") < keys.index("kit:c-cmd") < keys.index("kit:ns:a") < keys.index("kit:ns:deep:e")
    assert keys.index("kit:ns:c") < keys.index("kit:ns:deep:e") < keys.index("kit:sub:q3")
    assert "- kit:ns:a (kit:ns:ns:a): Plugin ns path name." in PROBE["entries"]
    assert "- kit:ns:b (kit:ns:kit:x): Plugin ns plugin prefix." in PROBE["entries"]


def test_other_harnesses_list_no_commands(tmp_path: Path):
    _lay_out(tmp_path)
    proc = run_cli("catalog", ".", "--dialect", "opencode", cwd=tmp_path)
    assert "Cmd" not in proc.stdout


def test_a_command_previewed_by_name_sends_its_body_alone(tmp_path: Path):
    """Its plugin's variables and the session's folder filled, `${CLAUDE_SKILL_DIR}` as written."""
    ws, home = tmp_path / "ws", tmp_path / "home"
    _lay_out(ws)
    home.mkdir()
    for row in PROBE["activations"]:
        args = ["--arguments", row["arguments"]] if row["arguments"] else []
        proc = run_cli("preview", row["skill"], "--dialect", "claude-code", "--workspace", ".", "--format", "json",
                       *args, cwd=ws, env={"HOME": str(home)})
        got = json.loads(proc.stdout)
        if row["tool_result"].startswith("Launching skill: "):
            assert got["text"] == row["text"].replace("<ws>", str(ws)).replace("<home>", str(home)), row
            assert got["result"]["name"] == row["skill"]
        else:  # a project command's declared name calls nothing; the name the release suggests
            assert got["kind"] != "ok", row
            assert got["text"] == row["tool_result"].removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")


def test_commands_share_the_listing_budget_as_the_release_counts_it(tmp_path: Path):
    """Capture case listing-budget's skills but its last eight, then eight commands of 1,182-character
    descriptions: the release lists the last four commands by name only, and so does the catalog."""
    budget = PROBE["budget"]
    cases = REPO / "capture" / "cases" / "listing-budget" / "skills"
    for folder in sorted(p.name for p in cases.iterdir())[:budget["skills"]]:
        (tmp_path / ".claude" / "skills" / folder).mkdir(parents=True)
        (tmp_path / ".claude" / "skills" / folder / "SKILL.md").write_bytes((cases / folder / "SKILL.md").read_bytes())
    (tmp_path / ".claude" / "commands").mkdir(parents=True)
    for name, text in budget["commands"].items():
        (tmp_path / ".claude" / "commands" / name).write_text(text, encoding="utf-8")
    proc = run_cli("catalog", ".", "--dialect", "claude-code", cwd=tmp_path)
    assert proc.stdout.split("\n")[2:] == budget["entries"]
    assert budget["entries"][-4:] == ["- c4", "- c5", "- c6", "- c7"]
