#!/usr/bin/env python3
"""Wall time and peak RSS of ``skill-lsp check`` against its peers.

    python benchmarks/bench_check.py                      # everything (≈ 30-60 min with skillsaw)
    python benchmarks/bench_check.py --only floor,corpus  # a subset
    python benchmarks/bench_check.py --quick              # tiny sizes, 1 rep (smoke)

Every measured command runs in a fresh subprocess; wall time is perf_counter
around spawn → exit, peak RSS is that child's ``ru_maxrss`` from ``wait4``.
Tables show the median of ``--reps`` runs (slow peers: one run, noted).

Phases (``--only``):

* ``floor``  – ``python -c pass``, ``python -c 'import pygls.lsp.server'``,
  ``skill-lsp --version`` and ``skill-lsp check`` on an empty folder, plus an
  import check: the CLI must not import pygls / lsprotocol.
* ``corpus`` – the read-only corpus (``--corpus``, default /work/shared/corpus).
* ``sizes``  – generated workspaces of ``--sizes`` skills (default 1k/10k/30k).
* ``growth`` – ``--scale-count`` skills with bodies ×``--scales`` (default ×1 ×4 ×16).

Tools: ``skill-lsp check --format json --no-cache PATH`` (every skill checked), then the same
without ``--no-cache`` after a run that kept its results (both with a cache folder of the
benchmark's own); ``agnix --max-files 0 --format
json validate PATH``; ``skillsaw lint --format json --no-progress PATH``;
skills-ref's in-process ``skills_ref.validator.validate()`` over each skill
folder, timed per skill inside one fresh interpreter.  A peer that is not
installed is skipped.

Output: ``OUT/bench_check.json`` and ``OUT/bench_check.md`` (and
``bench_check.png`` when matplotlib is importable and ``--plot`` is given).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_workspace  # noqa: E402
from _common import (  # noqa: E402
    CORPUS,
    DEFAULT_OUT,
    Series,
    compile_bytecode,
    count_skills,
    exit_on_sigterm,
    interpreter,
    loadavg,
    machine_info,
    md_table,
    run_child,
    skill_lsp_cmd,
    tree_bytes,
    venv_bin,
    versions,
    write_outputs,
)

SKILLS_REF_SCRIPT = r"""
import json, os, sys, time
from pathlib import Path
t0 = time.perf_counter()
from skills_ref.validator import validate
t1 = time.perf_counter()
root = sys.argv[1]
dirs = [dp for dp, dn, fn in os.walk(root) if "SKILL.md" in fn or "skill.md" in fn]
dirs.sort()
t2 = time.perf_counter()
errors = 0
for d in dirs:
    errors += len(validate(Path(d)))
t3 = time.perf_counter()
n = max(len(dirs), 1)
print(json.dumps({"skills": len(dirs), "errors": errors, "import_s": t1 - t0, "walk_s": t2 - t1,
                  "validate_s": t3 - t2, "per_skill_ms": (t3 - t2) / n * 1000}))
"""

# The same measurement for skill-lsp: the walk is timed apart from the checks, as above.
SKILL_LSP_INPROC_SCRIPT = r"""
import json, os, sys, time
t0 = time.perf_counter()
from skill_lsp.engine import discovery
from skill_lsp.engine.config import Settings
from skill_lsp.engine.workspace import check_file
t1 = time.perf_counter()
root = sys.argv[1]
found = discovery.find_skill_files(root)
t2 = time.perf_counter()
settings, findings = Settings(), 0
for md, _real in found:
    findings += len(check_file(md, settings).findings)
t3 = time.perf_counter()
n = max(len(found), 1)
print(json.dumps({"skills": len(found), "findings": findings, "import_s": t1 - t0, "walk_s": t2 - t1,
                  "validate_s": t3 - t2, "per_skill_ms": (t3 - t2) / n * 1000}))
"""

ALL_PEERS = ("agnix", "skillsaw", "skills-ref")


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.a = args
        self.slsp = skill_lsp_cmd(args.skill_lsp)
        self.peers: dict[str, list[str] | None] = {}
        want = [p for p in args.peers.split(",") if p] if args.peers else []
        for p in want:
            if p == "agnix":
                exe = venv_bin("agnix")
                self.peers[p] = (
                    [exe, "--max-files", "0", "--format", "json", "validate"] if exe else None
                )
            elif p == "skillsaw":
                exe = venv_bin("skillsaw")
                self.peers[p] = [exe, "lint", "--format", "json", "--no-progress"] if exe else None
            elif p == "skills-ref":
                ok = (
                    subprocess.run(
                        [sys.executable, "-c", "import skills_ref.validator"], capture_output=True
                    ).returncode
                    == 0
                )
                self.peers[p] = [sys.executable, "-c", SKILLS_REF_SCRIPT] if ok else None
            else:
                raise SystemExit(f"unknown peer {p!r}; known: {', '.join(ALL_PEERS)}")
        self.results: dict = {
            "machine": machine_info(),
            "versions": versions(),
            "skill_lsp_cmd": self.slsp,
            "peers": {k: v for k, v in self.peers.items()},
            "reps": args.reps,
            "datasets": {},
            "floor": {},
            "import_check": {},
        }
        self.timed_out: set[str] = set()

    # -- one measured series ------------------------------------------------
    def series(
        self,
        label: str,
        cmd: list[str],
        cwd: Path | None,
        reps: int,
        *,
        parse_json: bool = False,
        inner: bool = False,
        env: dict | None = None,
    ) -> Series:
        s = Series(label)
        s.inner = []
        for i in range(reps):
            r = run_child(cmd, cwd=cwd, timeout=self.a.timeout, keep_stdout=parse_json or inner, env=env)
            s.runs.append(r)
            if r.timed_out:
                s.note = f"timed out after {self.a.timeout:.0f} s"
                break
            if inner:
                try:
                    s.inner.append(json.loads(r.stdout))
                except ValueError:
                    s.note = "no JSON from the in-process script: " + r.stderr_tail[-200:]
            if parse_json and i == 0:
                try:
                    doc = json.loads(r.stdout or b"null")
                    s.note = (s.note + " " if s.note else "") + (
                        "json ok" if doc is not None else "no json output"
                    )
                except ValueError as e:
                    s.note = f"invalid JSON on stdout: {e}"
            r.stdout = b""
            if i == 0 and r.wall_s > self.a.slow_s and reps > 1:
                s.note = (s.note + "; " if s.note else "") + f"1 run (> {self.a.slow_s:.0f} s)"
                break
        self._log(label, s)
        return s

    def _log(self, label: str, s: Series) -> None:
        if s.runs:
            print(
                f"  {label:<42} {s.wall:8.3f} s  {s.rss_mib:7.1f} MiB  rc={s.runs[0].returncode} {s.note}",
                file=sys.stderr,
                flush=True,
            )

    # -- phases ---------------------------------------------------------------
    def floor(self) -> None:
        print("floor", file=sys.stderr)
        reps = max(self.a.reps, 5) if not self.a.quick else 1
        with tempfile.TemporaryDirectory() as empty:
            cases = {
                "python -c pass": [sys.executable, "-c", "pass"],
                "python -c 'import pygls.lsp.server'": [
                    sys.executable,
                    "-c",
                    "import pygls.lsp.server",
                ],
                "skill-lsp --version": [*self.slsp, "--version"],
                "skill-lsp check (empty dir)": [*self.slsp, "check", "--format", "json", empty],
            }
            for label, cmd in cases.items():
                self.results["floor"][label] = self.series(label, cmd, Path(empty), reps).as_dict()
            self.results["import_check"] = self.import_check(empty)

    def import_check(self, empty: str) -> dict:
        """python -X importtime: which top-level packages does the CLI pull in?"""
        out = {}
        for label, argv in (
            ("--version", ["--version"]),
            ("check (empty dir)", ["check", "--format", "json", empty]),
        ):
            p = subprocess.run(
                [sys.executable, "-X", "importtime", "-m", "skill_lsp", *argv],
                capture_output=True,
                text=True,
                timeout=120,
                cwd=empty,
            )
            mods = set()
            for line in p.stderr.splitlines():
                if line.startswith("import time:") and "|" in line:
                    name = line.rsplit("|", 1)[1].strip()
                    mods.add(name.split(".")[0])
            bad = sorted(m for m in mods if m in ("pygls", "lsprotocol", "cattrs", "attrs"))
            out[label] = {
                "returncode": p.returncode,
                "modules": len(mods),
                "forbidden": bad,
                "ok": p.returncode in (0, 1) and not bad and bool(mods),
            }
            print(
                f"  import check {label}: rc={p.returncode} {len(mods)} top-level modules, forbidden={bad}",
                file=sys.stderr,
            )
        return out

    def dataset(self, key: str, path: Path, extra: dict | None = None) -> None:
        print(f"{key}: {path}", file=sys.stderr, flush=True)
        n = count_skills(path)
        ds: dict = {
            "path": str(path),
            "skills": n,
            "skill_md_mib": round(tree_bytes(path) / 2**20, 2),
            "tools": {},
        }
        if extra:
            ds.update(extra)
        check = [*self.slsp, "check", "--format", "json", str(path)]
        with tempfile.TemporaryDirectory() as kept:
            # A cache folder of the benchmark's own: the compiled patterns (every run after an
            # install has them; the first run keeps them) and the results.
            env = {**os.environ, "SKILL_LSP_CACHE_DIR": kept}
            # Every skill checked (a first run, CI on a fresh clone).
            s = self.series("skill-lsp check", [*check[:-1], "--no-cache", check[-1]], path, self.a.reps,
                            parse_json=True, env=env)
            ds["tools"]["skill-lsp"] = s.as_dict()
            # A run after one that kept its results, nothing changed since (a pre-commit hook, a
            # lint on save). Files younger than the cache's 2 s window are never kept: a workspace
            # generated just now has aged through the runs above.
            run_child(check, cwd=path, timeout=self.a.timeout, env=env)
            s = self.series("skill-lsp check (kept results)", check, path, self.a.reps, parse_json=True, env=env)
            ds["tools"]["skill-lsp kept"] = s.as_dict()
        inproc = self.series("skill-lsp in-process", [sys.executable, "-c", SKILL_LSP_INPROC_SCRIPT, str(path)],
                             path, self.a.reps, inner=True)
        docs = sorted((x for x in inproc.inner if x), key=lambda x: x["per_skill_ms"])
        if docs:
            ds["tools"]["skill-lsp"]["in_process"] = docs[len(docs) // 2]
        for peer, cmd in self.peers.items():
            if cmd is None:
                ds["tools"][peer] = {"label": peer, "ok": False, "note": "not installed"}
                continue
            if peer in self.timed_out:
                ds["tools"][peer] = {
                    "label": peer,
                    "ok": False,
                    "note": "skipped: timed out on a smaller input",
                }
                continue
            if peer == "skills-ref":
                s = self.series(peer, [*cmd, str(path)], path, self.a.reps, inner=True)
                d = s.as_dict()
                docs = [x for x in s.inner if x]
                if docs:
                    docs.sort(key=lambda x: x["per_skill_ms"])
                    d["in_process"] = docs[len(docs) // 2]
                ds["tools"][peer] = d
            else:
                s = self.series(peer, [*cmd, str(path)], path, self.a.reps, parse_json=True)
                ds["tools"][peer] = s.as_dict()
            if not s.ok:
                self.timed_out.add(peer)
        self.results["datasets"][key] = ds
        write_outputs(
            self.a.out, "bench_check", self.results, self.report()
        )  # partial results survive a kill

    def workspace(self, n: int, scale: float) -> Path:
        root = Path(self.a.work)
        tag = f"ws-{n}-s{self.a.seed}" + (f"-x{scale:g}" if scale != 1 else "")
        out = root / tag
        man = gen_workspace.generate(n, out, seed=self.a.seed, body_scale=scale)
        print(f"  generated {out} ({man['stats']['bytes'] / 2**20:.1f} MiB)", file=sys.stderr)
        return out

    # -- report ---------------------------------------------------------------
    def report(self) -> str:
        R = self.results
        m = R["machine"]
        lines = [
            "# bench_check results",
            "",
            f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}; Python {m['python']}; {m['date']}; "
            f"load average {m.get('loadavg_at_start')} at start, {loadavg()} at the end.",
            f"Versions: {', '.join(f'{k} {v}' for k, v in R['versions'].items() if v)}.",
            f"Median of {R['reps']} runs per cell (slow peers: 1 run, see notes).",
            "",
        ]
        if R["floor"]:
            lines += ["## Floor (process start-up)", ""]
            rows = [
                [k, v["median_wall_s"] * 1000, v["peak_rss_mib"], v["note"]]
                for k, v in R["floor"].items()
            ]
            lines += [md_table(["command", "median ms", "peak RSS MiB", "note"], rows), ""]
            fl = R["floor"]
            base = fl.get("python -c pass", {}).get("median_wall_s")
            if base:
                lines += [
                    "Relative to `python -c pass`: "
                    + ", ".join(
                        f"{k} {v['median_wall_s'] / base:.2f}×"
                        for k, v in fl.items()
                        if k != "python -c pass" and v.get("median_wall_s")
                    )
                    + ".",
                    "",
                ]
            for k, v in R["import_check"].items():
                lines.append(
                    f"- `skill-lsp {k}` imports pygls/lsprotocol: "
                    f"{'no' if not v['forbidden'] else ', '.join(v['forbidden'])} "
                    f"(rc {v['returncode']}, {v['modules']} top-level modules)"
                )
            lines.append("")
        for key, ds in R["datasets"].items():
            lines += [
                f"## {key}",
                "",
                f"`{ds['path']}`: {ds['skills']} skills, {ds['skill_md_mib']} MiB of SKILL.md.",
                "",
            ]
            base = ds["tools"].get("skill-lsp", {})
            bw = base.get("median_wall_s")
            rows = []
            for tool, t in ds["tools"].items():
                w = t.get("median_wall_s")
                per = (w / ds["skills"] * 1000) if (w and ds["skills"]) else None
                inproc = None
                if t.get("in_process"):
                    inproc = t["in_process"]["per_skill_ms"]
                ratio = (w / bw) if (w and bw) else None
                rows.append(
                    [
                        tool,
                        w,
                        per,
                        inproc,
                        t.get("peak_rss_mib"),
                        t.get("tree_pss_mib"),
                        ratio,
                        (t.get("runs") or [{}])[0].get("returncode"),
                        t.get("note", ""),
                    ]
                )
            lines += [
                md_table(
                    [
                        "tool",
                        "median wall s",
                        "wall ms / skill",
                        "in-process ms / skill",
                        "peak RSS MiB",
                        "tree PSS MiB",
                        "× skill-lsp time",
                        "rc",
                        "note",
                    ],
                    rows,
                ),
                "",
            ]
        lines += self.budget_lines()
        return "\n".join(lines)

    def budget_lines(self) -> list[str]:
        R = self.results
        out = ["## Budgets", ""]
        rows = []

        def tool(ds_key: str, name: str) -> dict:
            return R["datasets"].get(ds_key, {}).get("tools", {}).get(name, {})

        c = "corpus"
        if c in R["datasets"]:
            ds = R["datasets"][c]
            a = tool(c, "agnix").get("median_wall_s")
            for name, how in (("skill-lsp", "every skill checked"), ("skill-lsp kept", "results kept from a run before")):
                s = tool(c, name).get("median_wall_s")
                if s and a:
                    rows.append(  # issue 28: half of agnix's wall time, both with JSON output
                        [f"corpus wall ≤ 0.5× agnix ({how})", f"{s:.3f} s vs {a:.3f} s", f"{s / a:.2f}×", s <= 0.5 * a]
                    )
            ref = (tool(c, "skills-ref").get("in_process") or {}).get("per_skill_ms")
            per = (tool(c, "skill-lsp").get("in_process") or {}).get("per_skill_ms")
            if per and ref:
                # In-process against in-process: both exclude interpreter start and the walk.
                rows.append(
                    [
                        "≥ 10× faster per skill than skills-ref in-process",
                        f"{per:.3f} ms vs {ref:.3f} ms",
                        f"{ref / per:.1f}×",
                        ref / per >= 10,
                    ]
                )
            rss = max(
                tool(c, "skill-lsp").get("peak_rss_mib") or 0,
                tool(c, "skill-lsp").get("tree_pss_mib") or 0,
            )
            if rss:
                rows.append(
                    [
                        "corpus peak RSS ≤ 150 MiB",
                        f"{rss:.1f} MiB",
                        f"{rss / 150:.2f}× budget",
                        rss <= 150,
                    ]
                )
        for label, keys in (
            ("count", [k for k in R["datasets"] if k.startswith("generated ")]),
            ("body size", [k for k in R["datasets"] if k.startswith("growth ")]),
        ):
            pts = []
            for k in keys:
                ds = R["datasets"][k]
                w = tool(k, "skill-lsp").get("median_wall_s")
                x = ds["skills"] if label == "count" else ds["skill_md_mib"]
                if w:
                    pts.append((x, w))
            pts.sort()
            if len(pts) >= 3:
                (x0, y0), (x1, y1), (x2, y2) = pts[0], pts[len(pts) // 2], pts[-1]
                m1 = (y1 - y0) / (x1 - x0) if x1 != x0 else None
                m2 = (y2 - y1) / (x2 - x1) if x2 != x1 else None
                if m1 and m2 and m1 > 0:
                    rows.append(
                        [
                            f"linear growth with {label} (marginal cost, last/first segment ≤ 1.5)",
                            f"{m1 * 1000:.3g} → {m2 * 1000:.3g} ms per {'skill' if label == 'count' else 'MiB'}",
                            f"{m2 / m1:.2f}",
                            m2 / m1 <= 1.5,
                        ]
                    )
            rss = [
                max(
                    tool(k, "skill-lsp").get("peak_rss_mib") or 0,
                    tool(k, "skill-lsp").get("tree_pss_mib") or 0,
                )
                for k in keys
            ]
            rss = [r for r in rss if r]
            if rss:
                rows.append([f"peak RSS, largest {label} run", f"{max(rss):.1f} MiB", "", ""])
        if rows:
            out += [md_table(["budget", "figure", "ratio", "met"], rows), ""]
        else:
            out += ["(no budget could be evaluated from this run)", ""]
        return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="results folder (default benchmarks/out)"
    )
    ap.add_argument(
        "--work", type=Path, default=None, help="where generated workspaces go (default OUT/ws)"
    )
    ap.add_argument("--only", default="floor,corpus,sizes,growth")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--sizes", default="1000,10000,30000")
    ap.add_argument("--scales", default="1,4,16")
    ap.add_argument("--scale-count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--peers", default=",".join(ALL_PEERS), help="comma list; empty for none")
    ap.add_argument("--timeout", type=float, default=900.0, help="per run, seconds")
    ap.add_argument(
        "--slow-s", type=float, default=60.0, help="a first run slower than this is not repeated"
    )
    ap.add_argument(
        "--skill-lsp", default=None, help="command that starts skill-lsp (default: console script)"
    )
    ap.add_argument("--quick", action="store_true", help="tiny sizes, one rep: a smoke run")
    ap.add_argument(
        "--plot", action="store_true", help="write OUT/bench_check.png if matplotlib is installed"
    )
    a = ap.parse_args(argv)
    if a.quick:
        a.reps = 1
        if a.sizes == ap.get_default("sizes"):
            a.sizes = "5,10"
        if a.scales == ap.get_default("scales"):
            a.scales = "1,2,4"
        if a.scale_count == ap.get_default("scale_count"):
            a.scale_count = 5
    a.work = (a.work or (a.out / "ws")).resolve()
    a.corpus = a.corpus.resolve()
    only = set(a.only.split(","))
    exit_on_sigterm()
    b = Bench(a)
    b.results["bytecode"] = compile_bytecode(interpreter(b.slsp))
    if "floor" in only:
        b.floor()
    if "corpus" in only:
        if a.corpus.is_dir():
            b.dataset("corpus", a.corpus)
        else:
            print(f"corpus {a.corpus} not found: skipped", file=sys.stderr)
    if "sizes" in only:
        for n in [int(x) for x in a.sizes.split(",") if x]:
            b.dataset(f"generated {n} skills", b.workspace(n, 1.0), {"generated": n})
    if "growth" in only:
        b.timed_out.clear()
        for k in [float(x) for x in a.scales.split(",") if x]:
            b.dataset(
                f"growth {a.scale_count} skills, bodies ×{k:g}",
                b.workspace(a.scale_count, k),
                {"generated": a.scale_count, "body_scale": k},
            )
    md = b.report()
    jp, mp = write_outputs(a.out, "bench_check", b.results, md)
    print(md)
    print(f"wrote {jp} and {mp}", file=sys.stderr)
    if a.plot:
        plot(b.results, a.out / "bench_check.png")
    return 0


def plot(results: dict, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series: dict[str, list[tuple[int, float]]] = {}
    for ds in results["datasets"].values():
        if "generated" in ds and "body_scale" not in ds:
            for tool, t in ds["tools"].items():
                if t.get("median_wall_s"):
                    series.setdefault(tool, []).append((ds["skills"], t["median_wall_s"]))
    for tool, pts in series.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=tool)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("skills")
    ax.set_ylabel("wall s (median)")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
