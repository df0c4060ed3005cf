"""A scan's worker processes import ``services.scanjob`` (the forkserver preloads it): it must
not load pygls or lsprotocol, which would multiply the time before the first worker runs."""

from __future__ import annotations

import subprocess
import sys

from helpers import bare_env


def test_scan_worker_module_loads_no_lsp_package() -> None:
    code = ("import sys\nimport skill_lsp.server.services.scanjob\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=bare_env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_a_started_worker_holds_no_lsp_package() -> None:
    """What a worker imports is more than scanjob: unpickling the pool's initializer imports
    the module that defines it (sync.py once did, and each worker paid 0.24 CPU-s for pygls)."""
    code = ("from skill_lsp.server.services import sync\n"
            "pool = sync._start_pool(1)\n"
            "print(pool.submit(eval, \"sorted(m for m in __import__('sys').modules \"\n"
            "                  \"if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs'))\").result(timeout=60))\n"
            "pool.shutdown()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=bare_env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
