"""``python -m capture diff --recheck``: the stored disagreements, compared again with today's engine.

A shrunk case keeps the release's answer in tests/golden/harness; after an engine change
this lays each case out again, asks skill-lsp (no release is run), and updates the case:
parts that now agree lose their mark, and a case that agrees everywhere stays as a plain
regression capture (its finding.json and ``[disagrees]`` table removed).
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from skill_lsp.capture import expect
from skill_lsp.capture.normalise import normalise

from .. import layout


def _compare(folder: Path, harness: str, case: layout.Case) -> dict[str, bool]:
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    builtins = json.loads((folder.parent / "builtins.json").read_text(encoding="utf-8"))["skills"]
    parent = Path(tempfile.mkdtemp(prefix="hc", dir="/tmp"))
    try:
        chars = meta.get("base_path_chars")
        base = parent / ("p" * (chars - len(str(parent)) - 1)) if chars and chars > len(str(parent)) + 1 \
            else parent / "case"
        ws, home = layout.materialise(case, harness, base)
        recs = expect.records(harness, ws, home)
        catalog = normalise(expect.catalog(harness, ws, home, builtins, recs), ws, home)
        want = (folder / "catalog.txt").read_text(encoding="utf-8")
        got = expect.activation(harness, ws, home, meta["skill"], meta["arguments"], recs)
        text = "" if got.text is None else normalise(got.text, ws, home)
        stored = (folder / "activation.txt").read_text(encoding="utf-8")
        if got.text is None:  # skill-lsp says nothing is activated: the release's text is no skill
            same_act = not expect.activated(harness, stored)
        else:
            same_act = text == stored or (harness == "opencode" and expect.same_files(text, stored))
        return {"catalog": catalog == want, "activation": same_act}
    except ValueError:
        return {"catalog": False, "activation": False}
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def recheck() -> int:
    """Update every stored case's known disagreements; prints what changed."""
    changed = 0
    for case in layout.cases():
        finding = case.folder / "finding.json"
        known = layout.findings(case.folder)
        if not known:
            continue
        kept = []
        for data in known:
            label = data["harness"]
            harness = label.split("@")[0]
            folder = layout.GOLDEN / label / case.name
            if not (folder / "meta.json").is_file():
                print(f"{case.name}: no stored capture under {folder}", file=sys.stderr)
                kept.append(data)
                continue
            now = _compare(folder, harness, case)
            if now != data["agrees"]:
                changed += 1
                if all(now.values()):
                    print(f"{case.name}: skill-lsp now agrees with {label}; kept as a regression capture",
                          file=sys.stderr)
                    _unmark(case, harness)
                    continue
                print(f"{case.name}: now agrees on {[k for k, v in now.items() if v]}", file=sys.stderr)
                data = {**data, "agrees": now}
            kept.append(data)
        if not kept:
            finding.unlink()
        elif kept != known:
            out = kept[0] if len(kept) == 1 else kept
            finding.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"capture diff --recheck: {changed} case(s) changed", file=sys.stderr)
    return 0


def _unmark(case: layout.Case, harness: str) -> None:
    """Drop ``harness`` from the case's ``[disagrees]`` table (the table too, once empty)."""
    path = case.folder / "case.toml"
    toml = path.read_text(encoding="utf-8")
    m = re.search(r"(?m)^\[disagrees\]\n((?:[^\[].*\n?)*)", toml)
    if m is None:
        return
    rest = [ln for ln in m.group(1).splitlines()
            if ln.strip() and not re.match(rf'"?{re.escape(harness)}"?\s*=', ln)]
    table = "[disagrees]\n" + "".join(f"{ln}\n" for ln in rest) if rest else ""
    toml = (toml[:m.start()] + table + toml[m.end():]).rstrip("\n") + "\n"
    path.write_text(toml.replace("\n\n\n", "\n\n"), encoding="utf-8")
