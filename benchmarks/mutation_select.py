"""Which tests run each line of the code under mutation: the test selection of
benchmarks/mutation.py's own runner.

mutmut learns which tests reach a function by recording calls in the test process, so it
sees nothing of a server or CLI a test starts as a subprocess (every server test). This
map is built from coverage instead, in every process: the tests run once under coverage
with each test's node id as the coverage context; a subprocess (``skill-lsp serve``,
``skill-lsp check``) starts coverage from ``sitecustomize`` and takes the node id of the
test that started it from PYTEST_CURRENT_TEST (a static context read from the environment
when the process starts). A mutant then runs only the tests whose context covers one of
its lines, fastest first.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

RC = """\
[run]
data_file = {data}
parallel = true
sigterm = true
context = ${{PYTEST_CURRENT_TEST-}}
source = {source}
disable_warnings = no-data-collected, module-not-measured, module-not-imported, couldnt-parse
"""

# Every Python process a test starts with this folder on PYTHONPATH measures itself. Not through
# COVERAGE_PROCESS_START (coverage's own .pth would then start it in every process, whatever
# its PYTHONPATH): a process that could not save its data would print a traceback into what
# the test reads -- under a file size limit (the full-disk test) or as a user who may not write
# the data folder. Those, and processes started with a PYTHONPATH of their own, go unmeasured:
# benchmarks/mutation.py names their tests (ALWAYS).
SITECUSTOMIZE = """\
import os

def _measurable(rc):
    try:
        import resource
        if resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY:
            return False
    except (ImportError, OSError, ValueError):
        pass
    return os.access(os.path.dirname(rc), os.W_OK)

_rc = os.environ.get("MUTATION_COVERAGE_RC")
if _rc and _measurable(_rc):
    os.environ["COVERAGE_PROCESS_START"] = _rc
    import coverage
    coverage.process_startup()
    del os.environ["COVERAGE_PROCESS_START"]
"""


def _phase_less(context: str) -> str:
    """`tests/x.py::test_y[a] (setup)` (PYTEST_CURRENT_TEST) -> `tests/x.py::test_y[a]`."""
    head, sep, tail = context.rpartition(" (")
    return head if sep and tail.endswith(")") else context


def build(work: Path, tests: list[str], out: Path, env: dict[str, str], *, nice: bool = True) -> dict:
    """Run ``tests`` in the work copy under coverage; write and return the map:
    ``{"ids": [node ids], "lines": {file: {line: [indices into ids]}},
    "tests": {node id: {"seconds", "outcome"}}}``."""
    work = work.resolve()
    cov = work / ".mutation-coverage"
    shutil.rmtree(cov, ignore_errors=True)
    (cov / "site").mkdir(parents=True)
    rc = cov / "coveragerc"
    rc.write_text(RC.format(data=cov / "data", source=work / "src" / "skill_lsp"), encoding="utf-8")
    (cov / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = {**env, "MUTATION_COVERAGE_RC": str(rc), "MUTATION_MAP_OUT": str(cov / "tests.json"),
           "PYTHONPATH": os.pathsep.join([str(cov / "site"), str(work / "src"), str(work / "benchmarks"),
                                          env.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
           "-p", "mutation_plugin", *tests]
    proc = subprocess.run((["nice"] if nice else []) + cmd, cwd=work, env=env, capture_output=True, text=True)
    (cov / "pytest.log").write_text(proc.stdout[-200_000:] + proc.stderr[-20_000:], encoding="utf-8")

    import coverage  # noqa: PLC0415

    c = coverage.Coverage(config_file=str(rc))
    c.combine(data_paths=[str(cov)], keep=False)
    data = c.get_data()
    tests = json.loads((cov / "tests.json").read_text(encoding="utf-8"))
    ids = sorted(tests)
    index = {nodeid: n for n, nodeid in enumerate(ids)}
    lines: dict[str, dict[str, list[int]]] = {}
    for measured in data.measured_files():
        rel = Path(measured).resolve().relative_to(work).as_posix()
        by_line = {}
        for line, contexts in data.contexts_by_lineno(measured).items():
            hit = sorted({index[i] for i in map(_phase_less, contexts) if i in index})
            if hit:
                by_line[str(line)] = hit
        lines[rel] = by_line
    result = {"ids": ids, "tests": tests, "lines": lines, "pytest_exit": proc.returncode}
    out.write_text(json.dumps(result) + "\n", encoding="utf-8")
    return result


def merge(old: dict, new: dict, replaced_files: list[str]) -> dict:
    """``old`` with the tests of ``replaced_files`` (test paths, as given to pytest) taken from ``new``."""
    def replaced(nodeid: str) -> bool:
        return any(nodeid == f or nodeid.startswith(f.rstrip("/") + ("::" if f.endswith(".py") else "/"))
                   for f in replaced_files)

    ids = sorted({i for i in old["ids"] if not replaced(i)} | set(new["ids"]))
    index = {nodeid: n for n, nodeid in enumerate(ids)}
    tests = {k: v for k, v in old["tests"].items() if not replaced(k)} | new["tests"]
    lines: dict[str, dict[str, set[int]]] = defaultdict(lambda: defaultdict(set))
    for source in (old, new):
        keep = [None if (source is old and replaced(i)) else index[i] for i in source["ids"]]
        for f, by_line in source["lines"].items():
            for n, hits in by_line.items():
                lines[f][n] |= {keep[h] for h in hits if keep[h] is not None}
    return {"ids": ids, "tests": tests, "lines": {f: {n: sorted(h) for n, h in by_line.items() if h}
                                                  for f, by_line in lines.items()}}


def select(cmap: dict, path: str, first: int, last: int, within: list[str]) -> list[str]:
    """Node ids of the passing tests (of those under ``within``) that run a line of
    ``path`` from ``first`` to ``last``, in the order to run them."""
    by_line = cmap["lines"].get(path, {})
    ids = {cmap["ids"][h] for n in range(first, last + 1) for h in by_line.get(str(n), ())}
    tests = cmap["tests"]
    chosen = [i for i in ids if tests.get(i, {}).get("outcome") == "passed"
              and any(i.startswith(w.rstrip("/")) for w in within)]
    # The fastest variant of each test function first (a server test runs under three clients;
    # one of them reaches what the others do), then the other variants, each round fastest first.
    by_speed = sorted(chosen, key=lambda i: (tests[i].get("seconds", 0.0), i))
    seen: set[str] = set()
    first_round, rest = [], []
    for i in by_speed:
        function = i.split("[", 1)[0]
        (rest if function in seen else first_round).append(i)
        seen.add(function)
    return first_round + rest
