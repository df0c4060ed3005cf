"""The editor sees exactly what `check` sees (issue 11): same skills, same findings, same ranges.

A generated workspace with skills in the roots and in nested plugin layouts
(``plugins/*/skills/*/SKILL.md``), plus hand-made nested cases; the set of
(file, code, range) the server publishes after its scan must equal the set
`skill-lsp check --format json` reports, and the status item must count the
same skills.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import record_status, scan_done, wait_for

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

import gen_workspace  # noqa: E402


@pytest.fixture(scope="module")
def nested_ws(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("parity") / "ws"
    gen_workspace.generate(160, ws, seed=7, body_scale=0.2, nested=0.35)
    extra = {
        # Deeper than any root, misnamed: NAME_MISMATCH must show in the editor too.
        "plugins/deep/skills/misnamed/SKILL.md": "---\nname: other-name\ndescription: Does x. Use when y.\n---\n# B\n",
        # Same name in two plugins: not in a root, so no cross-skill finding on either side.
        "plugins/a/skills/same/SKILL.md": "---\nname: same\ndescription: A. Use when a.\n---\nSee [x](nope.md)\n",
        "plugins/b/skills/same/SKILL.md": "---\nname: same\ndescription: B. Use when b.\n---\ntrailing  \n",
        # A loose skill folder at an arbitrary depth.
        "docs/examples/demo/SKILL.md": "---\nname: demo\n---\n# no description\n",
        # Ignored folders are never scanned by either side.
        "node_modules/pkg/skills/hidden/SKILL.md": "---\nname: Hidden\n---\n",
    }
    for rel, text in extra.items():
        p = ws / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    # One file at two places (a skill folder linked from another root): each finding once, at the
    # place reached without the link, and what only Claude Code's profile finds at the link.
    linked = ws / ".agents/skills/linked-twice/SKILL.md"
    linked.parent.mkdir(parents=True, exist_ok=True)
    linked.write_text("---\nname: linked-twice-x\ndescription: GitHub CLI reference for issues, pull requests and "
                      "releases of a repository.\n---\n# Linked   \n\nSee [x](/etc/passwd).\n", encoding="utf-8")
    (ws / ".claude/skills").mkdir(parents=True, exist_ok=True)
    (ws / ".claude/skills/linked-twice").symlink_to("../../.agents/skills/linked-twice", target_is_directory=True)
    return ws


def cli_findings(ws: Path) -> tuple[set, int]:
    res = subprocess.run([sys.executable, "-m", "skill_lsp", "check", "--format", "json", str(ws)],
                         capture_output=True, text=True, cwd=ws, timeout=300, check=False)
    data = json.loads(res.stdout)
    # LISTING_BUDGET weighs every skill of the workspace: `check` reports it, the editor shows the
    # same decisions in hover and code lens (tests/server/test_listing_decisions.py).
    rows = {(f["path"], f["code"], json.dumps(f["range"], sort_keys=True)) for f in data["findings"]
            if f["code"] != "LISTING_BUDGET"}
    return rows, data["summary"]["skills"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def parity_client(lsp_client: LanguageClient, nested_ws: Path):
    record_status(lsp_client)

    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[t.WorkspaceFolder(uri=nested_ws.as_uri(), name="ws")]))
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_server_publishes_exactly_what_check_reports(parity_client, nested_ws: Path):
    expected, skills = cli_findings(nested_ws)
    nested = {p for p, _, _ in expected if "/plugins/" in p}
    assert nested, "the generated workspace must have findings in nested plugin layouts"
    assert any(code == "NAME_MISMATCH" and p.endswith("deep/skills/misnamed/SKILL.md") for p, code, _ in expected)
    assert not any("node_modules" in p for p, _, _ in expected)
    twice = {(p.split("/ws/")[1], code) for p, code, _ in expected if "linked-twice" in p}
    # NAME_MISMATCH: information at .agents, a warning for Claude Code: once, where it is worst.
    assert twice == {(".agents/skills/linked-twice/SKILL.md", "TRAILING_WHITESPACE"),
                     (".agents/skills/linked-twice/SKILL.md", "ABSOLUTE_LINK"),
                     (".claude/skills/linked-twice/SKILL.md", "DESCRIPTION_NO_TRIGGER"),
                     (".claude/skills/linked-twice/SKILL.md", "NAME_MISMATCH")}

    await wait_for(lambda: scan_done(parity_client), timeout=60)
    published = set()
    for uri, diags in parity_client.diagnostics.items():  # the latest per URI
        path = uri.removeprefix("file://")
        for d in diags:
            rng = {"start": {"line": d.range.start.line, "character": d.range.start.character},
                   "end": {"line": d.range.end.line, "character": d.range.end.character}}
            published.add((path, d.code, json.dumps(rng, sort_keys=True)))
    assert published - expected == set()
    assert expected - published == set()

    status = [p for _, p in parity_client.notifications_seen if not getattr(p, "scanning", True)]  # type: ignore[attr-defined]
    assert getattr(status[-1], "skills", None) == skills
