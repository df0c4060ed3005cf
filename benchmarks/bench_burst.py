"""A burst of 100 didChange sent back to back: time from the last one to its diagnostics.

`python benchmarks/bench_burst.py [--reps N]` (skill_lsp installed in this Python). The server runs
with its default 50 ms debounce; the budget is 100 ms, and only the newest version is
ever analysed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from lsp_client import LspClient, uri_of  # noqa: E402

TEXT = "---\nname: demo\ndescription: A demo skill. Use when testing.\n---\n" + "\n".join(
    f"Line {i} with [a link](references/r{i % 5}.md) and words." for i in range(200)) + "\n"
EDITS = 100


async def one_burst(ws: Path, path: Path) -> float:
    client = LspClient([sys.executable, "-m", "skill_lsp", "serve"], cwd=str(ws))
    await client.start()
    try:
        await client.initialize(str(ws))
        uri = uri_of(path)
        opened = client.expect("textDocument/publishDiagnostics", lambda p, uri=uri: p.get("uri") == uri)
        client.did_open(uri, TEXT, 1)
        await client.wait(opened, 10)
        last = EDITS + 1
        final = client.expect("textDocument/publishDiagnostics",
                              lambda p, uri=uri, last=last: p.get("uri") == uri and p.get("version") == last)
        text = TEXT
        for version in range(2, last + 1):
            text = text[:-1] + "x\n"
            client.did_change_full(uri, text, version)
        sent = time.perf_counter()
        received, _ = await client.wait(final, 10)
        return (received - sent) * 1000
    finally:
        await client.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    ws = Path(tempfile.mkdtemp(prefix="skill-lsp-burst-"))
    path = ws / ".claude/skills/demo/SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text(TEXT, encoding="utf-8")
    lags = [await one_burst(ws, path) for _ in range(args.reps)]
    print(f"burst of {EDITS} edits: final diagnostics after the last edit, ms: "
          f"{[round(x, 1) for x in lags]}; median {statistics.median(lags):.1f} (budget 100)")


if __name__ == "__main__":
    asyncio.run(main())
