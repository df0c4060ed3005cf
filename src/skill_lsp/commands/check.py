"""`skill-lsp check`: lint skills and report in text, JSON, SARIF or GitHub annotations."""

from __future__ import annotations

import gc
import os
import sys

from ..engine import rules
from ..engine.budgets import could_reach_any
from ..engine.cachedir import cache_dir
from ..engine.config import Settings
from ..engine.discovery import Location
from ..engine.findings import Severity
from ..engine.rules.context import listings_kept
from ..engine.skillgraph import link_mentions
from ..engine.workspace import SkillResult, check_job, link_skills
from . import report
from .targets import collect

TYPE_CHECKING = False  # typing itself costs a one-skill check 2 ms; type checkers take this as True
if TYPE_CHECKING:
    from argparse import Namespace
    from collections.abc import Callable, Iterator
    from typing import Any, TextIO

    from .targets import Targets

# Some fixes could not be written (a full disk, a read-only file, a file saved meanwhile).
EXIT_NOT_WRITTEN = 3
_FAIL_ON = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "hint": Severity.HINT}
# From this many skills a worker process pays: `check --no-cache --format json` on the first 500
# of the corpus's agentskillexchange skills takes 0.20-0.21 s with one worker beside this process
# against 0.23 s without, the first 1,000 0.29-0.30 s against 0.38-0.40 s; 250 take 0.14-0.15 s
# either way (2 cores; docs/performance.md).
_PARALLEL_MIN = 500
# Below this many skills checking them costs less than the result cache: the engine's digest
# alone reads its ~100 files (2 ms), and a skill checks in about 0.3 ms.
_CACHE_MIN = 200
# Below this many skills a run's garbage is small: it ends before a collection would pay.
_COLLECT_MIN = 50


def check_locations(locations: list[Location], settings: Settings, jobs: int = 0,
                    fixes: bool = False, cached_in: str | None = None) -> list[SkillResult]:
    """Check skills, in worker processes for large runs.

    Results carry only the positions their findings need (what crosses process boundaries stays
    small); ``fixes``: each finding's fixes too (``workspace.check_job``). ``cached_in``: the
    workspace whose results from earlier runs are used where they still hold (``cachedcheck``).
    """
    # The disk is read once for the run: the folders beside skill folders are listed once, not
    # asked for each file a skill names (workers fork with the listings kept).
    listings_kept(True)
    try:
        if cached_in is not None and len(locations) >= _CACHE_MIN and cache_dir() is not None:
            from ..engine.cachedcheck import check_cached  # noqa: PLC0415 - large runs only

            return check_cached(locations, settings, fixes, cached_in, lambda job, work: _run(job, work, jobs))
        return list(_run(check_job, [(loc, settings, fixes) for loc in locations], jobs))
    finally:
        listings_kept(False)


def _run(job: Callable[[Any], Any], work: list, jobs: int) -> Iterator:
    """``job`` of each of ``work``, in order, each as soon as it is done."""
    workers = jobs if jobs > 0 else (os.cpu_count() or 1)
    if workers > 1 and (len(work) >= _PARALLEL_MIN or jobs > 1):
        import multiprocessing  # noqa: PLC0415 - only large runs pay for it

        from ..workerpool import WorkerPool  # noqa: PLC0415

        rules.load_all()
        # Forked workers would copy every page the collector touches: freeze first.
        gc.freeze()
        # Small chunks: skills of one repository sit together and cost alike, so a process handed
        # a costly stretch last keeps the other waiting (on the corpus 12 to 100 skills a chunk
        # end the run alike).
        chunk = max(16, len(work) // (workers * 32))
        # This process checks too (from the last chunk back, ``WorkerPool.map``'s helping): one
        # worker fewer to fork and feed, and its own chunks' results never cross a pipe.
        pool = WorkerPool(multiprocessing.get_context(), workers - 1)
        try:
            yield from pool.map(job, work, chunksize=chunk, helping=True)
        finally:
            pool.shutdown(wait=True)
    else:
        yield from map(job, work)


def cli_layer(args: Namespace) -> dict:
    """--select / --extend-select / --ignore as one settings layer (after the config file's)."""
    layer = {}
    for key, values in (("select", args.select), ("extend-select", args.extend_select), ("ignore", args.ignore)):
        if values:
            layer[key] = [code for value in values for code in value.split(",")]
    return layer


def run(args: Namespace) -> int:
    if args.watch:
        from .watch import run_watch  # noqa: PLC0415 - only --watch needs the watcher

        gc.enable()  # off while the CLI loaded (cli.main); a watcher runs for hours
        return run_watch(args)
    return check_once(args)


def check_once(args: Namespace) -> int:
    if args.output_file is not None and (problem := _output_problem(args.output_file)) is not None:
        # Told before the check runs, not after minutes of it.
        print(f"skill-lsp: cannot write the report to {args.output_file}: {problem}", file=sys.stderr)
        return 2
    targets = collect(args.paths, args.config, args.profile, args.target, cli=cli_layer(args),
                      force_exclude=args.force_exclude)
    for problem in targets.errors:
        print(f"skill-lsp: {problem}", file=sys.stderr)
    for note in targets.notes:
        print(f"skill-lsp: note: {note}", file=sys.stderr)
    if targets.errors:
        # A missing PATH or --config file, or a setting that is wrong: nothing is checked with
        # settings other than those meant, and there is no summary.
        if any(e for e in targets.errors if not e.startswith(("no such file", "config file not found"))):
            print("skill-lsp: configuration error: nothing was checked", file=sys.stderr)
        return 2
    settings = targets.settings
    if len(targets.locations) + len(targets.loose) >= _COLLECT_MIN:
        gc.enable()  # off while the CLI loaded (cli.main); a large run makes garbage worth collecting
    # Results keep position tables, not texts: memory follows the findings, not the bytes read.
    # JSON lists each finding's fixes (the other formats do not).
    # --fix reads every file it writes anyway: its results are always fresh.
    results = check_locations(targets.locations + targets.loose, settings, args.jobs,
                              fixes=args.format == "json",
                              cached_in=None if args.fix or args.no_cache else targets.workspace)
    if len(results) >= _COLLECT_MIN:
        # The results live until the report is out: collections would walk them again and again
        # (16 ms of a 3,223-skill run). Taken back at the end for --watch, whose next run
        # replaces them.
        gc.freeze()
    try:
        return _linked_and_reported(args, targets, results)
    finally:
        gc.unfreeze()


def _linked_and_reported(args: Namespace, targets: Targets, results: list[SkillResult]) -> int:
    settings = targets.settings
    n = len(targets.locations)
    link_skills(results[:n], settings, also=results[n:])
    link_mentions(results, settings)
    if could_reach_any(results[:n]):
        from ..engine.decisions import budget_findings  # noqa: PLC0415

        budget_findings(results[:n], settings)
    context: list[SkillResult] = []
    if targets.focus is not None:
        # Files given (a pre-commit hook's changed files): the others are context only, never
        # reported or fixed.
        context = [r for r in results if not targets.in_focus(r.path)]
        results = [r for r in results if targets.in_focus(r.path)]
    results.sort(key=lambda r: r.path)
    not_written = 0
    if args.fix:
        from ..engine.writes import scope  # noqa: PLC0415
        from .fix import apply_fixes  # noqa: PLC0415

        # Only what the command line names is ever written (a repository's config cannot
        # widen it): each folder given, with what is inside it, and each file given.
        results, log = apply_fixes(results, settings, diff=args.diff, out=sys.stdout,
                                   allowed=scope(args.paths or ["."]), unsafe=getattr(args, "unsafe_fixes", False))
        log.write_failures(sys.stderr)
        not_written = len(log.failed)
        if context and not args.diff:
            # The fixed files are linked again with the whole workspace, not among themselves.
            everything = results + context
            in_roots = [r for r in everything if r.location is not None and r.location.root_index >= 0]
            link_skills(in_roots, settings, also=[r for r in everything if r not in in_roots])
            link_mentions(everything, settings)
        if args.diff:
            # As `ruff --diff`: exit 1 while fixes are pending, so CI can gate on it.
            log.write(sys.stderr, pending=True)
            return 1 if log.files and not args.exit_zero else 0
        if not args.quiet:
            # stdout stays machine-readable for json, sarif and github.
            log.write(sys.stdout if args.format == "text" and not args.output_file else sys.stderr, pending=False)
    rows = report.rows_of(results, settings)
    if any(r.location is not None and r.location.real is not None for r in results):
        from ..engine.aliases import without_repeats  # noqa: PLC0415 - a file found through a link

        rows = without_repeats(rows)
    try:
        if args.output_file is None:
            _report(rows, args, sys.stdout)
        else:
            from .reportfile import report_file  # noqa: PLC0415

            with report_file(args.output_file) as out:
                _report(rows, args, out)
    except OSError as exc:
        if args.output_file is None:
            raise  # stdout closed under us (a pipe's reader gone): cli.main's concern
        print(f"skill-lsp: cannot write the report to {args.output_file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if not_written:
        return EXIT_NOT_WRITTEN
    threshold = _FAIL_ON.get(args.fail_on)
    if threshold is None or args.exit_zero:
        return 0
    worst = min((f.severity for _, findings in rows for f in findings), default=None)
    return 1 if worst is not None and worst <= threshold else 0


def _report(rows: list, args: Namespace, out: TextIO) -> None:
    if args.statistics:
        report.statistics(rows, args.format, out)
    else:
        color = args.output_file is None and report.use_color(args.color, sys.stdout)
        report.write(rows, args.format, out, color=color, quiet=args.quiet)


def _output_problem(path: str) -> str | None:
    """Why ``path`` cannot take a report, when that can be told before the check: its folder is
    missing or it is a folder."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        return "it is a folder"
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        return f"no folder {folder}"
    return None


