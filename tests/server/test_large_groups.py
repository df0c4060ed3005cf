"""Edits among large groups: an edit whose cross-skill findings reach more closed files than
``sync.TOUCHED_AT_ONCE`` sends them after the edited document, in turns, and every one of them
still ends as `check --format json` reports it (the oracle), however fast the edits come.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from skill_lsp.server.services import sync

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))
import bench_churn  # noqa: E402
from _common import skill_lsp_cmd  # noqa: E402
from lsp_client import LspClient, uri_of  # noqa: E402

COPIES = sync.TOUCHED_AT_ONCE + 16
# Too short a description to be compared (DESCRIPTION_OVERLAP): the name groups alone change.
SKILL = "---\nname: {name}\ndescription: Copy {i}.\n---\n\n# Notes\n"


def expected(ws: Path) -> set[tuple[str, str, str]]:
    """(file, code, message) of every finding `check --format json --no-cache` reports."""
    cmd = [*skill_lsp_cmd(), "check", "--format", "json", "--no-cache", str(ws)]
    data = json.loads(subprocess.run(cmd, capture_output=True, text=True, cwd=ws, timeout=300, check=False).stdout)
    return {(bench_churn._file(uri_of(f["path"])), f["code"], f["message"]) for f in data["findings"]
            if f["code"] != "LISTING_BUDGET"}


def published(c: LspClient) -> set[tuple[str, str, str]]:
    """(file, code, message) of every diagnostic the client holds now."""
    return {(bench_churn._file(u), d["code"], d["message"]) for u, (_, p) in c.diagnostics.items()
            for d in p.get("diagnostics", [])}


async def _converge(c: LspClient, want: set, what: object) -> None:
    t0 = time.perf_counter()
    while published(c) != want:
        assert time.perf_counter() - t0 < 30, (what, sorted(published(c) ^ want)[:3])
        await asyncio.sleep(0.05)


async def _type_names(ws: Path, edited: Path, rounds: list[list[str]], env: dict) -> tuple[list[str], int]:
    """Open ``edited`` and type each round of names into its name back to back (saving the last
    to disk too); after each round wait until the published diagnostics, messages included, are
    what `check` reports. Returns the scans and how many publishes the edits brought."""
    c = LspClient([*skill_lsp_cmd(), "serve"], cwd=ws, env=env, settings={"debounceMs": 0})
    try:
        await c.start()
        await c.initialize(ws, initialization_options={"debounceMs": 0}, timeout=60)
        await _converge(c, expected(ws), "the scan")
        uri = uri_of(edited)
        text = edited.read_text(encoding="utf-8")
        c.did_open(uri, text)
        before = c.publish_count
        version = 1
        for names in rounds:
            for name in names:
                version += 1
                text = text.replace(text.split("\n")[1], f"name: {name}", 1)
                fut = c.expect("textDocument/publishDiagnostics", lambda p, v=version: p.get("uri") == uri
                               and p.get("version") == v)
                c.did_change_full(uri, text, version)
                await c.wait(fut, 30)
            edited.write_text(text, encoding="utf-8")  # the oracle reads the disk: the same text
            await _converge(c, expected(ws), names)
        return c.scan_log(), c.publish_count - before
    finally:
        await c.stop()


def test_a_name_typed_among_many_copies_reaches_every_copy(tmp_path: Path) -> None:
    ws = tmp_path / "repo"
    for prefix, name in (("s", "same"), ("t", "other")):
        for i in range(COPIES):
            folder = ws / ".claude" / "skills" / f"{prefix}{i:03}"
            folder.mkdir(parents=True)
            (folder / "SKILL.md").write_text(SKILL.format(name=name, i=i), encoding="utf-8")
    env = {**os.environ, "SKILL_LSP_CACHE_DIR": str(tmp_path / "cache")}
    edited = ws / ".claude" / "skills" / "s000" / "SKILL.md"
    # s000 sorts first, so every copy of the group it leaves or joins names it in its
    # DUPLICATE_NAME: the first edit changes one group, the next the other while the first is
    # still being sent; the last round comes after those were sent.
    logs, publishes = asyncio.run(_type_names(ws, edited, [["solo", "other"], ["same"]], env))
    assert len(logs) == 1  # no rescan: the edits alone brought the copies up to date
    assert publishes >= 3 * (COPIES - 1)  # each group changed twice; edits that come together share a turn
