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


def _phase_less(context: str) -> str:
    """`tests/x.py::test_y[a] (setup)` (PYTEST_CURRENT_TEST) -> `tests/x.py::test_y[a]`."""
    head, sep, tail = context.rpartition(" (")
    return head if sep and tail.endswith(")") else context


def build(work: Path, tests: list[str], out: Path, env: dict[str, str], *, nice: bool = True) -> dict:
    """Run ``tests`` in the work copy under coverage; write and return the map:
    ``{"lines": {file: {line: [node ids]}}, "tests": {node id: {"seconds", "outcome"}}}``."""
    work = work.resolve()
    cov = work / ".mutation-coverage"
    shutil.rmtree(cov, ignore_errors=True)
    (cov / "site").mkdir(parents=True)
    rc = cov / "coveragerc"
    rc.write_text(RC.format(data=cov / "data", source=work / "src" / "skill_lsp"), encoding="utf-8")
    (cov / "site" / "sitecustomize.py").write_text("import coverage\ncoverage.process_startup()\n",
                                                   encoding="utf-8")
    env = {**env, "COVERAGE_PROCESS_START": str(rc), "MUTATION_MAP_OUT": str(cov / "tests.json"),
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
    lines: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for measured in data.measured_files():
        rel = Path(measured).resolve().relative_to(work.resolve()).as_posix()
        for line, contexts in data.contexts_by_lineno(measured).items():
            ids = {_phase_less(c) for c in contexts if c}
            if ids:
                lines[rel][line] |= ids
    tests = json.loads((cov / "tests.json").read_text(encoding="utf-8"))
    result = {"tests": tests,
              "lines": {f: {str(n): sorted(ids) for n, ids in sorted(by_line.items())}
                        for f, by_line in sorted(lines.items())},
              "pytest_exit": proc.returncode}
    out.write_text(json.dumps(result) + "\n", encoding="utf-8")
    return result


def merge(old: dict, new: dict, replaced_files: list[str]) -> dict:
    """``old`` with the tests of ``replaced_files`` (test paths, as given to pytest) taken from ``new``."""
    def replaced(nodeid: str) -> bool:
        return any(nodeid == f or nodeid.startswith(f.rstrip("/") + ("/" if not f.endswith(".py") else "::"))
                   for f in replaced_files)

    tests = {k: v for k, v in old["tests"].items() if not replaced(k)} | new["tests"]
    lines: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for source in (old, new):
        for f, by_line in source["lines"].items():
            for n, ids in by_line.items():
                lines[f][n] |= {i for i in ids if (source is new) or not replaced(i)}
    return {"tests": tests, "lines": {f: {n: sorted(ids) for n, ids in by_line.items() if ids}
                                      for f, by_line in lines.items()}}


def select(cmap: dict, path: str, first: int, last: int, within: list[str]) -> list[str]:
    """Node ids of the passing tests (of those under ``within``) that run a line of
    ``path`` from ``first`` to ``last``, in the order to run them."""
    by_line = cmap["lines"].get(path, {})
    ids: set[str] = set()
    for n in range(first, last + 1):
        ids.update(by_line.get(str(n), ()))
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
