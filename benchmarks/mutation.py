"""Mutation score per module: mutmut over the engine, and our own runner past it.

    python benchmarks/mutation.py                    # every module in [tool.mutmut] only_mutate
    python benchmarks/mutation.py text fixes -j 2    # some modules, two test processes
    python benchmarks/mutation.py --map              # own runner: map which tests run which lines
    python benchmarks/mutation.py --delete skillgraph workspace   # statement deletion (own runner)
    python benchmarks/mutation.py services/sync --sample 200 --seed 27   # past the engine

Engine modules (MODULES) go through mutmut, in process over tests/engine. The modules past
the engine (OUTER: engine/harness, targets.py, writes.py, the server's services and framing)
are reached by tests through subprocesses (the server over stdio, the CLI), which mutmut
cannot follow, so they go through mutation_runner.py: mutmut's own operators and statement
deletion (mutants.py), each mutant run against the tests a coverage map says run its lines
(mutation_select.py). ``--delete`` runs statement deletion over engine modules the same way.

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
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))  # mutation_runner, mutants, mutation_select
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

# Past the engine (own runner): each module, with the tests it may select from (the coverage
# map picks, for each mutant, those that run its lines). A package's files are `harness/listing`.
OUTER = {
    "harness": ("src/skill_lsp/engine/harness", ["tests/engine", "tests/cli"]),
    "targets": ("src/skill_lsp/engine/targets.py", ["tests/engine", "tests/cli"]),
    "writes": ("src/skill_lsp/engine/writes.py", ["tests/hardening/test_writes.py", "tests/cli", "tests/engine"]),
    "services": ("src/skill_lsp/server/services", ["tests/server", "tests/hardening/test_client.py"]),
    "framing": ("src/skill_lsp/server/framing.py", ["tests/server", "tests/hardening/test_client.py"]),
}
# Tests a module's mutants always run: their subprocesses write under a file size limit or as
# another user, where coverage cannot save what they ran (mutation_select.SITECUSTOMIZE).
ALWAYS = {
    "writes": ("tests/hardening/test_writes.py::test_a_full_disk_leaves_the_file_whole_and_says_so",
               "tests/hardening/test_writes.py::test_one_unwritable_file_does_not_stop_the_others"),
}
# What the map covers by default: every test any module above or mutmut selects from.
MAP_TESTS = ["tests/engine", "tests/cli", "tests/hardening/test_client.py", "tests/hardening/test_writes.py",
             "tests/server"]
OPERATORS = ("mutmut", "delete")

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


def outer_of(key: str) -> tuple[str, list[str]] | None:
    """(target, candidate tests) of an OUTER module or of one file of an OUTER package."""
    if key in OUTER:
        return OUTER[key]
    head, _, rest = key.partition("/")
    if head in OUTER and rest and (REPO / OUTER[head][0] / f"{rest}.py").is_file():
        return f"{OUTER[head][0]}/{rest}.py", OUTER[head][1]
    return None


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


def score_outer(key: str, target: str, names: list[str], verdicts: dict[str, dict],
                equivalent: dict[str, dict], sampled: dict | None) -> dict:
    """The same record as score_module, from the own runner's verdicts of ``names``."""
    codes: Counter[str] = Counter()
    survivors, stale = [], []
    by_diff = {(e["module"], e["diff"]): e for e in equivalent.values()}
    for name in names:
        v = verdicts.get(name)
        if v is None or v["verdict"] == "error":
            codes["not run"] += 1
            continue
        if v["verdict"] in ("killed", "timeout"):
            codes[v["verdict"]] += 1
            continue
        listed = equivalent.get(name) or by_diff.get((key, v["diff"]))
        if listed is not None and listed["diff"] == v["diff"]:
            codes["equivalent"] += 1
        else:
            codes[v["verdict"]] += 1
            survivors.append({"mutant": name, "diff": v["diff"], "tests": v["tests"],
                              **({"tests_run": v["tests_run"]} if "tests_run" in v else {})})
            if name in equivalent:
                stale.append(name)
    total = sum(codes.values())
    denominator = total - codes["equivalent"] - codes["not run"]
    detected = codes["killed"] + codes["timeout"]
    return {"module": target, "mutants": total, **dict(codes),
            "score": round(100 * detected / denominator, 1) if denominator else None,
            "sampled": sampled, "survivors": survivors, "stale_equivalents": stale}


def table(results: dict[str, dict]) -> str:
    rows = ["| module | operator | mutants | killed | timeout | equivalent | survived | score |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    order = [*MODULES, *OUTER]
    for key in sorted(results, key=lambda k: (order.index(k.split(":")[0].split("/")[0])
                                                 if k.split(":")[0].split("/")[0] in order else len(order), k)):
        r = results[key]
        left = r.get("survived", 0) + r.get("no tests", 0)
        operator = "deletion" if key.endswith(":delete") else "mutmut"
        sample = r.get("sampled")
        note = f" (sample of {sample['population']}, seed {sample['seed']})" if sample else ""
        rows.append(f"| `{r['module'].removeprefix('src/skill_lsp/')}` | {operator}{note} | {r['mutants']} | "
                    f"{r.get('killed', 0)} | {r.get('timeout', 0)} | {r.get('equivalent', 0)} | {left} | "
                    f"{r['score']} % |")
    return "\n".join(rows)


def run_outer(args, keys: list[str], results: dict, equivalent: dict[str, dict]) -> None:
    """Own runner: mutmut's operators and deletion past the engine, deletion over engine modules."""
    import mutation_runner  # noqa: PLC0415

    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if not args.report:
        copy_checkout(args.outer_work, fresh=False)
    runner = mutation_runner.Runner(args.outer_work, REPO, env, args.jobs)
    for copy in runner.copies[1:] if not args.report else ():
        copy_checkout(copy, fresh=False)
    if args.map is not None:
        tests = args.map or MAP_TESTS
        started = time.monotonic()
        runner.remap(tests)
        print(f"mapped {len(tests)} test paths in {round(time.monotonic() - started)} s", flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    for key in keys:
        outer = outer_of(key)
        target, within = outer if outer else (target_of(key), ["tests/engine"])
        within = args.tests or within
        operators = ["delete"] if (args.delete or not outer) else list(OPERATORS)
        paths = mutation_runner.source_files(target, REPO)
        for operator in operators:
            rkey = key if operator == "mutmut" else f"{key}:delete"
            started = time.monotonic()
            if args.report:
                if rkey not in results:
                    continue
                names, sampled = results[rkey]["names"], results[rkey].get("sampled")
            else:
                done = runner.run(rkey, paths, [operator], within, resume=args.resume, sample=args.sample,
                                  seed=args.seed, max_tests=args.max_tests, only=args.only,
                                  always=ALWAYS.get(key.split("/")[0], ()),
                                  log=lambda line: print(line, flush=True))
                names, sampled = done["names"], done["sampled"]
            r = score_outer(rkey, target, names, runner.results, equivalent, sampled)
            r["names"] = names
            r["tests"] = within
            r["seconds"] = (results.get(rkey, {}).get("seconds") if args.report
                            else round(time.monotonic() - started))
            r["commit"] = results.get(rkey, {}).get("commit") if args.report else commit
            results[rkey] = r
            args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
            print(f"{rkey}: {r['score']} % of {r['mutants']} in {r['seconds']} s", flush=True)
            for sv in r["survivors"]:
                of = f" ({sv['tests_run']} of {sv['tests']} tests run)" if "tests_run" in sv else ""
                print(f"  {'survived' if sv['tests'] else 'no tests'}{of} {sv['mutant']}\n    "
                      + sv["diff"].replace("\n", "\n    "))
            for name in r["stale_equivalents"]:
                print(f"  stale equivalent (diff changed): {name}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="*",
                    help=f"any of {', '.join(MODULES)} (mutmut), {', '.join(OUTER)} (own runner), or one file "
                         "of a package such as rules/fields or services/sync (default: every mutmut module)")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="mutmut --max-children; own runner: mutants tested at once, each in its own copy (default 1)")
    ap.add_argument("--work", type=Path, default=OUT / "mutation-work")
    ap.add_argument("--outer-work", type=Path, default=OUT / "mutation-outer",
                    help="the own runner's copy of the checkout, its coverage map and verdicts")
    ap.add_argument("--out", type=Path, default=OUT / "mutation.json")
    ap.add_argument("--report", action="store_true",
                    help="run nothing: score the modules already run in the work copy (after editing the equivalents)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the work copy and its verdicts; update the files and re-test only the survivors")
    ap.add_argument("--delete", action="store_true",
                    help="statement deletion only (own runner), over engine modules too")
    ap.add_argument("--map", nargs="*", metavar="TESTS",
                    help=f"own runner: (re)build the coverage map for these test paths (default: {' '.join(MAP_TESTS)})")
    ap.add_argument("--tests", nargs="+", help="own runner: select from these test paths instead of the module's")
    ap.add_argument("--sample", type=int, help="own runner: test this many mutants per module and operator")
    ap.add_argument("--seed", type=int, default=27, help="the sample's seed (default 27)")
    ap.add_argument("--max-tests", type=int, default=0,
                    help="own runner: run at most this many of a mutant's tests (0: all; a survivor of fewer "
                         "than all is marked, and --resume --max-tests 0 tries it with all)")
    ap.add_argument("--only", metavar="TEXT", help="own runner: only the mutants whose name contains TEXT "
                                                   "(a function: 'xǁSkillIndexǁput'); scores then cover those only")
    args = ap.parse_args(argv)
    # A stopped run puts the mutated file back (the next run restores the copy anyway).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    keys = args.modules or ([] if (args.map is not None or args.delete) else list(MODULES))
    unknown = {k for k in keys if k not in MODULES and not (REPO / target_of(k)).is_file() and outer_of(k) is None}
    if unknown:
        ap.error(f"unknown module(s) {sorted(unknown)}; choose from {list(MODULES) + list(OUTER)}")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    equivalent = load_equivalent()
    outer_keys = [k for k in keys if args.delete or outer_of(k) is not None]
    keys = [k for k in keys if k not in outer_keys]
    if outer_keys or args.map is not None:
        run_outer(args, outer_keys, results, equivalent)
    if keys and not args.report:
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
