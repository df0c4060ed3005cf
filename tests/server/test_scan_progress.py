"""Work-done progress through a first scan: the discovery walk, then the checks, then the end."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import capabilities, record_status, scan_done, uri, wait_for


@pytest.fixture
def deep_ws(tmp_path) -> Path:
    # 700 folders before the two skills: the walk reports itself every few hundred folders.
    ws = tmp_path / "tree"
    for i in range(700):
        (ws / "docs" / f"d{i:03}").mkdir(parents=True)
    for name in ("alpha", "beta"):
        (ws / ".claude/skills" / name).mkdir(parents=True)
        (ws / ".claude/skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: The {name} skill. Use it when testing progress.\n---\n# {name}\n",
            encoding="utf-8")
    return ws


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "skill_lsp", "serve"]))
async def client(lsp_client: LanguageClient, deep_ws: Path):
    record_status(lsp_client)
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=capabilities("visual-studio-code"),
        workspace_folders=[t.WorkspaceFolder(uri=uri(deep_ws), name="tree")],
    ))
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_a_first_scan_reports_the_walk_then_the_checks(client: LanguageClient):
    await wait_for(lambda: scan_done(client), timeout=30)
    await wait_for(lambda: any(isinstance(v, t.WorkDoneProgressEnd) for r in client.progress_reports.values()
                               for v in r), timeout=10)
    (reports,) = [r for r in client.progress_reports.values() if r and isinstance(r[0], t.WorkDoneProgressBegin)]
    assert reports[0].title == "skill-lsp: scanning skills"
    messages = [v.message for v in reports[1:] if isinstance(v, t.WorkDoneProgressReport)]
    walk = [m for m in messages if m and "looking for skills" in m]
    assert walk and walk[0].startswith("tree: looking for skills (") and walk[0].endswith(" folders)")
    assert isinstance(reports[-1], t.WorkDoneProgressEnd) and reports[-1].message == "2 skills checked"
