#!/usr/bin/env python3
"""What one skill costs a scan worker, in one process: a first pass and a complete check job.

    python benchmarks/bench_skill_cost.py WORKSPACE [--skills N] [--reps R] [--against SRC]
    python benchmarks/bench_skill_cost.py WORKSPACE --instructions [--skills N] [--against SRC]

Runs ``scanjob.first_job`` and ``scanjob.check_job`` (what the server's scan workers run: the
check, the folder stamp, the rendered diagnostics, the pickled result) over the first N skills
discovery finds in WORKSPACE, R times, and prints microseconds per skill (the minimum over the
repetitions: the host's other tenants only ever add time). ``--against SRC`` runs the same in
a child process on another source tree (a ``git worktree`` of an older commit: its ``src``),
alternating with this one, so a change is measured against its parent on the same hour of the
host. Measures the engine where a workspace scan spends its time, without the server, its
threads or the pool around it.

``--instructions``: instead of times, the instructions (callgrind, user space) one skill's job
executes, over N skills spread evenly through the workspace (the run's start-up, imports and
warm-up subtracted: a run of no skills), for the scan's check job and for `check --format json`'s
(``workspace.check_job`` with fixes). They do not move with the host's load: a change of 1 % shows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(workspace: str, skills: int) -> dict[str, float]:
    """µs per skill of one pass of each job over the first ``skills`` skills (this process's engine)."""
    from skill_lsp.engine import discover, rules
    from skill_lsp.engine.config import Settings
    from skill_lsp.server.services import scanjob

    settings = Settings()
    locations = list(discover.discover(workspace, settings).all)[:skills]
    if not locations:
        raise SystemExit(f"no skills under {workspace}")
    rules.load_all()  # what a worker's forkserver loads before it forks
    flavour = ("UTF16", True)
    out: dict[str, float] = {"skills": len(locations)}
    for name, job in (("first", lambda loc: scanjob.first_job((loc, settings, flavour))),
                      ("check", lambda loc: scanjob.check_job((loc, settings, None, flavour)))):
        for loc in locations[:50]:
            job(loc)  # warm: imports, compiled patterns, the file system's caches
        t0 = time.process_time()
        for loc in locations:
            job(loc)
        out[name] = (time.process_time() - t0) / len(locations) * 1e6
    return out


def run_jobs(workspace: str, job: str, skills: int) -> None:
    """Run ``job`` ("scan" or "cli") on ``skills`` skills spread through the workspace, after a
    warm-up on others (imports, compiled patterns): what ``--instructions`` counts."""
    from skill_lsp.engine import discover, rules
    from skill_lsp.engine import workspace as ws
    from skill_lsp.engine.config import Settings
    from skill_lsp.engine.rules.context import listings_kept
    from skill_lsp.server.services import scanjob

    settings = Settings()
    locations = list(discover.discover(workspace, settings).all)
    rules.load_all()
    listings_kept(True)  # as `check` runs
    if job == "scan":
        def one(loc):
            return scanjob.check_job((loc, settings, None, ("UTF16", True)))
    else:
        def one(loc):
            return ws.check_job((loc, settings, True))
    for loc in locations[1::50]:
        one(loc)
    step = max(1, len(locations) // max(1, skills))
    for loc in locations[::step][:skills]:
        one(loc)


def instructions(src: str | None, workspace: str, job: str, skills: int) -> float | None:
    """Instructions a skill of ``job`` executes (M), or None without valgrind."""
    sys.path.insert(0, str(HERE))
    from bench_startup import callgrind_instructions

    env = {"PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")} if src is not None else None
    counts = [callgrind_instructions([sys.executable, __file__, workspace, "--jobs-only", job, "--skills", str(n)],
                                     env=env, timeout=3600) for n in (0, skills)]
    if None in counts:
        return None
    return (counts[1] - counts[0]) / skills / 1e6  # type: ignore[operator]


def child(src: str | None, workspace: str, skills: int) -> dict[str, float]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, __file__, workspace, "--skills", str(skills), "--once"],
                       capture_output=True, text=True, env=env, check=True, timeout=1800)
    return json.loads(p.stdout)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workspace")
    ap.add_argument("--skills", type=int, default=3000)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--against", default=None, help="another source tree to alternate with (its src folder)")
    ap.add_argument("--instructions", action="store_true",
                    help="instructions per skill (callgrind) instead of times; --skills spread through the workspace")
    ap.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--jobs-only", choices=("scan", "cli"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.once:
        print(json.dumps(measure(a.workspace, a.skills)))
        return
    if a.jobs_only:
        run_jobs(a.workspace, a.jobs_only, a.skills)
        return
    if a.instructions:
        print(f"{a.workspace}: M instructions a skill's job, over {a.skills} skills (callgrind)")
        print("| tree | scan check job | `check --format json` job |")
        print("|---|---|---|")
        for side, src in ({"this": None} if a.against is None else {a.against: a.against, "this": None}).items():
            got = [instructions(src, a.workspace, job, a.skills) for job in ("scan", "cli")]
            print(f"| {side} | " + " | ".join("valgrind missing" if g is None else f"{g:.3f}" for g in got) + " |")
        return
    sides = {"this": None} if a.against is None else {"against": a.against, "this": None}
    best: dict[str, dict[str, float]] = {}
    for _ in range(a.reps):
        for side, src in sides.items():
            got = child(src, a.workspace, a.skills)
            mine = best.setdefault(side, dict(got))
            for k in ("first", "check"):
                mine[k] = min(mine[k], got[k])
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    print(f"{a.workspace}: {int(next(iter(best.values()))['skills'])} skills, min of {a.reps}, load {load}")
    print("| tree | first pass µs/skill | check job µs/skill |")
    print("|---|---|---|")
    for side, r in best.items():
        print(f"| {side if side == 'this' else a.against} | {r['first']:.1f} | {r['check']:.1f} |")


if __name__ == "__main__":
    main()
