"""A large first open publishes every skill's errors (what makes a harness skip it) in a first
pass, before the complete checks; the complete diagnostics then replace them, nothing stale.

The oracle for the end state is `check --format json`; the first pass is seen in the order of
the publishes: a file that ends with an error and a warning got its error alone first.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from urllib.parse import unquote

from skill_lsp.server.services import sync

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))

import bench_churn  # noqa: E402
import gen_workspace  # noqa: E402
from _common import skill_lsp_cmd  # noqa: E402
from lsp_client import LspClient  # noqa: E402

# An error of the first stage (the name differs from its folder) and a body warning (a broken link).
MISNAMED = """---
name: not-{folder}
description: Misnamed on purpose. Use when testing the first pass.
---
# Misnamed

See [gone](references/gone.md).
"""


# An error of the first stage and nothing else: its complete diagnostics are its first pass's.
ONLY_ERROR = """---
name: not-{folder}
description: {what}. Use when {when}.
---
# {title}

{body}
"""
# Descriptions with nothing in common: no cross-skill finding (near-identical descriptions) joins in.
_ONLY = [("Rotates quarterly ledger snapshots into cold storage", "archiving finance exports"),
         ("Renders orbital telemetry as interactive charts", "a satellite pass ends"),
         ("Translates pottery glaze recipes between units", "a kiln firing is planned"),
         ("Drafts sonnet variations from haiku seeds", "poetry workshops need prompts"),
         ("Audits greenhouse humidity sensors for drift", "tomato seedlings wilt"),
         ("Schedules violin rehearsals around venue bookings", "an orchestra tours")]


async def _session(ws: Path, env: dict) -> tuple[list[tuple[str, list[dict]]], set, list[str]]:
    c = LspClient([*skill_lsp_cmd(), "serve"], cwd=ws, env=env, settings={"debounceMs": 0})
    try:
        await c.start()
        await c.initialize(ws, initialization_options={"debounceMs": 0}, timeout=60)
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 120:
            logs = c.scan_log()
            if logs:
                pubs = [(p["uri"], p.get("diagnostics", [])) for _, m, p in c.notifications
                        if m == "textDocument/publishDiagnostics"]
                return pubs, bench_churn.published(c), logs
            await asyncio.sleep(0.05)
        raise AssertionError("the scan never finished")
    finally:
        await c.stop()


def test_first_pass_publishes_errors_then_the_complete_diagnostics(tmp_path: Path) -> None:
    skills = sync.PARALLEL_MIN + 20  # enough for the scan's worker processes, which run the first pass
    ws = tmp_path / "owner+repo"  # as the held-out checkouts are named: a URI may spell `+` either way
    gen_workspace.generate(skills, ws, seed=5, body_scale=0.1)
    (ws / gen_workspace.MANIFEST).unlink()
    misnamed = []
    for i in range(12):
        p = ws / "skills" / f"misnamed-{i}" / "SKILL.md"
        p.parent.mkdir(parents=True)
        p.write_text(MISNAMED.format(folder=p.parent.name), encoding="utf-8")
        misnamed.append(p.as_uri())
    only_error = []
    for i, (what, when) in enumerate(_ONLY):
        p = ws / "skills" / f"only-{i}" / "SKILL.md"
        p.parent.mkdir(parents=True)
        p.write_text(ONLY_ERROR.format(folder=p.parent.name, what=what, when=when, title=what.split()[0],
                                       body=f"Steps for {when}."), encoding="utf-8")
        only_error.append(p.as_uri())
    env = {**os.environ, "SKILL_LSP_CACHE_DIR": str(tmp_path / "cache")}

    pubs, final, logs = asyncio.run(_session(ws, env))
    assert final == bench_churn.expected(ws)
    assert "first pass" in logs[0]
    errors_first = 0
    for uri in misnamed:
        seq = [d for u, d in pubs if unquote(u) == unquote(uri)]
        codes = [{x["code"] for x in d} for d in seq]
        assert codes[-1] >= {"NAME_MISMATCH", "BROKEN_LINK"}, codes
        if codes[0] == {"NAME_MISMATCH"}:
            assert all(x["severity"] == 1 for x in seq[0])
            errors_first += 1
    # Each file's first-pass errors go out unless its complete diagnostics went out before
    # them (a batch of the first pass yields to the loop between files): most of these.
    assert errors_first >= len(misnamed) // 2, errors_first
    # A file whose complete diagnostics are its first pass's is sent them once, whichever went first.
    for uri in only_error:
        seq = [d for u, d in pubs if unquote(u) == unquote(uri)]
        assert [[x["code"] for x in d] for d in seq] == [["NAME_MISMATCH"]], seq


def test_results_sent_during_the_walk_count_only_where_the_inventory_confirms_them(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    """``_EarlyFirst``: skills named while discovery walks go to the workers in chunks; ``pairs``
    takes each result whose location the inventory lists as it was named, and checks every other
    skill anew: each once, each as the inventory places it."""
    from concurrent.futures import ThreadPoolExecutor

    from helpers import skill_text, write_skill
    from skill_lsp.engine.config import Settings
    from skill_lsp.engine.discover import discover
    from skill_lsp.engine.discovery import Location
    from skill_lsp.engine.resultcache import ResultCache
    from skill_lsp.server.services import scanjob

    monkeypatch.setattr(sync, "FIRST_CHUNK", 3)
    for i in range(10):
        write_skill(tmp_path / "skills", f"s{i}", skill_text(f"s{i}" if i % 2 else f"other-{i}"))
    settings = Settings()
    fresh = discover(str(tmp_path), settings).all
    fl = ("UTF16", True)
    # Named early as the walk might have, wrongly: s1 as a sensitive folder (an error of its
    # own), s2 in another root; s3 never (the walk had not reached it); a path the inventory
    # leaves out (a page named skill.md).
    named = [Location(loc.dir, loc.path, loc.root_index, loc.root, ("SENSITIVE", "Refusing"))
             if loc.path.endswith("/s1/SKILL.md") else
             Location(loc.dir, loc.path, 1, str(tmp_path / "other")) if loc.path.endswith("/s2/SKILL.md") else loc
             for loc in fresh if not loc.path.endswith("/s3/SKILL.md")]
    named.append(Location(str(tmp_path / "wiki"), str(tmp_path / "wiki/skill.md"), -1, str(tmp_path)))
    expected = {loc: scanjob.first_job((loc, settings, fl)) for loc in fresh}
    with ThreadPoolExecutor(2) as pool:
        early = sync._EarlyFirst(lambda: pool, settings, fl, ResultCache(None, ("", "")))
        for loc in named:
            early.add(loc)
        assert len(early.sent) == 3  # three full chunks; the tenth waits
        got = list(early.pairs(fresh, pool))
    assert early.kept == 7  # nine sent, less s1 and s2
    assert early.count == len(got)
    assert sorted(loc.path for loc, _ in got) == sorted(loc.path for loc in fresh)
    assert dict(got) == expected
    assert sum(text is not None for _, text in got) == 5  # the misnamed ones; s1 is no sensitive folder

    # The chunks back while the walk goes on are published then (``drain``); ``pairs`` leaves out
    # what went out, unless the inventory placed it otherwise.
    drained: list = []
    with ThreadPoolExecutor(2) as pool:
        early = sync._EarlyFirst(lambda: pool, settings, fl, ResultCache(None, ("", "")))
        for loc in named:
            early.add(loc)
        for _, future in early.sent[:2]:
            future.result()
        early.drain(lambda batch, done, count: drained.append((batch, done, count)))
        got = list(early.pairs(fresh, pool))
    assert early.drained >= 2 and [(done, count) for _, done, count in drained] == [(3 * early.drained, 0)]
    out_early = {loc.path for chunk, _ in early.sent[:early.drained] for loc in chunk}
    assert {loc.path for loc, _ in got} == {loc.path for loc in fresh} - out_early | {
        loc.path for loc in fresh if loc.path.endswith(("/s1/SKILL.md", "/s2/SKILL.md"))}
    assert early.count == len(got)
    assert all(expected[loc] == text for loc, text in got)
    by_location = {loc.path: text for chunk, _ in early.sent[:early.drained] for loc, text in
                   zip(chunk, [scanjob.first_job((n, settings, fl)) for n in chunk], strict=True)}
    assert dict(drained[0][0]) == {p: t for p, t in by_location.items() if t is not None}


def test_a_long_walk_hands_the_first_pass_to_the_workers_before_it_ends(tmp_path: Path) -> None:
    """The real server on a tree whose walk outlasts the worker pool's start (60,000 folders
    without a skill beside the skills): first passes go out during discovery, and what is
    published in the end is still exactly what `check --format json` reports."""
    ws = tmp_path / "repo"
    gen_workspace.generate(sync.PARALLEL_MIN + 60, ws, seed=7, body_scale=0.1)
    (ws / gen_workspace.MANIFEST).unlink()
    # Twice what an idle machine needs: with 30,000 a CI run beside other work saw the walk end
    # (0.33 s) before the pool had started.
    for i in range(600):
        for j in range(100):
            (ws / "notes" / f"n{i}" / f"m{j}").mkdir(parents=True)
    env = {**os.environ, "SKILL_LSP_CACHE_DIR": str(tmp_path / "cache")}
    _, final, logs = asyncio.run(_session(ws, env))
    sent = int(logs[0].split(" sent during discovery")[0].rsplit(", ", 1)[1].replace(",", ""))
    # The walk of those folders takes 0.6 s on two cores, the pool's start 0.13 s; one core has no pool.
    assert sent > 0 or sync.WORKERS < 2, logs[0]
    assert final == bench_churn.expected(ws)
