"""Reopening a workspace: results of the last session are used while nothing they read changed.

The oracle is `check --format json --no-cache`, which reads no cache: after files changed
between two sessions, the second session's diagnostics still equal it, and only the
skills the change reached were checked again.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import re
import sys
import time
from pathlib import Path

import pytest

from skill_lsp.engine import resultcache

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

import bench_churn  # noqa: E402
import gen_workspace  # noqa: E402
from _common import skill_lsp_cmd  # noqa: E402
from lsp_client import LspClient  # noqa: E402

LINKER = """---
name: linker
description: Links out of its folder. Use when testing the result cache.
---
# Linker

Read [the notes](../../shared/notes.md) first.
"""
_LOG = re.compile(r"scan: ([\d,]+) skills .*?([\d,]+) from the cache\)")


def _stored(cache: Path) -> set[str]:
    """The SKILL.md paths the cache holds a result for (every shard's index)."""
    (folder,) = cache.glob("results-*")
    out: set[str] = set()
    for shard in folder.glob("*.pickle"):
        with shard.open("rb") as f:
            _fmt, _key, index = pickle.load(f)  # a test's own cache: trusted
        out |= set(index)
    return out


async def _session(ws: Path, env: dict, timeout: float = 90) -> tuple[set, int, int]:
    """Open ``ws``, wait for the scan, return (published findings, skills, results from the cache)."""
    c = LspClient([*skill_lsp_cmd(), "serve"], cwd=ws, env=env, settings={"debounceMs": 0})
    try:
        await c.start()
        await c.initialize(ws, initialization_options={"debounceMs": 0}, timeout=60)
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < timeout:
            logs = [m.group(1, 2) for _, method, p in c.notifications if method == "window/logMessage"
                    and (m := _LOG.search(p.get("message", "")))]
            if logs:  # logged after the last cache shard is written
                return bench_churn.published(c), *(int(x.replace(",", "")) for x in logs[0])
            await asyncio.sleep(0.05)
        raise AssertionError("the scan never finished")
    finally:
        await c.stop()


@pytest.mark.parametrize("skills", [40, 320])  # the scan in this process, and in worker processes
def test_second_session_reuses_unchanged_results_and_equals_check(tmp_path: Path, skills: int) -> None:
    ws = tmp_path / "repo"
    gen_workspace.generate(skills, ws, seed=11, body_scale=0.1)
    (ws / gen_workspace.MANIFEST).unlink()
    for rel, text in {"skills/linker/SKILL.md": LINKER, "shared/notes.md": "# Notes\n"}.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    env = {**os.environ, "SKILL_LSP_CACHE_DIR": str(tmp_path / "cache")}
    time.sleep(resultcache.RACY_S + 0.2)  # files written within the racy window are never cached

    first, total, cached = asyncio.run(_session(ws, env))
    assert first == bench_churn.expected(ws)
    assert cached == 0 and total == skills + 1

    # Between sessions: three skills gain a broken link, the linker's outside target goes.
    rewritten = sorted(ws.glob("*/skills/*/SKILL.md"))[:3]
    for p in rewritten:
        p.write_text(f"---\nname: {p.parent.name}\ndescription: Rewritten. Use when testing the cache.\n---\n"
                     "See [gone](references/gone.md).\n", encoding="utf-8")
    (ws / "shared" / "notes.md").unlink()

    second, total, cached = asyncio.run(_session(ws, env))
    want = bench_churn.expected(ws)
    assert second == want, sorted(second ^ want)[:4]
    assert cached == skills + 1 - len(rewritten) - 1
    linker = (ws / "skills" / "linker" / "SKILL.md").as_uri()
    assert any(uri == linker for uri, *_ in want - first)  # its link broke, and the server saw it
    assert all(any(uri == p.as_uri() for uri, *_ in want - first) for p in rewritten)

    # A third session with nothing changed takes every result from the cache: all but those the
    # second stored no result for. A rewritten file checked within the racy window is never stored;
    # one checked later (a slow start under load) is. Every other result is stored.
    stored = _stored(tmp_path / "cache")
    assert len(stored) == skills + 1 - sum(str(p) not in stored for p in rewritten)
    third, total, cached = asyncio.run(_session(ws, env))
    assert third == want
    assert cached == len(stored)

    # Other settings (a severity turned off in the workspace's config): nothing cached applies.
    (ws / ".skill-lsp.toml").write_text('[severity]\nBROKEN_LINK = "off"\n', encoding="utf-8")
    fourth, total, cached = asyncio.run(_session(ws, env))
    assert cached == 0
    assert fourth == bench_churn.expected(ws) != want
    assert not any(code == "BROKEN_LINK" for _, code, _ in fourth)


def test_damaged_cache_entries_are_checked_again(tmp_path: Path) -> None:
    ws = tmp_path / "repo"
    gen_workspace.generate(30, ws, seed=12, body_scale=0.1)
    (ws / gen_workspace.MANIFEST).unlink()
    env = {**os.environ, "SKILL_LSP_CACHE_DIR": str(tmp_path / "cache")}
    time.sleep(resultcache.RACY_S + 0.2)
    first, total, cached = asyncio.run(_session(ws, env))
    assert cached == 0
    # Every payload of one shard replaced by bytes that are no pickle; the index stays readable.
    shard = max((tmp_path / "cache").glob("results-*/*.pickle"), key=lambda p: p.stat().st_size)
    with shard.open("rb") as f:
        head, payloads = pickle.load(f), pickle.load(f)
    with shard.open("wb") as f:
        pickle.dump(head, f)
        pickle.dump({p: b"not a pickle" for p in payloads}, f)
    second, total, cached = asyncio.run(_session(ws, env))
    assert second == first == bench_churn.expected(ws)
    assert cached == total - len(payloads) and len(payloads) > 0
