"""Scan workers and the forkserver they are forked from run below the server's priority; the
server's own threads keep theirs (a thread that lowered itself can never win it back)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from helpers import SRC

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness is Linux's")

_PROBE = textwrap.dedent("""
    import os
    from multiprocessing import forkserver
    from skill_lsp.server.services import sync

    if __name__ == "__main__":
        base = os.getpriority(os.PRIO_PROCESS, 0)
        pool = sync._start_pool(2)
        for job in [pool.submit(os.getpid) for _ in range(8)]:
            job.result()
        workers = pool.pids

        def parent(pid):
            with open(f"/proc/{pid}/stat") as f:
                return int(f.read().rsplit(")", 1)[1].split()[1])
        server = forkserver._forkserver._forkserver_pid
        print(base, os.getpriority(os.PRIO_PROCESS, 0), os.getpriority(os.PRIO_PROCESS, server),
              sorted({os.getpriority(os.PRIO_PROCESS, w) for w in workers}),
              all(parent(w) == server for w in workers))
        pool.shutdown()
""")


@pytest.mark.parametrize("nice", ["10", "3"])
def test_forkserver_and_workers_run_lower_and_the_server_does_not(tmp_path, nice: str) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(_PROBE)
    proc = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(SRC), "SKILL_LSP_WORKER_NICE": nice})
    assert proc.returncode == 0, proc.stderr
    base, after, server, rest = proc.stdout.split(maxsplit=3)
    workers, forked_there = rest.rsplit(maxsplit=1)
    want = min(19, int(base) + int(nice))
    assert int(after) == int(base)  # the server's thread kept its priority
    assert int(server) == want  # the forkserver imports the engine at the workers' priority
    assert workers == f"[{want}]"  # lowered once, not twice (inherited, then the initializer)
    assert forked_there == "True"
