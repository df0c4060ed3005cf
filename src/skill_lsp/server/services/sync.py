"""Keeping the server's view in step with the disk and the open buffers.

The workspace scan (``discover()``, the same inventory `check .` uses), re-reading
single files on file events (coalesced), settings reloads and re-analysing open
documents. Returns or publishes what changed through ``publish``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import gc
import os
import pickle
import threading
import time
import uuid
from bisect import bisect_left
from typing import TYPE_CHECKING

from lsprotocol import types as t

from ...engine.discover import Inventory, discover
from ...engine.discovery import CANCEL_EVERY, Cancelled, is_inside
from ...engine.overlap import OverlapIndex
from ...engine.skillgraph import PAUSE_EVERY
from ...engine.workspace import SkillIndex, SkillResult, check_file, index_description
from ..server import SkillLanguageServer
from ..state import Folder
from ..uris import path_to_uri
from . import publish, scanjob
from .scanjob import Flavour, check_job

if TYPE_CHECKING:
    # The result cache (and pickle, hashlib, shutil, tempfile with it) loads with the first
    # scan, not before the server answers `initialize`.
    from ...engine.resultcache import ResultCache

# Above this many skills the scan runs in worker processes.
PARALLEL_MIN = 300
WORKERS = os.cpu_count() or 1
PROGRESS_EVERY = 250
# File events arriving within this window are handled as one batch (a `git checkout`
# sends thousands); above REINDEX_MAX changed files one rescan is cheaper than re-reading each.
COALESCE_MS = 50
REINDEX_MAX = 200
# Publishing closed files' diagnostics yields to the event loop after this much work, so an
# edit waits for at most one such turn per step of its own handling (16 files a turn made
# keystrokes wait 10-20 ms while a 10,000-skill scan published).
PUBLISH_TURN_S = 0.001
# While an edit came in this recently, early diagnostics of a running scan wait for its end,
# and its final publish sends TYPING_TURN_S of closed files per TYPING_PACE_S (one file per
# pace made a scan typed along with end when the typing did: 12.8 s instead of 6 on 10,000).
TYPING_S = 0.5
TYPING_PACE_S = 0.005
TYPING_TURN_S = 0.00025
# ... and the scan's thread, after SCAN_TURN_S of its own work, sleeps SCAN_PACE_S (sleeping after
# every result held 10,000 results to 2,000 a second: checks 7 s instead of 3).
SCAN_PACE_S = 0.0005
SCAN_TURN_S = 0.001
# An edit whose cross-skill findings reach more closed files than this sends them after itself,
# in turns (``_publish_touched``).
TOUCHED_AT_ONCE = 64
# The longest a scan's thread waits, at one skill, for an edit's analysis to end (``ls.quiet``).
EDIT_WAIT_S = 0.05
# Small chunks: the scan's thread unpickles a chunk's answer whole holding the GIL
# (625 results took ~30 ms: a keystroke waited for it); 16 take well under a millisecond.
CHUNK = 16
# A first-pass result is a short string or None: larger chunks, fewer round trips.
FIRST_CHUNK = 64


# How often the discovery walk's progress is reported (seconds).
WALK_REPORT_S = 0.25

def _scan_folder(folder: Folder, times: dict[str, float], on_batch=None, cancelled=lambda: False,
                 reuse=None, cache: ResultCache | None = None, fl: Flavour | None = None,
                 changed: int = 0, nested: tuple[str, ...] = (), on_first=None, on_walk=None,
                 overlap: OverlapIndex | None = None) -> list | None:
    """Blocking: discover and check every skill of the folder (runs in a thread).

    Results keep only the positions their findings need, not the text: a
    10,000-skill workspace would otherwise hold every file and line index.
    Large workspaces are checked in worker processes started from a clean
    forkserver (never forked from this multi-threaded process); the workers
    run at lower priority so the editor's own requests keep their latency.
    ``reuse(location)`` returns a result still valid for it (the file and what it
    reads did not change), so a rescan after a checkout re-reads only what changed.
    ``cache`` holds results of earlier sessions (used while their stamps hold) and
    receives what was checked anew.
    ``fl``: the client's flavour of diagnostics, for workers to write them as JSON
    (``folder.rendered``); None when nothing is pushed.
    ``changed``: how many paths file events named (a rescan checks at most about that many).
    ``nested``: workspace folders inside this one; their skills are theirs, not checked here.
    ``on_first(batch, done, count)``: receives the first pass's (path, errors as JSON) while a
    large scan checks, before the complete checks (``_first_pass``).
    ``overlap``: receives each result checked anew (``index_description``), so the cross-skill
    step after the checks has little left to index.
    Returns None when ``cancelled()`` turned true (a newer scan owns the folder).
    ``times`` adds up the seconds of discovery and of the checks, and the results reused.
    """
    if cache is None:
        from ...engine.resultcache import ResultCache  # noqa: PLC0415

        cache = ResultCache(None, ("", ""))
    elif reuse is None and not cache.loaded:
        # Read first: how many results it holds says whether to start workers before discovery.
        t0 = time.perf_counter()
        cache.load(pause=_let_others_run)
        times["cache"] = times.get("cache", 0.0) + time.perf_counter() - t0
    pools: list = []
    starting: list[threading.Thread] = []

    def pool():
        for th in starting:
            th.join()
        if not pools:
            pools.append(_start_pool(WORKERS))
        return pools[0]

    def start_early() -> None:
        with contextlib.suppress(Exception):  # no processes: the checks find out again, and run here
            pools.append(_start_pool(WORKERS))

    # How many skills this scan will likely check: what the last scans found, or what changed.
    expected = changed if reuse is not None else max(
        len(cache.index), len(folder.index.results) if folder.index is not None else 0)
    def start_pool_now() -> None:
        # Starting the forkserver (it imports the engine) takes 0.1-0.2 s: alongside discovery.
        if not starting and WORKERS > 1:
            starting.append(threading.Thread(target=start_early, name="skill-lsp-pool", daemon=True))
            starting[0].start()

    if expected >= PARALLEL_MIN:
        start_pool_now()
    early = None
    if reuse is None and on_first is not None and fl is not None and WORKERS > 1:
        early = _EarlyFirst(lambda: pools[0] if pools else None, folder.settings, fl, cache, nested)
    listed = [0]

    def walking() -> bool:
        # Asked every discovery.CANCEL_EVERY folders listed. A tree of this many folders opened
        # for the first time most likely holds enough skills for the workers: they start now.
        listed[0] += 1
        if listed[0] == PARALLEL_MIN // CANCEL_EVERY + 1:
            start_pool_now()
        if on_walk is not None:
            on_walk(listed[0] * CANCEL_EVERY)
        if early is not None and on_first is not None:
            early.drain(on_first)  # a walk the disk slows down: errors go out as chunks come back
        return cancelled()

    t0 = t1 = time.perf_counter()
    try:
        # A superseded scan stops within a few hundred folders, not after the whole walk:
        # during a checkout whose events come in bursts, each burst starts a scan anew.
        folder.walking = True
        try:
            inventory = discover(folder.path, folder.settings, walking, cancelled,
                                 early=early.add if early is not None else None)
        finally:
            folder.walking = False
        # The inventory outlives the scan, and a full collection walked its 10,000 locations
        # (and the walk's listing) while a keystroke waited (8 ms): set aside without a collection.
        gc.freeze()
        t1 = time.perf_counter()
        times["discover"] = times.get("discover", 0.0) + t1 - t0
        return _check_inventory(folder, inventory, times, on_batch, cancelled, reuse, cache, pool, fl, nested,
                                on_first, overlap, early)
    except Cancelled:
        return None
    finally:
        times["check"] = times.get("check", 0.0) + time.perf_counter() - t1
        cache.close()
        for th in starting:
            th.join()
        for p in pools:
            p.shutdown(wait=False, cancel_futures=True)


def _check_inventory(folder: Folder, inventory: Inventory, times: dict[str, float], on_batch, cancelled, reuse,
                     cache: ResultCache, pool, fl: Flavour | None, nested: tuple[str, ...] = (),
                     on_first=None, overlap: OverlapIndex | None = None, early: _EarlyFirst | None = None) -> list | None:
    from ...engine.resultcache import ShardWriter  # noqa: PLC0415

    if cancelled():
        return None
    folder.inventory = inventory
    locations = inventory.all
    if nested:
        # A nested workspace folder owns its skills (its settings, its index): listed there only.
        locations = [loc for loc in locations if not any(is_inside(loc.path, n) for n in nested)]
    results: list = []
    todo = []
    # The steps before the checks take ~20 ms for 10,000 skills: asked between them (and every
    # PAUSE_EVERY skills), ``cancelled`` lets a keystroke's analysis run alone (``_yield_to_edits``).
    for i, loc in enumerate(locations):
        if i % PAUSE_EVERY == 0 and cancelled():
            return None
        kept = reuse(loc) if reuse is not None else None
        if kept is not None:
            results.append(kept)
        else:
            todo.append(loc)
    times["reused"] = times.get("reused", 0) + len(results)
    writer = ShardWriter(cache, [loc.path for loc in locations], [loc.path for loc in todo])
    if cancelled():
        return None
    # In cache-shard order: payloads are read, and fresh ones written, about one shard at a time.
    shard = writer.shard
    todo.sort(key=lambda loc: (shard[loc.path], loc.path))
    if cancelled():
        return None
    work = [(loc, folder.settings, cache.stamp_for(loc), fl) for loc in todo]
    if cancelled():
        return None
    rendered = folder.rendered

    def take(loc, stamp, payload) -> None:
        got = None
        if payload is None:  # the cached result holds
            got = _unpickle(cache.payload(loc))
            if got is not None:
                times["cached"] = times.get("cached", 0) + 1
                writer.keep(loc.path)
            else:  # but it cannot be read after all (a shard rewritten meanwhile, a bad file): check it here
                stamp, payload = check_job((loc, folder.settings, None, fl))
        fresh = got is None
        if fresh:
            writer.put(loc, stamp, payload)
            got = pickle.loads(payload)
        result, text = got
        result.location = loc  # not in the payload (``scanjob.check_job``)
        results.append(result)
        if overlap is not None and fresh:
            # While the workers check the next skills. Not a cached result: taking those is what a
            # reopen waits for (0.35 s more for 10,000), and the rebuild indexes them as fast.
            index_description(overlap, result)
        if text is not None:
            rendered[loc.path] = (result, text)

    try:
        if len(todo) >= PARALLEL_MIN and WORKERS > 1:
            try:
                workers = pool()
                # Skills the cache knows nothing of get a first pass (a reopen vouches for its
                # cached results in about the time a first pass would take).
                fresh = [job[0] for job in work if job[2] is None]
                first = None
                if on_first is not None and fl is not None and len(fresh) >= PARALLEL_MIN:
                    early = early or _EarlyFirst(lambda: workers, folder.settings, fl, cache)
                    first = early.pairs(fresh, workers)
                    times["early"] = times.get("early", 0) + early.kept
                    if cancelled():
                        return None
                # Queued behind the first pass: the workers go on to it without a pause.
                checked = workers.map(check_job, work, chunksize=CHUNK)
                if first is not None:
                    t0 = time.perf_counter()
                    if not _first_pass(first, early.count, on_first, cancelled, early.drained_count):
                        return None
                    times["first"] = times.get("first", 0.0) + time.perf_counter() - t0
                return _scan_parallel(work, checked, results, take, on_batch, cancelled)
            except Exception:  # noqa: BLE001 - no processes (sandbox, limits): scan in this thread
                del results[len(locations) - len(todo):]
                writer = ShardWriter(cache, [loc.path for loc in locations], [loc.path for loc in todo])
        for job in work:
            if cancelled():
                return None
            take(job[0], *check_job(job))
            _batch(results, len(locations), on_batch)
        return results
    finally:
        writer.finish()
        times["writes"] = times.get("writes", 0) + writer.written


def _unpickle(payload: bytes | None):
    """A cached (result, rendered text), or None when it does not unpickle into one."""
    if payload is None:
        return None
    try:
        got = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - a damaged entry is checked again, never a failed scan
        return None
    return got if isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], SkillResult) else None


def _yield_to_edits(ls: SkillLanguageServer) -> None:
    """In a scan's thread, between two skills: while the user types, wait for the edit being
    analysed (bounded), then pause a little once a millisecond. The analysis then has the GIL to
    itself instead of taking turns with the scan a switch interval at a time. Never on an event
    loop's thread: the analysis runs there."""
    if time.monotonic() - ls.last_edit < TYPING_S and not _on_a_loop():
        ls.quiet.wait(EDIT_WAIT_S)
        if time.perf_counter() - ls.scan_turn > SCAN_TURN_S:
            time.sleep(SCAN_PACE_S)
            ls.scan_turn = time.perf_counter()


def _on_a_loop() -> bool:
    """Whether this thread runs an event loop: the edit being waited for would run on it."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _let_others_run() -> None:
    time.sleep(0)  # releases the GIL: a keystroke's handler runs between two cache shards


def _batch(results: list, total: int, on_batch) -> None:
    """Every PROGRESS_EVERY results (and at the end), hand the new ones to ``on_batch``."""
    n = len(results)
    if on_batch is not None and (n % PROGRESS_EVERY == 0 or n == total):
        on_batch(results[(n - 1) // PROGRESS_EVERY * PROGRESS_EVERY:], n, total)


def _start_pool(workers: int):
    """Worker processes, forked from a server process that imported the engine once (not
    from this multi-threaded one), and started now: they come up while discovery runs."""
    import multiprocessing  # noqa: PLC0415

    from ...workerpool import WorkerPool  # noqa: PLC0415

    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    target = _worker_priority()
    if method == "forkserver":
        ctx.set_forkserver_preload([scanjob.__name__, "skill_lsp.engine.resultcache", "skill_lsp.engine.rules.preload"])
        # The forkserver imports the engine (0.2-0.3 s of CPU) while the user may already type:
        # started from a thread at the workers' priority, it runs at theirs (Linux gives each
        # thread its own niceness, and a child its parent thread's), and so do the workers it
        # forks. A thread of its own: the server's threads keep theirs (none can win it back).
        from multiprocessing import forkserver  # noqa: PLC0415

        spawner = threading.Thread(target=lambda: (scanjob.lower_priority(target), forkserver.ensure_running()),
                                   name="skill-lsp-forkserver", daemon=True)
        spawner.start()
        spawner.join()
    # The initializer is named in each worker by its module, which the worker imports: scanjob
    # (preloaded) and not this one, which loads pygls and lsprotocol (0.24 CPU-s a worker).
    return WorkerPool(ctx, workers, initializer=scanjob.lower_priority, initargs=(target,))


class _EarlyFirst:
    """A large scan's first pass, handed to the workers while discovery still walks.

    A first open waited for the whole walk (0.3-0.4 s on 10,000 skills; seconds on a tree the
    disk has to read) with the workers idle. Skills go out in chunks as the walk finds them,
    once the pool is up, and their errors are published as the chunks come back (``drain``);
    ``pairs`` then keeps each result whose location the inventory confirms and checks the rest.
    An error published for a location the inventory does not confirm is replaced: by the first
    pass of the skill as listed, by its complete diagnostics, or cleared with the final publish
    (the file is among those the first pass published).
    """

    def __init__(self, ready, settings, fl: Flavour, cache: ResultCache, nested: tuple[str, ...] = ()) -> None:
        self.ready = ready  # the pool, or None while it starts
        self.settings = settings
        self.fl = fl
        self.cache = cache
        self.nested = nested
        self.waiting: list = []
        self.sent: list = []  # (locations, future of their first-pass texts)
        self.broken = False
        self.drained = 0  # chunks whose results ``drain`` published
        self.drained_count = 0  # skills in them
        self.kept = 0  # results of the walk's chunks that ``pairs`` took
        self.count = 0  # how many (location, text) ``pairs`` yields

    def add(self, loc) -> None:
        """A skill the walk found (discovery's ``early``): its first pass, once a chunk is full."""
        if self.broken or self.cache.stamp_for(loc) is not None or any(is_inside(loc.path, n) for n in self.nested):
            return  # a cached result vouches for itself; a nested folder's skills are checked there
        self.waiting.append(loc)
        if len(self.waiting) < FIRST_CHUNK:
            return
        workers = self.ready()
        if workers is None:
            return
        try:
            for i in range(0, len(self.waiting), FIRST_CHUNK):
                chunk = self.waiting[i:i + FIRST_CHUNK]
                self.sent.append((chunk, workers.submit(scanjob.first_jobs, chunk, self.settings, self.fl)))
        except Exception:  # noqa: BLE001 - a pool that cannot take work: the scan finds out and checks here
            self.broken = True
        self.waiting = []

    def drain(self, on_first) -> None:
        """Hand the errors of the chunks back so far, in the order sent, to ``on_first`` (``count``
        0: how many skills there are is not known yet)."""
        batch: list[tuple[str, str]] = []
        while self.drained < len(self.sent) and self.sent[self.drained][1].done():
            chunk, future = self.sent[self.drained]
            if future.cancelled() or future.exception() is not None:
                break  # a broken pool: ``pairs`` raises it, and the scan checks in its own thread
            batch.extend((loc.path, text) for loc, text in zip(chunk, future.result(), strict=True) if text is not None)
            self.drained += 1
            self.drained_count += len(chunk)
        if batch:
            on_first(batch, self.drained_count, 0)

    def pairs(self, fresh: list, workers):
        """(location, first-pass text) of the skills in ``fresh`` (the inventory's, without a cached
        result) that ``drain`` did not hand over, in no set order: those sent early whose location
        the inventory confirms, then the rest, queued now (``count`` of them in all)."""
        sent = {loc.path: loc for chunk, _ in self.sent for loc in chunk}
        kept: set[str] = set()
        rest = []
        for loc in fresh:
            if loc.path not in kept and sent.get(loc.path) == loc:
                kept.add(loc.path)
            else:
                rest.append(loc)
        self.kept = len(kept)
        for chunk, _ in self.sent[:self.drained]:
            kept.difference_update(loc.path for loc in chunk)  # published while the walk went on
        self.count = len(kept) + len(rest)
        later = workers.map(scanjob.first_job, [(loc, self.settings, self.fl) for loc in rest], chunksize=FIRST_CHUNK)

        def taken():
            for chunk, future in self.sent[self.drained:]:
                for loc, text in zip(chunk, future.result(), strict=True):
                    if loc.path in kept:
                        kept.discard(loc.path)  # once, whatever the walk named twice
                        yield loc, text
            yield from zip(rest, later, strict=True)

        return taken()


def _first_pass(pairs, count: int, on_first, cancelled, done: int = 0) -> bool:
    """Hand the first pass's ``count`` (location, errors) to ``on_first`` in batches, as they
    come: every skill's errors of stage one (what makes a harness skip it), before any complete
    check (``done`` went out already). False when the scan was cancelled."""
    batch: list[tuple[str, str]] = []
    for n, (loc, text) in enumerate(pairs, start=1):
        if text is not None:
            batch.append((loc.path, text))
        if n % PROGRESS_EVERY == 0 or n == count:
            # Asked once a batch: ``cancelled()`` sleeps while the user types (to leave the GIL
            # to the keystroke), and a first-pass result costs microseconds to take, so asked per
            # result the pauses made the pass 7 s instead of 1 on 10,000 skills.
            if cancelled():
                return False
            on_first(batch, done + n, done + count)
            batch = []
    return True


def _scan_parallel(work: list, checked, results: list, take, on_batch=None, cancelled=lambda: False) -> list | None:
    """Take the workers' results (``checked``: their map over ``work``) as they come."""
    total = len(results) + len(work)
    for job, (stamp, payload) in zip(work, checked, strict=True):
        if cancelled():
            return None
        take(job[0], stamp, payload)
        _batch(results, total, on_batch)
    return results


def _worker_priority() -> str | int:
    """The scan workers' priority: "idle", or the niceness they run at (this thread's plus
    SKILL_LSP_WORKER_NICE)."""
    # Scan workers yield the CPU to the editor and the server's own thread (keystrokes). Measured
    # against running them at the editor's priority: benchmarks/bench_priority.py, docs/performance.md.
    # SKILL_LSP_WORKER_NICE sets the increment (0: none), or "idle": Linux's SCHED_IDLE class, which
    # runs only on a core nothing else wants, for that benchmark.
    how = os.environ.get("SKILL_LSP_WORKER_NICE", "10")
    if how == "idle":
        return how
    try:
        return os.getpriority(os.PRIO_PROCESS, 0) + int(how)
    except (AttributeError, OSError, ValueError):
        return 0


def _reuser(folder: Folder, changed: set[str] | None):
    """``reuse(location)`` for a rescan after file events, or None (check everything).

    A result is kept when its SKILL.md, its folder, the folders above it and the
    paths its links leave the folder for are untouched by the events, and discovery
    puts it in the same place. Cross-skill findings are recomputed for all.
    """
    if changed is None or folder.index is None:
        return None
    old = folder.index.results
    exact = set(changed)
    below: set[str] = set()  # folders something changed in
    for path in exact:
        d = os.path.dirname(path)
        while d and d not in below:
            below.add(d)
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent

    def touched(path: str) -> bool:
        if path in exact or path in below:
            return True
        d = path
        while True:
            parent = os.path.dirname(d)
            if parent == d:
                return False
            if parent in exact:  # a folder above was created, deleted or renamed
                return True
            d = parent

    def reuse(loc):
        r = old.get(loc.path)
        if r is None or r.location != loc or touched(loc.dir) or any(touched(p) for p in r.outside):
            return None
        return copy.copy(r)  # its cross-skill findings are recomputed without touching the live index

    return reuse


async def scan_all(ls: SkillLanguageServer, changed: set[str] | None = None) -> None:
    """Scan every folder; publish their findings; newer scans make older ones stop.

    ``changed``: the paths file events named since the last complete scan; results
    they cannot affect are reused (None: check every skill).
    """
    ls.scan_generation += 1
    generation = ls.scan_generation
    ls.reads.clear()  # re-reads in flight are older than what this scan reads
    ls.scanning = True
    token = str(uuid.uuid4())
    publish.status(ls, scanning=True)
    progress = await _begin(ls, token)
    loop = asyncio.get_running_loop()
    total = 0
    # Where a scan's time went, logged at its end (the editor's output panel shows it).
    times: dict[str, float] = {}
    t_start = time.perf_counter()

    def stale() -> bool:
        """Whether a newer scan (or the shutdown) took over: asked on the event loop."""
        return generation != ls.scan_generation or ls.shutting_down

    def cancelled() -> bool:
        # Asked between two skills, in the scan thread. While the user types, the thread pauses
        # here: taking 10,000 results from the cache keeps it busy, and a keystroke needs the
        # GIL several times (read, handle, publish), each wait up to a switch interval (1 ms).
        # Never on the event loop: waiting there for an edit's analysis, which runs on the loop,
        # would stall the keystroke for the whole bound (50 ms).
        _yield_to_edits(ls)
        return stale()

    try:
        folders = ls.state.folders
        for i, folder in enumerate(folders):
            name = os.path.basename(folder.path) or folder.path

            published: set[str] = set()
            # What the first pass sent each file (its errors as JSON): a complete result that would
            # send the same text again is not sent (``_sent_already``).
            first_published: dict[str, str] = {}

            def on_batch(batch: list, done: int, count: int, i: int = i, name: str = name,
                         published: set[str] = published, first_published: dict[str, str] = first_published) -> None:
                # Called from the scan thread. Findings go out while the rest is still being
                # checked; cross-skill findings follow once every skill is known.
                # The results live as long as the index: out of the collector's reach, a full
                # collection never walks 10,000 of them while a keystroke waits.
                gc.freeze()
                asyncio.run_coroutine_threadsafe(_publish_early(ls, batch, generation, published, first_published),
                                                 loop)
                if progress:
                    pct = int(100 * (i + done / max(1, count)) / len(folders))
                    loop.call_soon_threadsafe(ls.work_done_progress.report, token, t.WorkDoneProgressReport(
                        message=f"{name}: {done:,} of {count:,} skills", percentage=pct))

            def on_first(batch: list, done: int, count: int, name: str = name, published: set[str] = published,
                         first_published: dict[str, str] = first_published) -> None:
                # Called from the scan thread during a large scan's first pass: every skill's
                # worst problems (what makes a harness skip it) go out before the complete checks.
                asyncio.run_coroutine_threadsafe(_publish_first(ls, batch, generation, published, first_published),
                                                 loop)
                if progress and count:  # 0 while discovery walks: its own report says how far
                    loop.call_soon_threadsafe(ls.work_done_progress.report, token, t.WorkDoneProgressReport(
                        message=f"{name}: names and frontmatter of {done:,} of {count:,} skills"))

            reuse = _reuser(folder, changed)
            # A pulling client asks for diagnostics itself: nothing is pushed, nothing rendered ahead.
            fl = None if ls.pull_mode else scanjob.flavour(ls.encoding, publish.related_support(ls))
            from ...engine.resultcache import open_cache  # noqa: PLC0415

            cache = open_cache(folder.path, folder.settings, scanjob.cache_extra(fl))
            folder.rendered = {}
            nested = tuple(f.path for f in folders if f is not folder and f.path != folder.path
                           and is_inside(f.path, folder.path))
            shown = [0.0]

            def on_walk(folders: int, name: str = name, shown: list[float] = shown) -> None:
                # Called from the scan thread every few hundred folders the discovery walk lists:
                # a large tree takes a second or more before the first skill is checked.
                now = time.monotonic()
                if progress and now - shown[0] >= WALK_REPORT_S:
                    shown[0] = now
                    loop.call_soon_threadsafe(ls.work_done_progress.report, token, t.WorkDoneProgressReport(
                        message=f"{name}: looking for skills ({folders:,} folders)"))

            overlap = OverlapIndex()
            results = await loop.run_in_executor(None, _scan_folder, folder, times, on_batch, cancelled, reuse,
                                                 cache, fl, len(changed or ()), nested, on_first, on_walk, overlap)
            if results is None or stale():
                return _abandon(folder, published, first_published)  # a newer scan owns publishing
            old_results = folder.index.results if folder.index is not None else {}
            index = SkillIndex(folder.settings)
            # Cross-skill rules and the skill graph over 10,000 skills: off the event loop.
            t0 = time.perf_counter()
            # Publish what has findings, and clear what had them; a clean file never published
            # stays quiet, and one whose findings are what the client already has is not sent again.
            # Chosen in the same thread as the rebuild: 10,000 results took 5-8 ms, on the event
            # loop a keystroke waited for them. A pulling client asks for what it shows
            # (request_refresh below): nothing to push.
            owed_before = set(folder.owed)
            chosen = await loop.run_in_executor(None, functools.partial(
                _rebuild, index, results, overlap, functools.partial(_yield_to_edits, ls),
                None if ls.pull_mode else set(old_results) | set(first_published) | owed_before))
            times["cross"] = times.get("cross", 0.0) + time.perf_counter() - t0
            if stale():
                return _abandon(folder, published, first_published)
            t0 = time.perf_counter()
            folder.index = index
            folder.scanned = True
            # Owed from here until published: a newer scan taking over below starts from this
            # index, not from what the client was sent (a checkout's deleted files stayed shown).
            owed = folder.owed = owed_before | set(chosen or ())
            # Open documents override the disk copy in the index.
            for od in ls.state.docs.values():
                if od.path is not None and ls.state.folder_for(od.path) is folder and od.path in index.results:
                    index.put(ls.state.result_for(od, ls.state.analyse(od)))
                    if chosen is not None and index.results[od.path].reportable:
                        _insert_sorted(chosen, od.path)
            total += len(results)
            todo = []
            candidates = chosen or ()
            turn = time.perf_counter()
            for path in candidates:
                if time.perf_counter() - turn > PUBLISH_TURN_S:
                    await asyncio.sleep(0)  # 10,000 candidates take ~5 ms: a keystroke goes first
                    if stale():
                        return _abandon(folder, published, first_published)
                    turn = time.perf_counter()
                r = index.results.get(path)
                # Sent already: early, or by the first pass when that was all the file's diagnostics.
                early = path in published or (r is not None and _sent_already(ls, r, first_published))
                if r is not None and path_to_uri(path) not in ls.state.docs and not _changed(r, old_results.get(path),
                                                                                              early) \
                        and not (path in first_published and not early) and path not in owed_before \
                        and (not early or index.places.group(index.results, path) is None):
                    owed.discard(path)
                    continue
                todo.append(path)
            turn = time.perf_counter()
            for path in todo:
                publish.publish_path(ls, path)
                owed.discard(path)
                typing = time.monotonic() - ls.last_edit < TYPING_S
                if time.perf_counter() - turn > (TYPING_TURN_S if typing else PUBLISH_TURN_S):
                    # While the user types, closed files trickle out so the edited document's
                    # diagnostics never queue behind thousands of them on the wire.
                    await asyncio.sleep(TYPING_PACE_S if typing else 0)
                    if stale():
                        return _abandon(folder, published, first_published)
                    turn = time.perf_counter()
            times["publish"] = times.get("publish", 0.0) + time.perf_counter() - t0
            folder.rendered = {}  # what was not published is not needed (clean files, open documents)
            # The new index lives until the next scan: set aside without a collection. Frozen
            # objects are still freed by reference counting; only a cycle that was alive at a
            # freeze stays (the results hold none).
            gc.freeze()
        publish.status(ls)
        ls.log(f"scan: {total:,} skills in {time.perf_counter() - t_start:.2f} s (discovery "
               f"{times.get('discover', 0):.2f}, checks {times.get('check', 0):.2f} (first pass "
               f"{times.get('first', 0):.2f}, {int(times.get('early', 0)):,} sent during discovery), cross-skill "
               f"{times.get('cross', 0):.2f}, final publish {times.get('publish', 0):.2f}, cache index read "
               f"{times.get('cache', 0):.2f}, {int(times.get('writes', 0))} cache shards written; "
               f"{int(times.get('reused', 0)):,} results reused, {int(times.get('cached', 0)):,} from the cache)")
        publish.request_refresh(ls)
        if changed is not None:
            ls.rescan_paths -= changed
    finally:
        if generation == ls.scan_generation:
            ls.scanning = False
        if progress:
            ls.work_done_progress.end(token, t.WorkDoneProgressEnd(message=f"{total} skills checked"))


def _abandon(folder: Folder, published: set[str], first_published: dict[str, str]) -> None:
    """A newer scan took over this one: what this one sent the client ahead of its index (early
    and first-pass publishes) is owed by the next one, whatever its index says."""
    folder.owed |= published | set(first_published)


def _rebuild(index: SkillIndex, results: list, overlap: OverlapIndex, pause, also: set[str] | None) -> list[str] | None:
    """``index.rebuild`` (off the event loop), then the paths a final publish looks at, in order:
    ``also`` and every result with something to report (None without ``also``: a pulling client)."""
    # The results taken since the last batch, then the index built from them, live until the next
    # scan: frozen as they are, so that no collection of the young generations walks them while
    # a keystroke waits (gen1 collections of 4-8 ms came at the end of every scan typed along).
    gc.freeze()
    index.rebuild(results, pause=pause, overlap=overlap)
    chosen = None if also is None else sorted(also | {p for p, r in index.results.items() if r.reportable})
    gc.freeze()
    return chosen


def _insert_sorted(paths: list[str], path: str) -> None:
    i = bisect_left(paths, path)
    if i == len(paths) or paths[i] != path:
        paths.insert(i, path)


def _changed(r, prev, published_early: bool) -> bool:
    """Whether the client must be sent ``r``: what it has is ``prev`` (or the early publish)."""
    sup = r.suppressions
    if published_early:
        # Published before cross-skill findings were known: again if some came, or a suppression
        # may only now be known to be unused.
        return bool(r.cross or r.graph or (sup is not None and sup.names_cross_codes))
    if prev is None:
        return r.reportable
    if (r.findings != prev.findings or r.cross != prev.cross or r.graph != prev.graph
            or sup != prev.suppressions):
        return True
    return r.reportable and r.src is not prev.src  # same offsets, other lines


def _sent_already(ls: SkillLanguageServer, r, first_published: dict[str, str]) -> bool:
    """Whether the client has ``r``'s local diagnostics already: the text a worker wrote for it is
    the one the first pass sent (a file whose findings are its errors of stage one: on a real-size
    workspace 4 in 5 of those with an error, sent twice before)."""
    sent = first_published.get(r.path)
    if sent is None or r.cross or r.graph:
        return False
    rendered = ls.state.folder_for(r.path).rendered.get(r.path)
    return rendered is not None and rendered[0] is r and rendered[1] == sent


async def _publish_first(ls: SkillLanguageServer, batch: list, generation: int, published: set[str],
                         first_published: dict[str, str]) -> None:
    """A first-pass batch: (path, its errors as the diagnostics array's JSON inside). Each file
    gets its complete diagnostics later (early, or in the final publish: ``first_published``).
    A file whose complete diagnostics went out already (``published``: this coroutine yields
    between files) keeps them: its first-pass errors would replace them until the next scan."""
    turn = time.perf_counter()
    for path, text in batch:
        if generation != ls.scan_generation or ls.pull_mode or ls.shutting_down:
            return
        uri = path_to_uri(path)
        if uri in ls.state.docs or path in published:
            continue
        publish.publish_rendered(ls, uri, text)
        first_published[path] = text
        if time.perf_counter() - turn > PUBLISH_TURN_S:
            # While the user types, a pause after each turn: a keystroke waits for at most one
            # turn (these are few, short and already written: the errors alone), and the skip
            # findings still go out while the scan runs instead of after it.
            await asyncio.sleep(TYPING_PACE_S if time.monotonic() - ls.last_edit < TYPING_S else 0)
            turn = time.perf_counter()


async def _publish_early(ls: SkillLanguageServer, batch: list, generation: int, published: set[str],
                         first_published: dict[str, str]) -> None:
    turn = time.perf_counter()
    for r in batch:
        if generation != ls.scan_generation or ls.pull_mode or ls.shutting_down:
            return
        if time.monotonic() - ls.last_edit < TYPING_S:
            # The user is typing: closed files' diagnostics would queue ahead of the edited
            # document's on the wire. The final publish of the scan sends what is left.
            return
        if (r.findings or r.suppressions) and path_to_uri(r.path) not in ls.state.docs:
            if not _sent_already(ls, r, first_published):
                publish.publish_result(ls, r, scope="local")
            published.add(r.path)
            if time.perf_counter() - turn > PUBLISH_TURN_S:
                await asyncio.sleep(0)  # a keystroke waits for at most one turn
                turn = time.perf_counter()


async def _begin(ls: SkillLanguageServer, token: str) -> bool:
    win = ls.client_capabilities.window
    if not (win and win.work_done_progress):
        return False
    try:
        await asyncio.wait_for(ls.work_done_progress.create_async(token), timeout=5)
    except Exception:  # noqa: BLE001 - a client that refuses progress still gets diagnostics
        return False
    ls.work_done_progress.begin(token, t.WorkDoneProgressBegin(title="skill-lsp: scanning skills", percentage=0,
                                                               cancellable=False))
    return True


def _read(ls: SkillLanguageServer, path: str):
    """Blocking: where ``path`` belongs now and its checked result (None: not a listed skill)."""
    folder = ls.state.folder_for(path)
    if folder.index is None:
        return None
    loc = folder.classify(path) if os.path.lexists(path) else None
    return None if loc is None else check_file(loc.path, folder.settings, loc).slim()


def _apply(ls: SkillLanguageServer, path: str, result) -> bool:
    """Put (or drop) one re-read result in its folder's index and publish what that changes.

    Returns whether the folder's inventory holds (or held) the path.
    """
    folder = ls.state.folder_for(path)
    if folder.index is None:
        return False
    if result is None:
        if path not in folder.index.results:
            return False
        touched = folder.index.remove(path)
    else:
        touched = folder.index.put(result)
    for other in touched:
        publish.publish_path(ls, other)
    return True


def reindex_path(ls: SkillLanguageServer, path: str) -> bool:
    """Re-read one SKILL.md from disk into its folder's index (publishing what that changes)."""
    return _apply(ls, path, _read(ls, path))


def refresh(ls: SkillLanguageServer, uri: str) -> None:
    """Analyse the newest version of an open document, update the index, publish what changed."""
    ls.timers.pop(uri, None)
    ls.quiet.clear()
    try:
        _refresh(ls, uri)
    finally:
        ls.quiet.set()


def _refresh(ls: SkillLanguageServer, uri: str) -> None:
    od = ls.state.docs.get(uri)
    if od is None:
        return
    analysis = ls.state.analyse(od)
    touched: set[str] = set()
    folder = ls.state.folder_for(od.path)
    listed_as = None  # (name, description) before and after: other skills' listing decisions follow them
    if folder.index is not None and od.path is not None and (
            od.path in folder.index.results or folder.classify(od.path) is not None):
        prev = folder.index.results.get(od.path)
        now = ls.state.result_for(od, analysis)
        listed_as = (None if prev is None else (prev.name, prev.description), (now.name, now.description))
        touched = folder.index.put(now)
    publish.publish_open(ls, uri)
    _publish_touched(ls, touched)
    if touched:
        publish.request_refresh(ls)
    elif listed_as is not None and listed_as[0] != listed_as[1]:
        publish.lens_refresh(ls)


def _publish_touched(ls: SkillLanguageServer, touched: set[str]) -> None:
    """Send the other files an edit's cross-skill findings changed: at once when they are few,
    otherwise after the edited document, in turns, as a scan's final publish sends closed files.
    Typed into the name of one of 2,000 copies, sending the other 1,999 on each keystroke held
    the next keystroke behind them (180 ms p50, bench_groups.py)."""
    if len(touched) <= TOUCHED_AT_ONCE or not _on_a_loop():
        for path in touched:
            publish.publish_path(ls, path)  # the newest state: one still owed is sent again later
        return
    ls.owed_touched |= touched
    if ls.touched_task is None or ls.touched_task.done():
        ls.touched_task = asyncio.ensure_future(_send_touched(ls))


async def _send_touched(ls: SkillLanguageServer) -> None:
    turn = time.perf_counter()
    while ls.owed_touched and not ls.shutting_down:
        publish.publish_path(ls, ls.owed_touched.pop())  # as the index holds it now
        typing = time.monotonic() - ls.last_edit < TYPING_S
        if time.perf_counter() - turn > (TYPING_TURN_S if typing else PUBLISH_TURN_S):
            await asyncio.sleep(TYPING_PACE_S if typing else 0)
            turn = time.perf_counter()


def schedule(ls: SkillLanguageServer, uri: str, delay_ms: int) -> None:
    """Debounce per URI: only the newest version is ever analysed."""
    old = ls.timers.pop(uri, None)
    if old is not None:
        old.cancel()
    ls.last_edit = time.monotonic()
    loop = asyncio.get_event_loop()
    if delay_ms <= 0:
        ls.quiet.clear()  # analysed next: a scan's thread waits from now (``refresh`` sets it again)
        ls.timers[uri] = loop.call_soon(refresh, ls, uri)  # type: ignore[assignment]
    else:
        ls.timers[uri] = loop.call_later(delay_ms / 1000, refresh, ls, uri)


def apply_changes(od, changes: list, enc) -> None:
    """Apply didChange content changes in order with the engine's line index (lines split only at
    \n, \r\n, \r; positions in the negotiated encoding). One index serves consecutive range edits
    until the text changes under it."""
    from ...engine.text import SourceText  # noqa: PLC0415

    src = None
    for change in changes:
        rng = getattr(change, "range", None)
        if isinstance(change, t.TextDocumentContentChangeWholeDocument) or rng is None:
            od.text = change.text
            src = None
            continue
        if src is None or src.text is not od.text:
            src = SourceText(od.text)
        s = src.offset(rng.start.line, rng.start.character, enc)
        e = src.offset(rng.end.line, rng.end.character, enc)
        od.text = od.text[:s] + change.text + od.text[max(s, e):]


def close_document(ls: SkillLanguageServer, uri: str, path: str | None) -> None:
    """Back to the file on disk: the index forgets the unsaved text."""
    if path is not None and reindex_path(ls, path):
        publish.publish_path(ls, path)
    else:
        publish.clear(ls, uri)


async def reload_settings(ls: SkillLanguageServer, *, rescan: bool, pushed: object = None) -> None:
    """Re-merge settings for every folder, re-check open documents, rescan if roots may differ."""
    state = ls.state
    client: dict[str, dict] = {}
    ws = ls.client_capabilities.workspace
    folders = state.folders or [state.default]
    if ws and ws.configuration:
        try:
            items = [t.ConfigurationItem(scope_uri=f.uri or None, section="skillLsp") for f in folders]
            values = await asyncio.wait_for(ls.workspace_configuration_async(t.ConfigurationParams(items=items)), 5)
            client = {f.path: v for f, v in zip(folders, values or [], strict=False) if isinstance(v, dict)}
        except Exception:  # noqa: BLE001 - a client that cannot answer keeps the other layers
            client = {}
    elif pushed is not None:
        client = {f.path: settings_section(pushed) for f in folders}
    problems: list[str] = []
    for f in folders:
        f.load_file_settings()
        problems += f.apply(state.init_options, client.get(f.path))
    if problems:
        ls.show("skill-lsp settings: " + "; ".join(dict.fromkeys(problems))
                + " (ignored: the defaults are used for these; `skill-lsp check` stops on them)")
    state.analyses.clear()
    ls.settings_ready = True
    for uri in list(state.docs):
        refresh(ls, uri)  # open documents first: they are what the author is looking at
    if rescan and state.folders:
        await scan_all(ls)
    publish.request_refresh(ls)


def settings_section(value: object) -> dict:
    if isinstance(value, dict):
        inner = value.get("skillLsp", value)
        return inner if isinstance(inner, dict) else {}
    return {}


# --- file events, coalesced ---

SETTINGS_FILES = (".skill-lsp.toml", "pyproject.toml")


def file_changes(ls: SkillLanguageServer, changes: list[tuple[str, int]]) -> None:
    """Queue (path, FileChangeType) events; one batch runs COALESCE_MS after the last arrives."""
    ls.pending_changes.extend(changes)
    if ls.pending_task is not None and not ls.pending_task.done():
        ls.pending_task.cancel()  # still in its sleep: the batch waits for this event too
    ls.pending_task = asyncio.ensure_future(_drain_later(ls))


async def _drain_later(ls: SkillLanguageServer) -> None:
    await asyncio.sleep(COALESCE_MS / 1000)
    changes, ls.pending_changes = ls.pending_changes, []
    # Applied in a task of its own, which a later event cannot cancel: cancelling it halfway lost
    # the batch (a scan killed at an await, its paths then never read; a checkout whose events
    # came in two bursts left 500 files stale). A later batch that needs a scan supersedes a
    # running one through the scan generation instead.
    task = asyncio.ensure_future(apply_file_changes(ls, changes))
    ls.applying.add(task)
    task.add_done_callback(ls.applying.discard)


async def apply_file_changes(ls: SkillLanguageServer, changes: list[tuple[str, int]]) -> None:
    from ..uris import is_skill_file  # noqa: PLC0415

    skill_paths: dict[str, int] = {}
    rescan = False
    for path, kind in changes:
        if os.path.basename(path) in SETTINGS_FILES:
            await reload_settings(ls, rescan=True)
            return
        if is_skill_file(path):
            skill_paths[path] = kind  # the last event for a path wins
        else:
            rescan = True  # a folder appeared, vanished or was renamed
    if rescan or ls.scanning or len(skill_paths) > REINDEX_MAX:
        # A scan still running read the disk before these events: start over so its
        # stale results are dropped (the generation check) and the new state wins.
        # Paths named since the last complete scan accumulate: only what they can
        # affect is read again.
        ls.rescan_paths.update(path for path, _kind in changes)
        await scan_all(ls, changed=set(ls.rescan_paths))
    else:
        todo = [p for p, kind in skill_paths.items()
                if not (path_to_uri(p) in ls.state.docs and kind == int(t.FileChangeType.Changed))]
        # Two batches naming one file may be read at once: only the newest read is applied. A scan
        # starting meanwhile drops these reads (scan_all clears ``reads``) and, finding the paths
        # in ``rescan_paths``, reads them again instead of keeping what the index held.
        ls.read_serial += 1
        serial = ls.read_serial
        ls.reads.update(dict.fromkeys(todo, serial))
        ls.rescan_paths.update(todo)
        # Files are read and checked off the event loop: keystrokes stay quick during a burst.
        results = await asyncio.get_running_loop().run_in_executor(None, lambda: [_read(ls, p) for p in todo])
        for path, result in zip(todo, results, strict=True):
            if ls.reads.get(path) != serial:
                continue  # read again since, by a newer batch or a scan
            del ls.reads[path]
            ls.rescan_paths.discard(path)  # the index holds what was read after the event
            if _apply(ls, path, result):
                publish.publish_path(ls, path)
            elif skill_paths[path] == int(t.FileChangeType.Deleted):
                publish.clear(ls, path_to_uri(path))
        publish.status(ls)  # the skill count may have changed
    for od in list(ls.state.docs.values()):
        ls.state.analyses.pop(od.uri, None)  # link targets may have appeared or gone
        refresh(ls, od.uri)
