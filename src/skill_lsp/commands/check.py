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

    from ..workerpool import Job, WorkerPool
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
                    fixes: bool = False, cached_in: str | None = None,
                    early: EarlyChecks | None = None) -> list[SkillResult]:
    """Check skills, in worker processes for large runs.

    Results carry only the positions their findings need (what crosses process boundaries stays
    small); ``fixes``: each finding's fixes too (``workspace.check_job``). ``cached_in``: the
    workspace whose results from earlier runs are used where they still hold (``cachedcheck``).
    ``early``: the checks started while discovery walked (with ``fixes`` alike); those of the
    skills found where ``locations`` has them are kept.
    """
    # The disk is read once for the run: the folders beside skill folders are listed once, not
    # asked for each file a skill names (workers fork with the listings kept).
    listings_kept(True)
    try:
        if early is not None and early.pool is not None:
            return early.finish(locations, settings)
        if cached_in is not None and len(locations) >= _CACHE_MIN and cache_dir() is not None:
            from ..engine.cachedcheck import check_cached  # noqa: PLC0415 - large runs only

            return check_cached(locations, settings, fixes, cached_in, lambda job, work: _run(job, work, jobs))
        return list(_run(check_job, [(loc, settings, fixes) for loc in locations], jobs))
    finally:
        listings_kept(False)


def _workers(jobs: int) -> int:
    return jobs if jobs > 0 else (os.cpu_count() or 1)


def _chunk(count: int, workers: int) -> int:
    # Small chunks: skills of one repository sit together and cost alike, so a process handed a
    # costly stretch last keeps the other waiting (on the corpus 12 to 100 skills a chunk end the
    # run alike).
    return max(16, count // (workers * 32))


def _pool(workers: int) -> WorkerPool:
    """``workers - 1`` processes: this one checks too (``WorkerPool.gather``'s helping), one
    worker fewer to fork and feed, and its own chunks' results never cross a pipe."""
    import multiprocessing  # noqa: PLC0415 - only large runs pay for it

    from ..workerpool import WorkerPool  # noqa: PLC0415

    # Forked workers would copy every page the collector touches: freeze first.
    gc.freeze()
    return WorkerPool(multiprocessing.get_context(), workers - 1, initializer=gc.enable)


def _run(job: Callable[[Any], Any], work: list, jobs: int) -> Iterator:
    """``job`` of each of ``work``, in order, each as soon as it is done."""
    workers = _workers(jobs)
    if workers > 1 and (len(work) >= _PARALLEL_MIN or jobs > 1):
        rules.load_all()  # before the fork: workers inherit the modules instead of importing them
        pool = _pool(workers)
        try:
            yield from pool.map(job, work, chunksize=_chunk(len(work), workers), helping=True)
        finally:
            pool.shutdown(wait=True)
    else:
        yield from map(job, work)


class EarlyChecks:
    """Skills checked by a worker while discovery still walks (``collect``'s ``early``), for a run
    without the result cache: the corpus's walk takes 75 ms, which a worker forked at the 500th
    skill found spends checking, and which this process spent alone before. The worker imports
    the rules it needs itself, while the walk goes on. Only the skills the finished walk locates
    where it first found them keep their early results (``finish``)."""

    CHUNK = 32

    def __init__(self, jobs: int, fixes: bool) -> None:
        self.workers = _workers(jobs)
        self.start_at = 1 if jobs > 1 else _PARALLEL_MIN
        self.fixes = fixes
        self.found: dict[str, Location] = {}
        self.waiting: list[tuple[Location, Settings, bool]] = []
        self.sent: list[tuple[list[Location], Settings, Job]] = []
        self.pool: WorkerPool | None = None

    def __call__(self, loc: Location, settings: Settings) -> None:
        if self.workers < 2 or loc.path in self.found:
            return
        self.found[loc.path] = loc
        self.waiting.append((loc, settings, self.fixes))
        if self.pool is None and len(self.found) >= self.start_at:
            listings_kept(True)  # the worker keeps the siblings' listings for its run too
            self.pool = _pool(self.workers)
        if self.pool is not None and len(self.waiting) >= self.CHUNK:
            from ..workerpool import run_chunk  # noqa: PLC0415 - loaded with the pool

            chunk, self.waiting = self.waiting, []
            self.sent.append(([w[0] for w in chunk], settings, self.pool.submit(run_chunk, check_job, chunk)))
            self.pool.pump(timeout=0)  # take what came back: the worker's pipe never fills

    def finish(self, locations: list[Location], settings: Settings) -> list[SkillResult]:
        """The results of ``locations``: those sent early where they were found as listed there,
        the others checked now (by this process too, from the last one back)."""
        from ..workerpool import run_chunk  # noqa: PLC0415 - loaded with the pool

        assert self.pool is not None
        sent = {loc.path: loc for locs, was, _ in self.sent if was is settings for loc in locs}
        rest = [loc for loc in locations if sent.get(loc.path) != loc]
        step = _chunk(len(rest), self.workers)
        jobs = [job for _, _, job in self.sent] + [
            self.pool.submit(run_chunk, check_job, [(loc, settings, self.fixes) for loc in rest[i:i + step]])
            for i in range(0, len(rest), step)]
        paths = [loc.path for locs, _, _ in self.sent for loc in locs] + [loc.path for loc in rest]
        # A path checked again (its location changed) comes later: its new result is the one kept.
        by_path = dict(zip(paths, self.pool.gather(jobs, helping=True), strict=True))
        self.close()
        return [by_path[loc.path] for loc in locations]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            listings_kept(False)


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
    fixes = args.format == "json"
    # Without the result cache every skill is checked: from the walk's 500th skill on, a worker
    # checks them while the walk goes on.
    early = EarlyChecks(args.jobs, fixes) if args.fix or args.no_cache or cache_dir() is None else None
    try:
        return _collected_and_checked(args, early, fixes)
    finally:
        if early is not None:
            early.close()
        gc.unfreeze()  # frozen for the workers' fork and the report (--watch runs again)


def _collected_and_checked(args: Namespace, early: EarlyChecks | None, fixes: bool) -> int:
    targets = collect(args.paths, args.config, args.profile, args.target, cli=cli_layer(args),
                      force_exclude=args.force_exclude, early=early)
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
    results = check_locations(targets.locations + targets.loose, settings, args.jobs, fixes=fixes,
                              cached_in=None if args.fix or args.no_cache else targets.workspace, early=early)
    if len(results) >= _COLLECT_MIN:
        # The results live until the report is out: collections would walk them again and again
        # (16 ms of a 3,223-skill run). Taken back at the end for --watch, whose next run
        # replaces them.
        gc.freeze()
    return _linked_and_reported(args, targets, results)


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


