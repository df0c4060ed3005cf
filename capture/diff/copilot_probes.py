"""Probes of GitHub Copilot CLI whose workspaces are too large to store as a capture case.

``python -m capture.diff.copilot_probes item-counts [--write]`` activates one skill whose folders
hold 51, 999, 1,000 and 12,345 files (folders of more than 50 entries are summarized with their
count) on the pinned Copilot CLI and prints what it handed the model; ``--write`` stores it under
tests/golden/probes/copilot@<version>/item-counts.json, the way capture/diff/probes.py stores the
Claude Code probes, for tests/engine/test_copilot_release_edges.py. The files are generated at run
time: only the release's answer is stored.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from skill_lsp.capture import drivers

from ..drivers import pinned
from ..install import pins
from .probes import PROBES

#: Folder -> how many (empty) files it holds. Found by capture diff --real seed 11: a GitLab API skill's
#: `references/operations/` of 1,825 files was summarized as `(1,825 items)`.
ITEM_COUNTS = {"b51": 51, "c999": 999, "d1000": 1000, "e12345": 12345}
SKILL = "many-items"
SKILL_MD = f"---\nname: {SKILL}\ndescription: Folders of many files.\n---\n\nBody.\n"


def item_counts_probe(write: bool) -> int:
    pin = pins()["copilot"]
    with tempfile.TemporaryDirectory(prefix="probe-", dir="/tmp") as tmp:
        ws, home = Path(tmp) / "ws", Path(tmp) / "home"
        home.mkdir()
        skill = ws / ".github" / "skills" / SKILL
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(SKILL_MD, encoding="utf-8")
        for folder, count in ITEM_COUNTS.items():
            (skill / folder).mkdir()
            for i in range(count):
                (skill / folder / f"f{i}.txt").write_bytes(b"")
        got = drivers.run("copilot", pinned(pin), ws, home, [(SKILL, "")], {})
    (act,) = got.activations
    text = None if act.text is None else act.text.replace(str(ws), "<ws>").replace(str(home), "<home>")
    print(text, file=sys.stderr)
    if write:
        dest = PROBES / pin.label / "item-counts.json"
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(json.dumps({
            "note": "what Copilot CLI handed the model when a skill whose folders hold these many files was "
                    "activated (python -m capture.diff.copilot_probes item-counts)",
            "skill_md": SKILL_MD, "folders": ITEM_COUNTS, "activation": text}, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8")
    return 0


PROBE_RUNNERS = {"item-counts": item_counts_probe}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m capture.diff.copilot_probes", description=__doc__)
    parser.add_argument("probe", choices=sorted(PROBE_RUNNERS))
    parser.add_argument("--write", action="store_true", help="store the release's answer")
    args = parser.parse_args(argv)
    return PROBE_RUNNERS[args.probe](args.write)


if __name__ == "__main__":
    sys.exit(main())
