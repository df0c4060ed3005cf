"""`skill-lsp preview` and `skill-lsp catalog`: the exact model-facing text."""

from __future__ import annotations

import json
import os
import sys

from ..engine import discovery
from ..engine.config import DEFAULT_ROOTS, Settings
from ..engine.decisions import CUT, DROPPED, NAME_ONLY, decide
from ..engine.preview import (
    activate,
    catalog_locations,
    catalog_view,
    link_targets,
    mention_note,
    not_listed,
    parse_arguments,
    records_for,
    result_json,
    why_unmatched,
)
from ..engine.render.proof import proof
from ..engine.workspace import SkillResult, check_file, link_skills
from .targets import Targets, collect, load_settings

TYPE_CHECKING = False  # type checkers take this as True; a run does not import argparse for a name
if TYPE_CHECKING:
    from argparse import Namespace


def _checked(locations: list[discovery.Location], settings) -> list[SkillResult]:
    return [check_file(loc.path, settings, loc) for loc in locations]


def _listed(targets: Targets, settings: Settings, dialect: str) -> list[SkillResult]:
    """The skills a catalog of ``dialect`` lists (``engine.preview.catalog_locations``), checked."""
    roots = settings.resolved_roots(targets.workspace)
    results = _checked(catalog_locations(targets.locations, targets.loose, roots, dialect, targets.workspace), settings)
    if targets.locations:
        link_skills(results, settings)
    return results


def _write_exact(text: str) -> None:
    sys.stdout.write(text)
    # The text is byte-exact; only an interactive terminal gets a final newline added.
    if sys.stdout.isatty() and not text.endswith("\n"):
        sys.stdout.write("\n")


def _installed(dialect: str, workspace: str) -> dict | None:
    """What is installed of the dialect's harness (None: skill-lsp cannot ask one); a note on
    stderr when its version is not the one the preview is proven against."""
    from ..installed import COMMANDS, detect  # noqa: PLC0415 - runs `--version`

    if dialect not in COMMANDS:
        return None
    (inst,) = detect([dialect], avoid=[workspace])
    if inst.differs:
        print(f"skill-lsp: note: {inst.note()}", file=sys.stderr)
    return inst.to_json()


def _unverified(dialect: str, kind: str) -> None:
    """A first line on stderr when the dialect's text is not proven against the real thing."""
    p = proof(dialect, kind)
    if not p.verified:
        print(f"skill-lsp: {dialect} {kind}: {p.proof}", file=sys.stderr)


def _finding_rows(result: SkillResult | None, settings: Settings | None = None) -> list[dict]:
    """skill-lsp's own findings on the previewed skill (shown beside the preview, never instead)."""
    if result is None:
        return []
    src = result.doc.src if result.doc is not None else result.src
    rows = []
    # UNKNOWN_SKILL is not computed for a preview: cross-skill suppressions are left alone.
    for f in result.shown(settings, "local") if settings is not None else result.all_findings:
        line, col = src.position(f.start) if src is not None else (0, 0)
        rows.append({"code": f.code, "severity": f.severity.label, "message": f.message,
                     "line": line + 1, "column": col + 1})
    return rows


def _write_findings(path: str, rows: list[dict]) -> None:
    if not rows:
        return
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["severity"]] = counts.get(r["severity"], 0) + 1
    said = ", ".join(f"{n} {sev}" for sev, n in counts.items())
    print(f"skill-lsp: {said} from skill-lsp check (not part of what the harness sends):", file=sys.stderr)
    for r in rows:
        print(f"{os.path.relpath(path)}:{r['line']}:{r['column']}: {r['severity']} {r['code']} {r['message']}",
              file=sys.stderr)


def run_preview(args: Namespace) -> int:
    target = args.skill
    path_like = os.path.exists(target) or os.sep in target or target.lower().endswith(".md")
    workspace = os.path.abspath(args.workspace)
    if path_like:
        p = os.path.abspath(target)
        if os.path.isdir(p):
            found = discovery._skill_file(p)
            if found is None:
                print(f"skill-lsp: no SKILL.md in {target}", file=sys.stderr)
                return 2
            p = found
        if not os.path.exists(p):
            print(f"skill-lsp: no such file: {target}", file=sys.stderr)
            return 2
        if args.workspace == ".":
            workspace = _workspace_of(p)
    if path_like:
        settings, problems = load_settings(workspace, args.config, args.profile, args.target)
        for problem in problems:
            print(f"skill-lsp: {problem}", file=sys.stderr)
        if problems:
            return 2  # a configuration error: nothing previewed with settings that are not the ones meant
        refused = settings.refused_roots(workspace)
        for why in refused:
            print(f"skill-lsp: {why}", file=sys.stderr)
        if refused and settings.roots:
            return 2  # a repository's config pointing outside it: a configuration error
        roots = settings.resolved_roots(workspace)
        results = _checked(discovery.scan_roots(roots, settings.sensitive_patterns), settings)
        link_skills(results, settings)
    else:
        # By name: the skills `catalog` lists for this workspace, nested ones included.
        targets = collect([workspace], args.config, args.profile, args.target)
        for problem in targets.errors + targets.problems + targets.notes:
            print(f"skill-lsp: {problem}", file=sys.stderr)
        if targets.errors:
            return 2
        settings = targets.settings
        roots = settings.resolved_roots(workspace)
        results = _listed(targets, settings, args.dialect or settings.dialect)
    if path_like and not any(os.path.realpath(r.path) == os.path.realpath(p) for r in results):
        loc = discovery.locate(os.path.dirname(p), os.path.dirname(os.path.dirname(p)), -1, [],
                               settings.sensitive_patterns) or discovery.Location(os.path.dirname(p), p, -1, os.path.dirname(p))
        results.append(check_file(p, settings, loc))
    records = records_for(results, len(roots), link_targets(results, workspace, settings))
    dialect = args.dialect or settings.dialect
    checked = {r.path: r for r in results}
    verdict = proof(dialect, "activation")
    installed = _installed(dialect, workspace)
    if args.format != "json":
        _unverified(dialect, "activation")
    match = None
    if path_like:
        real = os.path.realpath(p)
        match = next(r.path for r in records if os.path.realpath(r.path) == real)
        reason = not_listed(records, match, dialect, as_user=args.as_user)
        if reason is not None:
            # The harness never loads it: no activation text, as it would never send one.
            rows = _finding_rows(checked.get(match), settings)
            if args.format == "json":
                json.dump({"kind": "not_listed", "dialect": dialect, "text": "", "reason": reason,
                           "verified": verdict.verified, "proof": verdict.proof, "findings": rows,
                           "installed": installed},
                          sys.stdout, ensure_ascii=False, indent=2)
                sys.stdout.write("\n")
            else:
                print(f"skill-lsp: {reason}", file=sys.stderr)
                _write_findings(match, rows)
            return 1
        result = activate(records, settings, path=match, dialect=dialect,
                          arguments=parse_arguments(args.arguments), as_user=args.as_user)
    else:
        result = activate(records, settings, name=target, dialect=dialect, workspace=workspace,
                          arguments=parse_arguments(args.arguments), as_user=args.as_user)
    shown = getattr(result, "path", None) or match
    rows = _finding_rows(checked.get(shown), settings) if shown else []
    commands = _dynamic_commands(results, shown)
    # How the harness lists the skill in its catalog (by name only past a budget, cut, ...).
    decision = next((d for d in decide(records, dialect, workspace) if d.path == shown), None) if shown else None
    # By name, a skill that is not found or fails: say which skill holds that name and why.
    why = why_unmatched(records, target, dialect) if not path_like and result.kind not in ("ok", "already_loaded") \
        else []
    mention = mention_note(records, target, dialect) if not path_like else None
    if args.format == "json":
        json.dump({"kind": result.kind, "dialect": dialect, "text": result.output, "result": result_json(result),
                   "verified": verdict.verified, "proof": verdict.proof, "findings": rows, "installed": installed,
                   **({"decision": decision.to_json()} if decision is not None else {}),
                   **({"dynamicCommands": commands} if commands else {}), **({"why": why} if why else {}),
                   **({"mention": mention} if mention else {})},
                  sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        _write_exact(result.output)
        if decision is not None and decision.state != "listed" and not args.as_user:
            print(f"\nskill-lsp: {decision.sentence()}", file=sys.stderr)
        if mention is not None:
            print(f"\nskill-lsp: note: {mention}", file=sys.stderr)
        if why:  # stderr: stdout stays exactly what the harness would send
            print("", file=sys.stderr)
        for sentence in why:
            path, sep, rest = sentence.partition(" ")
            print(f"skill-lsp: {os.path.relpath(path) if os.path.isabs(path) else path}{sep}{rest}", file=sys.stderr)
        if shown:
            _write_findings(shown, rows)
        if commands:  # on stderr: stdout stays exactly what the harness would send
            print("\nClaude Code runs these `!` commands when the skill loads:", file=sys.stderr)
            for c in commands:
                risk = f"  ! {', '.join(c['risks'])}" if c["risks"] else ""
                print(f"  {c['command'].replace(chr(10), ' ⏎ ')}{risk}", file=sys.stderr)  # a ```! fence on one line
    return 0 if result.kind in ("ok", "already_loaded") else 1


def _dynamic_commands(results: list[SkillResult], path: str | None) -> list[dict]:
    """The `!` commands of the previewed skill (rules/security.py), for the preview's report."""
    from ..engine.rules.security import dynamic_commands  # noqa: PLC0415

    if path is None:
        return []
    real = os.path.realpath(path)
    doc = next((r.doc for r in results if r.doc is not None and os.path.realpath(r.path) == real), None)
    return [] if doc is None else [{"command": c.command, "risks": list(c.risks)} for c in dynamic_commands(doc)]


def _workspace_of(skill_md: str) -> str:
    """The folder that holds the root a SKILL.md lives in (`ws/.claude/skills/x/SKILL.md` -> `ws`)."""
    skill_dir = os.path.dirname(skill_md)
    root = os.path.dirname(skill_dir)
    for default in sorted(DEFAULT_ROOTS, key=len, reverse=True):
        if default != "skills" and root.endswith(os.sep + default.replace("/", os.sep)):
            return root[: -len(default) - 1]
    return os.path.dirname(root) if os.path.basename(root) == "skills" else root


def run_catalog(args: Namespace) -> int:
    targets = collect(args.paths, args.config, args.profile, args.target)
    for problem in targets.errors + targets.problems + targets.notes:
        print(f"skill-lsp: {problem}", file=sys.stderr)
    if targets.errors:
        return 2  # no empty catalog for a path that does not exist
    settings = targets.settings
    dialect = args.dialect or settings.dialect
    results = _listed(targets, settings, dialect)
    roots = settings.resolved_roots(targets.workspace)
    records = records_for(results, len(roots), link_targets(results, targets.workspace, settings))
    text, entries, skipped = catalog_view(records, dialect, update=args.state == "replacement",
                                          workspace=targets.workspace)
    decisions = decide(records, dialect, targets.workspace)
    verdict = proof(dialect, "catalog")
    installed = _installed(dialect, targets.workspace)
    if args.format == "json":
        json.dump({"dialect": dialect, "text": text, "entries": entries, "skipped": skipped,
                   "decisions": [d.to_json() for d in decisions],
                   "verified": verdict.verified, "proof": verdict.proof, "installed": installed},
                  sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        _unverified(dialect, "catalog")
        _write_exact(text)
        # Sizes go to stderr so stdout stays exactly what the model sees.
        width = max((len(e["name"]) for e in entries), default=4)
        print(f"\n{'skill'.ljust(width)}  chars  tokens", file=sys.stderr)
        for e in entries:
            flag = "" if e["included"] else "  (not listed)"
            print(f"{e['name'].ljust(width)}  {e['chars']:>5}  {e['tokens']:>6}{flag}", file=sys.stderr)
            for w in e["warnings"]:
                print(f"{'':{width}}  ! {w}", file=sys.stderr)
        broken = [e for e in entries if "error" in e]
        if skipped or broken:
            print("", file=sys.stderr)
        for e in broken:
            # The skill tool's registry keeps a skill it rejects, so the model can be told why.
            print(f"# listed by {dialect} with no description (activating it returns {e['error']['code']}): "
                  f"{os.path.relpath(e['path'])}: {e['error']['message']}", file=sys.stderr)
        for s in skipped:
            print(f"# skipped by {dialect}: {os.path.relpath(s['path'])}: {s['reason']}", file=sys.stderr)
        # What the budget did to the skills it lists (the skips are above).
        for d in decisions:
            if d.state == "listed" and d.reason:  # listed by the harness, not read by skill-lsp
                print(f"# listed by {dialect}, not shown here: {os.path.relpath(d.path)}: {d.sentence()}",
                      file=sys.stderr)
            if d.state in (NAME_ONLY, CUT, DROPPED):
                print(f"# {d.state} by {dialect}: {os.path.relpath(d.path)}: {d.sentence()}", file=sys.stderr)
    return 2 if targets.problems else 0
