"""Mutation score of the engine, per module (mutmut over the fast engine tests).

    python benchmarks/mutation.py                    # every module in [tool.mutmut] only_mutate
    python benchmarks/mutation.py text fixes -j 2    # some modules, two test processes

Each run works in a fresh copy of the checkout (tracked and untracked files, not
ignored ones) under benchmarks/out/mutation-work/, so the worktree never holds
mutants. --resume keeps that copy, brings its files up to date and re-tests only
the mutants that survived (killed ones stay killed when tests are only added). Results merge into benchmarks/out/mutation.json (one entry per module,
the newest run wins) and a Markdown table is printed.

A surviving mutant is either killed by a new test or listed in
benchmarks/mutation_equivalent.json with the reason it cannot change behaviour;
listed ones leave the denominator. A listed mutant whose diff no longer matches
is reported as stale. Score = (killed + timeout) / (mutants - equivalent).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"
EQUIVALENT = HERE / "mutation_equivalent.json"

MODULES = {
    "text": "src/skill_lsp/engine/text.py",
    "frontmatter": "src/skill_lsp/engine/frontmatter.py",
    "yamlnodes": "src/skill_lsp/engine/yamlnodes.py",
    "fixes": "src/skill_lsp/engine/fixes.py",
    "workspace": "src/skill_lsp/engine/workspace.py",
    "resultcache": "src/skill_lsp/engine/resultcache.py",
    "markdown": "src/skill_lsp/engine/markdown.py",
    "mentions": "src/skill_lsp/engine/mentions.py",
    "skillgraph": "src/skill_lsp/engine/skillgraph.py",
    "discover": "src/skill_lsp/engine/discover.py",
    "discovery": "src/skill_lsp/engine/discovery.py",
    "rules": "src/skill_lsp/engine/rules",
    "render": "src/skill_lsp/engine/render",
}

# mutmut's exit codes (mutmut/stats.py): 1 and 3 killed; 0 survived; timeouts by signal.
KILLED = {1, 3}
TIMEOUT = {36, 24, -24, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}


def target_of(key: str) -> str:
    """A listed module, or one file of a package: `rules/fields` -> src/skill_lsp/engine/rules/fields.py."""
    if key in MODULES:
        return MODULES[key]
    return f"src/skill_lsp/engine/{key}.py"


def module_name(path: str) -> str:
    return path.removeprefix("src/").removesuffix(".py").replace("/", ".")


def copy_checkout(dest: Path, *, fresh: bool = True) -> None:
    if fresh and dest.exists():
        shutil.rmtree(dest)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file() and not src.is_symlink():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
        elif src.is_symlink() and not (dest / rel).is_symlink():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(os.readlink(src), dest / rel)


def reset_survivors(work: Path, target: str) -> int:
    """Forget the verdict of surviving mutants so the next run tests them again (after new tests)."""
    metas = (work / "mutants").glob(target + "*.meta") if target.endswith(".py") \
        else (work / "mutants" / target).rglob("*.py.meta")
    n = 0
    for meta in metas:
        data = json.loads(meta.read_text())
        for name, code in data["exit_code_by_key"].items():
            if code in SURVIVED or code in NO_TESTS:
                data["exit_code_by_key"][name] = None
                n += 1
        meta.write_text(json.dumps(data))
    return n


_FUNCTIONS: dict[Path, dict[str, str]] = {}


def _functions(mutated: Path) -> dict[str, str]:
    """Source of every function in a file mutmut rewrote (mutants and originals), by name."""
    if mutated not in _FUNCTIONS:
        source = mutated.read_text(encoding="utf-8")
        lines = source.splitlines()
        _FUNCTIONS[mutated] = {n.name: "\n".join(lines[n.lineno - 1:n.end_lineno])
                               for n in ast.walk(ast.parse(source))
                               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return _FUNCTIONS[mutated]


def diff_of(mutated: Path, name: str) -> str:
    """The changed lines of one mutant, as '-old\\n+new' (what `mutmut show` prints, without its cost)."""
    function = name.rsplit(".", 1)[1]
    original = re.sub(r"__mutmut_\d+$", "__mutmut_orig", function)
    funcs = _functions(mutated)
    old = funcs.get(original, "").splitlines()
    # The signature too (a changed default), under the original's name.
    new = funcs.get(function, "").replace(f"def {function}(", f"def {original}(", 1).splitlines()
    return "\n".join(line[0] + line[1:].strip() for line in difflib.unified_diff(old, new, n=0, lineterm="")
                     if line[:1] in "-+" and not line.startswith(("---", "+++"))).strip()


def load_equivalent() -> dict[str, dict]:
    if not EQUIVALENT.exists():
        return {}
    return {e["mutant"]: e for e in json.loads(EQUIVALENT.read_text(encoding="utf-8"))}


def score_module(work: Path, key: str, equivalent: dict[str, dict]) -> dict:
    target = target_of(key)
    metas = sorted((work / "mutants").glob(target + "*.meta") if target.endswith(".py")
                   else (work / "mutants" / target).rglob("*.py.meta"))
    codes: Counter[str] = Counter()
    survivors, stale = [], []
    by_diff = {(e["module"], e["diff"]): e for e in equivalent.values()}
    for meta in metas:
        exit_codes = json.loads(meta.read_text())["exit_code_by_key"]
        for name, code in exit_codes.items():
            if code in KILLED:
                codes["killed"] += 1
            elif code in TIMEOUT:
                codes["timeout"] += 1
            elif code in SURVIVED or code in NO_TESTS:
                diff = diff_of(meta.with_suffix(""), name)
                listed = equivalent.get(name) or by_diff.get((key, diff))
                if listed is not None and listed["diff"] == diff:
                    codes["equivalent"] += 1
                else:
                    codes["no tests" if code in NO_TESTS else "survived"] += 1
                    survivors.append({"mutant": name, "diff": diff})
                    if name in equivalent:
                        stale.append(name)
            else:
                codes[f"other ({code})"] += 1
    total = sum(codes.values())
    denominator = total - codes["equivalent"]
    detected = codes["killed"] + codes["timeout"]
    return {
        "module": target,
        "mutants": total,
        **dict(codes),
        "score": round(100 * detected / denominator, 1) if denominator else None,
        "survivors": survivors,
        "stale_equivalents": stale,
    }


def table(results: dict[str, dict]) -> str:
    rows = ["| module | mutants | killed | timeout | equivalent | survived | score |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for key in [*MODULES, *sorted(set(results) - set(MODULES))]:
        r = results.get(key)
        if r is None:
            continue
        left = r.get("survived", 0) + r.get("no tests", 0)
        rows.append(f"| `{r['module'].removeprefix('src/skill_lsp/')}` | {r['mutants']} | {r.get('killed', 0)} | "
                    f"{r.get('timeout', 0)} | {r.get('equivalent', 0)} | {left} | {r['score']} % |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="*", help=f"any of {', '.join(MODULES)}, or one file of a package such as rules/fields (default: all)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="mutmut --max-children (default 1)")
    ap.add_argument("--work", type=Path, default=OUT / "mutation-work")
    ap.add_argument("--out", type=Path, default=OUT / "mutation.json")
    ap.add_argument("--report", action="store_true",
                    help="run nothing: score the modules already run in the work copy (after editing the equivalents)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the work copy and its verdicts; update the files and re-test only the survivors")
    args = ap.parse_args(argv)
    keys = args.modules or list(MODULES)
    unknown = {k for k in keys if k not in MODULES and not (REPO / target_of(k)).is_file()}
    if unknown:
        ap.error(f"unknown module(s) {sorted(unknown)}; choose from {list(MODULES)}")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    equivalent = load_equivalent()
    if not args.report:
        copy_checkout(args.work, fresh=not args.resume)
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # reference checks are not the point here
    for key in keys:
        name = module_name(target_of(key))
        # A package's __init__ has mutants named after the package itself (pkg.x_func__mutmut_1).
        pattern = name.removesuffix(".__init__") + ".x*" if name.endswith(".__init__") else name + ".*"
        if args.resume and not args.report:
            print(f"{key}: re-testing {reset_survivors(args.work, target_of(key))} survivors", flush=True)
        started = time.monotonic()
        if args.report:
            if key in results:
                r = score_module(args.work, key, equivalent)
                results[key] = {**r, "seconds": results[key]["seconds"], "commit": results[key]["commit"]}
            continue
        proc = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(args.jobs), pattern],
                              cwd=args.work, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
            return proc.returncode
        r = score_module(args.work, key, equivalent)
        r["seconds"] = round(time.monotonic() - started)
        r["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                                     capture_output=True, text=True).stdout.strip()
        results[key] = r
        args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
        print(f"{key}: {r['score']} % of {r['mutants']} in {r['seconds']} s", flush=True)
        for s in r["survivors"]:
            print(f"  survived {s['mutant']}\n    " + s["diff"].replace("\n", "\n    "))
        for name in r["stale_equivalents"]:
            print(f"  stale equivalent (diff changed): {name}")
    if args.report:
        args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
