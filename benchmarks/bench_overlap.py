#!/usr/bin/env python3
"""Cost of DESCRIPTION_OVERLAP (issue 26): the description index over every skill under a folder.

    python benchmarks/bench_overlap.py /work/heldout      # all held-out skills (~11,800)

Builds an OverlapIndex from scratch (what `check` and a server's first scan do), then replaces
every 50th description with a changed one and back (what an edit costs), and prints the times.
"""

from __future__ import annotations

import os
import sys
import time

from skill_lsp.engine import document
from skill_lsp.engine.overlap import OverlapIndex
from skill_lsp.engine.rules.harness_values import string_value


def descriptions(root: str) -> list[tuple[str, str, str]]:
    out = []
    for dp, _dn, fn in os.walk(root):
        if "SKILL.md" not in fn:
            continue
        p = os.path.join(dp, "SKILL.md")
        try:
            doc = document.parse(open(p, encoding="utf-8", errors="replace").read(), p)
        except OSError:
            continue
        if doc.frontmatter_ok:
            v = string_value(doc, "description")
            if isinstance(v, str):
                out.append((p, string_value(doc, "name") or os.path.basename(dp), " ".join(v.split())))
    return out


def main() -> int:
    items = descriptions(sys.argv[1] if len(sys.argv) > 1 else ".")
    t0 = time.perf_counter()
    idx = OverlapIndex()
    for p, n, d in items:
        idx.add(p, n, d)
    build = time.perf_counter() - t0
    edits = items[::50]
    t1 = time.perf_counter()
    for p, n, d in edits:
        idx.add(p, n, d + " Also handles edge cases.")
        idx.add(p, n, d)
    per_edit = (time.perf_counter() - t1) / (2 * max(1, len(edits)))
    print(f"{len(items):,} descriptions: index built in {build:.2f} s; {len(idx.overlapping()):,} skills overlap another; "
          f"an edit costs {per_edit * 1000:.2f} ms ({len(edits) * 2} edits); load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
