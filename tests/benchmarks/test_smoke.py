"""Smoke runs of every benchmark script at tiny sizes, so they never rot.

Asserts that the scripts run and write well-formed output; never asserts timings.
A peer linter that is not installed is skipped (a failure under CI=true, which installs
the pinned peers); skill-lsp's own parts must run.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "benchmarks"
sys.path.insert(0, str(BENCH))

import gen_workspace  # noqa: E402
from lsp_client import LspClient  # noqa: E402

from helpers import require  # noqa: E402


def run_script(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    p = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=timeout, cwd=REPO
    )
    assert p.returncode == 0, (
        f"{args[0]} failed (rc {p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    )
    return p


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != gen_workspace.MANIFEST
    }


def test_gen_workspace_deterministic(tmp_path: Path) -> None:
    run_script(str(BENCH / "gen_workspace.py"), "40", str(tmp_path / "a"), "--seed", "3")
    run_script(str(BENCH / "gen_workspace.py"), "40", str(tmp_path / "b"), "--seed", "3")
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert a == b
    skills = [k for k in a if k.endswith("SKILL.md")]
    assert len(skills) == 40
    roots = {k.rsplit("/", 2)[0] for k in skills}
    assert roots <= set(gen_workspace.ROOTS)
    for k in skills:
        text = a[k].decode("utf-8")
        assert text.startswith("---")
        assert text.replace("\r\n", "\n").count("\n---\n") >= 1
    man = json.loads((tmp_path / "a" / gen_workspace.MANIFEST).read_text())
    assert man["params"]["skills"] == 40
    # another seed gives another tree; body scale multiplies the body
    gen_workspace.generate(40, tmp_path / "c", seed=4)
    assert tree(tmp_path / "c") != a
    gen_workspace.generate(40, tmp_path / "x4", seed=3, body_scale=4)
    size = lambda t: sum(len(v) for k, v in t.items() if k.endswith("SKILL.md"))  # noqa: E731
    assert 3 * size(a) < size(tree(tmp_path / "x4")) < 5 * size(a)


def test_lsp_client_against_empty_server() -> None:
    async def go() -> None:
        c = LspClient([sys.executable, str(BENCH / "empty_server.py")])
        await c.start()
        try:
            dt, result = await c.initialize(
                None, initialization_options={"debounceMs": 0}, timeout=60
            )
            assert "capabilities" in result
            mem = c.memory()  # read from /proc: both keys, peak at least current
            assert set(mem) == {"VmRSS", "VmHWM"} and mem["VmRSS"] <= mem["VmHWM"], mem
        finally:
            rc = await c.stop()
        assert rc is not None

    asyncio.run(go())


def test_bench_check_skill_lsp(tmp_path: Path) -> None:
    run_script(
        str(BENCH / "bench_check.py"),
        "--quick",
        "--peers",
        "",
        "--out",
        str(tmp_path),
        "--corpus",
        str(tmp_path / "no-corpus"),
    )
    data = json.loads((tmp_path / "bench_check.json").read_text())
    md = (tmp_path / "bench_check.md").read_text()
    assert "| skill-lsp |" in md
    assert set(data["floor"]) >= {
        "python -c pass",
        "skill-lsp --version",
        "skill-lsp check (empty dir)",
    }
    for label, f in data["floor"].items():
        assert_measured(f, data["reps"], label)
    # the CLI must not import pygls / lsprotocol
    for label, chk in data["import_check"].items():
        assert chk["forbidden"] == [], (label, chk)
    gens = [d for k, d in data["datasets"].items() if k.startswith(("generated", "growth"))]
    assert gens
    for ds in gens:
        t = ds["tools"]["skill-lsp"]
        assert_measured(t, data["reps"], "skill-lsp")
        assert "json ok" in t["note"], t["note"]
        assert t["in_process"]["skills"] == ds["skills"]


PEERS = {
    "agnix": lambda: shutil.which("agnix") or (Path(sys.executable).parent / "agnix").exists(),
    "skillsaw": lambda: (
        shutil.which("skillsaw") or (Path(sys.executable).parent / "skillsaw").exists()
    ),
    "skills-ref": lambda: importlib.util.find_spec("skills_ref") is not None,
}
PINS = {"agnix": "agnix==0.59.3", "skillsaw": "skillsaw==0.22.0", "skills-ref": "skills-ref==0.1.1"}


def assert_measured(entry: dict, reps: int, label: str) -> None:
    """A timing entry summarises exactly its successful runs."""
    runs = entry["runs"]
    assert entry["ok"] and len(runs) == reps, (label, entry)
    assert not any(r["timed_out"] for r in runs), (label, runs)  # linters exit 1 on findings
    walls = sorted(r["wall_s"] for r in runs)
    assert entry["min_wall_s"] <= entry["median_wall_s"] <= entry["max_wall_s"], (label, entry)
    assert abs(entry["min_wall_s"] - walls[0]) < 1e-3 and abs(entry["max_wall_s"] - walls[-1]) < 1e-3, label


@pytest.mark.parametrize("peer", sorted(PEERS))
def test_bench_check_peer(peer: str, tmp_path: Path) -> None:
    require(PEERS[peer](), peer, f"pip install {PINS[peer]}")
    run_script(
        str(BENCH / "bench_check.py"),
        "--quick",
        "--only",
        "sizes",
        "--sizes",
        "5",
        "--peers",
        peer,
        "--out",
        str(tmp_path),
    )
    data = json.loads((tmp_path / "bench_check.json").read_text())
    (ds,) = data["datasets"].values()
    t = ds["tools"][peer]
    assert_measured(t, data["reps"], peer)
    if peer == "skills-ref":
        assert t["in_process"]["skills"] == 5


def test_bench_server(tmp_path: Path) -> None:
    run_script(
        str(BENCH / "bench_server.py"), "--quick", "--out", str(tmp_path), "--lines", "20,200"
    )
    data = json.loads((tmp_path / "bench_server.json").read_text())
    assert data["errors"] == [], data["errors"]
    ph = data["phases"]
    for label in ("skill-lsp serve", "empty pygls server"):
        assert ph["init"][label]["n"] == 2 and ph["init"][label]["p50_ms"] > 0
    for n in ("20", "200"):
        e = ph["edit"][n]
        assert e["open_to_diagnostics_ms"] is not None
        assert e["all"]["n"] > 0
    for k, v in ph["requests"].items():
        assert v["n"] > 0, k
    # --quick scans both kinds of workspace: one shaped like real repositories, the stress one.
    assert {v["kind"] for v in ph["scan"].values()} == {"realistic", "stress"}
    for scan in ph["scan"].values():
        assert scan["runs"][0]["vmrss_mib"] > 0
        assert scan["runs"][0]["complete_s"] is not None
    assert "## Budgets" in (tmp_path / "bench_server.md").read_text()


def test_bench_server_against_another_tree(tmp_path: Path) -> None:
    # --against with this very tree: every run twice, which tree goes first alternating.
    run_script(str(BENCH / "bench_server.py"), "--only", "scan", "--scan-kind", "realistic", "--scan-sizes", "5",
               "--scan-reps", "2", "--scan-cache", "cold", "--quiet", "0.3", "--status-grace", "2",
               "--out", str(tmp_path), "--against", str(REPO / "src"))
    data = json.loads((tmp_path / "bench_server.json").read_text())
    assert data["errors"] == [], data["errors"]
    runs = data["phases"]["scan"]["realistic-5"]["runs"]
    assert [r["tree"] for r in runs] == ["this", "against", "against", "this"]
    assert all(r["complete_s"] is not None for r in runs)
    assert "against" in (tmp_path / "bench_server.md").read_text()


def test_bench_pull(tmp_path: Path) -> None:
    run_script(str(BENCH / "bench_pull.py"), "--skills", "60", "--cache", "warm", "--edits", "5",
               "--steady", "3", "--out", str(tmp_path))
    (run,) = json.loads((tmp_path / "bench_pull.json").read_text())["runs"]
    assert run["reports"] > 0 and run["partial_results"] > 0 and run["diagnostics"] >= run["reports"]
    assert run["steady_edits"] > 0
    assert run["steady_pulls_answered"] == 0  # nothing changed: VS Code's next pull is held


def test_bench_groups(tmp_path: Path) -> None:
    run_script(str(BENCH / "bench_groups.py"), "--names", "12", "--descriptions", "12", "--edits", "2",
               "--out", str(tmp_path))
    runs = json.loads((tmp_path / "bench_groups.json").read_text())["runs"]
    assert {label: (r["skills"], sorted(k for k in r if k not in ("skills", "scan_s"))) for label, r in runs.items()} == {
        "one name": (12, ["body", "description", "name"]), "one description": (12, ["body", "description", "name"])}
    assert all(r[place]["edits"] == 2 for r in runs.values() for place in ("body", "description", "name"))
    # A body edit changes no other skill's findings: nothing else is sent.
    assert [r["body"]["others_published"] for r in runs.values()] == [0, 0]


def test_bench_burst() -> None:
    out = run_script(str(BENCH / "bench_burst.py"), "--reps", "1").stdout
    assert "burst of 100 edits" in out and "median" in out


def test_bench_hostile(tmp_path: Path) -> None:
    run_script(str(BENCH / "bench_hostile.py"), "--reps", "1", "--out", str(tmp_path))
    data = json.loads((tmp_path / "bench_hostile.json").read_text())
    sys.path.insert(0, str(REPO / "tests" / "hardening"))
    from hostile_cases import TEXT_CASES, YAML_CASES  # noqa: PLC0415

    cases = [r["case"] for r in data["rows"]]
    assert len(cases) == len(YAML_CASES) + len(TEXT_CASES) + 4 == len(set(cases))
    assert {r["budget_s"] for r in data["rows"]} == {1.0, 5.0, 60.0}


def test_precision_report_on_a_tiny_corpus(tmp_path: Path):
    corpus = tmp_path / "corpus"
    skill = corpus / "repo" / "skills" / "demo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: Demo Skill\ndescription: Does a thing. Use when testing.\n---\n"
                                    "# Demo\n[gone](missing.md)\n", encoding="utf-8")
    out = tmp_path / "precision.md"
    run_script(str(BENCH / "precision.py"), "--corpus", str(corpus), "--out", str(out))
    text = out.read_text(encoding="utf-8")
    assert "| `BROKEN_LINK` | warning |" in text and "| `NAME_INVALID` | error |" in text
    assert "- `repo/skills/demo/SKILL.md:6:8` **unaudited**" in text  # no verdict for a new finding


def test_fix_safety_audit_on_a_generated_workspace(tmp_path: Path):
    """benchmarks/fix_safety.py over a generated workspace (trailing spaces, unquoted colons,
    code blocks with link-like text): fixes apply, none outside findings or in code."""
    run_script(str(BENCH / "gen_workspace.py"), "60", str(tmp_path / "ws"), "--seed", "5")
    out = run_script(str(BENCH / "fix_safety.py"), str(tmp_path / "ws"), "--json", str(tmp_path / "a.json")).stdout
    data = json.loads((tmp_path / "a.json").read_text())
    assert data["ok"] and data["regions"] > 0 and data["in_code"] == 0 and data["outside"] == 0, out


def test_gen_realistic_deterministic(tmp_path: Path) -> None:
    run_script(str(BENCH / "gen_realistic.py"), "30", str(tmp_path / "a"), "--seed", "2")
    run_script(str(BENCH / "gen_realistic.py"), "30", str(tmp_path / "b"), "--seed", "2")
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert a == b
    skills = [k for k in a if k.endswith("SKILL.md")]
    assert len(skills) == 30
    assert len(a) > len(skills)  # bundled files beside the skills


def test_measure_repos_round_trip(tmp_path: Path) -> None:
    """The shape measured from a generated workspace (one repository) is well-formed JSON, and
    --compare prints a workspace beside it."""
    run_script(str(BENCH / "gen_realistic.py"), "25", str(tmp_path / "repos" / "one"), "--seed", "1")
    shape = tmp_path / "shape.json"
    run_script(str(BENCH / "measure_repos.py"), str(tmp_path / "repos"), "--out", str(shape))
    data = json.loads(shape.read_text())
    assert data
    out = run_script(str(BENCH / "measure_repos.py"), str(tmp_path / "repos"), "--compare", str(shape)).stdout
    assert out.strip()


def test_bench_startup(tmp_path: Path) -> None:
    run_script(str(BENCH / "bench_startup.py"), "--quick", "--no-peers", "--out", str(tmp_path))
    data = json.loads((tmp_path / "bench_startup.json").read_text())
    assert data
    assert (tmp_path / "bench_startup.md").read_text().strip()


def test_bench_priority(tmp_path: Path) -> None:
    # Four small scans (workers at nice 10 / SCHED_IDLE, quiet / beside a bounded competing load):
    # every way reports its figures.
    run_script(str(BENCH / "bench_priority.py"), "--skills", "120", "--reps", "1", "--typing", "10",
               "--ways", "10,idle", "--load-s", "60", "--out", str(tmp_path))
    rows = json.loads((tmp_path / "bench_priority.json").read_text())
    assert [(r["nice"], r["loaded"]) for r in rows] == [("10", False), ("idle", False), ("10", True), ("idle", True)]
    # One scan without typing (its own times), one with (keystrokes while it runs).
    assert all(r["runs"] == 2 and r["complete_s"] is not None and r["errors_s"] is not None
               and r["keystroke_p95_ms"] is not None for r in rows)


def test_bench_skill_cost(tmp_path: Path) -> None:
    # Both jobs over a few generated skills, alternating with the same tree given as --against.
    run_script(str(BENCH / "gen_workspace.py"), "30", str(tmp_path / "ws"), "--seed", "1")
    p = run_script(str(BENCH / "bench_skill_cost.py"), str(tmp_path / "ws"), "--skills", "20", "--reps", "1",
                   "--against", str(REPO / "src"))
    rows = [line for line in p.stdout.splitlines() if line.startswith("| ") and "µs" not in line and "---" not in line]
    assert len(rows) == 2
    for row in rows:
        first, check = (float(x) for x in row.strip("| ").split(" | ")[1:])
        assert first > 0 and check > 0
    # What --instructions runs under callgrind (valgrind itself is too slow for the suite): both jobs.
    for job in ("scan", "cli"):
        run_script(str(BENCH / "bench_skill_cost.py"), str(tmp_path / "ws"), "--jobs-only", job, "--skills", "5")


def test_heldout_replicate(tmp_path: Path) -> None:
    # A half laid out twice side by side, every file as it was (hard-linked where it can be).
    half = tmp_path / "root" / "test" / "owner+repo" / "skills" / "demo"
    (half / "scripts").mkdir(parents=True)
    (half / "SKILL.md").write_text("---\nname: demo\ndescription: A demo.\n---\nBody\n")
    (half / "scripts" / "run.sh").write_text("#!/bin/sh\n")
    out = tmp_path / "out"
    run_script(str(BENCH / "heldout.py"), "replicate", "--root", str(tmp_path / "root"), "--copies", "2",
               "--out", str(out))
    source = tree(tmp_path / "root" / "test")
    assert sorted(p.name for p in out.iterdir()) == ["copy1", "copy2"]
    assert tree(out / "copy1") == source and tree(out / "copy2") == source
    # An earlier replica is replaced; a folder holding anything else is never removed.
    run_script(str(BENCH / "heldout.py"), "replicate", "--root", str(tmp_path / "root"), "--copies", "1",
               "--out", str(out))
    assert sorted(p.name for p in out.iterdir()) == ["copy1"]
    (out / "notes.txt").write_text("mine")
    p = subprocess.run([sys.executable, str(BENCH / "heldout.py"), "replicate", "--root", str(tmp_path / "root"),
                        "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and (out / "notes.txt").read_text() == "mine"
