#!/usr/bin/env python3
"""Keystrokes among large groups: N skills sharing one name, N sharing one description.

    python benchmarks/bench_groups.py                  # 2,000 and 1,250 skills, 30 edits a place
    python benchmarks/bench_groups.py --names 50 --descriptions 50 --edits 5   # a smoke run

A cross-skill finding (DUPLICATE_NAME, DESCRIPTION_OVERLAP) ties every member of a group to the
others, so an index that recomputes the group on each keystroke costs O(N²) there. Generates two
workspaces under OUT/ws-groups (one root, ``skills/``): ``--names`` copies of one name and
``--descriptions`` skills of distinct names sharing one template description. Starts
`skill-lsp serve` on each (default debounce 0), waits for the scan, opens one skill and times
one-character edits, each from `didChange` to its `publishDiagnostics`, at three places: the
body, the description and the name. Counts the other files published meanwhile (an edit that
changes a shared name or description changes the others' messages: they are sent again).
Output: OUT/bench_groups.{json,md}.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DEFAULT_OUT, machine_info, md_table, skill_lsp_cmd, write_outputs  # noqa: E402
from lsp_client import LspClient, uri_of  # noqa: E402

DESCRIPTION = "Summarises the weekly reports of a team and writes the figures into one table."


def generate(ws: Path, n: int, shared_name: bool) -> Path:
    """``n`` skills under ``ws/skills``: all named ``same`` (folders s1..sN), or named for their
    folders with one description; returns the first skill's SKILL.md."""
    if ws.exists():
        shutil.rmtree(ws)
    for i in range(1, n + 1):
        folder = ws / "skills" / f"s{i}"
        folder.mkdir(parents=True)
        name = "same" if shared_name else f"s{i}"
        description = f"Copy {i} of a skill that writes the weekly figures." if shared_name else DESCRIPTION
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n\n# Notes\n\nText.\n")
    return ws / "skills" / "s1" / "SKILL.md"


async def measure(ws: Path, path: Path, places: dict[str, str], edits: int, timeout: float) -> dict:
    c = LspClient([*skill_lsp_cmd(), "serve"], cwd=ws, settings={"debounceMs": 0})
    out: dict = {}
    try:
        await c.start()
        t_init = time.perf_counter()
        await c.initialize(ws, initialization_options={"debounceMs": 0}, timeout=60)
        while not any(m == "skillLsp/status" and isinstance(p, dict) and p.get("scanning") is False
                      and t > t_init for t, m, p in c.notifications):
            if time.perf_counter() - t_init > timeout:
                raise SystemExit(f"{ws}: no end of the scan in {timeout} s")
            await asyncio.sleep(0.05)
        out["scan_s"] = round(time.perf_counter() - t_init, 2)
        text = path.read_text(encoding="utf-8")
        uri = uri_of(path)
        version = 1
        others = [0]  # publishes of files other than the edited one
        c.on_publish = lambda u, _p: others.__setitem__(0, others[0] + (u != uri))
        c.did_open(uri, text)
        await asyncio.sleep(0.3)
        for place, anchor in places.items():
            times: list[float] = []
            others[0] = 0
            for k in range(1, edits + 1):
                version += 1
                edited = text.replace(anchor, anchor + "x" * k, 1)
                fut = c.expect("textDocument/publishDiagnostics",
                               lambda p, v=version: p.get("uri") == uri and p.get("version") == v)
                t0 = time.perf_counter()
                c.did_change_full(uri, edited, version)
                t, _ = await c.wait(fut, timeout)
                times.append((t - t0) * 1000)
                await asyncio.sleep(0.02)
            # Back to the text as opened, so that each place starts from the same workspace.
            version += 1
            fut = c.expect("textDocument/publishDiagnostics", lambda p, v=version: p.get("uri") == uri and p.get("version") == v)
            c.did_change_full(uri, text, version)
            await c.wait(fut, timeout)
            await asyncio.sleep(0.5)
            out[place] = {"edits": len(times), "p50_ms": round(statistics.median(times), 2),
                          "max_ms": round(max(times), 2), "others_published": others[0]}
    finally:
        await c.stop()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--names", type=int, default=2000, help="skills sharing one name")
    ap.add_argument("--descriptions", type=int, default=1250, help="skills sharing one description")
    ap.add_argument("--edits", type=int, default=30, help="edits at each place")
    ap.add_argument("--timeout", type=float, default=60.0, help="bound on the scan and on each edit, s")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    a = ap.parse_args(argv)
    rows, data = [], {"machine": machine_info(), "edits": a.edits, "runs": {}}
    for label, n, shared_name, places in (
            ("one name", a.names, True, {"body": "Text.", "description": "weekly figures", "name": "name: same"}),
            ("one description", a.descriptions, False, {"body": "Text.", "description": "one table", "name": "name: s1"})):
        ws = a.out / "ws-groups" / label.replace(" ", "-")
        path = generate(ws, n, shared_name)
        r = asyncio.run(measure(ws, path, places, a.edits, a.timeout))
        data["runs"][label] = {"skills": n, **r}
        for place in places:
            p = r[place]
            rows.append([f"{n:,} skills, {label}", place, r["scan_s"], p["p50_ms"], p["max_ms"], p["others_published"]])
    md = "# bench_groups\n\n" + md_table(
        ["workspace", "edit in", "scan s", "didChange → diagnostics p50 ms", "max ms", "other files published"], rows)
    jp, _ = write_outputs(a.out, "bench_groups", data, md)
    print(md)
    print(f"wrote {jp}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
