"""``python -m capture newer``: releases newer than the pins, tried on the stored cases and the tester.

Asks the npm registry (``npm view <package> versions --json``) for each pinned package's
versions and lists those newer than the pin. With ``--try`` it installs the newest (or a
given version) into the cache, captures every stored case with it into a temporary
folder, diffs that with the pinned release's stored captures, runs the differential
tester (fixed seed, a small sample) on both releases, and writes a report of what
changed. ``--apply`` then moves the pin: pins.toml, and the stored captures under
tests/golden/harness/<harness>@<new version> (the old folder removed), ready to review.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import layout
from .install import PINS, Pin, ensure, pins


def _key(version: str) -> tuple:
    """Semver order: numbers compared as numbers; a pre-release sorts before its release."""
    main, _, pre = version.partition("-")
    nums = tuple(int(p) if p.isdigit() else 0 for p in main.split("."))
    return nums + ((1,) if not pre else (0, pre))


def newer(pin: Pin, pre: bool = False) -> list[str]:
    """Versions of ``pin.package`` on the registry newer than the pin, oldest first."""
    proc = subprocess.run(["npm", "view", pin.package, "versions", "--json"], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise RuntimeError(f"npm view {pin.package}: {proc.stderr.strip()[-300:]}")
    versions = json.loads(proc.stdout or "[]")
    if isinstance(versions, str):
        versions = [versions]
    out = [v for v in versions if _key(v) > _key(pin.version) and (pre or "-" not in v)]
    return sorted(out, key=_key)


def _unversioned(name: str, data: bytes | None, pin: Pin) -> bytes | None:
    """meta.json names the version: that line is not a change of behaviour."""
    if data is None or not name.endswith("meta.json"):
        return data
    return data.replace(f'"version": "{pin.version}"'.encode(), b'"version": "*"')


def _same_capture(name: str, a: bytes | None, b: bytes | None) -> bool:
    from .__main__ import _same  # noqa: PLC0415

    return _same(name, a, b)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _pins_file(all_pins: dict[str, Pin], harness: str, version: str, dest: Path) -> Path:
    lines = []
    for h, p in all_pins.items():
        lines += [f"[{h}]", f'package = "{p.package}"', f'version = "{version if h == harness else p.version}"', ""]
    dest.write_text("\n".join(lines), encoding="utf-8")
    return dest


def try_release(harness: str, version: str, seed: int, skills: int, report: Path) -> int:
    from .__main__ import run as capture_run  # noqa: PLC0415
    from .diff.cli import run_harness  # noqa: PLC0415

    all_pins = pins()
    old = all_pins[harness]
    new = Pin(harness, old.package, version)
    print(f"installing {new.package}@{version} into the cache", file=sys.stderr)
    ensure(new)
    lines = [f"# {harness}: {old.version} -> {version}", ""]
    with tempfile.TemporaryDirectory(prefix="capture-newer-") as tmp_name:
        tmp = Path(tmp_name)
        new_pins = {**all_pins, harness: new}
        status = capture_run([harness], None, tmp, new_pins)
        before, after = _tree(layout.GOLDEN / old.label), _tree(tmp / new.label)
        changed = [n for n in sorted(set(before) | set(after))
                   if not _same_capture(f"{new.label}/{n}", _unversioned(n, before.get(n), old),
                                        _unversioned(n, after.get(n), new))]
        lines.append(f"## Stored cases: {len(changed)} file(s) differ from the {old.label} captures"
                     + (" (some cases failed to capture)" if status else ""))
        lines.append("")
        for name in changed:
            a = before.get(name, b"").decode("utf-8", "replace").splitlines(keepends=True)
            b = after.get(name, b"").decode("utf-8", "replace").splitlines(keepends=True)
            lines.append("```diff")
            lines.extend(x.rstrip("\n") for x in difflib.unified_diff(a, b, f"{old.label}/{name}",
                                                                       f"{new.label}/{name}"))
            lines.append("```")
        lines += ["", f"## Differential tester (seed {seed}, {skills} generated skills)", "",
                  "| release | skills agree | activations agree | catalogs agree |", "|---|---|---|---|"]
        tallies = {}
        runs: dict[str, list] = {}
        for pin in (old, new):
            runs[pin.label] = []
            tally, _ = run_harness(pin, seed, skills, tmp / "diff", every=runs[pin.label], quiet=True)
            tallies[pin.label] = tally
            lines.append(f"| {pin.label} | {tally.skills_ok}/{tally.skills} | {tally.acts_ok}/{tally.acts} | "
                         f"{tally.catalogs_ok}/{tally.catalogs} |")
        a_t, b_t = tallies[old.label], tallies[new.label]
        moved = sorted(set(a_t.kinds) | set(b_t.kinds))
        lines += ["", "Disagreements by kind (old -> new): " + ", ".join(
            f"{k} {a_t.kinds.get(k, 0)} -> {b_t.kinds.get(k, 0)}" for k in moved), ""]
        # What the release itself sends, batch by batch: the same generated workspaces.
        shown = 0
        moved_texts = 0
        for (batch, a), (_, b) in zip(runs[old.label], runs[new.label], strict=True):
            pairs = [("catalog", a.theirs_catalog, b.theirs_catalog)]
            pairs += [(f"activation of {x.call}", x.theirs, y.theirs)
                      for x, y in zip(a.activations, b.activations, strict=False)]
            for what, x, y in pairs:
                if x == y:
                    continue
                moved_texts += 1
                if shown < 10:
                    shown += 1
                    lines.append(f"### {batch.name}: {what}")
                    lines.append("```diff")
                    lines.extend(d.rstrip("\n") for d in difflib.unified_diff(
                        (x or "").splitlines(keepends=True), (y or "").splitlines(keepends=True),
                        old.label, new.label))
                    lines.append("```")
        lines.insert(lines.index(f"## Differential tester (seed {seed}, {skills} generated skills)") + 1,
                     f"\nWhat the release sends changed in {moved_texts} catalog(s) and activation(s) of the "
                     f"same generated workspaces (the first 10 are shown below).")
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"report: {report}", file=sys.stderr)
    return 0


def apply(harness: str, version: str) -> int:
    """Move the pin: pins.toml and the stored captures (re-captured with the new release)."""
    from .__main__ import run as capture_run  # noqa: PLC0415

    all_pins = pins()
    old = all_pins[harness]
    text = PINS.read_text(encoding="utf-8")
    section = re.search(rf"^\[{re.escape(harness)}\]\n(?:[^\[].*\n)*", text, re.M)
    if section is None:
        raise SystemExit(f"no [{harness}] in {PINS}")
    block = re.sub(r'^version = ".*"$', f'version = "{version}"', section.group(0), flags=re.M)
    PINS.write_text(text[:section.start()] + block + text[section.end():], encoding="utf-8")
    status = capture_run([harness], None, layout.GOLDEN)
    if status == 0 and (layout.GOLDEN / old.label).is_dir():
        shutil.rmtree(layout.GOLDEN / old.label)
    print(f"{harness}: pinned {version}; review `git diff --stat tests/golden/harness capture/pins.toml`, then "
          f"the facts in src/skill_lsp/engine/harness/data.py ({old.version} there)", file=sys.stderr)
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m capture newer")
    parser.add_argument("harness", nargs="*", help="default: every pinned harness")
    parser.add_argument("--pre", action="store_true", help="count pre-releases too")
    parser.add_argument("--try", dest="try_", metavar="HARNESS[@VERSION]",
                        help="install that release (default: the newest) and report what changed")
    parser.add_argument("--apply", metavar="HARNESS@VERSION", help="move the pin to that release")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--skills", type=int, default=120, help="generated skills for the tester (default 120)")
    parser.add_argument("--report", type=Path, default=Path("/tmp/capture-newer.md"))
    args = parser.parse_args(argv)
    all_pins = pins()
    if args.apply:
        harness, _, version = args.apply.partition("@")
        return apply(harness, version)
    if args.try_:
        harness, _, version = args.try_.partition("@")
        if not version:
            found = newer(all_pins[harness], args.pre)
            if not found:
                print(f"{harness}: nothing newer than {all_pins[harness].version}", file=sys.stderr)
                return 0
            version = found[-1]
        return try_release(harness, version, args.seed, args.skills, args.report)
    for h in args.harness or list(all_pins):
        pin = all_pins[h]
        found = newer(pin, args.pre)
        print(f"{pin.label}: " + (f"{len(found)} newer, newest {found[-1]}  (python -m capture newer --try {h})"
                                  if found else "up to date"))
    return 0
