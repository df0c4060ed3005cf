"""`skill-lsp check`: lint skills and report in text, JSON, SARIF or GitHub annotations."""

from __future__ import annotations

import gc
import os
import sys
from argparse import Namespace

from ..engine import rules
from ..engine.config import Settings
from ..engine.discovery import Location
from ..engine.findings import Severity
from ..engine.skillgraph import link_mentions
from ..engine.workspace import SkillResult, check_job, link_skills
from . import report
from .targets import collect

_FAIL_ON = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "hint": Severity.HINT}
# Below this many skills a process pool costs more than it saves. Measured on 2 cores,
# `check --format json` on the 3,223-skill corpus: 0.92-0.97 s in one process, 0.76-0.80 s
# with two workers (after gc.freeze and flat Finding pickles; before them, 0.7-1.2 s).
_PARALLEL_MIN = 2000


def check_locations(locations: list[Location], settings: Settings, jobs: int = 0,
                    keep_text: bool = False) -> list[SkillResult]:
    """Check skills, in worker processes for large runs.

    Without ``keep_text`` results carry only the positions their findings need,
    which keeps what crosses process boundaries small.
    """
    work = [(loc, settings, keep_text) for loc in locations]
    workers = jobs if jobs > 0 else (os.cpu_count() or 1)
    if workers > 1 and (len(work) >= _PARALLEL_MIN or jobs > 1):
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415 - only large runs pay for it

        rules.load_all()
        # Forked workers would copy every page the collector touches: freeze first.
        gc.freeze()
        chunk = max(16, len(work) // (workers * 8))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(check_job, work, chunksize=chunk))
    return [check_job(job) for job in work]


def run(args: Namespace) -> int:
    targets = collect(args.paths, args.config, args.profile, args.target)
    for problem in targets.errors + targets.problems:
        print(f"skill-lsp: {problem}", file=sys.stderr)
    if targets.errors:
        return 2  # a missing PATH or --config file: nothing linted, no summary
    settings = targets.settings
    # Results keep position tables, not texts: memory follows the findings, not the bytes read.
    # JSON lists each finding's fixes, built from the text: keep it (the other formats do not).
    results = check_locations(targets.locations + targets.loose, settings, args.jobs,
                              keep_text=args.format == "json")
    link_skills(results[: len(targets.locations)], settings)
    link_mentions(results, settings)
    context: list[SkillResult] = []
    if targets.focus is not None:
        # Files given (a pre-commit hook's changed files): the others are context only, never
        # reported or fixed.
        context = [r for r in results if not targets.in_focus(r.path)]
        results = [r for r in results if targets.in_focus(r.path)]
    results.sort(key=lambda r: r.path)
    if args.fix:
        from .fix import apply_fixes  # noqa: PLC0415

        results, log = apply_fixes(results, settings, diff=args.diff, out=sys.stdout,
                                   unsafe=getattr(args, "unsafe_fixes", False))
        if context and not args.diff:
            # The fixed files are linked again with the whole workspace, not among themselves.
            everything = results + context
            link_skills([r for r in everything if r.location is not None and r.location.root_index >= 0], settings)
            link_mentions(everything, settings)
        if args.diff:
            # As `ruff --diff`: exit 1 while fixes are pending, so CI can gate on it.
            log.write(sys.stderr, pending=True)
            return 1 if log.files else 0
        # stdout stays machine-readable for json, sarif and github.
        log.write(sys.stdout if args.format == "text" else sys.stderr, pending=False)
    report.write(results, args.format, sys.stdout, color=report.use_color(args.color, sys.stdout))
    if targets.problems:
        return 2
    threshold = _FAIL_ON.get(args.fail_on)
    if threshold is None:
        return 0
    worst = min((f.severity for r in results for f in r.all_findings), default=None)
    return 1 if worst is not None and worst <= threshold else 0
