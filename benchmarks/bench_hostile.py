"""Time budgets for hostile input (the hardening suite proves "bounded"; this measures how fast).

    python benchmarks/bench_hostile.py            # best of 3 per case
    python benchmarks/bench_hostile.py --reps 5

Checks every case of tests/hardening/hostile_cases.py in process (target 100 ms each,
budget 1 s), the two oversized texts (budget 1 s; the 20 MB file on disk 5 s) and
`skill-lsp check` over a root holding all the cases (budget 60 s). Writes
benchmarks/out/bench_hostile.{json,md}; exits 1 when a case is over its budget.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "hardening"))

from _common import DEFAULT_OUT, machine_info, md_table  # noqa: E402
from hostile_cases import BYTE_CASES, FM, TEXT_CASES, YAML_CASES  # noqa: E402

from skill_lsp.engine.config import Settings  # noqa: E402
from skill_lsp.engine.workspace import check_file, check_text  # noqa: E402

TARGET_S = 0.1
CASE_BUDGET_S = 1.0
BIG_FILE_BUDGET_S = 5.0
CLI_BUDGET_S = 60.0
SETTINGS = Settings()


def best_of(reps: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def write_cases(root: Path) -> int:
    n = 0
    for prefix, cases in (("y", YAML_CASES), ("t", TEXT_CASES), ("b", BYTE_CASES)):
        for i, name in enumerate(sorted(cases)):
            data = cases[name][0]
            d = root / f"{prefix}{i}"
            d.mkdir(parents=True)
            (d / "SKILL.md").write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
            n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)

    rows: list[dict] = []

    def measure(label: str, budget: float, fn: Callable[[], object]) -> None:
        s = best_of(args.reps, fn)
        rows.append({"case": label, "seconds": round(s, 4), "budget_s": budget, "within": s <= budget})

    for kind, cases in (("yaml", YAML_CASES), ("text", TEXT_CASES)):
        for name, (text, _) in sorted(cases.items()):
            measure(f"{kind}: {name}", CASE_BUDGET_S,
                    lambda text=text: check_text(text, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    ten_mb = FM.replace("Does a thing", "x" * 10_000_000) + "---\nbody\n"
    measure("text: 10 MB single-line value", CASE_BUDGET_S,
            lambda: check_text(ten_mb, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    big_fm = FM.replace("Does a thing", "x" * 600_000) + "---\nbody\n"
    measure("text: 600 KB frontmatter", CASE_BUDGET_S,
            lambda: check_text(big_fm, "/v/demo/SKILL.md", SETTINGS, on_disk=False))
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp, "skills", "demo", "SKILL.md")
        big.parent.mkdir(parents=True)
        big.write_bytes((FM + "---\n" + ("A line of body text. " * 4 + "\n") * 220_000).encode())
        measure("file: 20 MB SKILL.md", BIG_FILE_BUDGET_S, lambda: check_file(str(big), SETTINGS))
        root = Path(tmp, "ws", ".agents", "skills")
        n = write_cases(root)
        cmd = [sys.executable, "-m", "skill_lsp", "check", "--format", "json", str(root.parent.parent)]
        measure(f"cli: check over {n} hostile skills", CLI_BUDGET_S,
                lambda: subprocess.run(cmd, capture_output=True, timeout=CLI_BUDGET_S * 2))

    over = [r for r in rows if not r["within"]]
    over_target = [r for r in rows if r["case"].startswith(("yaml", "text")) and r["seconds"] > TARGET_S]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench_hostile.json").write_text(json.dumps(
        {"machine": machine_info(), "reps": args.reps, "target_s": TARGET_S, "rows": rows}, indent=2) + "\n")
    table = md_table(["case", "best s", "budget s", "within"],
                     [[r["case"], r["seconds"], r["budget_s"], "yes" if r["within"] else "**NO**"] for r in rows])
    (args.out / "bench_hostile.md").write_text(table + "\n")
    print(table)
    print(f"\n{len(rows)} cases; {len(over)} over budget; {len(over_target)} in-process cases over the "
          f"{int(TARGET_S * 1000)} ms target")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
