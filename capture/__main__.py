"""``python -m capture install|run|verify``: see capture/README.md."""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from . import layout
from .drivers import DRIVERS, Capture, CaptureError
from .install import ensure, pins


def _write(folder: Path, name: str, text: str) -> None:
    # Bytes as captured: no newline added, no newline translation.
    (folder / name).write_bytes(text.encode("utf-8"))


def _baseline(harness: str, pin, tmp: Path) -> dict[str, int] | None:
    """Built-in skill names and their entries' sizes, from a run on a workspace with no skills of its own."""
    if harness not in ("claude-code",):
        return {}
    base = tmp / "baseline"
    workspace, home = base / "ws", base / "home"
    workspace.mkdir(parents=True)
    home.mkdir(parents=True)
    cap = DRIVERS[harness](pin, workspace, home, "capture-missing-skill", "", None)
    return {b["name"]: b["entry_chars"] for b in cap.builtins}


def run(harnesses: list[str], case_names: list[str] | None, out: Path, all_pins: dict | None = None) -> int:
    all_pins = all_pins or pins()
    failures = 0
    for harness in harnesses:
        pin = all_pins[harness]
        ensure(pin)
        target = out / pin.label
        target.mkdir(parents=True, exist_ok=True)
        builtins: dict[str, dict] = {}
        # A fixed parent keeps path lengths equal from machine to machine: Codex's
        # budget depends on the length of its roots table (recorded as base_path_chars).
        parent = "/tmp" if os.path.isdir("/tmp") else None
        with tempfile.TemporaryDirectory(prefix=f"capture-{harness}-", dir=parent) as tmp_name:
            tmp = Path(tmp_name)
            names = _baseline(harness, pin, tmp)
            for case in layout.cases():
                if case_names and case.name not in case_names:
                    continue
                if harness in case.skip:
                    print(f"{pin.label} {case.name}: skipped ({case.skip[harness]})", file=sys.stderr)
                    continue
                started = time.monotonic()
                workspace, home = layout.materialise(case, harness, tmp / case.name)
                try:
                    cap: Capture = DRIVERS[harness](pin, workspace, home, case.skill_for(harness), case.arguments, names)
                except (CaptureError, OSError, ValueError) as err:
                    print(f"{pin.label} {case.name}: FAILED {err}", file=sys.stderr)
                    failures += 1
                    continue
                folder = target / case.name
                folder.mkdir(parents=True, exist_ok=True)
                for old in folder.iterdir():
                    old.unlink()
                def norm(text: str, workspace: Path = workspace, home: Path = home) -> str:
                    return layout.normalise(text, workspace, home)

                _write(folder, "catalog.txt", norm(cap.catalog))
                _write(folder, "activation.txt", norm(cap.activation))
                if cap.tool_result is not None:
                    _write(folder, "tool_result.txt", norm(cap.tool_result))
                meta = {"harness": harness, "package": pin.package, "version": pin.version, "case": case.name,
                        "skill": case.skill_for(harness), "arguments": case.arguments,
                        "base_path_chars": len(str(tmp / case.name)),
                        **{k: json.loads(norm(json.dumps(v))) for k, v in cap.meta.items()}}
                _write(folder, "meta.json", json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
                for b in cap.builtins:
                    # The full size: past a listing budget a built-in may be listed by name only.
                    if b["name"] not in builtins or b.get("entry_chars", 0) > builtins[b["name"]].get("entry_chars", 0):
                        builtins[b["name"]] = b
                print(f"{pin.label} {case.name}: ok ({time.monotonic() - started:.1f}s)", file=sys.stderr)
        record = {"harness": harness, "package": pin.package, "version": pin.version,
                  "note": "built-in skills this release lists; names and sizes only (their text is never stored)",
                  "skills": [builtins[k] for k in sorted(builtins)]}
        _write(target, "builtins.json", json.dumps(record, indent=2) + "\n")
    return 1 if failures else 0


def _as_set(data: bytes, opener: bytes, closer: bytes, sep: bytes) -> bytes:
    """``data`` with the ``sep``-separated pieces between ``opener`` and ``closer`` sorted: two
    texts that differ only in the order of those pieces compare equal."""
    head, start, rest = data.partition(opener)
    body, end, tail = rest.partition(closer)
    return head + start + sep.join(sorted(body.split(sep))) + end + tail


_FILES = (b"<skill_files>\n", b"</skill_files>", b"\n")  # OpenCode's file lines
_SKILLS = (b"<available_skills>\n", b"</available_skills>", b"</skill>\n")  # Gemini's <skill> blocks


def _same(name: str, old: bytes | None, new: bytes | None) -> bool:
    if old == new:
        return True
    if old is None or new is None:
        return False
    # OpenCode lists a skill's files in ripgrep's order, which is the file system's
    # directory order: compare those lines as a set.
    if name.endswith("/activation.txt") and b"<skill_files>" in old:
        return _as_set(old, *_FILES) == _as_set(new, *_FILES)
    # gemini-cli's loader globs a root's folders asynchronously: usually in reverse code-point
    # order (what the stored captures and the renderer hold), not always (2 of 8 runs of the
    # 48-skill case; once in CI the 4-skill one). The same entries in another order are that.
    gemini_catalog = name.startswith("gemini@") and name.endswith("/catalog.txt")
    if gemini_catalog and _as_set(old, *_SKILLS) == _as_set(new, *_SKILLS):
        print(f"capture verify: {name}: the same skills in another order (gemini-cli's glob order is not fixed)",
              file=sys.stderr)
        return True
    return False


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# How many more runs a differing case gets: a difference that is the release's timing seldom repeats
# (two of about 120 Copilot CLI cases, in CI runs beside another capture run on the same two cores).
_AGAIN = 2


def verify(harnesses: list[str]) -> int:
    """Re-run the rig into a temporary folder; non-zero when any stored capture differs.

    A case whose files differ runs up to twice more, and only a difference it repeats counts:
    Copilot CLI loads a project's skills beside the session's first turn, and in two CI runs with
    another capture run on the same two cores it answered before they were there (`Skill "f01" not
    found. Available skills:` its built-ins only, cases copilot-flag-spellings and missing-fields;
    each agreed in every run after). Each case that agreed only on another run is named."""
    with tempfile.TemporaryDirectory(prefix="capture-verify-") as tmp:
        fresh = Path(tmp)
        status = run(harnesses, None, fresh)
        differ = 0
        for harness in harnesses:
            label = pins()[harness].label
            old, new = _tree(layout.GOLDEN / label), _tree(fresh / label)
            off = [name for name in sorted(set(old) | set(new)) if not _same(f"{label}/{name}", old.get(name), new.get(name))]
            agreed: set[str] = set()
            for case in sorted({name.split("/", 1)[0] for name in off if "/" in name}):
                names = [name for name in off if name.startswith(f"{case}/")]
                for attempt in range(_AGAIN):
                    folder = fresh / "again" / f"{case}-{attempt}"
                    folder.mkdir(parents=True)
                    run([harness], [case], folder)
                    again = _tree(folder / label)
                    if all(_same(f"{label}/{name}", old.get(name), again.get(name)) for name in names):
                        agreed.update(names)
                        print(f"capture verify: {label}/{case} differed, and agreed when it ran again", file=sys.stderr)
                        break
            for name in off:
                if name in agreed:
                    continue
                differ += 1
                a = old.get(name, b"").decode("utf-8", "replace").splitlines(keepends=True)
                b = new.get(name, b"").decode("utf-8", "replace").splitlines(keepends=True)
                sys.stdout.writelines(difflib.unified_diff(a, b, f"stored/{label}/{name}", f"fresh/{label}/{name}"))
        print(f"capture verify: {differ} file(s) differ", file=sys.stderr)
        return 1 if differ or status else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["diff"]:
        from .diff.cli import main as diff_main  # noqa: PLC0415

        return diff_main(argv[1:])
    if argv[:1] == ["newer"]:
        from .newer import main as newer_main  # noqa: PLC0415

        return newer_main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m capture")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("install", help="npm-install every pinned release into the cache")
    sub.add_parser("diff", help="the differential tester (python -m capture diff --help)")
    sub.add_parser("newer", help="try releases newer than the pins (python -m capture newer --help)")
    p_run = sub.add_parser("run", help="capture into tests/golden/harness (or --out)")
    p_run.add_argument("harness", nargs="*", help="default: every pinned harness")
    p_run.add_argument("--case", action="append", help="only this case (repeatable)")
    p_run.add_argument("--out", type=Path, default=layout.GOLDEN)
    p_verify = sub.add_parser("verify", help="fresh run in a temp folder, compared with the stored captures")
    p_verify.add_argument("harness", nargs="*")
    args = parser.parse_args(argv)
    every = list(pins())
    if args.command == "install":
        for pin in pins().values():
            print(ensure(pin))
        return 0
    if args.command == "run":
        return run(args.harness or every, args.case, args.out)
    return verify(args.harness or every)


if __name__ == "__main__":
    sys.exit(main())
