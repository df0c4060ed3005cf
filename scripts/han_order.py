"""Measure how JavaScript's localeCompare orders the CJK Unified Ideographs and write
engine/data/han_order.txt.

ICU's root collation (what `a.localeCompare(b)` uses without a locale; Gemini CLI's folder tree,
OpenCode's catalog and the skill tool order names with it) sorts Han characters by radical and
stroke count, not by code point: 一丁丂七丄丅丆万丈三上下丌亐卄不与... The block U+4E00..U+9FFF is
mostly in that order already; the file lists the block, sorted, as runs of consecutive code points
(``start end``, hex), about 480 lines. Characters of the extension blocks interleave with these in
ICU's order and are left at their code point (activation.jsstr.locale_key).

    python scripts/han_order.py            # with the node on PATH (its full ICU)
"""

from __future__ import annotations

import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src/skill_lsp/engine/data/han_order.txt"

PROBE = r"""
const a = [];
for (let c = 0x4E00; c <= 0x9FFF; c++) a.push(String.fromCharCode(c));
a.sort((x, y) => x.localeCompare(y));
const runs = [];
for (const ch of a) {
  const cp = ch.charCodeAt(0), last = runs[runs.length - 1];
  if (last && last[1] === cp - 1) last[1] = cp; else runs.push([cp, cp]);
}
console.log(process.versions.node + " " + process.versions.icu);
for (const [s, e] of runs) console.log(s.toString(16) + " " + e.toString(16));
"""


def main() -> int:
    out = subprocess.run(["node", "-e", PROBE], capture_output=True, text=True, check=True, timeout=120).stdout
    versions, *runs = out.splitlines()
    node, icu = versions.split()
    OUT.write_text(f"# U+4E00..U+9FFF in localeCompare order (Node {node}, ICU {icu}) by scripts/han_order.py:\n"
                   "# runs of consecutive code points, start end (hex).\n" + "\n".join(runs) + "\n",
                   encoding="utf-8")
    print(f"{OUT}: {len(runs)} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
