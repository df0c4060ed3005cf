#!/usr/bin/env python3
"""A repository changing under the server: `git checkout` of a branch that adds, removes,
renames and rewrites CHANGED SKILL.md files while the editor is open.

    python benchmarks/bench_churn.py                    # 10,000 skills, 5,000 changed
    python benchmarks/bench_churn.py --skills 1000 --changed 500

The workspace (generated, a share in nested plugin layouts) is a git repository
with two branches. The server is started on branch ``base`` and scans; one
SKILL.md is open. Then ``git checkout churn`` runs and the client sends the
watched-file events an editor sends (Deleted / Created / Changed per file, in
batches of 500 as VS Code does). Measured: from the checkout's end to the
moment the server's published diagnostics equal ``check --format json`` on the
new tree exactly — (file, code, range) — and whether any file that no longer
exists still has diagnostics. Output: ``OUT/bench_churn.{json,md}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_workspace  # noqa: E402
from _common import DEFAULT_OUT, machine_info, md_table, skill_lsp_cmd, write_outputs  # noqa: E402
from lsp_client import LspClient, uri_of  # noqa: E402

CREATED, CHANGED, DELETED = 1, 2, 3
BATCH = 500


def git(ws: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "core.fsmonitor=false",
                    *args], cwd=ws, check=True, capture_output=True, timeout=600)


def prepare(ws: Path, skills: int, changed: int, seed: int) -> list[tuple[str, int]]:
    """Generate the repository with branches ``base`` and ``churn``; return the file events of the checkout."""
    if ws.exists():
        shutil.rmtree(ws)
    gen_workspace.generate(skills, ws, seed=seed, body_scale=0.3, nested=0.3)
    (ws / gen_workspace.MANIFEST).unlink()
    git(ws, "init", "-q", "-b", "base")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "base")
    git(ws, "checkout", "-q", "-b", "churn")
    rng = random.Random(seed)
    files = sorted(ws.glob("**/SKILL.md"))
    picked = rng.sample(files, min(len(files), changed * 3 // 4))
    quarter = len(picked) // 3
    removed, renamed, rewritten = picked[:quarter], picked[quarter:2 * quarter], picked[2 * quarter:]
    for p in removed:
        shutil.rmtree(p.parent)
    for p in renamed:
        p.parent.rename(p.parent.with_name(p.parent.name + "-moved"))
    for i, p in enumerate(rewritten):
        text = p.read_text(encoding="utf-8")
        # A new name (mismatch), trailing spaces and a mention: every rewrite changes the findings.
        p.write_text(text.replace("\nname: ", f"\nname: renamed-{i}-", 1) + f"\nRun `/{p.parent.name}x` now.  \n",
                     encoding="utf-8")
    added_root = ws / "plugins" / "added" / "skills"
    for i in range(changed - len(picked)):
        d = added_root / f"added-skill-{i}"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: added-skill-{i}\ndescription: Added on the branch. Use when "
                                    f"testing churn.\n---\n# Added {i}\n\nSee [x](missing-{i}.md).\n", encoding="utf-8")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "churn")
    git(ws, "checkout", "-q", "base")
    out = [(str(p), DELETED) for p in removed]
    for p in renamed:
        out += [(str(p), DELETED), (str(p.parent.with_name(p.parent.name + "-moved") / "SKILL.md"), CREATED)]
    out += [(str(p), CHANGED) for p in rewritten]
    out += [(str(added_root / f"added-skill-{i}" / "SKILL.md"), CREATED) for i in range(changed - len(picked))]
    return out


def expected(ws: Path) -> set[tuple[str, str, str]]:
    # Every skill checked: an oracle for the server's result cache must not read a cache itself.
    cmd = [*skill_lsp_cmd(), "check", "--format", "json", "--no-cache", str(ws)]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=ws, timeout=600, check=False)
    data = json.loads(res.stdout)
    # LISTING_BUDGET weighs every skill of the workspace: `check` reports it, the editor shows the
    # same decision live in hover and code lens instead of a diagnostic (docs/rules.md).
    return {(_file(uri_of(f["path"])), f["code"], json.dumps(f["range"], sort_keys=True)) for f in data["findings"]
            if f["code"] != "LISTING_BUDGET"}


def _file(uri: str) -> str:
    """The file a URI names, as a key: one path has several spellings (`Path.as_uri` writes `+` as
    `%2B`, the server does not; the held-out checkouts are named `owner+repo`)."""
    return unquote(uri)


def _triples(uri: str, params: dict) -> frozenset[tuple[str, str, str]]:
    key = _file(uri)
    return frozenset((key, d["code"], json.dumps(d["range"], sort_keys=True)) for d in params.get("diagnostics", []))


def published(c: LspClient) -> set[tuple[str, str, str]]:
    out: set[tuple[str, str, str]] = set()
    for uri, (_, params) in c.diagnostics.items():
        out |= _triples(uri, params)
    return out


class Convergence:
    """Which files' published diagnostics differ from a target, kept up to date publish by
    publish. Recomputing every file's set on each poll (20,000 findings, every 20 ms) took
    most of a core from the two the server was measured on."""

    def __init__(self, c: LspClient) -> None:
        self.c = c
        self.want: dict[str, frozenset] = {}
        self.differ: set[str] = set()
        c.on_publish = self._on_publish

    def target(self, want: set[tuple[str, str, str]]) -> None:
        by_file: dict[str, set] = {}
        for triple in want:
            by_file.setdefault(triple[0], set()).add(triple)
        self.want = {f: frozenset(v) for f, v in by_file.items()}
        got = {_file(u): _triples(u, params) for u, (_, params) in self.c.diagnostics.items()}
        self.differ = {f for f in self.want.keys() | got.keys() if got.get(f, frozenset()) != self.want.get(f, frozenset())}

    def _on_publish(self, uri: str, params: dict) -> None:
        key = _file(uri)
        if _triples(uri, params) == self.want.get(key, frozenset()):
            self.differ.discard(key)
        else:
            self.differ.add(key)

    @property
    def done(self) -> bool:
        return not self.differ


def stale(c: LspClient, ws: Path) -> list[str]:
    """URIs that still show diagnostics for a file that does not exist."""
    root = _file(uri_of(ws))
    return [u for u, (_, p) in c.diagnostics.items()
            if p.get("diagnostics") and _file(u).startswith(root) and not os.path.exists(_file(u)[len("file://"):])]


async def run(ws: Path, events: list[tuple[str, int]], timeout: float, log=print, spread: float = 0.1) -> dict:
    c = LspClient([*skill_lsp_cmd(), "serve"], cwd=ws, settings={"debounceMs": 0})
    track = Convergence(c)
    r: dict = {"events": len(events)}
    try:
        await c.start()
        await c.initialize(ws, initialization_options={"debounceMs": 0}, timeout=60)
        t0 = time.perf_counter()
        track.target(expected(ws))
        while not track.done:
            if time.perf_counter() - t0 > timeout:
                r["initial_scan_timed_out"] = True
                break
            await asyncio.sleep(0.05)
        r["initial_scan_s"] = round(time.perf_counter() - t0, 2)
        first = [t for t, m, p in c.notifications if m == "skillLsp/status" and isinstance(p, dict)
                 and p.get("scanning") is False]
        r["initial_status_s"] = round(first[0] - c.t_spawn, 2) if first else None
        opened = next(p for p, k in events if k == CHANGED)
        c.did_open(uri_of(opened), Path(opened).read_text(encoding="utf-8"))
        await asyncio.sleep(0.5)
        c.did_close(uri_of(opened))  # back to the disk: the checkout rewrites it
        t_git = time.perf_counter()
        git(ws, "checkout", "-q", "churn")
        r["git_checkout_s"] = round(time.perf_counter() - t_git, 2)
        want = expected(ws)  # the CLI's answer on the new tree (computed before timing starts)
        track.target(want)
        # URIs made before timing too: an editor has them from its watcher (Path.resolve took
        # 43 ms a batch here, which spread the batches past the server's coalescing window).
        batches = [[{"uri": uri_of(p), "type": k} for p, k in events[i:i + BATCH]]
                   for i in range(0, len(events), BATCH)]
        pause = spread / max(1, len(batches) - 1)
        t1 = time.perf_counter()
        cpu1 = time.process_time()
        for i, batch in enumerate(batches):
            if i:
                await asyncio.sleep(pause)
            c.notify("workspace/didChangeWatchedFiles", {"changes": batch})
        r["events_sent_s"] = round(time.perf_counter() - t1, 2)
        converged = None
        while time.perf_counter() - t1 < timeout:
            if track.done and not stale(c, ws):
                converged = time.perf_counter() - t1
                break
            await asyncio.sleep(0.02)
        r["client_cpu_s"] = round(time.process_time() - cpu1, 2)  # this process, sharing the cores
        got = published(c)
        done = [t for t, m, p in c.notifications if m == "skillLsp/status" and isinstance(p, dict)
                and p.get("scanning") is False and t > t1]
        r["server_scan_done_s"] = round(done[-1] - t1, 2) if done else None
        r["last_publish_s"] = round(c.last_publish_t - t1, 2)
        r.update({"converged_s": None if converged is None else round(converged, 2),
                  "expected_findings": len(want), "published_findings": len(got),
                  "missing": len(want - got), "extra": len(got - want), "stale_uris": len(stale(c, ws)),
                  "publishes": c.publish_count,
                  "examples": sorted(want ^ got)[:4]})
        mem = c.memory()
        r["vmhwm_mib"] = round(mem.get("VmHWM", 0) / 1024, 1)
        # The server's own account of each scan (the initial one, then the rescan).
        r["server_log"] = c.scan_log()
        for line in r["server_log"]:
            log(f"server: {line}")
        log(f"converged in {r['converged_s']} s; missing {r['missing']}, extra {r['extra']}, stale {r['stale_uris']}")
    finally:
        await c.stop()
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--skills", type=int, default=10_000)
    ap.add_argument("--changed", type=int, default=5_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--spread", type=float, default=0.1,
                    help="seconds over which the event batches are sent (a watcher reports a long checkout "
                         "while it runs); convergence is timed from the first batch")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = ap.parse_args(argv)
    ws = a.out / "ws-churn" / "repo"
    events = prepare(ws, a.skills, a.changed, a.seed)
    result = asyncio.run(run(ws, events, a.timeout, spread=a.spread))
    data = {"machine": machine_info(), "skills": a.skills, "changed": a.changed, "spread_s": a.spread,
            "result": result}
    md = "# bench_churn\n\n" + md_table(["measure", "value"], [[k, v] for k, v in result.items()])
    jp, _ = write_outputs(a.out, "bench_churn", data, md)
    print(md)
    print(f"wrote {jp}", file=sys.stderr)
    return 0 if result.get("converged_s") is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
