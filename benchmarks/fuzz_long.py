#!/usr/bin/env python3
"""Long fuzz run of the engine invariants (issue 7): not a test, a documented run.

Invariants checked on every input (tests/hardening/fuzzing.py: ``check_invariants``):
  * ``check_text`` returns findings, never raises;
  * every finding range lies inside the analysed text, and its offsets round-trip
    ``SourceText.position`` -> ``offset`` in UTF-8, UTF-16 and UTF-32;
  * ``fix_all_text`` is idempotent and adds no finding code (codes a syntax error
    hid may appear once the fix makes the frontmatter parse).

Two phases:
  1. hypothesis: generated SKILL.md-shaped text, arbitrary Unicode text and mixes
     (``--examples``, default 100,000);
  2. mutation: real SKILL.md texts from the corpus (``--corpus``, default
     ../shared/corpus) mutated by line insert/delete/duplicate/swap, byte flips and
     splices of ``---``, ``: ``, quotes, tabs, anchors, U+2028, NUL ... (``--mutations``,
     default 100,000).

Usage:
  python benchmarks/fuzz_long.py                          # 100k + 100k
  python benchmarks/fuzz_long.py --examples 2000 --mutations 2000 --seed 3
  python benchmarks/fuzz_long.py --minutes 20             # stop each phase at a time budget
  python benchmarks/fuzz_long.py --corpus /work/heldout/test --on-disk --examples 0
                                  # mutations of held-out skills, checked in their own folders

Failures are written to benchmarks/out/fuzz/failure-*.txt (the input, repr'd, and the
error) and counted; the exit status is 1 when any invariant failed. A JSON summary goes
to benchmarks/out/fuzz/summary-<seed>.json.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

from hardening.fuzzing import check_invariants, corpus_files, mutate, texts  # noqa: E402


class Run:
    def __init__(self, out: Path, seed: int) -> None:
        self.out = out
        self.seed = seed
        self.counts: collections.Counter[str] = collections.Counter()
        self.codes: collections.Counter[str] = collections.Counter()
        self.failures: list[dict] = []
        self.slowest: tuple[float, str] = (0.0, "")

    def one(self, phase: str, text: str, path: str | None = None) -> None:
        t0 = time.perf_counter()
        try:
            for code in (check_invariants(text) if path is None else check_invariants(text, path, on_disk=True)):
                self.codes[code] += 1
        except Exception as exc:  # noqa: BLE001 - every failure is recorded, the run goes on
            self.counts[f"{phase}-failed"] += 1
            key = f"{type(exc).__name__}: {str(exc)[:200]}"
            if len(self.failures) < 200 and all(f["error"] != key for f in self.failures):
                out = self.out / f"failure-{self.seed}-{len(self.failures)}.txt"
                out.write_text(repr(text) + "\n\n" + (f"at {path}\n" if path else "") + traceback.format_exc())
                self.failures.append({"phase": phase, "error": key, "file": str(out), "path": path})
                print(f"FAIL [{phase}] {key} -> {out}", flush=True)
        dt = time.perf_counter() - t0
        if dt > self.slowest[0]:
            self.slowest = (dt, repr(text[:200]))
        self.counts[phase] += 1


def hypothesis_phase(run: Run, examples: int, deadline: float) -> None:
    if examples <= 0:
        return
    from hypothesis import HealthCheck, Phase, given, settings  # noqa: PLC0415

    class Budget(Exception):
        pass

    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(texts)
    def prop(text: str) -> None:
        if time.monotonic() > deadline:
            raise Budget
        run.one("hypothesis", text)  # never raises: failures are recorded, not shrunk

    try:
        prop()
    except Budget:
        pass


def mutation_phase(run: Run, corpus: Path, mutations: int, deadline: float, rng: random.Random,
                   on_disk: bool = False) -> None:
    seeds = list(corpus_files(str(corpus)))
    if not seeds:
        print(f"no SKILL.md under {corpus}; mutation phase skipped", flush=True)
        return
    run.counts["corpus-seeds"] = len(seeds)
    for i in range(mutations):
        if time.monotonic() > deadline:
            break
        path, text = rng.choice(seeds)
        # Mostly small mutations of real files; sometimes a pile-up of many.
        run.one("mutation", mutate(text, rng, rounds=rng.choice([1, 1, 2, 3, 8, 20])), path if on_disk else None)
        if i % 10_000 == 0 and i:
            print(f"  mutation {i:,} failures={run.counts['mutation-failed']}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=100_000, help="hypothesis examples (default 100,000)")
    ap.add_argument("--mutations", type=int, default=100_000, help="corpus mutations (default 100,000)")
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=0, help="time budget per phase (0: none)")
    ap.add_argument("--on-disk", action="store_true",
                    help="mutation phase: check each mutated text as its real SKILL.md, the rules reading its "
                         "folder (links, scripts, listings; nothing is written)")
    ap.add_argument("--out", type=Path, default=HERE / "out" / "fuzz")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    run = Run(args.out, args.seed)
    budget = args.minutes * 60 if args.minutes > 0 else float("inf")
    t0 = time.monotonic()
    print(f"hypothesis phase: up to {args.examples:,} examples", flush=True)
    hypothesis_phase(run, args.examples, time.monotonic() + budget)
    t1 = time.monotonic()
    print(f"  {run.counts['hypothesis']:,} examples in {t1 - t0:.0f}s, failures={run.counts['hypothesis-failed']}",
          flush=True)
    print(f"mutation phase: up to {args.mutations:,} mutations of {args.corpus}", flush=True)
    mutation_phase(run, args.corpus, args.mutations, time.monotonic() + budget, random.Random(args.seed),
                   args.on_disk)
    t2 = time.monotonic()
    print(f"  {run.counts['mutation']:,} mutations in {t2 - t1:.0f}s, failures={run.counts['mutation-failed']}",
          flush=True)
    summary = {
        "seed": args.seed, "counts": dict(run.counts), "seconds": round(t2 - t0, 1),
        "failures": run.failures, "slowest_input_s": round(run.slowest[0], 4), "slowest_input": run.slowest[1],
        "finding_codes_seen": dict(run.codes.most_common()),
    }
    (args.out / f"summary-{args.seed}.json").write_text(json.dumps(summary, indent=2))
    print(json.dumps({k: summary[k] for k in ("counts", "seconds", "slowest_input_s")}, indent=None))
    return 1 if run.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
