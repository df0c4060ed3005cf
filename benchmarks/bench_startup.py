#!/usr/bin/env python3
"""Start-up: what a pre-commit hook, an on-save lint and an editor opening a file pay first.

    python benchmarks/bench_startup.py                      # CPU figures, 21 interleaved runs
    python benchmarks/bench_startup.py --instructions       # and instruction counts (valgrind)
    python benchmarks/bench_startup.py --only cli --reps 5  # a subset

Phases (``--only``):

* ``cli``     – CPU time (user + system of the process and the children it waited for,
  from ``wait4``) and wall time of ``python -c pass`` (the interpreter skill-lsp runs on),
  ``skill-lsp --version``, ``skill-lsp check --format json`` on a folder holding one skill
  and on an empty folder, and agnix on the same skill when installed; run interleaved,
  ``--reps`` each, medians. The runs keep compiled patterns in a cache folder of their own
  (the first run fills it, as a user's first run does); one row runs the one-skill check
  without it (``SKILL_LSP_CACHE_DIR=off``: a first run after an install). Budget: the
  one-skill check ≤ 3× the bare interpreter's CPU.
* ``imports`` – the modules ``check`` imports (``python -X importtime``), and which of
  the heavy ones (pygls, lsprotocol, rapidfuzz, PyYAML, ruamel, markdown-it, pyromark,
  process pools, tomllib, difflib, subprocess) are among them.
* ``init``    – spawn → ``initialize`` answered → ``shutdown``/``exit`` → process gone,
  ``skill-lsp serve`` against ``benchmarks/empty_server.py`` (an empty pygls server),
  interleaved: the CPU of the whole life (``wait4``) and the wall time to the
  ``initialize`` answer. Budget: ≤ 1.2× the empty server.
* ``keystroke`` – a fresh server: ``initialize``, ``initialized``, ``didOpen`` of a
  200-line SKILL.md, then one-character edits, each timed to its diagnostics. The first
  edit after spawn against the median of edits 10–40 of the same server (its normal
  budget: p95 ≤ 15 ms at 200 lines, docs/performance.md).

``--instructions`` adds, where valgrind is installed, the instructions executed
(``valgrind --tool=callgrind``, user space, children included) by ``python -c pass``,
the one-skill check, and each server's spawn → initialize → exit. Instruction counts do
not depend on the machine's load; CPU times do a little, wall times a lot: the load
average is recorded with every figure.

Bytecode: pip compiles a package's modules when it installs it; an editable install (or
``PYTHONDONTWRITEBYTECODE=1``) leaves them to be compiled on every run, which nearly doubles
the start-up. The script compiles skill_lsp's modules first (``compileall``) so the figures
are those of an installed release.

Output: ``OUT/bench_startup.json`` and ``OUT/bench_startup.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (  # noqa: E402
    DEFAULT_OUT,
    compile_bytecode,
    exit_on_sigterm,
    interpreter,
    loadavg,
    machine_info,
    md_table,
    skill_lsp_cmd,
    venv_bin,
    versions,
    write_outputs,
)
from lsp_client import LspClient, uri_of  # noqa: E402

HERE = Path(__file__).resolve().parent
HEAVY = ("pygls", "lsprotocol", "rapidfuzz", "yaml", "ruamel", "markdown_it", "pyromark", "concurrent.futures",
         "multiprocessing", "tomllib", "difflib", "subprocess", "tempfile", "urllib.parse", "importlib.resources")
ONE_SKILL = """\
---
name: release-notes
description: Drafts release notes from the merged pull requests since the last tag. Use when preparing a release.
license: MIT
---

# Release notes

Collect the merged pull requests since the last tag and group them by label.

## Steps

1. Find the last tag: `git describe --tags --abbrev=0`.
2. List the merges since then with `scripts/merged.sh` and read [the format](references/FORMAT.md).
3. Group them: features, fixes, documentation, everything else.
4. Write one line per change, in the imperative, with the pull request number.

```bash
git log --merges --oneline "$(git describe --tags --abbrev=0)"..HEAD
```

## Style

- Lead with what users notice.
- Keep each line under 100 characters.
- Link issues as `#123`; never paste URLs of private trackers.
"""


def one_skill_folder(root: Path) -> Path:
    d = root / ".claude" / "skills" / "release-notes"
    (d / "references").mkdir(parents=True, exist_ok=True)
    (d / "scripts").mkdir(exist_ok=True)
    (d / "SKILL.md").write_text(ONE_SKILL, encoding="utf-8")
    (d / "references" / "FORMAT.md").write_text("# Format\n\nOne line per change.\n", encoding="utf-8")
    script = d / "scripts" / "merged.sh"
    script.write_text("#!/bin/sh\ngit log --merges --oneline\n", encoding="utf-8")
    script.chmod(0o755)
    return root


def cpu_run(cmd: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """(CPU s of the process and the children it waited for, wall s, return code); ``env``: variables
    set for this run."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, env={**os.environ, **env} if env else None)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return ru.ru_utime + ru.ru_stime, wall, p.returncode


def summary(cpus: list[float], walls: list[float], loads: list[float]) -> dict:
    return {"n": len(cpus), "cpu_ms": statistics.median(cpus) * 1000, "cpu_min_ms": min(cpus) * 1000,
            "wall_ms": statistics.median(walls) * 1000, "wall_min_ms": min(walls) * 1000,
            "load": f"{min(loads):.1f}–{max(loads):.1f}"}


def interleaved(cmds: dict[str, tuple], reps: int) -> dict[str, dict]:
    """Each command ``reps`` times, in turn, so a change of load falls on all of them alike."""
    cpu: dict[str, list[float]] = {k: [] for k in cmds}
    wall: dict[str, list[float]] = {k: [] for k in cmds}
    loads: list[float] = []
    codes: dict[str, set[int]] = {k: set() for k in cmds}
    for _ in range(reps):
        loads.append(os.getloadavg()[0])
        for label, (cmd, cwd, *env) in cmds.items():
            c, w, rc = cpu_run(cmd, cwd, *env)
            cpu[label].append(c)
            wall[label].append(w)
            codes[label].add(rc)
    return {k: {**summary(cpu[k], wall[k], loads), "exit_codes": sorted(codes[k])} for k in cmds}


def callgrind_instructions(cmd: list[str], cwd: str | None = None, stdin: bytes | None = None,
                           timeout: float = 900, env: dict[str, str] | None = None) -> int | None:
    """User-space instructions executed by ``cmd`` and every child it starts (callgrind)."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "vg.%p"
        full = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", "--trace-children=yes",
                f"--log-file={log}", *cmd]
        env = {**os.environ, "PYTHONHASHSEED": "0", **(env or {})}
        subprocess.run(full, cwd=cwd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env, timeout=timeout, check=False)
        total = 0
        for f in Path(tmp).glob("vg.*"):
            m = re.search(r"Collected : (\d+)", f.read_text(errors="replace"))
            if m:
                total += int(m.group(1))
        return total or None


def frame(msg: dict) -> bytes:
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def init_exit_script(root: Path) -> bytes:
    """initialize, shutdown, exit, written up front (a server reads its input in order). No
    ``initialized``: what a server starts after it (a scan) is not start-up."""
    params = {"processId": None, "rootUri": uri_of(root), "capabilities": {},
              "workspaceFolders": [{"uri": uri_of(root), "name": root.name}], "initializationOptions": {}}
    return (frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
            + frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
            + frame({"jsonrpc": "2.0", "method": "exit", "params": None}))


def read_message(stream) -> dict | None:
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        k, _, v = line.decode("ascii", "replace").partition(":")
        if k.strip().lower() == "content-length":
            length = int(v.strip())
    return json.loads(stream.read(length)) if length is not None else None


def server_life(cmd: list[str], root: Path, timeout: float = 60) -> tuple[float, float, float]:
    """(wall s spawn → initialize answer, CPU s of the whole life spawn → exit, wall s to exit)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=str(root), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    assert p.stdin is not None and p.stdout is not None
    try:
        params = {"processId": None, "rootUri": uri_of(root), "capabilities": {},
                  "workspaceFolders": [{"uri": uri_of(root), "name": root.name}], "initializationOptions": {}}
        p.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}))
        p.stdin.flush()
        t_init = None
        while t_init is None:
            msg = read_message(p.stdout)
            if msg is None:
                raise RuntimeError(f"{cmd}: no initialize answer")
            if msg.get("id") == 1:
                t_init = time.perf_counter() - t0
        p.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None}))
        p.stdin.flush()
        while (msg := read_message(p.stdout)) is not None and msg.get("id") != 2:
            pass
        p.stdin.write(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
        p.stdin.close()
        deadline = time.monotonic() + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(p.pid, 9)
                pid, status, ru = os.wait4(p.pid, 0)
                break
            time.sleep(0.002)
        p.returncode = os.waitstatus_to_exitcode(status)
        return t_init, ru.ru_utime + ru.ru_stime, time.perf_counter() - t0
    finally:
        if p.returncode is None:
            os.killpg(p.pid, 9)
            p.wait()


class StartupBench:
    def __init__(self, a: argparse.Namespace) -> None:
        self.a = a
        self.skill_lsp = skill_lsp_cmd(a.skill_lsp)
        self.python = interpreter(self.skill_lsp)
        self.results: dict = {"machine": machine_info(), "versions": versions(), "skill_lsp_cmd": self.skill_lsp,
                              "python": self.python, "phases": {}, "errors": []}
        self.tmp = Path(tempfile.mkdtemp(prefix="skill-lsp-startup-"))
        self.one = one_skill_folder(self.tmp / "one")
        self.empty = self.tmp / "empty"
        self.empty.mkdir()

    def log(self, msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    def compile_bytecode(self) -> None:
        done = compile_bytecode(self.python)
        if done:
            self.results["bytecode"] = done

    def cli(self) -> None:
        self.log(f"cli: {self.a.reps} interleaved runs each")
        # The runs keep compiled patterns in a cache folder of their own (engine/regexcache.py): the
        # first fills it, the rest read it, as a user's runs do; one row runs without it.
        cache = {"SKILL_LSP_CACHE_DIR": str(self.tmp / "cli-cache")}
        cmds: dict[str, tuple] = {
            "python -c pass": ([self.python, "-c", "pass"], None),
            "skill-lsp --version": ([*self.skill_lsp, "--version"], None, cache),
            "skill-lsp check --format json (one skill)": ([*self.skill_lsp, "check", "--format", "json", "."],
                                                          str(self.one), cache),
            "skill-lsp check --format json (one skill, no cache)": (
                [*self.skill_lsp, "check", "--format", "json", "."], str(self.one), {"SKILL_LSP_CACHE_DIR": "off"}),
            "skill-lsp check (one skill, text)": ([*self.skill_lsp, "check", "."], str(self.one), cache),
            "skill-lsp check --format json (empty folder)": ([*self.skill_lsp, "check", "--format", "json", "."],
                                                             str(self.empty), cache),
        }
        agnix = venv_bin("agnix")
        if agnix and not self.a.no_peers:
            cmds["agnix --format json validate (one skill)"] = ([agnix, "--format", "json", "validate", "."],
                                                                str(self.one))
        out = interleaved(cmds, self.a.reps)
        base = out["python -c pass"]["cpu_ms"]
        for label, r in out.items():
            r["cpu_x_python"] = r["cpu_ms"] / base
            self.log(f"  {label}: CPU {r['cpu_ms']:.1f} ms ({r['cpu_x_python']:.2f}× python), "
                     f"wall {r['wall_ms']:.1f} ms, load {r['load']}")
        self.results["phases"]["cli"] = out

    def imports(self) -> None:
        self.log("imports: python -X importtime")
        out = {}
        for label, args, cwd in (("check --format json (one skill)", ["check", "--format", "json", "."], self.one),
                                 ("--version", ["--version"], self.tmp)):
            p = subprocess.run([self.python, "-X", "importtime", "-m", "skill_lsp", *args], cwd=cwd,
                               capture_output=True, text=True, timeout=120, check=False)
            mods = [line.rsplit("|", 1)[1].strip() for line in p.stderr.splitlines()
                    if line.startswith("import time:") and "|" in line and "self [us]" not in line]
            heavy = sorted({h for h in HEAVY for m in mods if m == h or m.startswith(h + ".")})
            own = [m for m in mods if m.startswith("skill_lsp")]
            out[label] = {"modules": len(mods), "skill_lsp_modules": len(own), "heavy": heavy,
                          "skill_lsp": own}
            self.log(f"  {label}: {len(mods)} modules ({len(own)} of skill_lsp); heavy: {', '.join(heavy) or 'none'}")
        self.results["phases"]["imports"] = out

    def init(self) -> None:
        self.log(f"init: spawn → initialize → exit, {self.a.init_reps} interleaved runs each")
        servers = {"skill-lsp serve": [*self.skill_lsp, "serve"],
                   "empty pygls server": [self.python, str(HERE / "empty_server.py")]}
        cpu: dict[str, list[float]] = {k: [] for k in servers}
        to_init: dict[str, list[float]] = {k: [] for k in servers}
        loads: list[float] = []
        for _ in range(self.a.init_reps):
            loads.append(os.getloadavg()[0])
            for label, cmd in servers.items():
                try:
                    t_init, c, _w = server_life(cmd, self.one)
                except Exception as e:  # noqa: BLE001
                    self.results["errors"].append(f"init {label}: {e!r}")
                    continue
                cpu[label].append(c)
                to_init[label].append(t_init)
        out = {}
        for label in servers:
            if cpu[label]:
                s = summary(cpu[label], to_init[label], loads)
                out[label] = {"n": s["n"], "life_cpu_ms": s["cpu_ms"], "life_cpu_min_ms": s["cpu_min_ms"],
                              "initialize_wall_ms": s["wall_ms"], "initialize_wall_min_ms": s["wall_min_ms"],
                              "load": s["load"]}
        if len(out) == 2:
            s, e = out["skill-lsp serve"], out["empty pygls server"]
            out["ratio_cpu"] = s["life_cpu_ms"] / e["life_cpu_ms"]
            out["ratio_wall"] = s["initialize_wall_ms"] / e["initialize_wall_ms"]
            self.log(f"  CPU {s['life_cpu_ms']:.0f} vs {e['life_cpu_ms']:.0f} ms ({out['ratio_cpu']:.2f}×); "
                     f"to initialize {s['initialize_wall_ms']:.0f} vs {e['initialize_wall_ms']:.0f} ms "
                     f"({out['ratio_wall']:.2f}×), load {s['load']}")
        self.results["phases"]["init"] = out

    async def keystroke(self) -> None:
        self.log(f"keystroke: first edits after spawn, {self.a.keystroke_reps} servers")
        sys.path.insert(0, str(HERE))
        from bench_server import make_doc  # noqa: PLC0415 - the same 200-line document as bench_server's

        ws = self.tmp / "ks"
        path, text = make_doc(ws / ".agents" / "skills", "typing-200", 200, seed=200)
        uri = uri_of(path)
        first, opened, steady = [], [], []
        loads = []
        for _ in range(self.a.keystroke_reps):
            loads.append(os.getloadavg()[0])
            c = LspClient([*self.skill_lsp, "serve"], cwd=ws, settings={"debounceMs": 0},
                          env={**os.environ, "SKILL_LSP_CACHE_DIR": str(self.tmp / "cache")})
            try:
                await c.start()
                await c.initialize(ws, initialization_options={"debounceMs": 0}, timeout=60)
                fut = c.expect("textDocument/publishDiagnostics", lambda p: p.get("uri") == uri)
                t0 = time.perf_counter()
                c.did_open(uri, text, 1)
                t, _ = await c.wait(fut, 30)
                opened.append(t - t0)
                lines = text.split("\n")
                li = len(lines) // 2
                lat = []
                for k in range(40):
                    lines[li] += "x"
                    fut = c.expect("textDocument/publishDiagnostics",
                                   lambda p, v=k + 2: p.get("uri") == uri and (p.get("version") or 0) >= v)
                    t0 = time.perf_counter()
                    c.did_change_full(uri, "\n".join(lines), k + 2)
                    t, _ = await c.wait(fut, 30)
                    lat.append(t - t0)
                    await asyncio.sleep(0.02)
                first.append(lat[0])
                steady.append(statistics.median(lat[10:]))
            except Exception as e:  # noqa: BLE001
                self.results["errors"].append(f"keystroke: {e!r}")
            finally:
                await c.stop()
        if first:
            out = {"n": len(first), "first_edit_ms": statistics.median(first) * 1000,
                   "first_edit_max_ms": max(first) * 1000, "open_ms": statistics.median(opened) * 1000,
                   "steady_median_ms": statistics.median(steady) * 1000,
                   "load": f"{min(loads):.1f}–{max(loads):.1f}"}
            self.log(f"  didOpen → diagnostics {out['open_ms']:.1f} ms; first edit {out['first_edit_ms']:.1f} ms "
                     f"(max {out['first_edit_max_ms']:.1f}); later edits {out['steady_median_ms']:.1f} ms; "
                     f"load {out['load']}")
            self.results["phases"]["keystroke"] = out

    def instructions(self) -> None:
        if shutil.which("valgrind") is None:
            self.log("instructions: valgrind not installed, skipped")
            return
        self.log("instructions: callgrind (slow: about 50× the run)")
        cache = {"SKILL_LSP_CACHE_DIR": str(self.tmp / "cli-cache")}  # filled by the cli phase, or the next line
        check = [*self.skill_lsp, "check", "--format", "json", "."]
        subprocess.run(check, cwd=self.one, env={**os.environ, **cache}, capture_output=True, timeout=120, check=False)
        out = {"python -c pass": callgrind_instructions([self.python, "-c", "pass"]),
               "skill-lsp check --format json (one skill)": callgrind_instructions(check, cwd=str(self.one), env=cache),
               "skill-lsp check --format json (one skill, no cache)": callgrind_instructions(
                   check, cwd=str(self.one), env={"SKILL_LSP_CACHE_DIR": "off"}),
               "skill-lsp --version": callgrind_instructions([*self.skill_lsp, "--version"])}
        if "init" in self.a.only.split(","):
            script = init_exit_script(self.one)
            out["skill-lsp serve: spawn → initialize → exit"] = callgrind_instructions(
                [*self.skill_lsp, "serve"], cwd=str(self.one), stdin=script)
            out["empty pygls server: spawn → initialize → exit"] = callgrind_instructions(
                [self.python, str(HERE / "empty_server.py")], cwd=str(self.one), stdin=script)
        for k, v in out.items():
            self.log(f"  {k}: {v / 1e6:.1f} M" if v else f"  {k}: —")
        self.results["phases"]["instructions"] = out

    def report(self) -> str:
        R, P = self.results, self.results["phases"]
        m = R["machine"]
        L = ["# bench_startup results", "",
             f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}; Python {m['python']}; {m['date']}; "
             f"load average {m.get('loadavg_at_start')} at start, {loadavg()} at the end.", ""]
        budgets = []
        if "cli" in P:
            rows = [[k, v["n"], v["cpu_ms"], v["cpu_min_ms"], f"{v['cpu_x_python']:.2f}×", v["wall_ms"], v["load"]]
                    for k, v in P["cli"].items()]
            L += ["## Command line (CPU = user + system, wait4)", "",
                  md_table(["command", "runs", "CPU ms (median)", "CPU ms (min)", "× python", "wall ms", "load"],
                           rows), ""]
            one = P["cli"]["skill-lsp check --format json (one skill)"]
            budgets.append(["one-skill `check` ≤ 3× a bare Python start (CPU)",
                            f"{one['cpu_ms']:.0f} vs {P['cli']['python -c pass']['cpu_ms']:.0f} ms",
                            f"{one['cpu_x_python']:.2f}×", one["cpu_x_python"] <= 3])
        if "imports" in P:
            rows = [[k, v["modules"], v["skill_lsp_modules"], ", ".join(v["heavy"]) or "none"]
                    for k, v in P["imports"].items()]
            L += ["## Imports", "", md_table(["command", "modules", "of skill_lsp", "heavy ones"], rows), ""]
        if "init" in P and "ratio_cpu" in P["init"]:
            rows = [[k, v["n"], v["life_cpu_ms"], v["initialize_wall_ms"], v["load"]]
                    for k, v in P["init"].items() if isinstance(v, dict)]
            L += ["## Server: spawn → initialize → exit", "",
                  md_table(["server", "runs", "CPU ms (life)", "wall ms to initialize", "load"], rows), ""]
            budgets.append(["`initialize` ≤ 1.2× an empty pygls server (CPU spawn → exit)",
                            f"{P['init']['skill-lsp serve']['life_cpu_ms']:.0f} vs "
                            f"{P['init']['empty pygls server']['life_cpu_ms']:.0f} ms",
                            f"{P['init']['ratio_cpu']:.2f}×", P["init"]["ratio_cpu"] <= 1.2])
            budgets.append(["`initialize` ≤ 1.2× an empty pygls server (wall to the answer)",
                            f"{P['init']['skill-lsp serve']['initialize_wall_ms']:.0f} vs "
                            f"{P['init']['empty pygls server']['initialize_wall_ms']:.0f} ms",
                            f"{P['init']['ratio_wall']:.2f}×", P["init"]["ratio_wall"] <= 1.2])
        if "keystroke" in P:
            k = P["keystroke"]
            L += ["## First keystroke after spawn (200 lines)", "",
                  md_table(["servers", "didOpen → diagnostics ms", "first edit ms (median)", "first edit ms (max)",
                            "later edits ms (median)", "load"],
                           [[k["n"], k["open_ms"], k["first_edit_ms"], k["first_edit_max_ms"], k["steady_median_ms"],
                             k["load"]]]), ""]
            budgets.append(["first keystroke after spawn within the keystroke budget (15 ms at 200 lines)",
                            f"{k['first_edit_max_ms']:.1f} ms (max of {k['n']})",
                            f"{k['first_edit_max_ms'] / 15:.2f}× budget", k["first_edit_max_ms"] <= 15])
        if P.get("instructions"):
            ins = P["instructions"]
            base = ins.get("python -c pass")
            rows = [[k, f"{v / 1e6:.1f}" if v else "—", f"{v / base:.2f}×" if v and base else "—"]
                    for k, v in ins.items()]
            L += ["## Instructions (callgrind, user space, children included)", "",
                  md_table(["command", "M instructions", "× python -c pass"], rows), ""]
            s = ins.get("skill-lsp serve: spawn → initialize → exit")
            e = ins.get("empty pygls server: spawn → initialize → exit")
            if s and e:
                budgets.append(["`initialize` ≤ 1.2× an empty pygls server (instructions)", f"{s / 1e6:.0f} vs "
                                f"{e / 1e6:.0f} M", f"{s / e:.2f}×", s / e <= 1.2])
        if budgets:
            L += ["## Budgets", "", md_table(["budget", "figure", "ratio", "met"], budgets), ""]
        if R["errors"]:
            L += ["## Errors", ""] + [f"- {e}" for e in R["errors"]] + [""]
        return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--only", default="cli,imports,init,keystroke")
    ap.add_argument("--skill-lsp", default=None, help="command that starts skill-lsp")
    ap.add_argument("--reps", type=int, default=21, help="cli: interleaved runs of each command")
    ap.add_argument("--init-reps", type=int, default=11, help="init: interleaved runs of each server")
    ap.add_argument("--keystroke-reps", type=int, default=5, help="keystroke: servers started")
    ap.add_argument("--instructions", action="store_true", help="count instructions with valgrind (slow)")
    ap.add_argument("--no-peers", action="store_true", help="cli: leave agnix out")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 2 runs of each")
    a = ap.parse_args(argv)
    if a.quick:
        a.reps, a.init_reps, a.keystroke_reps = 2, 1, 1
    exit_on_sigterm()
    b = StartupBench(a)
    try:
        b.compile_bytecode()
        only = set(a.only.split(","))
        if "cli" in only:
            b.cli()
        if "imports" in only:
            b.imports()
        if "init" in only:
            b.init()
        if "keystroke" in only:
            asyncio.run(b.keystroke())
        if a.instructions:
            b.instructions()
    finally:
        shutil.rmtree(b.tmp, ignore_errors=True)
    md = b.report()
    jp, mp = write_outputs(a.out, "bench_startup", b.results, md)
    print(md)
    print(f"wrote {jp} and {mp}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
