#!/usr/bin/env python3
"""Latency and memory of ``skill-lsp serve``, measured by a plain stdio LSP client.

    python benchmarks/bench_server.py                     # everything
    python benchmarks/bench_server.py --only init,edit    # a subset
    python benchmarks/bench_server.py --quick             # tiny sizes (smoke)

Phases (``--only``):

* ``init``     – spawn → ``initialize`` result, ``skill-lsp serve`` against
  ``benchmarks/empty_server.py`` (an empty pygls server), alternated, median/p95.
* ``edit``     – ``didOpen`` → first ``publishDiagnostics``; then ``--edits``
  one-character ``didChange`` edits (full sync, half in the body, half at the end
  of the ``description`` line) into 20-, 200- and 2,000-line SKILL.md files, each
  timed from send to the ``publishDiagnostics`` for that version: p50/p95/p99.
  ``initializationOptions`` is ``{"debounceMs": 0}`` (docs/server.md).
* ``requests`` – ``completion`` and ``hover`` on frontmatter keys and values,
  ``codeAction`` on each diagnostic of a defective document: p50/p95/p99.
* ``scan``     – a server whose workspace folder is a generated workspace of
  ``--scan-sizes`` skills: spawn → last ``publishDiagnostics`` (the scan is over
  once ``skillLsp/status`` says ``scanning: false`` and no diagnostics arrived for
  ``--quiet`` seconds), when every file that ends with an error had one published (and when
  half of them had), and the server's VmRSS / VmHWM at the end. ``--scan-cache``:
  each run with an empty result cache (cold: a first open), with the cache the last
  run left (warm: a reopen), or both (default: a cold run, then a warm one). Servers
  keep their result cache in ``OUT/result-cache``. ``--against SRC``: each run is followed by
  the same run of another source tree (``SRC`` is its ``src`` folder, a ``git worktree`` of
  the build before), so a change is compared with its parent at the same hour of a shared host.

Every wait is bounded (``--timeout``); the server is shut down, then killed.
Output: ``OUT/bench_server.json`` and ``OUT/bench_server.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_realistic  # noqa: E402
import gen_workspace  # noqa: E402
from _common import (  # noqa: E402
    DEFAULT_OUT,
    CpuSampler,
    compile_bytecode,
    descendants,
    exit_on_sigterm,
    interpreter,
    loadavg,
    machine_info,
    md_table,
    proc_mem_kib,
    skill_lsp_cmd,
    versions,
    write_outputs,
)
from lsp_client import LspClient, uri_of  # noqa: E402

HERE = Path(__file__).resolve().parent
TYPED = (
    "Typing one character at a time to time the diagnostics round trip of the server. "
    "Ünïcödé — ok ✅ and a [link](references/REFERENCE.md) too. "
) * 20


def pct(vals: list[float], p: float) -> float | None:
    if not vals:
        return None
    s = sorted(vals)
    k = (len(s) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def scan_state(c: LspClient) -> tuple[str, float | None]:
    """("none" | "pending" | "running" | "done", time of the status that finished it): the
    server's skillLsp/status notifications in order; done is a scanning: false after a true."""
    state, t_done = "none", None
    for t, p in list(c.statuses):
        if p.get("scanning") is True:
            state, t_done = "running", None
        elif state == "running" and p.get("scanning") is False:
            state, t_done = "done", t
        elif state == "none":
            state = "pending"
    return state, t_done


def stats_ms(vals: list[float]) -> dict:
    ms = [v * 1000 for v in vals]
    return {
        "n": len(ms),
        "p50_ms": pct(ms, 50),
        "p95_ms": pct(ms, 95),
        "p99_ms": pct(ms, 99),
        "max_ms": max(ms) if ms else None,
        "mean_ms": statistics.fmean(ms) if ms else None,
    }


def make_doc(
    folder: Path, name: str, n_lines: int, seed: int, defects: bool = False
) -> tuple[Path, str]:
    """A SKILL.md of exactly n_lines lines in folder/name, with its support files."""
    rng = random.Random(seed)
    plan = gen_workspace.SkillPlan(rng)
    plan.references = sorted(set(plan.references) | {"REFERENCE.md"})
    fm = [
        f"name: {name}{'-renamed' if defects else ''}",
        "description: Benchmark skill used to time diagnostics while typing. Use when measuring the server.",
        "license: MIT",
        "allowed-tools: Read Grep",
        "metadata:",
        "  author: bench",
        '  version: "1.0"',
    ]
    if n_lines >= 100:
        fm += [
            "compatibility: Requires Python 3.10+",
            "model: sonnet",
            'argument-hint: "[path]"',
            "user-invocable: true",
            "disable-model-invocation: false",
        ]
    body_n = max(n_lines - len(fm) - 2, 3)
    body = gen_workspace.make_body(rng, name.replace("-", " ").title(), plan, body_n, set())
    while len(body) < body_n:
        body.append(gen_workspace._sentence(rng))
    lines = ["---", *fm, "---", *body[:body_n]]
    if defects:
        for i in range(len(fm) + 3, len(lines), 7):
            lines[i] += "   "
        lines.insert(len(fm) + 4, "See [the missing file](references/does-not-exist.md).")
        lines = lines[:n_lines]
    d = folder / name
    d.mkdir(parents=True, exist_ok=True)
    for rel in plan.existing():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(gen_workspace.support_file(rel, rng))
    text = "\n".join(lines) + "\n"
    (d / "SKILL.md").write_text(text, encoding="utf-8")
    return d / "SKILL.md", text


def settings(debounce: int = 0) -> dict:
    return {"debounceMs": debounce}


class ServerBench:
    def __init__(self, a: argparse.Namespace) -> None:
        self.a = a
        self.server_cmd = [*skill_lsp_cmd(a.skill_lsp), "serve"]
        # (name, command, environment added): this tree, and the one --against names.
        self.trees: list[tuple[str, list[str], dict[str, str]]] = [("this", self.server_cmd, {})]
        if a.against is not None:
            self.trees.append(("against", [interpreter(self.server_cmd), "-m", "skill_lsp", "serve"],
                               {"PYTHONPATH": str(a.against)}))
        self.empty_cmd = [sys.executable, str(HERE / "empty_server.py")]
        self.results: dict = {
            "machine": machine_info(),
            "versions": versions(),
            "server_cmd": self.server_cmd,
            "empty_cmd": self.empty_cmd,
            "phases": {},
            "errors": [],
        }
        self.a.out.mkdir(parents=True, exist_ok=True)
        self.stderr_log = self.a.out / "bench_server.stderr.log"
        self.cache_dir = (self.a.out / "result-cache").resolve()

    def client(self, cwd: Path | None = None, cmd: list[str] | None = None, env: dict | None = None) -> LspClient:
        return LspClient(
            cmd or self.server_cmd,
            cwd=cwd,
            # The server's result cache lives with the results, never in the user's ~/.cache.
            env={**os.environ, "SKILL_LSP_CACHE_DIR": str(self.cache_dir), **(env or {})},
            settings=settings(),
            stderr_path=self.stderr_log if (cmd or self.server_cmd) == self.server_cmd else None,
        )

    def log(self, msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    # -- init ------------------------------------------------------------------
    async def init(self) -> None:
        self.log("init: spawn → initialize")
        out: dict = {}
        with tempfile.TemporaryDirectory() as root:
            times: dict[str, list[float]] = {"skill-lsp serve": [], "empty pygls server": []}
            mem: dict[str, int] = {}
            for i in range(self.a.init_reps * 2):
                label = "skill-lsp serve" if i % 2 == 0 else "empty pygls server"
                cmd = self.server_cmd if label == "skill-lsp serve" else self.empty_cmd
                c = self.client(Path(root), cmd)
                try:
                    await c.start()
                    dt, _ = await c.initialize(
                        root, initialization_options=settings(), timeout=self.a.timeout
                    )
                    times[label].append(dt)
                    mem[label] = c.memory().get("VmRSS", 0)
                except Exception as e:  # noqa: BLE001
                    self.results["errors"].append(f"init {label}: {e!r}")
                    self.log(f"  {label}: {e!r}")
                finally:
                    await c.stop()
            for label, v in times.items():
                out[label] = {
                    **stats_ms(v),
                    "rss_after_init_mib": round(mem.get(label, 0) / 1024, 1),
                }
                self.log(f"  {label}: p50 {out[label]['p50_ms'] or 0:.1f} ms")
        self.results["phases"]["init"] = out

    # -- edit + requests (one server, one small workspace) -----------------------
    async def edit_and_requests(self, do_edit: bool, do_requests: bool) -> None:
        ws = Path(tempfile.mkdtemp(prefix="skill-lsp-bench-"))
        root = ws / ".agents" / "skills"
        sizes = [int(x) for x in self.a.lines.split(",") if x]
        docs = {n: make_doc(root, f"edit-{n}", n, seed=n) for n in sizes}
        defect_path, defect_text = make_doc(root, "actions-doc", 120, seed=7, defects=True)
        c = self.client(ws)
        try:
            await c.start()
            await c.initialize(ws, initialization_options=settings(), timeout=self.a.timeout)
            await self.wait_scan(c, timeout=self.a.timeout)
            if do_edit:
                await self.edit(c, docs)
            if do_requests:
                n_req = self.a.requests
                mid = sizes[len(sizes) // 2] if sizes else 200
                await self.requests(
                    c, docs.get(200) or docs[mid], (defect_path, defect_text), n_req
                )
            self.results["server_requests_seen"] = c.server_requests
        except Exception as e:  # noqa: BLE001
            self.results["errors"].append(f"edit/requests: {e!r}")
            self.log(f"  error: {e!r}")
        finally:
            await c.stop()

    async def edit(self, c: LspClient, docs: dict[int, tuple[Path, str]]) -> None:
        out: dict = {}
        for n, (path, text) in docs.items():
            self.log(f"edit: {n}-line document, {self.a.edits} edits")
            uri = uri_of(path)
            r: dict = {"lines": n, "bytes": len(text.encode())}
            fut = c.expect("textDocument/publishDiagnostics", lambda p, u=uri: p.get("uri") == u)
            t0 = time.perf_counter()
            c.did_open(uri, text, 1)
            try:
                t, params = await c.wait(fut, self.a.timeout)
                r["open_to_diagnostics_ms"] = (t - t0) * 1000
                r["diagnostics_on_open"] = len(params.get("diagnostics", []))
            except TimeoutError as e:
                r["open_to_diagnostics_ms"] = None
                self.results["errors"].append(f"didOpen {n}: {e}")
            lines = text.split("\n")
            body_line = next(
                (
                    i
                    for i in range(len(lines) // 2, len(lines))
                    if lines[i] and lines[i][0].isalpha()
                ),
                len(lines) - 2,
            )
            desc_line = next(i for i, line in enumerate(lines) if line.startswith("description:"))
            lat: dict[str, list[float]] = {"body": [], "frontmatter": []}
            misses = 0
            version = 1
            half = self.a.edits // 2
            for k in range(self.a.edits):
                where = "body" if k < half else "frontmatter"
                li = body_line if where == "body" else desc_line
                lines[li] += TYPED[k % len(TYPED)]
                version += 1
                new = "\n".join(lines)
                fut = c.expect(
                    "textDocument/publishDiagnostics",
                    lambda p, u=uri, v=version: (
                        p.get("uri") == u and (p.get("version") is None or p["version"] >= v)
                    ),
                )
                t0 = time.perf_counter()
                c.did_change_full(uri, new, version)
                try:
                    t, _ = await c.wait(fut, self.a.edit_timeout)
                    lat[where].append(t - t0)
                except TimeoutError:
                    misses += 1
                    if misses >= 5 and not (lat["body"] or lat["frontmatter"]):
                        self.results["errors"].append(
                            f"didChange {n}: no diagnostics after 5 edits; gave up"
                        )
                        break
            allv = lat["body"] + lat["frontmatter"]
            r["all"] = stats_ms(allv)
            r["body"] = stats_ms(lat["body"])
            r["frontmatter"] = stats_ms(lat["frontmatter"])
            r["missed"] = misses
            c.did_close(uri)
            out[str(n)] = r
            self.log(
                f"  p50 {r['all']['p50_ms'] or 0:.2f} ms p95 {r['all']['p95_ms'] or 0:.2f} ms "
                f"p99 {r['all']['p99_ms'] or 0:.2f} ms, missed {misses}"
            )
        self.results["phases"]["edit"] = out

    async def requests(
        self, c: LspClient, doc: tuple[Path, str], defect: tuple[Path, str], n: int
    ) -> None:
        self.log(f"requests: completion / hover / codeAction × {n}")
        path, text = doc
        uri = uri_of(path)
        fut = c.expect("textDocument/publishDiagnostics", lambda p: p.get("uri") == uri)
        c.did_open(uri, text, 1)
        try:
            await c.wait(fut, self.a.timeout)
        except TimeoutError:
            pass
        lines = text.split("\n")
        end = lines.index("---", 1)
        keys, values = [], []
        for i in range(1, end):
            line = lines[i]
            if ":" in line:
                k = line.index(":")
                keys.append((i, max(k - 1, 0) if k else 0))
                values.append((i, min(k + 3, len(line))))
        positions = {"key": keys, "value": values}
        out: dict = {}
        for method, short in (
            ("textDocument/completion", "completion"),
            ("textDocument/hover", "hover"),
        ):
            for kind, pos in positions.items():
                lat: list[float] = []
                nonempty = 0
                errors = 0
                for j in range(n):
                    line, ch = pos[j % len(pos)]
                    params: dict = {
                        "textDocument": {"uri": uri},
                        "position": {"line": line, "character": ch},
                    }
                    if short == "completion":
                        params["context"] = {"triggerKind": 1}
                    t0 = time.perf_counter()
                    try:
                        t, res = await c.request_timed(method, params, self.a.timeout)
                    except Exception:  # noqa: BLE001
                        errors += 1
                        if errors >= 5 and not lat:
                            break
                        continue
                    lat.append(t - t0)
                    if res:
                        items = res.get("items", res) if isinstance(res, dict) else res
                        nonempty += bool(items)
                out[f"{short} ({kind})"] = {
                    **stats_ms(lat),
                    "non_empty": nonempty,
                    "errors": errors,
                }
        # code actions on the defective document's diagnostics
        dpath, dtext = defect
        duri = uri_of(dpath)
        fut = c.expect("textDocument/publishDiagnostics", lambda p: p.get("uri") == duri)
        c.did_open(duri, dtext, 1)
        diags: list = []
        try:
            _, params = await c.wait(fut, self.a.timeout)
            diags = params.get("diagnostics", [])
        except TimeoutError:
            pass
        lat = []
        nonempty = errors = 0
        dl = dtext.split("\n")
        for j in range(n):
            if diags:
                d = diags[j % len(diags)]
                rng, ctx = d["range"], {"diagnostics": [d], "triggerKind": 1}
            else:
                li = j % len(dl)
                rng = {
                    "start": {"line": li, "character": 0},
                    "end": {"line": li, "character": len(dl[li])},
                }
                ctx = {"diagnostics": [], "triggerKind": 1}
            t0 = time.perf_counter()
            try:
                t, res = await c.request_timed(
                    "textDocument/codeAction",
                    {"textDocument": {"uri": duri}, "range": rng, "context": ctx},
                    self.a.timeout,
                )
            except Exception:  # noqa: BLE001
                errors += 1
                if errors >= 5 and not lat:
                    break
                continue
            lat.append(t - t0)
            nonempty += bool(res)
        out["codeAction"] = {
            **stats_ms(lat),
            "non_empty": nonempty,
            "errors": errors,
            "diagnostics_in_doc": len(diags),
        }
        for k, v in out.items():
            self.log(
                f"  {k}: p50 {v['p50_ms'] or 0:.2f} ms p95 {v['p95_ms'] or 0:.2f} ms "
                f"({v['non_empty']}/{v['n']} non-empty, {v['errors']} errors)"
            )
        self.results["phases"]["requests"] = out

    # -- scan ------------------------------------------------------------------
    async def wait_scan(self, c: LspClient, timeout: float, quiet: float | None = None) -> dict:
        """Until the scan is over, bounded by ``timeout``.

        skill-lsp says ``skillLsp/status {scanning: true}`` when a scan starts and ``scanning:
        false`` when it is complete: the scan is over at the first ``false`` after a ``true``,
        then ``quiet`` s without publishes (what follows the scan). A quiet period alone never
        ends it while the server has announced a scan: on a loaded machine the early publishes
        pause for seconds (225 of 8,959 files were once taken for a finished scan). Only a
        server that sends no status at all within ``--status-grace`` s is trusted on quiet.
        """
        quiet = self.a.quiet if quiet is None else quiet
        t_start = time.perf_counter()
        while True:
            now = time.perf_counter()
            state, status_t = scan_state(c)
            last = max(c.last_publish_t, status_t or 0)
            if state == "done" and now - last >= quiet:
                return {"status": True, "status_t": status_t}
            if (state == "none" and c.publish_count and now - t_start >= self.a.status_grace
                    and now - last >= quiet):
                return {"status": False, "status_t": None}
            if now - t_start > timeout:
                return {"status": state == "done", "status_t": status_t, "timed_out": True}
            await asyncio.sleep(0.02)

    async def type_while_scanning(self, c: LspClient, path: Path, text: str) -> dict:
        """One-character edits at the end of a body line of a 200-line document, each timed to its
        publishDiagnostics, for as long as the workspace scan runs (at most --scan-typing edits),
        one every --scan-typing-interval seconds so the edits cover the whole scan, not its start."""
        uri = uri_of(path)
        lines = text.split("\n")
        li = len(lines) // 2
        c.did_open(uri, text, 1)
        lat: list[float] = []
        sent: list[float] = []
        during = 0
        for k in range(self.a.scan_typing):
            if k > 0 and scan_state(c)[0] == "done":
                break
            lines[li] += TYPED[k % len(TYPED)]
            fut = c.expect("textDocument/publishDiagnostics",
                           lambda p, u=uri, v=k + 2: p.get("uri") == u and (p.get("version") or 0) >= v)
            t0 = time.perf_counter()
            c.did_change_full(uri, "\n".join(lines), k + 2)
            try:
                t, _ = await c.wait(fut, self.a.edit_timeout)
                lat.append(t - t0)
                sent.append(t0)
                during += 1
            except TimeoutError:
                pass
            await asyncio.sleep(max(0.0, self.a.scan_typing_interval - (time.perf_counter() - t0)))
        c.did_close(uri)
        # Each edit's send time (s since spawn), latency (ms) and how many other files' diagnostics
        # arrived while it waited: where in the scan the slow ones fall, and whether they queued
        # behind other publishes on the wire.
        others = [t for t, m, p in c.notifications if m == "textDocument/publishDiagnostics" and p.get("uri") != uri]
        return {"edits": during, **stats_ms(lat), "timeline": [
            (round(t - c.t_spawn, 3), round(x * 1000, 2), sum(1 for o in others if t <= o <= t + x))
            for t, x in zip(sent, lat, strict=True)]}

    def scan_workspace(self, kind: str, n: int) -> Path:
        if self.a.scan_workspace is not None:
            return self.a.scan_workspace  # a given folder (e.g. real skills), used as it is
        if kind == "realistic":
            ws = self.a.work / f"real-{n}-s{self.a.seed}"
            gen_realistic.generate(n, ws, seed=self.a.seed)
            return ws
        ws = self.a.work / f"ws-{n}-s{self.a.seed}"
        if self.a.nested:
            ws = self.a.work / f"ws-{n}-s{self.a.seed}-nested{self.a.nested}"
        gen_workspace.generate(n, ws, seed=self.a.seed, nested=self.a.nested)
        return ws

    async def scan(self) -> None:
        out: dict = {}
        kinds_ws = ["given"] if self.a.scan_workspace is not None else self.a.scan_kind.split(",")
        for kind, n in [(k, int(x)) for k in kinds_ws for x in self.a.scan_sizes.split(",") if x]:
            ws = self.scan_workspace(kind, n)
            typing_doc = make_doc(ws / "bench-typing", "typing-200", 200, seed=200) if self.a.scan_typing else None
            runs = []
            # cold: no result cache (a workspace opened for the first time); warm: the cache the
            # previous run left (reopened, nothing changed); both: a cold run, then a warm one.
            kinds = {"cold": ["cold"], "warm": ["warm"], "both": ["cold", "warm"]}[self.a.scan_cache]
            # Each tree's runs in turn (cold, then warm from the cache that cold run left), which
            # tree goes first alternating: a run after another finds more of the tree in memory.
            plan = [(rep, tree, k) for rep in range(self.a.scan_reps)
                    for tree in (self.trees if rep % 2 == 0 else self.trees[::-1]) for k in kinds]
            for rep, (tree, cmd, env), cache in plan:
                if cache == "warm" and kinds == ["warm"] and (rep == 0 or len(self.trees) > 1):
                    # Once; with --against before each run: the trees share the cache folder, and
                    # each one's key (its code) makes the other's shards a cold start.
                    await self.prime(ws, cmd, env)
                self.log(f"scan: {kind} {n} skills, run {rep + 1}/{self.a.scan_reps} ({cache} result cache"
                         f"{', ' + tree if len(self.trees) > 1 else ''}), load {loadavg()}")
                if cache == "cold":
                    shutil.rmtree(self.cache_dir, ignore_errors=True)
                c = self.client(ws, cmd, env)
                r: dict = {"cache": cache, "tree": tree, "load_start": loadavg()}
                first_error: dict[str, float] = {}

                def on_publish(uri: str, params: dict, first_error: dict[str, float] = first_error) -> None:
                    # When each file's worst problems (errors: what makes a harness skip it) arrived.
                    if uri not in first_error and any(d.get("severity") == 1 for d in params.get("diagnostics", ())):
                        first_error[uri] = time.perf_counter()

                c.on_publish = on_publish
                try:
                    await c.start()
                    dt, _ = await c.initialize(
                        ws, initialization_options=settings(), timeout=self.a.timeout
                    )
                    r["initialize_s"] = dt
                    cpu = CpuSampler(c.pid).start()
                    if typing_doc is not None:
                        r["typing_while_scanning"] = await self.type_while_scanning(c, *typing_doc)
                    w = await self.wait_scan(c, timeout=self.a.scan_timeout)
                    r.update({k: v for k, v in w.items() if k != "status_t"})
                    r["cpu_s"] = cpu.stop()
                    pubs = [
                        t for t, m, _ in c.notifications if m == "textDocument/publishDiagnostics"
                    ]
                    r["publishes"] = len(pubs)
                    r["uris"] = len(c.diagnostics)
                    r["diagnostics"] = sum(
                        len(p.get("diagnostics", [])) for _, p in c.diagnostics.values()
                    )
                    r["first_publish_s"] = (min(pubs) - c.t_spawn) if pubs else None
                    r["last_publish_s"] = (max(pubs) - c.t_spawn) if pubs else None
                    r["status_s"] = (w["status_t"] - c.t_spawn) if w.get("status_t") else None
                    # Complete: the server's scanning: false (sent after its last publish of the scan).
                    r["complete_s"] = r["status_s"] if r["status_s"] is not None else r["last_publish_s"]
                    # Every file that ends with an error had one published by then (since spawn).
                    errors_at = [first_error.get(u) for u, (_, p) in c.diagnostics.items()
                                 if any(d.get("severity") == 1 for d in p.get("diagnostics", ()))]
                    r["files_with_errors"] = len(errors_at)
                    r["errors_published_s"] = (max(t for t in errors_at if t is not None) - c.t_spawn) \
                        if errors_at and None not in errors_at else None
                    # By when half of them had: a walk the disk slows down publishes errors as it goes.
                    r["errors_half_published_s"] = (sorted(errors_at)[len(errors_at) // 2] - c.t_spawn) \
                        if errors_at and None not in errors_at else None
                    reports = [t for t, p in c.progress if (p.get("value") or {}).get("kind") in ("begin", "report")]
                    gaps = [b - a for a, b in zip(reports, reports[1:], strict=False)]
                    r["progress_reports"] = len(reports)
                    r["progress_max_gap_s"] = max(gaps) if gaps else None
                    # The server's own account of the scan (discovery, checks, cross-skill, publish).
                    r["server_log"] = c.scan_log()
                    mem = c.memory()
                    r["vmrss_mib"] = round(mem.get("VmRSS", 0) / 1024, 1)
                    r["vmhwm_mib"] = round(mem.get("VmHWM", 0) / 1024, 1)
                    kids = [q for q in descendants(c.pid) if q != c.pid]
                    r["children_pss_mib"] = round(sum(proc_mem_kib(q) for q in kids) / 1024, 1)
                except Exception as e:  # noqa: BLE001
                    self.results["errors"].append(f"scan {kind} {n}: {e!r}")
                    self.log(f"  error: {e!r}")
                finally:
                    await c.stop()
                r["load_end"] = loadavg()
                for line in r.get("server_log") or []:
                    self.log(f"  server: {line}")
                init = r.get("initialize_s") or 0
                after = {k: (r[k] - init if r.get(k) is not None else None)
                         for k in ("errors_half_published_s", "errors_published_s", "complete_s")}
                self.log(
                    f"  after initialized: errors published {after['errors_published_s']} (half of them "
                    f"{after['errors_half_published_s']}), complete "
                    f"{after['complete_s']}; {r.get('uris')} uris ({r.get('files_with_errors')} with errors), "
                    f"VmHWM {r.get('vmhwm_mib')} MiB, CPU s {r.get('cpu_s')}, load {r['load_start']} → {r['load_end']}"
                )
                runs.append(r)
            done = [x.get("complete_s") for x in runs]
            done = [d for d in done if d is not None]
            out[f"{kind}-{n}"] = {
                "kind": kind,
                "skills": n,
                "workspace": str(ws),
                "runs": runs,
                "median_done_s": statistics.median(done) if done else None,
                "max_vmhwm_mib": max((x.get("vmhwm_mib") or 0 for x in runs), default=None),
                "max_vmrss_mib": max((x.get("vmrss_mib") or 0 for x in runs), default=None),
            }
        self.results["phases"]["scan"] = out

    async def prime(self, ws: Path, cmd: list[str] | None = None, env: dict | None = None) -> None:
        """One unmeasured run that leaves the result cache of ``ws`` behind."""
        self.log("scan: priming the result cache")
        c = self.client(ws, cmd, env)
        try:
            await c.start()
            await c.initialize(ws, initialization_options=settings(), timeout=self.a.timeout)
            await self.wait_scan(c, timeout=self.a.scan_timeout)
        finally:
            await c.stop()

    # -- report ------------------------------------------------------------------
    def report(self) -> str:
        R = self.results
        m = R["machine"]
        P = R["phases"]
        L = [
            "# bench_server results",
            "",
            f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}; Python {m['python']}; {m['date']}; "
            f"load average {m.get('loadavg_at_start')} at start, {loadavg()} at the end.",
            f'Server: `{" ".join(R["server_cmd"])}`; settings `{{"debounceMs": 0}}`; bytecode '
            f'{R.get("bytecode") or "as found"}.',
            "",
        ]
        budgets = []
        if "init" in P:
            L += ["## spawn → initialize", ""]
            rows = [
                [k, v["n"], v["p50_ms"], v["p95_ms"], v["rss_after_init_mib"]]
                for k, v in P["init"].items()
            ]
            L += [
                md_table(["server", "runs", "p50 ms", "p95 ms", "VmRSS after init MiB"], rows),
                "",
            ]
            s = P["init"].get("skill-lsp serve", {}).get("p50_ms")
            e = P["init"].get("empty pygls server", {}).get("p50_ms")
            if s and e:
                budgets.append(
                    [
                        "spawn→initialize ≤ 1.3× empty pygls",
                        f"{s:.0f} ms vs {e:.0f} ms",
                        f"{s / e:.2f}×",
                        s / e <= 1.3,
                    ]
                )
        if "edit" in P:
            L += ["## didOpen / didChange → publishDiagnostics", ""]
            rows = []
            for n, r in P["edit"].items():
                rows.append(
                    [
                        n,
                        r.get("open_to_diagnostics_ms"),
                        r["all"]["n"],
                        r["all"]["p50_ms"],
                        r["all"]["p95_ms"],
                        r["all"]["p99_ms"],
                        r["body"]["p95_ms"],
                        r["frontmatter"]["p95_ms"],
                        r["missed"],
                    ]
                )
                lim = {"200": 15, "2000": 60}.get(n)
                if lim and r["all"]["p95_ms"] is not None:
                    budgets.append(
                        [
                            f"didChange→diagnostics p95 ≤ {lim} ms ({n} lines)",
                            f"{r['all']['p95_ms']:.2f} ms",
                            f"{r['all']['p95_ms'] / lim:.2f}× budget",
                            r["all"]["p95_ms"] <= lim,
                        ]
                    )
            L += [
                md_table(
                    [
                        "lines",
                        "didOpen→diag ms",
                        "edits",
                        "p50 ms",
                        "p95 ms",
                        "p99 ms",
                        "body p95",
                        "frontmatter p95",
                        "missed",
                    ],
                    rows,
                ),
                "",
            ]
        if "requests" in P:
            L += ["## Requests (200-line document)", ""]
            rows = [
                [k, v["n"], v["p50_ms"], v["p95_ms"], v["p99_ms"], v["non_empty"], v["errors"]]
                for k, v in P["requests"].items()
            ]
            L += [
                md_table(
                    ["request", "n", "p50 ms", "p95 ms", "p99 ms", "non-empty", "errors"], rows
                ),
                "",
            ]
            for k, v in P["requests"].items():
                if k.startswith(("completion", "hover")) and v["p95_ms"] is not None:
                    budgets.append(
                        [
                            f"{k} p95 ≤ 10 ms",
                            f"{v['p95_ms']:.2f} ms",
                            f"{v['p95_ms'] / 10:.2f}× budget",
                            v["p95_ms"] <= 10,
                        ]
                    )
        if "scan" in P:
            L += ["## Workspace scan", ""]
            rows = []
            compared = []
            for key, s in P["scan"].items():
                for i, r in enumerate(s["runs"]):
                    init = r.get("initialize_s")
                    after = [None if r.get(k) is None or init is None else r[k] - init
                             for k in ("errors_published_s", "complete_s")]
                    typing = r.get("typing_while_scanning") or {}
                    run = f"{i + 1} ({r['tree']})" if len(R.get("trees", ())) > 1 else i + 1
                    rows.append([key, run, r.get("cache", "cold"), init, *after, r.get("files_with_errors"),
                                 r.get("uris"), r.get("diagnostics"), r.get("progress_max_gap_s"),
                                 typing.get("p95_ms"), (r.get("cpu_s") or {}).get("server"),
                                 (r.get("cpu_s") or {}).get("children"), r.get("vmhwm_mib"),
                                 f"{r.get('load_start')} → {r.get('load_end')}"])
                budgets += scan_budgets({**s, "runs": [r for r in s["runs"] if r.get("tree", "this") == "this"]})
                compared += compare_trees(key, s["runs"]) if len(R.get("trees", ())) > 1 else []
            L += [md_table(["workspace", "run", "result cache", "initialize s (since spawn)",
                            "errors published s", "complete s", "files with errors", "uris", "diagnostics",
                            "max progress gap s", "keystroke p95 ms", "server CPU s", "workers CPU s",
                            "VmHWM MiB", "load"], rows), "",
                  "Errors published and complete: seconds after `initialized`.", ""]
            if compared:
                L += [f"### This tree against `{R['trees'][1]}`", "",
                      md_table(["workspace", "result cache", "tree", "runs", "errors published s (median)",
                                "complete s (median)", "complete s (each)", "server CPU s", "workers CPU s"],
                               compared), ""]
        if budgets:
            L += ["## Budgets", "", md_table(["budget", "figure", "ratio", "met"], budgets), ""]
        if R["errors"]:
            L += ["## Errors", ""] + [f"- {e}" for e in R["errors"]] + [""]
        return "\n".join(L)


def compare_trees(key: str, runs: list[dict]) -> list[list]:
    """Medians of the runs of each tree (``--against``), cold and warm apart."""
    rows = []
    for cache in ("cold", "warm"):
        for tree in ("this", "against"):
            rs = [r for r in runs if r.get("cache") == cache and r.get("tree") == tree]
            init = [r.get("initialize_s") or 0 for r in rs]
            errors = [r["errors_published_s"] - i for r, i in zip(rs, init, strict=True) if r.get("errors_published_s")]
            done = [r["complete_s"] - i for r, i in zip(rs, init, strict=True) if r.get("complete_s")]
            if not done:
                continue
            cpu = [r.get("cpu_s") or {} for r in rs]
            rows.append([key, cache, tree, len(rs), round(statistics.median(errors), 3) if errors else None,
                         round(statistics.median(done), 3), ", ".join(f"{d:.2f}" for d in done),
                         ", ".join(f"{c.get('server')}" for c in cpu), ", ".join(f"{c.get('children')}" for c in cpu)])
    return rows


def scan_budgets(s: dict) -> list[list]:
    """Issue 28's scan budgets for one workspace (10,000 skills): on the realistic one, errors
    (what makes a harness skip a skill) within 2 s of `initialized` and complete diagnostics
    within 3 s on a first open, within 2 s reopened; on the stress one complete within 8 s;
    on both, keystrokes p95 ≤ 5 ms while the scan runs and server memory ≤ 200 MiB."""
    if s["skills"] != 10000 or s["kind"] not in ("realistic", "stress", "given"):
        return []
    out = []
    label = {"realistic": "real-size", "stress": "stress", "given": "given"}[s["kind"]]

    def after(run: dict, key: str) -> float | None:
        return None if run.get(key) is None or run.get("initialize_s") is None else run[key] - run["initialize_s"]

    checks = [("cold", "errors_published_s", 2.0, "errors (skip findings) published, first open"),
              ("cold", "complete_s", 3.0 if s["kind"] != "stress" else 8.0, "complete diagnostics, first open"),
              ("warm", "complete_s", 2.0, "complete diagnostics, reopened (result cache)")]
    if s["kind"] == "stress":
        checks = checks[1:2]
    for cache, key, limit, what in checks:
        vals = [v for r in s["runs"] if r.get("cache", "cold") == cache and (v := after(r, key)) is not None]
        if vals:
            med = statistics.median(vals)
            loads = ", ".join(sorted({r.get("load_start", "") for r in s["runs"] if r.get("cache") == cache}))
            out.append([f"{label} 10,000: initialized → {what} ≤ {limit:g} s", f"{med:.2f} s (median of {len(vals)}; "
                        f"{min(vals):.2f}–{max(vals):.2f}; load {loads})", f"{med / limit:.2f}× budget", med <= limit])
    hwm = s["max_vmhwm_mib"] or 0
    out.append([f"{label} 10,000: server memory ≤ 200 MiB", f"{hwm:.0f} MiB (VmHWM)", f"{hwm / 200:.2f}× budget",
                hwm <= 200])
    typing = [x["typing_while_scanning"] for x in s["runs"] if x.get("typing_while_scanning")]
    p95 = [x["p95_ms"] for x in typing if x.get("p95_ms") is not None]
    if p95:
        out.append([f"{label} 10,000: keystroke → diagnostics p95 ≤ 5 ms while the scan runs (200 lines)",
                    f"{max(p95):.2f} ms ({sum(x['edits'] for x in typing)} edits)", f"{max(p95) / 5:.2f}× budget",
                    max(p95) <= 5])
    return out


async def amain(a: argparse.Namespace) -> ServerBench:
    b = ServerBench(a)
    b.results["trees"] = [name if name == "this" else str(a.against) for name, _, _ in b.trees]
    only = set(a.only.split(","))
    if "init" in only:
        await b.init()
    if "edit" in only or "requests" in only:
        await b.edit_and_requests("edit" in only, "requests" in only)
    if "scan" in only:
        await b.scan()
    return b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--work", type=Path, default=None, help="generated workspaces (default OUT/ws)")
    ap.add_argument("--only", default="init,edit,requests,scan")
    ap.add_argument(
        "--skill-lsp", default=None, help="command that starts skill-lsp (serve is appended)"
    )
    ap.add_argument("--init-reps", type=int, default=15)
    ap.add_argument("--edits", type=int, default=600)
    ap.add_argument("--lines", default="20,200,2000")
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--scan-sizes", default="1000,10000")
    ap.add_argument("--scan-kind", default="realistic,stress",
                    help="scan phase: generated workspaces, comma-separated: realistic (gen_realistic.py, the "
                         "shape of real repositories) and stress (gen_workspace.py: 4-5x their bytes, 12x links)")
    ap.add_argument("--scan-reps", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--timeout", type=float, default=20.0, help="bound on any single request / wait, s"
    )
    ap.add_argument(
        "--edit-timeout", type=float, default=2.0, help="bound on one didChange → diagnostics, s"
    )
    ap.add_argument("--scan-timeout", type=float, default=180.0)
    ap.add_argument(
        "--quiet", type=float, default=1.0, help="no publishes for this long ends a scan, s"
    )
    ap.add_argument(
        "--status-grace",
        type=float,
        default=30.0,
        help="a server that sends no skillLsp/status at all: wait this long before trusting quiet, s",
    )
    ap.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run")
    ap.add_argument("--nested", type=float, default=0.0,
                    help="scan phase: share of generated skills in plugins/*/skills/* layouts")
    ap.add_argument("--scan-workspace", type=Path, default=None,
                    help="scan phase: this folder instead of a generated workspace (--scan-sizes names its size)")
    ap.add_argument("--scan-typing-interval", type=float, default=0.04,
                    help="scan phase: seconds between keystrokes (0.04: 25 characters a second)")
    ap.add_argument("--scan-cache", choices=("cold", "warm", "both"), default="both",
                    help="scan phase: without the server's result cache, with it, or each run both ways")
    ap.add_argument("--scan-typing", type=int, default=0,
                    help="scan phase: time up to this many keystrokes in a 200-line document while the scan runs")
    ap.add_argument("--against", type=Path, default=None,
                    help="scan phase: after each run, the same run of this source tree (its src folder)")
    a = ap.parse_args(argv)
    if a.against is not None:
        a.against = a.against.resolve()
        if not (a.against / "skill_lsp" / "__init__.py").is_file():
            ap.error(f"--against {a.against}: no skill_lsp package there (give a tree's src folder)")
    if a.quick:
        a.init_reps = min(a.init_reps, 2)
        a.edits = min(a.edits, 20)
        a.requests = min(a.requests, 10)
        if a.scan_sizes == ap.get_default("scan_sizes"):
            a.scan_sizes = "5"
        a.scan_reps = 1
        a.quiet = min(a.quiet, 0.3)
        a.status_grace = min(a.status_grace, 2.0)
    a.work = (a.work or (a.out / "ws")).resolve()
    exit_on_sigterm()
    bytecode = compile_bytecode(interpreter(skill_lsp_cmd(a.skill_lsp)))
    if a.against is not None:  # its modules too: otherwise every scan worker compiles them again
        subprocess.run([interpreter(skill_lsp_cmd(a.skill_lsp)), "-m", "compileall", "-q", str(a.against / "skill_lsp")],
                       stdout=subprocess.DEVNULL, check=False)
    b = asyncio.run(amain(a))
    b.results["bytecode"] = bytecode
    md = b.report()
    jp, mp = write_outputs(a.out, "bench_server", b.results, md)
    print(md)
    print(f"wrote {jp} and {mp}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
