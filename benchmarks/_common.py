"""Helpers shared by the benchmark scripts (standard library only)."""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_OUT = HERE / "out"
CORPUS = Path("/work/shared/corpus")


def interpreter(cmd: list[str]) -> str:
    """The Python a skill-lsp command runs on: itself, its console script's shebang, else this one."""
    exe = cmd[0]
    if "python" in Path(exe).name:
        return exe
    try:
        first = Path(exe).read_text(errors="replace").splitlines()[0]
    except (OSError, IndexError, UnicodeDecodeError):
        return sys.executable
    return first[2:].strip().split()[0] if first.startswith("#!") else sys.executable


def compile_bytecode(python: str) -> str | None:
    """Compile skill_lsp's modules as pip does on install, so every process a benchmark starts reads
    .pyc files. An editable install under PYTHONDONTWRITEBYTECODE=1 (this machine's environment)
    otherwise compiles each changed module again in the server and in every scan worker. Returns
    what was done, for the results."""
    p = subprocess.run([python, "-c", "import os, skill_lsp; print(os.path.dirname(skill_lsp.__file__))"],
                       capture_output=True, text=True, check=False)
    package = p.stdout.strip()
    if not package:
        return None
    subprocess.run([python, "-m", "compileall", "-q", package], stdout=subprocess.DEVNULL, check=False)
    return f"compiled ({package})"


def venv_bin(name: str) -> str | None:
    """An executable next to the running interpreter, else on PATH."""
    cand = Path(sys.executable).parent / name
    if cand.exists():
        return str(cand)
    return shutil.which(name)


def skill_lsp_cmd(override: str | None = None) -> list[str]:
    """How to start skill-lsp: --skill-lsp, $SKILL_LSP, the console script, or python -m."""
    override = override or os.environ.get("SKILL_LSP")
    if override:
        return shlex.split(override)
    exe = venv_bin("skill-lsp")
    if exe:
        return [exe]
    return [sys.executable, "-m", "skill_lsp"]


@dataclass
class Run:
    cmd: list[str]
    wall_s: float
    maxrss_kib: int
    user_s: float
    sys_s: float
    returncode: int | None
    timed_out: bool = False
    stdout_bytes: int = 0
    stdout: bytes = b""
    stderr_tail: str = ""
    tree_pss_kib: int = 0  # sampled peak of the summed PSS of the process and its descendants

    def brief(self) -> dict:
        d = asdict(self)
        d.pop("stdout")
        return d


_LAUNCHER = r"""
import os, sys
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)
_, st, ru = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(ru.ru_maxrss))
code = os.waitstatus_to_exitcode(st)
sys.exit(code if code >= 0 else 128 - code)
"""


def _gnu_time() -> str | None:
    exe = "/usr/bin/time"
    if not os.path.exists(exe):
        return None
    try:
        p = subprocess.run([exe, "-f", "%M", "true"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return exe if p.returncode == 0 and p.stderr.strip().isdigit() else None


GNU_TIME = _gnu_time()


def run_child(
    cmd: list[str],
    *,
    cwd: str | Path | None = None,
    timeout: float = 600.0,
    keep_stdout: bool = False,
    env: dict | None = None,
) -> Run:
    """Run cmd in a fresh process; wall time and the command's own peak RSS.

    The peak RSS comes from a tiny wrapper (GNU time, else a minimal python that
    posix_spawns the command) because ru_maxrss of a forked child starts at its
    parent's RSS: measured straight from this (large) process it would be inflated.
    """
    import tempfile

    fd, rss_path = tempfile.mkstemp(prefix="bench-rss-")
    os.close(fd)
    if GNU_TIME:
        full = [GNU_TIME, "-o", rss_path, "-f", "%M", *cmd]
    else:
        full = [sys.executable, "-S", "-c", _LAUNCHER, rss_path, *cmd]
    try:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            t0 = time.perf_counter()
            p = subprocess.Popen(
                full,
                cwd=cwd,
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env=env,
            )
            timed_out = False

            def _kill() -> None:
                nonlocal timed_out
                timed_out = True
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

            timer = threading.Timer(timeout, _kill)
            timer.start()
            sampler = TreeSampler(p.pid)
            sampler.start()
            try:
                _, status, ru = os.wait4(p.pid, 0)
            except BaseException:
                _kill()  # interrupted (Ctrl-C / SIGTERM): take the command down with us
                raise
            finally:
                timer.cancel()
                sampler.stop()
            wall = time.perf_counter() - t0
            p.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            data = out.read()
            err.seek(0)
            etail = err.read()[-2000:].decode("utf-8", "replace")
        maxrss = 0
        try:
            lines = [
                x.strip() for x in Path(rss_path).read_text().splitlines() if x.strip().isdigit()
            ]
            maxrss = int(lines[-1]) if lines else 0
        except OSError:
            pass
    finally:
        with contextlib.suppress(OSError):
            os.unlink(rss_path)
    return Run(
        cmd=[str(c) for c in cmd],
        wall_s=wall,
        maxrss_kib=maxrss,
        user_s=ru.ru_utime,
        sys_s=ru.ru_stime,
        returncode=p.returncode,
        timed_out=timed_out,
        stdout_bytes=len(data),
        stdout=data if keep_stdout else b"",
        stderr_tail=etail,
        tree_pss_kib=sampler.peak_kib,
    )


def exit_on_sigterm() -> None:
    """SIGTERM raises SystemExit, so `finally` blocks kill the running child."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        q = todo.pop()
        out.append(q)
        try:
            for t in os.listdir(f"/proc/{q}/task"):
                with open(f"/proc/{q}/task/{t}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            pass
    return out


def proc_mem_kib(pid: int, key: str = "Pss:") -> int:
    """PSS (or another smaps_rollup / status key) of one process, KiB; 0 if gone."""
    path = f"/proc/{pid}/smaps_rollup" if key == "Pss:" else f"/proc/{pid}/status"
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of one process (all its threads); None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CpuSampler:
    """The CPU time of every process of a tree, polled every `interval` seconds: workers exit
    before the end, so each pid keeps the last figure seen (short by at most one interval)."""

    def __init__(self, pid: int, interval: float = 0.1) -> None:
        self.pid = pid
        self.interval = interval
        self.seen: dict[int, float] = {}
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def sample(self) -> None:
        for q in descendants(self.pid):
            t = cpu_s(q)
            if t is not None:
                self.seen[q] = max(t, self.seen.get(q, 0.0))

    def start(self) -> CpuSampler:
        self._t.start()
        return self

    def stop(self) -> dict[str, float]:
        """{"server": its own CPU s, "children": the rest of the tree's}."""
        self._stop.set()
        self._t.join()
        self.sample()
        own = self.seen.get(self.pid, 0.0)
        return {"server": round(own, 2), "children": round(sum(self.seen.values()) - own, 2)}


class TreeSampler:
    """Polls the summed PSS of a process tree every `interval` seconds (Linux /proc)."""

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        self.pid = pid
        self.interval = interval
        self.peak_kib = 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        if not os.path.exists("/proc/self/smaps_rollup"):
            return
        while not self._stop.is_set():
            total = sum(proc_mem_kib(q) for q in descendants(self.pid))
            self.peak_kib = max(self.peak_kib, total)
            self._stop.wait(self.interval)

    def start(self) -> None:
        self._t.start()

    def stop(self) -> None:
        self._stop.set()
        self._t.join(timeout=2)


@dataclass
class Series:
    """Repeated runs of one command; medians are what the tables show."""

    label: str
    runs: list[Run] = field(default_factory=list)
    note: str = ""
    inner: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.runs) and not any(r.timed_out for r in self.runs)

    @property
    def wall(self) -> float:
        return statistics.median(r.wall_s for r in self.runs)

    @property
    def rss_mib(self) -> float:
        return max(r.maxrss_kib for r in self.runs) / 1024

    @property
    def tree_mib(self) -> float:
        return max(r.tree_pss_kib for r in self.runs) / 1024

    def as_dict(self) -> dict:
        return {
            "label": self.label,
            "ok": self.ok,
            "median_wall_s": round(self.wall, 4) if self.runs else None,
            "min_wall_s": round(min(r.wall_s for r in self.runs), 4) if self.runs else None,
            "max_wall_s": round(max(r.wall_s for r in self.runs), 4) if self.runs else None,
            "peak_rss_mib": round(self.rss_mib, 1) if self.runs else None,
            "tree_pss_mib": round(self.tree_mib, 1) if self.runs else None,
            "note": self.note,
            "runs": [r.brief() for r in self.runs],
        }


def machine_info() -> dict:
    model = platform.processor() or ""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "memory": mem,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "loadavg_at_start": loadavg(),
    }


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return ""


def versions() -> dict:
    out: dict[str, str | None] = {}
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return out
    for pkg in ("skill-lsp", "pygls", "lsprotocol", "skills-ref", "skillsaw", "agnix"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = None
    return out


def md_table(headers: list[str], rows: list[list[object]]) -> str:
    def fmt(v: object) -> str:
        if v is None:
            return "—"
        if isinstance(v, float):
            return f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"
        return str(v)

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def write_outputs(out_dir: Path, stem: str, data: dict, markdown: str) -> tuple[Path, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    jp = out_dir / f"{stem}.json"
    mp = out_dir / f"{stem}.md"
    jp.write_text(json.dumps(data, indent=1, default=str) + "\n")
    mp.write_text(markdown + "\n")
    return jp, mp


def count_skills(root: Path) -> int:
    n = 0
    for _dp, _dn, fn in os.walk(root):
        if "SKILL.md" in fn or "skill.md" in fn:
            n += 1
    return n


def tree_bytes(root: Path, name: str = "SKILL.md") -> int:
    total = 0
    for dp, _dn, fn in os.walk(root):
        if name in fn:
            total += os.path.getsize(os.path.join(dp, name))
    return total
