#!/usr/bin/env python3
"""What the rule-depth rules (issue 12) cost `check` on the corpus: this tree against a base revision.

    python benchmarks/bench_rule_depth.py                  # base 2ebfa4f, 6 interleaved reps
    python benchmarks/bench_rule_depth.py --base HEAD~3 --reps 10 --profile claude-code

The base revision's ``src`` is exported with ``git archive`` into a temporary folder and
put first on ``PYTHONPATH``; both trees run with this interpreter. Per rep and tree, in
alternation: ``python -m skill_lsp check CORPUS --format json`` (wall time, and CPU time
of the process and its workers from ``RUSAGE_CHILDREN``), then an in-process pass of
``check_file`` over every SKILL.md (CPU time, best of 3). CPU time is the steadier
figure on a shared machine; the ratio is what the budget in docs/performance.md checks.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import CORPUS, REPO  # noqa: E402

INPROC = r"""
import sys, time
from pathlib import Path
from skill_lsp.engine.config import Settings
from skill_lsp.engine.workspace import check_file
files = [str(p) for p in sorted(Path(sys.argv[1]).rglob("SKILL.md"))]
s = Settings(profile=sys.argv[2])
best = 1e9
for _ in range(3):
    t = time.process_time()
    for p in files:
        check_file(p, s)
    best = min(best, time.process_time() - t)
print(best)
"""


def cli(src: str, corpus: str, profile: str) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "skill_lsp", "check", corpus, "--format", "json", "--fail-on", "never",
                    "--profile", profile], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def inproc(src: str, corpus: str, profile: str) -> float:
    out = subprocess.run([sys.executable, "-c", INPROC, corpus, profile], env=dict(os.environ, PYTHONPATH=src),
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="2ebfa4f", help="revision before the rule-depth work")
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--corpus", default=str(CORPUS))
    ap.add_argument("--profile", default="skill-tool")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.base, "src"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        trees = {"base": str(Path(tmp) / "src"), "new": str(REPO / "src")}
        res: dict[str, dict[str, list[float]]] = {k: {"wall": [], "cpu": [], "inproc": []} for k in trees}
        for _ in range(args.reps):
            for name, src in trees.items():
                wall, cpu = cli(src, args.corpus, args.profile)
                res[name]["wall"].append(wall)
                res[name]["cpu"].append(cpu)
                res[name]["inproc"].append(inproc(src, args.corpus, args.profile))
    print(f"profile {args.profile}, {args.reps} interleaved reps, load {os.getloadavg()[0]:.1f}")
    print("| tree | CLI wall s (median / min) | CLI CPU s (median / min) | in-process CPU s (median / min) |")
    print("|---|---|---|---|")
    for name, r in res.items():
        cells = [f"{statistics.median(v):.3f} / {min(v):.3f}" for v in (r["wall"], r["cpu"], r["inproc"])]
        print(f"| {name} | " + " | ".join(cells) + " |")
    for key in ("wall", "cpu", "inproc"):
        ratio = statistics.median(res["new"][key]) / statistics.median(res["base"][key])
        print(f"{key}: new / base = {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
