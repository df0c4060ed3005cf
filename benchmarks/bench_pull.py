#!/usr/bin/env python3
"""Workspace diagnostics pulled as VS Code pulls them, on a large generated workspace.

    python benchmarks/bench_pull.py                      # 10,000 skills, cold then warm
    python benchmarks/bench_pull.py --skills 1000 --cache warm

vscode-languageclient sends ``workspace/diagnostic`` at start, with a partial-result token,
and again 2 s after every answer with the result ids it holds. This client does the same:
the first pull right after ``initialized``, then one 200-line document typed into (each
``didChange`` followed by its ``textDocument/diagnostic``, as VS Code asks after an edit)
while that pull runs, then ``--steady`` seconds more of typing with VS Code's loop running (a pull 2 s after each
answer, with the result ids it holds; nothing else changes). Measured: ``initialized`` →
first pull answered (every report, streamed or not), the reports and bytes it carried,
keystroke → document diagnostics while it ran, and in the steady state how many pulls were
answered, what they carried and the keystroke figures. Output: ``OUT/bench_pull.{json,md}``.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_workspace  # noqa: E402
from _common import DEFAULT_OUT, CpuSampler, machine_info, md_table, skill_lsp_cmd, write_outputs  # noqa: E402
from bench_server import TYPED, make_doc  # noqa: E402
from lsp_client import CLIENT_CAPABILITIES, LspClient, uri_of  # noqa: E402

PULL_CAPABILITIES = copy.deepcopy(CLIENT_CAPABILITIES)
PULL_CAPABILITIES["textDocument"]["diagnostic"] = {"relatedDocumentSupport": True}
PULL_CAPABILITIES.setdefault("workspace", {})["diagnostics"] = {"refreshSupport": True}


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def received(c: LspClient, since: int, token: str, answer: dict) -> tuple[list[dict], int]:
    """A pull's reports: its partial results (sent after notification ``since``) and its answer."""
    parts = [p["value"]["items"] for _, method, p in list(c.notifications)[since:]
             if method == "$/progress" and isinstance(p, dict) and p.get("token") == token]
    return [x for part in parts for x in part] + list(answer.get("items", [])), len(parts)


async def run(ws: Path, cache_dir: Path, typing_dir: Path, a: argparse.Namespace) -> dict:
    c = LspClient([*skill_lsp_cmd(), "serve"], cwd=ws, settings={"debounceMs": 0},
                  env={**os.environ, "SKILL_LSP_CACHE_DIR": str(cache_dir)})
    r: dict = {}
    await c.start()
    try:
        await c.initialize(ws, initialization_options={"debounceMs": 0}, timeout=a.timeout,
                           capabilities=PULL_CAPABILITIES)
        t0 = time.perf_counter()
        cpu = CpuSampler(c.pid).start()
        n0 = len(c.notifications)
        first = asyncio.ensure_future(c.request("workspace/diagnostic", {"previousResultIds": [],
                                                                         "partialResultToken": "pull-1"},
                                                timeout=a.timeout))
        # Typing while the first pull is held (scan) and then streamed.
        path, text = make_doc(typing_dir, "typing-200", 200, seed=200)
        uri = uri_of(path)
        lines = text.split("\n")
        li = len(lines) // 2
        c.did_open(uri, text, 1)
        edits = 0

        async def keystroke() -> float:
            """One character typed, then the document pull VS Code sends for it: ms."""
            nonlocal edits
            edits += 1
            lines[li] += TYPED[edits % len(TYPED)]
            t1 = time.perf_counter()
            c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": edits + 1},
                                                "contentChanges": [{"text": "\n".join(lines)}]})
            await c.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=a.timeout)
            ms = (time.perf_counter() - t1) * 1000
            await asyncio.sleep(a.interval)
            return ms

        lat: list[float] = []
        while len(lat) < a.edits and not first.done():
            lat.append(await keystroke())
        answer = await first
        r["first_pull_s"] = round(time.perf_counter() - t0, 2)
        reports, chunks = received(c, n0, "pull-1", answer)
        r["reports"] = len(reports)
        r["diagnostics"] = sum(len(x["items"]) for x in reports)
        r["partial_results"] = chunks
        r["first_pull_mib"] = round(len(json.dumps(reports)) / 2**20, 1)
        r["edits"] = len(lat)
        r["keystroke_p50_ms"] = round(statistics.median(lat), 2) if lat else None
        r["keystroke_p95_ms"] = round(pct(lat, 95) or 0, 2) if lat else None
        r["keystroke_max_ms"] = round(max(lat), 2) if lat else None
        # Steady state: VS Code's loop (a pull 2 s after each answer, with the ids it holds)
        # while the author keeps typing and nothing else changes.
        known = {x["uri"]: x.get("resultId") for x in reports if x.get("resultId")}
        stop = time.perf_counter() + a.steady
        answered: list[int] = []

        async def vscode_loop() -> None:
            n = 1
            while time.perf_counter() < stop:
                n += 1
                m0 = len(c.notifications)
                try:
                    got = await c.request("workspace/diagnostic", {
                        "previousResultIds": [{"uri": u, "value": v} for u, v in known.items()],
                        "partialResultToken": f"pull-{n}"}, timeout=max(0.1, stop - time.perf_counter()))
                except TimeoutError:
                    return  # held until the end (the client cancels it)
                items, _ = received(c, m0, f"pull-{n}", got)
                known.update({x["uri"]: x["resultId"] for x in items if x.get("resultId")})
                answered.append(len(json.dumps(items)))
                await asyncio.sleep(2.0)

        loop_task = asyncio.ensure_future(vscode_loop())
        steady: list[float] = []
        while time.perf_counter() < stop:
            steady.append(await keystroke())
        await loop_task
        r["steady_s"] = a.steady
        r["steady_pulls_answered"] = len(answered)
        r["steady_mib_received"] = round(sum(answered) / 2**20, 1)
        r["steady_edits"] = len(steady)
        r["steady_keystroke_p50_ms"] = round(statistics.median(steady), 2) if steady else None
        r["steady_keystroke_p95_ms"] = round(pct(steady, 95) or 0, 2) if steady else None
        r["steady_keystroke_max_ms"] = round(max(steady), 2) if steady else None
        r["cpu_s"] = cpu.stop()
        r["server_log"] = c.scan_log()
    finally:
        await c.stop()
    return r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--skills", type=int, default=10_000)
    ap.add_argument("--nested", type=float, default=0.3)
    ap.add_argument("--cache", choices=("cold", "warm", "both"), default="both")
    ap.add_argument("--edits", type=int, default=300, help="at most this many edits while the first pull runs")
    ap.add_argument("--interval", type=float, default=0.05, help="seconds between edits")
    ap.add_argument("--steady", type=float, default=20.0,
                    help="seconds of typing after the first pull, with VS Code's pull loop running")
    ap.add_argument("--timeout", type=float, default=180.0)
    ap.add_argument("--work", type=Path, default=None, help="where generated workspaces live (default: OUT)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = ap.parse_args(argv)
    work = a.work or a.out
    ws = work / f"ws-{a.skills}-s0-nested{a.nested}"
    gen_workspace.generate(a.skills, ws, seed=0, nested=a.nested)
    cache_dir = (a.out / "pull-cache").resolve()
    typing_dir = a.out / "pull-typing"
    runs = []
    for kind in {"cold": ["cold"], "warm": ["warm"], "both": ["cold", "warm"]}[a.cache]:
        if kind == "cold":
            shutil.rmtree(cache_dir, ignore_errors=True)
        print(f"pull: {a.skills} skills, {kind} result cache", file=sys.stderr, flush=True)
        r = {"cache": kind, **asyncio.run(run(ws, cache_dir, typing_dir, a))}
        for line in r.pop("server_log", []):
            print(f"  server: {line}", file=sys.stderr)
        print(f"  {r}", file=sys.stderr, flush=True)
        runs.append(r)
    keys = [k for k in runs[0] if k != "cache"]
    md = "# bench_pull\n\n" + md_table(["measure", *[r["cache"] for r in runs]],
                                       [[k, *[r.get(k) for r in runs]] for k in keys])
    jp, _ = write_outputs(a.out, "bench_pull", {"machine": machine_info(), "skills": a.skills, "runs": runs}, md)
    print(md)
    print(f"wrote {jp}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
