"""benchmarks/mutation.py's own mutant runner: for the code mutmut cannot test (the server and
everything a test reaches through a subprocess) and for statement deletion everywhere.

Works in its own copy of the checkout (benchmarks/out/mutation-outer/). Each mutant is written
over its file in that copy, the tests whose coverage context covers one of its lines (the map
of mutation_select.py) run there with -x, fastest first, in a fresh pytest process whose
servers and CLIs import the copy's src/ (PYTHONPATH, no bytecode written), and the file is put
back. The verdict of each mutant is kept by name with its diff (results.json in the copy): a
later run tests only what is new or changed, or, with ``resume``, the survivors again.

Verdicts as mutmut's: killed (pytest exit 1; 2 or 3 when the mutant broke collection or
pytest itself), survived (0), no tests (no passing test covers the lines), timeout (over
4 x the selected tests' mapped time + 60 s; the process group is killed).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict
from pathlib import Path

import mutants as ops
import mutation_select

PYTEST = ["-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "mutation_plugin"]


def source_files(target: str, repo: Path) -> list[str]:
    p = repo / target
    if p.is_dir():
        return sorted(f.relative_to(repo).as_posix() for f in p.glob("*.py"))
    return [target]


class Runner:
    def __init__(self, work: Path, repo: Path, env: dict[str, str], jobs: int = 1) -> None:
        self.work = work.resolve()
        # One copy per parallel worker: a mutant is written into the copy its tests run in.
        self.copies = [self.work] + [self.work.parent / f"{self.work.name}-w{i}" for i in range(1, jobs)]
        self._lock = threading.Lock()
        self.repo = repo
        self.env = env
        self.map_path = work / "map.json"
        self.results_path = work / "results.json"
        self.results: dict[str, dict] = (json.loads(self.results_path.read_text(encoding="utf-8"))
                                         if self.results_path.exists() else {})
        self._map: dict | None = None

    @property
    def cmap(self) -> dict:
        if self._map is None:
            if not self.map_path.exists():
                raise SystemExit(f"no coverage map in {self.work}: run with --map first")
            self._map = json.loads(self.map_path.read_text(encoding="utf-8"))
        return self._map

    def remap(self, tests: list[str]) -> None:
        """(Re)build the coverage map for ``tests`` (paths as given to pytest) and merge it."""
        out = self.work / "map-new.json"
        new = mutation_select.build(self.work, tests, out, self.env)
        old = self.cmap if self.map_path.exists() else {"tests": {}, "lines": {}}
        sources = {f: _digest(self.work / f) for f in new["lines"]}
        # A file that changed since: its lines from the tests not mapped again are dropped (those
        # tests are then not selected for it: fewer kills, never a verdict from stale lines).
        old = {**old, "lines": {f: v for f, v in old["lines"].items()
                                if f not in sources or old.get("sources", {}).get(f) == sources[f]}}
        merged = mutation_select.merge(old, new, tests)
        merged["sources"] = {**old.get("sources", {}), **sources}
        self.map_path.write_text(json.dumps(merged) + "\n", encoding="utf-8")
        self._map = merged
        out.unlink()

    def stale(self, path: str) -> bool:
        return self.cmap.get("sources", {}).get(path) != _digest(self.work / path)

    def generate(self, path: str, operators: list[str]) -> list[ops.Mutant]:
        code = (self.repo / path).read_text(encoding="utf-8")
        out: list[ops.Mutant] = []
        if "mutmut" in operators:
            cwd = os.getcwd()
            os.chdir(self.repo)  # mutmut reads its configuration from the current folder
            try:
                out += ops.mutmut_mutants(path, code)
            finally:
                os.chdir(cwd)
        if "delete" in operators:
            out += ops.deletion_mutants(path, code)
        return out

    def run_one(self, key: str, path: str, m: ops.Mutant, within: list[str], max_tests: int = 0,
                always: tuple[str, ...] = (), work: Path | None = None) -> dict:
        work = work or self.work
        tests = mutation_select.select(self.cmap, path, m.first, m.last, within)
        # Tests whose subprocesses coverage cannot follow (mutation_select.SITECUSTOMIZE).
        tests += [t for t in always if t not in tests and self.cmap["tests"].get(t, {}).get("outcome") == "passed"]
        entry = {k: v for k, v in asdict(m).items() if k != "source"} | {"key": key, "path": path,
                                                                          "tests": len(tests)}
        if max_tests and len(tests) > max_tests:
            tests = tests[:max_tests]
            entry["tests_run"] = max_tests
        if not tests:
            return entry | {"verdict": "no tests", "exit": None, "seconds": 0}
        budget = 60 + 4 * sum(self.cmap["tests"][t].get("seconds", 1.0) for t in tests)
        target = work / path
        original = target.read_bytes()
        stat = target.stat()
        started = time.monotonic()
        with tempfile.NamedTemporaryFile("w", suffix=".json", dir=work, delete=False) as order:
            json.dump(tests, order)
        env = {**self.env, "PYTHONDONTWRITEBYTECODE": "1", "MUTATION_ORDER": order.name,
               "PYTHONPATH": os.pathsep.join([str(work / "src"), str(work / "benchmarks"),
                                              self.env.get("PYTHONPATH", "")])}
        try:
            target.write_text(m.source, encoding="utf-8")
            proc = subprocess.Popen(["nice", sys.executable, *PYTEST, *tests], cwd=work, env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                out, _ = proc.communicate(timeout=budget)
                code = proc.returncode
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, _ = proc.communicate()
                code = None
        finally:
            target.write_bytes(original)
            os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            os.unlink(order.name)
        if code is None:
            verdict = "timeout"
        elif code in (1, 2, 3):
            verdict = "killed"
        elif code == 0:
            verdict = "survived"
        else:  # 4, 5: a test id the map names is gone (renamed since): map again
            verdict = "error"
            entry["output"] = out.decode(errors="replace")[-2000:]
        killer = None
        if verdict == "killed":
            for line in out.decode(errors="replace").splitlines():
                if line.startswith(("FAILED ", "ERROR ")):
                    killer = line.split(" ", 1)[1].split(" - ")[0]
                    break
        return entry | {"verdict": verdict, "exit": code, "killer": killer,
                        "seconds": round(time.monotonic() - started, 1)}

    def run(self, key: str, paths: list[str], operators: list[str], within: list[str], *,
            resume: bool, sample: int | None, seed: int, max_tests: int = 0, only: str | None = None,
            always: tuple[str, ...] = (), log=print) -> dict:
        """Test the mutants of ``paths``; returns the sample description (None: all were run)."""
        population = [(p, m) for p in paths for m in self.generate(p, operators) if not only or only in m.name]
        chosen = population
        sampled = None
        if sample is not None and sample < len(population):
            picked = set(random.Random(seed).sample(sorted(m.name for _, m in population), sample))
            chosen = [(p, m) for p, m in population if m.name in picked]
            sampled = {"population": len(population), "sample": sample, "seed": seed}
        for p in paths:
            if self.stale(p):
                raise SystemExit(f"{p} changed since the coverage map was built: run with --map again")
        todo = []
        for p, m in chosen:
            old = self.results.get(m.name)
            if (old is None or old["diff"] != m.diff or old["verdict"] == "error"
                    or (resume and old["verdict"] in ("survived", "no tests"))):
                todo.append((p, m))
        log(f"{key} ({'+'.join(operators)}): {len(chosen)} mutants"
            + (f" sampled from {len(population)} (seed {seed})" if sampled else "") + f", {len(todo)} to test")
        queue = list(enumerate(todo, 1))

        def worker(work: Path) -> None:
            while True:
                with self._lock:
                    if not queue:
                        return
                    i, (p, m) = queue.pop(0)
                r = self.run_one(key, p, m, within, max_tests, always, work)
                with self._lock:
                    self.results[m.name] = r
                    self.results_path.write_text(json.dumps(self.results, indent=0, ensure_ascii=False) + "\n",
                                                 encoding="utf-8")
                    if r["verdict"] in ("survived", "no tests", "error"):
                        ran = f"{r['tests_run']} of {r['tests']}" if "tests_run" in r else r["tests"]
                        log(f"  [{i}/{len(todo)}] {r['verdict']}: {m.name} ({ran} tests)\n    "
                            + m.diff.replace("\n", "\n    "))
                    elif i % 25 == 0:
                        log(f"  [{i}/{len(todo)}] ...")

        threads = [threading.Thread(target=worker, args=(w,), daemon=True) for w in self.copies]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        # Keep only the mutants that still exist (a rewritten function renumbers its mutants).
        names = {m.name for _, m in chosen}
        return {"sampled": sampled, "names": sorted(names)}


def _digest(path: Path) -> str:
    import hashlib  # noqa: PLC0415

    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.exists() else ""
