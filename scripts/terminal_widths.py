"""Measure Bun.stringWidth per code point and write engine/data/terminal_widths.txt.

Claude Code counts its skill listing in terminal cells (Bun.stringWidth), so the listing budget
is modelled with the widths of the Bun it runs on. Claude Code 2.1.332 is built on an internal
Bun 1.4.6; the nearest public one is @oven/bun-linux-x64 1.4.5 from npm:

    npm install --prefix ~/.cache/skill-lsp/bun @oven/bun-linux-x64@1.4.5
    python scripts/terminal_widths.py ~/.cache/skill-lsp/bun/node_modules/@oven/bun-linux-x64/bin/bun

The file holds ranges of code points whose width is not 1 (``start end width``, hex) and the
ranges of emoji (``e``: VS16 or a ZWJ sequence after one makes a two-cell cluster) and of skin-tone
bases (``m``), each measured by asking Bun about a string or three per code point.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src/skill_lsp/engine/data/terminal_widths.txt"

PROBE = r"""
const w = (s) => Bun.stringWidth(s);
const one = (cp) => (cp >= 0xD800 && cp <= 0xDFFF) ? String.fromCharCode(cp) : String.fromCodePoint(cp);
const widths = [], ranges = [];
let prevW = -1, startW = 0, prevK = "", startK = 0;
for (let cp = 0; cp <= 0x10FFFF; cp++) {
  const s = one(cp), width = w(s);
  // "e": an emoji (VS16 makes a one-cell one two cells; a ZWJ sequence from it is one cluster);
  // "m": a skin tone joins it (one two-cell cluster, not two clusters).
  let kind = "";
  if (cp >= 0x80 && width > 0) {
    const emoji = width === 1 ? w(s + "\uFE0F") === 2 : w(s + "\u200D\u{1F600}") === 2;
    const base = w(s + "\u{1F3FB}") === 2;
    kind = (emoji ? "e" : "") + (base ? "m" : "");
  }
  if (width !== prevW) { if (prevW !== -1 && prevW !== 1) widths.push([startW, cp - 1, prevW]); startW = cp; prevW = width; }
  if (kind !== prevK) { if (prevK) ranges.push([startK, cp - 1, prevK]); startK = cp; prevK = kind; }
}
if (prevW !== 1) widths.push([startW, 0x10FFFF, prevW]);
if (prevK) ranges.push([startK, 0x10FFFF, prevK]);
console.log(JSON.stringify({ version: Bun.version, widths, ranges }));
"""


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.js"
        probe.write_text(PROBE)
        out = subprocess.run([argv[0], str(probe)], capture_output=True, text=True, timeout=300, check=True)
    data = json.loads(out.stdout)
    lines = [f"# Bun.stringWidth of one code point, measured on Bun {data['version']} by scripts/terminal_widths.py.",
             "# start end width (hex; code points not listed are 1 cell), then start end e|m|em:",
             "# emoji (e) and skin-tone bases (m)."]
    lines += [f"{a:x} {b:x} {n}" for a, b, n in data["widths"]]
    lines += [f"{a:x} {b:x} {k}" for a, b, k in data["ranges"]]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{OUT}: {len(data['widths'])} width ranges, {len(data['ranges'])} emoji ranges (Bun {data['version']})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
