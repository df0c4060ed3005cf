"""A `git checkout` changing 500 SKILL.md files under the running server (bench_churn at test size).

Added, removed, renamed and rewritten skills, in roots and nested plugin layouts: after the
watched-file events, the published diagnostics equal `check --format json` on the new tree
exactly, and no deleted or renamed file keeps diagnostics. No timing is asserted here.

The events come in two batches 0.2 s apart (500, then 125), as a watcher reports a checkout
while it runs: the second arrives while the scan the first started is running. (A later batch
used to cancel the task applying the earlier one, killing its scan; the 125 were then re-read
alone and the 500 never.)
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


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_checkout_of_500_changed_files_converges_to_check(tmp_path: Path) -> None:
    ws = tmp_path / "repo"
    events = bench_churn.prepare(ws, skills=600, changed=500, seed=3)
    kinds = {k for _, k in events}
    assert kinds == {bench_churn.CREATED, bench_churn.CHANGED, bench_churn.DELETED}
    assert len(events) == 625
    result = asyncio.run(bench_churn.run(ws, events, timeout=240, log=lambda *_: None, spread=0.2))
    assert (result["missing"], result["extra"], result["stale_uris"]) == (0, 0, 0), result["examples"]
    assert result["converged_s"] is not None
    assert result["expected_findings"] > 500
