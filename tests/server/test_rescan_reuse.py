"""A rescan after many file events re-reads only what they can affect -- and still what they can.

More than REINDEX_MAX events make the server rescan, reusing the results of skills the
events cannot have changed. A skill whose SKILL.md did not change but whose links leave its
folder (a shared note, a sibling skill) must be read again when those targets go: the
published diagnostics equal `check --format json` on the new tree, and a deleted folder
reported by one folder event leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

import bench_churn  # noqa: E402
import gen_workspace  # noqa: E402

LINKER = """---
name: linker
description: Links out of its folder. Use when testing rescans.
---
# Linker

Read [the notes](../../shared/notes.md) and [zeta](../zeta/SKILL.md) first.
"""
ZETA = "---\nname: zeta\ndescription: A sibling. Use when testing rescans.\n---\n# Zeta\n"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_rescan_rereads_skills_whose_outside_link_targets_changed(tmp_path: Path) -> None:
    ws = tmp_path / "repo"
    gen_workspace.generate(260, ws, seed=5, body_scale=0.1)
    (ws / gen_workspace.MANIFEST).unlink()
    for rel, text in {"skills/linker/SKILL.md": LINKER, "skills/zeta/SKILL.md": ZETA,
                      "shared/notes.md": "# Notes\n"}.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    bench_churn.git(ws, "init", "-q", "-b", "base")
    bench_churn.git(ws, "add", "-A")
    bench_churn.git(ws, "commit", "-q", "-m", "base")
    bench_churn.git(ws, "checkout", "-q", "-b", "churn")
    (ws / "shared" / "notes.md").unlink()
    shutil.rmtree(ws / "skills" / "zeta")
    rewritten = sorted(p for p in ws.glob("*/skills/*/SKILL.md"))[:210]
    for p in rewritten:
        p.write_text(p.read_text(encoding="utf-8") + "\ntrailing  \n", encoding="utf-8")
    bench_churn.git(ws, "add", "-A")
    bench_churn.git(ws, "commit", "-q", "-m", "churn")
    bench_churn.git(ws, "checkout", "-q", "base")
    # The editor reports the note, the vanished folder (one event, not its files) and the rewrites.
    events = [(str(ws / "shared" / "notes.md"), bench_churn.DELETED), (str(ws / "skills" / "zeta"), bench_churn.DELETED)]
    events += [(str(p), bench_churn.CHANGED) for p in rewritten]

    result = asyncio.run(bench_churn.run(ws, events, timeout=120, log=lambda *_: None))

    assert (result["missing"], result["extra"], result["stale_uris"]) == (0, 0, 0), result["examples"]
    assert result["converged_s"] is not None
    linker = (ws / "skills" / "linker" / "SKILL.md").as_uri()
    assert linker in {e[0] for e in bench_churn.expected(ws)}  # its links broke: check says so, and so did we
