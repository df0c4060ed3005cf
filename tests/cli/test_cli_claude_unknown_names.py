"""What Claude Code's Skill tool answers for a name it finds nothing by, laid out as the stored probe
of the release laid it out (tests/golden/probes/claude-code@<version>/unknown-names.json; `python -m
capture diff --probe unknown-names --write` runs it again): `Unknown skill: x`, with `. Did you mean
y?` for the nearest of the project's skills, then of the release's commands, aliases and built-in
skills in the order it tries them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import REPO, run_cli
from skill_lsp.commands.preview import _listed
from skill_lsp.commands.targets import collect
from skill_lsp.engine.preview import activate, link_targets, records_for

PROBE = json.loads(next((REPO / "tests/golden/probes").glob("claude-code@*/unknown-names.json")).read_text(
    encoding="utf-8"))
UNWRAPPED = {name: said.removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")
             for name, said in PROBE["answers"].items() if said.startswith("<tool_use_error>")}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory):
    ws = tmp_path_factory.mktemp("ws")
    for folder, fields in PROBE["skills"].items():
        (ws / ".claude" / "skills" / folder).mkdir(parents=True)
        (ws / ".claude" / "skills" / folder / "SKILL.md").write_text(f"---\n{fields}\n---\nB\n", encoding="utf-8")
    targets = collect([str(ws)], None, None, None)
    results = _listed(targets, targets.settings, "claude-code")
    roots = targets.settings.resolved_roots(str(ws))
    return ws, targets.settings, records_for(results, len(roots), link_targets(results, str(ws), targets.settings))


def test_every_unknown_name_is_answered_as_the_release_answered(records):
    ws, settings, recs = records
    differ = []
    for name, said in UNWRAPPED.items():
        got = activate(recs, settings, name=name, dialect="claude-code", workspace=str(ws))
        if got.output != said:
            differ.append((name, said, got.output))
    assert not differ, differ[:5]
    suggested = [s for s in UNWRAPPED.values() if "Did you mean" in s]
    assert len(UNWRAPPED) > 700 and len(suggested) > 650  # the order of the built-ins is in most of them


def test_the_probe_pins_what_the_suggestions_rest_on():
    got = UNWRAPPED
    assert got["folder-on"] == "Unknown skill: folder-on"  # a declared name, not the folder, is suggested
    assert got["hidden-on"].endswith("Did you mean hidden-one?")  # kept from the model, suggested all the same
    assert got["paths-on"] == "Unknown skill: paths-on"  # a conditional skill not yet loaded
    assert got["a"].endswith("Did you mean tab?")  # listing order (`tab` before `Tab`), skills before built-ins
    assert got["tablesxxx"] == "Unknown skill: tablesxxx"  # three edits away


def test_the_preview_says_it_too(tmp_path: Path):
    (tmp_path / ".claude" / "skills" / "deploy-app").mkdir(parents=True)
    (tmp_path / ".claude" / "skills" / "deploy-app" / "SKILL.md").write_text(
        "---\ndescription: Deploys.\n---\nB\n", encoding="utf-8")
    for name, want in [("dpeloy-app", "Unknown skill: dpeloy-app. Did you mean deploy-app?"),
                       ("hlep", "Unknown skill: hlep. Did you mean help?"), ("Bad_Name", "Unknown skill: Bad_Name")]:
        proc = run_cli("preview", name, "--dialect", "claude-code", "--workspace", ".", "--format", "json", cwd=tmp_path)
        got = json.loads(proc.stdout)
        assert (got["kind"], got["text"]) == ("not_found", want), proc.stdout
