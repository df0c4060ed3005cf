#!/usr/bin/env python3
"""Scan workers below the editor's priority: what it costs and what it saves (issue 28 item 7).

The server's scan workers run at ``nice 10`` (SKILL_LSP_WORKER_NICE). This runs bench_server.py's
scan phase (a real-size workspace, first open, typing in a 200-line document while it is scanned)
with the workers at each priority of ``--ways`` (nice 10, the editor's priority, Linux's SCHED_IDLE
class), each on a quiet machine and beside a competing load at normal priority (one busy process
per core, as a build or test run in another terminal would be). It reports, per way, the median
times to every error and to complete diagnostics after `initialized` (scans without typing: a scan
yields to keystrokes), the largest gap between progress reports, and the keystroke → diagnostics
p95 while a scan runs (scans with typing).

    python benchmarks/bench_priority.py [--skills 10000] [--reps 2] [--ways 10,0,idle] [--out DIR]

The competing processes stop by themselves (``--load-s`` seconds, at most 600) and are killed when
the run ends.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _spin(until: float) -> None:
    x = 0
    while time.monotonic() < until:
        x = (x * 31 + 7) % 1_000_003


def _load(cores: int, seconds: float) -> list[multiprocessing.Process]:
    until = time.monotonic() + min(seconds, 600.0)
    procs = [multiprocessing.Process(target=_spin, args=(until,), daemon=True) for _ in range(cores)]
    for p in procs:
        p.start()
    return procs


def _scans(out: Path, typing: int, nice: str, a: argparse.Namespace) -> list[dict]:
    """bench_server.py's scan runs for one way (typing or not), under the load already running."""
    env = {**os.environ, "SKILL_LSP_WORKER_NICE": nice}
    cmd = [sys.executable, str(HERE / "bench_server.py"), "--only", "scan", "--scan-kind", "realistic",
           "--scan-sizes", str(a.skills), "--scan-reps", str(a.reps), "--scan-cache", "cold",
           "--scan-typing", str(typing), "--out", str(out)]
    if a.work is not None:
        cmd += ["--work", str(a.work)]
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, timeout=a.load_s + 60)
    data = json.loads((out / "bench_server.json").read_text(encoding="utf-8"))
    return [r for s in data["phases"]["scan"].values() for r in s["runs"]]


def run(way: str, nice: str, loaded: bool, a: argparse.Namespace) -> dict:
    # The scan's own time without typing (a scan yields to keystrokes, so typing would time the
    # typing), then keystrokes while it runs.
    procs = _load(os.cpu_count() or 2, a.load_s) if loaded else []
    try:
        quiet = _scans(a.out / way / "scan", 0, nice, a)
        typed = _scans(a.out / way / "typing", a.typing, nice, a)
    finally:
        for p in procs:
            p.kill()
    complete = [r["complete_s"] - r["initialize_s"] for r in quiet
                if r.get("complete_s") is not None and r.get("initialize_s") is not None]
    errors = [r["errors_published_s"] - r["initialize_s"] for r in quiet
              if r.get("errors_published_s") is not None and r.get("initialize_s") is not None]
    p95 = [r["typing_while_scanning"]["p95_ms"] for r in typed
           if (r.get("typing_while_scanning") or {}).get("p95_ms") is not None]
    gaps = [r["progress_max_gap_s"] for r in quiet if r.get("progress_max_gap_s") is not None]
    return {"way": way, "nice": nice, "loaded": loaded, "runs": len(quiet) + len(typed),
            "complete_s": statistics.median(complete) if complete else None,
            "errors_s": statistics.median(errors) if errors else None,
            "progress_max_gap_s": max(gaps) if gaps else None,
            "keystroke_p95_ms": max(p95) if p95 else None,
            "load": [r.get("load_start") for r in quiet + typed]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--skills", type=int, default=10000)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--typing", type=int, default=400)
    ap.add_argument("--load-s", type=float, default=300.0, help="bound on the competing load, s")
    ap.add_argument("--work", type=Path, default=None, help="generated workspaces (bench_server.py --work)")
    ap.add_argument("--out", type=Path, default=Path("/tmp/bench-priority"))
    ap.add_argument("--ways", default="10,0", help="worker priorities to compare, comma-separated: nice "
                    "increments, or idle (SCHED_IDLE)")
    ap.add_argument("--machine", default="quiet,loaded", help="quiet, loaded (a competing load) or both")
    a = ap.parse_args(argv)
    machines = [m == "loaded" for m in a.machine.split(",")]
    rows = [run(f"nice{n}-{'loaded' if loaded else 'quiet'}", n, loaded, a) for loaded in machines
            for n in a.ways.split(",")]
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "bench_priority.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print("| workers | machine | errors published s | complete s | keystroke p95 ms (worst run) | "
          "largest progress gap s | load |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        who = "SCHED_IDLE" if r["nice"] == "idle" else f"nice {r['nice']}"
        print(f"| {who} | {'competing load' if r['loaded'] else 'quiet'} | {r['errors_s']:.2f} | "
              f"{r['complete_s']:.2f} | {r['keystroke_p95_ms']:.2f} | {r['progress_max_gap_s']} | "
              f"{', '.join(map(str, r['load']))} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
