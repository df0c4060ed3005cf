"""`skill-lsp capture --harness NAME [WORKSPACE]`: what the user's own installed harness sends the model.

Runs the harness found on PATH (or ``--command``) on a copy of the workspace's skill
roots, with a temporary home folder, a dummy API key and a model endpoint on
127.0.0.1 that records every request (nothing else is contacted), within a time
limit; prints the catalog and an activation exactly as the release sent them, and
compares each with skill-lsp's preview for the same copy.
"""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
import sys
import tempfile
from argparse import ArgumentParser, Namespace
from pathlib import Path

from ..capture import drivers, expect
from ..capture.normalise import normalise
from ..capture.releases import COMMANDS, PACKAGES, installed
from ..engine.harness import HARNESSES

_EMPTY = "capture-missing-skill"


def _project_roots(harness: str) -> list[str]:
    return [r.path for r in HARNESSES[harness].roots if r.project]


def _copy_roots(harness: str, workspace: Path, into: Path) -> list[str]:
    """The project roots ``harness`` reads, copied from ``workspace`` (links followed); the roots copied."""
    copied = []
    for rel in _project_roots(harness):
        src = workspace / rel
        if src.is_dir():
            shutil.copytree(src, into / rel, symlinks=False, ignore_dangling_symlinks=True,
                            ignore=shutil.ignore_patterns(".git", "node_modules"), dirs_exist_ok=True)
            copied.append(rel)
    subprocess.run(["git", "init", "-q", str(into)], check=True, stdin=subprocess.DEVNULL)
    return copied


def _diff(a: str, b: str, what: str) -> str:
    return "".join(difflib.unified_diff(b.splitlines(keepends=True), a.splitlines(keepends=True),
                                        f"skill-lsp/{what}", f"release/{what}"))


def _agrees(harness: str, theirs: str | None, mine: str | None) -> bool:
    if theirs == mine:
        return True
    # OpenCode lists a skill's files in the file system's directory order.
    return harness == "opencode" and theirs is not None and mine is not None and expect.same_files(theirs, mine)


def run(args: Namespace) -> int:
    harness = {"claude": "claude-code", "gemini-cli": "gemini"}.get(args.harness, args.harness)
    if harness not in COMMANDS:
        print(f"skill-lsp: unknown harness {args.harness!r}; known: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    workspace = Path(args.workspace).resolve()
    if not workspace.is_dir():
        print(f"skill-lsp: no such folder: {args.workspace}", file=sys.stderr)
        return 2
    release = installed(harness, args.exe)
    if release is None:
        what = f"`{args.exe}`" if args.exe else \
            ("@google/gemini-cli-core (beside a `gemini` command)" if harness == "gemini" else f"`{COMMANDS[harness]}`")
        print(f"skill-lsp: {what} not found; install {PACKAGES[harness]} (npm) or pass --command PATH",
              file=sys.stderr)
        return 2
    proven = HARNESSES[harness].version.rsplit(" ", 1)[-1]
    title = HARNESSES[harness].title
    same = release.version == proven
    note = "the release skill-lsp's facts were proven on" if same else \
        f"skill-lsp's facts were proven on {proven}: this comparison is the proof for {release.version or 'it'}"
    if args.format != "json":
        print(f"skill-lsp capture: {title} {release.version or '(version unknown)'} ({release.where}); {note}",
              file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="skill-lsp-capture-") as tmp_name:
        tmp = Path(tmp_name)
        ws, home = tmp / "ws", tmp / "home"
        ws.mkdir()
        home.mkdir()
        copied = _copy_roots(harness, workspace, ws)
        recs = expect.records(harness, ws, home)
        dialect = expect.dialect_for(harness, home)
        listed = list(dialect.order(recs))
        if args.skill:
            calls = [(args.skill, args.arguments or "")]
        elif args.all:
            calls = [(_call_name(harness, r), args.arguments or "") for r in listed]
        else:
            calls = [(_call_name(harness, listed[0]), args.arguments or "")] if listed else []
        try:
            names = None
            if harness == "claude-code":  # its built-ins, from a run with no skills, are left out
                empty_ws, empty_home = tmp / "empty-ws", tmp / "empty-home"
                empty_ws.mkdir()
                empty_home.mkdir()
                base = drivers.run(harness, list(release.argv), empty_ws, empty_home, [(_EMPTY, "")], None,
                                   args.timeout)
                names = {b["name"]: b["entry_chars"] for b in base.builtins}
            got = drivers.run(harness, list(release.argv), ws, home, calls or [(_EMPTY, "")], names or {},
                              args.timeout)
        except drivers.CaptureError as err:
            print(f"skill-lsp: {title} did not answer as expected: {err}", file=sys.stderr)
            return 2
        theirs_catalog = normalise(got.catalog or "", ws, home)
        mine_catalog = normalise(expect.catalog(harness, ws, home, got.builtins, recs), ws, home)
        acts = []
        for a in got.activations:
            if a.skill == _EMPTY:
                continue
            try:
                exp = expect.activation(harness, ws, home, a.skill, a.arguments, recs)
                mine = None if exp.text is None else normalise(exp.text, ws, home)
            except ValueError:
                mine = None
            theirs = None if not a.text else normalise(a.text, ws, home)
            acts.append({"skill": a.skill, "arguments": a.arguments, "release": theirs, "skill_lsp": mine,
                         "agrees": _agrees(harness, theirs, mine)})
    catalog_agrees = _agrees(harness, theirs_catalog, mine_catalog)
    agree = catalog_agrees and all(a["agrees"] for a in acts)
    if args.format == "json":
        json.dump({"harness": harness, "version": release.version, "proven": proven, "command": release.where,
                   "roots": copied, "catalog": {"release": theirs_catalog, "skill_lsp": mine_catalog,
                                                "agrees": catalog_agrees},
                   "activations": acts, "builtins": [b["name"] for b in got.builtins], "agrees": agree},
                  sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0 if agree else 1
    out = sys.stdout
    out.write(f"== catalog ({title} {release.version}, roots: {', '.join(copied) or 'none'}; built-in skills "
              f"left out: {len(got.builtins)}) ==\n{theirs_catalog}\n")
    out.write("== skill-lsp's preview: the same ==\n" if catalog_agrees else
              f"== skill-lsp's preview differs ==\n{_diff(theirs_catalog, mine_catalog, 'catalog')}")
    for a in acts:
        head = f"{a['skill']}" + (f" with arguments {a['arguments']!r}" if a["arguments"] else "")
        out.write(f"\n== activation of {head} ==\n")
        out.write("(the release activated nothing)\n" if a["release"] is None else a["release"] + "\n")
        if a["agrees"]:
            out.write("== skill-lsp's preview: the same ==\n")
        elif a["skill_lsp"] is None:
            out.write("== skill-lsp's preview differs: it says the release activates nothing ==\n")
        else:
            out.write(f"== skill-lsp's preview differs ==\n{_diff(a['release'] or '', a['skill_lsp'], 'activation')}")
    if not acts:
        out.write("\n(no skill to activate: the release lists none of this workspace's skills)\n")
    print(f"skill-lsp capture: {'agrees' if agree else 'DIFFERS'}: catalog "
          f"{'same' if catalog_agrees else 'differs'}, {sum(a['agrees'] for a in acts)}/{len(acts)} activations "
          f"the same", file=sys.stderr)
    return 0 if agree else 1


def _call_name(harness: str, record) -> str:  # type: ignore[no-untyped-def]
    """The name the harness's skill tool takes for a listed record: Claude Code keys by folder."""
    if harness == "claude-code":
        return str(record.folder)
    if harness == "copilot":  # the listed name: trimmed, whitespace runs as '-'
        from ..engine.render.copilot import _name  # noqa: PLC0415

        return _name(record) or str(record.folder)
    declared = record.frontmatter.get("name")
    return declared if isinstance(declared, str) and declared.strip() else str(record.folder)


def add_arguments(k: ArgumentParser) -> None:
    k.add_argument("workspace", nargs="?", default=".", metavar="WORKSPACE",
                   help="the folder whose skills to show the harness (default: the current folder)")
    k.add_argument("--harness", required=True, choices=sorted(set(COMMANDS) | {"claude", "gemini-cli"}),
                   help="which harness: claude-code (claude), codex, opencode, copilot, gemini")
    k.add_argument("--command", dest="exe", metavar="PATH",
                   help="the harness's command (default: found on PATH; gemini: the @google/gemini-cli-core folder)")
    k.add_argument("--skill", metavar="NAME", help="the skill to activate (default: the first listed)")
    k.add_argument("--all", action="store_true", help="activate every listed skill")
    k.add_argument("--arguments", help="arguments for the activation (Claude Code substitutes them)")
    k.add_argument("--timeout", type=float, default=120.0, help="seconds the harness may run (default: 120)")
    k.add_argument("--format", choices=("text", "json"), default="text",
                   help="text: the release's catalog and activations with a diff each (default); json: both sides")

