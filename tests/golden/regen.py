"""Show how the golden files differ from what the code now produces; rewrite them with --write.

    python tests/golden/regen.py           # unified diffs, exit 1 when a file differs
    python tests/golden/regen.py --write   # also rewrite the files that differ

The tests only compare (tests/goldens.py computes the texts); review this diff
before writing: a golden produced by the code under test proves only that the
output did not change.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

from goldens import REPO, all_goldens  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="rewrite the golden files that differ")
    args = ap.parse_args(argv)
    differ = 0
    for path, produce in all_goldens().items():
        new = produce()
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        if new == old:
            continue
        differ += 1
        rel = path.relative_to(REPO).as_posix()
        sys.stdout.writelines(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                                   f"a/{rel}", f"b/{rel}"))
        if args.write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(new, encoding="utf-8", newline="")
    verb = "rewritten" if args.write else "differ (run with --write to rewrite them)"
    print(f"{differ} golden file(s) {verb}" if differ else "golden files are current", file=sys.stderr)
    return 1 if differ and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
